"""The MLIR binding layer: tspipe.ir, tspipe.passmanager, tspipe.dialects.

The dialect loads in every tspipe.ir.Context (with the upstream dialects a
kernel lives in), tspipe IR parses and prints back unchanged, the generated
op builders and enums exist, PassManager.parse names tspipe passes and runs
tspipe-allocate-smem, and tspipe-opt is installed next to the interpreter.
Every snippet of README.md's "Python" section runs.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import tspipe.ir as ir
import tspipe.passmanager as passmanager
from tspipe.dialects import tspipe as tsd

KERNEL = """\
gpu.module @demo [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @demo(%out: !llvm.ptr<1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    tspipe.kernel warps(6) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 4>>) smem_bytes(16384)
      tspipe.pipeline @acc config(<async_async, num_stages = 2, producer_group = <thread, 128>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %c8 step %c1 {
          %s = tspipe.producer_acquire @ring
          %b = tspipe.full_barrier %s : !llvm.ptr<3>
          %p = tspipe.stage_buffer %s : !llvm.ptr<3>
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @math warps(1, 4) produces [@acc] consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %c8 step %c1 {
          %r = tspipe.consumer_try_wait @ring
          %s = tspipe.consumer_wait @ring ready(%r)
          tspipe.consumer_release @ring
          tspipe.last_iter {
            %a = tspipe.producer_acquire @acc
            tspipe.producer_commit @acc
          }
        }
      }
      tspipe.task @store warps(5, 1) consumes [@acc] {
        tspipe.domain_loop %i = %c0 to %c8 step %c1 {
          tspipe.last_iter {
            %a = tspipe.consumer_wait @acc
            tspipe.consumer_release @acc
          }
        }
      }
    }
    gpu.return
  }
}
"""


def test_dialects_loaded(ctx):
    for name in ("tspipe", "gpu", "nvvm", "llvm", "arith", "scf", "func",
                 "memref", "cf", "index"):
        assert ctx.get_dialect_descriptor(name).namespace == name
    for op in ("tspipe.kernel", "tspipe.producer_acquire", "gpu.func",
               "nvvm.mbarrier.init", "llvm.store", "arith.constant", "scf.for",
               "func.func", "memref.alloc", "cf.br"):
        assert ctx.is_registered_operation(op), op
    assert ctx.dialects["tspipe"] is not None


def test_register_dialect_in_plain_context():
    # register_dialect works on a context too (it is idempotent).
    with ir.Context() as context:
        tsd.register_dialect(context)
        assert context.dialects["tspipe"] is not None


def test_round_trip(ctx):
    module = ir.Module.parse(KERNEL)
    printed = str(module)
    assert "tspipe.kernel warps(6)" in printed
    assert "tspipe.consumer_wait @ring ready(" in printed
    again = ir.Module.parse(printed)
    assert str(again) == printed
    # Generic form round-trips as well.
    generic = module.operation.get_asm(print_generic_op_form=True)
    assert str(ir.Module.parse(generic)) == printed


def test_generated_op_classes_and_enums(ctx):
    assert tsd.KernelOp.OPERATION_NAME == "tspipe.kernel"
    assert tsd.PipelineOp.OPERATION_NAME == "tspipe.pipeline"
    assert tsd.TaskOp.OPERATION_NAME == "tspipe.task"
    assert tsd.DomainLoopOp.OPERATION_NAME == "tspipe.domain_loop"
    assert tsd.ProducerAcquireOp.OPERATION_NAME == "tspipe.producer_acquire"
    assert tsd.ConsumerReleaseOp.OPERATION_NAME == "tspipe.consumer_release"
    assert {m.name for m in tsd.PipelineType} >= {
        "AsyncAsync", "TmaAsync", "TmaUmma", "UmmaAsync", "AsyncUmma",
        "UmmaUmma", "ClcFetchAsync"}
    assert {m.name for m in tsd.Role} == {"Producer", "Consumer"}
    module = ir.Module.parse(KERNEL)
    kernels = []

    def collect(op):
        if op.name == "tspipe.kernel":
            kernels.append(op.opview)
        return ir.WalkResult.ADVANCE

    module.operation.walk(collect)
    assert len(kernels) == 1 and isinstance(kernels[0], tsd.KernelOp)
    assert ir.IntegerAttr(kernels[0].attributes["num_warps"]).value == 6


def test_op_builder(ctx):
    # Build ops with the op-class extensions of tspipe.dialects.tspipe: body
    # blocks are created, attributes and result types implied; the config
    # attribute comes through the C API.
    from tspipe.ts import Agent, CooperativeGroup, PipelineConfig

    config = PipelineConfig.create_umma_umma_pipeline_cfg(
        2, CooperativeGroup(Agent.Thread, 1), CooperativeGroup(Agent.Thread, 1),
        (1, 1, 1, 1)).to_attr(ctx)
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        kernel = tsd.KernelOp(num_warps=4)
        with ir.InsertionPoint(kernel.body_block):
            tsd.PipelineOp("p", config)
            task = tsd.TaskOp("t", 0, 1, produces=["p"])
        with ir.InsertionPoint(task.body_block):
            stage = tsd.producer_acquire("p")
            assert str(stage.type) == "!tspipe.stage"
            assert str(tsd.stage_buffer(stage).type) == "!llvm.ptr<3>"
            tsd.producer_commit("p")
    # Not a whole kernel (no domain loop): print without verifying.
    text = module.operation.get_asm(assume_verified=True)
    assert "tspipe.pipeline @p config(<umma_umma, num_stages = 2" in text
    assert "tspipe.task @t warps(0, 1) produces [@p]" in text
    assert len(kernel.regions[0].blocks) == 1


def test_verifier_error_names_rule(ctx):
    bad = KERNEL.replace("warps(1, 4) produces [@acc] consumes [@ring]",
                         "warps(1, 4) consumes [@ring]")
    with pytest.raises(ir.MLIRError) as info:
        ir.Module.parse(bad)
    messages = [d.message for d in info.value.error_diagnostics]
    assert any("[R27]" in m for m in messages), messages


def test_passmanager_runs_allocate_smem(ctx):
    module = ir.Module.parse(KERNEL)
    pm = passmanager.PassManager.parse(
        "builtin.module(gpu.module(tspipe-allocate-smem))")
    pm.run(module.operation)
    text = str(module)
    assert "barrier_offset = 0" in text
    assert "buffer_offset =" in text
    assert "smem_bytes =" in text or "smem_bytes(" in text
    pipelines = []

    def collect(op):
        if op.name == "tspipe.pipeline":
            pipelines.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(collect)
    offsets = {ir.StringAttr(p.attributes["sym_name"]).value:
               ir.IntegerAttr(p.attributes["barrier_offset"]).value for p in pipelines}
    # Barriers first, in declaration order: 16 bytes per stage.
    assert offsets == {"ring": 0, "acc": 64}


def test_passmanager_knows_the_pipeline_and_upstream_passes(ctx):
    pm = passmanager.PassManager.parse(
        "builtin.module(tspipe-to-nvvm, gpu-module-to-binary{format=isa})")
    assert "convert-tspipe-to-nvvm" in str(pm)
    passmanager.PassManager.parse("builtin.module(canonicalize, cse)")


def test_tspipe_opt_installed():
    scripts = sysconfig.get_path("scripts")
    tool = os.path.join(scripts, "tspipe-opt")
    if not os.path.exists(tool):
        tool = shutil.which("tspipe-opt")
    assert tool and os.access(tool, os.X_OK), "tspipe-opt is not installed"
    help_text = subprocess.run([tool, "--help"], capture_output=True, text=True,
                               check=True).stdout
    assert "tspipe-allocate-smem" in help_text
    printed = subprocess.run([tool], input=KERNEL, capture_output=True,
                             text=True, check=True).stdout
    with ir.Context():
        assert str(ir.Module.parse(printed)) == str(ir.Module.parse(KERNEL))


def test_import_tspipe_loads_no_extension():
    # `import tspipe` loads nothing compiled; tspipe.ts does (its enums are
    # the dialect's generated ones, its checks the C++ verifiers).
    code = (
        "import sys, tspipe\n"
        "assert not any(m.startswith('tspipe._mlir_libs') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('tspipe'))\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_runtime_imports_without_extension():
    code = (
        "import sys, importlib.util\n"
        "if importlib.util.find_spec('tspipe.runtime') is None:\n"
        "    print('absent'); sys.exit(0)\n"
        "import tspipe.runtime\n"
        "assert not any(m.startswith('tspipe._mlir_libs') for m in sys.modules)\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "absent":
        pytest.skip("tspipe.runtime is not part of this build")
    assert out.stdout.strip() == "ok"


def test_coexists_with_upstream_mlir_package():
    # Two MLIR copies in one process: only works because the aggregate CAPI
    # library exports nothing but the C API.
    code = (
        "import importlib.util, sys\n"
        "if importlib.util.find_spec('mlir') is None or "
        "importlib.util.find_spec('mlir.ir') is None:\n"
        "    print('absent'); sys.exit(0)\n"
        "import mlir.ir, tspipe.ir\n"
        "with tspipe.ir.Context():\n"
        "    tspipe.ir.Module.parse('tspipe.kernel warps(1) {}')\n"
        "with mlir.ir.Context():\n"
        "    mlir.ir.Module.parse('func.func @f() { return }')\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "absent":
        pytest.skip("the upstream mlir Python package is not installed")
    assert out.stdout.strip() == "ok"


# --------------------------------------------------------------------------
# Every snippet of README.md's "Python" section runs as written.
# --------------------------------------------------------------------------

_ROOT = Path(__file__).resolve().parents[2]
_HERE = Path(__file__).resolve().parent


def _readme_python_snippets():
    text = (_ROOT / "README.md").read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


README_SNIPPETS = _readme_python_snippets()


def test_readme_python_section_has_the_examples():
    joined = "\n".join(README_SNIPPETS)
    assert len(README_SNIPPETS) >= 4
    # The TS front end: a factory, a kernel with a producer and a consumer
    # task, build, to_ptx.
    assert "PipelineConfig.create_" in joined
    assert "produces=[" in joined and "consumes=[" in joined
    assert ".build()" in joined and ".to_ptx(" in joined


@pytest.fixture(scope="module")
def readme_workdir(tmp_path_factory):
    """A directory with examples/tma_stream.mlir and the out/ that `make
    demo` writes for it (PTX and metadata JSON)."""
    opt = Path(sys.executable).parent / "tspipe-opt"
    if not opt.is_file():
        pytest.skip("tspipe-opt is not installed next to this Python")
    work = tmp_path_factory.mktemp("readme")
    (work / "examples").mkdir()
    for name in ("tma_stream.mlir", "tma_stream.py"):
        shutil.copy(_ROOT / "examples" / name, work / "examples" / name)
    out = subprocess.run(
        [sys.executable, "-m", "tspipe.demo", "--examples", str(work / "examples"),
         "--out", str(work / "out"), "--tspipe-opt", str(opt), "--no-ptxas",
         "--no-run"], capture_output=True, text=True, timeout=600, cwd=str(work))
    assert out.returncode == 0, out.stdout + out.stderr
    assert (work / "out" / "tma_stream.sm_90a.ptx").is_file()
    assert (work / "out" / "tma_stream.sm_90a.json").is_file()
    return work


@pytest.mark.parametrize("index", range(len(README_SNIPPETS)))
def test_readme_python_snippet_runs(index, readme_workdir):
    # The runtime snippet launches through the test's fake CUDA driver (no
    # GPU here); everything else runs for real.
    env = dict(os.environ, TSPIPE_FAKE_CUDA_DRIVER=(
        f"{_HERE / 'fake_cuda_driver.py'}:examples_driver"))
    out = subprocess.run([sys.executable, "-c", README_SNIPPETS[index]],
                         capture_output=True, text=True, timeout=600,
                         cwd=str(readme_workdir), env=env)
    assert out.returncode == 0, README_SNIPPETS[index] + "\n" + out.stderr


def test_docs_python_builder_snippet_runs():
    # The builder example of docs/python.md runs as written.
    text = (_ROOT / "docs" / "python.md").read_text()
    section = text.split("\n## The builder API\n", 1)[1].split("\n## ", 1)[0]
    (snippet,) = re.findall(r"```python\n(.*?)```", section, re.S)
    exec(compile(snippet, "docs/python.md", "exec"), {})


def test_config_facts_are_the_cxx_getters(ctx):
    from tspipe._mlir_libs import _tspipe

    attr = ir.Attribute.parse(
        "#tspipe.config<async_async, num_stages = 4, producer_group = "
        "<warp, 2>, consumer_group = <thread, 32>, cta_layout_vmnk = "
        "[1, 2, 1, 1], advance_on_wait = true, interleave_stride = "
        "[1, 1, 2, 1]>")
    facts = _tspipe.config_facts(attr)
    assert facts["strides"] == (1, 1, 2, 1)
    assert facts["barrier_bytes"] == 16 * 4
    assert facts["cluster_size"] == 2
    assert (facts["full_arrive_count"], facts["empty_arrive_count"]) == (64, 32)
    with pytest.raises(TypeError):
        _tspipe.config_facts(ir.Attribute.parse("unit"))


def test_nvvm_target_fields_through_the_c_api(ctx):
    from tspipe._mlir_libs import _tspipe

    target = ir.Attribute.parse(
        '#nvvm.target<O = 2, chip = "sm_100a", features = "+ptx86">')
    assert _tspipe.nvvm_target_fields(target) == {
        "chip": "sm_100a", "features": "+ptx86", "O": 2}
    with pytest.raises(TypeError):
        _tspipe.nvvm_target_fields(ir.Attribute.parse('"sm_90a"'))


def test_pipeline_type_facts_through_the_c_api():
    from tspipe._mlir_libs import _tspipe

    names = [str(t) for t in tsd.PipelineType]
    for kind in tsd.PipelineType:
        facts = _tspipe.pipeline_type_facts(int(kind))
        assert facts["name"] == str(kind)
        assert set(facts["producer"]) == set(facts["consumer"]) == {
            "unit", "proxy", "interleaves", "arrival", "widened_reach", "widen"}
    tma_umma = _tspipe.pipeline_type_facts(int(tsd.PipelineType.TmaUmma))
    assert tma_umma["uses_tcgen05"] and tma_umma["needs_cta_layout"]
    tma_async = _tspipe.pipeline_type_facts(int(tsd.PipelineType.TmaAsync))
    assert not tma_async["uses_tcgen05"] and not tma_async["needs_cta_layout"]
    with pytest.raises(ValueError):
        _tspipe.pipeline_type_facts(len(names))
