//===- CommandLine.cpp - The command line of an Abseil-flags tool ---------===//

#include "tpu/CommandLine/CommandLine.h"

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"

#include <algorithm>

namespace tpu {

namespace {

/// Abseil's own flags, handled before its registry is consulted.
bool isUsageFlag(const std::string &name) {
  static const char *const kUsageFlags[] = {
      "help",     "helpfull",  "helpshort",  "helppackage",
      "helpon",   "helpmatch", "version",    "only_check_args",
      "flagfile", "fromenv",   "tryfromenv", "undefok"};
  return std::find(std::begin(kUsageFlags), std::end(kUsageFlags), name) !=
         std::end(kUsageFlags);
}

/// Whether the program defines `name` (or `name` is --noX of a bool X).
bool isKnownFlag(const std::string &name) {
  if (isUsageFlag(name) || absl::FindCommandLineFlag(name))
    return true;
  if (name.rfind("no", 0) == 0)
    if (const absl::CommandLineFlag *flag =
            absl::FindCommandLineFlag(name.substr(2)))
      return flag->IsOfType<bool>();
  return false;
}

} // namespace

absl::StatusOr<PreparedCommandLine>
prepareCommandLine(int argc, char **argv,
                   const std::vector<std::string> &collected,
                   const std::map<std::string, std::string> &bareValues) {
  PreparedCommandLine result;
  result.argv.push_back(argv[0]);
  for (const std::string &name : collected)
    result.collected[name];
  bool flagsEnded = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (flagsEnded || arg.size() < 2 || arg[0] != '-') {
      result.argv.push_back(argv[i]);
      continue;
    }
    if (arg == "--") {
      flagsEnded = true;
      result.argv.push_back(argv[i]);
      continue;
    }
    size_t nameStart = arg[1] == '-' ? 2 : 1;
    size_t nameEnd = std::min(arg.find('='), arg.size());
    std::string name = arg.substr(nameStart, nameEnd - nameStart);
    std::replace(name.begin(), name.end(), '-', '_');
    bool hasValue = nameEnd < arg.size();
    if (!isKnownFlag(name))
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown flag ", arg.substr(0, nameEnd), "; --help lists the flags"));
    if (auto it = result.collected.find(name); it != result.collected.end()) {
      if (hasValue) {
        it->second.push_back(arg.substr(nameEnd + 1));
      } else if (i + 1 < argc) {
        it->second.push_back(argv[++i]);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat(arg, " needs a value, as in ", arg, " FILE"));
      }
      continue;
    }
    std::string normalized = "--" + name;
    bool takesNext = false;
    if (hasValue) {
      normalized += arg.substr(nameEnd);
    } else if (auto it = bareValues.find(name); it != bareValues.end()) {
      normalized += "=" + it->second;
    } else if (const absl::CommandLineFlag *flag =
                   absl::FindCommandLineFlag(name)) {
      // `--stats FILE`: the next argument is the value, even if it starts
      // with a dash (--value -1).
      takesNext = !flag->IsOfType<bool>();
    }
    result.storage.push_back(normalized);
    result.argv.push_back(result.storage.back().data());
    if (takesNext && i + 1 < argc)
      result.argv.push_back(argv[++i]);
  }
  return result;
}

} // namespace tpu
