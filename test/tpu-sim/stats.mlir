// The statistics table, the --stats JSON and the --trace file.
// RUN: tpu-translate --export-tpu-bin %S/../Target/Inputs/double.mlir -o %t.tpu
// RUN: tpu-ref random --shape=8x128 --seed=7 -o %t.x.npy
// RUN: tpu-sim %t.tpu --input %t.x.npy --output %t.y.npy --stats %t.json --trace %t.trace.json 2> %t.table
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace.json
// The output is x + x, bit for bit (the model's addf).
// RUN: tpu-ref elementwise --op=addf %t.x.npy %t.x.npy -o %t.want.npy
// RUN: tpu-ref compare %t.y.npy %t.want.npy | FileCheck %s --check-prefix=SUM
// SUM: OK: 1024 elements bit-exact
// A second run with the same input gives the same bytes, and the same
// statistics but for the host's time.
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.y2.npy --stats %t.2.json
// RUN: cmp %t.y.npy %t.y2.npy
// RUN: grep -v host_ %t.json > %t.a && grep -v host_ %t.2.json > %t.b && cmp %t.a %t.b

// The core gets half the chip's HBM bandwidth (600 of 1200 GB/s on v4):
// each one-tile DMA takes 8 cycles of transfer. With the whole chip's, 4,
// and the statistics say so; any other share is an error.
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.y3.npy --stats %t.chip.json --hbm-bandwidth=chip
// RUN: FileCheck %s --check-prefix=CHIP < %t.chip.json
// CHIP: "cycles": 218,
// CHIP: "hbm_share": "chip",
// CHIP-NEXT: "hbm_peak_bytes_per_s": 1.2e+12,
// RUN: not tpu-sim %t.tpu --quiet --input %t.x.npy --hbm-bandwidth=half 2>&1 | FileCheck %s --check-prefix=SHARE
// SHARE: tpu-sim: error: --hbm-bandwidth=half is not a share; use core or chip

// TABLE: tpu-sim: v4, 4 MXU(s), 1050 MHz
// TABLE: cycles{{ +}}226
// TABLE: peak{{ +}}600 GB/s (the core's share: half the chip's)
// TABLE: stall cycles by cause:
// TABLE: dma-wait{{ +}}214

// JSON:      "chip": "v4",
// JSON-NEXT: "clock_hz": 1050000000,
// JSON-NEXT: "mxus": 4,
// JSON-NEXT: "cycles": 226,
// JSON-NEXT: "time_us": 0.215238095,
// JSON-NEXT: "bundles": 9,
// JSON-NEXT: "instructions": 11,
// JSON-NEXT: "instruction_mix": {
// JSON-NEXT:   "dma.ld": 1,
// JSON-NEXT:   "dma.st": 1,
// JSON-NEXT:   "dma.wait": 2,
// JSON-NEXT:   "halt": 1,
// JSON-NEXT:   "s.li": 3,
// JSON-NEXT:   "v.add": 1,
// JSON-NEXT:   "v.ld": 1,
// JSON-NEXT:   "v.st": 1
// JSON-NEXT: },
// JSON-NEXT: "static_bundles": 9,
// JSON-NEXT: "mxu_macs_useful": 0,
// JSON-NEXT: "mxu_f32_macs_useful": 0,
// JSON-NEXT: "mxu_macs_issued": 0,
// JSON-NEXT: "mxu_utilization": 0,
// JSON-NEXT: "mxu_utilization_f32": 0,
// JSON-NEXT: "padding_efficiency": 0,
// JSON-NEXT: "stall_cycles": {
// JSON-NEXT:   "branch": 0,
// JSON-NEXT:   "dma-queue": 0,
// JSON-NEXT:   "dma-wait": 214,
// JSON-NEXT:   "mxu-busy": 0,
// JSON-NEXT:   "mxu-result": 0,
// JSON-NEXT:   "mxu-weights": 0,
// JSON-NEXT:   "scalar-dependency": 0,
// JSON-NEXT:   "unit-busy": 0,
// JSON-NEXT:   "vector-dependency": 3
// JSON-NEXT: },
// JSON-NEXT: "unit_busy_cycles": {
// JSON-NEXT:   "dma": 16,
// JSON:        "scalar": 2,
// JSON-NEXT:   "vpu": 3
// JSON-NEXT: },
// JSON-NEXT: "hbm_bytes_read": 4096,
// JSON-NEXT: "hbm_bytes_written": 4096,
// JSON-NEXT: "hbm_bandwidth_bytes_per_s":
// JSON-NEXT: "hbm_share": "core",
// JSON-NEXT: "hbm_peak_bytes_per_s": 6e+11,
// JSON-NEXT: "hbm_resident_bytes": 8192,
// JSON-NEXT: "vmem_peak_bytes": 8192,
// JSON-NEXT: "host_seconds":
// JSON-NEXT: "host_threads": 1,
// JSON-NEXT: "host_cycles_per_s":

// TRACE: {"displayTimeUnit": "ns", "traceEvents": [
// TRACE-DAG: "args": {"name": "dma"}
// TRACE-DAG: "args": {"name": "scalar"}
// TRACE-DAG: "args": {"name": "vpu"}
// TRACE-DAG: "args": {"name": "stall"}
// TRACE-DAG: {"ph": "X", "name": "dma.ld", "pid": 0, "tid": {{[0-9]+}}, "ts": 0.000952, "dur": 0.007619, "args": {"cycle": 1, "cycles": 8}}
// TRACE-DAG: {"ph": "X", "name": "dma-wait",
// TRACE: ]}
