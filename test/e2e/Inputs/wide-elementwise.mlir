// Eight inputs and one output: two 512-tile chunks of all nine would not
// fit VMEM (18 x 2 MiB > 16 MiB), so the kernel takes 227 tiles at a time
// (a quarter of the 1200 tiles would be 300).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a0: tensor<1200x1024xf32>, %a1: tensor<1200x1024xf32>, %a2: tensor<1200x1024xf32>, %a3: tensor<1200x1024xf32>, %a4: tensor<1200x1024xf32>, %a5: tensor<1200x1024xf32>, %a6: tensor<1200x1024xf32>, %a7: tensor<1200x1024xf32>) -> tensor<1200x1024xf32> {
  %e = tensor.empty() : tensor<1200x1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7 : tensor<1200x1024xf32>, tensor<1200x1024xf32>, tensor<1200x1024xf32>, tensor<1200x1024xf32>, tensor<1200x1024xf32>, tensor<1200x1024xf32>, tensor<1200x1024xf32>, tensor<1200x1024xf32>) outs(%e : tensor<1200x1024xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %x7: f32, %o: f32):
    %s0 = arith.addf %x0, %x0 : f32
    %s1 = arith.addf %s0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    %s3 = arith.addf %s2, %x3 : f32
    %s4 = arith.addf %s3, %x4 : f32
    %s5 = arith.addf %s4, %x5 : f32
    %s6 = arith.addf %s5, %x6 : f32
    %s7 = arith.addf %s6, %x7 : f32
    linalg.yield %s7 : f32
  } -> tensor<1200x1024xf32>
  return %r : tensor<1200x1024xf32>
}
