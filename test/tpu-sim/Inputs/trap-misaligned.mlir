// DMA into VMEM must start on a tile (a multiple of 8 rows).
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      inst s.li s1, 1
      inst s.li s2, 4
    }
    bundle {
      inst dma.ld 0, s2, s0, s1, s1
    }
    bundle {
      inst halt
    }
  }
}
