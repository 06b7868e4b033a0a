// A program that calls its own function twice: tpu-compile inlines it.
func.func private @double(%x: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %r = arith.addf %x, %x : tensor<7x300xf32>
  return %r : tensor<7x300xf32>
}

func.func @main(%x: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %a = func.call @double(%x) : (tensor<7x300xf32>) -> tensor<7x300xf32>
  %b = func.call @double(%a) : (tensor<7x300xf32>) -> tensor<7x300xf32>
  return %b : tensor<7x300xf32>
}
