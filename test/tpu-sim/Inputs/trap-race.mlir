// Reads VMEM rows that a DMA is still writing: the wait is missing.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
      results = []} {
    bundle {
      inst s.li s1, 1
    }
    bundle {
      inst dma.ld 2, s0, s0, s1, s1
    }
    bundle {
      inst v.ld v0, s0, 0, s1, 0xff
    }
    bundle {
      inst halt
    }
  }
}
