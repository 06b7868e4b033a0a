# -*- Python -*-
# lit configuration for the tpu compiler's FileCheck tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TPU"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tpu_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our tools first, then FileCheck, not and count from LLVM.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tpu_tools_dir, append_path=True)
tool_dirs = [config.tpu_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tpu-opt", "not", "count"], tool_dirs)
config.substitutions.append(("%tpu_src_root", config.tpu_src_root))
llvm_config.add_tool_substitutions(
    ["tpu-translate", "tpu-sim", "tpu-ref", "tpu-cpu-run",
     "tpu-fuzz-binary-standalone", "tpu-fuzz-npy-standalone",
     "tpu-fuzz-asm-standalone"],
    tool_dirs,
)
