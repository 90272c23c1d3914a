"""tspipe.compile.lower_to_ptx: tspipe-to-nvvm + gpu-module-to-binary{format=isa}.

A plain gpu.module (no tspipe ops, built with the upstream builders) exercises
the pass pipeline, the NVVM target and the PTX extraction regardless of the
state of the tspipe lowering; the kernel test needs the tspipe-to-nvvm
lowering.
"""

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tspipe.compile import (
    SUPPORTED_ARCHS,
    ArchError,
    CompileError,
    attach_target_pipeline,
    lower_to_ptx,
    lower_to_ptx_all,
)
from tspipe.runtime.meta import extract_gpu_objects
from tspipe.ts import (
    Agent,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    PipelineConfigError,
    ScheduleError,
    TSPipeError,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))

def plain_ir_module(*names):
    """gpu.modules (``names``, default ``plain``) without tspipe ops, built
    with the upstream builders in the current Context and Location:
    ``store42(out)`` stores 42 at ``out[threadIdx.x]`` (i32)."""
    import tspipe.ir as ir
    from tspipe.dialects import arith, gpu, llvm

    module = ir.Module.create()
    for name in names or ("plain",):
        with ir.InsertionPoint(module.body):
            gpu_module = gpu.GPUModuleOp(name)
            gpu_module.bodyRegion.blocks.append()
        with ir.InsertionPoint(gpu_module.bodyRegion.blocks[0]):
            ptr1 = llvm.PointerType.get(1)
            func = gpu.GPUFuncOp(ir.FunctionType.get([ptr1], []),
                                 sym_name="store42", kernel=True)
            entry = func.add_entry_block()
        with ir.InsertionPoint(entry):
            i32 = ir.IntegerType.get_signless(32)
            i64 = ir.IntegerType.get_signless(64)
            tid = arith.index_cast(i64, gpu.thread_id(gpu.Dimension.x))
            offset = arith.muli(tid, arith.constant(i64, 4))
            base = llvm.ptrtoint(i64, entry.arguments[0])
            llvm.store(arith.constant(i32, 42),
                       llvm.inttoptr(ptr1, arith.addi(base, offset)))
            gpu.ReturnOp([])
    return module


def plain_module(*names):
    """:func:`plain_ir_module` printed (the text input of lower_to_ptx)."""
    import tspipe.ir as ir

    with ir.Context(), ir.Location.unknown():
        return str(plain_ir_module(*names))


PLAIN = plain_module()


@pytest.mark.parametrize("arch,version", [("sm_90a", ".version 8.0"),
                                          ("sm_100a", ".version 8.6")])
def test_plain_gpu_module_to_ptx(arch, version):
    ptx = lower_to_ptx(PLAIN, arch=arch)
    assert f".target {arch}" in ptx
    assert version in ptx
    assert ".visible .entry store42(" in ptx
    assert "st.global" in ptx


def test_two_gpu_modules():
    text = plain_module("plain", "other")
    all_ptx = lower_to_ptx_all(text)
    assert sorted(all_ptx) == ["other", "plain"]
    assert ".entry store42" in lower_to_ptx(text, gpu_module="other")
    with pytest.raises(TSPipeError) as info:      # a ValueError: pass gpu_module=
        lower_to_ptx(text)
    assert "gpu_module=" in info.value.message
    with pytest.raises(KeyError):
        lower_to_ptx(text, gpu_module="missing")


def test_targets_are_read_through_the_c_api():
    import tspipe.ir as ir
    from tspipe.compile import attach_target, lower_to_nvvm, serialize, target_fields

    with ir.Context(), ir.Location.unknown():
        module = plain_ir_module("plain", "other")
        assert target_fields(module.operation) == {"plain": [], "other": []}
        attach_target(module.operation, "sm_100a")
        want = [{"chip": "sm_100a", "features": "+ptx86", "O": 2}]
        assert target_fields(module.operation) == {"plain": want, "other": want}
        # After serializing: the targets of the gpu.binary objects.
        lower_to_nvvm(module.operation)
        serialize(module.operation)
        assert target_fields(module.operation) == {"plain": want, "other": want}


def test_an_ir_module_is_lowered_from_a_copy():
    import tspipe.ir as ir

    with ir.Context(), ir.Location.unknown():
        module = plain_ir_module()
        before = str(module)
        assert lower_to_ptx(module, arch="sm_90a") == lower_to_ptx(PLAIN, arch="sm_90a")
        assert str(module) == before


def test_input_errors_are_value_errors():
    # Mistakes in the input are ValueErrors, not CompileError (RuntimeError).
    with pytest.raises(TSPipeError) as info:
        lower_to_ptx("func.func @f() { return }")      # no gpu.module
    assert "no gpu.module" in info.value.message
    with pytest.raises(ScheduleError):                  # as Kernel.build
        lower_to_ptx("gpu.module @m { this is not IR }")
    with pytest.raises(TypeError):
        lower_to_ptx(42)
    assert issubclass(CompileError, RuntimeError)
    assert not issubclass(CompileError, ValueError)


def test_option_checks():
    assert ".target sm_90a" in lower_to_ptx(PLAIN, opt_level=np.int64(0),
                                            debug_hang_timeout=np.int32(0))
    with pytest.raises(ValueError):
        lower_to_ptx(PLAIN, opt_level=7)
    with pytest.raises(ValueError):
        lower_to_ptx(PLAIN, debug_hang_timeout=-1)
    with pytest.raises(TypeError):
        lower_to_ptx(PLAIN, debug_hang_timeout=True)


def test_attach_target_options():
    # No -O level unless asked: the NVVM target's default, as tspipe-opt.
    assert attach_target_pipeline("sm_90a") == \
        "nvvm-attach-target{chip=sm_90a features=+ptx80}"
    assert attach_target_pipeline("sm_100a", opt_level=3) == \
        "nvvm-attach-target{chip=sm_100a features=+ptx86 O=3}"


def _kernel():
    G, T = CooperativeGroup, Agent.Thread
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
    k = Kernel(num_warps=5, name="stream", args=["out"])
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    load = k.task("load", 0, 1, produces=[ring])
    with load.domain_loop(0, 8):
        load.acquire(ring)
        load.commit(ring)
    math = k.task("math", 1, 4, consumes=[ring])
    with math.domain_loop(0, 8):
        math.wait(ring)
        math.release(ring)
    return k


def test_kernel_to_ptx():
    k = _kernel()
    try:
        ptx = k.to_ptx("sm_90a")
    except CompileError as err:
        if "tspipe." in err.message:
            pytest.skip(f"tspipe-to-nvvm does not lower this kernel yet: {err.message}")
        raise
    assert ".visible .entry stream(" in ptx
    assert "mbarrier" in ptx
    assert lower_to_ptx(k, arch="sm_90a") == ptx


def test_rule_errors_surface_before_lowering():
    k = Kernel(num_warps=1)
    t = k.task("t", 0, 1)
    with t.domain_loop(0, 1, 0):
        pass
    with pytest.raises(ScheduleError) as info:
        lower_to_ptx(k.to_mlir())
    assert info.value.rule == "R17"


# --------------------------------------------------------------------------
# Every example lowers from Python exactly as tspipe-opt lowers it.
# --------------------------------------------------------------------------

def _installed_tspipe_opt():
    """The tspipe-opt installed with this package (same C++ build), or None."""
    path = Path(sys.executable).parent / "tspipe-opt"
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


def _tspipe_opt_ptx(path):
    opt = _installed_tspipe_opt()
    if opt is None:
        pytest.skip("tspipe-opt is not installed next to this Python")
    out = subprocess.run(
        [opt, "--tspipe-to-nvvm", "--gpu-module-to-binary=format=isa", str(path)],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    (obj,) = extract_gpu_objects(out.stdout)
    assert obj["format"] == "assembly"
    return obj["payload"].decode()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_lowers_like_tspipe_opt(path):
    # Byte-identical PTX from the Python API and from tspipe-opt, with the
    # defaults of both (they used to differ: O3 in Python, the NVVM
    # target's default O2 in tspipe-opt).
    text = path.read_text()
    chip = re.search(r'chip = "(sm_\w+)"', text).group(1)
    ptx = lower_to_ptx(text)
    assert f".target {chip}" in ptx and ".visible .entry" in ptx
    assert ptx == _tspipe_opt_ptx(path)
    # Naming the module's own chip changes nothing.
    assert lower_to_ptx(text, arch=chip) == ptx


def test_built_kernel_lowers_like_tspipe_opt(tmp_path):
    k = _kernel()
    try:
        ptx = lower_to_ptx(k)
    except CompileError as err:
        pytest.skip(f"tspipe-to-nvvm does not lower this kernel yet: {err}")
    path = tmp_path / "kernel.mlir"
    path.write_text(k.to_mlir())
    assert ptx == _tspipe_opt_ptx(path)


def test_examples_were_found():
    assert len(EXAMPLES) >= 5
    assert any(p.name == "tma_stream.mlir" for p in EXAMPLES)


def _run_isolated(code):
    """Runs ``code`` in a fresh interpreter: an LLVM fatal error ends that
    process, not the test session."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                         capture_output=True, text=True, timeout=600,
                         cwd=str(ROOT))
    assert "LLVM ERROR" not in out.stderr, out.stderr[-3000:]
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_every_supported_arch_lowers_examples_and_kernels():
    stdout = _run_isolated("""
        import glob, json
        from tspipe.compile import SUPPORTED_ARCHS, lower_to_ptx
        from tspipe.ts import Agent, CooperativeGroup as G, Kernel, PipelineConfig
        T = Agent.Thread
        cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
        k = Kernel(num_warps=8, name="regs", args=["out"])
        ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
        load = k.task("load", 0, 1, produces=[ring])
        with load.domain_loop(0, 8):
            load.acquire(ring).buffer()
            load.commit(ring)
        # setmaxnreg is warpgroup-wide: a whole warpgroup (R41).
        math = k.task("math", 4, 4, consumes=[ring], num_registers=232)
        with math.domain_loop(0, 8):
            math.wait(ring)
            math.release(ring)
        done = {}
        for arch in SUPPORTED_ARCHS:
            n = 0
            for path in sorted(glob.glob("examples/*.mlir")):
                text = open(path).read()
                # tcgen05 examples lower only for the sm_100a family (X7).
                if "sm_100a" in text and arch not in ("sm_100a", "sm_101a"):
                    n += 1
                    continue
                assert ".entry" in lower_to_ptx(text, arch=arch)
                n += 1
            ptx = k.to_ptx(arch)
            assert f".target {arch}" in ptx and "setmaxnreg" in ptx
            done[arch] = n
        print(json.dumps(done))
    """)
    done = json.loads(stdout)
    assert sorted(done) == sorted(SUPPORTED_ARCHS)
    assert all(n == len(EXAMPLES) for n in done.values())


# --------------------------------------------------------------------------
# Architectures: checked before anything reaches LLVM.
# --------------------------------------------------------------------------

def test_unsupported_arch_raises_before_lowering():
    _run_isolated("""
        from tspipe.compile import SUPPORTED_ARCHS, ArchError, lower_to_ptx
        from tspipe.ts import Agent, CooperativeGroup as G, Kernel, PipelineConfig
        T = Agent.Thread
        cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
        k = Kernel(num_warps=5)
        ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
        load = k.task("load", 0, 1, produces=[ring])
        with load.domain_loop(0, 8):
            load.acquire(ring)
            load.commit(ring)
        text = open("examples/tma_stream.mlir").read()
        calls = [lambda: k.to_ptx("sm_80"),
                 lambda: lower_to_ptx(k, arch="sm_89"),
                 lambda: lower_to_ptx(text, arch="sm_89"),
                 lambda: lower_to_ptx(text, arch="banana"),
                 lambda: lower_to_ptx(text, arch="sm_90"),
                 lambda: lower_to_ptx(text, arch="sm_100"),
                 lambda: lower_to_ptx(text, arch="SM_90A"),
                 lambda: k.to_mlir("sm_75"),
                 lambda: k.build(arch="sm_80"),
                 lambda: Kernel(num_warps=1, arch="sm_86")]
        for call in calls:
            try:
                call()
            except ArchError as err:
                assert isinstance(err, ValueError)
                assert err.rule == "X7", err.rule
                for arch in SUPPORTED_ARCHS:
                    assert arch in err.message, err.message
            else:
                raise AssertionError("no ArchError")
    """)


def test_arch_error_messages():
    with pytest.raises(ArchError) as info:
        lower_to_ptx(PLAIN, arch="sm_80")
    assert "sm_90 or newer" in info.value.message
    with pytest.raises(ArchError) as info:
        lower_to_ptx(PLAIN, arch="sm_90")
    assert "sm_90a" in info.value.message and "setmaxnreg" in info.value.message
    assert ArchError.__mro__[1:3] == (TSPipeError, ValueError)


# --------------------------------------------------------------------------
# Verification failures: the same exceptions through to_ptx as through build.
# --------------------------------------------------------------------------

def _uneven_smem_kernel():
    G, T = CooperativeGroup, Agent.Thread
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
    k = Kernel(num_warps=5)
    k.pipeline("ring", cfg, smem_bytes=1001)
    return k


def test_verifier_errors_match_build():
    k = _uneven_smem_kernel()
    with pytest.raises(ScheduleError) as built:
        k.build()
    assert "does not split evenly" in built.value.message
    for call in (k.to_ptx, lambda: lower_to_ptx(k),
                 lambda: lower_to_ptx(k.to_mlir()),
                 lambda: lower_to_ptx_all(k.to_mlir(), "sm_100a")):
        with pytest.raises(ScheduleError) as lowered:
            call()
        assert type(lowered.value) is type(built.value)
        assert lowered.value.message == built.value.message
        assert lowered.value.rule == built.value.rule
        assert lowered.value.location == built.value.location


def test_config_rule_errors_match_build():
    k = Kernel(num_warps=1)
    k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, CooperativeGroup(Agent.Thread, 32), CooperativeGroup(Agent.Thread, 32),
        None))
    text = k.to_mlir().replace("num_stages = 2", "num_stages = 0")
    with pytest.raises(PipelineConfigError) as info:
        lower_to_ptx(text)
    assert info.value.rule == "R9"


def test_pass_rule_errors_are_value_errors():
    G, T = CooperativeGroup, Agent.Thread
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
    k = Kernel(num_warps=5)
    k.pipeline("ring", cfg, smem_bytes=4 * 2 ** 20)
    # R43 (shared memory capacity) at build() and verify(), as at to_ptx().
    for step in (k.build, k.verify, k.to_ptx):
        with pytest.raises(ScheduleError) as info:
            step()
        assert info.value.rule == "R43"
        assert "exceeds the capacity" in str(info.value)


def test_r43_fitting_kernel_builds():
    G, T = CooperativeGroup, Agent.Thread
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
    k = Kernel(num_warps=5)
    k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    k.build()
    k.verify()


def _umma_umma_kernel(arch):
    G, T = CooperativeGroup, Agent.Thread
    cfg = PipelineConfig.create_umma_umma_pipeline_cfg(2, G(T, 1), G(T, 1),
                                                       (1, 1, 1, 1))
    k = Kernel(num_warps=2, arch=arch)
    acc = k.pipeline("acc", cfg)
    p = k.task("p", 0, 1, produces=[acc])
    with p.domain_loop(0, 4):
        p.acquire(acc)
        p.commit(acc)
    c = k.task("c", 1, 1, consumes=[acc])
    with c.domain_loop(0, 4):
        c.wait(acc)
        c.release(acc)
    k.build()
    return k


def test_tcgen05_lowering_needs_sm100a():
    # [X7]: tcgen05.commit exists only on the sm_100a family; on sm_90a the
    # lowering stops with the rule's error (ArchError, the input's fault).
    with pytest.raises(ArchError) as info:
        _umma_umma_kernel("sm_90a").to_ptx()
    assert "[X7]" in info.value.message
    assert "sm_100a" in info.value.message


def test_tcgen05_lowering_on_sm100a():
    ptx = _umma_umma_kernel("sm_100a").to_ptx()
    assert "tcgen05.commit.cta_group::1" in ptx


def test_chips_come_from_the_targets_table():
    from tspipe import targets
    from tspipe._mlir_libs import _tspipe

    assert targets.SUPPORTED_ARCHS == tuple(
        c for c in targets.chips()
        if targets.chip_facts(c)["supported"] and targets.chip_facts(c)["arch_specific"])
    assert {"sm_90a", "sm_100a"} <= set(SUPPORTED_ARCHS)
    assert targets.ptx_features("sm_90a") == "+ptx80"
    assert targets.smem_capacity("sm_90a") == 232448
    assert targets.smem_capacity("sm_120a") < targets.smem_capacity("sm_100a")
    assert targets.chip_facts("sm_100a")["tcgen05"]
    assert not targets.chip_facts("sm_90a")["tcgen05"]
    assert _tspipe.verify_target("m", "sm_90a", "+ptx80") is None
    problem = _tspipe.verify_target("m", "sm_90a", "+ptx70")
    assert problem.startswith("[X7]") and "sm_90a" in problem
    for arch, why in (("banana", "knows no such chip"), ("sm_80", "sm_90 or newer"),
                      ("sm_90", "architecture-specific")):
        with pytest.raises(ArchError) as info:
            targets.check_arch(arch)
        assert why in info.value.message, info.value.message
