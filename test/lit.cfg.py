# lit configuration for tspipe's IR tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TSPIPE"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tspipe_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "python",
                   "Inputs", "consumer", "capi", "lsp"]

llvm_config.use_default_substitutions()
# FileCheck, not and count come from the LLVM wheel's bin directory.
tool_dirs = [config.tspipe_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tspipe-opt", "tspipe-capi-test"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tspipe_tools_dir, append_path=True)
# ptxas (CUDA toolkit) is looked up in the LLVM tools directory, then on the
# PATH; without it the `%if ptxas` RUN lines (assembly of the lowered
# kernels, ptxas info C7508) are skipped.
if llvm_config.use_llvm_tool("ptxas", search_env="PTXAS", use_installed=True):
    config.available_features.add("ptxas")

# test/integration: tspipe as a project others build on.
_mlir_opt = os.path.join(config.mlir_bin_dir, "mlir-opt")
if config.tspipe_sanitizer_preload:
    # The wheel's mlir-opt is not instrumented; the plugins are. MLIR's own
    # leaks are not tspipe's.
    _mlir_opt = ("env LD_PRELOAD=%s "
                 "ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 %s") % (
        config.tspipe_sanitizer_preload, _mlir_opt)
config.substitutions.append(("%mlir_opt", _mlir_opt))
config.substitutions.append(
    ("%tspipe_dialect_plugin",
     os.path.join(config.tspipe_lib_dir, "TSPipeDialectPlugin.so")))
config.substitutions.append(
    ("%tspipe_pass_plugin",
     os.path.join(config.tspipe_lib_dir, "TSPipePassPlugin.so")))
config.substitutions.append(
    ("%tspipe_examples", os.path.join(config.tspipe_source_root, "examples")))
config.substitutions.append(("%tspipe_install_prefix",
                             config.tspipe_install_prefix))
_generator_args = ['-G "%s"' % config.cmake_generator,
                   '-DCMAKE_MAKE_PROGRAM="%s"' % config.cmake_make_program,
                   '-DCMAKE_CXX_COMPILER="%s"' % config.cxx_compiler]
if config.cxx_compiler_launcher:
    _generator_args.append(
        '-DCMAKE_CXX_COMPILER_LAUNCHER="%s"' % config.cxx_compiler_launcher)
config.substitutions.append(("%tspipe_cmake_args", " ".join(_generator_args)))
config.substitutions.append(("%cmake", config.cmake_command))
# A compiler cache, where the caller uses one, serves the consumer build too.
llvm_config.with_system_environment(
    ["CCACHE_DIR", "CCACHE_BASEDIR", "CCACHE_MAXSIZE", "CCACHE_DISABLE", "HOME"])
