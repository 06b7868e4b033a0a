// Target/Inputs/double.mlir (y = x + x, one tile) with source locations:
// the loads are "load" at m.py:1, the add and the store "add" at m.py:2
// (but for an s.li of "load" that leads the store's bundle), the halt
// "end" with no file position, and the first s.li names no op (an ISA
// file's own line is no source op).
module attributes {tpu.chip = #tpu.chip<v4>} {
  tpu_isa.program @main attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
      results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>]} {
    bundle {
      inst s.li s1, 1
      inst s.li s2, 1 loc("load"("m.py":1:1))
    }
    bundle {
      inst dma.ld 0, s0, s0, s1, s2 loc("load"("m.py":1:1))
    }
    bundle {
      inst dma.wait 0, 1 loc("load"("m.py":1:1))
    }
    bundle {
      inst v.ld v0, s0, 0, s1, 0xff loc("load"("m.py":1:1))
    }
    bundle {
      inst v.add v1, v0, v0 loc("add"("m.py":2:5))
    }
    bundle {
      inst s.li s3, 8 loc("load"("m.py":1:1))
      inst v.st v1, s0, 8, s1, 0xff loc("add"("m.py":2:5))
    }
    bundle {
      inst dma.st 1, s1, s3, s1, s1 loc("add"("m.py":2:5))
    }
    bundle {
      inst dma.wait 1, 1 loc("add"("m.py":2:5))
    }
    bundle {
      inst halt loc("end")
    }
  }
}
