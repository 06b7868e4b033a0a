// bf16 tensors packed two to a word (docs/Compiler.md, "Packed bf16").
// test/e2e/bf16-packed.test compiles each function as the entry.
#id = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>

// The same sum in bf16 and in f32: the bf16 one moves half the bytes.
func.func @add_bf16(%a: tensor<256x384xbf16>, %b: tensor<256x384xbf16>) -> tensor<256x384xbf16> {
  %e = tensor.empty() : tensor<256x384xbf16>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<256x384xbf16>, tensor<256x384xbf16>) outs(%e : tensor<256x384xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %sum = arith.addf %xe, %ye : f32
    %t = arith.truncf %sum : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x384xbf16>
  return %s : tensor<256x384xbf16>
}

func.func @add_f32(%a: tensor<256x384xf32>, %b: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %e = tensor.empty() : tensor<256x384xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<256x384xf32>, tensor<256x384xf32>) outs(%e : tensor<256x384xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %sum = arith.addf %x, %y : f32
    linalg.yield %sum : f32
  } -> tensor<256x384xf32>
  return %s : tensor<256x384xf32>
}

// bf16 and f32 operands of one op, 7 rows a matrix: each bf16 tile's high
// half is padding, and an f32 matrix has one row tile, no high one.
func.func @mixed(%a: tensor<3x7x200xbf16>, %b: tensor<3x7x200xf32>) -> (tensor<3x7x200xbf16>, tensor<3x7x200xf32>) {
  %e16 = tensor.empty() : tensor<3x7x200xbf16>
  %e32 = tensor.empty() : tensor<3x7x200xf32>
  %s16 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<3x7x200xbf16>, tensor<3x7x200xf32>) outs(%e16 : tensor<3x7x200xbf16>) {
  ^bb0(%x: bf16, %y: f32, %o: bf16):
    %xe = arith.extf %x : bf16 to f32
    %sum = arith.addf %xe, %y : f32
    %t = arith.truncf %sum : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x7x200xbf16>
  %s32 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<3x7x200xbf16>, tensor<3x7x200xf32>) outs(%e32 : tensor<3x7x200xf32>) {
  ^bb0(%x: bf16, %y: f32, %o: f32):
    %xe = arith.extf %x : bf16 to f32
    %sum = arith.addf %xe, %y : f32
    linalg.yield %sum : f32
  } -> tensor<3x7x200xf32>
  return %s16, %s32 : tensor<3x7x200xbf16>, tensor<3x7x200xf32>
}

// bf16 weights through a transpose (a kernel that moves words, so it
// takes them as f32) into a matmul that reads them packed; 40 rows of the
// LHS are two and a half packed tiles.
func.func @weights(%x: tensor<40x300xf32>, %w: tensor<129x300xbf16>) -> tensor<40x129xf32> {
  %et = tensor.empty() : tensor<300x129xbf16>
  %wt = linalg.transpose ins(%w : tensor<129x300xbf16>) outs(%et : tensor<300x129xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<40x129xf32>) -> tensor<40x129xf32>
  %p = linalg.matmul ins(%x, %wt : tensor<40x300xf32>, tensor<300x129xbf16>) outs(%init : tensor<40x129xf32>) -> tensor<40x129xf32>
  return %p : tensor<40x129xf32>
}

// A bf16 bias and a bf16 residual added to a matmul's f32 result: the
// epilogue reads f32 tiles, so these stay a separate elementwise op.
func.func @epilogue(%x: tensor<64x300xf32>, %w: tensor<300x256xf32>, %bias: tensor<256xbf16>, %res: tensor<64x256xbf16>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %p = linalg.matmul ins(%x, %w : tensor<64x300xf32>, tensor<300x256xf32>) outs(%init : tensor<64x256xf32>) -> tensor<64x256xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (j)>, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %bias, %res : tensor<64x256xf32>, tensor<256xbf16>, tensor<64x256xbf16>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: bf16, %r: bf16, %o: f32):
    %be = arith.extf %b : bf16 to f32
    %re = arith.extf %r : bf16 to f32
    %t = arith.addf %a, %be : f32
    %u = arith.addf %t, %re : f32
    linalg.yield %u : f32
  } -> tensor<64x256xf32>
  return %s : tensor<64x256xf32>
}

// A bf16 bias alone: a row, read packed into the matmul's epilogue.
func.func @bias(%x: tensor<64x300xf32>, %w: tensor<300x256xf32>, %bias: tensor<256xbf16>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %p = linalg.matmul ins(%x, %w : tensor<64x300xf32>, tensor<300x256xf32>) outs(%init : tensor<64x256xf32>) -> tensor<64x256xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (j)>, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<64x256xf32>, tensor<256xbf16>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: bf16, %o: f32):
    %be = arith.extf %b : bf16 to f32
    %t = arith.addf %a, %be : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  return %s : tensor<64x256xf32>
}
