// A 7x300 matrix times a 300-vector into a zero fill. The second result is
// the same product as a 7x1 column, which tpu-ref (rank >= 2 only) can check.
func.func @main(%a: tensor<7x300xf32>, %x: tensor<300xf32>) -> (tensor<7xf32>, tensor<7x1xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %r = linalg.matvec ins(%a, %x : tensor<7x300xf32>, tensor<300xf32>)
      outs(%z : tensor<7xf32>) -> tensor<7xf32>
  %c = tensor.expand_shape %r [[0, 1]] output_shape [7, 1] : tensor<7xf32> into tensor<7x1xf32>
  return %r, %c : tensor<7xf32>, tensor<7x1xf32>
}
