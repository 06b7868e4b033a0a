// The kernels' loops, on tensor-level input bufferized first.
// RUN: tpu-opt %s --tpu-attach-chip=chip=v4 --tpu-bufferize --tpu-lower-to-mxu --split-input-file | FileCheck %s
// RUN: tpu-opt %s --tpu-attach-chip=chip=v2 --tpu-bufferize --tpu-lower-to-mxu --split-input-file | FileCheck %s --check-prefix=V2
// RUN: tpu-opt %s --tpu-attach-chip=chip=v4 --tpu-bufferize --tpu-lower-to-mxu --tpu-canonicalize --cse --split-input-file | FileCheck %s --check-prefix=FOLDED

// A DEFAULT matmul with 3 K tiles and 5 column blocks: on v4 a group of 4
// MXUs and a group with 1 active. Work buffers are VMEM rows. With two
// groups, the chunk's LHS stays in VMEM (read once, not once per group).
// CHECK: module attributes {tpu.chip = #tpu.chip<v4>}
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[A:.*]]: memref<512x384xf32, #tiled, #tpu.memory_space<hbm>>, %[[B:.*]]: memref<384x640xf32, #tiled, #tpu.memory_space<hbm>>) -> memref<512x640xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK-SAME: tpu.useful_macs = 125829120
// CHECK: %[[C:.*]] = memref.alloc() : memref<512x640xf32, #tiled, #tpu.memory_space<hbm>>
// The resident LHS (3 K tiles x 64 row blocks), double-buffered weights
// (2 x 4 MXUs x 128 rows), result staging in two halves (2 x 4 MXUs x
// 512 rows: the second group pops the first's results, below).
// CHECK: %[[LHS:.*]] = memref.alloc() : memref<1536x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[RHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4096x128xf32, #tpu.memory_space<vmem>>
// Loops over the batch, chunks of row blocks and groups of column blocks.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[COL0]]
// With an odd number of K tiles (3) and two column groups the halves
// alternate over the chunk's tiles, group after group: tile k of group g
// (col0 / 4) is in half (k + g) % 2.
// CHECK: %[[GROUP:.*]] = arith.shrui %[[COL0]], %c2
// The group's half of the result staging, g % 2, and the group before's.
// CHECK-NEXT: %[[PARITY:.*]] = arith.andi %[[GROUP]], %c1
// CHECK-NEXT: %c2048 = arith.constant 2048 : index
// CHECK-NEXT: %[[OWN:.*]] = arith.muli %[[PARITY]], %c2048
// CHECK-NEXT: %c2048{{.*}} = arith.constant 2048 : index
// CHECK-NEXT: %[[PREVIOUS:.*]] = arith.subi %c2048{{.*}}, %[[OWN]]
// The prologue loads K tile 0: the LHS column in the first group only (on
// its own semaphore), then one weight block per MXU; an MXU past the last
// column block moves 0 tiles. Later groups' tile 0 came from the group
// before.
// CHECK: scf.if %[[FIRST]] {
// CHECK: tpu.dma_load %[[A]][%{{.*}}, stride %{{.*}}] to %[[LHS]][%{{.*}}] tiles %{{.*}} sem 3
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: tpu.dma_load %[[B]]
// CHECK-COUNT-3: tpu.dma_load %[[B]]
// The K loop prefetches tile k + 1's LHS column; its weights too from
// tile 0 (tile 1's), later tiles' came two tiles ahead (below). The LHS
// column's addresses are made inside the first group's branch, not in a
// later group's K tiles, which load none.
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c3{{.*}} step
// CHECK-NEXT: %[[TILE:.*]] = arith.addi %[[K]], %[[GROUP]]
// CHECK-NEXT: %[[HALF:.*]] = arith.andi %[[TILE]], %c1
// The LHS tiles but tile 0 come in pieces (piecesLhsTiles, below), after
// their weights.
// CHECK: %[[FIRSTK:.*]] = arith.cmpi eq, %[[K]]
// CHECK: scf.if
// CHECK-NOT: arith.muli
// CHECK: scf.if %[[FIRSTK]] {
// CHECK-COUNT-4: tpu.dma_load %[[B]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: arith.muli
// CHECK: tpu.dma_load %[[A]]{{.*}} sem 3
// The last tile prefetches the next group's tile 0, into half (g + 1) % 2,
// which it is not using. The two tiles prefetched ahead of a group's
// stores spare them: no result DMA in the K loop.
// CHECK: } else {
// CHECK: %[[NEXT0:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[GROUP]]
// CHECK: arith.addi %[[NEXT0]], %c1
// CHECK-COUNT-4: tpu.dma_load %[[B]]
// CHECK-NOT: tpu.dma_store
// A group's tile 0 waits for its loads and stages its weights; in later
// tiles the tile before did both. Then the latches.
// CHECK: scf.if %[[FIRSTK]] {
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: tpu.dma_wait sem 3 count 1
// CHECK: tpu.dma_wait sem 0 count 4
// CHECK: scf.if %[[FIRSTK]] {
// CHECK: tpu.mxu_load_weights %[[RHS]][%{{.*}}, stride %{{.*}}] mxu 0
// CHECK: tpu.mxu_load_weights %[[RHS]][%{{.*}}, stride %{{.*}}] mxu 3
// CHECK-NEXT: }
// CHECK-NEXT: tpu.mxu_latch mxu 0
// CHECK-NEXT: tpu.mxu_latch mxu 1
// CHECK-NEXT: tpu.mxu_latch mxu 2
// CHECK-NEXT: tpu.mxu_latch mxu 3
// The chunk's first group's tiles but tile 0 wait for their LHS in pieces
// (piecesLhsTiles; a test below has them): the smaller of k and col0 is
// 0 there and in every group's tile 0.
// CHECK-NEXT: %[[NEAREST0:.*]] = arith.minsi %[[K]], %[[COL0]] : index
// CHECK-NEXT: arith.cmpi eq, %[[NEAREST0]], %c0 : index
// Beside the latches, for the staging below: whether there is a tile k +
// 1 (2 - k, the tiles after this one, is not 0) and the row its weights
// are in, in the other half.
// CHECK-NEXT: %c1{{.*}} = arith.constant 1 : index
// CHECK-NEXT: %[[NEXTK:.*]] = arith.addi %[[K]], %c1{{.*}} : index
// CHECK-NEXT: %c2{{.*}} = arith.constant 2 : index
// CHECK-NEXT: %[[AFTER:.*]] = arith.subi %c2{{.*}}, %[[K]] : index
// CHECK-NEXT: %[[HAS_NEXT:.*]] = arith.cmpi ne, %[[AFTER]], %c0 : index
// CHECK-NEXT: %[[OTHER_HALF:.*]] = arith.subi %c1, %[[HALF]] : index
// CHECK-NEXT: %c512{{.*}} = arith.constant 512 : index
// CHECK-NEXT: %[[STAGE_ROW:.*]] = arith.muli %[[OTHER_HALF]], %c512{{.*}} : index
// Latched, this half's weight blocks are free: tile k + 2's load into
// them, queued behind tile k + 1's.
// CHECK: arith.addi %[[K]], %c2
// CHECK: scf.if
// CHECK-COUNT-4: tpu.dma_load %[[B]]
// K tile 0 overwrites the result slots, later tiles accumulate.
// CHECK: scf.if %[[FIRSTK]]
// The second group's tile 0 pops the first group's results as it pushes
// (popsInNextGroup; test/e2e/pops-in-next-group.test): block b of every
// MXU just before the push that overwrites its slot, staged in the group
// before's half. With the staging in halves, the pops wait for the stores
// of the group two before the popped one (there is none here: (batch +
// row0) x 8 + col0 - 4 > 7 is false).
// CHECK: %[[POPPED:.*]] = arith.subi %[[COL0]], %c4
// CHECK: %[[CHUNKOFFSET:.*]] = arith.addi
// CHECK: %[[FAR:.*]] = arith.muli %[[CHUNKOFFSET]], %c8
// CHECK: %[[SEQ:.*]] = arith.addi %[[FAR]], %[[POPPED]]
// CHECK: %[[TWOBACK:.*]] = arith.cmpi slt, %c7, %[[SEQ]]
// CHECK-NEXT: scf.if %[[TWOBACK]] {
// CHECK-NEXT: tpu.dma_wait sem 1 count 4
// CHECK: scf.for %{{.*}} step %c64
// CHECK: %[[PROW:.*]] = arith.addi %{{.*}}, %[[PREVIOUS]] : index
// CHECK-NEXT: tpu.mxu_pop mxu 0
// CHECK-NEXT: tpu.vector_store %{{.*}}, %[[OUT]][%[[PROW]]]
// CHECK: tpu.mxu_pop mxu 3
// CHECK-NEXT: tpu.vector_store
// CHECK-NEXT: tpu.mxu_push %{{.*}} to mxu 0
// CHECK: scf.for %{{.*}} step %c8{{(_[0-9]+)?}} {
// CHECK: tpu.mxu_push %{{.*}} to mxu 3
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// Eight row blocks per iteration, all loaded before their pushes; the
// blocks left over one at a time after. The loop counts the LHS buffer's
// rows from the tile's first (64 an iteration): the first load's address
// is the loop's own (v4: its four MXUs would leave the add after the
// branch exposed), and the pushes' slot (the block: the row less the
// first, over 8) is made after the loads. On v2 it counts from 0 and
// adds the tile's first (below).
// CHECK: scf.for %[[ROW:.*]] = %[[ROW0:.*]] to %[[SPLIT:.*]] step %c64{{(_[0-9]+)?}} {
// CHECK-NEXT: %[[OFFSET:.*]] = arith.subi %[[ROW]], %[[ROW0]]
// CHECK-NEXT: %[[ROWS:.*]] = tpu.vector_load %[[LHS]][%[[ROW]]]
// CHECK: %[[ROWS2:.*]] = tpu.vector_load %[[LHS]]
// CHECK-COUNT-5: tpu.vector_load %[[LHS]]
// CHECK: %[[ROWS8:.*]] = tpu.vector_load %[[LHS]]
// CHECK-NOT: tpu.vector_load
// CHECK: %[[BLOCK:.*]] = arith.shrui %[[OFFSET]], %c3
// CHECK-NEXT: tpu.mxu_push %[[ROWS]] to mxu 0 slot %[[BLOCK]] : vector<8x128xf32>
// CHECK: tpu.mxu_push %[[ROWS]] to mxu 3 slot
// CHECK: tpu.mxu_push %[[ROWS2]] to mxu 0 slot
// CHECK: tpu.mxu_push %[[ROWS8]] to mxu 3 slot
// Two iterations (16 blocks: 128 cycles of each MXU's input) before the
// unrolled pushes end, the wait for tile k + 1's loads and its weights
// staged: they shift in while the last pushes stream.
// CHECK: scf.if %[[HAS_NEXT]] {
// CHECK: tpu.dma_wait sem 0 count 4
// CHECK-NEXT: tpu.mxu_load_weights %[[RHS]][%[[STAGE_ROW]], stride %{{.*}}] mxu 0
// CHECK: tpu.mxu_load_weights %[[RHS]]{{.*}} mxu 3
// CHECK-NOT: tpu.mxu_latch
// The chunk's 64 row blocks leave 48 before that point, 384 cycles of
// pushes, less than the next group's first loads take (459), so the
// group's last tile does not stage the next group's (stagesAcrossGroups).
// CHECK-NOT: tpu.mxu_load_weights
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step %c64{{(_[0-9]+)?}} {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8{{(_[0-9]+)?}} {
// CHECK: tpu.vector_load %[[LHS]]
// CHECK: tpu.mxu_push
// CHECK: } else {
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot %{{.*}} accumulate
// Tile 0's pops issued, the group before's results go out from its half.
// CHECK: %[[PSTORE:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[PREVIOUS]]
// CHECK-NEXT: %c5{{.*}} = arith.constant 5 : index
// CHECK-NEXT: tpu.dma_store %[[OUT]][%[[PSTORE]]] to %[[C]]
// After the loop, the next group's tile 1, into half g % 2, which the last
// tile has finished with.
// CHECK: %[[NEXT1:.*]] = arith.addi %c1{{(_[0-9]+)?}}, %[[GROUP]]
// CHECK: arith.addi %[[NEXT1]], %c1
// CHECK-COUNT-4: tpu.dma_load %[[B]]
// The chunk's last group (col0 + 4 > 4) has an epilogue: it waits for
// the result DMAs of the group two before it, which read its half (none
// here: (batch + row0) x 8 + col0 > 7 is false), pops each active MXU's
// slots into its half, eight blocks an iteration (each stored before the
// next is popped) and the rest one at a time, and DMAs the MXU's block
// out. The kernel ends waiting for two groups' DMAs, the group before's
// and its own.
// CHECK: %[[GROUPEND:.*]] = arith.addi %[[COL0]], %c4
// CHECK: %[[LAST:.*]] = arith.cmpi slt, %c4{{(_[0-9]+)?}}, %[[GROUPEND]]
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: %[[OWNFAR:.*]] = arith.addi %{{.*}}, %[[COL0]]
// CHECK-NEXT: %c7{{.*}} = arith.constant 7 : index
// CHECK-NEXT: %[[OWNTWOBACK:.*]] = arith.cmpi slt, %c7{{.*}}, %[[OWNFAR]]
// CHECK-NEXT: scf.if %[[OWNTWOBACK]] {
// CHECK-NEXT: tpu.dma_wait sem 1 count 4
// CHECK: %[[OWNROW:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[OWN]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8{{(_[0-9]+)?}} {
// CHECK-COUNT-8: tpu.mxu_pop mxu 0 slot
// CHECK-NOT: tpu.mxu_pop
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{(_[0-9]+)?}} {
// CHECK: tpu.mxu_pop mxu 0 slot
// CHECK: tpu.vector_store %{{.*}}, %[[OUT]]
// CHECK: %[[OWNROW0:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[OWN]]
// CHECK: tpu.dma_store %[[OUT]][%[[OWNROW0]]] to %[[C]][%{{.*}}, stride %{{.*}}] tiles %{{.*}} sem 1
// CHECK-NOT: tpu.dma_store
// CHECK: tpu.mxu_pop mxu 1 slot
// CHECK: tpu.dma_wait sem 1 count 8
// CHECK: memref.dealloc %[[LHS]]
// CHECK: return %[[C]]
// On v2 (one MXU, five groups) the LHS stays too.
// V2: module attributes {tpu.chip = #tpu.chip<v2>}
// V2: %{{.*}} = memref.alloc() : memref<1536x128xf32, #tpu.memory_space<vmem>>
// V2: %{{.*}} = memref.alloc() : memref<256x128xf32, #tpu.memory_space<vmem>>
// V2: tpu.dma_wait sem 3 count 1
// V2: tpu.dma_wait sem 0 count 1
// V2-NOT: mxu 1
// Its push loop counts from 0 and adds the tile's first row: one MXU's
// pushes leave the add hidden.
// V2: tpu.dma_wait sem 1 count 1
// V2: scf.for %[[V2OFFSET:.*]] = %c0{{(_[0-9]+)?}} to %{{.*}} step %c64{{(_[0-9]+)?}} {
// V2-NEXT: %[[V2ROW:.*]] = arith.addi %{{.*}}, %[[V2OFFSET]] : index
// V2-NEXT: tpu.vector_load %{{.*}}[%[[V2ROW]]]
// V2-NOT: mxu 1
func.func @main(%a: tensor<512x384xf32>, %b: tensor<384x640xf32>) -> tensor<512x640xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64, tpu.useful_macs = 125829120 : i64} : (tensor<512x384xf32>, tensor<384x640xf32>) -> tensor<512x640xf32>
  return %c : tensor<512x640xf32>
}

// -----

// One group of column blocks (4, on v4's 4 MXUs): nothing is re-read, so
// the LHS is double-buffered (2 halves x 2 row blocks) and streamed with
// the weights on one semaphore.
// CHECK-LABEL: func.func @main
// CHECK: %[[LHS:.*]] = memref.alloc() : memref<32x128xf32, #tpu.memory_space<vmem>>
// CHECK: tpu.dma_load %{{.*}} to %[[LHS]][%{{.*}}] tiles %{{.*}} sem 0
// CHECK: scf.for
// CHECK: tpu.dma_wait sem 0 count 5
// CHECK-NOT: sem 3
// CHECK: return
func.func @main(%a: tensor<16x384xf32>, %b: tensor<384x512xf32>) -> tensor<16x512xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<16x384xf32>, tensor<384x512xf32>) -> tensor<16x512xf32>
  return %c : tensor<16x512xf32>
}

// -----

// One column block (N = 128) on v4's four MXUs: the rows are split. One
// weight block is loaded (one DMA a K tile, and one result block staged),
// every MXU latches it, an unrolled iteration's eight row blocks go round
// the MXUs (block i to MXU i % 4), and a block left over goes to MXU
// block % 4, chosen at run time. Each MXU's blocks are popped by a loop of
// their own, every fourth block from its first.
// CHECK-LABEL: func.func @main
// CHECK: %[[RHS:.*]] = memref.alloc() : memref<256x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<80x128xf32, #tpu.memory_space<vmem>>
// CHECK: tpu.dma_wait sem 0 count 2
// CHECK: %[[W0:.*]] = arith.muli %[[HALF:.*]], %c128
// CHECK-NEXT: tpu.mxu_load_weights %[[RHS]][%[[W0]], stride %{{.*}}] mxu 0
// CHECK: %[[W1:.*]] = arith.muli %[[HALF]], %c128
// CHECK-NEXT: tpu.mxu_load_weights %[[RHS]][%[[W1]], stride %{{.*}}] mxu 1
// CHECK: %[[W2:.*]] = arith.muli %[[HALF]], %c128
// CHECK-NEXT: tpu.mxu_load_weights %[[RHS]][%[[W2]], stride %{{.*}}] mxu 2
// CHECK: %[[W3:.*]] = arith.muli %[[HALF]], %c128
// CHECK-NEXT: tpu.mxu_load_weights %[[RHS]][%[[W3]], stride %{{.*}}] mxu 3
// CHECK: scf.for %{{.*}} step %c64
// CHECK-COUNT-8: tpu.vector_load
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot
// CHECK-NOT: tpu.mxu_push
// CHECK: tpu.mxu_push %{{.*}} to mxu 1 slot
// CHECK-NOT: tpu.mxu_push
// CHECK: tpu.mxu_push %{{.*}} to mxu 2 slot
// CHECK-NOT: tpu.mxu_push
// CHECK: tpu.mxu_push %{{.*}} to mxu 3 slot
// CHECK-NOT: tpu.mxu_push
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot
// CHECK: scf.for %{{.*}} step %c8
// CHECK: %[[WHICH:.*]] = arith.andi %{{.*}}, %c3
// CHECK: arith.cmpi eq, %[[WHICH]], %c0
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot
// CHECK: arith.cmpi eq, %[[WHICH]], %c3
// CHECK: tpu.mxu_push %{{.*}} to mxu 3 slot
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c4
// CHECK: tpu.mxu_pop mxu 0 slot
// CHECK: scf.for %{{.*}} = %c3{{.*}} to %{{.*}} step %c4
// CHECK: tpu.mxu_pop mxu 3 slot
// CHECK: tpu.dma_store %[[OUT]]
// CHECK-NOT: tpu.dma_store
// CHECK: return
func.func @main(%a: tensor<80x256xf32>, %b: tensor<256x128xf32>) -> tensor<80x128xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<80x256xf32>, tensor<256x128xf32>) -> tensor<80x128xf32>
  return %c : tensor<80x128xf32>
}

// -----

// Two terms reading the same buffers, with an even number of K tiles (2):
// each K tile loads them once (the LHS on semaphore 3, in the first group
// only, and a weight block per MXU), and both terms' passes run from them,
// K tiles outermost, the second from the weights the first latched. The last tile prefetches the next column group's tile
// 0 into half 0 (weights only: its LHS is resident), if there is one, and
// after its passes tile 1 into half 1, so only a chunk's first group loads
// its own tiles 0 and 1 (a later group's tile 0 skips the prefetch of tile
// 1: min(col0, 1) < k + 1 fails). The epilogue waits for
// the previous epilogue's result DMAs before it writes the staging buffer,
// and the last ones are waited for after the loops.
// CHECK-LABEL: func.func @main
// CHECK: %[[LHS:.*]] = memref.alloc() : memref<32x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[RHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[COL0]]
// CHECK: scf.if %[[FIRST]] {
// CHECK: tpu.dma_load {{.*}} sem 3
// CHECK-COUNT-4: tpu.dma_load {{.*}} sem 0
// CHECK-NOT: tpu.dma_load
// The K loop: tile k + 1 unless a later group's tile 0, else the next
// group's tile 0.
// CHECK: scf.for %[[K:.*]] = %{{.*}} to
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %c1
// CHECK: %[[ONE:.*]] = arith.minsi %[[COL0]], %c1
// CHECK: %[[OWN:.*]] = arith.cmpi slt, %[[ONE]], %[[NEXT]]
// CHECK: scf.if
// CHECK-NEXT: scf.if %[[OWN]] {
// CHECK: tpu.dma_load {{.*}} sem 3
// CHECK-COUNT-4: tpu.dma_load {{.*}} sem 0
// CHECK: } else {
// CHECK: arith.addi %[[COL0]], %c4
// CHECK: scf.if
// CHECK-NOT: sem 3
// CHECK-COUNT-4: tpu.dma_load {{.*}} sem 0
// CHECK-NOT: tpu.dma_load
// CHECK: tpu.dma_wait sem 3 count 1
// CHECK: tpu.dma_wait sem 0 count 4
// CHECK: tpu.mxu_load_weights %[[RHS]]{{.*}} mxu 3
// CHECK: tpu.mxu_latch mxu 3
// CHECK: tpu.mxu_push
// The second term's weights are the first's: it latches nothing. (With
// two row blocks the next tile's loads take longer than the pushes, so
// the next tile's weights are not staged here: loadsOutlastPushes.)
// CHECK-NOT: tpu.mxu_l
// After the K loop, before the epilogue's result DMAs: the next group's
// tile 1, into half 1.
// CHECK: %[[NEXTCOL0:.*]] = arith.addi %[[COL0]], %c4
// CHECK: %[[HASNEXT:.*]] = arith.cmpi slt, %[[NEXTCOL0]]
// CHECK-NEXT: scf.if %[[HASNEXT]] {
// CHECK-NOT: sem 3
// CHECK-COUNT-4: tpu.dma_load {{.*}} sem 0
// CHECK-NOT: tpu.dma_load
// CHECK: %[[LATER:.*]] = arith.cmpi slt, %c0{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK-NEXT: tpu.dma_wait sem 1 count 4
// CHECK: tpu.mxu_pop
// CHECK: tpu.dma_wait sem 1 count 4
// CHECK-NEXT: memref.dealloc
func.func @main(%a: tensor<16x256xf32>, %b: tensor<256x640xf32>) -> tensor<16x640xf32> {
  %c = tpu.matmul_passes lhs(%a, %a) rhs(%b, %b) {nan_fixed_terms = 0 : i64} : (tensor<16x256xf32>, tensor<16x256xf32>, tensor<256x640xf32>, tensor<256x640xf32>) -> tensor<16x640xf32>
  return %c : tensor<16x640xf32>
}

// -----

// Two groups (HIGH-like): the NaN-fixed group's slots come first, the main
// group's after them; the epilogue fixes NaNs and adds the accumulator last.
// CHECK-LABEL: func.func @main
// CHECK: tpu.mxu_pop mxu 0 slot
// CHECK: %[[SMALL:.*]] = tpu.mxu_pop mxu 0 slot
// CHECK: %[[NAN:.*]] = arith.cmpf une, %[[SMALL]], %[[SMALL]]
// CHECK: %[[FIXED:.*]] = arith.select %[[NAN]], %{{.*}}, %[[SMALL]]
// CHECK: %[[SUM:.*]] = arith.addf %[[FIXED]]
// CHECK: %[[ACC:.*]] = tpu.vector_load
// CHECK: arith.addf %[[SUM]], %[[ACC]]
func.func @main(%a: tensor<8x128xf32>, %b: tensor<128x256xf32>, %acc: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %c = tpu.matmul_passes lhs(%a, %a) rhs(%b, %b) acc(%acc) {nan_fixed_terms = 1 : i64} : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<128x256xf32>, tensor<128x256xf32>, tensor<8x256xf32>) -> tensor<8x256xf32>
  return %c : tensor<8x256xf32>
}

// -----

// HIGH's three terms over two LHS and two RHS buffers (bf16 parts, packed):
// each K tile loads every buffer once (2 LHS columns and 2 x 4 weight
// blocks, one wait for the 10), into its own double buffer; then the terms
// run, each pushing both row blocks of the packed tile: lo.hi into the
// NaN-fixed slots 0 and 1, hi.hi into the main group's 2 and 3 from the
// same latched weights (the main group runs between the small terms, so
// the latch is shared), and hi.lo into slots 0 and 1 after its own latch.
// CHECK-LABEL: func.func @main
// CHECK: memref.alloc() : memref<64x128xf32, #tpu.memory_space<vmem>>
// CHECK: memref.alloc() : memref<2048x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c2
// CHECK: tpu.dma_wait sem 0 count 10
// CHECK-NOT: tpu.dma_wait
// CHECK: tpu.mxu_load_weights %[[W:.*]][%[[HI:[^,]*]], stride %{{.*}}] mxu 0 packed
// CHECK: tpu.mxu_load_weights {{.*}} mxu 3 packed
// CHECK: tpu.mxu_latch mxu 0
// CHECK: tpu.mxu_latch mxu 3
// The lo weights are staged as soon as hi is latched: they shift in while
// lo.hi and hi.hi push, and hi.lo only latches them.
// CHECK: tpu.mxu_load_weights %[[W]][%[[LO:[^,]*]], stride %{{.*}}] mxu 0 packed
// CHECK: tpu.mxu_load_weights {{.*}} mxu 3 packed
// CHECK: scf.for %[[B0:.*]] = %c0 to
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot %[[B0]] :
// CHECK-NOT: tpu.mxu_l
// CHECK: scf.for %[[B2:.*]] = %c0 to
// CHECK: %[[MAIN:.*]] = arith.addi %[[B2]], %c2
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot %[[MAIN]] :
// CHECK-NOT: tpu.mxu_load_weights
// CHECK: tpu.mxu_latch mxu 0
// CHECK: tpu.mxu_latch mxu 3
// CHECK: scf.for %[[B1:.*]] = %c0 to
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot %[[B1]] accumulate
// CHECK-NOT: tpu.mxu_load_weights
// CHECK: tpu.mxu_pop
func.func @main(%alo: tensor<16x256xbf16>, %ahi: tensor<16x256xbf16>, %bhi: tensor<256x512xbf16>, %blo: tensor<256x512xbf16>) -> tensor<16x512xf32> {
  %c = tpu.matmul_passes lhs(%alo, %ahi, %ahi) rhs(%bhi, %blo, %bhi) {nan_fixed_terms = 2 : i64} : (tensor<16x256xbf16>, tensor<16x256xbf16>, tensor<16x256xbf16>, tensor<256x512xbf16>, tensor<256x512xbf16>, tensor<256x512xbf16>) -> tensor<16x512xf32>
  return %c : tensor<16x512xf32>
}

// -----

// HIGH with the splits taken in (lhs_parts, rhs_parts): each K tile loads
// the f32 operands once (1 LHS column and 4 weight blocks), splits the
// weights of the MXUs with a column block into the parts the terms read,
// each part in its own slot (hi, then lo), and the terms latch them from
// there. The first term's push loop splits the LHS rows (lo, then hi): its
// first kUnroll blocks before its latch, and in each iteration the blocks
// the next one pushes, clamped to the chunk's last; every term pushes its
// part from its slot.
// CHECK-LABEL: func.func @main
// CHECK: %[[LHS:.*]] = memref.alloc() : memref<16x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[RHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[LHSPARTS:.*]] = memref.alloc() : memref<16x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[RHSPARTS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[ACTIVE:.*]] = arith.minsi %{{.*}}, %c4
// CHECK: arith.muli %[[ACTIVE]], %c16
// CHECK: tpu.dma_wait sem 0 count 5
// CHECK: tpu.vector_load %[[RHS]]
// CHECK: tpu.vector_store %{{.*}}, %[[RHSPARTS]]
// CHECK: tpu.mxu_load_weights %[[RHSPARTS]][%c0{{.*}}, stride %c8] mxu 0 :
// CHECK: tpu.mxu_load_weights %[[RHSPARTS]][%c384{{.*}}, stride %c8] mxu 3 :
// The first kUnroll LHS blocks are split before the latch: they round
// while the weights shift in.
// CHECK: arith.minsi %{{.*}}, %c8
// CHECK: scf.for
// CHECK: %[[X:.*]] = tpu.vector_load %[[LHS]]
// CHECK-COUNT-7: tpu.vector_load %[[LHS]]
// CHECK: %[[HIROW:.*]] = arith.addi %[[ROW:[^,]*]], %c8
// CHECK: tpu.round_to_bf16 %[[X]] {rounding = #tpu.rounding<rne>}
// CHECK: tpu.round_to_bf16 %[[X]] {rounding = #tpu.rounding<trunc>}
// CHECK: arith.select
// CHECK: %[[HI:.*]] = arith.select
// CHECK: %[[REST:.*]] = arith.subf %[[X]], %[[HI]]
// CHECK: %[[LO:.*]] = tpu.round_to_bf16 %[[REST]] {rounding = #tpu.rounding<rne>}
// CHECK: tpu.vector_store %[[LO]], %[[LHSPARTS]][%[[ROW]]] :
// CHECK: tpu.vector_store %[[HI]], %[[LHSPARTS]][%[[HIROW]]] :
// CHECK: tpu.mxu_latch mxu 3
// The next latch's weights, the lo part's slot, staged right after: they
// shift in while the first term pushes.
// CHECK: tpu.mxu_load_weights %[[RHSPARTS]][%c512{{.*}}, stride %c8] mxu 0 :
// CHECK: scf.for
// CHECK: tpu.vector_load %[[LHSPARTS]]
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c64
// CHECK: arith.minsi %[[AHEAD]],
// CHECK: tpu.vector_load %[[LHS]]
// CHECK: tpu.vector_store %{{.*}}, %[[LHSPARTS]]
// CHECK: tpu.mxu_push
// CHECK-NOT: tpu.mxu_load_weights
// CHECK: tpu.mxu_latch mxu 0
// CHECK-NOT: packed
// CHECK: tpu.mxu_pop
func.func @main(%a: tensor<8x256xf32>, %b: tensor<256x512xf32>) -> tensor<8x512xf32> {
  %c = tpu.matmul_passes lhs(%a, %a, %a) rhs(%b, %b, %b) {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<rne>} : (tensor<8x256xf32>, tensor<8x256xf32>, tensor<8x256xf32>, tensor<256x512xf32>, tensor<256x512xf32>, tensor<256x512xf32>) -> tensor<8x512xf32>
  return %c : tensor<8x512xf32>
}

// -----

// HIGH with 64 row blocks and two K tiles: the weights are split ahead.
// On v4 the chunk has no more row blocks than four MXUs' weights have
// vregs, so the last term's loop could split the next tile's weights but
// not stage them in time: the weights are loaded two K tiles ahead, on
// semaphore 4 (the LHS on 0), the term before the last (hi.hi) splits
// them, and they stream on across column groups (none follows here, but
// the code is there). The group that loads its own first tiles loads
// tile 0's weights before its LHS and tile 1's before tile 1's LHS; its
// tile 0 waits for the weights, splits them into region 0 of the parts
// and stages the first while the LHS loads, then waits for the LHS and
// splits its first rows; a later group's tile 0 (the group before split
// its weights) only waits for its LHS and splits its first rows; a later
// tile waits for nothing here. Then tile k + 2's weights, into the raw
// half tile k's came in, or past the last tile the next group's first
// two. A term latches from region `half` (test/e2e/shapes.test's results
// catch a wrong one). The term before the last waits for the weights
// after this tile (k + group offset below K - 1 + the last group's:
// there is a next tile or group; the next group's tile is 0) and its
// push loop splits them into the other region, eight vregs an iteration
// (clamped to the last eight), the rest after the loop; with none after
// it splits its own half again. The last term, right after its latches,
// stages the next first part from the other region; before its last
// unrolled iteration it waits for the next tile's LHS, whose first eight
// row blocks that iteration splits (from the tile's own rows in the last
// tile).
// CHECK-LABEL: func.func @main
// CHECK: %[[LHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %[[RHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %[[LHSPARTS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %[[RHSPARTS:.*]] = memref.alloc() : memref<2048x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[OWNFIRST:.*]] = arith.cmpi eq, %[[COL0:.*]], %c0
// CHECK-NEXT: scf.if %[[OWNFIRST]] {
// CHECK: tpu.dma_load %{{.*}} to %[[RHS]]{{.*}} sem 4
// CHECK: tpu.dma_load %{{.*}} to %[[LHS]]{{.*}} sem 0
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c2{{(_[0-9]+)?}} step
// CHECK: %[[HALF:.*]] = arith.andi %[[K]]
// CHECK: %[[FIRSTK:.*]] = arith.cmpi eq, %[[K]]
// CHECK-NOT: tpu.mxu_load_weights
// CHECK: scf.if %[[FIRSTK]] {
// CHECK: tpu.dma_load %{{.*}} to %[[RHS]]{{.*}} sem 4
// CHECK: }
// CHECK: tpu.dma_load %{{.*}} to %[[LHS]]{{.*}} sem 0
// CHECK: scf.if %[[FIRSTK]] {
// CHECK-NEXT: scf.if %[[OWNFIRST]] {
// CHECK-NEXT: tpu.dma_wait sem 4 count 4
// CHECK: tpu.vector_load %[[RHS]]
// CHECK: tpu.vector_store %{{.*}}, %[[RHSPARTS]]
// CHECK: tpu.mxu_load_weights %[[RHSPARTS]][%{{.*}}, stride %c8] mxu 0
// CHECK: tpu.dma_wait sem 0 count 1
// CHECK: tpu.vector_load %[[LHS]]
// CHECK: tpu.vector_store %{{.*}}, %[[LHSPARTS]]
// CHECK: } else {
// CHECK-NEXT: tpu.dma_wait sem 0 count 1
// CHECK-NOT: tpu.mxu_load_weights
// CHECK: tpu.vector_load %[[LHS]]
// CHECK: tpu.vector_store %{{.*}}, %[[LHSPARTS]]
// CHECK-NOT: tpu.dma_wait
// CHECK: %[[AFTER:.*]] = arith.addi %[[K]], %c2
// CHECK-NEXT: %[[HASAFTER:.*]] = arith.cmpi slt, %[[AFTER]], %c2
// CHECK-NEXT: scf.if %[[HASAFTER]] {
// CHECK: arith.muli %[[HALF]], %c512
// CHECK: tpu.dma_load %{{.*}} to %[[RHS]]{{.*}} sem 4
// CHECK: } else {
// CHECK-NEXT: arith.subi %[[AFTER]], %c2
// CHECK: tpu.dma_load %{{.*}} to %[[RHS]]{{.*}} sem 4
// CHECK-NOT: tpu.dma_wait
// CHECK: tpu.mxu_latch mxu 0
// CHECK: %[[NEXTK:.*]] = arith.addi %[[K]], %c1
// CHECK-NEXT: %[[NEXT:.*]] = arith.cmpi slt, %[[NEXTK]], %c2{{(_[0-9]+)?}}
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c1{{(_[0-9]+)?}}, %[[HALF]]
// CHECK-NEXT: arith.select %[[NEXT]], %[[NEXTK]], %c0
// CHECK-NEXT: %[[SEQ:.*]] = arith.addi %[[K]], %[[COL0]]
// CHECK-NEXT: %[[LASTSEQ:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[AHEAD:.*]] = arith.cmpi slt, %[[SEQ]], %[[LASTSEQ]]
// CHECK-NEXT: scf.if %[[AHEAD]] {
// CHECK-NEXT: tpu.dma_wait sem 4 count 4
// CHECK-NEXT: }
// CHECK-NEXT: %[[SOURCE:.*]] = arith.select %[[AHEAD]], %[[OTHER]], %[[HALF]]
// CHECK: scf.for
// CHECK: arith.minsi
// CHECK: arith.muli %[[OTHER]], %c1024{{(_[0-9]+)?}}
// CHECK: arith.muli %[[SOURCE]], %c512{{(_[0-9]+)?}}
// CHECK: tpu.vector_load %[[RHS]]
// CHECK: tpu.vector_store %{{.*}}, %[[RHSPARTS]]
// CHECK: tpu.mxu_push
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64{{(_[0-9]+)?}}
// CHECK: arith.muli %[[OTHER]], %c1024{{(_[0-9]+)?}}
// CHECK: tpu.vector_store %{{.*}}, %[[RHSPARTS]]
// CHECK: tpu.mxu_latch mxu 3
// CHECK-NEXT: %[[STAGESEQ:.*]] = arith.addi %[[K]], %[[COL0]]
// CHECK: %[[STAGE:.*]] = arith.cmpi slt, %[[STAGESEQ]]
// CHECK-NEXT: scf.if %[[STAGE]] {
// CHECK-NEXT: %[[LASTOTHER:.*]] = arith.subi %c1{{(_[0-9]+)?}}, %[[HALF]]
// CHECK: %[[REGION:.*]] = arith.muli %[[LASTOTHER]], %c1024
// CHECK-NEXT: %[[STAGEROW:.*]] = arith.addi %[[REGION]], %c0
// CHECK-NEXT: tpu.mxu_load_weights %[[RHSPARTS]][%[[STAGEROW]], stride %c8] mxu 0
// CHECK: tpu.mxu_load_weights %[[RHSPARTS]]{{.*}} mxu 3
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK-NOT: tpu.vector_load %[[LHS]]
// CHECK: tpu.mxu_push
// CHECK: }
// CHECK: %[[HASNEXTLHS:.*]] = arith.cmpi slt, %{{.*}}, %c2
// CHECK-NEXT: %[[NEXTHALF:.*]] = arith.subi %c1{{(_[0-9]+)?}}, %[[HALF]]
// CHECK-NEXT: scf.if %[[HASNEXTLHS]] {
// CHECK-NEXT: tpu.dma_wait sem 0 count 1
// CHECK-NEXT: }
// CHECK: %[[NEXTROW:.*]] = arith.muli %[[NEXTHALF]], %c512
// CHECK-NEXT: %[[SPLITROW:.*]] = arith.select %[[HASNEXTLHS]], %[[NEXTROW]], %{{.*}}
// CHECK: scf.for
// CHECK: %[[FROM:.*]] = arith.addi %[[SPLITROW]], %c0
// CHECK-NEXT: tpu.vector_load %[[LHS]][%[[FROM]]]
// CHECK: tpu.vector_store %{{.*}}, %[[LHSPARTS]]
// CHECK: tpu.mxu_push
// CHECK: }
// On v2 (one MXU: 16 weight vregs, two of the loop's eight iterations) the
// split is done well before the last term's loop ends: the loop is two,
// and between them the next tile's first part is staged from the other
// region, so that it shifts in while the last 16 blocks push; the second
// loop splits nothing (it would write rows the load reads), and no tile
// stages at the top of its iteration.
// V2-LABEL: func.func @main(%arg0: memref<512x256xf32
// V2: memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// V2-NEXT: memref.alloc() : memref<256x128xf32, #tpu.memory_space<vmem>>
// V2-NEXT: memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// V2-NEXT: %[[V2PARTS:.*]] = memref.alloc() : memref<512x128xf32, #tpu.memory_space<vmem>>
// V2: scf.for %[[V2K:.*]] = %{{.*}} to %c2{{(_[0-9]+)?}} step
// V2-NEXT: %[[V2HALF:.*]] = arith.andi %[[V2K]]
// V2-NOT: tpu.mxu_load_weights
// V2: tpu.dma_wait sem 0 count 1
// V2: %[[V2HASNEXT:.*]] = arith.cmpi slt, %{{.*}}, %c2{{(_[0-9]+)?}}
// V2-NEXT: %[[V2OTHER:.*]] = arith.subi %c1{{(_[0-9]+)?}}, %[[V2HALF]]
// V2: tpu.vector_store %{{.*}}, %[[V2PARTS]]
// V2: tpu.mxu_push
// V2: }
// V2-NEXT: scf.if %[[V2HASNEXT]] {
// V2: %[[V2REGION:.*]] = arith.muli %[[V2OTHER]], %c256
// V2-NEXT: %[[V2ROW:.*]] = arith.addi %[[V2REGION]], %c0
// V2-NEXT: tpu.mxu_load_weights %[[V2PARTS]][%[[V2ROW]], stride %c8] mxu 0
// V2-NEXT: }
// V2: scf.for
// V2-NOT: tpu.vector_store %{{.*}}, %[[V2PARTS]]
// V2: tpu.mxu_push
// V2: }
func.func @main(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>) -> tensor<512x512xf32> {
  %c = tpu.matmul_passes lhs(%a, %a, %a) rhs(%b, %b, %b) {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<rne>} : (tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x256xf32>, tensor<256x512xf32>, tensor<256x512xf32>, tensor<256x512xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}

// -----

// A split on the VPU, tile by tile, with the FLT_MAX guard on hi: where
// rounding a finite x gives inf, the truncated x is taken.
// CHECK-LABEL: func.func @main
// CHECK: tpu.dma_load
// CHECK: tpu.dma_wait sem 0 count 1
// CHECK: scf.for
// CHECK: %[[X:.*]] = tpu.vector_load
// CHECK: %[[R:.*]] = tpu.round_to_bf16 %[[X]] {rounding = #tpu.rounding<rne>}
// CHECK: %[[T:.*]] = tpu.round_to_bf16 %[[X]] {rounding = #tpu.rounding<trunc>}
// CHECK: %[[RR:.*]] = arith.subf %[[R]], %[[R]]
// CHECK: %[[RINF:.*]] = arith.cmpf une, %[[RR]], %[[RR]]
// CHECK: %[[G:.*]] = arith.select %[[RINF]], %[[T]], %[[R]]
// CHECK: %[[XX:.*]] = arith.subf %[[X]], %[[X]]
// CHECK: %[[XINF:.*]] = arith.cmpf une, %[[XX]], %[[XX]]
// CHECK: %[[HI:.*]] = arith.select %[[XINF]], %[[R]], %[[G]]
// CHECK: %[[REST:.*]] = arith.subf %[[X]], %[[HI]]
// CHECK: %[[MID:.*]] = tpu.round_to_bf16 %[[REST]]
// CHECK: %[[REST2:.*]] = arith.subf %[[REST]], %[[MID]]
// CHECK: %[[LO:.*]] = tpu.round_to_bf16 %[[REST2]]
// The parts are packed bf16: the 8 rows are the low half of a (16,128)
// tile, whose high half is the split of zeros (padding).
// CHECK: %[[HIP:.*]] = tpu.pack_bf16 %[[HI]], %{{.*}}
// CHECK: tpu.vector_store %[[HIP]]
// CHECK: %[[MIDP:.*]] = tpu.pack_bf16 %[[MID]], %{{.*}}
// CHECK: tpu.vector_store %[[MIDP]]
// CHECK: %[[LOP:.*]] = tpu.pack_bf16 %[[LO]], %{{.*}}
// CHECK: tpu.vector_store %[[LOP]]
// CHECK-COUNT-3: tpu.dma_store
// CHECK: tpu.dma_wait sem 1 count 3
func.func @main(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %hi, %mid, %lo = tpu.split %a {rounding = #tpu.rounding<rne>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<8x128xbf16>
  %c = tpu.matmul_passes lhs(%lo) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xbf16>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

// An elementwise op on the VPU: its body applied to whole vregs. A
// truncation to bf16 rounds, and the result is packed: the 8 rows are the
// low half of one (16,128) tile, its high half the body applied to zeros
// (padding). Padding the bf16 tensor's rows from 8 to 16 is then a view
// (one packed tile either way, its padding zero). An extension back
// unpacks, and so does the matmul, pushing each half into its own slot.
// CHECK-LABEL: func.func @main
// CHECK: %[[T:.*]] = memref.alloc() : memref<8x100xbf16, #packed, #tpu.memory_space<hbm>>
// CHECK: scf.for
// CHECK: tpu.dma_load %arg0
// CHECK: %[[X:.*]] = tpu.vector_load
// CHECK: %[[R:.*]] = tpu.round_to_bf16 %[[X]] {rounding = #tpu.rounding<rne>}
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00>
// CHECK: %[[RZ:.*]] = tpu.round_to_bf16 %[[ZERO]]
// CHECK: %[[PK:.*]] = tpu.pack_bf16 %[[R]], %[[RZ]]
// CHECK: tpu.vector_store %[[PK]]
// CHECK: tpu.dma_store %{{.*}} to %[[T]]
// CHECK: %[[P:.*]] = tpu.tiled_view %[[T]] : memref<8x100xbf16, #packed, #tpu.memory_space<hbm>> to memref<16x128xbf16, #packed, #tpu.memory_space<hbm>>
// CHECK: %[[E:.*]] = memref.alloc() : memref<8x100xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.dma_load %[[T]]
// CHECK: %[[W:.*]] = tpu.vector_load
// CHECK-NEXT: %[[LOW:.*]] = tpu.unpack_bf16 %[[W]] :
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[LOW]], %[[LOW]] : vector<8x128xf32>
// CHECK-NEXT: tpu.unpack_bf16 %[[W]] high
// CHECK: tpu.vector_store %[[SQ]]
// CHECK-NOT: tpu.vector_store
// CHECK: tpu.dma_store %{{.*}} to %[[E]]
// CHECK: %[[C:.*]] = memref.alloc() : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.dma_load %[[P]]
// CHECK: %[[L:.*]] = tpu.vector_load
// CHECK-NEXT: %[[L0:.*]] = tpu.unpack_bf16 %[[L]] :
// CHECK-NEXT: tpu.mxu_push %[[L0]] to mxu 0 slot
// CHECK-NEXT: %[[L1:.*]] = tpu.unpack_bf16 %[[L]] high
// CHECK: tpu.mxu_push %[[L1]] to mxu 0 slot
// Slicing the result back from 16 rows to 8 drops a row tile: a copy.
// CHECK: %[[S:.*]] = memref.alloc() : memref<8x100xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.dma_load %[[C]]
// CHECK: tpu.dma_store %{{.*}} to %[[S]]
func.func @main(%a: tensor<8x100xf32>, %b: tensor<128x128xf32>) -> (tensor<8x100xf32>, tensor<8x100xf32>) {
  %t = tpu.elementwise ins(%a : tensor<8x100xf32>) -> tensor<8x100xbf16> {
  ^bb0(%x: f32):
    %r = arith.truncf %x : f32 to bf16
    tpu.yield %r : bf16
  }
  %p = tpu.resize %t : tensor<8x100xbf16> -> tensor<16x128xbf16>
  %e = tpu.elementwise ins(%t : tensor<8x100xbf16>) -> tensor<8x100xf32> {
  ^bb0(%x: bf16):
    %w = arith.extf %x : bf16 to f32
    %m = arith.mulf %w, %w : f32
    tpu.yield %m : f32
  }
  %c = tpu.matmul_passes lhs(%p) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<16x128xbf16>, tensor<128x128xf32>) -> tensor<16x128xf32>
  %s = tpu.resize %c : tensor<16x128xf32> -> tensor<8x100xf32>
  return %e, %s : tensor<8x100xf32>, tensor<8x100xf32>
}

// -----

// A matrix-vector product: the vector (one row of lanes) becomes a column
// (one lane of rows) and the column result a vector again, 128 elements per
// 128 x 128 transpose; rows of the block no DMA fills are zeroed.
// CHECK-LABEL: func.func @main
// CHECK: %[[COL:.*]] = memref.alloc() : memref<300x1xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[IN:.*]] = memref.alloc() : memref<128x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<128x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for
// CHECK: tpu.vector_store %{{.*}}, %[[IN]]
// CHECK: scf.for
// CHECK: tpu.dma_load %arg1[%{{.*}}, stride %{{.*}}] to %[[IN]]
// CHECK: tpu.transpose_block %[[IN]][%{{.*}}] to %[[OUT]][%{{.*}}]
// CHECK: tpu.dma_store %[[OUT]][%{{.*}}] to %[[COL]]
// CHECK: memref.alloc() : memref<7xf32, #tiled1, #tpu.memory_space<hbm>>
// CHECK: tpu.transpose_block
func.func @main(%a: tensor<8x384xf32>, %x: tensor<300xf32>) -> tensor<7xf32> {
  %col = tpu.reshape %x : tensor<300xf32> -> tensor<300x1xf32>
  %padded = tpu.resize %col : tensor<300x1xf32> -> tensor<384x128xf32>
  %c = tpu.matmul_passes lhs(%a) rhs(%padded) {nan_fixed_terms = 0 : i64} : (tensor<8x384xf32>, tensor<384x128xf32>) -> tensor<8x128xf32>
  %s = tpu.resize %c : tensor<8x128xf32> -> tensor<7x1xf32>
  %y = tpu.reshape %s : tensor<7x1xf32> -> tensor<7xf32>
  return %y : tensor<7xf32>
}

// -----

// A row broadcast: the source's three tiles DMAed in, row 0 of each read
// into every sublane and stored twice: whole, and (for the last of the
// 7 rows) masked to sublanes 0-6 over zeros; then every row of tiles but
// the last of each of the 2 matrices gets the whole row, the last the
// masked one.
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<2x7x300xf32, #tiled{{[0-9]*}}, #tpu.memory_space<hbm>>
// CHECK: %[[ROW:.*]] = memref.alloc() : memref<24x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[LAST:.*]] = memref.alloc() : memref<24x128xf32, #tpu.memory_space<vmem>>
// CHECK: tpu.dma_load %arg0[%{{.*}}, stride %{{.*}}] to %[[ROW]][%{{.*}}] tiles %{{.*}} sem 0
// CHECK: scf.for
// CHECK: %[[R:.*]] = tpu.vector_load %[[ROW]][%{{.*}}] {sublane_stride = 0 : i64}
// CHECK: tpu.vector_store %{{.*}}, %[[LAST]]
// CHECK: tpu.vector_store %[[R]], %[[LAST]][%{{.*}}] {sublane_mask = 127 : i64}
// CHECK: tpu.vector_store %[[R]], %[[ROW]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2
// CHECK: tpu.dma_store %[[ROW]][%{{.*}}] to %[[OUT]]
// CHECK: tpu.dma_store %[[LAST]][%{{.*}}] to %[[OUT]]
func.func @main(%bias: tensor<300xf32>) -> tensor<2x7x300xf32> {
  %b = tpu.broadcast %bias dimensions = [0, 1] : tensor<300xf32> -> tensor<2x7x300xf32>
  return %b : tensor<2x7x300xf32>
}

// -----

// A batch of 3 (one chunk, one column group, one K tile): only the
// kernel's first group, whose offset batch + row0 + col0 is 0, loads its
// own tile; the last K tile of every group but the last (offset 2) loads
// the next batch's, into the other half: the batch's parity flips the
// halves (docs/Compiler.md, "Prefetch across chunks and batches").
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[BATCH:.*]] = %{{.*}} to %c3
// CHECK: %[[SUM:.*]] = arith.addi %[[BATCH]], %{{.*}} : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.addi %[[SUM]], %{{.*}} : index
// CHECK-NEXT: %[[OWN:.*]] = arith.cmpi eq, %[[OFFSET]], %c0
// CHECK: scf.if %[[OWN]] {
// CHECK: arith.muli %[[BATCH]]
// CHECK: tpu.dma_load %arg0
// CHECK: tpu.dma_load %arg1
// CHECK: } else {
// CHECK: %[[HAS_NEXT:.*]] = arith.cmpi slt, %[[OFFSET]], %c2{{.*}} : index
// CHECK: scf.if %[[HAS_NEXT]] {
// CHECK: %[[NEXT:.*]] = arith.addi %[[BATCH]], %c1{{.*}} : index
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NEXT]] : index
// CHECK: %[[PARITY:.*]] = arith.andi %{{.*}}, %c1 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[PARITY]], %c16{{.*}} : index
// CHECK: tpu.dma_load %arg0[%{{.*}}] to %{{.*}}[%[[ROW]]]
// CHECK: tpu.dma_load %arg1
// CHECK: tpu.dma_wait sem 0 count 2
func.func @main(%a: tensor<3x16x128xf32>, %b: tensor<3x128x128xf32>) -> tensor<3x16x128xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<3x16x128xf32>, tensor<3x128x128xf32>) -> tensor<3x16x128xf32>
  return %c : tensor<3x16x128xf32>
}

// -----

// A resident LHS in three chunks (128, 128 and 1 row blocks) of 16 K tiles and
// four column groups: a chunk's first group would be bound by its DMAs,
// so the chunk before loads the next chunk's LHS ahead (docs/Compiler.md,
// "The next chunk's LHS loaded ahead"). 11 spare slots past the 16 (VMEM
// for 27 tiles of 1024 rows): group g of the middle two loads the next
// chunk's tiles from 6 (g - 1), min(6 g, 6, 17 - 6 g) of them (6, then
// 5), in two of every three K tiles from its last (in a row, or every
// other one beside the group before's stores, they would keep the DMA
// engine behind: tiles 8, 9, 11, 12, 14, 15, then 9, 11, 12, 14, 15:
// after tile 15 - 3/2 x that many, the tiles where 16 - k is no multiple
// of 3, a multiply and a shift making (16 - k) / 3), tile
// min(6 g, 11) - (16 - k) + (16 - k) / 3; the last group
// tiles 11-14 in its last 4 (after tile 11), tile k - 1; the next chunk's
// first group loads tile 15 (after 14) itself, the kernel's first (offset
// 0) every tile. An odd chunk finds tiles 0-10 16 slots on. And the chunk's last
// group's results are stored during the next chunk's first group, whose
// group before is the chunk before's last (col0 12): its first result
// tile is 2036 before this group's (128 x 16 - 12), the group before in
// the chunk's 4; every group but the
// kernel's first stores the group before's, and only the kernel's last
// group (offset 256 + 12) stores its own.
// CHECK-LABEL: func.func @main
// CHECK: memref.alloc() : memref<27648x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %[[BATCH:.*]] = %{{.*}} to %c1
// CHECK: scf.for %[[ROW0:.*]] = %{{.*}} to %c257 step %c128
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %c16{{.*}} step %c4
// CHECK: %[[GROUP:.*]] = arith.shrui %[[COL0]], %c2
// CHECK: %[[GROUP_AHEAD:.*]] = arith.muli %[[GROUP]], %c6 : index
// CHECK: %[[SPARE_LEFT:.*]] = arith.subi %c17, %[[GROUP_AHEAD]] : index
// CHECK: %[[FIRST_AHEAD:.*]] = arith.minsi %[[GROUP_AHEAD]], %c6{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.minsi %[[FIRST_AHEAD]], %[[SPARE_LEFT]] : index
// CHECK: %[[HALF_TILES:.*]] = arith.shrui %[[TILES]], %c1{{.*}} : index
// CHECK-NEXT: %[[WINDOW:.*]] = arith.addi %[[TILES]], %[[HALF_TILES]] : index
// CHECK-NEXT: %[[FROM:.*]] = arith.subi %c15, %[[WINDOW]] : index
// CHECK: %[[MIDDLE_AFTER:.*]] = arith.minsi %[[FROM]], %c15{{.*}} : index
// CHECK: %[[IS_LAST:.*]] = arith.cmpi slt, %c15{{.*}}, %{{.*}} : index
// CHECK: %[[GROUP_AFTER:.*]] = arith.select %[[IS_LAST]], %c11, %[[MIDDLE_AFTER]] : index
// CHECK: %[[OFFSET:.*]] = arith.addi %[[BATCH]], %[[ROW0]] : index
// CHECK: %[[HAS_NEXT:.*]] = arith.cmpi slt, %[[OFFSET]], %c256{{.*}} : index
// CHECK: %[[AFTER:.*]] = arith.select %[[HAS_NEXT]], %[[GROUP_AFTER]], %c15 : index
// CHECK: %[[CHUNK:.*]] = arith.shrui %[[ROW0]], %c7{{.*}} : index
// CHECK: %[[BATCH_CHUNKS:.*]] = arith.muli %[[BATCH]], %c3{{.*}} : index
// CHECK: %[[SEQUENCE:.*]] = arith.addi %[[BATCH_CHUNKS]], %[[CHUNK]] : index
// CHECK: %[[PARITY:.*]] = arith.andi %[[SEQUENCE]], %c1 : index
// CHECK: %[[SPARE:.*]] = arith.muli %[[PARITY]], %c16384 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c16
// CHECK: %[[K_ROW:.*]] = arith.muli %[[K]], %c1024 : index
// CHECK: %[[K_SPARE:.*]] = arith.cmpi slt, %[[K]], %c11{{.*}} : index
// CHECK: %[[K_SHIFT:.*]] = arith.select %[[K_SPARE]], %[[SPARE]], %c0 : index
// CHECK: arith.addi %[[K_ROW]], %[[K_SHIFT]] : index
// CHECK: %[[NEXT_K:.*]] = arith.addi %[[K]], %c1{{.*}} : index
// CHECK: %[[OWN_OFFSET:.*]] = arith.addi %[[BATCH]], %[[ROW0]] : index
// CHECK: %[[LATER:.*]] = arith.cmpi slt, %c0, %[[OWN_OFFSET]] : index
// CHECK: %[[OWN_AFTER:.*]] = arith.select %[[LATER]], %c14, %c-1 : index
// CHECK: %[[OWN:.*]] = arith.cmpi slt, %[[OWN_AFTER]], %[[NEXT_K]] : index
// CHECK-NEXT: scf.if %[[OWN]] {
// CHECK: tpu.dma_load %arg0{{.*}} sem 3
// CHECK: %[[AHEAD:.*]] = arith.cmpi slt, %[[AFTER]], %[[K]] : index
// CHECK-NEXT: scf.if %[[AHEAD]] {
// CHECK-NEXT: %c16{{.*}} = arith.constant 16 : index
// CHECK-NEXT: %[[FROM_END:.*]] = arith.subi %c16{{.*}}, %[[K]] : index
// CHECK-NEXT: %c43691 = arith.constant 43691 : index
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[FROM_END]], %c43691 : index
// CHECK-NEXT: %c17{{.*}} = arith.constant 17 : index
// CHECK-NEXT: %[[THIRD:.*]] = arith.shrui %[[SCALED]], %c17{{.*}} : index
// CHECK-NEXT: %c3{{.*}} = arith.constant 3 : index
// CHECK-NEXT: %[[THREES:.*]] = arith.muli %[[THIRD]], %c3{{.*}} : index
// CHECK-NEXT: %[[REMAINDER:.*]] = arith.subi %[[FROM_END]], %[[THREES]] : index
// CHECK: %[[LAST_AHEAD:.*]] = arith.cmpi slt, %c15{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[LOADS_IF:.*]] = arith.select %[[LAST_AHEAD]], %c1, %[[REMAINDER]] : index
// CHECK-NEXT: %[[LOADS:.*]] = arith.cmpi ne, %[[LOADS_IF]], %c0 : index
// CHECK-NEXT: scf.if %[[LOADS]] {
// CHECK: %[[LAST_TILE:.*]] = arith.addi %[[K]], %c-1 : index
// CHECK: %[[GROUP_END:.*]] = arith.minsi %{{.*}}, %c11{{.*}} : index
// CHECK: %[[TILES_AFTER:.*]] = arith.subi %c16{{.*}}, %[[K]] : index
// CHECK: %[[TILE_SCALED:.*]] = arith.muli %[[TILES_AFTER]], %c43691{{.*}} : index
// CHECK: %[[TILE_THIRD:.*]] = arith.shrui %[[TILE_SCALED]], %c17{{.*}} : index
// CHECK: %[[BEFORE_END:.*]] = arith.subi %[[GROUP_END]], %{{.*}} : index
// CHECK-NEXT: %[[MIDDLE_TILE:.*]] = arith.addi %[[BEFORE_END]], %[[TILE_THIRD]] : index
// CHECK: %[[TILE:.*]] = arith.select %{{.*}}, %[[LAST_TILE]], %[[MIDDLE_TILE]] : index
// CHECK: %[[NEXT_ROW0:.*]] = arith.addi %[[ROW0]], %c128{{.*}} : index
// CHECK: %[[IN_BATCH:.*]] = arith.cmpi slt, %[[NEXT_ROW0]], %c257{{.*}} : index
// CHECK: %[[BATCH_AFTER:.*]] = arith.addi %[[BATCH]], %c1{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.select %[[IN_BATCH]], %[[NEXT_ROW0]], %c0 : index
// CHECK: %[[NEXT_BATCH:.*]] = arith.select %[[IN_BATCH]], %[[BATCH]], %[[BATCH_AFTER]] : index
// CHECK: %[[NEXT_CHUNK:.*]] = arith.shrui %[[ROW]], %c7{{.*}} : index
// CHECK: %[[NEXT_BATCH_CHUNKS:.*]] = arith.muli %[[NEXT_BATCH]], %c3{{.*}} : index
// CHECK: %[[NEXT_SEQUENCE:.*]] = arith.addi %[[NEXT_BATCH_CHUNKS]], %[[NEXT_CHUNK]] : index
// CHECK: %[[NEXT_PARITY:.*]] = arith.andi %[[NEXT_SEQUENCE]], %c1 : index
// CHECK: %[[NEXT_SPARE:.*]] = arith.muli %[[NEXT_PARITY]], %c16384{{.*}} : index
// CHECK: %[[BATCH_TILE:.*]] = arith.muli %[[NEXT_BATCH]], %c4112{{.*}} : index
// CHECK: %[[ROW_TILE:.*]] = arith.muli %[[ROW]], %c16{{.*}} : index
// CHECK: %[[CHUNK_TILE:.*]] = arith.addi %[[BATCH_TILE]], %[[ROW_TILE]] : index
// CHECK: %[[HBM_TILE:.*]] = arith.addi %[[CHUNK_TILE]], %[[TILE]] : index
// CHECK: %[[TILE_ROW:.*]] = arith.muli %[[TILE]], %c1024{{.*}} : index
// CHECK: %[[IN_SPARE:.*]] = arith.cmpi slt, %[[TILE]], %c11{{.*}} : index
// CHECK: %[[SHIFT:.*]] = arith.select %[[IN_SPARE]], %[[NEXT_SPARE]], %c0 : index
// CHECK: %[[VMEM_ROW:.*]] = arith.addi %[[TILE_ROW]], %[[SHIFT]] : index
// CHECK: tpu.dma_load %arg0[%[[HBM_TILE]], stride %c16{{.*}}] to %{{.*}}[%[[VMEM_ROW]]] tiles %{{.*}} sem 3
// CHECK: %[[STORES:.*]] = arith.cmpi slt, %[[K]], %c8{{.*}} : index
// CHECK-NEXT: scf.if %[[STORES]] {
// CHECK-NEXT: %[[IN_CHUNK:.*]] = arith.cmpi slt, %c0, %[[COL0]] : index
// CHECK-NEXT: %[[HAS_CHUNK_BEFORE:.*]] = arith.cmpi slt, %c0, %[[ROW0]] : index
// CHECK: %[[BACK:.*]] = arith.select %[[IN_CHUNK]], %c4{{.*}}, %c2036 : index
// CHECK: %[[ROW_TILE0:.*]] = arith.muli %[[ROW0]], %c16{{.*}} : index
// CHECK: %[[GROUP_ROW:.*]] = arith.addi %{{.*}}, %[[ROW_TILE0]] : index
// CHECK: %[[GROUP_TILE:.*]] = arith.addi %[[GROUP_ROW]], %[[COL0]] : index
// CHECK: %[[PREVIOUS_TILE:.*]] = arith.subi %[[GROUP_TILE]], %[[BACK]] : index
// CHECK: %[[ROW_BEFORE:.*]] = arith.subi %[[ROW0]], %c128{{.*}} : index
// CHECK: %[[CHUNK_ROW0:.*]] = arith.select %[[HAS_CHUNK_BEFORE]], %[[ROW_BEFORE]], %c256{{.*}} : index
// CHECK: %[[CHUNK_LEFT:.*]] = arith.subi %c257{{.*}}, %[[CHUNK_ROW0]] : index
// CHECK: %[[CHUNK_BLOCKS:.*]] = arith.minsi %[[CHUNK_LEFT]], %c128{{.*}} : index
// CHECK: arith.select %[[IN_CHUNK]], %{{.*}}, %[[CHUNK_BLOCKS]] : index
// CHECK: %[[PIECE_ROW:.*]] = arith.muli %{{.*}}, %c16{{.*}} : index
// CHECK-NEXT: %[[PIECE_TILE:.*]] = arith.addi %[[PIECE_ROW]], %{{.*}} : index
// CHECK-NEXT: %[[OUT_TILE:.*]] = arith.addi %[[PREVIOUS_TILE]], %[[PIECE_TILE]] : index
// CHECK: tpu.dma_store %{{.*}} to %{{.*}}[%[[OUT_TILE]], stride
// CHECK: %[[KERNEL_LAST:.*]] = arith.cmpi slt, %c267, %{{.*}} : index
// CHECK: scf.if %[[KERNEL_LAST]] {
// CHECK-NEXT: arith.select
// CHECK: tpu.dma_store
func.func @main(%a: tensor<2056x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2056x2048xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<2056x2048xf32>, tensor<2048x2048xf32>) -> tensor<2056x2048xf32>
  return %c : tensor<2056x2048xf32>
}

// -----

// A new leading dimension: each of the 2 source matrices (the kept second
// coordinate) is DMAed into VMEM once, its 2 rows of 2 tiles one chunk,
// then out to its 3 copies (the new first coordinate), and the three
// stores are waited for once.
// CHECK-LABEL: func.func @main
// CHECK: %[[STAGING:.*]] = memref.alloc() : memref<32x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2
// CHECK: scf.for
// CHECK: tpu.dma_load %arg0[%{{.*}}, stride %c1] to %[[STAGING]][%c0] tiles %[[TILES:.*]] sem 0
// CHECK-NEXT: tpu.dma_wait sem 0 count 1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3
// CHECK: tpu.dma_store %[[STAGING]][%c0] to %{{.*}} tiles %[[TILES]] sem 1
// CHECK-NEXT: }
// CHECK-NEXT: tpu.dma_wait sem 1 count 3
func.func @main(%m: tensor<2x9x130xf32>) -> tensor<3x2x9x130xf32> {
  %b = tpu.broadcast %m dimensions = [0] : tensor<2x9x130xf32> -> tensor<3x2x9x130xf32>
  return %b : tensor<3x2x9x130xf32>
}

// -----

// A row max: per row of 3 tiles, the accumulator starts at -inf in VMEM,
// takes two whole tiles in a loop and the last one with its 300 - 256 = 44
// valid lanes (the rest -inf), then the lanes are reduced, init combined,
// lane 0 kept (a column) and, for the last row of tiles (7 rows), only
// sublanes 0-6 stored over zeros.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<8x128xf32>
// CHECK: tpu.dma_load %arg0
// CHECK: tpu.vector_store %[[NINF]], %[[ACC:.*]][%{{.*}}]
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2
// CHECK: arith.maximumf
// CHECK: %[[MASK:.*]] = tpu.lane_mask %c44 : vector<8x128xi1>
// CHECK: arith.select %[[MASK]], %{{.*}}, %[[NINF]]
// CHECK: %[[LANES:.*]] = tpu.lane_reduce %{{.*}} {kind = #tpu.reduction<max>}
// CHECK: arith.maximumf %{{.*}}, %[[LANES]]
// CHECK: tpu.lane_mask %c1
// CHECK: tpu.vector_store %{{.*}} {sublane_mask = 127 : i64}
// CHECK: tpu.dma_store
func.func @main(%x: tensor<7x300xf32>) -> tensor<7x1xf32> {
  %m = tpu.reduce %x kind = <max> init = 0.5 : tensor<7x300xf32> -> tensor<7x1xf32>
  return %m : tensor<7x1xf32>
}

// -----

// A chunk of rows of tiles per DMA. The row sum of 300 x 129 (38 rows of
// 2 tiles, the last partial): the 37 whole rows in one DMA, a result tile
// each into VMEM, one DMA out; then the last row alone, its result stored
// to sublanes 0-3 over zeros. Spreading a 300-row column across 129 lanes:
// the column's 38 tiles in one DMA, the 76 tiles of the result out in one.
// CHECK-LABEL: func.func @main
// CHECK: %[[ROWS:.*]] = memref.alloc() : memref<592x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[RESULTS:.*]] = memref.alloc() : memref<296x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c37 step %c37
// CHECK: tpu.dma_load %arg0[%{{.*}}] to %[[ROWS]][%c0] tiles %{{.*}} sem 0
// CHECK-NEXT: tpu.dma_wait sem 0 count 1
// CHECK: scf.for %{{.*}} = %c0 to %[[N:.*]] step
// CHECK: tpu.lane_reduce
// CHECK: tpu.vector_store %{{.*}}, %[[RESULTS]]
// CHECK: }
// CHECK-NEXT: tpu.dma_store %[[RESULTS]][%c0] to %{{.*}} tiles %[[N]] sem 1
// CHECK-NEXT: tpu.dma_wait sem 1 count 1
// CHECK: tpu.dma_load %arg0
// CHECK: tpu.lane_reduce
// CHECK: tpu.vector_store %{{.*}}, %[[RESULTS]][%{{.*}}] {sublane_mask = 15 : i64}
// CHECK: tpu.dma_store %[[RESULTS]][%c0] to %{{.*}} tiles %c1 sem 1
// CHECK: %[[COLUMN:.*]] = memref.alloc() : memref<304x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[SPREAD:.*]] = memref.alloc() : memref<608x128xf32, #tpu.memory_space<vmem>>
// CHECK: tpu.dma_load %arg1[%{{.*}}] to %[[COLUMN]][%{{.*}}] tiles %c38
// CHECK: tpu.lane_broadcast
// CHECK: tpu.dma_store %[[SPREAD]]
// CHECK-NOT: tpu.dma_store
// CHECK: return
func.func @main(%x: tensor<300x129xf32>, %c: tensor<300x1xf32>) -> (tensor<300x1xf32>, tensor<300x129xf32>) {
  %m = tpu.reduce %x kind = <sum> init = 0.0 : tensor<300x129xf32> -> tensor<300x1xf32>
  %w = tpu.broadcast_lanes %c : tensor<300x1xf32> -> tensor<300x129xf32>
  return %m, %w : tensor<300x1xf32>, tensor<300x129xf32>
}

// -----

// A column across 300 lanes: each column tile spread (v.lbcast) into the
// three tiles of the row, the last with its 44 lanes kept and zeros after.
// CHECK-LABEL: func.func @main
// CHECK: tpu.dma_load %arg0
// CHECK: %[[SPREAD:.*]] = tpu.lane_broadcast
// CHECK: scf.for
// CHECK: tpu.vector_store %[[SPREAD]]
// CHECK: tpu.lane_mask %c44
// CHECK: tpu.dma_store
func.func @main(%c: tensor<7x1xf32>) -> tensor<7x300xf32> {
  %w = tpu.broadcast_lanes %c : tensor<7x1xf32> -> tensor<7x300xf32>
  return %w : tensor<7x300xf32>
}

// -----

// A transpose of 130 x 300: 2 row blocks (17 row tiles: 16, then 1 with
// the other 15 rows of the block zeroed) by 3 column blocks; each block in
// strided by the 3 column tiles of a source row, out strided by the 2 of
// a result row.
// CHECK-LABEL: func.func @main
// CHECK: %[[IN:.*]] = memref.alloc() : memref<128x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<128x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3
// CHECK: tpu.vector_store %{{.*}}, %[[IN]]
// CHECK: tpu.dma_load %arg0[%{{.*}}, stride %c3{{.*}}] to %[[IN]]
// CHECK: tpu.transpose_block %[[IN]][%{{.*}}] to %[[OUT]][%{{.*}}]
// CHECK: tpu.dma_store %[[OUT]][%{{.*}}] to %{{.*}}[%{{.*}}, stride %c2{{.*}}]
func.func @main(%a: tensor<130x300xf32>) -> tensor<300x130xf32> {
  %t = tpu.transpose %a : tensor<130x300xf32> -> tensor<300x130xf32>
  return %t : tensor<300x130xf32>
}

// -----

// Windows with the taps leading, of a 2 x 9 x 11 x 130 image (2 channel
// tiles, 2 row tiles): the slab of each channel tile is the pad value
// (-inf) in rows 0..8 and 24..32 around the image row DMAed to row 8,
// strided by the 2 channel tiles; the pad-value slabs (the second with
// its padding lanes zero) are at rows 64 and 96. Only an image row in the
// image is DMAed, and its padding columns (rows 3.. of its last tile) are
// the pad value again; each output tile of window column kw is one v.ld
// with stride 2 from slab row 6 + 2 kw (the left padding of 2 is 8 - 2).
// CHECK-LABEL: func.func @main
// CHECK: %[[SLABS:.*]] = memref.alloc() : memref<128x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[NEG:.*]] = arith.constant dense<0xFF800000>
// CHECK: %[[MASK:.*]] = tpu.lane_mask %c2
// CHECK: %[[PARTIAL:.*]] = arith.select %[[MASK]], %[[NEG]]
// CHECK: %[[FILL:.*]] = arith.addi %c64, %{{.*}} : index
// CHECK: tpu.vector_store %[[NEG]], %[[SLABS]][%[[FILL]]]
// CHECK: %[[PFILL:.*]] = arith.addi %c96, %{{.*}} : index
// CHECK: tpu.vector_store %[[PARTIAL]], %[[SLABS]][%[[PFILL]]]
// CHECK: %[[IN:.*]] = arith.cmpi slt, %c0, %{{.*}} : index
// CHECK: scf.if %[[IN]] {
// CHECK: tpu.dma_load %arg0[%{{.*}}, stride %c2{{.*}}] to %[[SLABS]][%{{.*}}] tiles %c2
// CHECK: tpu.dma_wait sem 0 count 2
// CHECK: tpu.vector_store %{{.*}}, %[[SLABS]][%{{.*}}] {sublane_mask = 7 : i64}
// CHECK: }
// CHECK: arith.select %[[IN]], %{{.*}}, %c64
// CHECK: tpu.vector_load %[[SLABS]][%{{.*}}] {sublane_stride = 2 : i64}
// CHECK: tpu.vector_store %{{.*}} {sublane_mask = 31 : i64}
// CHECK: arith.select %[[IN]], %{{.*}}, %c96
// CHECK: tpu.dma_store
// CHECK: tpu.dma_wait sem 1 count 3
func.func @main(%x: tensor<2x9x11x130xf32>) -> tensor<2x3x2x5x5x130xf32> {
  %t = tpu.windows %x {window = array<i64: 2, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>, pad_value = 0xFF800000 : f32} : tensor<2x9x11x130xf32> -> tensor<2x3x2x5x5x130xf32>
  return %t : tensor<2x3x2x5x5x130xf32>
}

// -----

// Windows with the taps in lanes and no padding: no row can be outside
// the image (no pad-value slabs, no test), and each output column tile's
// taps of one window row go out as one run of 3 taps x 1 channel tile.
// CHECK-LABEL: func.func @main
// CHECK-NOT: scf.if
// CHECK: tpu.vector_load {{.*}} : memref<{{.*}}>, vector<8x128xf32>
// CHECK: tpu.dma_store %{{.*}} tiles %c3{{.*}} sem 1
// CHECK: tpu.dma_wait sem 1 count 2
func.func @main(%x: tensor<1x9x18x128xf32>) -> tensor<1x7x16x1152xf32> {
  %t = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : tensor<1x9x18x128xf32> -> tensor<1x7x16x1152xf32>
  return %t : tensor<1x7x16x1152xf32>
}

// -----

// A matmul by a shared rhs: the 2 x 3 batches' 8-row tiles are one matrix
// of 6 row blocks, all in the result slots at once; no batch loop.
// CHECK-LABEL: func.func @main
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1{{.*}} step %c1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c6{{.*}} step %c6
func.func @main(%a: tensor<2x3x8x128xf32>, %b: tensor<128x128xf32>) -> tensor<2x3x8x128xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<2x3x8x128xf32>, tensor<128x128xf32>) -> tensor<2x3x8x128xf32>
  return %c : tensor<2x3x8x128xf32>
}

// -----

// An epilogue: its input's tiles are DMAed with the accumulator's (one
// wait for both), and its body runs on each popped tile before the store.
// CHECK-LABEL: func.func @main
// CHECK: tpu.dma_load %arg2{{.*}} sem 2
// CHECK: tpu.dma_load %arg3{{.*}} sem 2
// CHECK: tpu.dma_wait sem 2 count 2
// CHECK: %[[POP:.*]] = tpu.mxu_pop
// CHECK: %[[SUM:.*]] = arith.addf %[[POP]], %{{.*}} : vector<8x128xf32>
// CHECK: %[[BIAS:.*]] = tpu.vector_load
// CHECK: %[[T:.*]] = arith.addf %[[SUM]], %[[BIAS]] : vector<8x128xf32>
// CHECK: %[[R:.*]] = arith.maximumf %[[T]], %{{.*}} : vector<8x128xf32>
// CHECK: tpu.vector_store %[[R]]
func.func @main(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %acc: tensor<8x128xf32>, %bias: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %r = tpu.matmul_passes lhs(%a) rhs(%b) acc(%acc) epilogue(%bias) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%s: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %t = arith.addf %s, %y : f32
    %u = arith.maximumf %t, %zero : f32
    tpu.yield %u : f32
  }
  return %r : tensor<8x128xf32>
}

// -----

// A reduction's prologue runs on each tile as it is loaded, before the
// last tile's padding lanes become the identity.
// CHECK-LABEL: func.func @main
// CHECK: scf.for
// CHECK: %[[X:.*]] = tpu.vector_load
// CHECK: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : vector<8x128xf32>
// CHECK: arith.addf %{{.*}}, %[[SQ]] : vector<8x128xf32>
// CHECK: %[[Y:.*]] = tpu.vector_load
// CHECK: %[[SQ2:.*]] = arith.mulf %[[Y]], %[[Y]] : vector<8x128xf32>
// CHECK: %[[MASK:.*]] = tpu.lane_mask
// CHECK: arith.select %[[MASK]], %[[SQ2]]
func.func @main(%x: tensor<7x300xf32>) -> tensor<7x1xf32> {
  %s = tpu.reduce %x kind = <sum> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32> {
  ^bb0(%e: f32):
    %sq = arith.mulf %e, %e : f32
    tpu.yield %sq : f32
  }
  return %s : tensor<7x1xf32>
}

// -----

// A bias row in the epilogue: one tile per column block, read into every
// sublane (v.ld with stride 0) for each row block.
// CHECK-LABEL: func.func @main
// CHECK: tpu.dma_load %arg2[%{{.*}}, stride %c1{{.*}}] to %{{.*}} tiles %c1{{.*}} sem 2
// CHECK: tpu.dma_wait sem 2 count 1
// CHECK: %[[POP:.*]] = tpu.mxu_pop
// CHECK: %[[BIAS:.*]] = tpu.vector_load %{{.*}} {sublane_stride = 0 : i64}
// CHECK: arith.addf %[[POP]], %[[BIAS]] : vector<8x128xf32>
func.func @main(%a: tensor<16x128xf32>, %b: tensor<128x256xf32>, %bias: tensor<200xf32>) -> tensor<16x256xf32> {
  %r = tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%bias) {nan_fixed_terms = 0 : i64} : (tensor<16x128xf32>, tensor<128x256xf32>, tensor<200xf32>) -> tensor<16x256xf32> {
  ^bb0(%s: f32, %y: f32):
    %t = arith.addf %s, %y : f32
    tpu.yield %t : f32
  }
  return %r : tensor<16x256xf32>
}

// -----

// Leading dimensions permuted: result matrix (i, j) of 3 x 2 is source
// matrix (j, i) of 2 x 3, number i + 3 j: its 3 tiles DMAed through VMEM.
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c3
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c2
// CHECK: %[[S:.*]] = arith.muli %[[J]], %c3
// CHECK: %[[SRC:.*]] = arith.addi %{{.*}}, %[[S]]
// CHECK: tpu.dma_load %arg0
// CHECK: tpu.dma_store
func.func @main(%x: tensor<2x3x7x300xf32>) -> tensor<3x2x7x300xf32> {
  %p = tpu.permute_matrices %x permutation = [1, 0] : tensor<2x3x7x300xf32> -> tensor<3x2x7x300xf32>
  return %p : tensor<3x2x7x300xf32>
}

// -----

// Rows moved: result row (r, a) of 7 x 3 is source row (a, r) of 3 x 7.
// Per source row tile and column tile (3), that row tile of the 3 source
// matrices (3 tiles apart) into VMEM; for each row rs of the 7, the result
// tile's 3 rows are staged rows rs, rs + 8 and rs + 16 (a partial tile:
// row by row after zeros; a whole one would be one v.ld of stride 8), out
// to result matrix rs.
// CHECK-LABEL: func.func @main
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3
// CHECK: tpu.dma_load %arg0[%{{.*}}, stride %c3{{(_[0-9]+)?}}] to %{{.*}}[%c0] tiles %c3{{(_[0-9]+)?}} sem 0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8
// CHECK: scf.if
// CHECK: tpu.vector_load %{{.*}} {sublane_stride = 8 : i64}
// CHECK: tpu.vector_store %cst
// CHECK: {sublane_stride = 0 : i64}
// CHECK: {sublane_mask = 1 : i64}
// CHECK: {sublane_mask = 2 : i64}
// CHECK: {sublane_mask = 4 : i64}
// CHECK: tpu.dma_store
func.func @main(%x: tensor<3x7x300xf32>) -> tensor<7x3x300xf32> {
  %p = tpu.permute_rows %x permutation = [1, 0] : tensor<3x7x300xf32> -> tensor<7x3x300xf32>
  return %p : tensor<7x3x300xf32>
}

// -----

// An extract of rows 3..7 of matrices 1 and 2 (of 9 rows: 2 row tiles):
// per matrix and column tile, the source's 1 row tile from row 0 (the box
// starts at row 3 of tile 0) into VMEM, the result's tile zeroed, one v.ld
// at row 3 and a v.st of 5 rows (mask 31), the tile out.
// CHECK-LABEL: func.func @main
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tpu.dma_load %arg0{{.*}} tiles %c1{{.*}} sem 0
// CHECK: tpu.dma_wait sem 0 count 1
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %c3{{.*}} : index
// CHECK: tpu.vector_load %{{.*}}[%[[ROW]]]
// CHECK: tpu.vector_store %{{.*}} {sublane_mask = 31 : i64}
// CHECK: tpu.dma_store
func.func @main(%x: tensor<4x9x300xf32>) -> tensor<2x5x300xf32> {
  %s = tpu.insert_rows %x extract offsets = [1, 3] : tensor<4x9x300xf32> -> tensor<2x5x300xf32>
  return %s : tensor<2x5x300xf32>
}

// -----

// With more K tiles (9) than result pieces (8), K tile k issues piece k of
// the previous group's results: one DMA, no loop. The stores go out this
// way when all at once they would stall the next group's loads (here a
// group's 2 MiB of results take 3,670 cycles of DMA, more than the two
// prefetched K tiles spare), as a chunk's last group's do not.
// One chunk: its last group, the kernel's, is the only one that would
// have an epilogue, and has none: its last K tile pops its results 32 row
// blocks behind its pushes and stores them 8, then 16 row blocks at a time
// (storesInLastTile; a test below has the details), from the two MXUs with
// a column block (6 = 4 + 2): 1 + 88 / 16 rounded up and one for the last
// 32 blocks (96 to 128), 16 DMAs for the kernel's last wait.
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %{{.*}} = %c96 to %c128
// CHECK: tpu.dma_store {{.*}} tiles %c32 sem 1
// CHECK: tpu.dma_store {{.*}} tiles %c32 sem 1
// CHECK-NOT: tpu.dma_store
// CHECK: %[[LATERGROUP:.*]] = arith.cmpi slt, %c0{{.*}}, %[[COL0]]
// CHECK-NEXT: scf.if %[[LATERGROUP]] {
// CHECK: %[[SOME:.*]] = arith.cmpi slt, %[[K]], %c8
// CHECK-NEXT: scf.if %[[SOME]] {
// CHECK-NOT: scf.for
// CHECK: tpu.dma_store {{.*}} sem 1
// CHECK-NEXT: }
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.dma_wait sem 1 count 16
func.func @main(%a: tensor<1024x1152xf32>, %b: tensor<1152x768xf32>) -> tensor<1024x768xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1024x1152xf32>, tensor<1152x768xf32>) -> tensor<1024x768xf32>
  return %c : tensor<1024x768xf32>
}

// -----

// With fewer K tiles (7) than pieces (8), the last tile issues the rest.
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[LATERGROUP:.*]] = arith.cmpi slt, %c0{{.*}}, %[[COL0]]
// CHECK-NEXT: scf.if %[[LATERGROUP]] {
// CHECK: %[[SOME:.*]] = arith.cmpi slt, %[[K]], %c8
// CHECK-NEXT: scf.if %[[SOME]] {
// CHECK: %[[LASTK:.*]] = arith.cmpi slt, %c5{{.*}}, %[[K]]
// CHECK: %[[END:.*]] = arith.select %[[LASTK]]
// CHECK: scf.for %{{.*}} = %[[K]] to %[[END]] step %c1
// CHECK: tpu.dma_store {{.*}} sem 1
// The last tile's pieces are still out when the K loop ends, so the
// kernel's last group pops its results in an epilogue (no
// storesInLastTile) and stores each MXU's block as it is popped: the
// block and an empty DMA. (5 column blocks: the last group starts past
// block 4 - 4, as %c4 says.)
// CHECK: tpu.dma_wait sem 1 count 8
// CHECK: %[[LASTGROUP:.*]] = arith.cmpi slt, %c4{{.*}}, %{{.*}} : index
// CHECK: tpu.mxu_pop mxu 0 slot
// CHECK: scf.if %[[LASTGROUP]] {
// CHECK: tpu.dma_store {{.*}} tiles %{{.*}} sem 1
// CHECK: tpu.dma_store {{.*}} tiles %c0 sem 1
// CHECK-NOT: tpu.dma_store
// CHECK: tpu.mxu_pop mxu 1 slot
// CHECK: tpu.dma_wait sem 1 count 8
func.func @main(%a: tensor<1024x896xf32>, %b: tensor<896x640xf32>) -> tensor<1024x640xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1024x896xf32>, tensor<896x640xf32>) -> tensor<1024x640xf32>
  return %c : tensor<1024x640xf32>
}

// -----

// With 4 K tiles, the last would issue five pieces, which would stall its
// loads more than half as long as the stores at once stall the next
// group's: each group stores its own results, one DMA per MXU, none in
// the K loop.
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: tpu.dma_store
// CHECK: tpu.mxu_push
// CHECK: tpu.dma_wait sem 1 count 4
// CHECK-COUNT-4: tpu.dma_store {{.*}} sem 1
// CHECK-NOT: tpu.dma_store
// CHECK: tpu.dma_wait sem 1 count 4
func.func @main(%a: tensor<1024x512xf32>, %b: tensor<512x640xf32>) -> tensor<1024x640xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1024x512xf32>, tensor<512x640xf32>) -> tensor<1024x640xf32>
  return %c : tensor<1024x640xf32>
}

// -----

// An RHS shorter than K (200 rows of 256, as tpu-fuse leaves it): the last
// K tile loads the 9 row tiles it has, not 16, and once they are in, the 7
// it lacks are zeroed in VMEM for each MXU with a column block, before the
// latch reads them.
// CHECK-LABEL: func.func @main
// CHECK-SAME: memref<200x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[RHS:.*]] = memref.alloc() : memref<256x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c2{{(_[0-9]+)?}} step
// CHECK: %[[NOTLAST:.*]] = arith.cmpi slt, %{{.*}}, %c1{{(_[0-9]+)?}}
// CHECK: arith.select %[[NOTLAST]], %c16{{(_[0-9]+)?}}, %c9
// CHECK: tpu.dma_wait sem 0 count 2
// CHECK: %[[LAST:.*]] = arith.cmpi slt, %c0{{(_[0-9]+)?}}, %[[K]]
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %c72
// CHECK-NEXT: tpu.vector_store %{{.*}}, %[[RHS]][%[[ROW]]]
// CHECK-COUNT-6: tpu.vector_store %{{.*}}, %[[RHS]]
// CHECK-NOT: tpu.vector_store
// CHECK: tpu.mxu_load_weights %[[RHS]]
func.func @main(%a: tensor<8x256xf32>, %b: tensor<200x128xf32>) -> tensor<8x128xf32> {
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x256xf32>, tensor<200x128xf32>) -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

// A resident LHS of 32 K tiles fits 123 row blocks of VMEM on v2, not
// 128: halving would leave chunks of 64, three of them for 136 blocks,
// each reading the weights again. The chunk is the largest multiple of 8
// that fits, 120 (30,720 VMEM rows: 120 blocks x 8 rows x 32 K tiles), in
// two chunks.
// V2-LABEL: func.func @main(%arg0: memref<1088x4096xf32
// V2: memref.alloc() : memref<30720x128xf32, #tpu.memory_space<vmem>>
// V2: scf.for %{{.*}} = %{{.*}} to %c136 step %c120 {
// V2: tpu.dma_load {{.*}} sem 3
func.func @main(%a: tensor<1088x4096xf32>, %b: tensor<4096x256xf32>) -> tensor<1088x256xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1088x4096xf32>, tensor<4096x256xf32>) -> tensor<1088x256xf32>
  return %c : tensor<1088x256xf32>
}

// -----

// 4096^3 on v4: streamed, chunks of 128 row blocks would read the LHS once
// per column group, 8 times, 768 MiB in all with the weights 4 times, more
// than the MXUs' time at the core's bandwidth. The resident chunk is 104
// blocks (26,624 VMEM rows: 104 x 8 rows x 32 K tiles), in five chunks,
// which read the LHS once and the weights 5 times (384 MiB), and the cost
// model (docs/Compiler.md, "Tiling and memory") takes it.
// CHECK-LABEL: func.func @main(%arg0: memref<4096x4096xf32
// CHECK: memref.alloc() : memref<26624x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c512 step %c104 {
// CHECK: tpu.dma_load {{.*}} sem 3
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// Column groups that divide the blocks and chunks that divide the rows
// (2048 x 256 x 1024 on v4: two groups of 4 blocks, two chunks of 128), as
// tpu-compile folds them: every weight DMA moves a constant 16 tiles (no
// select on whether its MXU has a block), and the push loop's bounds are
// the LHS tile's first row plus constants (no arithmetic on the chunk's
// row blocks in a K tile's head; the loop is split where it stages the
// next tile's weights).
// FOLDED-LABEL: func.func @main(%arg0: memref<2048x256xf32
// FOLDED: scf.for %[[COL0:.*]] = %c0 to %c8 step %c4 {
// FOLDED: tpu.dma_load %arg1[%[[COL0]], stride %c8] to %{{.*}}[%c0] tiles %c16 sem 0
// FOLDED-NEXT: %[[COL1:.*]] = arith.addi %[[COL0]], %c1
// FOLDED-NEXT: tpu.dma_load %arg1[%[[COL1]], stride %c8] to %{{.*}}[%c128] tiles %c16 sem 0
// FOLDED: %[[SPLIT:.*]] = arith.addi %[[ROW0:.*]], %c896
// FOLDED: scf.for %{{.*}} = %[[ROW0]] to %[[SPLIT]] step %c64 {
// FOLDED: tpu.mxu_push
// FOLDED: %[[END:.*]] = arith.addi %[[ROW0]], %c1024{{(_[0-9]+)?}}
// FOLDED-NEXT: scf.for %{{.*}} = %[[SPLIT]] to %[[END]] step %c64 {
// No loop for left-over blocks: the chunk is whole iterations.
// FOLDED-NOT: scf.for %{{.*}} = %[[END]] to
func.func @main(%a: tensor<2048x256xf32>, %b: tensor<256x1024xf32>) -> tensor<2048x1024xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<2048x256xf32>, tensor<256x1024xf32>) -> tensor<2048x1024xf32>
  return %c : tensor<2048x1024xf32>
}

// -----

// 1024 x 2048 x 1024 on v4: two column groups, 16 K tiles, one chunk of
// 128 row blocks (1024 VMEM rows an MXU's staging). The first group's results
// are popped in the second group's first K tile (popsInNextGroup): that
// tile waits for the stores of the group two back (unless the group before
// is the kernel's first), then each block's slot is popped on every MXU and
// staged at the block's row of that MXU's part of the buffer, just before
// the push overwrites it; the loop's tail pops too. The chunk's first
// group's tile 0 pops nothing.
// CHECK-LABEL: func.func @main(%arg0: memref<1024x2048xf32
// CHECK: %[[RHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4096x128xf32, #tpu.memory_space<vmem>>
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4 {
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[COL0]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[FIRSTK:.*]] = arith.cmpi eq, %[[K]]
// Tile 0 waits for its loads and stages its weights in the chunk's first
// group only.
// CHECK: tpu.dma_wait sem 3 count 1
// CHECK-NEXT: }
// CHECK-NEXT: tpu.dma_wait sem 0 count 4
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[FIRSTK]] {
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: tpu.mxu_load_weights
// CHECK: %[[LATER:.*]] = arith.cmpi slt, %c0, %[[COL0]]
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK: %[[PREVIOUS:.*]] = arith.subi %[[COL0]], %c4
// CHECK: %[[OFFSET0:.*]] = arith.addi %{{.*}}, %[[PREVIOUS]]
// CHECK-NEXT: %[[STORED:.*]] = arith.cmpi slt, %c0, %[[OFFSET0]]
// CHECK-NEXT: scf.if %[[STORED]] {
// CHECK-NEXT: tpu.dma_wait sem 1 count 8
// CHECK: scf.for %[[PROW:.*]] = %[[PROW0:.*]] to %{{.*}} step %c64{{(_[0-9]+)?}} {
// CHECK-NEXT: %[[POFFSET:.*]] = arith.subi %[[PROW]], %[[PROW0]]
// CHECK-COUNT-8: tpu.vector_load
// CHECK: %[[PBLOCK:.*]] = arith.shrui %[[POFFSET]], %c3
// CHECK: %[[P0:.*]] = tpu.mxu_pop mxu 0 slot %[[PBLOCK]]
// CHECK-NEXT: tpu.vector_store %[[P0]], %[[OUT]][%[[POFFSET]]]
// CHECK: %[[P1ROW:.*]] = arith.addi %[[POFFSET]], %c1024
// CHECK-NEXT: %[[P1:.*]] = tpu.mxu_pop mxu 1 slot %[[PBLOCK]]
// CHECK-NEXT: tpu.vector_store %[[P1]], %[[OUT]][%[[P1ROW]]]
// CHECK: tpu.mxu_pop mxu 3 slot %[[PBLOCK]]
// CHECK-NEXT: tpu.vector_store
// CHECK-NEXT: tpu.mxu_push %{{.*}} to mxu 0 slot %[[PBLOCK]] :
// CHECK: tpu.mxu_push %{{.*}} to mxu 3 slot %[[PBLOCK]] :
// CHECK: %[[PBLOCK2:.*]] = arith.addi %[[PBLOCK]], %c1
// CHECK: tpu.mxu_pop mxu 0 slot %[[PBLOCK2]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8{{(_[0-9]+)?}} {
// CHECK: tpu.mxu_pop mxu 3
// CHECK: tpu.mxu_push
// CHECK: } else {
// CHECK-NOT: tpu.mxu_pop
// Two iterations before the pushes end, the group's last tile waits for
// the next group's tile 0 (when there is one in the chunk: col0 + 4 < 8)
// and stages its first weights, which shift in while the last pushes
// stream (stagesAcrossGroups: 112 row blocks of pushes, 896 cycles, come
// before that point, longer than those loads take). The next group's
// tile 0 then neither waits nor stages (above: only the chunk's first
// group does).
// CHECK: tpu.dma_wait sem 0 count 4
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.mxu_load_weights %[[RHS]]{{.*}} mxu 3
// CHECK-NEXT: } else {
// CHECK-NEXT: %c4{{.*}} = arith.constant 4
// CHECK-NEXT: %[[NEXTCOL0:.*]] = arith.addi %[[COL0]], %c4
// CHECK-NEXT: %[[INCHUNK:.*]] = arith.cmpi slt, %[[NEXTCOL0]], %c8
// CHECK-NEXT: scf.if %[[INCHUNK]] {
// CHECK-NOT: sem 3
// CHECK: tpu.dma_wait sem 0 count 4
// CHECK: tpu.mxu_load_weights %[[RHS]]{{.*}} mxu 0
// CHECK: tpu.mxu_load_weights %[[RHS]]{{.*}} mxu 3
// CHECK-NOT: tpu.mxu_pop
// One chunk: the chunk's last group is the kernel's, whose last K tile
// pops its own results behind its pushes once the group before's stores
// are out (storesInLastTile; a test below has the details), and no group
// has an epilogue.
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot %{{.*}} accumulate
// CHECK: tpu.dma_wait sem 1 count 8
// CHECK: tpu.mxu_pop mxu 0
// CHECK: } else {
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.mxu_push %{{.*}} to mxu 0 slot %{{.*}} accumulate
// CHECK-NOT: tpu.mxu_pop
// The stores are deferred (8 pieces, half an MXU's block each): piece k
// goes out after tile k's first term's pushes, which in tile 0 popped
// what it stores.
// CHECK: %[[LATER2:.*]] = arith.cmpi slt, %c0, %[[COL0]]
// CHECK-NEXT: scf.if %[[LATER2]] {
// CHECK: arith.cmpi slt, %[[K]], %c8
// CHECK: tpu.dma_store %[[OUT]]
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.dma_wait sem 1 count 32
func.func @main(%a: tensor<1024x2048xf32>, %b: tensor<2048x1024xf32>) -> tensor<1024x1024xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1024x2048xf32>, tensor<2048x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}

// -----

// 1024 x 128 x 2048 on v4: one K tile, four groups, and stores (2 MiB a
// group, about 3,670 cycles of DMA) longer than a tile spares. Popped in
// the next group's tile 0, a group's stores would go out after that
// tile's pushes and the group after would wait for them before its own
// (popsPayForStores): every group pops its own results in its epilogue.
// CHECK-LABEL: func.func @main(%arg0: memref<1024x128xf32
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4 {
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.dma_wait sem 1 count 4
// CHECK-NEXT: }
// CHECK: tpu.mxu_pop mxu 0
func.func @main(%a: tensor<1024x128xf32>, %b: tensor<128x2048xf32>) -> tensor<1024x2048xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1024x128xf32>, tensor<128x2048xf32>) -> tensor<1024x2048xf32>
  return %c : tensor<1024x2048xf32>
}

// -----

// 104 x 128 x 2048 on v2: one K tile and 16 groups of one column block,
// each group's stores (104 KiB) longer than the rest of the next group's
// tile. Popped in the next group's tile 0 into one staging buffer, a
// group would wait for the stores of the group before it; with the
// staging in halves (stagesInHalves; test/e2e/pops-in-next-group.test
// runs it), block b of group g is staged at row 104 x (g % 2 == 0) + 8 b
// (the group before's half) and the pops wait only for the stores of the
// group two before the popped one, (batch + row0) x 2 + col0 - 1 > 1; the
// chunk's last group pops its own into its half, g % 2, after the same
// test on itself, and the kernel ends waiting for two groups' stores.
// V2-LABEL: func.func @main(%arg0: memref<104x128xf32
// V2: %[[STAGING:.*]] = memref.alloc() : memref<208x128xf32, #tpu.memory_space<vmem>>
// V2: scf.for %[[V2COL0:.*]] = %{{.*}} to %c16{{(_[0-9]+)?}} step
// V2: %[[INDEX:.*]] = arith.shrui %[[V2COL0]], %c0{{(_[0-9]+)?}}
// V2: %[[PARITY:.*]] = arith.andi %[[INDEX]], %c1
// V2: %[[OWN:.*]] = arith.muli %[[PARITY]], %c104{{(_[0-9]+)?}}
// V2: %[[PREVIOUS:.*]] = arith.subi %c104{{(_[0-9]+)?}}, %[[OWN]]
// V2: %[[POPPED:.*]] = arith.subi %[[V2COL0]], %c1{{(_[0-9]+)?}}
// V2: %[[CHUNK:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// V2: %[[FAR:.*]] = arith.muli %[[CHUNK]], %c2
// V2: %[[SEQ:.*]] = arith.addi %[[FAR]], %[[POPPED]]
// V2: %[[TWOBACK:.*]] = arith.cmpi slt, %c1{{(_[0-9]+)?}}, %[[SEQ]]
// V2-NEXT: scf.if %[[TWOBACK]] {
// V2-NEXT: tpu.dma_wait sem 1 count 1
// V2: arith.addi %{{.*}}, %[[PREVIOUS]] : index
// V2-NEXT: tpu.mxu_pop mxu 0
// V2: %[[PSTORE:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[PREVIOUS]] : index
// V2: tpu.dma_store %[[STAGING]][%[[PSTORE]]]
// V2: arith.cmpi slt, %c15, %{{.*}} : index
// V2: %[[OWNSEQ:.*]] = arith.addi %{{.*}}, %[[V2COL0]] : index
// V2-NEXT: %{{.*}} = arith.constant 1 : index
// V2-NEXT: %[[OWNTWOBACK:.*]] = arith.cmpi slt, %{{.*}}, %[[OWNSEQ]]
// V2-NEXT: scf.if %[[OWNTWOBACK]] {
// V2-NEXT: tpu.dma_wait sem 1 count 1
// V2: %[[OWNROW:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[OWN]] : index
// V2: tpu.mxu_pop mxu 0
// V2: %[[OWNSTORE:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[OWN]] : index
// V2: tpu.dma_store %[[STAGING]][%[[OWNSTORE]]]
// V2: tpu.dma_wait sem 1 count 2
// V2-NEXT: memref.dealloc
func.func @main(%a: tensor<104x128xf32>, %b: tensor<128x2048xf32>) -> tensor<104x2048xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<104x128xf32>, tensor<128x2048xf32>) -> tensor<104x2048xf32>
  return %c : tensor<104x2048xf32>
}

// -----

// Two chunks of 128 row blocks, 16 K tiles, three column groups (col0 0, 4
// and 8), stores across chunks: the next chunk's first group pops the
// chunk before's last group's results in its first K tile, as a later
// group pops the group before's (docs/Compiler.md, "Popping a group's
// results in the next group's pushes"), so every group but the kernel's
// first (offset batch + row0 + col0 0) pops; before popping, a group waits
// for the stores of the group two back (in the chunk, unless the group
// before is the kernel's first; a chunk's first group always). The
// kernel's last group (offset 128 + 8) has no epilogue: its last K tile
// (offset 136 + 15) pops its results 32 row blocks behind its pushes and
// stores them 8, then 16 row blocks at a time (storesInLastTile): its
// pieces' loop starts 8 blocks (64 rows) before block 32 and the first
// piece's pushes start there (more than 768 rows left), and each piece
// stores from the larger of its first block and 32; after waiting
// for the group before's stores; that tile and the group's first are
// found by one branch (k or the distance to 151 is 0), as are the
// kernel's first group's tiles (its offset is 0), which load their LHS in
// pieces (piecesLhsTiles: only the kernel's first chunk, as the next
// chunks' tiles are loaded ahead). One MXU has a
// column block in the last group (9 = 2 x 4 + 1): one DMA a piece, 1 + 88
// / 16 rounded up and one for the last 32 blocks, 8 for the kernel's last
// wait; the last 32 blocks are popped from that MXU alone.
// CHECK-LABEL: func.func @main
// FOLDED-LABEL: func.func @main(%arg0: memref<2048x2048xf32
// CHECK: scf.for %[[BATCH:.*]] = %{{.*}} to %c1
// CHECK: scf.for %[[ROW0:.*]] = %{{.*}} to %c256 step %c128
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %c9{{.*}} step %c4
// CHECK: %c151 = arith.constant 151 : index
// CHECK-NEXT: %[[LAST_TILE:.*]] = arith.subi %c151, %[[GROUP_OFFSET:.*]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c16
// CHECK: tpu.mxu_latch mxu 3
// CHECK-NEXT: %[[TO_LAST:.*]] = arith.subi %[[LAST_TILE]], %[[K]] : index
// CHECK-NEXT: %[[NEAREST:.*]] = arith.minsi %[[K]], %[[TO_LAST]] : index
// CHECK-NEXT: %[[NEAREST2:.*]] = arith.minsi %[[NEAREST]], %{{.*}} : index
// CHECK-NEXT: %[[FIRST_OR_LAST:.*]] = arith.cmpi eq, %[[NEAREST2]], %c0 : index
// CHECK-COUNT-4: tpu.dma_load %arg1
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[FIRST_OR_LAST]] {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[BATCH]], %[[ROW0]] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.addi %[[SUM]], %[[COL0]] : index
// CHECK-NEXT: %[[POPS:.*]] = arith.cmpi slt, %c0, %[[OFFSET]] : index
// CHECK-NEXT: scf.if %[[POPS]] {
// CHECK-NEXT: %c4{{.*}} = arith.constant 4 : index
// CHECK-NEXT: %[[COL_BEFORE:.*]] = arith.subi %[[COL0]], %c4{{.*}} : index
// CHECK-NEXT: %[[SUM_BEFORE:.*]] = arith.addi %[[BATCH]], %[[ROW0]] : index
// CHECK-NEXT: %[[OFFSET_BEFORE:.*]] = arith.addi %[[SUM_BEFORE]], %[[COL_BEFORE]] : index
// CHECK-NEXT: %[[TWO_BACK:.*]] = arith.cmpi slt, %c0, %[[OFFSET_BEFORE]] : index
// CHECK-NEXT: %[[IN_CHUNK:.*]] = arith.cmpi slt, %c0, %[[COL0]] : index
// CHECK-NEXT: scf.if %[[IN_CHUNK]] {
// CHECK-NEXT: scf.if %[[TWO_BACK]] {
// CHECK-NEXT: tpu.dma_wait sem 1 count 8
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NEXT: tpu.dma_wait sem 1 count 8
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK: tpu.mxu_pop mxu 0
// CHECK: tpu.mxu_push %{{.*}} to mxu 0
// CHECK: %c9{{.*}} = arith.constant 9 : index
// CHECK-NEXT: arith.muli %[[ROW0]]
// CHECK: %c256{{.*}} = arith.constant 256 : index
// CHECK-NEXT: %[[LAG_END:.*]] = arith.addi %[[ROW:.*]], %c256{{.*}} : index
// CHECK: scf.for %{{.*}} = %[[ROW]] to %[[LAG_END]] step %c64 {
// CHECK-NOT: tpu.mxu_pop
// CHECK: }
// CHECK-NEXT: tpu.dma_wait sem 1 count 8
// CHECK-NEXT: %c1024{{.*}} = arith.constant 1024 : index
// CHECK-NEXT: %[[CHUNK_END:.*]] = arith.addi %[[ROW]], %c1024{{.*}} : index
// CHECK-NEXT: %c192 = arith.constant 192 : index
// CHECK-NEXT: %[[PIECES_START:.*]] = arith.addi %[[ROW]], %c192 : index
// CHECK-NEXT: %c128{{.*}} = arith.constant 128 : index
// CHECK-NEXT: scf.for %[[PIECE:.*]] = %[[PIECES_START]] to %[[CHUNK_END]] step %c128
// CHECK: %[[PIECE_END:.*]] = arith.minsi %{{.*}}, %[[CHUNK_END]] : index
// CHECK-NEXT: %[[ROWS_LEFT:.*]] = arith.subi %[[CHUNK_END]], %[[PIECE]] : index
// CHECK-NEXT: %c768 = arith.constant 768 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi slt, %c768, %[[ROWS_LEFT]] : index
// CHECK-NEXT: %c64{{.*}} = arith.constant 64 : index
// CHECK-NEXT: %[[CUT:.*]] = arith.addi %[[PIECE]], %c64{{.*}} : index
// CHECK-NEXT: %[[PUSHES:.*]] = arith.select %[[FIRST]], %[[CUT]], %[[PIECE]] : index
// CHECK-NEXT: %c64{{.*}} = arith.constant 64 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[PUSHES]] to %[[PIECE_END]] step %c64
// CHECK: %c-32 = arith.constant -32 : index
// CHECK-NEXT: %[[POPPED:.*]] = arith.addi %{{.*}}, %c-32 : index
// CHECK-NEXT: tpu.mxu_pop mxu 0 slot %[[POPPED]]
// CHECK: tpu.mxu_push %{{.*}} to mxu 3 slot %{{.*}} accumulate
// CHECK-NOT: tpu.dma_store
// CHECK: }
// CHECK-NEXT: %[[PIECE_ROW:.*]] = arith.subi %[[PIECE]], %[[ROW]] : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %[[PIECE_BLOCK:.*]] = arith.shrui %[[PIECE_ROW]], %c3 : index
// CHECK-NEXT: %[[LAG:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[BEFORE_LAG:.*]] = arith.cmpi slt, %[[PIECE_BLOCK]], %[[LAG]] : index
// CHECK-NEXT: %[[FIRST_PUSHED:.*]] = arith.select %[[BEFORE_LAG]], %[[LAG]], %[[PIECE_BLOCK]] : index
// CHECK-NEXT: %[[FIRST_POPPED:.*]] = arith.subi %[[FIRST_PUSHED]], %[[LAG]] : index
// CHECK-NEXT: %[[END_ROW:.*]] = arith.subi %[[PIECE_END]], %[[ROW]] : index
// CHECK: %[[END_BLOCK:.*]] = arith.shrui %[[END_ROW]]
// CHECK-NEXT: %[[COUNT:.*]] = arith.subi %[[END_BLOCK]], %[[FIRST_PUSHED]] : index
// CHECK: tpu.dma_store %{{.*}} tiles %[[COUNT]] sem 1
// CHECK-NOT: tpu.dma_store
// CHECK: scf.for %[[LEFT:.*]] = %c96 to %c128{{.*}} step %c1
// CHECK: tpu.mxu_pop mxu 0 slot %[[LEFT]]
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.dma_store %{{.*}} tiles %c32 sem 1
// CHECK-NOT: tpu.mxu_pop
// CHECK: tpu.dma_wait sem 1 count 8
func.func @main(%a: tensor<2048x2048xf32>, %b: tensor<2048x1152xf32>) -> tensor<2048x1152xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<2048x2048xf32>, tensor<2048x1152xf32>) -> tensor<2048x1152xf32>
  return %c : tensor<2048x1152xf32>
}

// -----

// One chunk of 125 row blocks (1000 rows), 15 whole unrolled iterations
// and 5 blocks left: the kernel's last K tile (storesInLastTile, its only
// group with an epilogue otherwise) pops 32 row blocks behind its pushes
// in the whole iterations, a piece of 8 and pieces of 16 up to block 120
// (rows 256 to 960), pushes the 5 blocks left, then pops blocks 88 to 125
// as they drain and stores those 37 at once. One MXU has a column block
// in the last group (5 = 4 + 1): 6 pieces and the 37, 7 DMAs for the last
// wait.
// CHECK-LABEL: func.func @main(%arg0: memref<1000x2048xf32
// CHECK: %c960 = arith.constant 960 : index
// CHECK-NEXT: %[[PIECES_END:.*]] = arith.addi %[[ROW:.*]], %c960 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[PIECES_END]] step %c128
// CHECK: tpu.mxu_pop mxu 0
// CHECK: tpu.dma_store {{.*}} sem 1
// CHECK-NOT: tpu.dma_store
// CHECK: }
// CHECK-COUNT-5: tpu.mxu_push %{{.*}} to mxu 3 slot %{{.*}} accumulate
// CHECK-NOT: tpu.mxu_push
// CHECK: scf.for %{{.*}} = %c88 to %c125{{.*}} step %c1
// CHECK: tpu.mxu_pop mxu 0
// CHECK-NOT: tpu.mxu_pop mxu 1
// CHECK: }
// CHECK: tpu.dma_store {{.*}} tiles %c37 sem 1
// CHECK-NOT: tpu.dma_store {{.*}} tiles %c37
// CHECK: tpu.dma_wait sem 1 count 7
func.func @main(%a: tensor<1000x2048xf32>, %b: tensor<2048x640xf32>) -> tensor<1000x640xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1000x2048xf32>, tensor<2048x640xf32>) -> tensor<1000x640xf32>
  return %c : tensor<1000x640xf32>
}

// -----

// 1000 x 1152 x 640 on v4: one chunk of 125 row blocks, whose first group
// is bound by its loads (a K tile's LHS and weights, about 1,350 cycles
// of DMA, against 1,000 of pushes). So that its pushes trail the DMA
// engine by an unrolled iteration rather than a tile, it loads its tiles
// but tile 0 a DMA per 8 row blocks, the last with the 5 left over
// (piecesLhsTiles: every chunk's, none being loaded ahead), and those
// tiles' pushes wait for each before its iteration; the tile before
// waits for the next tile's weights only (tile 0 waits for its LHS, whole,
// at its start). The group's pieced tiles are found with
// the group's first and the kernel's last: the smallest of k, the
// distance to the kernel's last tile and col0 is 0.
// CHECK-LABEL: func.func @main(%arg0: memref<1000x1152xf32
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c9
// CHECK: %[[PIECES:.*]] = arith.shrui %[[BLOCKS:.*]], %c3
// CHECK: scf.for %{{.*}} = %c0 to %[[PIECES]] step %c1
// CHECK: %[[REST:.*]] = arith.subi %[[BLOCKS]], %{{.*}}
// CHECK-NEXT: %c8{{.*}} = arith.constant 8 : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.select %{{.*}}, %[[REST]], %c8
// CHECK: tpu.dma_load %arg0{{.*}} tiles %[[COUNT]] sem 3
// CHECK: %[[NEAREST:.*]] = arith.minsi %[[K]], %{{.*}}
// CHECK-NEXT: %{{.*}} = arith.minsi %[[NEAREST]], %[[COL0]]
// CHECK-NOT: tpu.dma_wait sem 3
// The kernel's last tile (storesInLastTile), then the pieced tiles.
// CHECK: tpu.dma_store {{.*}} tiles %c37 sem 1
// CHECK-NEXT: } else {
// CHECK-NOT: tpu.dma_wait sem 3
// CHECK: scf.for %{{.*}} step %c64 {
// CHECK-NEXT: tpu.dma_wait sem 3 count 1
// CHECK-COUNT-8: tpu.vector_load
func.func @main(%a: tensor<1000x1152xf32>, %b: tensor<1152x640xf32>) -> tensor<1000x640xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1000x1152xf32>, tensor<1152x640xf32>) -> tensor<1000x640xf32>
  return %c : tensor<1000x640xf32>
}

// -----

// The next chunk's LHS loaded ahead, spread (test/e2e/lhs-ahead.test runs
// this plan): 1032 x 1024 x 2048 on v4, chunks of 128 and 1 row blocks, 8
// K tiles, four column groups; 4 spare slots, Q = 2 a middle group. In a
// row, each middle group's two loads would keep the DMA engine behind, so
// group g loads min(2 g, 2, 6 - 2 g) tiles every other K tile from its
// last: after tile 7 - 2 x that many, in the tiles whose k is odd (the
// last group, which loads in every one of its last tiles, skips none).
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %c16{{.*}} step %c4
// CHECK: %[[GROUP:.*]] = arith.shrui %[[COL0]], %c2
// CHECK: %[[GROUP_AHEAD:.*]] = arith.muli %[[GROUP]], %c2{{.*}} : index
// CHECK: %[[SPARE_LEFT:.*]] = arith.subi %c6, %[[GROUP_AHEAD]] : index
// CHECK: %[[FIRST_AHEAD:.*]] = arith.minsi %[[GROUP_AHEAD]], %c2{{.*}} : index
// CHECK-NEXT: %[[TILES:.*]] = arith.minsi %[[FIRST_AHEAD]], %[[SPARE_LEFT]] : index
// CHECK-NEXT: %c2{{.*}} = arith.constant 2 : index
// CHECK-NEXT: %[[SPREAD:.*]] = arith.muli %[[TILES]], %c2{{.*}} : index
// CHECK-NEXT: %[[FROM:.*]] = arith.subi %c7, %[[SPREAD]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c8
// CHECK: %[[AHEAD:.*]] = arith.cmpi slt, %{{.*}}, %[[K]] : index
// CHECK-NEXT: scf.if %[[AHEAD]] {
// CHECK-NEXT: %[[ODD:.*]] = arith.andi %[[K]], %c1 : index
// CHECK-NEXT: %[[EVEN:.*]] = arith.subi %c1, %[[ODD]] : index
// CHECK: arith.select %{{.*}}, %c0, %[[EVEN]] : index
func.func @main(%a: tensor<1032x1024xf32>, %b: tensor<1024x2048xf32>) -> tensor<1032x2048xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1032x1024xf32>, tensor<1024x2048xf32>) -> tensor<1032x2048xf32>
  return %c : tensor<1032x2048xf32>
}

// -----

// Pops across batches (test/e2e/pops-across-chunks.test runs this plan):
// two batches of one chunk of 128 row blocks, three column groups, 16 K
// tiles, stores across chunks. The next batch's first group pops the
// batch before's last group's results in its first K tile: every group
// but the kernel's first (offset batch + row0 + col0 0) pops (the case
// above checks that no group has an epilogue).
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[BATCH:.*]] = %{{.*}} to %c2
// CHECK: scf.for %[[ROW0:.*]] = %{{.*}} to %c128 step %c128
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %c9{{.*}} step %c4
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16
// CHECK: tpu.mxu_latch mxu 3
// CHECK-COUNT-4: tpu.dma_load %arg1
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[BATCH]], %[[ROW0]] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.addi %[[SUM]], %[[COL0]] : index
// CHECK-NEXT: %[[POPS:.*]] = arith.cmpi slt, %c0, %[[OFFSET]] : index
// CHECK-NEXT: scf.if %[[POPS]] {
// CHECK: tpu.mxu_pop mxu 0
func.func @main(%a: tensor<2x1024x2048xf32>, %b: tensor<2x2048x1152xf32>) -> tensor<2x1024x1152xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<2x1024x2048xf32>, tensor<2x2048x1152xf32>) -> tensor<2x1024x1152xf32>
  return %c : tensor<2x1024x1152xf32>
}

// -----

// 1032 x 2048 x 1664 on v4 (test/e2e/lhs-ahead.test runs 1030 rows, the
// same plan): the
// two middle groups load their 6 and 5 of the 11 spare slots' tiles in
// two of every three K tiles from their last (aheadLoadPeriod 3: their
// loads clear the 8 tiles that store the group before's results), the
// division by 3 a multiply by 43691 and a shift by 17.
// CHECK-LABEL: func.func @main
// CHECK: %[[HALF_TILES:.*]] = arith.shrui %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: arith.addi %{{.*}}, %[[HALF_TILES]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c16
// CHECK: %[[FROM_END:.*]] = arith.subi %c16{{.*}}, %[[K]] : index
// CHECK-NEXT: %c43691 = arith.constant 43691 : index
// CHECK-NEXT: arith.muli %[[FROM_END]], %c43691 : index
func.func @main(%a: tensor<1032x2048xf32>, %b: tensor<2048x1664xf32>) -> tensor<1032x1664xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1032x2048xf32>, tensor<2048x1664xf32>) -> tensor<1032x1664xf32>
  return %c : tensor<1032x1664xf32>
}

// -----

// 1040 x 128 x 1024 on v4: one K tile, a resident LHS in two chunks (128
// and 2 row blocks), two groups of four. The chunk's one LHS tile is the
// one its last group pushes, so the last group loads the next chunk's LHS
// and its first group's weights (column tiles 0 to 3, half 0) once its
// pushes are issued, ahead of its stores (lastGroupLoadsNextChunk); only
// the kernel's first group (batch + row0 + col0 is 0) loads its own.
// FOLDED-LABEL: func.func @main(%arg0: memref<1040x128xf32
// FOLDED: scf.for %[[ROW0:.*]] = %c0 to %c130 step %c128 {
// FOLDED: scf.for %[[COL0:.*]] = %c0 to %c8 step %c4 {
// FOLDED-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[COL0]], %c0 : index
// FOLDED-NEXT: %[[OFFSET:.*]] = arith.addi %[[ROW0]], %[[COL0]] : index
// FOLDED-NEXT: %[[OWN:.*]] = arith.cmpi eq, %[[OFFSET]], %c0 : index
// FOLDED: scf.if %[[OWN]] {
// FOLDED-NEXT: scf.if %[[FIRST]] {
// FOLDED-NEXT: tpu.dma_load %arg0
// FOLDED: scf.for %{{.*}} step %c64 {
// FOLDED: tpu.mxu_push
// FOLDED: scf.for %{{.*}} step %c8 {
// FOLDED: tpu.mxu_push %{{.*}} to mxu 3
// FOLDED-NEXT: }
// FOLDED-NEXT: %[[NOTLASTCHUNK:.*]] = arith.cmpi slt, %[[ROW0]], %c128 : index
// FOLDED: %[[LASTGROUP:.*]] = arith.cmpi sgt, %{{.*}}, %c7 : index
// FOLDED-NEXT: %[[LOADS:.*]] = arith.andi %[[LASTGROUP]], %[[NOTLASTCHUNK]] : i1
// FOLDED-NEXT: scf.if %[[LOADS]] {
// FOLDED-NEXT: %[[NEXTROW0:.*]] = arith.addi %[[ROW0]], %c128 : index
// FOLDED: tpu.dma_load %arg0[%{{.*}}, stride %c1] to %{{.*}}[%c0] tiles %{{.*}} sem 3
// FOLDED-NEXT: %c16 = arith.constant 16 : index
// FOLDED-NEXT: tpu.dma_load %arg1[%c0, stride %c8] to %{{.*}}[%c0] tiles %c16 sem 0
// FOLDED: tpu.dma_load %arg1[%{{.*}}, stride %c8] to %{{.*}}[%c384] tiles %c16 sem 0
// FOLDED-NEXT: }
// FOLDED: tpu.dma_store
func.func @main(%a: tensor<1040x128xf32>, %b: tensor<128x1024xf32>) -> tensor<1040x1024xf32> {
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<1040x128xf32>, tensor<128x1024xf32>) -> tensor<1040x1024xf32>
  return %c : tensor<1040x1024xf32>
}

// -----

// HIGH with one K tile, 64 row blocks and two groups of four on v4. The
// second group pops the first's results in its first term's pushes (the
// staging in halves), and (one K tile: the LHS parts hold the chunk's
// whole LHS) only the chunk's first group splits the LHS (splitsLhsOnce):
// its first rows before the latch and the rest in its first term's loop;
// the popping loop splits none. The weights: a group's head prefetches
// the next group's (col0 + 4 < 8) into the other half, and its last
// term's loop waits for them and splits them into the other region of
// the parts (splitsNextGroupWeights, two regions); only the chunk's first
// group splits its own, in a loop of its own, and a later group only
// stages them from its region.
// FOLDED-LABEL: func.func @main(%arg0: memref<512x128xf32
// FOLDED: %[[RHS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// FOLDED-NEXT: %[[LHSPARTS:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// FOLDED-NEXT: %[[RHSPARTS:.*]] = memref.alloc() : memref<2048x128xf32, #tpu.memory_space<vmem>>
// FOLDED: scf.for %[[COL0:.*]] = %c0 to %c8 step %c4 {
// FOLDED-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[COL0]], %c0 : index
// FOLDED: %[[NEXTCOL0:.*]] = arith.addi %[[COL0]], %c4 : index
// FOLDED-NEXT: %[[HASNEXT:.*]] = arith.cmpi slt, %[[NEXTCOL0]], %c8 : index
// FOLDED-NEXT: scf.if %[[HASNEXT]] {
// FOLDED: tpu.dma_load %arg1[%[[NEXTCOL0]], stride %c8] to %[[RHS]]
// FOLDED: scf.if %[[FIRST]] {
// FOLDED: tpu.dma_wait sem 0 count 4
// FOLDED: scf.for
// FOLDED: tpu.vector_load %[[RHS]]
// FOLDED: tpu.round_to_bf16
// FOLDED: tpu.vector_store %{{.*}}, %[[RHSPARTS]]
// FOLDED: tpu.round_to_bf16
// FOLDED: tpu.vector_store %{{.*}}, %[[LHSPARTS]]
// FOLDED: } else {
// FOLDED-NEXT: arith.constant 1024
// FOLDED-NEXT: %[[REGION:.*]] = arith.muli
// FOLDED-NEXT: tpu.mxu_load_weights %[[RHSPARTS]][%[[REGION]], stride %c8] mxu 0
// FOLDED: tpu.mxu_latch mxu 3
// FOLDED: scf.if
// FOLDED: scf.for %{{.*}} = %c0 to %c512 step %c64 {
// FOLDED-NOT: tpu.round_to_bf16
// FOLDED: tpu.mxu_pop mxu 0
// FOLDED-NOT: tpu.round_to_bf16
// FOLDED: } else {
// FOLDED-NEXT: scf.for %{{.*}} = %c0 to %c512 step %c64 {
// FOLDED: tpu.round_to_bf16
// FOLDED: tpu.vector_store %{{.*}}, %[[LHSPARTS]]
// The last term: latched, it waits for the next group's weights where
// there is one and splits them (else its own again) into the other region.
// FOLDED: tpu.mxu_latch mxu 3
// FOLDED-NEXT: %[[OTHER:.*]] = arith.subi %c1, %{{.*}} : index
// FOLDED-NEXT: scf.if %[[HASNEXT]] {
// FOLDED-NEXT: tpu.dma_wait sem 0 count 4
// FOLDED-NEXT: }
// FOLDED-NEXT: arith.select %[[HASNEXT]], %[[OTHER]], %{{.*}} : index
// FOLDED: scf.for %{{.*}} = %c0 to %c512 step %c64 {
// FOLDED: %[[TO:.*]] = arith.muli %[[OTHER]], %c1024 : index
// FOLDED: tpu.vector_load %[[RHS]]
// FOLDED: tpu.round_to_bf16
// FOLDED: tpu.vector_store %{{.*}}, %[[RHSPARTS]]
// FOLDED: tpu.mxu_push %{{.*}} to mxu 3
// On v2 (one MXU, eight groups) too: with one K tile a group on one MXU
// pops the group before's results in its pushes (with more K tiles its
// two pops a block and their fix chains made tile 0's iterations slower
// than the epilogue they saved), in the staging's halves (2 x 512 rows),
// in a loop that splits no LHS.
// V2-LABEL: func.func @main(%arg0: memref<512x128xf32
// V2: memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// V2-NEXT: memref.alloc() : memref<512x128xf32, #tpu.memory_space<vmem>>
// V2-NEXT: %[[STAGING:.*]] = memref.alloc() : memref<1024x128xf32, #tpu.memory_space<vmem>>
// V2: tpu.dma_wait sem 1 count 1
// V2-NEXT: }
// V2-NOT: tpu.round_to_bf16
// V2: scf.for %{{.*}} step %c64{{(_[0-9]+)?}} {
// V2-NOT: tpu.round_to_bf16
// V2: tpu.mxu_pop mxu 0
// V2-NOT: tpu.round_to_bf16
// V2: tpu.vector_store %{{.*}}, %[[STAGING]]
// V2-NOT: tpu.round_to_bf16
// V2: tpu.mxu_push
func.func @main(%a: tensor<512x128xf32>, %b: tensor<128x1024xf32>) -> tensor<512x1024xf32> {
  %c = tpu.matmul_passes lhs(%a, %a, %a) rhs(%b, %b, %b) {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<rne>} : (tensor<512x128xf32>, tensor<512x128xf32>, tensor<512x128xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>) -> tensor<512x1024xf32>
  return %c : tensor<512x1024xf32>
}

// -----

// HIGH with one K tile at 1040 x 128 x 2048 on v4: three chunks (64, 64
// and 2 row blocks) of four groups, popping in the next group, whose
// last group loads the next chunk's LHS and first weights once its first
// term is issued (lastGroupLoadsNextChunk), and with them the next chunk's
// second group's (half 1, column tiles 4 to 7), and its last term splits
// the next chunk's first (weightsAcrossChunks): only the kernel's first
// group (batch + row0 + col0 is 0) splits its own weights; a later chunk's
// first group waits for its LHS alone and stages them, and does not
// prefetch the second group's (min(row0, 1) - 1 < col0 is false there);
// a last term has weights to split but in the kernel's last group
// (offset 128 + 12).
// FOLDED-LABEL: func.func @main(%arg0: memref<1040x128xf32
// FOLDED: scf.for %[[ROW0:.*]] = %c0 to %c130 step %c64 {
// FOLDED: scf.for %[[COL0:.*]] = %c0 to %c16 step %c4 {
// FOLDED-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[COL0]], %c0 : index
// FOLDED-NEXT: %[[OFFSET:.*]] = arith.addi %[[ROW0]], %[[COL0]] : index
// FOLDED-NEXT: %[[OWN:.*]] = arith.cmpi eq, %[[OFFSET]], %c0 : index
// FOLDED: %[[LATER:.*]] = arith.minsi %[[ROW0]], %c1 : index
// FOLDED-NEXT: %[[BOUND:.*]] = arith.subi %[[LATER]], %c1 : index
// FOLDED-NEXT: %[[NOTAHEAD:.*]] = arith.cmpi slt, %[[BOUND]], %[[COL0]] : index
// FOLDED-NEXT: %[[PREFETCH:.*]] = arith.andi %{{.*}}, %[[NOTAHEAD]] : i1
// FOLDED-NEXT: scf.if %[[PREFETCH]] {
// FOLDED: scf.if %[[FIRST]] {
// FOLDED-NEXT: scf.if %[[OWN]] {
// FOLDED-NEXT: scf.if %[[FIRST]] {
// FOLDED-NEXT: tpu.dma_wait sem 3 count 1
// FOLDED-NEXT: } {branch_weights
// FOLDED-NEXT: tpu.dma_wait sem 0 count 4
// FOLDED: } else {
// FOLDED-NEXT: tpu.dma_wait sem 3 count 1
// FOLDED-NOT: tpu.dma_wait
// FOLDED: tpu.mxu_load_weights
// FOLDED: } else {
// FOLDED: tpu.dma_load %arg0[%{{.*}}, stride %c1] to %{{.*}}[%c0] tiles %{{.*}} sem 3
// FOLDED: tpu.dma_load %arg1[%c0, stride %c16] to %{{.*}}[%c0] tiles %c16 sem 0
// FOLDED: tpu.dma_load %arg1[%c4, stride %c16] to %{{.*}}[%c512] tiles %c16 sem 0
// FOLDED: tpu.dma_load %arg1[%{{.*}}, stride %c16] to %{{.*}}[%c896] tiles %c16 sem 0
// FOLDED: tpu.mxu_latch mxu 3
// FOLDED-NEXT: %c140 = arith.constant 140 : index
// FOLDED-NEXT: %[[HASNEXT:.*]] = arith.cmpi slt, %[[OFFSET]], %c140 : index
// FOLDED-NEXT: %[[OTHER:.*]] = arith.subi %c1, %{{.*}} : index
// FOLDED-NEXT: scf.if %[[HASNEXT]] {
// FOLDED-NEXT: tpu.dma_wait sem 0 count 4
func.func @main(%a: tensor<1040x128xf32>, %b: tensor<128x2048xf32>) -> tensor<1040x2048xf32> {
  %c = tpu.matmul_passes lhs(%a, %a, %a) rhs(%b, %b, %b) {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<rne>} : (tensor<1040x128xf32>, tensor<1040x128xf32>, tensor<1040x128xf32>, tensor<128x2048xf32>, tensor<128x2048xf32>, tensor<128x2048xf32>) -> tensor<1040x2048xf32>
  return %c : tensor<1040x2048xf32>
}
