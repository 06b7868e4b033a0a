// Reshapes that keep the last dimension but regroup the rows into
// matrices of another height: moved by the reshape kernel (reshape.test).
func.func @main(%x: tensor<2x7x300xf32>, %y: tensor<8x1x1x10xf32>, %z: tensor<3x16x130xf32>)
    -> (tensor<14x300xf32>, tensor<7x2x300xf32>, tensor<8x10xf32>, tensor<6x8x130xf32>, tensor<1x10xf32>) {
  %merged = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x7x300xf32> into tensor<14x300xf32>
  // Split again, into matrices of 2 rows, after an op so it is not folded.
  %twice = arith.addf %merged, %merged : tensor<14x300xf32>
  %split = tensor.expand_shape %twice [[0, 1], [2]] output_shape [7, 2, 300] : tensor<14x300xf32> into tensor<7x2x300xf32>
  %rows = tensor.collapse_shape %y [[0, 1, 2], [3]] : tensor<8x1x1x10xf32> into tensor<8x10xf32>
  // 48 rows of 16 per matrix as matrices of 8: whole tiles, a view.
  %view = tensor.expand_shape %z [[0], [1, 2], [3]] output_shape [3, 2, 8, 130] : tensor<3x16x130xf32> into tensor<3x2x8x130xf32>
  %flat = tensor.collapse_shape %view [[0, 1], [2], [3]] : tensor<3x2x8x130xf32> into tensor<6x8x130xf32>
  // The rows' padding is zero: a column sum of the merged rows.
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %sum = linalg.reduce ins(%rows : tensor<8x10xf32>) outs(%init : tensor<10xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %sum2 = tensor.expand_shape %sum [[0, 1]] output_shape [1, 10] : tensor<10xf32> into tensor<1x10xf32>
  return %merged, %split, %rows, %flat, %sum2 : tensor<14x300xf32>, tensor<7x2x300xf32>, tensor<8x10xf32>, tensor<6x8x130xf32>, tensor<1x10xf32>
}
