#!/usr/bin/env bash
# One end-to-end matmul: writes the input as plain upstream MLIR, compiles it
# with tpu-opt --tpu-compile, runs it in tpu-sim on random inputs (fixed
# seeds; reads of memory nothing wrote trap), and checks the result two
# ways:
#  1. bit for bit against the C++ model of docs/Numerics.md (tpu-ref matmul);
#  2. against the same .mlir lowered by upstream MLIR and run on the CPU in
#     f32 (tpu-cpu-run), within the precision's error bound (tpu-ref
#     check-bound; docs/Testing.md derives it).
#
#   run-matmul.sh KIND SHAPE PRECISION CHIP [DIST] [SPLIT] [WORKDIR]
#     KIND       matmul | batch | matvec | acc (matmul with an init argument)
#     SHAPE      MxKxN, or BxMxKxN for batch
#     DIST       normal | uniform | special (inf, NaN, FLT_MAX, ...) | terms
#                (every precision term shows in the bound; docs/Testing.md)
#                | constant=V (every element V)
# The tools must be on PATH. Prints the checks and the cycle count.
# TPU_SIM_FLAGS adds tpu-sim options; TPU_CHECK_CPU=0 leaves out check 2.
set -euo pipefail
kind=$1 shape=$2 precision=$3 chip=$4 dist=${5:-normal} split=${6:-rne}
dir=${7:-$(mktemp -d)}
mkdir -p "$dir"
IFS=x read -r -a dims <<<"$shape"
if [[ $kind == batch ]]; then
  b=${dims[0]} m=${dims[1]} k=${dims[2]} n=${dims[3]}
  a_shape=${b}x${m}x${k} b_shape=${b}x${k}x${n} c_shape=${b}x${m}x${n}
  op=linalg.batch_matmul
else
  m=${dims[0]} k=${dims[1]} n=${dims[2]}
  a_shape=${m}x${k} b_shape=${k}x${n} c_shape=${m}x${n}
  op=linalg.matmul
fi
if [[ $kind == matvec ]]; then
  b_shape=${k} c_shape=${m}
  op=linalg.matvec
fi
t() { echo "tensor<${1}xf32>"; }
{
  if [[ $kind == acc ]]; then
    echo "func.func @main(%a: $(t $a_shape), %b: $(t $b_shape), %c: $(t $c_shape)) -> $(t $c_shape) {"
    echo "  %r = $op ins(%a, %b : $(t $a_shape), $(t $b_shape)) outs(%c : $(t $c_shape)) -> $(t $c_shape)"
  else
    echo "func.func @main(%a: $(t $a_shape), %b: $(t $b_shape)) -> $(t $c_shape) {"
    echo "  %zero = arith.constant 0.0 : f32"
    echo "  %empty = tensor.empty() : $(t $c_shape)"
    echo "  %c = linalg.fill ins(%zero : f32) outs(%empty : $(t $c_shape)) -> $(t $c_shape)"
    echo "  %r = $op ins(%a, %b : $(t $a_shape), $(t $b_shape)) outs(%c : $(t $c_shape)) -> $(t $c_shape)"
  fi
  echo "  return %r : $(t $c_shape)"
  echo "}"
} >"$dir/input.mlir"

tpu-opt "$dir/input.mlir" \
  --tpu-compile="chip=$chip default-precision=$precision split=$split" \
  -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
dist_flags=(--dist="$dist")
[[ $dist == constant=* ]] && dist_flags=(--dist=constant --value="${dist#constant=}")
tpu-ref random --shape="$a_shape" --seed=1 "${dist_flags[@]}" -o "$dir/a.npy"
tpu-ref random --shape="$b_shape" --seed=2 "${dist_flags[@]}" -o "$dir/b.npy"
inputs=(--input "$dir/a.npy" --input "$dir/b.npy")
if [[ $kind == acc ]]; then
  tpu-ref random --shape="$c_shape" --seed=3 "${dist_flags[@]}" -o "$dir/c.npy"
  inputs+=(--input "$dir/c.npy")
fi
# Compiled code must never read memory it did not write. TPU_SIM_FLAGS
# adds options (threads.test runs on two host threads).
# shellcheck disable=SC2086
tpu-sim "$dir/program.tpu" "${inputs[@]}" --output "$dir/tpu.npy" \
  --stats "$dir/stats.json" --quiet --poison-uninitialized ${TPU_SIM_FLAGS:-}
echo "$kind $shape $precision $chip $dist split=$split:" \
  "$(grep -o '"cycles": [0-9]*' "$dir/stats.json")"

# The init is added last, one f32 add: the model takes it too.
acc=()
[[ $kind == acc ]] && acc=(--accumulator="$dir/c.npy")
tpu-ref matmul "$dir/a.npy" "$dir/b.npy" --precision="$precision" \
  --split="$split" "${acc[@]}" -o "$dir/model.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$dir/model.npy"
# The CPU's f32 result has no inf/NaN rules of its own to compare with: the
# bound check is for finite inputs. TPU_CHECK_CPU=0 skips it (a size whose
# CPU loops would take minutes).
if [[ $dist != special && ${TPU_CHECK_CPU:-1} == 1 ]]; then
  tpu-cpu-run "$dir/input.mlir" "${inputs[@]}" --output "$dir/cpu.npy"
  echo -n "cpu: "
  tpu-ref check-bound "$dir/tpu.npy" "$dir/cpu.npy" "$dir/a.npy" "$dir/b.npy" \
    --precision="$precision" --split="$split" "${acc[@]}"
fi
