//===- ChecksTest.cpp - The checks of docs/Simulator.md, "Checks" ---------===//
//
// DMA races (VMEM and HBM, DMA against DMA, the exact tiles of a strided
// transfer), writes to rows a weight load is shifting in, and reads of
// memory or registers nothing wrote.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtils.h"

using namespace tpu;
using namespace tpu::sim;
using namespace tpu::sim::testing;

namespace {

std::optional<Trap>
runToTrap(const std::vector<std::string> &program,
          UninitializedReads reads = UninitializedReads::Zero) {
  SimulatorOptions options;
  options.uninitialized = reads;
  Machine m(program, ChipKind::V4, options);
  return m.run();
}

TEST(DmaRaceTest, LoadOfATileAStoreIsStillWriting) {
  // dma.st to HBM tile 5, then a dma.ld of tile 5 one bundle later.
  std::optional<Trap> trap = runToTrap(
      {"s.li s1, 1 ; s.li s2, 5", "dma.st 0, s2, s0, s1, s1", "s.li s3, 8",
       "dma.ld 1, s3, s2, s1, s1", "dma.wait 0, 1", "dma.wait 1, 1", "halt"});
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::DmaRace);
  EXPECT_EQ(trap->pc, 3);
  EXPECT_EQ(trap->bundle, "dma.ld 1, s3, s2, s1, s1");
  EXPECT_EQ(trap->reason,
            "dma.ld reads HBM tile 5, which the dma.st issued at b1 (dma.st 0, "
            "s2, s0, s1, s1) is still writing (done at cycle 109); wait on its "
            "semaphore (dma.wait 0, ...) first");
}

TEST(DmaRaceTest, StoreOfRowsALoadIsStillWriting) {
  std::optional<Trap> trap = runToTrap(
      {"s.li s1, 1 ; s.li s2, 5", "dma.ld 0, s0, s2, s1, s1",
       "dma.st 1, s2, s0, s1, s1", "dma.wait 0, 1", "dma.wait 1, 1", "halt"});
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::DmaRace);
  EXPECT_NE(trap->reason.find("dma.st reads VMEM row 0, which the dma.ld "
                              "issued at b1"),
            std::string::npos)
      << trap->reason;
}

TEST(DmaRaceTest, WaitingFirstIsFine) {
  EXPECT_FALSE(runToTrap(
      {"s.li s1, 1 ; s.li s2, 5", "dma.st 0, s2, s0, s1, s1", "dma.wait 0, 1",
       "s.li s3, 8", "dma.ld 1, s3, s2, s1, s1", "dma.wait 1, 1", "halt"}));
  // Two loads of the same HBM tile into different rows only read it.
  EXPECT_FALSE(
      runToTrap({"s.li s1, 1 ; s.li s3, 8", "dma.ld 0, s0, s0, s1, s1",
                 "dma.ld 0, s3, s0, s1, s1", "dma.wait 0, 2", "halt"}));
}

TEST(WeightLoadRaceTest, StoreIntoRowsALatchIsShiftingIn) {
  // MXU 2 shifts in rows 0..127 for 128 cycles; a store to row 64 right
  // after would change weights the hardware has not taken yet.
  std::optional<Trap> trap =
      runToTrap({"s.li s1, 8", "mxu.ldw 2, s0, s1", "v.st v0, s0, 64, s1, 0x1",
                 "halt"});
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::WeightLoadRace);
  EXPECT_EQ(trap->pc, 2);
  EXPECT_NE(trap->reason.find("v.st writes VMEM row 64, which the weight "
                              "load of MXU 2 is still shifting in until "
                              "cycle "),
            std::string::npos)
      << trap->reason;
}

TEST(WeightLoadRaceTest, DmaIntoRowsALatchIsShiftingIn) {
  std::optional<Trap> trap =
      runToTrap({"s.li s1, 8 ; s.li s2, 1", "mxu.ldw 0, s0, s1",
                 "dma.ld 0, s1, s0, s2, s2", "dma.wait 0, 1", "halt"});
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::WeightLoadRace);
  EXPECT_EQ(trap->pc, 2);
}

TEST(WeightLoadRaceTest, AfterALatchOrOutsideTheRowsIsFine) {
  // A latch waits for the weights, so a store after it is safe.
  EXPECT_FALSE(runToTrap({"s.li s1, 8", "mxu.ldw 0, s0, s1", "mxu.latch 0",
                          "v.st v0, s0, 64, s1, 0x1", "halt"}));
  // A push does not (it multiplies by the weights latched before the
  // load): a store after one still races.
  std::optional<Trap> trap =
      runToTrap({"s.li s1, 8", "mxu.ldw 0, s0, s1", "mxu.push 0, v0, s0, 0",
                 "v.st v0, s0, 64, s1, 0x1", "halt"});
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::WeightLoadRace);
  EXPECT_NE(trap->reason.find("write it after an mxu.latch of that MXU"),
            std::string::npos)
      << trap->reason;
  // Rows 128 on, and the gaps of a strided latch (rows 8..15 of stride 16),
  // are not shifted in.
  EXPECT_FALSE(runToTrap({"s.li s1, 16", "mxu.ldw 0, s0, s1",
                          "v.st v0, s0, 8, s1, 0x1",
                          "v.st v0, s0, 256, s1, 0x1", "halt"}));
}

TEST(DmaRaceTest, StridedTransfersConflictOnlyOnTheirTiles) {
  // A store of 3 tiles with stride `stride` from tile 10, then a load of
  // tile `tile`, with no wait between.
  auto storeThenLoad = [](int stride, int tile) {
    return runToTrap({"s.li s1, 3 ; s.li s2, " + std::to_string(stride),
                      "s.li s3, 10 ; s.li s4, 1", "v.bcast v0, s4",
                      "v.st v0, s0, 0, s4, 0xff", "dma.st 0, s3, s0, s1, s2",
                      "s.li s5, " + std::to_string(tile) + " ; s.li s6, 64",
                      "dma.ld 1, s6, s5, s4, s4", "dma.wait 0, 1",
                      "dma.wait 1, 1", "halt"});
  };
  // Stride 2 writes tiles 10, 12 and 14: 11 lies between them.
  EXPECT_FALSE(storeThenLoad(2, 11));
  std::optional<Trap> trap = storeThenLoad(2, 14);
  ASSERT_TRUE(trap);
  EXPECT_NE(trap->reason.find("reads HBM tile 14"), std::string::npos)
      << trap->reason;
  EXPECT_FALSE(storeThenLoad(2, 16));
  // A negative stride walks down: 10, 8, 6.
  trap = storeThenLoad(-2, 6);
  ASSERT_TRUE(trap);
  EXPECT_NE(trap->reason.find("reads HBM tile 6"), std::string::npos)
      << trap->reason;
  EXPECT_FALSE(storeThenLoad(-2, 12));
  // Stride 0 writes tile 10 three times.
  EXPECT_TRUE(storeThenLoad(0, 10));
  EXPECT_FALSE(storeThenLoad(0, 11));
}

TEST(DmaRaceTest, TwoStoresToOneTile) {
  std::optional<Trap> trap = runToTrap(
      {"s.li s1, 1 ; s.li s2, 7", "s.li s3, 8", "dma.st 0, s2, s0, s1, s1",
       "dma.st 1, s2, s3, s1, s1", "dma.wait 0, 1", "dma.wait 1, 1", "halt"});
  ASSERT_TRUE(trap);
  EXPECT_NE(trap->reason.find("dma.st writes HBM tile 7, which the dma.st "
                              "issued at b2"),
            std::string::npos)
      << trap->reason;
}

TEST(UninitializedReadTest, TrapModeNamesTheAddress) {
  auto trap = runToTrap({"s.li s1, 1", "v.ld v0, s0, 16, s1, 0x01", "halt"},
                        UninitializedReads::Trap);
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::UninitializedRead);
  EXPECT_EQ(trap->reason, "v.ld: VMEM row 16 is read before anything wrote it");

  trap = runToTrap({"s.li s1, 1 ; s.li s2, 9", "dma.ld 0, s0, s2, s1, s1",
                    "dma.wait 0, 1", "halt"},
                   UninitializedReads::Trap);
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::UninitializedRead);
  EXPECT_NE(trap->reason.find("dma.ld: HBM tile 9 is read before anything "
                              "wrote it"),
            std::string::npos);

  trap = runToTrap({"v.add v2, v0, v1", "halt"}, UninitializedReads::Trap);
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::UninitializedRead);
  EXPECT_EQ(trap->reason, "v.add reads v0 before anything wrote it");

  // A store from rows a load never filled, and an MXU weight load.
  trap = runToTrap(
      {"s.li s1, 1", "dma.st 0, s0, s0, s1, s1", "dma.wait 0, 1", "halt"},
      UninitializedReads::Trap);
  ASSERT_TRUE(trap);
  EXPECT_NE(trap->reason.find("VMEM row 0 is read"), std::string::npos);
  trap = runToTrap({"s.li s2, 8", "mxu.ldw 0, s0, s2", "halt"},
                   UninitializedReads::Trap);
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::UninitializedRead);
}

TEST(UninitializedReadTest, WrittenIsFine) {
  // v.bcast writes v0; v.st writes row 3; v.ld reads it back; dma.st
  // writes tile 2, dma.ld reads it after the wait.
  EXPECT_FALSE(runToTrap(
      {"s.li s1, 1 ; s.li s2, 2", "v.bcast v0, s1", "v.st v0, s0, 0, s1, 0xff",
       "v.ld v1, s0, 3, s1, 0x01", "dma.st 0, s2, s0, s1, s1", "dma.wait 0, 1",
       "s.li s3, 8", "dma.ld 0, s3, s2, s1, s1", "dma.wait 0, 1",
       "v.add v2, v1, v0", "halt"},
      UninitializedReads::Trap));
}

TEST(UninitializedReadTest, NaNModeReadsThePoison) {
  SimulatorOptions options;
  options.uninitialized = UninitializedReads::NaN;
  Machine m({"s.li s1, 1 ; s.li s2, 9", "dma.ld 0, s0, s2, s1, s1",
             "dma.wait 0, 1",
             "v.ld v1, s0, 0, s1, 0xff ; v.ld v2, s0, 64, s1, 0x01", "halt"},
            ChipKind::V4, options);
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vreg(1)[0], kPoisonWord); // from never-written HBM
  EXPECT_EQ(m.vreg(2)[0], kPoisonWord); // from never-written VMEM
  EXPECT_EQ(m.vreg(5)[0], kPoisonWord); // never written at all
}

} // namespace
