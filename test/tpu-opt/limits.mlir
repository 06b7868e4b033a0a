// Resource limits are compile-time errors that name the op and the bytes.
// A v2 core addresses 8 GiB of HBM (half the chip's 16). Unfused, HIGHEST
// splits the 6.4 GB LHS into three more planes in HBM, which do not fit; a
// v4 core (32 GiB, shared by the megacore) takes the same program. Fused
// (the default), the matmul splits in VMEM and v2 takes it too.
// RUN: not tpu-opt %s --tpu-compile="chip=v2 default-precision=highest fusion=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=V2
// RUN: tpu-opt %s --tpu-compile="chip=v4 default-precision=highest fusion=false" -o /dev/null
// RUN: tpu-opt %s --tpu-compile="chip=v2 default-precision=highest" -o /dev/null
// RUN: tpu-opt %s --tpu-compile="chip=v2 default-precision=default" -o /dev/null

// V2: limits.mlir:[[@LINE+5]]:8: error: tpu-plan-memory: this buffer (memref<40000x40064xbf16, {{.*}}>, 3205120000 bytes) does not fit the HBM of a v2 core: the program's buffers need {{[0-9]+}} bytes, the core has 8589934592; use smaller operands, or a chip with more HBM per core
func.func @main(%a: tensor<40000x40000xf32>, %b: tensor<40000x8xf32>) -> tensor<40000x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<40000x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<40000x8xf32>) -> tensor<40000x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<40000x40000xf32>, tensor<40000x8xf32>) outs(%c : tensor<40000x8xf32>) -> tensor<40000x8xf32>
  return %r : tensor<40000x8xf32>
}
