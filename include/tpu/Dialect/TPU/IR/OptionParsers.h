//===- OptionParsers.h - Typed pass options: chip, precision, rounding -*- C++
//-*-===//
//
// LLVM command-line parsers for the enums the passes and the tpu-compile
// pipeline take as options, so each option is parsed once, into its typed
// value, with the same spellings the attributes accept: `chip=v4`,
// `default-precision=highest` (or any JAX alias, case-insensitively),
// `split=trunc`. A bad value is an error that lists the valid ones. A chip
// option may also be left unset (std::optional<ChipKind>; an empty value).
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_IR_OPTIONPARSERS_H
#define TPU_DIALECT_TPU_IR_OPTIONPARSERS_H

#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace tpu::detail {
/// The parts the three parsers share: how a value prints and is described.
template <typename T> struct EnumOptionParser : llvm::cl::basic_parser<T> {
  using llvm::cl::basic_parser<T>::basic_parser;
  using OptVal = typename llvm::cl::basic_parser<T>::OptVal;

  void printOptionDiff(const llvm::cl::Option &option, T value,
                       const OptVal &defaultValue, size_t globalWidth) const {
    this->printOptionName(option, globalWidth);
    llvm::outs() << "= " << name(value);
    if (defaultValue.hasValue())
      llvm::outs() << " (default: " << name(defaultValue.getValue()) << ")";
    llvm::outs() << "\n";
  }
  static void print(llvm::raw_ostream &os, const T &value) {
    os << name(value);
  }
  static llvm::StringRef name(T value);
};
} // namespace tpu::detail

namespace llvm::cl {

template <>
class parser<tpu::Precision>
    : public tpu::detail::EnumOptionParser<tpu::Precision> {
public:
  using EnumOptionParser::EnumOptionParser;
  bool parse(Option &option, StringRef argName, StringRef arg,
             tpu::Precision &value);
  StringRef getValueName() const override { return "precision"; }
};

template <>
class parser<tpu::Rounding>
    : public tpu::detail::EnumOptionParser<tpu::Rounding> {
public:
  using EnumOptionParser::EnumOptionParser;
  bool parse(Option &option, StringRef argName, StringRef arg,
             tpu::Rounding &value);
  StringRef getValueName() const override { return "rounding"; }
};

template <>
class parser<tpu::ChipKind>
    : public tpu::detail::EnumOptionParser<tpu::ChipKind> {
public:
  using EnumOptionParser::EnumOptionParser;
  bool parse(Option &option, StringRef argName, StringRef arg,
             tpu::ChipKind &value);
  StringRef getValueName() const override { return "chip"; }
};

template <>
class parser<std::optional<tpu::ChipKind>>
    : public tpu::detail::EnumOptionParser<std::optional<tpu::ChipKind>> {
public:
  using EnumOptionParser::EnumOptionParser;
  bool parse(Option &option, StringRef argName, StringRef arg,
             std::optional<tpu::ChipKind> &value);
  StringRef getValueName() const override { return "chip"; }
};

} // namespace llvm::cl

#endif // TPU_DIALECT_TPU_IR_OPTIONPARSERS_H
