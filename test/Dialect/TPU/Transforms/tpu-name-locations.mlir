// RUN: tpu-opt %s --tpu-name-locations -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s
// Twice is once: a named location keeps its name.
// RUN: tpu-opt %s --tpu-name-locations --tpu-name-locations -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s

// Each function and each op of its body is named after the op, around its
// own location; the ops in a linalg.generic's body are not (they count
// with the generic), and a location a frontend named keeps its name.
// CHECK-LABEL: func.func @main
// CHECK: arith.constant 0.0{{.*}} loc("arith.constant"("model.py":2:3))
// CHECK: tensor.empty() {{.*}} loc("tensor.empty")
// CHECK: linalg.matmul {{.*}} loc("jit(f)/dot_general"("model.py":5:1))
// CHECK: arith.addf {{.*}} loc("model.py":9:2)
// CHECK: linalg.yield {{.*}} loc(unknown)
// CHECK: } -> tensor<8x128xf32> loc("linalg.generic"("model.py":7:1))
// CHECK: return {{.*}} loc("func.return"("model.py":11:1))
// CHECK: } loc("func.func"("model.py":1:1))
// The module is not a source op.
// CHECK: } loc("{{.*}}tpu-name-locations.mlir":0:0)
func.func @main(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>)
    -> tensor<8x128xf32> {
  %zero = arith.constant 0.0 : f32 loc("model.py":2:3)
  %init = tensor.empty() : tensor<8x128xf32> loc(unknown)
  %c = linalg.matmul ins(%a, %b : tensor<8x128xf32>, tensor<128x128xf32>)
                     outs(%init : tensor<8x128xf32>) -> tensor<8x128xf32>
                     loc("jit(f)/dot_general"("model.py":5:1))
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x128xf32>) outs(%init : tensor<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.addf %x, %zero : f32 loc("model.py":9:2)
    linalg.yield %y : f32 loc(unknown)
  } -> tensor<8x128xf32> loc("model.py":7:1)
  return %d : tensor<8x128xf32> loc("model.py":11:1)
} loc("model.py":1:1)
