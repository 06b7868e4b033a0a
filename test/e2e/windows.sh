# Sourced by run-conv.sh and run-pool.sh: the windows of an NHWC image as
# both write them. With image, strides, dilations and padding set (NxHxWxC,
# rows,cols, rows,cols, top,bottom,left,right) and kh, kw the window, sets
# n h w c, sh sw, dh dw, top bottom left right, the padded image ph x pw
# and the output oh x ow (every window, as tpu.windows makes them); and
# defines image_pad VALUE, which writes the tensor.pad of %x by the MLIR
# value VALUE to %p when there is padding, and names in $source what the
# window op reads (%p or %x).
IFS=x read -r n h w c <<<"$image"
IFS=, read -r sh sw <<<"$strides"
IFS=, read -r dh dw <<<"$dilations"
IFS=, read -r top bottom left right <<<"$padding"
ph=$((h + top + bottom)) pw=$((w + left + right))
oh=$(((ph - dh * (kh - 1) - 1) / sh + 1))
ow=$(((pw - dw * (kw - 1) - 1) / sw + 1))
source=%x
image_pad() {
  [[ $padding != 0,0,0,0 ]] || return 0
  echo "  %p = tensor.pad %x low[0, $top, $left, 0] high[0, $bottom, $right, 0] {"
  echo "  ^bb0(%i: index, %j: index, %k: index, %l: index):"
  echo "    tensor.yield $1 : f32"
  echo "  } : tensor<${image}xf32> to tensor<${n}x${ph}x${pw}x${c}xf32>"
}
[[ $padding == 0,0,0,0 ]] || source=%p
