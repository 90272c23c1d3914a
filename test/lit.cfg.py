# lit configuration for tspipe's IR tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TSPIPE"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tspipe_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "python"]

llvm_config.use_default_substitutions()
# FileCheck, not and count come from the LLVM wheel's bin directory.
tool_dirs = [config.tspipe_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tspipe-opt"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tspipe_tools_dir, append_path=True)
# ptxas (CUDA toolkit) is looked up in the LLVM tools directory, then on the
# PATH; without it the `%if ptxas` RUN lines (assembly of the lowered
# kernels, ptxas info C7508) are skipped.
if llvm_config.use_llvm_tool("ptxas", search_env="PTXAS", use_installed=True):
    config.available_features.add("ptxas")
