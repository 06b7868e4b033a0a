//===- Json.h - Text inside a JSON string -----------------------*- C++ -*-===//
//
// The --stats and --trace files name source ops by their file names, which
// come from the binary (untrusted) and may hold quotes, backslashes,
// control characters or bytes that are not UTF-8.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_SIM_JSON_H
#define TPU_LIB_SIM_JSON_H

#include <cstdio>
#include <string>

namespace tpu::sim {

/// The length of the UTF-8 sequence at `text[i]` if it is a well-formed
/// one (RFC 3629: no overlong forms, surrogates or code points past
/// U+10FFFF), else 0.
inline size_t utf8SequenceLength(const std::string &text, size_t i) {
  auto byte = [&](size_t at) { return static_cast<unsigned char>(text[at]); };
  unsigned char lead = byte(i);
  size_t length = lead < 0x80   ? 1
                  : lead < 0xC2 ? 0
                  : lead < 0xE0 ? 2
                  : lead < 0xF0 ? 3
                  : lead < 0xF5 ? 4
                                : 0;
  if (length < 2)
    return length;
  if (i + length > text.size())
    return 0;
  // The second byte's range narrows after E0, ED, F0 and F4.
  unsigned char low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
  unsigned char high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
  if (byte(i + 1) < low || byte(i + 1) > high)
    return 0;
  for (size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
      return 0;
  return length;
}

/// `text` as the inside of a JSON string: quotes, backslashes and control
/// characters escaped, and each byte that is not part of well-formed UTF-8
/// replaced by U+FFFD, so the file always parses.
inline std::string jsonEscape(const std::string &text) {
  std::string escaped;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    size_t length = utf8SequenceLength(text, i);
    if (length == 0) {
      escaped += "\\ufffd";
      ++i;
    } else if (length > 1) {
      escaped.append(text, i, length);
      i += length;
    } else if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += c;
      ++i;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof(code), "\\u%04x", unsigned(c));
      escaped += code;
      ++i;
    } else {
      escaped += c;
      ++i;
    }
  }
  return escaped;
}

} // namespace tpu::sim

#endif // TPU_LIB_SIM_JSON_H
