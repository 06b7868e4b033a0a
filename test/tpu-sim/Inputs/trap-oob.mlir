// A vector load past the end of VMEM.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      inst s.li s1, 32767
      inst s.li s2, 1
    }
    bundle {
      inst v.ld v0, s1, 0, s2, 0x03
    }
    bundle {
      inst halt
    }
  }
}
