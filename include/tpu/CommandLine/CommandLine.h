//===- CommandLine.h - The command line of an Abseil-flags tool -*- C++ -*-===//
//
// tpu-sim and tpu-ref parse their flags with Abseil, which takes only
// underscores in names, keeps only the last of a repeated flag and answers
// an unknown flag with its own message. This prepares a command line for
// absl::ParseCommandLine so both tools behave as docs/Tools.md says: names
// take dashes too (--max-cycles), the flags a tool collects (--input) keep
// every occurrence in order, and an unknown flag is an error that names it
// and points at --help.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_COMMANDLINE_COMMANDLINE_H
#define TPU_COMMANDLINE_COMMANDLINE_H

#include "absl/status/statusor.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace tpu {

struct PreparedCommandLine {
  /// What to hand to absl::ParseCommandLine (pointers into `storage` or the
  /// original argv).
  std::vector<char *> argv;
  /// The values of each collected flag, in order.
  std::map<std::string, std::vector<std::string>> collected;
  std::deque<std::string> storage;
};

/// Prepares `argv`. `collected` names the flags that may repeat (their
/// values are taken out); `bareValues` gives flags that may stand alone the
/// value they then mean (--poison-uninitialized alone is =trap). Fails on
/// a flag the program does not define, or a collected flag with no value.
absl::StatusOr<PreparedCommandLine>
prepareCommandLine(int argc, char **argv,
                   const std::vector<std::string> &collected,
                   const std::map<std::string, std::string> &bareValues = {});

} // namespace tpu

#endif // TPU_COMMANDLINE_COMMANDLINE_H
