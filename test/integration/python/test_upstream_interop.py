"""tspipe's bundled MLIR bindings next to upstream's `mlir` package, and the
upstream dialects tspipe's package carries for kernels around tspipe ops.

The two packages hold separate MLIR copies (tspipe's aggregate library
exports the C API only), so both import in one process, and their objects do
not mix: modules go from one to the other as bytecode (or text).
"""

import io
import pathlib

import pytest

import tspipe.ir as tir
import tspipe.passmanager as tpm
from tspipe.dialects import affine as taffine  # noqa: F401  (bundled)
from tspipe.dialects import nvgpu as tnvgpu  # noqa: F401  (bundled)

# xtc-mlir-python-bindings, pinned in requirements-dev.txt.
import mlir.ir as mlir_ir  # noqa: E402
import mlir.passmanager as mpm  # noqa: E402

EXAMPLE = (pathlib.Path(__file__).resolve().parents[3] / "examples"
           / "async_thread.mlir")

NVGPU_AFFINE = """
gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @k(%p: memref<64xf32, 3>) kernel {
    %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %n = arith.constant 1 : index
    nvgpu.mbarrier.init %bar[%c0], %n : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    affine.for %i = 0 to 4 {
      %v = affine.load %p[%i * 2] : memref<64xf32, 3>
      affine.store %v, %p[%i * 2 + 1] : memref<64xf32, 3>
    }
    gpu.return
  }
}
"""


def _bytecode(module):
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    return buf.getvalue()


def test_bundled_nvgpu_affine_and_their_passes():
    with tir.Context():
        module = tir.Module.parse(NVGPU_AFFINE)
        tpm.PassManager.parse(
            "builtin.module(gpu.module(lower-affine,convert-nvgpu-to-nvvm))"
        ).run(module.operation)
        text = str(module)
    assert "nvgpu." not in text and "affine." not in text
    assert "nvvm.mbarrier.init" in text or "llvm.inline_asm" in text


def test_tspipe_module_to_upstream_as_bytecode():
    with tir.Context():
        module = tir.Module.parse(EXAMPLE.read_text())
        tpm.PassManager.parse("builtin.module(tspipe-to-nvvm)").run(
            module.operation)
        data = _bytecode(module)
    with mlir_ir.Context():
        upstream = mlir_ir.Module.parse(data)
        # No tspipe op is left (the launch facts stay as discardable
        # `tspipe.*` attributes, which any context keeps).
        assert "tspipe.kernel" not in str(upstream)
        assert "tspipe.pipeline" not in str(upstream)
        mpm.PassManager.parse(
            "builtin.module(gpu-module-to-binary{format=isa})").run(
                upstream.operation)
        text = str(upstream)
    assert "gpu.binary @async_thread" in text
    assert ".entry async_thread(" in text


def test_upstream_module_to_tspipe_as_bytecode():
    with mlir_ir.Context():
        data = _bytecode(mlir_ir.Module.parse(NVGPU_AFFINE))
    with tir.Context():
        module = tir.Module.parse(data)
        assert module.operation.verify()
        assert "nvgpu.mbarrier.create" in str(module)


def test_objects_do_not_cross_packages():
    with tir.Context():
        module = tir.Module.parse(NVGPU_AFFINE)
        with mlir_ir.Context():
            pm = mpm.PassManager.parse("builtin.module(canonicalize)")
            with pytest.raises(TypeError):
                pm.run(module.operation)
