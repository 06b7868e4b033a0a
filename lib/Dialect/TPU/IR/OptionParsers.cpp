//===- OptionParsers.cpp - Typed pass options -----------------------------===//

#include "tpu/Dialect/TPU/IR/OptionParsers.h"

using namespace llvm;

template <>
StringRef
tpu::detail::EnumOptionParser<tpu::Precision>::name(tpu::Precision value) {
  return tpu::stringifyPrecision(value);
}

template <>
StringRef
tpu::detail::EnumOptionParser<tpu::Rounding>::name(tpu::Rounding value) {
  return tpu::stringifyRounding(value);
}

template <>
StringRef
tpu::detail::EnumOptionParser<tpu::ChipKind>::name(tpu::ChipKind value) {
  return tpu::getChipInfo(value).name;
}

template <>
StringRef tpu::detail::EnumOptionParser<std::optional<tpu::ChipKind>>::name(
    std::optional<tpu::ChipKind> value) {
  return value ? tpu::getChipInfo(*value).name : "";
}

bool cl::parser<tpu::Precision>::parse(Option &option, StringRef, StringRef arg,
                                       tpu::Precision &value) {
  if (std::optional<tpu::Precision> precision = tpu::parsePrecisionName(arg)) {
    value = *precision;
    return false;
  }
  return option.error("unknown precision '" + arg + "'; expected one of " +
                      tpu::getPrecisionSpellings());
}

bool cl::parser<tpu::Rounding>::parse(Option &option, StringRef, StringRef arg,
                                      tpu::Rounding &value) {
  if (std::optional<tpu::Rounding> rounding = tpu::symbolizeRounding(arg)) {
    value = *rounding;
    return false;
  }
  return option.error("unknown rounding '" + arg +
                      "'; expected rne (round to nearest even) or trunc");
}

bool cl::parser<tpu::ChipKind>::parse(Option &option, StringRef, StringRef arg,
                                      tpu::ChipKind &value) {
  if (std::optional<tpu::ChipKind> chip = tpu::lookupChip(arg)) {
    value = *chip;
    return false;
  }
  return option.error("unknown chip '" + arg + "'; expected one of " +
                      tpu::listChipNames());
}

bool cl::parser<std::optional<tpu::ChipKind>>::parse(
    Option &option, StringRef argName, StringRef arg,
    std::optional<tpu::ChipKind> &value) {
  if (arg.empty()) {
    value = std::nullopt;
    return false;
  }
  tpu::ChipKind chip;
  if (cl::parser<tpu::ChipKind>(option).parse(option, argName, arg, chip))
    return true;
  value = chip;
  return false;
}
