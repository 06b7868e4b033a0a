//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "tpu/Npy/Npy.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include <cstring>
#include <fstream>

namespace tpu {

using isa::ElementType;

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;

/// The value that follows `'key':` in the header dict, up to the next
/// top-level comma or the closing brace.
std::string dictValue(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return {};
  at = header.find(':', at);
  if (at == std::string::npos)
    return {};
  ++at;
  int depth = 0;
  size_t end = at;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  std::string value = header.substr(at, end - at);
  size_t first = value.find_first_not_of(" ");
  size_t last = value.find_last_not_of(" ");
  return first == std::string::npos ? ""
                                    : value.substr(first, last - first + 1);
}
} // namespace

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    text += ",";
  return text + ")";
}

namespace {

absl::Status invalidNpy(const std::string &name, const std::string &why) {
  return absl::InvalidArgumentError(absl::StrCat(
      name, ": not a valid .npy file: ", why, " (write it with numpy.save)"));
}

/// How many bytes the magic, version and header length take for `major`,
/// or 0 for an unknown version.
size_t preambleBytes(uint8_t major) {
  return major == 1 ? 10 : (major == 2 || major == 3) ? 12 : 0;
}

/// The header of a file whose first bytes are `prefix` (at least the
/// preamble; the header itself may be cut off, which is an error).
absl::StatusOr<NpyHeader> parseHeader(const uint8_t *prefix, size_t size,
                                      const std::string &name) {
  if (size < kMagicBytes + 4 || std::memcmp(prefix, kMagic, kMagicBytes) != 0)
    return invalidNpy(name, "it does not start with \\x93NUMPY");
  uint8_t major = prefix[6];
  size_t headerStart = preambleBytes(major);
  if (headerStart == 0)
    return invalidNpy(name,
                      absl::StrCat("format version ", major, " is unknown"));
  if (size < headerStart)
    return invalidNpy(name, "the header is truncated");
  size_t headerLength = prefix[8] | (size_t(prefix[9]) << 8);
  if (headerStart == 12)
    headerLength |= (size_t(prefix[10]) << 16) | (size_t(prefix[11]) << 24);
  if (headerLength > kMaxNpyHeaderBytes)
    return invalidNpy(name, absl::StrCat("the header claims ", headerLength,
                                         " bytes, more than the ",
                                         kMaxNpyHeaderBytes, " allowed"));
  if (headerLength > size - headerStart)
    return invalidNpy(name, "the header is truncated");
  std::string header(reinterpret_cast<const char *>(&prefix[headerStart]),
                     headerLength);

  NpyHeader result;
  result.dataOffset = headerStart + headerLength;
  std::string descr = dictValue(header, "descr");
  if (descr == "'<f4'" || descr == "'=f4'")
    result.elementType = ElementType::F32;
  else if (descr == "'<i4'" || descr == "'=i4'")
    result.elementType = ElementType::I32;
  else if (descr.empty())
    return invalidNpy(name, "the header has no 'descr'");
  else
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": dtype ", descr,
        " is not supported; inputs must be float32 ('<f4') or int32 "
        "('<i4'): convert with a.astype(numpy.float32)"));
  std::string fortran = dictValue(header, "fortran_order");
  if (fortran == "True")
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": the array is in Fortran order; save a C-ordered copy "
              "(numpy.ascontiguousarray)"));
  if (fortran != "False")
    return invalidNpy(name, "the header has no valid 'fortran_order'");
  std::string shapeText = dictValue(header, "shape");
  if (shapeText.size() < 2 || shapeText.front() != '(' ||
      shapeText.back() != ')')
    return invalidNpy(name, "the header has no valid 'shape'");
  std::string inner = shapeText.substr(1, shapeText.size() - 2);
  size_t pos = 0;
  while (pos < inner.size()) {
    size_t comma = inner.find(',', pos);
    std::string dim = inner.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t first = dim.find_first_not_of(' ');
    if (first != std::string::npos) {
      dim = dim.substr(first, dim.find_last_not_of(' ') - first + 1);
      if (dim.empty() || dim.size() > 12 ||
          dim.find_first_not_of("0123456789") != std::string::npos)
        return invalidNpy(name, absl::StrCat("bad shape ", shapeText));
      int64_t value = std::stoll(dim);
      result.shape.push_back(value);
      result.numElements *= uint64_t(value);
      if (result.numElements > kMaxNpyElements)
        return invalidNpy(name,
                          absl::StrCat("shape ", shapeText, " is too large"));
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  return result;
}

/// Checks that `dataBytes` bytes follow the header, as its shape needs.
absl::Status checkDataSize(const NpyHeader &header, uint64_t dataBytes,
                           const std::string &name) {
  if (dataBytes == header.numElements * 4)
    return absl::OkStatus();
  return invalidNpy(name,
                    absl::StrCat("shape ", formatShape(header.shape), " needs ",
                                 header.numElements * 4,
                                 " data bytes but the file holds ", dataBytes));
}

} // namespace

absl::StatusOr<NpyArray> parseNpy(const std::vector<uint8_t> &bytes,
                                  const std::string &name) {
  absl::StatusOr<NpyHeader> header =
      parseHeader(bytes.data(), bytes.size(), name);
  if (!header.ok())
    return header.status();
  if (absl::Status status =
          checkDataSize(*header, bytes.size() - header->dataOffset, name);
      !status.ok())
    return status;
  NpyArray array;
  array.elementType = header->elementType;
  array.shape = header->shape;
  array.words.resize(header->numElements);
  if (header->numElements)
    std::memcpy(array.words.data(), &bytes[header->dataOffset],
                header->numElements * 4);
  return array;
}

absl::StatusOr<NpyArray>
readNpyFile(const std::string &path,
            const std::function<absl::Status(const NpyHeader &)> &vet) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file)
    return absl::NotFoundError(absl::StrCat(path, ": cannot open the file"));
  uint64_t fileBytes = uint64_t(file.tellg());
  file.seekg(0);
  // The header first, then the data only once the header and the file's
  // size agree and the caller accepts them: no input allocates more than
  // its header, bounded, and the data the caller asked for.
  std::vector<uint8_t> prefix(
      size_t(std::min<uint64_t>(fileBytes, 12 + kMaxNpyHeaderBytes)));
  file.read(reinterpret_cast<char *>(prefix.data()), prefix.size());
  absl::StatusOr<NpyHeader> header =
      parseHeader(prefix.data(), prefix.size(), path);
  if (!header.ok())
    return header.status();
  if (absl::Status status =
          checkDataSize(*header, fileBytes - header->dataOffset, path);
      !status.ok())
    return status;
  if (vet)
    if (absl::Status status = vet(*header); !status.ok())
      return status;
  NpyArray array;
  array.elementType = header->elementType;
  array.shape = header->shape;
  array.words.resize(header->numElements);
  file.seekg(std::streamoff(header->dataOffset));
  file.read(reinterpret_cast<char *>(array.words.data()),
            std::streamsize(header->numElements * 4));
  if (!file)
    return absl::DataLossError(absl::StrCat(path, ": cannot read the data"));
  return array;
}

std::vector<uint8_t> serializeNpy(const NpyArray &array) {
  std::string header =
      std::string("{'descr': '") +
      (array.elementType == ElementType::F32 ? "<f4" : "<i4") +
      "', 'fortran_order': False, 'shape': " + formatShape(array.shape) + ", }";
  // Pad so the data starts on a 64-byte boundary, ending in a newline.
  size_t total = kMagicBytes + 4 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> bytes(kMagic, kMagic + kMagicBytes);
  bytes.push_back(1);
  bytes.push_back(0);
  bytes.push_back(uint8_t(header.size() & 0xFF));
  bytes.push_back(uint8_t(header.size() >> 8));
  bytes.insert(bytes.end(), header.begin(), header.end());
  const uint8_t *data = reinterpret_cast<const uint8_t *>(array.words.data());
  bytes.insert(bytes.end(), data, data + array.words.size() * 4);
  return bytes;
}

absl::Status writeNpyFile(const std::string &path, const NpyArray &array) {
  std::vector<uint8_t> bytes = serializeNpy(array);
  std::ofstream file(path, std::ios::binary);
  if (!file)
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot open the file for writing"));
  file.write(reinterpret_cast<const char *>(bytes.data()),
             std::streamsize(bytes.size()));
  if (!file)
    return absl::DataLossError(absl::StrCat(path, ": write failed"));
  return absl::OkStatus();
}

} // namespace tpu
