// bf16 arguments (the runtime rounds f32 inputs to them) and a bf16 result
// (written back as f32): a matmul of two, and a third added to the product
// and rounded. test/e2e/bf16-arguments.test runs it.
func.func @main(%a: tensor<7x300xbf16>, %b: tensor<300x129xbf16>, %c: tensor<7x129xbf16>) -> (tensor<7x129xf32>, tensor<7x129xbf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7x129xf32>) -> tensor<7x129xf32>
  %p = linalg.matmul ins(%a, %b : tensor<7x300xbf16>, tensor<300x129xbf16>) outs(%init : tensor<7x129xf32>) -> tensor<7x129xf32>
  %eb = tensor.empty() : tensor<7x129xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%p, %c : tensor<7x129xf32>, tensor<7x129xbf16>) outs(%eb : tensor<7x129xbf16>) {
  ^bb0(%x: f32, %y: bf16, %o: bf16):
    %ye = arith.extf %y : bf16 to f32
    %sum = arith.addf %x, %ye : f32
    %t = arith.truncf %sum : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<7x129xbf16>
  return %p, %s : tensor<7x129xf32>, tensor<7x129xbf16>
}
