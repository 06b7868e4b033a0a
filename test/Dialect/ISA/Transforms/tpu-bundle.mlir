// RUN: tpu-opt %s --tpu-bundle --split-input-file | FileCheck %s
// RUN: tpu-opt %s --tpu-bundle --split-input-file | tpu-translate --export-tpu-asm --split-input-file | FileCheck %s --check-prefix=ASM
// RUN: tpu-opt %s --tpu-bundle --split-input-file -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// The loop tpu-lower-to-isa writes for tpu-lower-to-isa.mlir, packed:
// independent instructions share bundles, a bundle may read a register
// another of its instructions writes (reads happen first), a consumer waits
// for its producer's latency (v.ld 3, mxu.pop 2), memory instructions
// keep their order and so do MXU ones (two chains: the last case), and
// each block's branch ends its last bundle. Branch targets are renumbered.
// ASM: b0: s.li s31, 1 ; s.li s1, 64
// ASM-NEXT: b1: s.li s2, 2 ; s.addi s3, s0, 0
// ASM-NEXT: b2: dma.ld 0, s1, s0, s2, s31
// ASM-NEXT: b3: dma.wait 0, 1
// ASM-NEXT: b4: s.li s4, 8
// ASM-NEXT: b5: s.mul s5, s3, s4
// ASM-NEXT: b6: v.ld v0, s5, 64, s31, 0xff
// ASM-NEXT: b7: v.trunc.bf16 v1, v0
// ASM-NEXT: b8: v.cmp.ne v2, v1, v1
// ASM-NEXT: b9: v.sel v3, v2, v0, v1 ; br.ne s3, s0, b11
// ASM-NEXT: b10: mxu.push 0, v3, s3, 0 ; jmp b12
// ASM-NEXT: b11: mxu.push 0, v3, s3, 1
// ASM-NEXT: b12: mxu.pop v4, 0, s3 ; s.addi s3, s3, 1 ; s.li s6, 2
// ASM-NEXT: b13: v.st v4, s5, 64, s31, 0xff ; br.lt s3, s6, b4
// ASM-NEXT: b14: s.li s7, 2 ; s.li s8, 8
// ASM-NEXT: b15: s.min s9, s7, s8 ; s.li s10, 64
// ASM-NEXT: b16: s.li s11, 2
// ASM-NEXT: b17: dma.st 1, s11, s10, s9, s31
// ASM-NEXT: b18: dma.wait 1, 1
// ASM-NEXT: b19: halt
// CHECK: tpu_isa.program @main
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s31, 1
// CHECK-NEXT: inst s.li s1, 64
// CHECK-NEXT: }
module attributes {tpu.chip = #tpu.chip<v2>} {
  tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"arg0", tensor<16x128xf32>, hbm = 0>], results = [#tpu_isa.tensor<"result0", tensor<16x128xf32>, hbm = 2>], useful_macs = 7 : i64} {
    bundle {
      inst s.li s31, 1
    }
    bundle {
      inst s.li s1, 64
    }
    bundle {
      inst s.li s2, 2
    }
    bundle {
      inst dma.ld 0, s1, s0, s2, s31
    }
    bundle {
      inst dma.wait 0, 1
    }
    bundle {
      inst s.addi s3, s0, 0
    }
    bundle {
      inst s.li s4, 8
    }
    bundle {
      inst s.mul s5, s3, s4
    }
    bundle {
      inst v.ld v0, s5, 64, s31, 0xff
    }
    bundle {
      inst v.trunc.bf16 v1, v0
    }
    bundle {
      inst v.cmp.ne v2, v1, v1
    }
    bundle {
      inst v.sel v3, v2, v0, v1
    }
    bundle {
      inst br.ne s3, s0, b15
    }
    bundle {
      inst mxu.push 0, v3, s3, 0
    }
    bundle {
      inst jmp b16
    }
    bundle {
      inst mxu.push 0, v3, s3, 1
    }
    bundle {
      inst mxu.pop v4, 0, s3
    }
    bundle {
      inst v.st v4, s5, 64, s31, 0xff
    }
    bundle {
      inst s.addi s3, s3, 1
    }
    bundle {
      inst s.li s6, 2
    }
    bundle {
      inst br.lt s3, s6, b6
    }
    bundle {
      inst s.li s7, 2
    }
    bundle {
      inst s.li s8, 8
    }
    bundle {
      inst s.min s9, s7, s8
    }
    bundle {
      inst s.li s10, 64
    }
    bundle {
      inst s.li s11, 2
    }
    bundle {
      inst dma.st 1, s11, s10, s9, s31
    }
    bundle {
      inst dma.wait 1, 1
    }
    bundle {
      inst halt
    }
  }
}


// -----

// Nops are dropped; a bundle that reads what it also writes is read as it
// would run: both reads see the old values.
// ASM: b0: s.li s1, 7 ; s.li s2, 9
// ASM-NEXT: b1: s.add s3, s1, s2 ; halt
module {
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst s.li s1, 7
    }
    bundle {
      inst nop
    }
    bundle {
      inst s.li s2, 9
    }
    bundle {
      inst s.add s3, s1, s2
    }
    bundle {
      inst halt
    }
  }
}

// -----

// Memory and the MXUs are two chains: the second v.ld, after a push that
// waits for the first, does not wait for the push (a push reads a vreg,
// not memory), while a weight load, which reads VMEM, waits for the store
// before it.
// ASM: b0: v.ld v1, s0, 0, s31, 0xff ; v.ld v2, s0, 8, s31, 0xff
// ASM-NEXT: b1: mxu.push 0, v1, s0, 0 ; v.add v3, v2, v2
// ASM-NEXT: b2: v.st v3, s0, 16, s31, 0xff ; mxu.ldw 1, s0, s31 ; halt
module {
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst v.ld v1, s0, 0, s31, 0xff
    }
    bundle {
      inst mxu.push 0, v1, s0, 0
    }
    bundle {
      inst v.ld v2, s0, 8, s31, 0xff
    }
    bundle {
      inst v.add v3, v2, v2
    }
    bundle {
      inst v.st v3, s0, 16, s31, 0xff
    }
    bundle {
      inst mxu.ldw 1, s0, s31
    }
    bundle {
      inst halt
    }
  }
}

// -----

// A latch is on the memory chain too: the store to the rows the weight load
// reads does not move above the latch that waits for the load (two
// pushes to another MXU hold the latch back; a store free to move would
// go beside the first). The bundle that holds both issues when the latch
// can.
// ASM: b0: mxu.ldw 0, s0, s31
// ASM-NEXT: b1: mxu.push 1, v1, s0, 0
// ASM-NEXT: b2: mxu.push 1, v2, s0, 0
// ASM-NEXT: b3: mxu.latch 0 ; v.st v3, s0, 0, s31, 0xff ; halt
module {
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst mxu.ldw 0, s0, s31
    }
    bundle {
      inst mxu.push 1, v1, s0, 0
    }
    bundle {
      inst mxu.push 1, v2, s0, 0
    }
    bundle {
      inst mxu.latch 0
    }
    bundle {
      inst v.st v3, s0, 0, s31, 0xff
    }
    bundle {
      inst halt
    }
  }
}

// -----

// An instruction keeps its source op's location wherever it moves: the
// second load joins the first's bundle, the add the push's. A location
// that names no op is no source op (an ISA file's own lines): the halt
// gets the program's. An op inlined from a function is the callee's op:
// the call's name does not make an unnamed callee op (a generic's body)
// one. A fused location is its first named part's; an empty name is none.
// LOC: inst v.ld v1, s0, 0, s31, 0xff loc("linalg.matmul"("m.py":1:1))
// LOC-NEXT: inst v.ld v2, s0, 8, s31, 0xff loc("linalg.generic"("m.py":2:1))
// LOC-NEXT: inst s.li s5, 1 loc("linalg.reduce"("m.py":3:1))
// LOC-NEXT: inst s.li s6, 2 loc("{{.*}}tpu-bundle.mlir":{{[0-9]+}}:3)
// LOC-NEXT: }
// LOC-NEXT: bundle {
// LOC-NEXT: inst s.li s7, 3 loc("linalg.generic"("m.py":2:1))
// LOC-NEXT: inst s.li s8, 4 loc("{{.*}}tpu-bundle.mlir":{{[0-9]+}}:3)
// LOC-NEXT: }
// LOC-NEXT: bundle {
// LOC-NEXT: inst mxu.push 0, v1, s0, 0 loc("linalg.matmul"("m.py":1:1))
// LOC-NEXT: inst v.add v3, v2, v2 loc("linalg.generic"("m.py":2:1))
// LOC-NEXT: inst halt loc("{{.*}}tpu-bundle.mlir":{{[0-9]+}}:3)
module {
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst v.ld v1, s0, 0, s31, 0xff loc("linalg.matmul"("m.py":1:1))
    }
    bundle {
      inst mxu.push 0, v1, s0, 0 loc("linalg.matmul"("m.py":1:1))
    }
    bundle {
      inst v.ld v2, s0, 8, s31, 0xff loc("linalg.generic"("m.py":2:1))
    }
    bundle {
      inst v.add v3, v2, v2 loc("linalg.generic"("m.py":2:1))
    }
    bundle {
      inst s.li s5, 1 loc(callsite("linalg.reduce"("m.py":3:1) at "func.call"("m.py":5:1)))
    }
    bundle {
      inst s.li s6, 2 loc(callsite("m.py":9:2 at "func.call"("m.py":5:1)))
    }
    bundle {
      inst s.li s7, 3 loc(fused["m.py":7:1, "linalg.generic"("m.py":2:1)])
    }
    bundle {
      inst s.li s8, 4 loc(""("m.py":8:1))
    }
    bundle {
      inst halt loc("m.py":3:1)
    }
  }
}

// -----

// A push streams its 8 rows into the MXU for 8 cycles, and one issued
// before the MXU takes it stalls the core: the second push goes 8 cycles
// after the first, and the add chain written after it fills those cycles
// instead of waiting behind it.
// ASM: b0: v.ld v1, s0, 0, s31, 0xff ; v.ld v2, s0, 8, s31, 0xff ; v.add v4, v3, v3
// ASM-NEXT: b1: v.add v5, v4, v4
// ASM-NEXT: b2: mxu.push 0, v1, s0, 0
// ASM-NEXT: b3: v.add v6, v5, v5
// ASM-NEXT: b4: v.add v7, v6, v6
// ASM-NEXT: b5: mxu.push 0, v2, s0, 1 ; halt
module {
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst v.ld v1, s0, 0, s31, 0xff
    }
    bundle {
      inst v.ld v2, s0, 8, s31, 0xff
    }
    bundle {
      inst mxu.push 0, v1, s0, 0
    }
    bundle {
      inst mxu.push 0, v2, s0, 1
    }
    bundle {
      inst v.add v4, v3, v3
    }
    bundle {
      inst v.add v5, v4, v4
    }
    bundle {
      inst v.add v6, v5, v5
    }
    bundle {
      inst v.add v7, v6, v6
    }
    bundle {
      inst halt
    }
  }
}

// -----

// The ready instruction with the longest path to the block's end goes
// first: of three scalar instructions for two slots, the one whose result
// a load and a push wait for takes a slot before the two written ahead of
// it. A branch waits for the register it reads (s4), not just for the
// block's other instructions.
// ASM: b0: s.li s3, 8 ; s.li s1, 1
// ASM-NEXT: b1: s.li s2, 2 ; v.ld v1, s3, 0, s31, 0xff ; s.li s5, 3
// ASM-NEXT: b2: s.slt s4, s1, s2
// ASM-NEXT: b3: br.ne s4, s0, b0
// ASM-NEXT: b4: mxu.push 0, v1, s0, 0 ; halt
module {
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst s.li s1, 1
    }
    bundle {
      inst s.li s2, 2
    }
    bundle {
      inst s.li s3, 8
    }
    bundle {
      inst v.ld v1, s3, 0, s31, 0xff
    }
    bundle {
      inst s.slt s4, s1, s2
    }
    bundle {
      inst s.li s5, 3
    }
    bundle {
      inst br.ne s4, s0, b0
    }
    bundle {
      inst mxu.push 0, v1, s0, 0
    }
    bundle {
      inst halt
    }
  }
}
