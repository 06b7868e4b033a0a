// RUN: tpu-opt %s --tpu-convert-linalg --split-input-file | FileCheck %s
// RUN: tpu-opt %s --tpu-convert-linalg="default-precision=float32" --split-input-file | FileCheck %s --check-prefix=HIGHEST
// RUN: tpu-opt %s --tpu-convert-linalg="default-precision=BF16_BF16_F32_X3" --split-input-file | FileCheck %s --check-prefix=HIGH

// A zero fill is the usual "start from zero": no accumulator, and the fill
// goes away. The default precision applies.
// CHECK-LABEL: func @zero_init
// CHECK-NOT: linalg.fill
// CHECK: %[[R:.*]] = tpu.matmul %arg0, %arg1 {precision = #tpu.precision<default>} : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
// CHECK: return %[[R]]
// HIGHEST-LABEL: func @zero_init
// HIGHEST: tpu.matmul {{.*}} {precision = #tpu.precision<highest>}
// HIGH-LABEL: func @zero_init
// HIGH: tpu.matmul {{.*}} {precision = #tpu.precision<high>}
func.func @zero_init(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<7x129xf32>) -> tensor<7x129xf32>
  %c = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>) outs(%init : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %c : tensor<7x129xf32>
}

// -----

// So is a zero tensor constant (what some front ends write); a constant
// of anything else is an accumulator like any other.
// CHECK-LABEL: func @zero_constant_init
// CHECK: tpu.matmul %arg0, %arg1 {precision = #tpu.precision<default>} : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<7x129xf32>
// CHECK: tpu.matmul %arg0, %arg1 acc %[[ONES]]
func.func @zero_constant_init(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> (tensor<7x129xf32>, tensor<7x129xf32>) {
  %zeros = arith.constant dense<0.0> : tensor<7x129xf32>
  %c = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>) outs(%zeros : tensor<7x129xf32>) -> tensor<7x129xf32>
  %ones = arith.constant dense<1.0> : tensor<7x129xf32>
  %d = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>) outs(%ones : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %c, %d : tensor<7x129xf32>, tensor<7x129xf32>
}

// -----

// Any other init is accumulated into; the op's own precision wins.
// CHECK-LABEL: func @accumulate
// CHECK: tpu.matmul %arg0, %arg1 acc %arg2 {precision = #tpu.precision<highest>} : tensor<8x128xbf16>, tensor<128x256xf32>, tensor<8x256xf32> -> tensor<8x256xf32>
// HIGH-LABEL: func @accumulate
// HIGH: {precision = #tpu.precision<highest>}
func.func @accumulate(%a: tensor<8x128xbf16>, %b: tensor<128x256xf32>, %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = linalg.matmul {tpu.precision = #tpu.precision<highest>} ins(%a, %b : tensor<8x128xbf16>, tensor<128x256xf32>) outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}

// -----

// A fill of something else than zero is an accumulator like any other.
// CHECK-LABEL: func @one_init
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: tpu.matmul %arg0, %arg1 acc %[[FILL]]
func.func @one_init(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<1x1xf32>
  %init = linalg.fill ins(%one : f32) outs(%empty : tensor<1x1xf32>) -> tensor<1x1xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1x1xf32>, tensor<1x1xf32>) outs(%init : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %c : tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func @batched
// CHECK: tpu.matmul %arg0, %arg1 {precision = #tpu.precision<default>} : tensor<3x7x300xf32>, tensor<3x300x129xf32> -> tensor<3x7x129xf32>
func.func @batched(%a: tensor<3x7x300xf32>, %b: tensor<3x300x129xf32>) -> tensor<3x7x129xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x7x129xf32>) -> tensor<3x7x129xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x7x300xf32>, tensor<3x300x129xf32>) outs(%init : tensor<3x7x129xf32>) -> tensor<3x7x129xf32>
  return %c : tensor<3x7x129xf32>
}

// -----

// A matrix-vector product multiplies by a K x 1 matrix.
// CHECK-LABEL: func @matvec
// CHECK: %[[X:.*]] = tpu.reshape %arg1 : tensor<300xf32> -> tensor<300x1xf32>
// CHECK: %[[Y:.*]] = tpu.reshape %arg2 : tensor<7xf32> -> tensor<7x1xf32>
// CHECK: %[[R:.*]] = tpu.matmul %arg0, %[[X]] acc %[[Y]] {precision = #tpu.precision<default>} : tensor<7x300xf32>, tensor<300x1xf32>, tensor<7x1xf32> -> tensor<7x1xf32>
// CHECK: %[[C:.*]] = tpu.reshape %[[R]] : tensor<7x1xf32> -> tensor<7xf32>
// CHECK: return %[[C]]
func.func @matvec(%a: tensor<7x300xf32>, %x: tensor<300xf32>, %y: tensor<7xf32>) -> tensor<7xf32> {
  %r = linalg.matvec ins(%a, %x : tensor<7x300xf32>, tensor<300xf32>) outs(%y : tensor<7xf32>) -> tensor<7xf32>
  return %r : tensor<7xf32>
}

// -----

// An elementwise linalg.generic becomes tpu.elementwise with the same body,
// reading only its inputs.
// CHECK-LABEL: func @multiply
// CHECK: %[[Q:.*]] = tpu.elementwise ins(%arg0, %arg1 : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: tpu.yield %[[D]] : f32
// CHECK: return %[[Q]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @multiply(%a: tensor<7x300xf32>, %b: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %empty = tensor.empty() : tensor<7x300xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<7x300xf32>, tensor<7x300xf32>) outs(%empty : tensor<7x300xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %d = arith.mulf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<7x300xf32>
  return %q : tensor<7x300xf32>
}

// -----

// Named elementwise ops are generalized first; casts between f32 and bf16
// are elementwise too.
// CHECK-LABEL: func @named
// CHECK: tpu.elementwise ins(%arg0, %arg1 : tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
// CHECK: arith.subf
// CHECK: tpu.elementwise ins(%{{.*}} : tensor<8x128xf32>) -> tensor<8x128xbf16>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @named(%a: tensor<8x128xf32>, %b: tensor<8x128xf32>) -> tensor<8x128xbf16> {
  %empty = tensor.empty() : tensor<8x128xf32>
  %d = linalg.sub ins(%a, %b : tensor<8x128xf32>, tensor<8x128xf32>) outs(%empty : tensor<8x128xf32>) -> tensor<8x128xf32>
  %empty16 = tensor.empty() : tensor<8x128xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<8x128xf32>) outs(%empty16 : tensor<8x128xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %r = arith.truncf %x : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<8x128xbf16>
  return %t : tensor<8x128xbf16>
}

// -----

// arith.divf runs on the VPU (v.div).
// CHECK-LABEL: func @divide
// CHECK: tpu.elementwise ins(%arg0, %arg1 : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
// CHECK: arith.divf
func.func @divide(%a: tensor<7x300xf32>, %b: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %empty = tensor.empty() : tensor<7x300xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<7x300xf32>, tensor<7x300xf32>) outs(%empty : tensor<7x300xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %d = arith.divf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<7x300xf32>
  return %q : tensor<7x300xf32>
}

// -----

// A float constant from outside the body is copied into it; math ops,
// comparisons and selects are VPU ops too.
// CHECK-LABEL: func.func @relu_exp
// CHECK: tpu.elementwise ins(%arg0 : tensor<7x300xf32>) -> tensor<7x300xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[M]] : f32
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[E]], %[[X]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.select %[[GT]], %[[E]], %[[ZERO]] : f32
// CHECK-NEXT: tpu.yield %[[S]] : f32
func.func @relu_exp(%a: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<7x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<7x300xf32>) outs(%empty : tensor<7x300xf32>) {
  ^bb0(%x: f32, %out: f32):
    %m = arith.maximumf %x, %zero : f32
    %e = math.exp %m : f32
    %gt = arith.cmpf ogt, %e, %x : f32
    %s = arith.select %gt, %e, %zero : f32
    linalg.yield %s : f32
  } -> tensor<7x300xf32>
  return %r : tensor<7x300xf32>
}

// -----

// An input whose map drops dimensions is broadcast to the result's shape
// first: a bias row (d1) down the rows, a matrix across a batch (d1, d2);
// linalg.broadcast is the same op.
// CHECK-LABEL: func.func @bias_and_batch
// CHECK: %[[ROW:.*]] = tpu.broadcast %arg1 dimensions = [0, 1] : tensor<300xf32> -> tensor<3x7x300xf32>
// CHECK: %[[MAT:.*]] = tpu.broadcast %arg2 dimensions = [0] : tensor<7x300xf32> -> tensor<3x7x300xf32>
// CHECK: %[[SUM:.*]] = tpu.elementwise ins(%arg0, %[[ROW]], %[[MAT]] : tensor<3x7x300xf32>, tensor<3x7x300xf32>, tensor<3x7x300xf32>) -> tensor<3x7x300xf32>
// CHECK: tpu.broadcast %arg1 dimensions = [0] : tensor<300xf32> -> tensor<7x300xf32>
func.func @bias_and_batch(%x: tensor<3x7x300xf32>, %bias: tensor<300xf32>, %m: tensor<7x300xf32>) -> (tensor<3x7x300xf32>, tensor<7x300xf32>) {
  %empty = tensor.empty() : tensor<3x7x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %bias, %m : tensor<3x7x300xf32>, tensor<300xf32>, tensor<7x300xf32>) outs(%empty : tensor<3x7x300xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<3x7x300xf32>
  %empty2 = tensor.empty() : tensor<7x300xf32>
  %rows = linalg.broadcast ins(%bias : tensor<300xf32>) outs(%empty2 : tensor<7x300xf32>) dimensions = [0]
  return %r, %rows : tensor<3x7x300xf32>, tensor<7x300xf32>
}

// -----

// A max over the last dimension: tpu.reduce to a column, made a vector;
// used across its rows, the column itself is widened (tpu.broadcast_lanes)
// and the reshape pair is gone.
// CHECK-LABEL: func.func @row_max
// CHECK: %[[COL:.*]] = tpu.reduce %arg0 kind = <max> init = 0xFF800000 : tensor<7x300xf32> -> tensor<7x1xf32>
// CHECK: %[[VEC:.*]] = tpu.reshape %[[COL]] : tensor<7x1xf32> -> tensor<7xf32>
// CHECK: %[[WIDE:.*]] = tpu.broadcast_lanes %[[COL]] : tensor<7x1xf32> -> tensor<7x300xf32>
// CHECK: tpu.elementwise ins(%arg0, %[[WIDE]] : tensor<7x300xf32>, tensor<7x300xf32>)
// CHECK: return %{{.*}}, %[[VEC]]
func.func @row_max(%x: tensor<7x300xf32>) -> (tensor<7x300xf32>, tensor<7xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %rows = tensor.empty() : tensor<7xf32>
  %lowest = linalg.fill ins(%ninf : f32) outs(%rows : tensor<7xf32>) -> tensor<7xf32>
  %max = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%lowest : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %init = tensor.empty() : tensor<7x300xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<7x300xf32>, tensor<7xf32>) outs(%init : tensor<7x300xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %s = arith.subf %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<7x300xf32>
  return %d, %max : tensor<7x300xf32>, tensor<7xf32>
}

// -----

// A transpose of the last two dimensions, leading ones in place.
// CHECK-LABEL: func.func @transpose
// CHECK: tpu.transpose %arg0 : tensor<2x7x300xf32> -> tensor<2x300x7xf32>
func.func @transpose(%a: tensor<2x7x300xf32>) -> tensor<2x300x7xf32> {
  %e = tensor.empty() : tensor<2x300x7xf32>
  %t = linalg.transpose ins(%a : tensor<2x7x300xf32>) outs(%e : tensor<2x300x7xf32>) permutation = [0, 2, 1]
  return %t : tensor<2x300x7xf32>
}

// -----

// linalg.softmax, as upstream decomposes it: a maxnumf reduction (a
// reduction linalg.generic) from NaN, exp of the difference, a sum, a
// division; each reduction a tpu.reduce, each per-row value widened.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.*]] = tpu.reduce %arg0 kind = <maxnum> init = 0xFFC00000 : tensor<7x300xf32> -> tensor<7x1xf32>
// CHECK: %[[WIDEMAX:.*]] = tpu.broadcast_lanes %[[MAX]] : tensor<7x1xf32> -> tensor<7x300xf32>
// CHECK: %[[EXP:.*]] = tpu.elementwise ins(%arg0, %[[WIDEMAX]] : tensor<7x300xf32>, tensor<7x300xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = tpu.reduce %[[EXP]] kind = <sum> init = 0.000000e+00 : tensor<7x300xf32> -> tensor<7x1xf32>
// CHECK: %[[WIDESUM:.*]] = tpu.broadcast_lanes %[[SUM]] : tensor<7x1xf32> -> tensor<7x300xf32>
// CHECK: tpu.elementwise ins(%[[EXP]], %[[WIDESUM]] : tensor<7x300xf32>, tensor<7x300xf32>)
// CHECK: arith.divf
// CHECK-NOT: linalg.
func.func @softmax(%x: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %e = tensor.empty() : tensor<7x300xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<7x300xf32>) outs(%e : tensor<7x300xf32>) -> tensor<7x300xf32>
  return %s : tensor<7x300xf32>
}

// -----

// A min that ignores NaN, written as a reduction linalg.generic.
// CHECK-LABEL: func.func @row_minnum
// CHECK: tpu.reduce %arg0 kind = <minnum> init = 0x7F800000 : tensor<3x200xf32> -> tensor<3x1xf32>
func.func @row_minnum(%x: tensor<3x200xf32>) -> tensor<3xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%inf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x200xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.minnumf %acc, %in : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Softmax over the last dimension of a rank-3 tensor (attention's scores,
// one matrix per head): the reductions keep columns per matrix, the
// per-row values are widened per matrix.
// CHECK-LABEL: func.func @softmax_heads
// CHECK: %[[MAX:.*]] = tpu.reduce %arg0 kind = <maxnum> init = 0xFFC00000 : tensor<4x7x300xf32> -> tensor<4x7x1xf32>
// CHECK: tpu.broadcast_lanes %[[MAX]] : tensor<4x7x1xf32> -> tensor<4x7x300xf32>
// CHECK: tpu.reduce %{{.*}} kind = <sum> init = 0.000000e+00 : tensor<4x7x300xf32> -> tensor<4x7x1xf32>
// CHECK: tpu.broadcast_lanes %{{.*}} : tensor<4x7x1xf32> -> tensor<4x7x300xf32>
func.func @softmax_heads(%x: tensor<4x7x300xf32>) -> tensor<4x7x300xf32> {
  %e = tensor.empty() : tensor<4x7x300xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<4x7x300xf32>) outs(%e : tensor<4x7x300xf32>) -> tensor<4x7x300xf32>
  return %s : tensor<4x7x300xf32>
}

// -----

// A sum over a leading dimension (heads): tpu.reduce_matrices, layout kept.
// CHECK-LABEL: func.func @sum_heads
// CHECK: tpu.reduce_matrices %arg0 dimensions = [0] kind = <sum> init = 0.000000e+00 : tensor<4x7x300xf32> -> tensor<7x300xf32>
// CHECK-NOT: tpu.reshape
func.func @sum_heads(%x: tensor<4x7x300xf32>) -> tensor<7x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x300xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7x300xf32>) -> tensor<7x300xf32>
  %r = linalg.reduce ins(%x : tensor<4x7x300xf32>) outs(%init : tensor<7x300xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7x300xf32>
}

// -----

// A sum down the columns (the mean over a batch, before the scale): a row
// of the columns' values, made a vector (a view of the same tiles).
// CHECK-LABEL: func.func @column_sum
// CHECK: %[[ROW:.*]] = tpu.reduce_columns %arg0 kind = <sum> init = 0.000000e+00 : tensor<300x129xf32> -> tensor<1x129xf32>
// CHECK: tpu.reshape %[[ROW]] : tensor<1x129xf32> -> tensor<129xf32>
func.func @column_sum(%x: tensor<300x129xf32>) -> tensor<129xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<129xf32>) -> tensor<129xf32>
  %r = linalg.reduce ins(%x : tensor<300x129xf32>) outs(%init : tensor<129xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<129xf32>
}

// -----

// Reshapes that keep the tiles become tpu.reshape (views once bufferized).
// CHECK-LABEL: func.func @reshapes
// CHECK: tpu.reshape %arg0 : tensor<2x64x300xf32> -> tensor<128x300xf32>
// CHECK: tpu.reshape %arg1 : tensor<7x300xf32> -> tensor<1x7x300xf32>
func.func @reshapes(%x: tensor<2x64x300xf32>, %y: tensor<7x300xf32>) -> (tensor<128x300xf32>, tensor<1x7x300xf32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x64x300xf32> into tensor<128x300xf32>
  %e = tensor.expand_shape %y [[0, 1], [2]] output_shape [1, 7, 300] : tensor<7x300xf32> into tensor<1x7x300xf32>
  return %c, %e : tensor<128x300xf32>, tensor<1x7x300xf32>
}

// -----

// arith on tensors is converted here, without folding: x * 1 stays a
// multiplication (the VPU's flushes), and a splat constant operand becomes
// a constant in the body.
// CHECK-LABEL: func.func @times_one
// CHECK: tpu.elementwise ins(%arg0 : tensor<9x130xf32>) -> tensor<9x130xf32> {
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: arith.mulf %{{.*}}, %[[ONE]] : f32
func.func @times_one(%x: tensor<9x130xf32>) -> tensor<9x130xf32> {
  %one = arith.constant dense<1.0> : tensor<9x130xf32>
  %r = arith.mulf %x, %one : tensor<9x130xf32>
  return %r : tensor<9x130xf32>
}

// -----

// A convolution is im2col: the channels padded to 128 (image and filter),
// the SAME padding folded into the windows (the tensor.pad goes), the
// taps in lanes, times the filter as a matrix every image shares. Its
// useful MACs leave out the padded channels: 2*9*9 * 5 * 3*3*3.
// CHECK-LABEL: func @conv
// CHECK-NOT: tensor.pad
// CHECK: %[[X:.*]] = tpu.resize %arg0 : tensor<2x9x9x3xf32> -> tensor<2x9x9x128xf32>
// CHECK: %[[W:.*]] = tpu.resize %arg1 : tensor<3x3x3x5xf32> -> tensor<3x3x128x5xf32>
// CHECK: %[[M:.*]] = tpu.reshape %[[W]] : tensor<3x3x128x5xf32> -> tensor<1152x5xf32>
// CHECK: %[[P:.*]] = tpu.windows %[[X]] {dilations = array<i64: 1, 1>, pad_value = 0.000000e+00 : f32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, window = array<i64: 3, 3>} : tensor<2x9x9x128xf32> -> tensor<2x9x9x1152xf32>
// CHECK: %[[R:.*]] = tpu.matmul %[[P]], %[[M]] {precision = #tpu.precision<default>, tpu.useful_macs = 21870 : i64} : tensor<2x9x9x1152xf32>, tensor<1152x5xf32> -> tensor<2x9x9x5xf32>
// CHECK: return %[[R]]
// HIGHEST-LABEL: func @conv
// HIGHEST: tpu.matmul {{.*}}precision = #tpu.precision<highest>
func.func @conv(%x: tensor<2x9x9x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<2x9x9x5xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x3xf32> to tensor<2x11x11x3xf32>
  %e = tensor.empty() : tensor<2x9x9x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<2x11x11x3xf32>, tensor<3x3x3x5xf32>) outs(%init : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  return %y : tensor<2x9x9x5xf32>
}

// -----

// Channels already whole lane tiles are not resized; strides and
// dilations carry over; a non-zero init is the accumulator; the op's
// precision wins.
// CHECK-LABEL: func @conv_strided
// CHECK-NOT: tpu.resize
// CHECK: %[[M:.*]] = tpu.reshape %arg1 : tensor<2x3x256x7xbf16> -> tensor<1536x7xbf16>
// CHECK: %[[P:.*]] = tpu.windows %arg0 {dilations = array<i64: 2, 1>, pad_value = 0.000000e+00 : f32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 2>, window = array<i64: 2, 3>} : tensor<1x9x9x256xf32> -> tensor<1x7x4x1536xf32>
// CHECK: tpu.matmul %[[P]], %[[M]] acc %arg2 {precision = #tpu.precision<high>, tpu.useful_macs = 301056 : i64}
func.func @conv_strided(%x: tensor<1x9x9x256xf32>, %w: tensor<2x3x256x7xbf16>, %init: tensor<1x7x4x7xf32>) -> tensor<1x7x4x7xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>, tpu.precision = #tpu.precision<high>}
         ins(%x, %w : tensor<1x9x9x256xf32>, tensor<2x3x256x7xbf16>) outs(%init : tensor<1x7x4x7xf32>) -> tensor<1x7x4x7xf32>
  return %y : tensor<1x7x4x7xf32>
}

// -----

// Pooling reduces the taps, leading, from the init's fill value; a pad
// of -inf before it is folded in.
// CHECK-LABEL: func @pool
// CHECK: %[[T:.*]] = tpu.windows %arg0 {dilations = array<i64: 1, 1>, pad_value = 0xFF800000 : f32, padding = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<8x7x7x32xf32> -> tensor<2x2x8x4x4x32xf32>
// CHECK: %[[R:.*]] = tpu.reduce_matrices %[[T]] dimensions = [0, 1] kind = <max> init = 0xFF800000 : tensor<2x2x8x4x4x32xf32> -> tensor<8x4x4x32xf32>
// CHECK: %[[S:.*]] = tpu.windows %arg0 {{.*}} -> tensor<3x3x8x5x5x32xf32>
// CHECK: tpu.reduce_matrices %[[S]] dimensions = [0, 1] kind = <sum> init = 0.000000e+00 : tensor<3x3x8x5x5x32xf32> -> tensor<8x5x5x32xf32>
// CHECK: %[[M:.*]] = tpu.windows %arg0 {{.*}} -> tensor<1x2x8x7x6x32xf32>
// CHECK: tpu.reduce_matrices %[[M]] dimensions = [0, 1] kind = <min> init = 1.000000e+00
func.func @pool(%x: tensor<8x7x7x32xf32>) -> (tensor<8x4x4x32xf32>, tensor<8x5x5x32xf32>, tensor<8x7x6x32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<8x7x7x32xf32> to tensor<8x8x8x32xf32>
  %w2 = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<8x4x4x32xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<8x4x4x32xf32>) -> tensor<8x4x4x32xf32>
  %max = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
           ins(%p, %w2 : tensor<8x8x8x32xf32>, tensor<2x2xf32>) outs(%init : tensor<8x4x4x32xf32>) -> tensor<8x4x4x32xf32>
  %w3 = tensor.empty() : tensor<3x3xf32>
  %e2 = tensor.empty() : tensor<8x5x5x32xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x5x5x32xf32>) -> tensor<8x5x5x32xf32>
  %sum = linalg.pooling_nhwc_sum {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
           ins(%x, %w3 : tensor<8x7x7x32xf32>, tensor<3x3xf32>) outs(%init2 : tensor<8x5x5x32xf32>) -> tensor<8x5x5x32xf32>
  %w12 = tensor.empty() : tensor<1x2xf32>
  %e3 = tensor.empty() : tensor<8x7x6x32xf32>
  %init3 = linalg.fill ins(%one : f32) outs(%e3 : tensor<8x7x6x32xf32>) -> tensor<8x7x6x32xf32>
  %min = linalg.pooling_nhwc_min {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
           ins(%x, %w12 : tensor<8x7x7x32xf32>, tensor<1x2xf32>) outs(%init3 : tensor<8x7x6x32xf32>) -> tensor<8x7x6x32xf32>
  return %max, %sum, %min : tensor<8x4x4x32xf32>, tensor<8x5x5x32xf32>, tensor<8x7x6x32xf32>
}

// -----

// A pad something else reads is one-tap windows, viewed without the tap
// dimensions (tpu-bufferize makes the reshape a view); a convolution
// reading it too takes its windows of the padded image.
// CHECK-LABEL: func @pad
// CHECK: %[[T:.*]] = tpu.windows %arg0 {dilations = array<i64: 1, 1>, pad_value = 2.500000e+00 : f32, padding = array<i64: 2, 0, 1, 3>, strides = array<i64: 1, 1>, window = array<i64: 1, 1>} : tensor<1x5x6x3xf32> -> tensor<1x1x1x7x10x3xf32>
// CHECK: %[[P:.*]] = tpu.reshape %[[T]] : tensor<1x1x1x7x10x3xf32> -> tensor<1x7x10x3xf32>
// CHECK: %[[X:.*]] = tpu.resize %[[P]] : tensor<1x7x10x3xf32> -> tensor<1x7x10x128xf32>
// CHECK: tpu.windows %[[X]] {{.*}} padding = array<i64: 0, 0, 0, 0>
// CHECK: return %[[P]]
func.func @pad(%x: tensor<1x5x6x3xf32>, %w: tensor<1x1x3x4xf32>) -> (tensor<1x7x10x3xf32>, tensor<1x7x10x4xf32>) {
  %v = arith.constant 2.5 : f32
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 1, 0] high[0, 0, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %v : f32
  } : tensor<1x5x6x3xf32> to tensor<1x7x10x3xf32>
  %e = tensor.empty() : tensor<1x7x10x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x10x4xf32>) -> tensor<1x7x10x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x7x10x3xf32>, tensor<1x1x3x4xf32>) outs(%init : tensor<1x7x10x4xf32>) -> tensor<1x7x10x4xf32>
  return %p, %y : tensor<1x7x10x3xf32>, tensor<1x7x10x4xf32>
}

// -----

// A permutation of the leading dimensions moves whole matrices; with the
// last two swapped as well, a tpu.transpose comes first.
// CHECK-LABEL: func @transpose_leading
// CHECK: %[[P:.*]] = tpu.permute_matrices %arg0 permutation = [1, 0] : tensor<2x3x7x300xf32> -> tensor<3x2x7x300xf32>
// CHECK: %[[T:.*]] = tpu.transpose %arg0 : tensor<2x3x7x300xf32> -> tensor<2x3x300x7xf32>
// CHECK: %[[Q:.*]] = tpu.permute_matrices %[[T]] permutation = [1, 0] : tensor<2x3x300x7xf32> -> tensor<3x2x300x7xf32>
// CHECK: return %[[P]], %[[Q]]
func.func @transpose_leading(%a: tensor<2x3x7x300xf32>) -> (tensor<3x2x7x300xf32>, tensor<3x2x300x7xf32>) {
  %e = tensor.empty() : tensor<3x2x7x300xf32>
  %t = linalg.transpose ins(%a : tensor<2x3x7x300xf32>) outs(%e : tensor<3x2x7x300xf32>) permutation = [1, 0, 2, 3]
  %f = tensor.empty() : tensor<3x2x300x7xf32>
  %u = linalg.transpose ins(%a : tensor<2x3x7x300xf32>) outs(%f : tensor<3x2x300x7xf32>) permutation = [1, 0, 3, 2]
  return %t, %u : tensor<3x2x7x300xf32>, tensor<3x2x300x7xf32>
}

// -----

// Rows moving among the leading dimensions are tpu.permute_rows; a leading
// dimension becoming the lanes goes to the rows first, is swapped into the
// lanes, and the rest is put in order (three steps).
// CHECK-LABEL: func @transpose_rows
// CHECK: %[[P:.*]] = tpu.permute_rows %arg0 permutation = [1, 0] : tensor<3x7x300xf32> -> tensor<7x3x300xf32>
// CHECK: %[[A:.*]] = tpu.permute_rows %arg1 permutation = [1, 2, 0] : tensor<5x3x9x130xf32> -> tensor<3x9x5x130xf32>
// CHECK: %[[B:.*]] = tpu.transpose %[[A]] : tensor<3x9x5x130xf32> -> tensor<3x9x130x5xf32>
// CHECK: %[[C:.*]] = tpu.permute_rows %[[B]] permutation = [0, 2, 1] : tensor<3x9x130x5xf32> -> tensor<3x130x9x5xf32>
// CHECK: return %[[P]], %[[C]]
func.func @transpose_rows(%a: tensor<3x7x300xf32>, %b: tensor<5x3x9x130xf32>) -> (tensor<7x3x300xf32>, tensor<3x130x9x5xf32>) {
  %e = tensor.empty() : tensor<7x3x300xf32>
  %t = linalg.transpose ins(%a : tensor<3x7x300xf32>) outs(%e : tensor<7x3x300xf32>) permutation = [1, 0, 2]
  %f = tensor.empty() : tensor<3x130x9x5xf32>
  %u = linalg.transpose ins(%b : tensor<5x3x9x130xf32>) outs(%f : tensor<3x130x9x5xf32>) permutation = [1, 3, 2, 0]
  return %t, %u : tensor<7x3x300xf32>, tensor<3x130x9x5xf32>
}

// -----

// A reshape that moves lanes is a reshape of rows between transposes, and
// transposes compose: a flatten of NHWC to N x HWC is a permutation, a
// reshape of rows and a swap; a split of the lanes a swap, a reshape of
// rows and a swap back.
// CHECK-LABEL: func @lane_reshapes
// CHECK: %[[P:.*]] = tpu.permute_rows %arg0 permutation = [1, 2, 0] : tensor<8x4x4x64xf32> -> tensor<4x4x8x64xf32>
// CHECK: %[[S:.*]] = tpu.transpose %[[P]] : tensor<4x4x8x64xf32> -> tensor<4x4x64x8xf32>
// CHECK: %[[ROWS:.*]] = tpu.reshape %[[S]] : tensor<4x4x64x8xf32> -> tensor<1024x8xf32>
// CHECK: %[[FLAT:.*]] = tpu.transpose %[[ROWS]] : tensor<1024x8xf32> -> tensor<8x1024xf32>
// CHECK: %[[T:.*]] = tpu.transpose %arg1 : tensor<7x300xf32> -> tensor<300x7xf32>
// CHECK: %[[R:.*]] = tpu.reshape %[[T]] : tensor<300x7xf32> -> tensor<3x100x7xf32>
// CHECK: %[[S2:.*]] = tpu.transpose %[[R]] : tensor<3x100x7xf32> -> tensor<3x7x100xf32>
// CHECK: %[[U:.*]] = tpu.permute_rows %[[S2]] permutation = [1, 0] : tensor<3x7x100xf32> -> tensor<7x3x100xf32>
// CHECK: return %[[FLAT]], %[[U]]
func.func @lane_reshapes(%z: tensor<8x4x4x64xf32>, %x: tensor<7x300xf32>) -> (tensor<8x1024xf32>, tensor<7x3x100xf32>) {
  %flat = tensor.collapse_shape %z [[0], [1, 2, 3]] : tensor<8x4x4x64xf32> into tensor<8x1024xf32>
  %lanes = tensor.expand_shape %x [[0], [1, 2]] output_shape [7, 3, 100] : tensor<7x300xf32> into tensor<7x3x100xf32>
  return %flat, %lanes : tensor<8x1024xf32>, tensor<7x3x100xf32>
}

// -----

// When other groups change too, the rows reshape on their own: before the
// lanes for an expand, after them for a collapse.
// CHECK-LABEL: func @reshape_rows_and_lanes
// CHECK: tpu.reshape %{{.*}} : tensor<4x64x2x3xf32> -> tensor<256x2x3xf32>
// CHECK: %[[L:.*]] = tpu.transpose %{{.*}} : tensor<2x256x3xf32> -> tensor<2x3x256xf32>
// CHECK: %[[C:.*]] = tpu.reshape %[[L]] : tensor<2x3x256xf32> -> tensor<6x256xf32>
// CHECK: %[[R:.*]] = tpu.reshape %arg1 : tensor<6x256xf32> -> tensor<2x3x256xf32>
// CHECK: tpu.transpose %[[R]] : tensor<2x3x256xf32> -> tensor<2x256x3xf32>
// CHECK: tpu.reshape %{{.*}} : tensor<256x2x3xf32> -> tensor<4x64x2x3xf32>
// CHECK: return %[[C]]
func.func @reshape_rows_and_lanes(%x: tensor<2x3x4x64xf32>, %y: tensor<6x256xf32>) -> (tensor<6x256xf32>, tensor<2x3x4x64xf32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<2x3x4x64xf32> into tensor<6x256xf32>
  %e = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [2, 3, 4, 64] : tensor<6x256xf32> into tensor<2x3x4x64xf32>
  return %c, %e : tensor<6x256xf32>, tensor<2x3x4x64xf32>
}

// -----

// An empty transpose moves nothing: its result is an empty tensor.
// CHECK-LABEL: func @transpose_empty
// CHECK: tensor.empty
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<5x0x128xf32>
// CHECK-NEXT: return %[[E]]
func.func @transpose_empty(%z: tensor<0x5x128xf32>) -> tensor<5x0x128xf32> {
  %i = tensor.empty() : tensor<5x0x128xf32>
  %t = linalg.transpose ins(%z : tensor<0x5x128xf32>) outs(%i : tensor<5x0x128xf32>) permutation = [1, 0, 2]
  return %t : tensor<5x0x128xf32>
}

// -----

// A slice that cuts lanes: the box's whole rows, then the lanes as rows
// between two swaps; a concat along the lanes inserts each operand's
// swapped rows into the swapped result.
// CHECK-LABEL: func @lane_slices
// CHECK: %[[ROWS:.*]] = tpu.insert_rows %arg0 extract offsets = [2] : tensor<7x300xf32> -> tensor<3x300xf32>
// CHECK: %[[T:.*]] = tpu.transpose %[[ROWS]] : tensor<3x300xf32> -> tensor<300x3xf32>
// CHECK: %[[B:.*]] = tpu.insert_rows %[[T]] extract offsets = [7] : tensor<300x3xf32> -> tensor<50x3xf32>
// CHECK: %[[BOX:.*]] = tpu.transpose %[[B]] : tensor<50x3xf32> -> tensor<3x50xf32>
// CHECK: %[[Y:.*]] = tpu.transpose %arg1 : tensor<9x130xf32> -> tensor<130x9xf32>
// CHECK: %[[FIRST:.*]] = tpu.insert_rows %[[Y]] offsets = [0] : tensor<130x9xf32> -> tensor<260x9xf32>
// CHECK: %[[Y2:.*]] = tpu.transpose %arg1 : tensor<9x130xf32> -> tensor<130x9xf32>
// CHECK: %[[BOTH:.*]] = tpu.insert_rows %[[Y2]] into %[[FIRST]] offsets = [130] : tensor<130x9xf32>, tensor<260x9xf32> -> tensor<260x9xf32>
// CHECK: %[[CAT:.*]] = tpu.transpose %[[BOTH]] : tensor<260x9xf32> -> tensor<9x260xf32>
// CHECK: return %[[BOX]], %[[CAT]]
func.func @lane_slices(%x: tensor<7x300xf32>, %y: tensor<9x130xf32>) -> (tensor<3x50xf32>, tensor<9x260xf32>) {
  %box = tensor.extract_slice %x[2, 7] [3, 50] [1, 1] : tensor<7x300xf32> to tensor<3x50xf32>
  %cat = tensor.concat dim(1) %y, %y : (tensor<9x130xf32>, tensor<9x130xf32>) -> tensor<9x260xf32>
  return %box, %cat : tensor<3x50xf32>, tensor<9x260xf32>
}

// -----

// Slices of whole rows: an extract (rank-reducing through a reshape), an
// insert, and a concat as inserts, the first into nothing.
// CHECK-LABEL: func @slices
// CHECK: %[[E:.*]] = tpu.insert_rows %arg0 extract offsets = [2, 8] : tensor<4x9x300xf32> -> tensor<1x1x300xf32>
// CHECK: tpu.reshape %[[E]] : tensor<1x1x300xf32> -> tensor<300xf32>
// CHECK: tpu.insert_rows %arg1 into %arg0 offsets = [1, 2] : tensor<2x5x300xf32>, tensor<4x9x300xf32> -> tensor<4x9x300xf32>
// CHECK: %[[C:.*]] = tpu.insert_rows %arg1 offsets = [0, 0] : tensor<2x5x300xf32> -> tensor<2x10x300xf32>
// CHECK: tpu.insert_rows %arg1 into %[[C]] offsets = [0, 5] : tensor<2x5x300xf32>, tensor<2x10x300xf32> -> tensor<2x10x300xf32>
func.func @slices(%x: tensor<4x9x300xf32>, %y: tensor<2x5x300xf32>) -> (tensor<300xf32>, tensor<4x9x300xf32>, tensor<2x10x300xf32>) {
  %row = tensor.extract_slice %x[2, 8, 0] [1, 1, 300] [1, 1, 1] : tensor<4x9x300xf32> to tensor<300xf32>
  %in = tensor.insert_slice %y into %x[1, 2, 0] [2, 5, 300] [1, 1, 1] : tensor<2x5x300xf32> into tensor<4x9x300xf32>
  %cat = tensor.concat dim(1) %y, %y : (tensor<2x5x300xf32>, tensor<2x5x300xf32>) -> tensor<2x10x300xf32>
  return %row, %in, %cat : tensor<300xf32>, tensor<4x9x300xf32>, tensor<2x10x300xf32>
}

// -----

// The identity permutation moves nothing.
// CHECK-LABEL: func @transpose_identity
// CHECK-NOT: tpu.
// CHECK: return %arg0
func.func @transpose_identity(%a: tensor<300xf32>) -> tensor<300xf32> {
  %e = tensor.empty() : tensor<300xf32>
  %t = linalg.transpose ins(%a : tensor<300xf32>) outs(%e : tensor<300xf32>) permutation = [0]
  return %t : tensor<300xf32>
}
