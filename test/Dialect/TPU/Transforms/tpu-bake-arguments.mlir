// RUN: rm -rf %t && mkdir -p %t
// RUN: tpu-ref random --shape=2x3 --dist=constant --value=1.5 -o %t/w.npy
// RUN: tpu-ref random --shape=3 --dist=constant --value=-2 -o %t/b.npy
// RUN: tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=2=%t/b.npy,0=%t/w.npy" | FileCheck %s
// RUN: tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments | FileCheck %s --check-prefix=NONE
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=5=%t/w.npy" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=0=%t/w.npy,0=%t/w.npy" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=w.npy" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=0=%t/absent.npy" 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=0=%t/b.npy" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=3=%t/b.npy" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="arguments=1=%t/b.npy" 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="entry=absent arguments=0=%t/w.npy" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="entry=external arguments=0=%t/w.npy" 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// RUN: not tpu-opt %s -allow-unregistered-dialect --tpu-bake-arguments="entry=called arguments=0=%t/w.npy" 2>&1 | FileCheck %s --check-prefix=CALLED

// Arguments 0 and 2 become constants with the files' values (in any
// order in the option); the others keep their places.
// CHECK-LABEL: func.func @main(%arg0: f32, %arg1: tensor<3xf64>) -> tensor<2x3xf32>
// CHECK-DAG: %[[W:.*]] = arith.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<-2.000000e+00> : tensor<3xf32>
// CHECK: "test.use"(%[[W]], %arg0, %[[B]], %arg1)
// NONE: func.func @main(%arg0: tensor<2x3xf32>, %arg1: f32, %arg2: tensor<3xf32>, %arg3: tensor<3xf64>)

// RANGE: error: tpu-bake-arguments: argument 5 of @main does not exist; it has 4 arguments
// TWICE: error: tpu-bake-arguments: argument 0 of @main is baked twice
// SYNTAX: error: tpu-bake-arguments: 'w.npy' is not INDEX=FILE.npy (e.g. 1=w1.npy)
// FILE: error: tpu-bake-arguments: argument 0 of @main from '{{.*}}absent.npy': {{.*}}absent.npy: cannot open the file
// SHAPE: error: tpu-bake-arguments: argument 0 of @main from '{{.*}}b.npy': the file holds f32(3,), the argument is 'tensor<2x3xf32>'; write the file with that shape and type
// TYPE: error: tpu-bake-arguments: argument 3 of @main from '{{.*}}b.npy': the argument is 'tensor<3xf64>'; only statically shaped f32 tensors can be baked
// SCALAR: error: tpu-bake-arguments: argument 1 of @main is 'f32'; only tensors can be baked
// ENTRY: error: tpu-bake-arguments: no func.func @absent to compile (name the entry with entry=NAME)
// EXTERNAL: error: tpu-bake-arguments: @external has no body to bake arguments into
// CALLED: error: tpu-bake-arguments: @called is called in the module; bake the arguments of the entry, which nothing calls
func.func @main(%w: tensor<2x3xf32>, %s: f32, %b: tensor<3xf32>, %d: tensor<3xf64>) -> tensor<2x3xf32> {
  "test.use"(%w, %s, %b, %d) : (tensor<2x3xf32>, f32, tensor<3xf32>, tensor<3xf64>) -> ()
  return %w : tensor<2x3xf32>
}
func.func private @external(tensor<2x3xf32>)
func.func @called(%w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %w : tensor<2x3xf32>
}
func.func @caller(%w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = func.call @called(%w) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
