// HIGH (bf16_3x) by hand: A = 8x256, B = 256x128, C = 8x128, one MXU.
// B is split on the VPU into hi (VMEM row +960) and lo = bf16(b - hi)
// (row +1984); A's two K tiles into v11/v12 (hi/lo, K tile 0) and v13/v14.
// Small terms lo*hi then hi*lo, K tile 0's then K tile 1's, accumulate in
// MXU slot 0; hi*hi in slot 1; C = FixNaN(slot 0) + slot 1 on the VPU. The
// inputs stay away from FLT_MAX, so the split's overflow guard is left out.
module attributes {tpu.chip = #tpu.chip<v2>} {
  tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"a", tensor<8x256xf32>, hbm = 0>, #tpu_isa.tensor<"b", tensor<256x128xf32>, hbm = 2>], results = [#tpu_isa.tensor<"c", tensor<8x128xf32>, hbm = 34>], useful_macs = 786432} {
    bundle {  // b0 
      inst s.li s1, 2
      inst s.li s2, 1
    }
    bundle {  // b1 
      inst dma.ld 0, s0, s0, s1, s2
      inst s.li s3, 64
      inst s.li s4, 2
    }
    bundle {  // b2 
      inst s.li s5, 32
    }
    bundle {  // b3 
      inst dma.ld 0, s3, s4, s5, s2
    }
    bundle {  // b4 
      inst s.li s20, 64
      inst s.li s21, 320
    }
    bundle {  // b5 
      inst dma.wait 0, 2
    }
    bundle {  // b6 split B, 8 rows a turn
      inst v.ld v1, s20, 0, s2, 0xff
    }
    bundle {  // b7 
      inst v.rne.bf16 v2, v1
    }
    bundle {  // b8 
      inst v.sub v3, v1, v2
    }
    bundle {  // b9 
      inst v.rne.bf16 v4, v3
    }
    bundle {  // b10 
      inst v.st v2, s20, 960, s2, 0xff
      inst v.st v4, s20, 1984, s2, 0xff
      inst s.addi s20, s20, 8
    }
    bundle {  // b11 
      inst br.lt s20, s21, b6
    }
    bundle {  // b12 split A
      inst v.ld v10, s0, 0, s2, 0xff
      inst v.ld v15, s0, 8, s2, 0xff
    }
    bundle {  // b13 
      inst v.rne.bf16 v11, v10
      inst v.rne.bf16 v13, v15
    }
    bundle {  // b14 
      inst v.sub v16, v10, v11
      inst v.sub v17, v15, v13
    }
    bundle {  // b15 
      inst v.rne.bf16 v12, v16
      inst v.rne.bf16 v14, v17
    }
    bundle {  // b16 B hi, K tile 0
      inst s.li s6, 1024
      inst s.li s7, 8
    }
    bundle {  // b17 B hi tile 1, B lo tile 0
      inst s.li s8, 1152
      inst s.li s9, 2048
    }
    bundle {  // b18 B lo tile 1; slot 0
      inst s.li s10, 2176
      inst s.li s11, 0
    }
    bundle {  // b19 slot 1
      inst s.li s12, 1
    }
    bundle {  // b20 K tile 0: lo*hi
      inst mxu.ldw 0, s6, s7
    }
    bundle {  // b21 
      inst mxu.latch 0
    }
    bundle {  // b22 
      inst mxu.push 0, v12, s11, 0
    }
    bundle {  // b23 hi*lo
      inst mxu.ldw 0, s9, s7
    }
    bundle {  // b24 
      inst mxu.latch 0
    }
    bundle {  // b25 
      inst mxu.push 0, v11, s11, 1
    }
    bundle {  // b26 K tile 1: lo*hi
      inst mxu.ldw 0, s8, s7
    }
    bundle {  // b27 
      inst mxu.latch 0
    }
    bundle {  // b28 
      inst mxu.push 0, v14, s11, 1
    }
    bundle {  // b29 hi*lo
      inst mxu.ldw 0, s10, s7
    }
    bundle {  // b30 
      inst mxu.latch 0
    }
    bundle {  // b31 
      inst mxu.push 0, v13, s11, 1
    }
    bundle {  // b32 hi*hi
      inst mxu.ldw 0, s6, s7
    }
    bundle {  // b33 
      inst mxu.latch 0
    }
    bundle {  // b34 
      inst mxu.push 0, v11, s12, 0
    }
    bundle {  // b35 
      inst mxu.ldw 0, s8, s7
    }
    bundle {  // b36 
      inst mxu.latch 0
    }
    bundle {  // b37 
      inst mxu.push 0, v13, s12, 1
    }
    bundle {  // b38 
      inst mxu.pop v20, 0, s11
    }
    bundle {  // b39 
      inst mxu.pop v21, 0, s12
      inst v.cmp.ne v22, v20, v20
      inst v.bcast v23, s0
    }
    bundle {  // b40 FixNaN
      inst v.sel v24, v22, v23, v20
    }
    bundle {  // b41 
      inst v.add v25, v24, v21
      inst s.li s13, 512
      inst s.li s14, 34
    }
    bundle {  // b42 
      inst v.st v25, s13, 0, s2, 0xff
      inst s.li s15, 1
    }
    bundle {  // b43 
      inst dma.st 1, s14, s13, s15, s2
    }
    bundle {  // b44 
      inst dma.wait 1, 1
    }
    bundle {  // b45 
      inst halt
    }
  }
}
