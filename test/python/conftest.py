"""pytest setup for the tspipe Python tests.

The binding and front-end tests (test_bindings, test_config,
test_kernel_builder, test_compile) import the *installed* package (``pip
install --no-build-isolation .`` into the environment running pytest), or the
build tree's package when ``PYTHONPATH=<build>/python_packages`` is set; they
never add ``python/`` to ``sys.path``.

Where the compiled package is not importable (e.g. a machine that only runs
the pure-Python ``tspipe.runtime`` tests from the source tree), those four
modules are not collected and the header says so. Set
``TSPIPE_TESTS_REQUIRE_BINDINGS=1`` to make that an error instead (CI).
"""

import glob
import importlib.util
import os

import pytest

_BINDING_TESTS = ["test_bindings.py", "test_config.py", "test_kernel_builder.py",
                  "test_compile.py"]


def _compiled_package_dir():
    """The directory of an importable tspipe package that has the compiled
    extension, or None. Does not load the extension."""
    spec = importlib.util.find_spec("tspipe")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        if glob.glob(os.path.join(location, "_mlir_libs", "_mlir.*")):
            return location
    return None


_PACKAGE_DIR = _compiled_package_dir()

collect_ignore = []
if _PACKAGE_DIR is None:
    if os.environ.get("TSPIPE_TESTS_REQUIRE_BINDINGS"):
        raise RuntimeError(
            "the compiled tspipe package is not importable; run "
            "`pip install --no-build-isolation .` first")
    collect_ignore += _BINDING_TESTS


def pytest_report_header(config):
    if _PACKAGE_DIR is None:
        return ("tspipe bindings: not installed; skipping "
                + ", ".join(_BINDING_TESTS))
    return f"tspipe bindings: {_PACKAGE_DIR}"


@pytest.fixture
def ctx():
    """A fresh tspipe.ir.Context (tspipe and the upstream dialects loaded)."""
    import tspipe.ir as ir

    with ir.Context() as context, ir.Location.unknown():
        yield context
