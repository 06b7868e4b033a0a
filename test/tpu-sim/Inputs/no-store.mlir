// Declares a result and never stores it.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
      results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>]} {
    bundle {
      inst halt
    }
  }
}
