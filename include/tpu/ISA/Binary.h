//===- Binary.h - The .tpu binary format ------------------------*- C++ -*-===//
//
// Little-endian throughout:
//
//   offset  size  field
//   0       8     magic "TPU-BIN\n"
//   8       4     format version (kBinaryVersion)
//   12      4     chip (index in the chip table: 0 = v2, 1 = v3, 2 = v4)
//   16      8     payload length in bytes (the file size minus 28)
//   24      4     CRC-32 (IEEE) of every other byte of the file
//   28      ...   payload:
//                   u64 useful MACs, u64 useful f32 MACs, str entry name,
//                   u32 #arguments, tensors; u32 #results, tensors;
//                   u32 #constants, each: u32 HBM tile, u32 #words, words;
//                   u32 #code words, each u64 (see ISA.h);
//                   the debug section:
//                   u32 #source locations, each: str op name, str file,
//                     u32 line, u32 column;
//                   u32 #instruction sources (0, or one per code word),
//                     each u32: an index into the locations, or
//                     0xFFFFFFFF for none
//   a tensor:  str name, u8 element type, u8 rank, i64 dims[rank],
//              u32 HBM tile
//   a str:     u32 length, bytes
//
// docs/ISA.md describes the format for readers of the binary.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_ISA_BINARY_H
#define TPU_ISA_BINARY_H

#include "tpu/ISA/Program.h"

#include "absl/status/statusor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tpu::isa {

inline constexpr char kBinaryMagic[8] = {'T', 'P', 'U', '-',
                                         'B', 'I', 'N', '\n'};
/// Version 5 made the weight latch its own instruction (mxu.latch): in
/// versions 3 and 4 an mxu.ldw latched its weights by itself, so their
/// code means something else now and they are refused, with the fix
/// (rebuild) in the message.
inline constexpr uint32_t kBinaryVersion = 5;
/// The first version whose mxu.ldw only stages weights.
inline constexpr uint32_t kBinaryVersionWithLatch = 5;
inline constexpr size_t kBinaryHeaderBytes = 28;
inline constexpr size_t kBinaryChecksumOffset = 24;

/// The CRC-32 a binary's header should hold: over every byte of `bytes`
/// except the four of the checksum field. `bytes` holds at least a header.
uint32_t computeBinaryChecksum(const std::vector<uint8_t> &bytes);

/// CRC-32 (IEEE 802.3, as zlib computes it) of `size` bytes, continuing
/// from `crc` (the CRC of the bytes before them; 0 to start).
uint32_t crc32(const uint8_t *data, size_t size, uint32_t crc = 0);

std::vector<uint8_t> writeBinary(const Program &program);

/// Parses and validates a binary (format, checksum, code, debug section,
/// verifyProgram).
/// A failure's message is a sentence that says what is wrong with the file.
absl::StatusOr<Program> readBinary(const std::vector<uint8_t> &bytes);

} // namespace tpu::isa

#endif // TPU_ISA_BINARY_H
