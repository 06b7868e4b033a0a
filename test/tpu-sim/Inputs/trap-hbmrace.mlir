// Stores tile 1 and loads it back one bundle later: the store may still be
// writing it.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
      results = []} {
    bundle {
      inst s.li s1, 1
      inst s.li s2, 8
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
      inst dma.ld 2, s2, s1, s1, s1
    }
    bundle {
      inst dma.wait 1, 1
    }
    bundle {
      inst dma.wait 2, 1
    }
    bundle {
      inst halt
    }
  }
}
