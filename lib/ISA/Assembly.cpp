//===- Assembly.cpp - Readable listing of a TPU program -------------------===//

#include "tpu/ISA/Assembly.h"

namespace tpu::isa {

std::string formatTensor(const TensorSignature &tensor) {
  std::string text = getElementTypeName(tensor.elementType);
  text += "[";
  for (size_t i = 0; i < tensor.shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  text += "] @hbm " + std::to_string(tensor.hbmTile);
  return text;
}

std::string printAssembly(const Program &program) {
  std::string text;
  text += "; chip " + std::string(getChipInfo(program.chip).name) + ", entry " +
          program.entry + ", " + std::to_string(program.bundles.size()) +
          " bundles, useful MACs " + std::to_string(program.usefulMacs) +
          " (f32 " + std::to_string(program.usefulF32Macs) + ")\n";
  for (const TensorSignature &tensor : program.arguments)
    text += "; argument " + tensor.name + ": " + formatTensor(tensor) + "\n";
  for (const TensorSignature &tensor : program.results)
    text += "; result " + tensor.name + ": " + formatTensor(tensor) + "\n";
  for (const HbmConstant &constant : program.constants)
    text += "; constant @hbm " + std::to_string(constant.hbmTile) + ": " +
            std::to_string(constant.words.size()) + " words\n";
  for (size_t b = 0; b < program.bundles.size(); ++b) {
    std::string label = "b" + std::to_string(b) + ":";
    label.resize(std::max<size_t>(label.size() + 1, 8), ' ');
    text += label;
    const Bundle &bundle = program.bundles[b];
    for (size_t i = 0; i < bundle.instructions.size(); ++i)
      text += (i ? " ; " : "") + formatInstruction(bundle.instructions[i]);
    text += "\n";
  }
  return text;
}

} // namespace tpu::isa
