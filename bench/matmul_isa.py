#!/usr/bin/env python3
"""Writes a hand-scheduled DEFAULT-precision matmul as tpu_isa MLIR.

C[M, N] = A[M, K] x B[K, N], f32 in HBM, for the simulator's benchmarks
(docs/Performance.md). Loops over 1024-row chunks of M, blocks of 128 * MXUs
columns of N and 128-deep tiles of K are scalar-unit branches, so the program
has the same size for every matrix size. M must be a multiple of 1024, N of
128 * MXUs and K of 128. Each MXU takes one 128-column block: per K tile the
program DMAs a column of A tiles and one weight block per MXU, latches the
weights, then pushes every 8-row block of A to every MXU, accumulating in
result slots; at the end of K it pops, stores and DMAs the C tiles out.

  matmul_isa.py M N K [--chip v4] > matmul.mlir
"""
import argparse

MXUS = {"v2": 1, "v3": 2, "v4": 4}


class Program:
    def __init__(self):
        self.bundles = []  # (label or None, [instructions])
        self.labels = {}

    def label(self, name):
        self.labels[name] = len(self.bundles)

    def bundle(self, *insts):
        self.bundles.append(list(insts))

    def render(self):
        out = []
        for insts in self.bundles:
            out.append("    bundle {")
            for inst in insts:
                for name, index in self.labels.items():
                    inst = inst.replace("@" + name, "b%d" % index)
                out.append("      inst " + inst)
            out.append("    }")
        return "\n".join(out)


def generate(m, n, k, chip):
    mxus = MXUS[chip]
    assert m % 1024 == 0 and n % (128 * mxus) == 0 and k % 128 == 0
    a_base, b_base = 0, (m // 8) * (k // 128)
    c_base = b_base + (k // 8) * (n // 128)
    p = Program()
    # Constants: s1 = 1, s2 = 8, s20 = M/8, s21 = K/128, s22 = N/128,
    # s23 = A's column tiles, s24 = B's and C's column tiles, s26 = B, s27 = C.
    p.bundle("s.li s1, 1", "s.li s2, 8")
    p.bundle("s.li s20, %d" % (m // 8), "s.li s21, %d" % (k // 128))
    p.bundle("s.li s22, %d" % (n // 128), "s.li s23, %d" % (k // 128))
    p.bundle("s.li s24, %d" % (n // 128), "s.li s26, %d" % b_base)
    p.bundle("s.li s27, %d" % c_base, "s.li s3, 0")              # s3: chunk
    p.bundle("s.li s15, 128", "s.li s16, 16")
    p.bundle("s.li s14, 1024", "s.li s17, 2048")
    p.label("chunk")
    p.bundle("s.li s4, 0")                                        # s4: nb
    p.label("nblock")
    p.bundle("s.li s5, 0")                                        # s5: kb
    p.label("ktile")
    # A: tiles (s3 + i, s5) for i < 128, into VMEM rows 0..1023.
    p.bundle("s.mul s6, s3, s23")
    p.bundle("s.add s6, s6, s5")
    p.bundle("dma.ld 0, s0, s6, s15, s23", "s.mul s8, s5, s16")
    # B: block (s5, s4 + mxu), 16 tiles down a column, into rows 1024 + 128 mxu.
    p.bundle("s.mul s8, s8, s24")
    p.bundle("s.add s8, s8, s26")
    p.bundle("s.add s8, s8, s4")
    for mx in range(mxus):
        p.bundle("s.addi s9, s8, %d" % mx, "s.li s10, %d" % (1024 + 128 * mx))
        p.bundle("dma.ld 0, s10, s9, s16, s24")
    p.bundle("dma.wait 0, %d" % (1 + mxus))
    for mx in range(mxus):
        p.bundle("s.li s10, %d" % (1024 + 128 * mx))
        p.bundle("mxu.ldw %d, s10, s2" % mx)
    for mx in range(mxus):
        p.bundle("mxu.latch %d" % mx)
    p.bundle("s.li s12, 0", "s.li s13, 0")
    p.bundle("br.ne s5, s0, @accumulate")
    for flag, name in ((0, "overwrite"), (1, "accumulate")):
        p.label(name)
        p.bundle("v.ld v0, s12, 0, s1, 0xff")
        for mx in range(mxus):
            extra = ["s.addi s12, s12, 8"] if mx == 0 else []
            p.bundle("mxu.push %d, v0, s13, %d" % (mx, flag), *extra)
        p.bundle("s.addi s13, s13, 1")
        p.bundle("br.lt s12, s14, @%s" % name)
        if flag == 0:
            p.bundle("jmp @kdone")
    p.label("kdone")
    p.bundle("s.addi s5, s5, 1")
    p.bundle("br.lt s5, s21, @ktile")
    # Pop each MXU's 128 slots into VMEM rows 2048.., then DMA them to C
    # tiles (s3 + i, s4 + mxu).
    for mx in range(mxus):
        p.bundle("s.li s13, 0", "s.li s12, 2048")
        p.label("pop%d" % mx)
        p.bundle("mxu.pop v1, %d, s13" % mx)
        p.bundle("v.st v1, s12, 0, s1, 0xff", "s.addi s13, s13, 1",
                 "s.addi s12, s12, 8")
        p.bundle("br.lt s13, s15, @pop%d" % mx)
        p.bundle("s.mul s6, s3, s24")
        p.bundle("s.add s6, s6, s27")
        p.bundle("s.add s6, s6, s4")
        p.bundle("s.addi s6, s6, %d" % mx)
        p.bundle("dma.st 1, s6, s17, s15, s24")
        p.bundle("dma.wait 1, 1")
    p.bundle("s.addi s4, s4, %d" % mxus)
    p.bundle("br.lt s4, s22, @nblock")
    p.bundle("s.addi s3, s3, 128")
    p.bundle("br.lt s3, s20, @chunk")
    p.bundle("halt")
    return """module attributes {tpu.chip = #tpu.chip<%s>} {
  tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"a", tensor<%dx%dxf32>, hbm = %d>, #tpu_isa.tensor<"b", tensor<%dx%dxf32>, hbm = %d>], results = [#tpu_isa.tensor<"c", tensor<%dx%dxf32>, hbm = %d>], useful_macs = %d} {
%s
  }
}""" % (chip, m, k, a_base, k, n, b_base, m, n, c_base, m * n * k, p.render())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("m", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--chip", default="v4", choices=sorted(MXUS))
    args = parser.parse_args()
    print(generate(args.m, args.n, args.k, args.chip))


if __name__ == "__main__":
    main()
