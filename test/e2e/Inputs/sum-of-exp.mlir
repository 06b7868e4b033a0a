// sum(exp(x)) over each row of 7 x 300: the exp is the reduction's
// prologue (fusion.test); its value on a padding lane, exp(0) = 1, must
// not count.
func.func @main(%x: tensor<7x300xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<7x300xf32>
  %e = linalg.exp ins(%x : tensor<7x300xf32>) outs(%e0 : tensor<7x300xf32>) -> tensor<7x300xf32>
  %s0 = tensor.empty() : tensor<7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%s0 : tensor<7xf32>) -> tensor<7xf32>
  %s = linalg.reduce ins(%e : tensor<7x300xf32>) outs(%init : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<7xf32>
}
