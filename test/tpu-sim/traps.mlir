// Every trap names the cycle, the bundle and the reason, and exits with 3.
// RUN: for t in oob race hbmrace unwaited loop misaligned deadlock falloff; do tpu-translate --export-tpu-bin %S/Inputs/trap-$t.mlir -o %t.$t.tpu; done
// RUN: not tpu-sim %t.oob.tpu --quiet 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: tpu-ref random --shape=8x128 -o %t.x.npy
// RUN: not tpu-sim %t.race.tpu --quiet --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not tpu-sim %t.hbmrace.tpu --quiet --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=HBMRACE
// RUN: not tpu-sim %t.unwaited.tpu --quiet --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=UNWAITED
// RUN: not tpu-sim %t.loop.tpu --quiet --max-cycles=1000 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not tpu-sim %t.misaligned.tpu --quiet 2>&1 | FileCheck %s --check-prefix=MISALIGNED
// RUN: not tpu-sim %t.deadlock.tpu --quiet 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not tpu-sim %t.falloff.tpu --quiet 2>&1 | FileCheck %s --check-prefix=FALLOFF
// RUN: tpu-sim %t.oob.tpu --quiet; test $? -eq 3

// OOB: tpu-sim: error: trap at cycle 1, pc b1 (v.ld v0, s1, 0, s2, 0x03): out-of-bounds access: v.ld: VMEM rows [32768, 32769) are out of bounds [0, 32768)
// RACE: tpu-sim: error: trap at cycle 2, pc b2 (v.ld v0, s0, 0, s1, 0xff): DMA race: v.ld reads VMEM row 0, which the dma.ld issued at b1 (dma.ld 2, s0, s0, s1, s1) is still writing (done at cycle 109); wait on its semaphore (dma.wait 2, ...) first
// HBMRACE: tpu-sim: error: trap at cycle 111, pc b4 (dma.ld 2, s2, s1, s1, s1): DMA race: dma.ld reads HBM tile 1, which the dma.st issued at b3 (dma.st 1, s1, s0, s1, s1) is still writing (done at cycle 218); wait on its semaphore (dma.wait 1, ...) first
// UNWAITED: tpu-sim: error: trap at cycle 111, pc b4 (halt): DMA outstanding at halt: halt with 1 DMA(s) on semaphore 1 not waited for (the last issued at b3); wait for every DMA (dma.wait 1, 1) before halt
// LOOP: tpu-sim: error: trap at cycle 1000, pc b0 (jmp b0): cycle limit: the run reached --max-cycles=1000 (raise it, or look for a loop that never ends)
// MISALIGNED: tpu-sim: error: trap at cycle 1, pc b1 (dma.ld 0, s2, s0, s1, s1): misaligned access: dma.ld: VMEM row 4 is not tile-aligned (a multiple of 8)
// DEADLOCK: tpu-sim: error: trap at cycle 2, pc b2 (dma.wait 3, 2): DMA deadlock: dma.wait 3, 2 can never finish: only 1 DMA(s) on semaphore 3 have been issued and not yet waited for
// FALLOFF: tpu-sim: error: trap at cycle 1, pc b1: pc out of range: the program ran past its last bundle (b0); end it with halt
