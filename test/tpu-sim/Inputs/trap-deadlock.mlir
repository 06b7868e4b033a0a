// Waits for two DMAs when only one was issued.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      inst s.li s1, 1
    }
    bundle {
      inst dma.ld 3, s0, s0, s1, s1
    }
    bundle {
      inst dma.wait 3, 2
    }
    bundle {
      inst halt
    }
  }
}
