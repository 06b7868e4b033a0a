"""Checks that a --stats file's profile adds up: the source ops' cycles to
the run's, their instructions to those issued, their stalls to each cause's
and their MXU, VPU and DMA busy cycles to the units'."""
import json
import sys

stats = json.load(open(sys.argv[1]))
profile = stats["profile"]


def total(key):
    return sum(entry[key] for entry in profile)


def check(what, got, want):
    if got != want:
        sys.exit(f"profile {what}: {got}, want {want}")


check("cycles", total("cycles"), stats["cycles"])
check("instructions", total("instructions"), stats["instructions"])
for cause, cycles in stats["stall_cycles"].items():
    check(f"{cause} stalls",
          sum(entry["stall_cycles"][cause] for entry in profile), cycles)
busy = stats["unit_busy_cycles"]
mxus = sum(v for k, v in busy.items()
           if k.startswith("mxu") and not k.endswith(".weights"))
check("mxu busy", total("mxu_busy_cycles"), mxus)
check("vpu busy", total("vpu_busy_cycles"), busy["vpu"])
check("dma busy", total("dma_busy_cycles"), busy["dma"])
print(f"{len(profile)} source ops; cycles, instructions, stalls and busy "
      "cycles add up")
