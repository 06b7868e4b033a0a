// New leading dimensions (tpu.broadcast), each source matrix read into
// VMEM a chunk at a time and stored to each of its copies
// (test/e2e/broadcast.test): a new dimension between two kept ones, and a
// 2000x300 matrix (250 rows of 3 tiles: two chunks of rows, the second
// shorter) copied twice.
func.func @main(%m: tensor<2x9x130xf32>, %big: tensor<2000x300xf32>)
    -> (tensor<2x3x9x130xf32>, tensor<2x2000x300xf32>) {
  %e0 = tensor.empty() : tensor<2x3x9x130xf32>
  %b0 = linalg.broadcast ins(%m : tensor<2x9x130xf32>) outs(%e0 : tensor<2x3x9x130xf32>) dimensions = [1]
  %e1 = tensor.empty() : tensor<2x2000x300xf32>
  %b1 = linalg.broadcast ins(%big : tensor<2000x300xf32>) outs(%e1 : tensor<2x2000x300xf32>) dimensions = [0]
  return %b0, %b1 : tensor<2x3x9x130xf32>, tensor<2x2000x300xf32>
}
