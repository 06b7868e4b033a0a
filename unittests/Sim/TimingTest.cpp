//===- TimingTest.cpp - Cycle counts worked out by hand -------------------===//

#include "SimTestUtils.h"

#include <cmath>

using namespace tpu;
using namespace tpu::sim;
using namespace tpu::sim::testing;

namespace {

TEST(TimingTest, MxuFoldMatchesScaleSim) {
  // SCALE-Sim's cost of one fold on an R x C array with T rows streamed is
  // 2R + C + T - 2 cycles from the start of the weight load to the last
  // result, and one more: the latch's issue cycle (it and the pushes take
  // the one MatrixPush slot). Here the weight load starts at cycle 1; the
  // pop of the last result issues the cycle that result is ready, and
  // halt one cycle later.
  const uint64_t r = kMxuDim, c = kMxuDim;
  for (int pushes : {1, 8, 16, 40}) {
    std::vector<std::string> program = {"s.li s1, 64 ; s.li s2, 8",
                                        "mxu.ldw 0, s1, s2", "mxu.latch 0"};
    for (int p = 0; p < pushes; ++p)
      program.push_back("mxu.push 0, v0, s0, 1");
    program.push_back("mxu.pop v1, 0, s0");
    program.push_back("halt");
    Machine m(program);
    ASSERT_FALSE(m.run());
    uint64_t t = uint64_t(pushes) * kSublanes;
    uint64_t popCycle = 1 + (2 * r + c + t - 2) + 1;
    EXPECT_EQ(m.stats().cycles, popCycle + 2) << pushes << " pushes";
    // The latch waits for the weights (127 cycles after issuing at 2),
    // each push after the first for the 8 cycles its predecessor streams.
    EXPECT_EQ(m.stats().stallCycles.at("mxu-weights"), 127u);
    EXPECT_EQ(m.stats().stallCycles.at("mxu-busy"), 7u * (pushes - 1));
    EXPECT_EQ(m.stats().unitBusyCycles.at("mxu0"), t);
    EXPECT_EQ(m.stats().unitBusyCycles.at("mxu0.weights"), r);
    EXPECT_EQ(m.stats().mxuMacsIssued, t * r * c);
  }
}

TEST(TimingTest, TimingReadsOperandsAsTheBundleReadThem) {
  // A push and the increment of its slot register share a bundle, as the
  // compiler emits them. The push writes slot 127 (the value s3 had before
  // the bundle), so the pop of slot 127 must wait for it: weights ready at
  // 129, latch @129, push @130, result ready 130 + 8 + 254 = 392, pop
  // @392, halt @393. Timing that read s3 after the bundle's writes put the
  // ready time on slot 128 (past the end of the result buffer) and let the
  // pop go at once.
  Machine m({"s.li s1, 64 ; s.li s2, 8", "mxu.ldw 0, s1, s2 ; s.li s3, 127",
             "mxu.latch 0", "mxu.push 0, v0, s3, 0 ; s.addi s3, s3, 1",
             "s.addi s4, s3, -1", "mxu.pop v1, 0, s4", "halt"});
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.stats().cycles, 394u);
  EXPECT_EQ(m.stats().stallCycles.at("mxu-result"), 392u - 132u);
}

TEST(TimingTest, WeightLoadsOverlapPushesOnOtherMxus) {
  // Two MXUs: the second weight load goes while the first MXU streams.
  Machine m({"s.li s1, 64 ; s.li s2, 8", "mxu.ldw 0, s1, s2",
             "mxu.ldw 1, s1, s2", "mxu.latch 0", "mxu.push 0, v0, s0, 0",
             "mxu.latch 1", "mxu.push 1, v0, s0, 0", "mxu.pop v1, 1, s0",
             "halt"});
  ASSERT_FALSE(m.run());
  // ldw0 @1 (in 129), ldw1 @2 (in 130), latch0 @129, push0 @130, latch1
  // @131, push1 @132, pop @132+8+254 = 394, halt @395.
  EXPECT_EQ(m.stats().cycles, 396u);
}

TEST(TimingTest, StagedWeightsShiftInWhilePushesStream) {
  // The next tile's load goes right after the latch; the pushes through
  // the latched tile hide it when they stream at least as long (17 pushes
  // of 8 cycles from @131 against 128 cycles from @130), so the second
  // latch does not wait: only the first load is exposed.
  for (int pushes : {16, 17}) {
    std::vector<std::string> program = {"s.li s1, 64 ; s.li s2, 8",
                                        "mxu.ldw 0, s1, s2", "mxu.latch 0",
                                        "mxu.ldw 0, s1, s2"};
    for (int p = 0; p < pushes; ++p)
      program.push_back("mxu.push 0, v0, s0, 1");
    program.insert(program.end(),
                   {"mxu.latch 0", "mxu.push 0, v0, s0, 1", "halt"});
    Machine m(program);
    ASSERT_FALSE(m.run());
    // ldw @1, latch @129 (127 stalled), ldw @130 (in 258), pushes from
    // @131 every 8: the last @131 + 8 (pushes - 1); the latch the cycle
    // after, or at 258.
    uint64_t lastPush = 131 + 8 * uint64_t(pushes - 1);
    uint64_t secondLatchWait = lastPush + 1 < 258 ? 258 - (lastPush + 1) : 0;
    EXPECT_EQ(m.stats().stallCycles.at("mxu-weights"), 127u + secondLatchWait)
        << pushes << " pushes";
  }
}

TEST(TimingTest, DmaMovesAtTheCoresShareOfBandwidth) {
  // One DMA of 100 tiles (409600 bytes) issued at cycle 1, waited for, then
  // halt: cycles = 1 + ceil(bytes / (bandwidth / clock)) + latency + 2,
  // with the core's share of the chip's bandwidth (half) by default and
  // all of it when asked.
  std::vector<std::string> program = {"s.li s1, 100 ; s.li s2, 1",
                                      "dma.ld 0, s0, s0, s1, s2",
                                      "dma.wait 0, 1", "halt"};
  for (ChipKind chip : {ChipKind::V2, ChipKind::V3, ChipKind::V4}) {
    for (HbmShare share : {HbmShare::Core, HbmShare::Chip}) {
      SimulatorOptions options;
      options.hbmShare = share;
      Machine m(program, chip, options);
      ASSERT_FALSE(m.run());
      const ChipInfo &info = getChipInfo(chip);
      double bytesPerCycle = double(info.hbmBytesPerSecond) / info.clockHz;
      if (share == HbmShare::Core)
        bytesPerCycle /= 2;
      uint64_t transfer = uint64_t(std::ceil(409600 / bytesPerCycle));
      EXPECT_EQ(m.stats().cycles, 1 + transfer + kDmaLatencyCycles + 2)
          << info.name;
      EXPECT_EQ(m.stats().unitBusyCycles.at("dma"), transfer);
      EXPECT_EQ(m.stats().hbmBytesRead, 409600u);
      EXPECT_EQ(m.stats().hbmShare, getHbmShareName(share));
      EXPECT_DOUBLE_EQ(m.stats().hbmPeakBytesPerSecond,
                       bytesPerCycle * info.clockHz);
    }
  }
  // v4 by hand: 1.2e12 / 1.05e9 / 2 = 571.43 bytes a cycle, 716.8 -> 717
  // cycles of transfer; the whole chip's, 1142.86 a cycle, 358.4 -> 359.
  Machine v4(program);
  ASSERT_FALSE(v4.run());
  EXPECT_EQ(v4.stats().cycles, 820u);
  SimulatorOptions whole;
  whole.hbmShare = HbmShare::Chip;
  Machine v4Whole(program, ChipKind::V4, whole);
  ASSERT_FALSE(v4Whole.run());
  EXPECT_EQ(v4Whole.stats().cycles, 462u);
}

TEST(TimingTest, DmasQueueOnOneEngine) {
  // Two 1-tile DMAs back to back: the second starts when the first's
  // transfer ends (8 cycles on v4), not when it completes.
  Machine m({"s.li s1, 1", "dma.ld 0, s0, s0, s1, s1 ; s.li s2, 8",
             "dma.ld 1, s2, s1, s1, s1", "dma.wait 1, 1", "dma.wait 0, 1",
             "halt"});
  ASSERT_FALSE(m.run());
  // first: 1..9, done 109; second: 9..17, done 117; wait 1 @117, wait 0
  // @118, halt @119.
  EXPECT_EQ(m.stats().cycles, 120u);
}

TEST(TimingTest, TransposesHoldTheXluForSixteenCycles) {
  // v.xpose @0 occupies the XLU until 16: a lane reduction on registers it
  // does not touch waits for the unit; a v.add on the VPU does not.
  Machine m({"v.xpose v16, v0", "v.add v1, v2, v3", "v.rsum v5, v4",
             "halt"});
  ASSERT_FALSE(m.run());
  // xpose @0, add @1, rsum @16 (14 unit-busy stall cycles).
  EXPECT_EQ(m.stats().stallCycles.at("unit-busy"), 14u);
  EXPECT_EQ(m.stats().unitBusyCycles.at("vpu"), 3u);
}

TEST(TimingTest, LatenciesAndBranches) {
  // v.add has latency 2: the dependent v.mul waits one cycle. A taken branch
  // costs one cycle.
  Machine m({"v.add v1, v0, v0", "v.mul v2, v1, v1", "jmp b3", "halt"});
  ASSERT_FALSE(m.run());
  // v.add @0, v.mul @2, jmp @3, halt @5.
  EXPECT_EQ(m.stats().cycles, 6u);
  EXPECT_EQ(m.stats().stallCycles.at("vector-dependency"), 1u);
  EXPECT_EQ(m.stats().stallCycles.at("branch"), 1u);
  EXPECT_EQ(m.stats().bundles, 4u);

  Machine scalar({"s.ld s1, s0, 0", "s.addi s2, s1, 1", "halt"});
  ASSERT_FALSE(scalar.run());
  // s.ld latency 2: s.addi @2, halt @3.
  EXPECT_EQ(scalar.stats().cycles, 4u);
  EXPECT_EQ(scalar.stats().stallCycles.at("scalar-dependency"), 1u);
}

TEST(TimingTest, HaltWithADmaNotWaitedForTraps) {
  // Still in flight at halt.
  Machine inFlight({"s.li s1, 1", "dma.ld 0, s0, s0, s1, s1", "halt"});
  std::optional<Trap> trap = inFlight.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::DmaOutstanding);
  EXPECT_EQ(trap->pc, 2);
  EXPECT_EQ(trap->reason,
            "halt with 1 DMA(s) on semaphore 0 not waited for (the last "
            "issued at b1); wait for every DMA (dma.wait 0, 1) before halt");
  // Completed long ago, but never counted off its semaphore.
  Machine done({"s.li s1, 1 ; s.li s2, 8", "dma.ld 3, s0, s0, s1, s1",
                "dma.ld 3, s2, s1, s1, s1", "dma.wait 3, 1", "halt"});
  trap = done.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::DmaOutstanding);
  EXPECT_NE(trap->reason.find("1 DMA(s) on semaphore 3"), std::string::npos);
}

TEST(TimingTest, UtilizationAndPaddingEfficiency) {
  Stats stats;
  stats.cycles = 1000;
  stats.numMxus = 4;
  stats.mxuMacsUseful = 16384 * 1000;
  stats.mxuF32MacsUseful = 16384 * 1000 / 6; // HIGHEST: six passes each
  stats.mxuMacsIssued = 16384 * 2000;
  EXPECT_EQ(stats.checkUsefulMacs(), "");
  EXPECT_DOUBLE_EQ(*stats.mxuUtilization(), 0.25);
  EXPECT_DOUBLE_EQ(*stats.mxuUtilizationF32(),
                   0.25 * double(16384 * 1000 / 6) / (16384 * 1000));
  EXPECT_DOUBLE_EQ(*stats.paddingEfficiency(), 0.5);
}

TEST(TimingTest, ClaimsTheRunContradictsAreWithheld) {
  Stats stats;
  stats.cycles = 1000;
  stats.numMxus = 4;
  stats.mxuMacsIssued = 16384;
  stats.mxuMacsUseful = 16384 * 7; // a hand-edited binary
  EXPECT_NE(stats.checkUsefulMacs().find("claims 114688 useful MXU MACs but "
                                         "the run issued 16384"),
            std::string::npos);
  EXPECT_FALSE(stats.mxuUtilization());
  EXPECT_FALSE(stats.mxuUtilizationF32());
  EXPECT_FALSE(stats.paddingEfficiency());
  EXPECT_NE(stats.toJson().find("\"mxu_utilization\": null"),
            std::string::npos);
  stats.mxuMacsUseful = 16384;
  stats.mxuF32MacsUseful = 16385;
  EXPECT_NE(stats.checkUsefulMacs().find("more than its 16384 useful"),
            std::string::npos);
}

TEST(TimingTest, RunsAreDeterministic) {
  std::vector<std::string> program = {
      "s.li s1, 64 ; s.li s2, 8",
      "mxu.ldw 0, s1, s2",
      "mxu.latch 0",
      "mxu.push 0, v0, s0, 0",
      "s.li s3, 1",
      "dma.st 0, s0, s0, s3, s3 ; mxu.pop v1, 0, s0",
      "dma.wait 0, 1",
      "halt"};
  Machine a(program), b(program);
  ASSERT_FALSE(a.run());
  ASSERT_FALSE(b.run());
  Stats sa = a.stats(), sb = b.stats();
  sa.hostSeconds = sb.hostSeconds = 0;
  EXPECT_EQ(sa.toJson(), sb.toJson());
}

} // namespace
