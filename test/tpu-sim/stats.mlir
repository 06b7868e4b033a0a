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

// TABLE: tpu-sim: v4, 4 MXU(s), 1050 MHz
// TABLE: cycles{{ +}}218
// TABLE: stall cycles by cause:
// TABLE: dma-wait{{ +}}206

// JSON:      "chip": "v4",
// JSON-NEXT: "clock_hz": 1050000000,
// JSON-NEXT: "mxus": 4,
// JSON-NEXT: "cycles": 218,
// JSON-NEXT: "time_us": 0.207619048,
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
// JSON-NEXT:   "dma-wait": 206,
// JSON-NEXT:   "mxu-busy": 0,
// JSON-NEXT:   "mxu-result": 0,
// JSON-NEXT:   "mxu-weights": 0,
// JSON-NEXT:   "scalar-dependency": 0,
// JSON-NEXT:   "unit-busy": 0,
// JSON-NEXT:   "vector-dependency": 3
// JSON-NEXT: },
// JSON-NEXT: "unit_busy_cycles": {
// JSON-NEXT:   "dma": 8,
// JSON:        "scalar": 2,
// JSON-NEXT:   "vpu": 3
// JSON-NEXT: },
// JSON-NEXT: "hbm_bytes_read": 4096,
// JSON-NEXT: "hbm_bytes_written": 4096,
// JSON-NEXT: "hbm_bandwidth_bytes_per_s":
// JSON-NEXT: "hbm_resident_bytes": 8192,
// JSON-NEXT: "vmem_peak_bytes": 8192,
// JSON-NEXT: "host_seconds":
// JSON-NEXT: "host_cycles_per_s":

// TRACE: {"displayTimeUnit": "ns", "traceEvents": [
// TRACE-DAG: "args": {"name": "dma"}
// TRACE-DAG: "args": {"name": "scalar"}
// TRACE-DAG: "args": {"name": "vpu"}
// TRACE-DAG: "args": {"name": "stall"}
// TRACE-DAG: {"ph": "X", "name": "dma.ld", "pid": 0, "tid": {{[0-9]+}}, "ts": 0.000952, "dur": 0.003810, "args": {"cycle": 1, "cycles": 4}}
// TRACE-DAG: {"ph": "X", "name": "dma-wait",
// TRACE: ]}
