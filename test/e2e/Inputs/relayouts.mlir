// Reshapes and slices that move lanes, done as transposes around steps on
// rows (docs/Compiler.md, "Relayouts"): attention's head split and merge,
// a CNN's flatten, a split of the lanes, a matrix to a vector and back,
// slices, inserts and a concat that cut the lanes, and a vector's
// elements sliced and inserted, and a reshape of rows and lanes at once
// and back.
// test/e2e/relayouts.test runs it.
func.func @main(%h: tensor<128x256xf32>, %z: tensor<8x4x4x64xf32>,
                %x: tensor<7x300xf32>, %y: tensor<2x9x130xf32>,
                %v: tensor<300xf32>, %w: tensor<2x3x4x64xf32>)
    -> (tensor<4x128x64xf32>, tensor<128x256xf32>, tensor<8x1024xf32>,
        tensor<7x3x100xf32>, tensor<2100xf32>, tensor<21x100xf32>,
        tensor<3x50xf32>, tensor<7x300xf32>, tensor<2x9x260xf32>,
        tensor<9x5xf32>, tensor<150xf32>, tensor<300xf32>,
        tensor<6x256xf32>, tensor<2x3x4x64xf32>) {
  %split = tensor.expand_shape %h [[0], [1, 2]] output_shape [128, 4, 64] : tensor<128x256xf32> into tensor<128x4x64xf32>
  %e0 = tensor.empty() : tensor<4x128x64xf32>
  %heads = linalg.transpose ins(%split : tensor<128x4x64xf32>) outs(%e0 : tensor<4x128x64xf32>) permutation = [1, 0, 2]
  %e1 = tensor.empty() : tensor<128x4x64xf32>
  %back = linalg.transpose ins(%heads : tensor<4x128x64xf32>) outs(%e1 : tensor<128x4x64xf32>) permutation = [1, 0, 2]
  %merged = tensor.collapse_shape %back [[0], [1, 2]] : tensor<128x4x64xf32> into tensor<128x256xf32>
  %flat = tensor.collapse_shape %z [[0], [1, 2, 3]] : tensor<8x4x4x64xf32> into tensor<8x1024xf32>
  %lanes = tensor.expand_shape %x [[0], [1, 2]] output_shape [7, 3, 100] : tensor<7x300xf32> into tensor<7x3x100xf32>
  %vector = tensor.collapse_shape %x [[0, 1]] : tensor<7x300xf32> into tensor<2100xf32>
  %matrix = tensor.expand_shape %vector [[0, 1]] output_shape [21, 100] : tensor<2100xf32> into tensor<21x100xf32>
  %box = tensor.extract_slice %x[2, 7] [3, 50] [1, 1] : tensor<7x300xf32> to tensor<3x50xf32>
  %inserted = tensor.insert_slice %box into %x[1, 250] [3, 50] [1, 1] : tensor<3x50xf32> into tensor<7x300xf32>
  %concat = tensor.concat dim(2) %y, %y : (tensor<2x9x130xf32>, tensor<2x9x130xf32>) -> tensor<2x9x260xf32>
  %column = tensor.extract_slice %y[1, 0, 3] [1, 9, 5] [1, 1, 1] : tensor<2x9x130xf32> to tensor<9x5xf32>
  %elements = tensor.extract_slice %v[130] [150] [1] : tensor<300xf32> to tensor<150xf32>
  %put = tensor.insert_slice %elements into %v[3] [150] [1] : tensor<150xf32> into tensor<300xf32>
  %rowsAndLanes = tensor.collapse_shape %w [[0, 1], [2, 3]] : tensor<2x3x4x64xf32> into tensor<6x256xf32>
  %andBack = tensor.expand_shape %rowsAndLanes [[0, 1], [2, 3]] output_shape [2, 3, 4, 64] : tensor<6x256xf32> into tensor<2x3x4x64xf32>
  return %heads, %merged, %flat, %lanes, %vector, %matrix, %box, %inserted, %concat, %column, %elements, %put, %rowsAndLanes, %andBack
      : tensor<4x128x64xf32>, tensor<128x256xf32>, tensor<8x1024xf32>,
        tensor<7x3x100xf32>, tensor<2100xf32>, tensor<21x100xf32>,
        tensor<3x50xf32>, tensor<7x300xf32>, tensor<2x9x260xf32>,
        tensor<9x5xf32>, tensor<150xf32>, tensor<300xf32>,
        tensor<6x256xf32>, tensor<2x3x4x64xf32>
}
