// tpu-sim --profile: cycles, stalls and busy units per source op, from the
// binary's debug section; --stats and --trace carry the same names.
// RUN: tpu-translate --export-tpu-bin %S/Inputs/profiled.mlir -o %t.tpu
// RUN: tpu-ref random --shape=8x128 --seed=7 -o %t.x.npy
// RUN: tpu-sim %t.tpu --quiet --profile --input %t.x.npy --stats %t.json --trace %t.trace.json 2> %t.table
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace.json

// The 226 cycles of Target/Inputs/double.mlir (tpu-sim/stats.mlir), by
// source op. A stall is the waiting instruction's op's, a bundle's issue
// cycle its first instruction's. "load": dma.ld's issue (cycle 1),
// dma.wait's 107-cycle wait for it and its issue, v.ld's issue and the
// issue of the store's bundle, which its s.li leads: 111. "add": v.add
// waits 2 cycles for v.ld's result, the store 1 for v.add's, dma.wait 107
// for the store, and three issues: 113. The halt's bundle is "end"'s, and
// the first bundle, led by an instruction with no source op, is "(no
// source op)"'s: the rows add up to the run's cycles. Each DMA holds the
// engine 8 cycles; the VPU is busy a cycle per bundle with a vector
// instruction.
// TABLE: tpu-sim: cycles by source op (docs/Simulator.md, "Profile")
// TABLE-NEXT: cycles      %     stalls  most stalled on      mxu busy   vpu busy   dma busy  source op
// TABLE-NEXT: 113   50.0        110  dma-wait                    0          2          8  add m.py:2:5
// TABLE-NEXT: 111   49.1        107  dma-wait                    0          1          8  load m.py:1:1
// TABLE-NEXT: 1    0.4          0  -                           0          0          0  end
// TABLE-NEXT: 1    0.4          0  -                           0          0          0  (no source op)
// TABLE-NOT: {{.}}

// JSON: "cycles": 226,
// JSON: "host_cycles_per_s": {{.*}},
// JSON-NEXT: "profile": [
// JSON-NEXT: {"source": "add m.py:2:5", "cycles": 113, "instructions": 4, "mxu_busy_cycles": 0, "vpu_busy_cycles": 2, "dma_busy_cycles": 8,
// JSON-NEXT: "stall_cycles": {
// JSON-NEXT: "branch": 0,
// JSON-NEXT: "dma-queue": 0,
// JSON-NEXT: "dma-wait": 107,
// JSON:      "vector-dependency": 3
// JSON-NEXT: }},
// JSON-NEXT: {"source": "load m.py:1:1", "cycles": 111, "instructions": 5,

// A "source op" track shows which op's bundles issue; every event names
// its instruction's source op.
// TRACE: "args": {"name": "source op"}
// TRACE: "name": "dma.ld", {{.*}} "args": {"cycle": 1, "cycles": 8, "source": "load m.py:1:1"}
// TRACE: "name": "load m.py:1:1", {{.*}} "args": {"cycle": 1, "cycles": 1, "source": "load m.py:1:1"}
// TRACE: "name": "dma-wait", {{.*}} "args": {"cycle": 2, "cycles": 107, "source": "load m.py:1:1"}
// TRACE: "name": "vector-dependency", {{.*}} "args": {"cycle": 111, "cycles": 2, "source": "add m.py:2:5"}
// TRACE: "name": "end", {{.*}} "args": {"cycle": 225, "cycles": 1, "source": "end"}

// A binary without source locations profiles as one row, and says how to
// get them.
// RUN: tpu-translate --export-tpu-bin %S/../Target/Inputs/double.mlir -o %t.bare.tpu
// RUN: tpu-sim %t.bare.tpu --quiet --profile --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=BARE
// BARE: tpu-sim: note: {{.*}}.bare.tpu has no source locations, so --profile counts every instruction as (no source op); print the compiled ISA with its locations (tpu-opt --tpu-compile ... -mlir-print-debuginfo) before tpu-translate --export-tpu-bin
// BARE: 226  100.0        217  dma-wait                    0          3         16  (no source op)
// Without --profile, no profile in the statistics.
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --stats %t.plain.json
// RUN: not grep -q profile %t.plain.json
