#!/usr/bin/python3
"""The performance sweep: writes the measured part of docs/Performance.md.

Compiles and simulates square matmuls (256 to 4096) and the issue's odd
shapes at every precision on every chip, the four examples, and
examples/matmul.mlir; times the simulator against single-threaded OpenBLAS
(tpu-sim-bench); then rewrites the text between the "sweep:begin" and
"sweep:end" markers of docs/Performance.md (the targets, the tables) and
the plots in docs/performance/. Every simulated figure is deterministic for
a given build; only the host times vary from run to run.

No figure is published from a wrong result: every matmul's and example's
result must be the same bits on every chip (the numerics do not depend on
the chip, docs/Numerics.md, while the plans do), and every matmul of at
most 2^30 MACs must match tpu-ref's model bit for bit (larger ones take
the model minutes; the chips' agreement checks them).

    bench/sweep.py [--quick]    (--quick: squares up to 1024 only)

Needs the Release build (TPU_BUILD_DIR, default build/), tpu-sim-bench
(libbenchmark-dev, libopenblas-dev) and matplotlib (python3-matplotlib).
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / os.environ.get("TPU_BUILD_DIR", "build") / "bin"
PAGE = ROOT / "docs" / "Performance.md"
PLOTS = ROOT / "docs" / "performance"
CHIPS = ["v2", "v3", "v4"]
PRECISIONS = ["default", "high", "highest"]
SQUARES = [256, 512, 1024, 2048, 4096]
SHAPES = [(1000, 1000, 1000), (4096, 128, 4096), (8, 4096, 4096)]
EXAMPLES = ["mlp", "attention", "transformer_block", "cnn"]
MXU_MACS_PER_CYCLE = 128 * 128
MIB = 1 << 20
# tpu-ref's model runs at about 150 M MACs a second at DEFAULT, 5x slower
# at HIGHEST: up to 1024^3 it adds a few minutes to the sweep.
MAX_REFERENCE_MACS = 1 << 30


def run(*args, **kwargs):
    return subprocess.run([str(a) for a in args], check=True, **kwargs)


def matmul_mlir(m, k, n):
    """The M x K x N f32 linalg.matmul, as bench/matmul-mlir.sh writes it."""
    return subprocess.run(
        ["bash", str(ROOT / "bench" / "matmul-mlir.sh"), str(m), str(k),
         str(n)], check=True, capture_output=True, text=True).stdout


class Sweep:
    def __init__(self, work):
        self.work = pathlib.Path(work)
        self.inputs = {}
        # (program, precision) -> (chip, result bytes) of the first chip.
        self.results = {}
        self.models = {}

    def random(self, shape, seed):
        key = (shape, seed)
        if key not in self.inputs:
            path = self.work / f"in-{shape}-{seed}.npy"
            run(BIN / "tpu-ref", "random", f"--shape={shape}", f"--seed={seed}",
                "-o", path)
            self.inputs[key] = path
        return self.inputs[key]

    def compile(self, source, chip, precision, tag):
        isa = self.work / f"{tag}.isa.mlir"
        tpu = self.work / f"{tag}.tpu"
        run(BIN / "tpu-opt", source,
            f"--tpu-compile=chip={chip} default-precision={precision}",
            "-o", isa)
        run(BIN / "tpu-translate", "--export-tpu-bin", isa, "-o", tpu)
        return tpu

    def simulate(self, tpu, inputs, tag):
        """Runs tpu-sim on two host threads (the same bits as one) and
        returns its statistics, with the peak RSS and the program's size."""
        stats = self.work / f"{tag}.json"
        rss = self.work / f"{tag}.rss"
        args = []
        for path in inputs:
            args += ["--input", path]
        run("/usr/bin/time", "-f", "%M", "-o", rss, BIN / "tpu-sim", tpu,
            "--quiet", "--threads=2", *args, "--output",
            self.work / f"{tag}.out.npy", "--stats", stats)
        result = json.loads(stats.read_text())
        result["peak_rss_bytes"] = int(rss.read_text().split()[-1]) * 1024
        result["program_bytes"] = tpu.stat().st_size
        return result

    def check_chips_agree(self, program, chip, precision, tag):
        """Fails the sweep unless `tag`'s result is the same bits as the
        first chip's for this program and precision."""
        result = (self.work / f"{tag}.out.npy").read_bytes()
        first = self.results.setdefault((program, precision), (chip, result))
        if first[1] != result:
            sys.exit(f"sweep.py: {program} at {precision} computes different "
                     f"bits on {chip} than on {first[0]}: a plan is wrong; "
                     "run the e2e tests (test/e2e/run-matmul.sh) on that "
                     "shape and chip")

    def check_model(self, m, k, n, a, b, precision, tag):
        """Fails the sweep unless `tag`'s result matches tpu-ref's model bit
        for bit (docs/Numerics.md)."""
        key = ((m, k, n), precision)
        if key not in self.models:
            self.models[key] = self.work / f"model-{m}x{k}x{n}-{precision}.npy"
            run(BIN / "tpu-ref", "matmul", a, b, f"--precision={precision}",
                "-o", self.models[key])
        compare = subprocess.run(
            [str(BIN / "tpu-ref"), "compare", str(self.work / f"{tag}.out.npy"),
             str(self.models[key])], capture_output=True, text=True)
        if compare.returncode != 0:
            sys.exit(f"sweep.py: {tag} does not match tpu-ref's model:\n"
                     f"{compare.stdout}{compare.stderr}")

    def matmul(self, m, k, n, chip, precision):
        tag = f"mm-{m}x{k}x{n}-{chip}-{precision}"
        source = self.work / f"{tag}.mlir"
        source.write_text(matmul_mlir(m, k, n))
        tpu = self.compile(source, chip, precision, tag)
        a = self.random(f"{m}x{k}", 1)
        b = self.random(f"{k}x{n}", 2)
        stats = self.simulate(tpu, [a, b], tag)
        self.check_chips_agree(f"{m}x{k}x{n}", chip, precision, tag)
        if m * k * n <= MAX_REFERENCE_MACS:
            self.check_model(m, k, n, a, b, precision, tag)
        operand_bytes = 4 * (m * k + k * n + m * n)
        point = roofline(stats, operand_bytes)
        point.update(shape=(m, k, n), chip=chip, precision=precision,
                     operand_bytes=operand_bytes)
        return point


def roofline(stats, minimal_hbm_bytes, vpu=False):
    """The bound a program cannot beat: its useful MXU passes at the
    MXUs' peak, its inputs read and outputs written once at the core's HBM
    bandwidth, and (vpu=True) the VPU busy cycles the program has."""
    mxu = stats["mxu_macs_useful"] / (stats["mxus"] * MXU_MACS_PER_CYCLE)
    bytes_per_cycle = stats["hbm_peak_bytes_per_s"] / stats["clock_hz"]
    hbm = minimal_hbm_bytes / bytes_per_cycle
    terms = {"MXU": mxu, "HBM": hbm}
    if vpu:
        terms["VPU"] = stats["unit_busy_cycles"].get("vpu", 0)
    bound = max(terms, key=terms.get)
    return {
        "stats": stats,
        "cycles": stats["cycles"],
        "terms": terms,
        "roofline": terms[bound],
        "bound": bound,
        "efficiency": terms[bound] / stats["cycles"],
        "intensity": stats["mxu_macs_useful"] / minimal_hbm_bytes,
        "macs_per_cycle": stats["mxu_macs_useful"] / stats["cycles"],
        "bytes_per_cycle": bytes_per_cycle,
        "peak_macs_per_cycle": stats["mxus"] * MXU_MACS_PER_CYCLE,
    }


def npy_data_bytes(path):
    # The header is 128 bytes or a multiple; the data is what follows it.
    raw = path.read_bytes()
    header_len = int.from_bytes(raw[8:10], "little") + 10
    return len(raw) - header_len


def host_speed(sweep):
    """tpu-sim-bench on the 1024^3 DEFAULT v4 program: the simulation on
    one and two threads against OpenBLAS, medians of 5, in one process."""
    bench = BIN / "tpu-sim-bench"
    tag = "host-1024"
    source = sweep.work / f"{tag}.mlir"
    source.write_text(matmul_mlir(1024, 1024, 1024))
    tpu = sweep.compile(source, "v4", "default", tag)
    a = sweep.random("1024x1024", 1)
    b = sweep.random("1024x1024", 2)
    out = sweep.work / "bench.json"
    run(bench, f"--program={tpu}", f"--input={a}", f"--input={b}",
        "--benchmark_filter=Simulate|Sgemm", "--benchmark_repetitions=5",
        "--benchmark_report_aggregates_only=true",
        f"--benchmark_out={out}", "--benchmark_out_format=json",
        stdout=subprocess.DEVNULL)
    rows = {b["run_name"]: b["real_time"]
            for b in json.loads(out.read_text())["benchmarks"]
            if b.get("aggregate_name") == "median"}
    sgemm = next(v for k, v in rows.items() if k.startswith("Sgemm/"))
    one = next(v for k, v in rows.items() if "threads:1" in k)
    two = next(v for k, v in rows.items() if "threads:2" in k)
    return {"sgemm_ms": sgemm, "one_ms": one, "two_ms": two}


def fmt(value, digits=3):
    return f"{value:.{digits}f}"


def mark(ok):
    return "met" if ok else "**not met**"


def write_page(squares, shapes, examples, demo, host):
    find = lambda pts, shape, chip, prec: next(
        (p for p in pts if p["shape"] == shape and p["chip"] == chip
         and p["precision"] == prec), None)
    everything = squares + shapes
    lines = []
    add = lines.append

    # The targets.
    add("### Targets\n")
    add("| target | measured | goal | |")
    add("|---|---|---|---|")
    for chip in CHIPS:
        p = find(squares, (2048,) * 3, chip, "default")
        if p is None:
            continue
        add(f"| 2048^3 DEFAULT {chip}: roofline efficiency | {fmt(p['efficiency'])} "
            f"({p['cycles']:,} cycles, bound {p['roofline']:,.0f}, {p['bound']}) "
            f"| >= 0.90 | {mark(p['efficiency'] >= 0.90)} |")
    p = find(squares, (2048,) * 3, "v4", "default")
    if p is not None:
        us = p["stats"]["time_us"]
        add(f"| 2048^3 DEFAULT v4: simulated time on one core | {us:.1f} us | "
            f"< 141.7 us (a whole real v4 chip) | {mark(us < 141.7)} |")
    p = find(squares, (4096,) * 3, "v4", "default")
    if p is not None:
        add(f"| 4096^3 DEFAULT v4: roofline efficiency | {fmt(p['efficiency'])} | "
            f">= 0.93 | {mark(p['efficiency'] >= 0.93)} |")
    for shape in SHAPES:
        worst = min((q for q in shapes if q["shape"] == shape),
                    key=lambda q: q["efficiency"])
        name = "x".join(map(str, shape))
        add(f"| {name}, worst of every chip and precision | "
            f"{fmt(worst['efficiency'])} ({worst['chip']} {worst['precision']}) "
            f"| >= 0.80 | {mark(worst['efficiency'] >= 0.80)} |")
    ratio = demo["highest"] / demo["default"]
    add(f"| examples/matmul.mlir v4: HBM bytes, HIGHEST / DEFAULT | "
        f"{fmt(ratio, 2)} ({demo['highest']:,} / {demo['default']:,}) | "
        f"<= 1.2 | {mark(ratio <= 1.2)} |")
    big = max(SQUARES)
    worst_size = max(
        (find(squares, (big,) * 3, c, pr)["stats"]["program_bytes"]
         / find(squares, (256,) * 3, c, pr)["stats"]["program_bytes"], c, pr)
        for c in CHIPS for pr in PRECISIONS)
    add(f"| program bytes, {big}^3 / 256^3, worst | {fmt(worst_size[0], 2)} "
        f"({worst_size[1]} {worst_size[2]}) | <= 1.5 | "
        f"{mark(worst_size[0] <= 1.5)} |")
    for prec, passes, cap in (("high", 3, 3.1), ("highest", 6, 6.2)):
        worst_passes, worst_cycles = None, None
        for chip in CHIPS:
            for size in (s for s in SQUARES if s >= 1024):
                d = find(squares, (size,) * 3, chip, "default")
                h = find(squares, (size,) * 3, chip, prec)
                pr = (h["stats"]["instruction_mix"]["mxu.push"]
                      / d["stats"]["instruction_mix"]["mxu.push"])
                cr = h["cycles"] / d["cycles"]
                if worst_passes is None or abs(pr - passes) > abs(worst_passes[0] - passes):
                    worst_passes = (pr, chip, size)
                if worst_cycles is None or cr > worst_cycles[0]:
                    worst_cycles = (cr, chip, size)
        add(f"| {prec.upper()} / DEFAULT MXU passes, squares >= 1024 | "
            f"{fmt(worst_passes[0], 3)} (furthest: {worst_passes[1]} "
            f"{worst_passes[2]}^3) | exactly {passes} | "
            f"{mark(abs(worst_passes[0] - passes) < 1e-9)} |")
        add(f"| {prec.upper()} / DEFAULT cycles, squares >= 1024, worst | "
            f"{fmt(worst_cycles[0], 2)} ({worst_cycles[1]} {worst_cycles[2]}^3) "
            f"| <= {cap} | {mark(worst_cycles[0] <= cap)} |")
    worst_rss = max(everything, key=lambda q: q["stats"]["peak_rss_bytes"]
                    / (3 * q["operand_bytes"] + 64 * MIB))
    limit = 3 * worst_rss["operand_bytes"] + 64 * MIB
    add(f"| tpu-sim peak RSS / (3 x A, B and C + 64 MiB), worst | "
        f"{fmt(worst_rss['stats']['peak_rss_bytes'] / limit, 2)} "
        f"({worst_rss['stats']['peak_rss_bytes'] / MIB:.0f} MiB, "
        f"{'x'.join(map(str, worst_rss['shape']))} {worst_rss['chip']} "
        f"{worst_rss['precision']}) | <= 1 | "
        f"{mark(worst_rss['stats']['peak_rss_bytes'] <= limit)} |")
    one = host["one_ms"] / host["sgemm_ms"]
    two = host["two_ms"] / host["sgemm_ms"]
    add(f"| tpu-sim host time / OpenBLAS sgemm (1 thread), 1024^3 DEFAULT v4, "
        f"one thread | {fmt(one, 2)} ({host['one_ms']:.1f} / "
        f"{host['sgemm_ms']:.1f} ms) | <= 2.0 | {mark(one <= 2.0)} |")
    add(f"| the same, tpu-sim on two threads | {fmt(two, 2)} "
        f"({host['two_ms']:.1f} ms) | <= 1.2 | {mark(two <= 1.2)} |")
    for e in examples:
        if e["name"] in ("mlp", "transformer_block"):
            add(f"| {e['name']} {e['chip']} {e['precision']}: efficiency "
                f"against MXU, HBM and the VPU's busy cycles | "
                f"{fmt(e['efficiency'])} (bound: {e['bound']}) | >= 0.70 | "
                f"{mark(e['efficiency'] >= 0.70)} |")

    # The squares and the shapes.
    add("\n### Matmuls\n")
    add("f32 inputs; efficiency = roofline cycles / simulated cycles, with "
        "the roofline the larger of the MXU term (useful passes' MACs / "
        "(MXUs x 16384)) and the HBM term (A and B read once, C written "
        "once, at the core's share of the bandwidth).\n")
    add("| M x K x N | chip | precision | cycles | MXU term | HBM term | "
        "bound | efficiency | MXU passes | program bytes | peak RSS |")
    add("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for p in everything:
        add(f"| {'x'.join(map(str, p['shape']))} | {p['chip']} | "
            f"{p['precision']} | {p['cycles']:,} | {p['terms']['MXU']:,.0f} | "
            f"{p['terms']['HBM']:,.0f} | {p['bound']} | {fmt(p['efficiency'])} "
            f"| {p['stats']['instruction_mix'].get('mxu.push', 0):,} | "
            f"{p['stats']['program_bytes']:,} | "
            f"{p['stats']['peak_rss_bytes'] / MIB:.0f} MiB |")

    add("\n### Examples\n")
    add("The HBM term counts the example's arguments and results once; the "
        "VPU term is the VPU busy cycles of the compiled program itself, so "
        "it is only as strict as the program's VPU work is lean "
        "(\"Reading the figures\", above).\n")
    add("| example | chip | precision | cycles | MXU term | HBM term | "
        "VPU term | bound | efficiency | without the VPU term |")
    add("|---|---|---|---:|---:|---:|---:|---|---:|---:|")
    for e in examples:
        add(f"| {e['name']} | {e['chip']} | {e['precision']} | "
            f"{e['cycles']:,} | {e['terms']['MXU']:,.0f} | "
            f"{e['terms']['HBM']:,.0f} | {e['terms']['VPU']:,} | "
            f"{e['bound']} | {fmt(e['efficiency'])} | "
            f"{fmt(max(e['terms']['MXU'], e['terms']['HBM']) / e['cycles'])} |")
    add("\n![Roofline efficiency of square matmuls against size]"
        "(performance/efficiency.svg)\n")
    add("![Every benchmark on its chip's roofline](performance/roofline.svg)")

    text = PAGE.read_text()
    begin = text.index("<!-- sweep:begin -->")
    end = text.index("<!-- sweep:end -->")
    PAGE.write_text(text[:begin] + "<!-- sweep:begin -->\n" +
                    "\n".join(lines) + "\n" + text[end:])


def plot(squares, shapes, examples):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    matplotlib.rcParams["svg.hashsalt"] = "tpu-sweep"
    PLOTS.mkdir(exist_ok=True)

    def save(fig, axes, ylabel, name):
        axes[0].set_ylabel(ylabel)
        axes[0].legend()
        fig.tight_layout()
        # No date in the file: the same data gives the same bytes.
        fig.savefig(PLOTS / name, metadata={"Date": None})
        plt.close(fig)

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), sharey=True)
    for ax, chip in zip(axes, CHIPS):
        for prec in PRECISIONS:
            pts = sorted((p for p in squares if p["chip"] == chip
                          and p["precision"] == prec), key=lambda p: p["shape"])
            ax.plot([p["shape"][0] for p in pts],
                    [p["efficiency"] for p in pts], marker="o", label=prec)
        ax.set_xscale("log", base=2)
        ax.set_title(chip)
        ax.set_xlabel("N (N x N x N matmul)")
        ax.set_ylim(0, 1.05)
        ax.grid(alpha=0.3)
    save(fig, axes, "roofline efficiency", "efficiency.svg")

    fig, axes = plt.subplots(1, 3, figsize=(12, 4), sharey=True)
    for ax, chip in zip(axes, CHIPS):
        pts = [p for p in squares + shapes + examples if p["chip"] == chip]
        peak = pts[0]["peak_macs_per_cycle"]
        bpc = pts[0]["bytes_per_cycle"]
        xs = [2 ** (i / 4) for i in range(-8, 4 * 13)]
        ax.plot(xs, [min(peak, x * bpc) for x in xs], color="black", lw=1)
        for kind, group, m in (("square", squares, "o"), ("shape", shapes, "s"),
                               ("example", examples, "^")):
            sel = [p for p in group if p["chip"] == chip]
            ax.scatter([p["intensity"] for p in sel],
                       [p["macs_per_cycle"] for p in sel], marker=m, s=18,
                       label=kind)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_title(f"{chip}: {peak:,} MACs/cycle, {bpc:.0f} B/cycle")
        ax.set_xlabel("useful MACs per minimal HBM byte")
        ax.grid(alpha=0.3)
    save(fig, axes, "useful MACs per cycle", "roofline.svg")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="squares up to 1024 only (a check of the script)")
    options = parser.parse_args()
    global SQUARES
    if options.quick:
        SQUARES = [s for s in SQUARES if s <= 1024]
    with tempfile.TemporaryDirectory() as work:
        sweep = Sweep(work)
        squares, shapes, examples = [], [], []
        for chip in CHIPS:
            for prec in PRECISIONS:
                for size in SQUARES:
                    squares.append(sweep.matmul(size, size, size, chip, prec))
                    print(f"{size}^3 {chip} {prec}: "
                          f"{fmt(squares[-1]['efficiency'])}", file=sys.stderr)
                for m, k, n in SHAPES:
                    shapes.append(sweep.matmul(m, k, n, chip, prec))
        listing = subprocess.run(
            ["bash", ROOT / "bench" / "example-inputs.sh", work],
            check=True, capture_output=True, text=True,
            env=dict(os.environ, PATH=f"{BIN}:{os.environ['PATH']}")).stdout
        inputs = {line.split()[0]: line.split()[1:]
                  for line in listing.splitlines()}
        for chip in CHIPS:
            for prec in ("default", "highest"):
                for name in EXAMPLES:
                    tag = f"{name}-{chip}-{prec}"
                    tpu = sweep.compile(ROOT / "examples" / f"{name}.mlir",
                                        chip, prec, tag)
                    paths = [pathlib.Path(work) / name / f"{i}.npy"
                             for i in inputs[name]]
                    stats = sweep.simulate(tpu, paths, tag)
                    sweep.check_chips_agree(name, chip, prec, tag)
                    io = sum(npy_data_bytes(p) for p in paths) + \
                        npy_data_bytes(pathlib.Path(work) / f"{tag}.out.npy")
                    point = roofline(stats, io, vpu=True)
                    point.update(name=name, chip=chip, precision=prec)
                    examples.append(point)
        demo = {}
        a = sweep.random("7x300", 1)
        b = sweep.random("300x129", 2)
        for prec in ("default", "highest"):
            tpu = sweep.compile(ROOT / "examples" / "matmul.mlir", "v4", prec,
                                f"demo-{prec}")
            stats = sweep.simulate(tpu, [a, b], f"demo-{prec}")
            demo[prec] = stats["hbm_bytes_read"] + stats["hbm_bytes_written"]
        host = host_speed(sweep)
    write_page(squares, shapes, examples, demo, host)
    plot(squares, shapes, examples)
    print(f"wrote {PAGE.relative_to(ROOT)} and {PLOTS.relative_to(ROOT)}/",
          file=sys.stderr)


if __name__ == "__main__":
    main()
