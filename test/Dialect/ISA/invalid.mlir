// Every diagnostic of the tpu_isa dialect.
// RUN: tpu-opt %s -split-input-file -verify-diagnostics

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{unknown instruction 'v.frobnicate' (docs/ISA.md lists the instruction set)}}
    inst v.frobnicate v1, v2
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'v.add' operand #1: expected a vector register v0..v31, got 's2'}}
    inst v.add v1, s2, v3
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'s.addi' operand #2: '4294967296' is out of range: expected an integer in [-2147483648, 2147483647]}}
    inst s.addi s1, s2, 4294967296
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'br.eq' operand #2: expected a register, a bundle target or an integer}}
    inst br.eq s1, s2, @b0
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'tpu_isa.inst' op unknown instruction 'v.frob' (docs/ISA.md lists the instruction set)}}
    "tpu_isa.inst"() <{mnemonic = "v.frob", operands = array<i64>}> : () -> ()
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'tpu_isa.inst' op 'v.add' takes 3 operand(s), got 2}}
    "tpu_isa.inst"() <{mnemonic = "v.add", operands = array<i64: 1, 2>}> : () -> ()
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'tpu_isa.inst' op v.add operand #0 is 40; expected a vector register v0..v31}}
    "tpu_isa.inst"() <{mnemonic = "v.add", operands = array<i64: 40, 2, 3>}> : () -> ()
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  // expected-error @+1 {{'tpu_isa.bundle' op bundle has 3 Scalar-slot instructions; the limit is 2 (the Scalar slots take s.li, s.add}}
  bundle {
    inst s.li s1, 1
    inst s.li s2, 1
    inst s.li s3, 1
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  // expected-error @+1 {{'tpu_isa.bundle' op a bundle needs at least one instruction (use nop)}}
  bundle {
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'arith.constant' op cannot be in a tpu_isa.bundle; it holds only tpu_isa.inst ops}}
    %c = arith.constant 0 : i32
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  // expected-error @+1 {{'arith.constant' op cannot be in a tpu_isa.program; it holds only tpu_isa.hbm_data and tpu_isa.bundle ops}}
  %c = arith.constant 0 : i32
  bundle {
    inst halt
  }
}

// -----

// expected-error @+1 {{'tpu_isa.program' op needs at least one bundle (end it with halt)}}
tpu_isa.program @main attributes {arguments = [], results = []} {
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    inst halt
  }
  // expected-error @+1 {{'tpu_isa.hbm_data' op must come before the program's bundles}}
  hbm_data dense<1> : tensor<1xi32> at 0
}

// -----

module attributes {tpu.chip = #tpu.chip<v2>} {
  tpu_isa.program @main attributes {arguments = [], results = []} {
    bundle {
      // expected-error @+1 {{'tpu_isa.inst' op mxu.ldw uses MXU 1, but v2 has 1 MXU(s) per core (0..0)}}
      inst mxu.ldw 1, s1, s2
    }
    bundle {
      inst halt
    }
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  bundle {
    // expected-error @+1 {{'tpu_isa.inst' op jmp targets bundle b5, but the program has 1 bundles}}
    inst jmp b5
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  // expected-error @+1 {{'tpu_isa.hbm_data' op holds 32-bit words; got elements of type 'f64'}}
  hbm_data dense<1.0> : tensor<2xf64> at 0
  bundle {
    inst halt
  }
}

// -----

tpu_isa.program @main attributes {arguments = [], results = []} {
  // expected-error @+1 {{'tpu_isa.hbm_data' op HBM tile -1 is outside [0, 2^32)}}
  hbm_data dense<1> : tensor<2xi32> at -1
  bundle {
    inst halt
  }
}

// -----

"tpu_isa.program"() <{sym_name = "main", arguments = [], results = []}> ({
  // expected-error @+1 {{'tpu_isa.hbm_data' op needs a dense integer or float elements attribute, got}}
  "tpu_isa.hbm_data"() <{value = dense_resource<blob> : tensor<2xi32>, hbm_tile = 0 : i64}> : () -> ()
  "tpu_isa.bundle"() ({
    "tpu_isa.inst"() <{mnemonic = "halt", operands = array<i64>}> : () -> ()
  }) : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{tensor 'x' must have a static shape, got 'tensor<?x4xf32>'}}
tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"x", tensor<?x4xf32>, hbm = 0>], results = []} {
  bundle {
    inst halt
  }
}

// -----

// expected-error @+1 {{tensor 'x' must have f32, bf16 or i32 elements, got 'f16'}}
tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"x", tensor<4xf16>, hbm = 0>], results = []} {
  bundle {
    inst halt
  }
}

// -----

// expected-error @+1 {{tensor 'x' has HBM tile -3, outside [0, 2^32)}}
tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"x", tensor<4xf32>, hbm = -3>], results = []} {
  bundle {
    inst halt
  }
}
