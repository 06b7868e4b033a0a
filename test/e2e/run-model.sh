#!/usr/bin/env bash
# The reference model applied to a whole example, step by step with tpu-ref
# (docs/Numerics.md): each step is one op of the program as it is written,
# in its operand order (a matmul at the precision given, a broadcast, an
# elementwise op, a reduction in the documented order), so the compiled
# program must match the result bit for bit.
#
#   run-model.sh EXAMPLE DIR PRECISION
#     EXAMPLE  mlp | attention | transformer_block | cnn
#     DIR      holds the example's inputs (mlp: x w1 b1 w2 b2; attention:
#              q k v; transformer_block: in1 .. in13, as
#              examples/transformer_block-inputs.sh writes them; cnn: x w1
#              b1 w2 b2 w3 b3, as examples/cnn-inputs.sh does); the
#              model's steps go to DIR/model/, its result to DIR/model.npy
# The tools must be on PATH.
set -euo pipefail
example=$1 dir=$2 precision=$3
m=$dir/model
mkdir -p "$m"

path() { [[ -f $dir/$1.npy ]] && echo "$dir/$1.npy" || echo "$m/$1.npy"; }
# mm OUT A B: the matmul; bc OUT IN SHAPE DIMS: new dimensions DIMS;
# ew OUT OP A [B]: an elementwise op; const OUT SHAPE VALUE; tp OUT IN:
# the last two dimensions swapped; red OUT IN KIND INIT [DIMS]: the last
# dimension, or the leading dimensions DIMS.
mm() { tpu-ref matmul --precision="$precision" "$(path "$2")" "$(path "$3")" -o "$m/$1.npy"; }
bc() { tpu-ref broadcast --shape="$3" --dimensions="$4" "$(path "$2")" -o "$m/$1.npy"; }
ew() {
  local out=$1 op=$2 inputs=()
  shift 2
  for name in "$@"; do inputs+=("$(path "$name")"); done
  tpu-ref elementwise --op="$op" "${inputs[@]}" -o "$m/$out.npy"
}
const() { tpu-ref random --shape="$2" --dist=constant --value="$3" -o "$m/$1.npy"; }
tp() { tpu-ref transpose "$(path "$2")" -o "$m/$1.npy"; }
red() {
  local dims=()
  [[ -z ${5:-} ]] || dims=(--dimensions="$5")
  tpu-ref reduce --kind="$3" --init="$4" "${dims[@]}" "$(path "$2")" -o "$m/$1.npy"
}
# conv OUT IMAGE FILTER PADDING: linalg.conv_2d_nhwc_hwcf (strides and
# dilations 1); maxpool2 OUT IN: linalg.pooling_nhwc_max of 2x2, stride 2,
# from -inf.
conv() { tpu-ref conv --padding="$4" --precision="$precision" "$(path "$2")" "$(path "$3")" -o "$m/$1.npy"; }
maxpool2() { tpu-ref pool --kind=max --init=-inf --window=2,2 --strides=2,2 "$(path "$2")" -o "$m/$1.npy"; }
# bias_relu OUT IN BIAS SHAPE: relu(in + bias) with the bias broadcast
# over an NHWC shape.
bias_relu() {
  bc "$1.bias" "$3" "$4" 0,1,2
  ew "$1.sum" addf "$2" "$1.bias"
  const "$1.zeros" "$4" 0
  ew "$1" maximumf "$1.sum" "$1.zeros"
}
# softmax OUT IN SHAPE LAST MAXKIND MAXINIT: max-subtracted, over the last
# dimension LAST, as the examples write it (or linalg.softmax decomposes).
softmax() {
  local out=$1 in=$2 shape=$3 last=$4
  red "$out.max" "$in" "$5" "$6"
  bc "$out.wmax" "$out.max" "$shape" "$last"
  ew "$out.diff" subf "$in" "$out.wmax"
  ew "$out.exp" exp "$out.diff"
  red "$out.sum" "$out.exp" sum 0
  bc "$out.wsum" "$out.sum" "$shape" "$last"
  ew "$out" divf "$out.exp" "$out.wsum"
}
# layer_norm OUT IN GAMMA BETA: examples/transformer_block.mlir's
# @layer_norm on 128x256.
layer_norm() {
  local out=$1 in=$2
  red "$out.sum" "$in" sum 0
  bc "$out.wsum" "$out.sum" 128x256 1
  ew "$out.mean" mulf "$out.wsum" inv256
  ew "$out.centered" subf "$in" "$out.mean"
  ew "$out.squares" mulf "$out.centered" "$out.centered"
  red "$out.sumsq" "$out.squares" sum 0
  bc "$out.wsumsq" "$out.sumsq" 128x256 1
  bc "$out.gamma" "$3" 128x256 0
  bc "$out.beta" "$4" 128x256 0
  ew "$out.var" mulf "$out.wsumsq" inv256
  ew "$out.ve" addf "$out.var" eps
  ew "$out.r" rsqrt "$out.ve"
  ew "$out.n" mulf "$out.centered" "$out.r"
  ew "$out.ng" mulf "$out.n" "$out.gamma"
  ew "$out" addf "$out.ng" "$out.beta"
}

case $example in
mlp)
  mm xw x w1
  bc b1wide b1 256x1024 0
  ew pre addf xw b1wide
  const zeros 256x1024 0
  ew h maximumf pre zeros
  mm hw h w2
  bc b2wide b2 256x10 0
  ew logits addf hw b2wide
  softmax p logits 256x10 1 max -inf
  cp "$m/p.npy" "$dir/model.npy"
  ;;
attention)
  tp kt k
  mm qk q kt
  const scale 512x512 0.0883883461
  ew s mulf qk scale
  softmax p s 512x512 1 max -inf
  mm o p v
  cp "$m/o.npy" "$dir/model.npy"
  ;;
transformer_block)
  const inv256 128x256 3.906250e-03
  const eps 128x256 1.0e-05
  # h = x + Attention(LayerNorm1(x))
  layer_norm n1 in1 in2 in3
  bc n1heads n1 4x128x256 0
  mm q n1heads in4
  mm k n1heads in5
  mm v n1heads in6
  tp kt k
  mm scores q kt
  const eighth 4x128x128 0.125
  ew scaled mulf scores eighth
  softmax probs scaled 4x128x128 2 maxnum nan
  mm heads probs v
  mm perhead heads in7
  red attn perhead sum 0 0
  ew h addf in1 attn
  # y = h + W2 GELU(W1 LayerNorm2(h) + b1) + b2
  layer_norm n2 h in8 in9
  mm u n2 in10
  bc b1wide in11 128x1024 0
  const half 128x1024 0.5
  const one 128x1024 1.0
  const c 128x1024 0.044715
  const k 128x1024 0.797884583
  ew z addf u b1wide
  ew z2 mulf z z
  ew z3 mulf z2 z
  ew cz3 mulf c z3
  ew inner addf z cz3
  ew zscaled mulf k inner
  ew t tanh zscaled
  ew oneplus addf one t
  ew halfz mulf half z
  ew g mulf halfz oneplus
  mm d g in12
  bc b2wide in13 128x256 0
  ew s addf d b2wide
  ew y addf s h
  cp "$m/y.npy" "$dir/model.npy"
  ;;
cnn)
  conv c1 x w1 1,1,1,1
  bias_relu r1 c1 b1 8x32x32x32
  maxpool2 p1 r1
  conv c2 p1 w2 1,1,1,1
  bias_relu r2 c2 b2 8x16x16x64
  maxpool2 p2 r2
  conv d p2 w3 0,0,0,0
  tpu-ref reshape --shape=8x10 "$m/d.npy" -o "$m/flat.npy"
  bc b3wide b3 8x10 0
  ew logits addf flat b3wide
  cp "$m/logits.npy" "$dir/model.npy"
  ;;
*)
  echo "run-model.sh: unknown example '$example'" >&2
  exit 1
  ;;
esac
