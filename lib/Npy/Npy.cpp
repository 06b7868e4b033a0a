//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "tpu/Npy/Npy.h"

#include "absl/strings/str_cat.h"

#include <cstring>
#include <fstream>
#include <iterator>

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

absl::StatusOr<NpyArray> parseNpy(const std::vector<uint8_t> &bytes,
                                  const std::string &name) {
  auto invalid = [&](const std::string &why) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": not a valid .npy file: ", why, " (write it with numpy.save)"));
  };
  if (bytes.size() < kMagicBytes + 4 ||
      std::memcmp(bytes.data(), kMagic, kMagicBytes) != 0)
    return invalid("it does not start with \\x93NUMPY");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = bytes[8] | (size_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return invalid("the header is truncated");
    headerLength = bytes[8] | (size_t(bytes[9]) << 8) |
                   (size_t(bytes[10]) << 16) | (size_t(bytes[11]) << 24);
    headerStart = 12;
  } else {
    return invalid(absl::StrCat("format version ", major, " is unknown"));
  }
  if (headerLength > bytes.size() - headerStart)
    return invalid("the header is truncated");
  std::string header(reinterpret_cast<const char *>(&bytes[headerStart]),
                     headerLength);

  NpyArray array;
  std::string descr = dictValue(header, "descr");
  if (descr == "'<f4'" || descr == "'=f4'")
    array.elementType = ElementType::F32;
  else if (descr == "'<i4'" || descr == "'=i4'")
    array.elementType = ElementType::I32;
  else if (descr.empty())
    return invalid("the header has no 'descr'");
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
    return invalid("the header has no valid 'fortran_order'");
  std::string shapeText = dictValue(header, "shape");
  if (shapeText.size() < 2 || shapeText.front() != '(' ||
      shapeText.back() != ')')
    return invalid("the header has no valid 'shape'");
  uint64_t elements = 1;
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
        return invalid(absl::StrCat("bad shape ", shapeText));
      int64_t value = std::stoll(dim);
      array.shape.push_back(value);
      elements *= uint64_t(value);
      if (elements > (uint64_t(1) << 40))
        return invalid(absl::StrCat("shape ", shapeText, " is too large"));
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  size_t dataStart = headerStart + headerLength;
  uint64_t dataBytes = elements * 4;
  if (bytes.size() - dataStart != dataBytes)
    return invalid(absl::StrCat("shape ", shapeText, " needs ", dataBytes,
                                " data bytes but the file holds ",
                                bytes.size() - dataStart));
  array.words.resize(elements);
  if (elements)
    std::memcpy(array.words.data(), &bytes[dataStart], dataBytes);
  return array;
}

absl::StatusOr<NpyArray> readNpyFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return absl::NotFoundError(absl::StrCat(path, ": cannot open the file"));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  return parseNpy(bytes, path);
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
