// Slices of whole rows (slices.test): an extract at an unaligned row of a
// batch, a rank-reducing one, an insert into another tensor, and a concat
// along the rows (inserts into nothing) and along a leading dimension.
func.func @main(%x: tensor<4x9x300xf32>, %y: tensor<3x13x300xf32>)
    -> (tensor<2x5x300xf32>, tensor<300xf32>, tensor<3x13x300xf32>, tensor<4x22x300xf32>, tensor<7x9x300xf32>) {
  %box = tensor.extract_slice %x[1, 3, 0] [2, 5, 300] [1, 1, 1] : tensor<4x9x300xf32> to tensor<2x5x300xf32>
  %row = tensor.extract_slice %x[2, 8, 0] [1, 1, 300] [1, 1, 1] : tensor<4x9x300xf32> to tensor<300xf32>
  %in = tensor.insert_slice %box into %y[1, 6, 0] [2, 5, 300] [1, 1, 1] : tensor<2x5x300xf32> into tensor<3x13x300xf32>
  %rows = tensor.extract_slice %y[0, 0, 0] [3, 13, 300] [1, 1, 1] : tensor<3x13x300xf32> to tensor<3x13x300xf32>
  %ytop = tensor.extract_slice %y[0, 0, 0] [1, 13, 300] [1, 1, 1] : tensor<3x13x300xf32> to tensor<1x13x300xf32>
  %ybig = tensor.concat dim(0) %ytop, %ytop, %ytop, %ytop : (tensor<1x13x300xf32>, tensor<1x13x300xf32>, tensor<1x13x300xf32>, tensor<1x13x300xf32>) -> tensor<4x13x300xf32>
  %cat = tensor.concat dim(1) %x, %ybig : (tensor<4x9x300xf32>, tensor<4x13x300xf32>) -> tensor<4x22x300xf32>
  %ytwo = tensor.extract_slice %y[0, 0, 0] [3, 9, 300] [1, 1, 1] : tensor<3x13x300xf32> to tensor<3x9x300xf32>
  %lead = tensor.concat dim(0) %x, %ytwo : (tensor<4x9x300xf32>, tensor<3x9x300xf32>) -> tensor<7x9x300xf32>
  return %box, %row, %in, %cat, %lead : tensor<2x5x300xf32>, tensor<300xf32>, tensor<3x13x300xf32>, tensor<4x22x300xf32>, tensor<7x9x300xf32>
}
