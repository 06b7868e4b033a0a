// Where the 986 cycles go (v4: the core's half of the chip's HBM
// bandwidth, 571.4 bytes per cycle; DMA latency 100):
//   b1 @1: dma.ld A, 8 KiB = 15 cycles of transfer (1..16), done at 116.
//   b3 @3: dma.ld B, 128 KiB = 230 cycles, queued behind A (16..246), done 346.
//   b6: dma.wait stalls to 346 (340 cycles).  b7 @347: v.bcast, ready 349.
//   b8 @349 (1 cycle vector-dependency): push of zeros.
//   b9 @350: mxu.ldw stages the weights, shifted in after 128 cycles (478).
//   b10: mxu.latch waits for them to 478 (127 cycles mxu-weights).
//   b11 @479: push; its result is ready after 8 rows + 254 fill/drain.
//   b12 @480: br.lt taken, 1 cycle penalty.  b9 @482: second mxu.ldw, in 610.
//   b10 @610 (127 more mxu-weights).  b11 @611: last push, result ready
//        611+8+254 = 873. (Nothing to push meanwhile: the load is exposed.)
//   b12 @612 falls through; b13 pop waits for the result: 613..873 (260).
//   b14 @875 (pop latency 2: 1 cycle vector-dependency): v.st.
//   b15 @876: dma.st 4 KiB = 8 cycles, done 876+8+100 = 984.
//   b16: dma.wait to 984 (107; 447 dma-wait in all).  b17 @985: halt.
// Total 985 + 1 = 986. Issued MACs count the zero push: 3 x 131072.
// A = 8x256 (HBM tiles 0-1), B = 256x128 (tiles 2-33), C = 8x128 (tile 34).
// VMEM rows: A at 0..15, B at 64..319, C at 512. One MXU; K = two tiles of
// 128, walked by a loop; the result slot is zeroed by a push of zeros so the
// loop body can always accumulate.
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"a", tensor<8x256xf32>, hbm = 0>, #tpu_isa.tensor<"b", tensor<256x128xf32>, hbm = 2>], results = [#tpu_isa.tensor<"c", tensor<8x128xf32>, hbm = 34>], useful_macs = 262144} {
    bundle {  // b0 A: 2 tiles, stride 1
      inst s.li s1, 2
      inst s.li s2, 1
    }
    bundle {  // b1 A -> VMEM row 0
      inst dma.ld 0, s0, s0, s1, s2
      inst s.li s3, 64
      inst s.li s4, 2
    }
    bundle {  // b2 
      inst s.li s5, 32
    }
    bundle {  // b3 B -> VMEM row 64
      inst dma.ld 0, s3, s4, s5, s2
    }
    bundle {  // b4 s6: A row of the K tile
      inst s.li s6, 0
      inst s.li s7, 8
    }
    bundle {  // b5 loop end; result slot 0
      inst s.li s8, 16
      inst s.li s9, 0
    }
    bundle {  // b6 
      inst dma.wait 0, 2
    }
    bundle {  // b7 
      inst v.bcast v0, s0
    }
    bundle {  // b8 slot 0 = 0
      inst mxu.push 0, v0, s9, 0
    }
    bundle {  // b9 loop: weights, LHS rows
      inst mxu.ldw 0, s3, s7
      inst v.ld v1, s6, 0, s2, 0xff
    }
    bundle {  // b10 
      inst mxu.latch 0
    }
    bundle {  // b11 
      inst mxu.push 0, v1, s9, 1
      inst s.addi s6, s6, 8
      inst s.addi s3, s3, 128
    }
    bundle {  // b12 
      inst br.lt s6, s8, b9
    }
    bundle {  // b13 
      inst mxu.pop v2, 0, s9
      inst s.li s10, 512
      inst s.li s11, 34
    }
    bundle {  // b14 
      inst v.st v2, s10, 0, s2, 0xff
      inst s.li s12, 1
    }
    bundle {  // b15 C -> HBM tile 34
      inst dma.st 1, s11, s10, s12, s2
    }
    bundle {  // b16 
      inst dma.wait 1, 1
    }
    bundle {  // b17 
      inst halt
    }
  }
}
