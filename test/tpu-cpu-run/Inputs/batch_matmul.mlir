// A batch of 3 matmuls (5x200 by 200x70) into a zero fill.
func.func @main(%a: tensor<3x5x200xf32>, %b: tensor<3x200x70xf32>) -> tensor<3x5x70xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5x70xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<3x5x70xf32>) -> tensor<3x5x70xf32>
  %r = linalg.batch_matmul {tpu.precision = #tpu.precision<high>}
      ins(%a, %b : tensor<3x5x200xf32>, tensor<3x200x70xf32>)
      outs(%z : tensor<3x5x70xf32>) -> tensor<3x5x70xf32>
  return %r : tensor<3x5x70xf32>
}
