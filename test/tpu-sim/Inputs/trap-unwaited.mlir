// Halts with its result's store still in flight: the dma.wait is missing.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
      results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>]} {
    bundle {
      inst s.li s1, 1
    }
    bundle {
      inst dma.ld 0, s0, s0, s1, s1
    }
    bundle {
      inst dma.wait 0, 1
    }
    bundle {
      inst dma.st 1, s1, s0, s1, s1
    }
    bundle {
      inst halt
    }
  }
}
