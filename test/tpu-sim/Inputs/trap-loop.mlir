// Never halts.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      inst jmp b0
    }
  }
}
