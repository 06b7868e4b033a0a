module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
      results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>]} {
    bundle {
      inst s.li s1, 1
      inst s.li s2, 1
    }
    bundle {
      inst dma.ld 0, s0, s0, s1, s1
    }
    bundle {
      inst dma.wait 0, 1
    }
    bundle {
      inst v.ld v0, s0, 0, s1, 0xff
    }
    bundle {
      inst v.add v1, v0, v0
    }
    bundle {
      inst v.st v1, s0, 8, s1, 0xff
      inst s.li s3, 8
    }
    bundle {
      inst dma.st 1, s1, s3, s1, s1
    }
    bundle {
      inst dma.wait 1, 1
    }
    bundle {
      inst halt
    }
  }
}
