//===- Binary.cpp - The .tpu binary format --------------------------------===//

#include "tpu/ISA/Binary.h"

#include <array>
#include <cstring>
#include <map>
#include <set>

namespace tpu::isa {

uint32_t crc32(const uint8_t *data, size_t size, uint32_t crc) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> entries{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t value = i;
      for (int bit = 0; bit < 8; ++bit)
        value = (value & 1) ? 0xEDB88320u ^ (value >> 1) : value >> 1;
      entries[i] = value;
    }
    return entries;
  }();
  crc ^= 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i)
    crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t computeBinaryChecksum(const std::vector<uint8_t> &bytes) {
  // The checksum field reads as zero while the checksum is computed.
  constexpr uint8_t kZeros[4] = {};
  constexpr size_t kAfterChecksum = kBinaryChecksumOffset + 4;
  uint32_t crc = crc32(bytes.data(), kBinaryChecksumOffset);
  crc = crc32(kZeros, 4, crc);
  return crc32(bytes.data() + kAfterChecksum, bytes.size() - kAfterChecksum,
               crc);
}

namespace {

class Writer {
public:
  std::vector<uint8_t> bytes;

  template <typename T> void put(T value) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T)); // The hosts we support are LE.
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
  void putString(const std::string &text) {
    put<uint32_t>(uint32_t(text.size()));
    bytes.insert(bytes.end(), text.begin(), text.end());
  }
  void putTensor(const TensorSignature &tensor) {
    putString(tensor.name);
    put<uint8_t>(uint8_t(tensor.elementType));
    put<uint8_t>(uint8_t(tensor.shape.size()));
    for (int64_t dim : tensor.shape)
      put<int64_t>(dim);
    put<uint32_t>(tensor.hbmTile);
  }
};

/// A bounds-checked cursor: every read names what it was reading, so a
/// truncated file says where it ends.
class Reader {
public:
  Reader(const std::vector<uint8_t> &bytes, size_t offset)
      : bytes(bytes), offset(offset) {}

  std::string error;
  bool failed() const { return !error.empty(); }
  size_t remaining() const { return bytes.size() - offset; }

  template <typename T> T get(const char *what) {
    T value{};
    if (failed())
      return value;
    if (remaining() < sizeof(T)) {
      error = std::string("truncated: the file ends at byte ") +
              std::to_string(bytes.size()) + " while reading " + what;
      return value;
    }
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    offset += sizeof(T);
    return value;
  }
  /// A count of items of at least `itemBytes` each: refuse counts the rest
  /// of the file cannot hold, before allocating for them.
  uint32_t getCount(const char *what, size_t itemBytes) {
    uint32_t count = get<uint32_t>(what);
    if (!failed() && uint64_t(count) * itemBytes > remaining())
      error = std::string("corrupt: ") + what + " is " + std::to_string(count) +
              ", more than the " + std::to_string(remaining()) +
              " remaining bytes can hold";
    return failed() ? 0 : count;
  }
  std::string getString(const char *what) {
    uint32_t length = getCount(what, 1);
    if (failed())
      return {};
    std::string text(reinterpret_cast<const char *>(bytes.data() + offset),
                     length);
    offset += length;
    return text;
  }
  TensorSignature getTensor() {
    TensorSignature tensor;
    tensor.name = getString("a tensor name");
    uint8_t type = get<uint8_t>("a tensor element type");
    std::optional<ElementType> elementType = lookupElementType(type);
    if (!failed() && !elementType)
      error = "corrupt: tensor '" + tensor.name + "' has element type code " +
              std::to_string(type) + " (known: " +
              describeElementTypeCodes() + ")";
    tensor.elementType = elementType.value_or(ElementType::F32);
    uint8_t rank = get<uint8_t>("a tensor rank");
    for (unsigned i = 0; i < rank && !failed(); ++i)
      tensor.shape.push_back(get<int64_t>("a tensor dimension"));
    tensor.hbmTile = get<uint32_t>("a tensor's HBM tile");
    return tensor;
  }

private:
  const std::vector<uint8_t> &bytes;
  size_t offset;
};

/// The debug section in its one form: the locations instructions name,
/// each once, in the order they first name them, then each instruction's
/// index into that list; nothing but two zero counts when none names one.
/// A location that names no op is no source op, and one without a file
/// has no line or column (as the reader requires).
void putDebugSection(Writer &out, const Program &program) {
  std::map<SourceLocation, uint32_t> renumbered;
  std::vector<SourceLocation> used;
  std::vector<uint32_t> sources;
  for (const Bundle &bundle : program.bundles)
    for (const Instruction &inst : bundle.instructions) {
      // An index past the list (which verifyProgram rejects) is written
      // as none rather than read past it.
      if (inst.source >= program.sourceLocations.size() ||
          program.sourceLocations[inst.source].opName.empty()) {
        sources.push_back(kNoSource);
        continue;
      }
      SourceLocation location = program.sourceLocations[inst.source];
      if (location.file.empty())
        location.line = location.column = 0;
      auto [it, inserted] = renumbered.emplace(location, uint32_t(used.size()));
      if (inserted)
        used.push_back(std::move(location));
      sources.push_back(it->second);
    }
  out.put<uint32_t>(uint32_t(used.size()));
  for (const SourceLocation &location : used) {
    out.putString(location.opName);
    out.putString(location.file);
    out.put<uint32_t>(location.line);
    out.put<uint32_t>(location.column);
  }
  if (used.empty())
    sources.clear();
  out.put<uint32_t>(uint32_t(sources.size()));
  for (uint32_t source : sources)
    out.put<uint32_t>(source);
}

/// Reads what putDebugSection writes into `program`, whose bundles are
/// decoded; refuses any other form, so that what loads re-encodes to the
/// same bytes.
std::string readDebugSection(Reader &in, Program &program) {
  uint32_t numLocations = in.getCount("the source location count", 16);
  std::set<SourceLocation> seen;
  for (uint32_t i = 0; i < numLocations && !in.failed(); ++i) {
    SourceLocation location;
    location.opName = in.getString("a source op name");
    location.file = in.getString("a source file name");
    location.line = in.get<uint32_t>("a source line");
    location.column = in.get<uint32_t>("a source column");
    if (!in.failed() && location.opName.empty())
      return "corrupt debug section: source location " + std::to_string(i) +
             " names no op";
    // A position without a file reads back as none (an unknown location).
    if (!in.failed() && location.file.empty() &&
        (location.line || location.column))
      return "corrupt debug section: source location " + std::to_string(i) +
             " has a line and column but no file";
    if (!in.failed() && !seen.insert(location).second)
      return "corrupt debug section: source location " + std::to_string(i) +
             " (" + location.describe() + ") is listed twice";
    program.sourceLocations.push_back(std::move(location));
  }
  size_t numInstructions = 0;
  for (const Bundle &bundle : program.bundles)
    numInstructions += bundle.instructions.size();
  uint32_t numSources = in.getCount("the instruction source count", 4);
  if (in.failed())
    return in.error;
  if (numSources != (numLocations ? numInstructions : 0))
    return "corrupt debug section: " + std::to_string(numSources) +
           " instruction sources for " + std::to_string(numInstructions) +
           " instructions and " + std::to_string(numLocations) +
           " source locations (want one per instruction, or none and no "
           "locations)";
  if (numSources == 0)
    return {};
  uint32_t nextNew = 0;
  size_t index = 0;
  for (Bundle &bundle : program.bundles)
    for (Instruction &inst : bundle.instructions) {
      uint32_t source = in.get<uint32_t>("an instruction source");
      if (in.failed())
        return in.error;
      if (source != kNoSource && source >= numLocations)
        return "corrupt debug section: instruction " + std::to_string(index) +
               " names source location " + std::to_string(source) +
               ", but the section lists " + std::to_string(numLocations);
      if (source != kNoSource && source > nextNew)
        return "corrupt debug section: instruction " + std::to_string(index) +
               " names source location " + std::to_string(source) +
               " before any names " + std::to_string(nextNew) +
               " (the list is in the order instructions first name them)";
      if (source == nextNew)
        ++nextNew;
      inst.source = source;
      ++index;
    }
  if (nextNew != numLocations)
    return "corrupt debug section: no instruction names source location " +
           std::to_string(nextNew) + " of " + std::to_string(numLocations);
  return {};
}

} // namespace

std::vector<uint8_t> writeBinary(const Program &program) {
  Writer payload;
  payload.put<uint64_t>(program.usefulMacs);
  payload.put<uint64_t>(program.usefulF32Macs);
  payload.putString(program.entry);
  payload.put<uint32_t>(uint32_t(program.arguments.size()));
  for (const TensorSignature &tensor : program.arguments)
    payload.putTensor(tensor);
  payload.put<uint32_t>(uint32_t(program.results.size()));
  for (const TensorSignature &tensor : program.results)
    payload.putTensor(tensor);
  payload.put<uint32_t>(uint32_t(program.constants.size()));
  for (const HbmConstant &constant : program.constants) {
    payload.put<uint32_t>(constant.hbmTile);
    payload.put<uint32_t>(uint32_t(constant.words.size()));
    for (uint32_t word : constant.words)
      payload.put<uint32_t>(word);
  }
  std::vector<uint64_t> code = encodeBundles(program.bundles);
  payload.put<uint32_t>(uint32_t(code.size()));
  for (uint64_t word : code)
    payload.put<uint64_t>(word);
  putDebugSection(payload, program);

  Writer file;
  file.bytes.insert(file.bytes.end(), kBinaryMagic, kBinaryMagic + 8);
  file.put<uint32_t>(kBinaryVersion);
  file.put<uint32_t>(uint32_t(program.chip));
  file.put<uint64_t>(payload.bytes.size());
  file.put<uint32_t>(0); // checksum, filled in below
  file.bytes.insert(file.bytes.end(), payload.bytes.begin(),
                    payload.bytes.end());
  uint32_t checksum = computeBinaryChecksum(file.bytes);
  std::memcpy(file.bytes.data() + kBinaryChecksumOffset, &checksum, 4);
  return file.bytes;
}

absl::StatusOr<Program> readBinary(const std::vector<uint8_t> &bytes) {
  auto fail = [](std::string message) {
    return absl::InvalidArgumentError(std::move(message));
  };
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kBinaryMagic, 8) != 0) {
    return fail(
        "not a TPU binary: it does not start with the magic \"TPU-BIN\\n\" "
        "(produce one with tpu-translate --export-tpu-bin)");
  }
  Reader header(bytes, 8);
  uint32_t version = header.get<uint32_t>("the format version");
  if (!header.failed() && version != kBinaryVersion) {
    std::string why =
        version < kBinaryVersionWithLatch && version >= 3
            ? " (its mxu.ldw latched the weights by itself; since version " +
                  std::to_string(kBinaryVersionWithLatch) +
                  " an mxu.latch does)"
            : "";
    return fail("unsupported binary format version " + std::to_string(version) +
                why + "; this tool reads version " +
                std::to_string(kBinaryVersion) +
                " (rebuild the binary from its MLIR with this tpu-translate)");
  }
  uint32_t chip = header.get<uint32_t>("the chip");
  uint64_t payloadBytes = header.get<uint64_t>("the payload length");
  uint32_t storedChecksum = header.get<uint32_t>("the checksum");
  if (header.failed()) {
    return fail(header.error);
  }
  if (payloadBytes != bytes.size() - kBinaryHeaderBytes) {
    return fail("truncated or padded: the header promises " +
                std::to_string(payloadBytes) +
                " payload bytes but the file has " +
                std::to_string(bytes.size() - kBinaryHeaderBytes));
  }
  uint32_t checksum = computeBinaryChecksum(bytes);
  if (checksum != storedChecksum) {
    char text[96];
    std::snprintf(text, sizeof(text),
                  "checksum mismatch (stored 0x%08x, computed 0x%08x)",
                  storedChecksum, checksum);
    return fail(std::string("corrupt: ") + text);
  }

  if (chip >= kNumChips) {
    return fail("corrupt: unknown chip code " + std::to_string(chip) +
                " (this tool knows " + listChipNames() + ")");
  }
  Reader in(bytes, kBinaryHeaderBytes);
  Program program;
  program.chip = ChipKind(chip);
  program.usefulMacs = in.get<uint64_t>("the useful MAC count");
  program.usefulF32Macs = in.get<uint64_t>("the useful f32 MAC count");
  program.entry = in.getString("the entry name");
  uint32_t numArguments = in.getCount("the argument count", 10);
  for (uint32_t i = 0; i < numArguments && !in.failed(); ++i)
    program.arguments.push_back(in.getTensor());
  uint32_t numResults = in.getCount("the result count", 10);
  for (uint32_t i = 0; i < numResults && !in.failed(); ++i)
    program.results.push_back(in.getTensor());
  uint32_t numConstants = in.getCount("the constant count", 8);
  for (uint32_t i = 0; i < numConstants && !in.failed(); ++i) {
    HbmConstant constant;
    constant.hbmTile = in.get<uint32_t>("a constant's HBM tile");
    uint32_t numWords = in.getCount("a constant's word count", 4);
    constant.words.reserve(numWords);
    for (uint32_t w = 0; w < numWords && !in.failed(); ++w)
      constant.words.push_back(in.get<uint32_t>("constant data"));
    program.constants.push_back(std::move(constant));
  }
  uint32_t numWords = in.getCount("the code word count", 8);
  std::vector<uint64_t> code;
  code.reserve(numWords);
  for (uint32_t i = 0; i < numWords && !in.failed(); ++i)
    code.push_back(in.get<uint64_t>("code"));
  if (in.failed()) {
    return fail(in.error);
  }
  absl::StatusOr<std::vector<Bundle>> bundles = decodeBundles(code);
  if (!bundles.ok())
    return fail("invalid code: " + std::string(bundles.status().message()));
  program.bundles = *std::move(bundles);
  if (std::string error = readDebugSection(in, program); !error.empty())
    return fail(error);
  if (in.remaining() != 0) {
    return fail("corrupt: " + std::to_string(in.remaining()) +
                " bytes follow the debug section");
  }
  if (absl::Status status = verifyProgram(program); !status.ok())
    return fail("invalid program: " + std::string(status.message()));
  return program;
}

} // namespace tpu::isa
