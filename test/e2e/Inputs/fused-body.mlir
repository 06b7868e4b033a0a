// One elementwise body of several VPU ops (test/e2e/body.test): an add,
// a ReLU against a constant from outside the body, comparisons with
// swapped operands, a select against an inner constant, a negation and an
// absolute value.
func.func @main(%x: tensor<129x300xf32>, %y: tensor<129x300xf32>) -> tensor<129x300xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<129x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<129x300xf32>, tensor<129x300xf32>) outs(%init : tensor<129x300xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %sum = arith.addf %a, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    %gt = arith.cmpf ogt, %a, %b : f32
    %ge = arith.cmpf oge, %relu, %a : f32
    %neg = arith.negf %b : f32
    %abs = math.absf %neg : f32
    %half = arith.constant -0.5 : f32
    %s = arith.select %gt, %relu, %half : f32
    %t = arith.select %ge, %s, %abs : f32
    linalg.yield %t : f32
  } -> tensor<129x300xf32>
  return %r : tensor<129x300xf32>
}
