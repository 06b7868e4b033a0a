// Runs past the last bundle.
module attributes {tpu.chip = #tpu.chip<v2>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      inst nop
    }
  }
}
