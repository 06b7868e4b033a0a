//===- Json.h - Text inside a JSON string -----------------------*- C++ -*-===//
//
// The --stats and --trace files name source ops by their file names, which
// may hold quotes, backslashes or control characters.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_SIM_JSON_H
#define TPU_LIB_SIM_JSON_H

#include <cstdio>
#include <string>

namespace tpu::sim {

inline std::string jsonEscape(const std::string &text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof(code), "\\u%04x", unsigned(c));
      escaped += code;
    } else {
      escaped += c;
    }
  }
  return escaped;
}

} // namespace tpu::sim

#endif // TPU_LIB_SIM_JSON_H
