// A multilayer perceptron for 28x28 images (MNIST-shaped): 784 inputs, a
// hidden layer of 1024 with ReLU, 10 outputs, softmax; a batch of 256.
// Plain upstream MLIR: linalg on tensors, as a frontend lowers a JAX or
// PyTorch model. Weights and biases are arguments.
//
//   tpu-opt mlp.mlir --tpu-compile=chip=v4 -o mlp.isa.mlir
//   bash scripts/run-mlp.sh     (inputs, run, checks)
func.func @main(%x: tensor<256x784xf32>,
                %w1: tensor<784x1024xf32>, %b1: tensor<1024xf32>,
                %w2: tensor<1024x10xf32>, %b2: tensor<10xf32>)
    -> tensor<256x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // Hidden layer: relu(x W1 + b1).
  %h0 = tensor.empty() : tensor<256x1024xf32>
  %hacc = linalg.fill ins(%zero : f32) outs(%h0 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %xw = linalg.matmul ins(%x, %w1 : tensor<256x784xf32>, tensor<784x1024xf32>)
                      outs(%hacc : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%xw, %b1 : tensor<256x1024xf32>, tensor<1024xf32>) outs(%h0 : tensor<256x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x1024xf32>

  // Output layer: h W2 + b2.
  %o0 = tensor.empty() : tensor<256x10xf32>
  %oacc = linalg.fill ins(%zero : f32) outs(%o0 : tensor<256x10xf32>) -> tensor<256x10xf32>
  %hw = linalg.matmul ins(%h, %w2 : tensor<256x1024xf32>, tensor<1024x10xf32>)
                      outs(%oacc : tensor<256x10xf32>) -> tensor<256x10xf32>
  %logits = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%hw, %b2 : tensor<256x10xf32>, tensor<10xf32>) outs(%o0 : tensor<256x10xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x10xf32>

  // softmax over the 10 classes, max-subtracted.
  %rows = tensor.empty() : tensor<256xf32>
  %lowest = linalg.fill ins(%ninf : f32) outs(%rows : tensor<256xf32>) -> tensor<256xf32>
  %max = linalg.reduce ins(%logits : tensor<256x10xf32>) outs(%lowest : tensor<256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%logits, %max : tensor<256x10xf32>, tensor<256xf32>) outs(%o0 : tensor<256x10xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<256x10xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.reduce ins(%e : tensor<256x10xf32>) outs(%zeros : tensor<256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<256x10xf32>, tensor<256xf32>) outs(%o0 : tensor<256x10xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<256x10xf32>
  return %p : tensor<256x10xf32>
}
