// RUN: tpu-opt %s --tpu-bundle --verify-diagnostics

module {
  // expected-error @+1 {{tpu-bundle: bundle 0 reads a register another of its instructions writes; give tpu-bundle one instruction per bundle}}
  tpu_isa.program @main attributes {arguments = [], results = [], useful_macs = 0 : i64} {
    bundle {
      inst s.li s1, 7
      inst s.add s2, s1, s1
    }
    bundle {
      inst halt
    }
  }
}

