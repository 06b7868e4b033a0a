//===- StandaloneMain.cpp - Run a fuzz target without libFuzzer -----------===//
//
// For compilers without libFuzzer (and for CI): runs the target on each file
// named, then on `-runs=N` random mutations of them (byte flips, inserts,
// deletions, truncations), seeded by `-seed=S` so a run repeats exactly.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  uint64_t runs = 1000, seed = 1;
  std::vector<std::vector<uint8_t>> corpus;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "-runs=", 6) == 0) {
      runs = std::strtoull(argv[i] + 6, nullptr, 10);
      continue;
    }
    if (std::strncmp(argv[i], "-seed=", 6) == 0) {
      seed = std::strtoull(argv[i] + 6, nullptr, 10);
      continue;
    }
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "cannot read %s\n", argv[i]);
      return 1;
    }
    corpus.emplace_back(std::istreambuf_iterator<char>(file),
                        std::istreambuf_iterator<char>());
  }
  if (corpus.empty())
    corpus.emplace_back();
  for (const std::vector<uint8_t> &input : corpus)
    LLVMFuzzerTestOneInput(input.data(), input.size());
  std::mt19937_64 rng(seed);
  for (uint64_t run = 0; run < runs; ++run) {
    std::vector<uint8_t> input = corpus[rng() % corpus.size()];
    unsigned edits = 1 + rng() % 4;
    for (unsigned e = 0; e < edits; ++e) {
      size_t at = input.empty() ? 0 : rng() % input.size();
      switch (rng() % 5) {
      case 0:
      case 1:
        if (!input.empty())
          input[at] ^= uint8_t(1u << (rng() % 8));
        break;
      case 2:
        if (!input.empty())
          input[at] = uint8_t(rng());
        break;
      case 3:
        input.insert(input.begin() + at, uint8_t(rng()));
        break;
      case 4:
        input.resize(at);
        break;
      }
    }
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("%llu mutated inputs and %zu seeds ran without a crash\n",
              (unsigned long long)runs, corpus.size());
  return 0;
}
