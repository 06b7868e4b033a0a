#!/usr/bin/env bash
# One end-to-end elementwise program: writes it as plain upstream MLIR,
# compiles it with tpu-opt --tpu-compile, runs it in tpu-sim on random
# inputs (fixed seeds), and checks the result bit for bit against
#  1. the C++ model of the op (tpu-ref elementwise), NaNs included, and
#  2. the same .mlir lowered by upstream MLIR and run on the CPU in f32
#     (tpu-cpu-run): IEEE f32 ops round the same everywhere, though any NaN
#     matches any NaN there.
#
#   run-elementwise.sh OP ARITY SHAPE CHIP FORM [DIST] [WORKDIR]
#     OP     the op, as named in tpu-ref (addf, divf, negf, or exp, absf, erf,
#            tanh, log, sqrt and rsqrt of the math dialect)
#     ARITY  its operands: 1 or 2
#     SHAPE  e.g. 7x300
#     FORM   generic (an elementwise linalg.generic) or arith (the arith op
#            or math op on tensors, through convert-elementwise-to-linalg)
#     DIST   normal | uniform | special (inf, NaN, zeros, FLT_MAX, ...)
# The tools must be on PATH. Prints the checks and the cycle count.
set -euo pipefail
op=$1 arity=$2 shape=$3 chip=$4 form=$5 dist=${6:-normal}
dialect=arith
case $op in exp | absf | tanh | log | sqrt | rsqrt | erf) dialect=math ;; esac
dir=${7:-$(mktemp -d)}
mkdir -p "$dir"
IFS=x read -r -a dims <<<"$shape"
t="tensor<${shape}xf32>"
args=() names=()
for i in $(seq 1 "$arity"); do
  args+=("%x$i: $t")
  names+=("%x$i")
done
rank=${#dims[@]}
map="affine_map<($(seq -s, 0 $((rank - 1)) | sed 's/\([0-9]\+\)/d\1/g')) -> ($(seq -s, 0 $((rank - 1)) | sed 's/\([0-9]\+\)/d\1/g'))>"
{
  echo "func.func @main($(IFS=,; echo "${args[*]}")) -> $t {"
  if [[ $form == arith ]]; then
    echo "  %r = $dialect.$op $(IFS=,; echo "${names[*]}") : $t"
  else
    maps=$(for _ in $(seq 0 "$arity"); do echo -n "$map, "; done)
    iters=$(for _ in $(seq 1 "$rank"); do echo -n '"parallel", '; done)
    scalars=$(for i in $(seq 1 "$arity"); do echo -n "%s$i: f32, "; done)
    echo "  %init = tensor.empty() : $t"
    echo "  %r = linalg.generic {indexing_maps = [${maps%, }], iterator_types = [${iters%, }]}"
    echo "      ins($(IFS=,; echo "${names[*]}") : $(for _ in $(seq 1 "$arity"); do echo -n "$t, "; done | sed 's/, $//'))"
    echo "      outs(%init : $t) {"
    echo "  ^bb0(${scalars}%out: f32):"
    echo "    %v = $dialect.$op $(for i in $(seq 1 "$arity"); do echo -n "%s$i, "; done | sed 's/, $//') : f32"
    echo "    linalg.yield %v : f32"
    echo "  } -> $t"
  fi
  echo "  return %r : $t"
  echo "}"
} >"$dir/input.mlir"

tpu-opt "$dir/input.mlir" --tpu-compile="chip=$chip" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
inputs=()
for i in $(seq 1 "$arity"); do
  tpu-ref random --shape="$shape" --seed="$i" --dist="$dist" -o "$dir/x$i.npy"
  inputs+=("$dir/x$i.npy")
done
# Compiled code must never read memory it did not write.
tpu-sim "$dir/program.tpu" $(printf -- '--input %s ' "${inputs[@]}") \
  --output "$dir/tpu.npy" --stats "$dir/stats.json" --quiet \
  --poison-uninitialized
echo "$op $shape $chip $form $dist:" \
  "$(grep -o '"cycles": [0-9]*' "$dir/stats.json")"
tpu-ref elementwise --op="$op" "${inputs[@]}" -o "$dir/model.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$dir/model.npy"
# The CPU keeps subnormals and the VPU's arithmetic reads and writes them
# as zeros (docs/Numerics.md): the CPU starts from flushed inputs and its
# result is flushed before the comparison. Negation and absolute value are
# sign-bit operations on both.
cpuInputs=("${inputs[@]}")
cpuResult=$dir/cpu.npy
if [[ $op != negf && $op != absf ]]; then
  cpuInputs=()
  for input in "${inputs[@]}"; do
    tpu-ref flush "$input" -o "${input%.npy}.flushed.npy"
    cpuInputs+=("${input%.npy}.flushed.npy")
  done
  cpuResult=$dir/cpu.flushed.npy
fi
tpu-cpu-run "$dir/input.mlir" $(printf -- '--input %s ' "${cpuInputs[@]}") \
  --output "$dir/cpu.npy"
[[ $cpuResult == "$dir/cpu.npy" ]] || tpu-ref flush "$dir/cpu.npy" -o "$cpuResult"
# The host's NaNs are its own (x86 makes -NaN); the TPU's are canonical,
# which the model check above holds it to. exp, tanh, log and rsqrt the
# host computes its own way (libm, or upstream's expansions): the VPU's are
# within 1 ulp of the correctly rounded result (docs/Numerics.md), the
# host's within 1 too, so they agree to 2 ulps, a relative 2^-22.
# arith.maxnumf and minnumf leave max(-0, +0) to the implementation (the
# host's gives either; the VPU's is +0, docs/ISA.md): equal values, as
# numbers, match there.
tolerance=()
case $op in
  exp | tanh | log | rsqrt) tolerance=(--rtol=2.4e-7) ;;
  maxnumf | minnumf) tolerance=(--rtol=0 --atol=0) ;;
  # The host runs upstream's polynomial approximation of erf, measured at
  # up to 4 ulps (every 256th f32 in [0, 4]); the VPU's is within 2: 6
  # ulps, a relative 6 * 2^-23 at worst.
  erf) tolerance=(--rtol=7.2e-7) ;;
esac
echo -n "cpu: "
tpu-ref compare --nan=any "${tolerance[@]}" "$dir/tpu.npy" "$cpuResult"
