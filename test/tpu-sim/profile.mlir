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

// Every event names its instruction's source op, and a "source op" track
// shows whose the cycles are, as the profile counts them: one event per
// run of the same op, over issue cycles, stalls and branch penalties.
// TRACE: "args": {"name": "source op"}
// TRACE: "name": "dma.ld", {{.*}} "args": {"cycle": 1, "cycles": 8, "source": "load m.py:1:1"}
// TRACE: "name": "dma-wait", {{.*}} "args": {"cycle": 2, "cycles": 107, "source": "load m.py:1:1"}
// TRACE: "name": "vector-dependency", {{.*}} "args": {"cycle": 111, "cycles": 2, "source": "add m.py:2:5"}
// RUN: python3 -c "import json, sys; t = json.load(open(sys.argv[1]))['traceEvents']; track = [e['tid'] for e in t if e['ph'] == 'M' and e['args']['name'] == 'source op']; [print(e['name'], e['args']['cycle'], e['args']['cycles']) for e in t if e['ph'] == 'X' and [e['tid']] == track]" %t.trace.json | FileCheck %s --check-prefix=TRACK
// TRACK: (no source op) 0 1
// TRACK-NEXT: load m.py:1:1 1 110
// TRACK-NEXT: add m.py:2:5 111 4
// TRACK-NEXT: load m.py:1:1 115 1
// TRACK-NEXT: add m.py:2:5 116 109
// TRACK-NEXT: end 225 1
// TRACK-NOT: {{.}}

// A binary without source locations profiles as one row, and says how to
// get them.
// RUN: tpu-translate --export-tpu-bin %S/../Target/Inputs/double.mlir -o %t.bare.tpu
// RUN: tpu-sim %t.bare.tpu --quiet --profile --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=BARE
// BARE: tpu-sim: note: {{.*}}.bare.tpu has no source locations, so --profile counts every instruction as (no source op); print the compiled ISA with its locations (tpu-opt --tpu-compile ... -mlir-print-debuginfo) before tpu-translate --export-tpu-bin
// BARE: 226  100.0        217  dma-wait                    0          3         16  (no source op)
// Without --profile, no profile in the statistics.
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --stats %t.plain.json
// RUN: not grep -q profile %t.plain.json

// A run that traps still adds up: the trapping bundle's cycle is its first
// instruction's op's ("c", which loads from past VMEM's last row). The
// rows: "a" 2 issues, "b" a 2-cycle wait for v.ld and 2 issues, "c" 1.
// A file name from the binary is any bytes: the JSON escapes the quote and
// the tab, keeps the UTF-8 é, and replaces the byte that is not UTF-8.
// RUN: tpu-translate --export-tpu-bin %s -o %t.trap.tpu
// RUN: not tpu-sim %t.trap.tpu --quiet --profile --stats %t.trap.json --trace %t.trap.trace.json 2> %t.trap.table
// RUN: FileCheck %s --check-prefix=TRAP < %t.trap.table
// RUN: python3 %S/../e2e/check-profile.py %t.trap.json | FileCheck %s --check-prefix=SUMS
// RUN: python3 -c "import json, sys; print(ascii(json.load(open(sys.argv[1]))['profile'][1]['source']))" %t.trap.json | FileCheck %s --check-prefix=NAME
// RUN: python3 -c "import json, sys; json.load(open(sys.argv[1])); print('trace parses')" %t.trap.trace.json | FileCheck %s --check-prefix=PARSES
// TRAP: 4   57.1          2  vector-dependency           0          1          0  b m.py:2:1
// TRAP-NEXT: 2   28.6          0  -                           0          1          0  a we"ird
// TRAP-NEXT: 1   14.3          0  -                           0          0          0  c m.py:3:1
// TRAP: tpu-sim: error: trap at cycle 6, pc b4
// SUMS: 3 source ops; cycles, instructions, stalls and busy cycles add up
// NAME: 'a we"ird\t\ufffd\xe9.py:1:1'
// PARSES: trace parses
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      inst s.li s1, 1 loc("a"("we\"ird\09\FF\C3\A9.py":1:1))
    }
    bundle {
      inst v.ld v0, s0, 0, s1, 0xff loc("a"("we\"ird\09\FF\C3\A9.py":1:1))
    }
    bundle {
      inst v.add v1, v0, v0 loc("b"("m.py":2:1))
    }
    bundle {
      inst s.li s2, 100000 loc("b"("m.py":2:1))
    }
    bundle {
      inst v.ld v2, s2, 0, s1, 0xff loc("c"("m.py":3:1))
    }
    bundle {
      inst halt
    }
  }
}
