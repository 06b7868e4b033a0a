//===- CpuRunner.cpp - Upstream MLIR, lowered and run on the CPU ---------===//
//
// The independent CPU reference the end-to-end tests compare the TPU compiler
// with: the input program (plain upstream MLIR on tensors) is lowered with
// upstream passes only (one-shot bufferization, buffer results to out
// parameters, linalg to loops, then to the LLVM dialect), JIT-compiled with
// MLIR's ExecutionEngine and called on the .npy inputs. Nothing of the
// project's compiler is used: the tpu dialects are not registered, and
// discardable attributes named `tpu.*` (a `tpu.precision` on a linalg op, the
// module's `tpu.chip`) are dropped, so the same file the TPU compiler takes
// runs here unchanged. Functions the entry does not reach are dropped too (a
// file may hold a `tpu.matmul` variant beside the upstream one).
//
// The numerics are plain IEEE f32, round to nearest even, in the order the
// loops of convert-linalg-to-loops give: a matmul accumulates each result
// element into its init in ascending k, one rounded multiply and one rounded
// add per step. There is no fast-math anywhere (the IR carries no fast-math
// flags and LLVM gets none) and no FMA contraction (the target machine is
// built with AllowFPOpFusion = Strict), so the results do not depend on the
// host's FMA support. Subnormals are kept (no flush to zero).
//
// Arguments and results must be statically shaped f32 or bf16 tensors;
// each input is checked against its argument's shape and dtype. A bf16
// argument takes an f32 array, converted here with LLVM's APFloat (to
// nearest even, subnormals kept), and a bf16 result is returned as f32.
//
//===----------------------------------------------------------------------===//

#include "tpu/CpuRunner/CpuRunner.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include "absl/status/status.h"

#include <functional>
#include <string>
#include <vector>

using namespace mlir;
using tpu::NpyArray;

namespace {

absl::Status error(const llvm::Twine &message) {
  return absl::InvalidArgumentError(message.str());
}

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

const char *dtypeName(const NpyArray &array) {
  switch (array.elementType) {
  case tpu::isa::ElementType::F32:
    return "float32";
  case tpu::isa::ElementType::I32:
    return "int32";
  }
  return "an unsupported dtype";
}

/// What an argument or a result must be: a statically shaped f32 or bf16
/// tensor.
absl::Status checkBoundaryType(Type type, const std::string &what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      (!tensor.getElementType().isF32() && !tensor.getElementType().isBF16()))
    return absl::InvalidArgumentError(
        what + " has type " + typeString(type) +
        "; only statically shaped f32 and bf16 tensors are supported");
  return absl::OkStatus();
}

/// An f32 word as the bf16 bits of the nearest value (ties to even).
uint16_t toBFloat(uint32_t word) {
  APFloat value(APFloat::IEEEsingle(), APInt(32, word));
  bool losesInfo;
  value.convert(APFloat::BFloat(), APFloat::rmNearestTiesToEven, &losesInfo);
  return uint16_t(value.bitcastToAPInt().getZExtValue());
}

/// bf16 bits as the f32 word of the same value.
uint32_t fromBFloat(uint16_t bits) {
  APFloat value(APFloat::BFloat(), APInt(16, bits));
  bool losesInfo;
  value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return uint32_t(value.bitcastToAPInt().getZExtValue());
}

/// Drops every discardable attribute (and function argument or result
/// attribute) whose name starts with `tpu.`.
void stripTPUAttributes(ModuleOp module) {
  auto isTPU = [](NamedAttribute attr) {
    return attr.getName().getValue().starts_with("tpu.");
  };
  module->walk([&](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (isTPU(attr))
        names.push_back(attr.getName());
    for (StringAttr name : names)
      op->removeDiscardableAttr(name);
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        SmallVector<StringAttr> argNames;
        for (NamedAttribute attr : func.getArgAttrs(i))
          if (isTPU(attr))
            argNames.push_back(attr.getName());
        for (StringAttr name : argNames)
          func.removeArgAttr(i, name);
      }
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
        SmallVector<StringAttr> resultNames;
        for (NamedAttribute attr : func.getResultAttrs(i))
          if (isTPU(attr))
            resultNames.push_back(attr.getName());
        for (StringAttr name : resultNames)
          func.removeResultAttr(i, name);
      }
    }
  });
}

/// Erases the module's symbols that nothing refers to, other than the entry,
/// until none is left: what remains is what the entry can reach.
void dropUnreachableSymbols(ModuleOp module, Operation *entry) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : llvm::make_early_inc_range(*module.getBody())) {
      if (&op == entry || !isa<SymbolOpInterface>(op))
        continue;
      if (SymbolTable::symbolKnownUseEmpty(&op, module)) {
        op.erase();
        changed = true;
      }
    }
  }
}

/// Ops that stand for several (linalg.softmax) become upstream's
/// decomposition of them, which the loops lowering then takes.
LogicalResult decomposeAggregatedOps(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  WalkResult walk = module.walk([&](linalg::AggregatedOpInterface op) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    if (failed(results)) {
      op->emitError() << "tpu-cpu-run: upstream cannot decompose this op";
      return WalkResult::interrupt();
    }
    rewriter.replaceOp(op, *results);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The upstream lowering: ops that stand for several decomposed, arith on
/// tensors to linalg, math.erf approximated by upstream's polynomial, tensors to buffers
/// (identity layouts at the function boundary, results as out parameters
/// appended to the arguments, every buffer freed), linalg to scf loops,
/// everything to the LLVM dialect.
LogicalResult lowerToLLVMDialect(ModuleOp module) {
  if (failed(decomposeAggregatedOps(module)))
    return failure();
  PassManager pm(module.getContext());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  bufferization::BufferResultsToOutParamsPassOptions outParamsOptions;
  outParamsOptions.hoistStaticAllocs = true;
  outParamsOptions.modifyPublicFunctions = true;
  pm.addPass(
      bufferization::createBufferResultsToOutParamsPass(outParamsOptions));
  // One-Shot Bufferize allocates and never frees; upstream's ownership-based
  // deallocation frees every buffer (LeakSanitizer found the leak).
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  if (failed(pm.run(module)))
    return failure();
  // math.erf has no LLVM intrinsic: upstream's polynomial approximation
  // (on the scalars the loops now compute) stands for it.
  RewritePatternSet erf(module.getContext());
  populatePolynomialApproximateErfPattern(erf);
  if (failed(applyPatternsGreedily(module, std::move(erf))))
    return failure();
  pm.clear();
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  return pm.run(module);
}

/// A ranked memref descriptor as the C interface passes it, for any rank:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}, all 64-bit.
std::vector<int64_t> makeDescriptor(void *data,
                                    const std::vector<int64_t> &shape) {
  std::vector<int64_t> descriptor = {reinterpret_cast<int64_t>(data),
                                     reinterpret_cast<int64_t>(data), 0};
  descriptor.insert(descriptor.end(), shape.begin(), shape.end());
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i > 1; --i)
    strides[i - 2] = strides[i - 1] * shape[i - 1];
  descriptor.insert(descriptor.end(), strides.begin(), strides.end());
  return descriptor;
}

} // namespace

absl::StatusOr<std::vector<NpyArray>>
tpu::runOnCpu(std::string_view source, const std::string &sourceName,
              const std::vector<NpyArray> &inputs,
              const std::vector<std::string> &inputNames,
              const CpuRunOptions &options) {
  const std::string &entryName = options.entry;
  auto inputName = [&](size_t i) {
    return i < inputNames.size() ? inputNames[i]
                                 : "input #" + std::to_string(i);
  };
  DialectRegistry registry;
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, tensor::TensorDialect, ub::UBDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);

  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // `#tpu.precision<highest>` and the like must parse; ops of an unknown
  // dialect are rejected below.
  context.allowUnregisteredDialects();
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()), sourceName),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(
      sourceMgr, &context,
      options.diagnostics ? *options.diagnostics : llvm::nulls());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return error("cannot parse " + sourceName);

  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry || entry.isExternal())
    return error("no function @" + entryName + " with a body in " + sourceName);
  dropUnreachableSymbols(*module, entry);
  stripTPUAttributes(*module);
  Operation *foreign = nullptr;
  module->walk([&](Operation *op) {
    if (!op->isRegistered()) {
      foreign = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (foreign) {
    foreign->emitError() << "'" << foreign->getName()
                         << "' is not an upstream MLIR op";
    return error("@" + entryName +
                 " must be plain upstream MLIR (func, arith, math, linalg, "
                 "tensor, scf)");
  }

  // The signature, checked against the inputs before anything runs.
  FunctionType type = entry.getFunctionType();
  if (inputs.size() != type.getNumInputs())
    return error("@" + entryName + " takes " +
                 llvm::Twine(type.getNumInputs()) + " argument(s), got " +
                 llvm::Twine(inputs.size()) + " --input file(s)");
  std::vector<NpyArray> arrays;
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    if (absl::Status status = checkBoundaryType(
            argType, "argument #" + std::to_string(i) + " of @" + entryName);
        !status.ok())
      return status;
    const NpyArray &array = inputs[i];
    auto tensor = cast<RankedTensorType>(argType);
    std::vector<int64_t> shape(tensor.getShape().begin(),
                               tensor.getShape().end());
    if (array.shape != shape || array.elementType != tpu::isa::ElementType::F32)
      return error("argument #" + llvm::Twine(i) + " of @" + entryName + " (" +
                   typeString(argType) + ") needs shape " +
                   tpu::formatShape(shape) + " float32, but " + inputName(i) +
                   " has shape " + tpu::formatShape(array.shape) + " " +
                   dtypeName(array));
    arrays.push_back(array);
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults())) {
    if (absl::Status status = checkBoundaryType(
            resultType, "result #" + std::to_string(i) + " of @" + entryName);
        !status.ok())
      return status;
    NpyArray array;
    auto tensor = cast<RankedTensorType>(resultType);
    array.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    array.words.assign(tensor.getNumElements(), 0);
    arrays.push_back(std::move(array));
  }

  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(&context));
  if (failed(lowerToLLVMDialect(*module)))
    return error("lowering @" + entryName + " to the LLVM dialect failed");
  if (options.llvmDialect)
    module->print(*options.llvmDialect);

  // A JIT for the host, at -O3 but without FP contraction.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return error("no JIT for this host: " +
                 llvm::toString(machineBuilder.takeError()));
  machineBuilder->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;
  machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return error("no JIT for this host: " +
                 llvm::toString(machine.takeError()));
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                machine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // memref.copy between non-contiguous buffers calls into the runner utils.
  SmallVector<StringRef, 1> sharedLibs;
  if (llvm::sys::fs::exists(TPU_MLIR_C_RUNNER_UTILS))
    sharedLibs.push_back(TPU_MLIR_C_RUNNER_UTILS);
  engineOptions.sharedLibPaths = sharedLibs;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  auto engine =
      ExecutionEngine::create(*module, engineOptions, std::move(*machine));
  if (!engine)
    return error("JIT compilation failed: " +
                 llvm::toString(engine.takeError()));

  // The C interface takes a pointer to each descriptor: the arguments, then
  // the results as out parameters. bf16 ones point at bf16 copies.
  SmallVector<Type> boundaryTypes(type.getInputs());
  llvm::append_range(boundaryTypes, type.getResults());
  std::vector<std::vector<uint16_t>> bfloats(arrays.size());
  std::vector<std::vector<int64_t>> descriptors;
  for (auto [i, array] : llvm::enumerate(arrays)) {
    if (!cast<RankedTensorType>(boundaryTypes[i]).getElementType().isBF16()) {
      descriptors.push_back(makeDescriptor(array.words.data(), array.shape));
      continue;
    }
    for (uint32_t word : array.words)
      bfloats[i].push_back(toBFloat(word));
    descriptors.push_back(makeDescriptor(bfloats[i].data(), array.shape));
  }
  std::vector<void *> descriptorPointers;
  for (std::vector<int64_t> &descriptor : descriptors)
    descriptorPointers.push_back(descriptor.data());
  SmallVector<void *> packedArgs;
  for (void *&pointer : descriptorPointers)
    packedArgs.push_back(&pointer);
  if (llvm::Error invokeError =
          (*engine)->invokePacked("_mlir_ciface_" + entryName, packedArgs))
    return error("running @" + entryName +
                 " failed: " + llvm::toString(std::move(invokeError)));
  for (size_t i = inputs.size(); i < arrays.size(); ++i)
    for (size_t w = 0; w < bfloats[i].size(); ++w)
      arrays[i].words[w] = fromBFloat(bfloats[i][w]);
  return std::vector<NpyArray>(
      std::make_move_iterator(arrays.begin() + inputs.size()),
      std::make_move_iterator(arrays.end()));
}
