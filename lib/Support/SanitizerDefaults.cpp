//===- SanitizerDefaults.cpp - Run-time options of a sanitizer build ------===//
//
// Linked into every binary of a -DTPU_SANITIZE build (CMakeLists.txt), so a
// tool run by hand behaves as it does under ctest.
//
// allow_user_poisoning=0: llvm::BumpPtrAllocator poisons and unpoisons its
// slabs from inline header code when the including file is built with ASan.
// Our code is; Debian's MLIR libraries are not, so memory a library
// allocates from a slab our code poisoned reads as poisoned. ASan's own
// checks (heap, stack, globals) are unaffected.
//
//===----------------------------------------------------------------------===//

extern "C" {

const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=1";
}

const char *__ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}

} // extern "C"
