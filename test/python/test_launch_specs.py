"""The launch specs of the Python examples (examples/tma_copy.py and
examples/merge_copy.py for examples/python/*.py): sizes, references and
checkers on small inputs, agreement with the kernels they launch, and a
run of the real compiled metadata through the example runner against the
fake driver."""

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]

import fake_cuda_driver as fake  # noqa: E402

from tspipe.runtime import _driver, launcher  # noqa: E402
from tspipe.runtime.checks import CheckFailure  # noqa: E402
from tspipe.runtime.harness import load_spec  # noqa: E402

SPECS = ["tma_copy", "merge_copy"]
CTX = {"sm_count": 132, "ctas_per_sm": 4, "cluster": (1, 1, 1)}


def _spec(name):
    return load_spec(ROOT / "examples" / f"{name}.py")


def _example(name):
    """examples/python/<name>.py (the kernel; needs the bindings)."""
    folder = ROOT / "examples" / "python"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(
            f"tspipe_spec_test_{name}", folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(folder))


@pytest.mark.parametrize("name", SPECS)
def test_problem_sizes(name):
    spec = _spec(name)
    per_cta = spec.TILES_PER_CTA * spec.TILE_ELEMS
    checks = spec.problems("check", CTX)
    assert len(checks) >= 3
    for p in checks:
        assert p["n"] == p["grid"][0] * per_cta
        assert p["tiles_per_cta"] == spec.TILES_PER_CTA
        assert p["n"] >= 1_000_000, p["label"]
    # an odd grid among the checks
    assert any(p["grid"][0] % 2 for p in checks)
    (small,) = spec.problems("sanitize", CTX)
    assert small["n"] == small["grid"][0] * per_cta <= 1 << 16
    (bw,) = spec.problems("bandwidth", CTX)
    assert bw["n"] == bw["grid"][0] * per_cta >= 32 * 2**20
    assert spec.problems("other", CTX) == []


@pytest.mark.parametrize("name", SPECS)
def test_grid_rounds_to_clusters(name):
    spec = _spec(name)
    for p in spec.problems("check", dict(CTX, cluster=(2, 1, 1))):
        assert p["grid"][0] % 2 == 0


@pytest.mark.parametrize("name", SPECS)
def test_reference_and_checker_on_small_inputs(name):
    spec = _spec(name)
    (problem,) = spec.problems("sanitize", CTX)
    inputs = spec.make_inputs(np.random.default_rng(1), problem)
    assert set(inputs) == {p for p, _ in spec.PARAMS}
    for out in spec.OUTPUTS:
        assert inputs[out].shape == (problem["n"],)
        assert inputs[out].dtype == np.float32
    want = spec.expected(inputs)
    assert set(want) == set(spec.OUTPUTS)
    # the copies: every output is its input, element by element
    sources = [p for p, kind in spec.PARAMS if p not in spec.OUTPUTS]
    for out, src in zip(spec.OUTPUTS, sources):
        np.testing.assert_array_equal(want[out], inputs[src])
    good = {k: np.array(v, copy=True) for k, v in want.items()}
    summary = spec.check(good, inputs)
    assert summary["mismatches"] == 0
    assert summary["elements"] == problem["n"] * len(spec.OUTPUTS)
    assert traffic(spec, inputs) == spec.traffic_bytes(inputs)
    # one wrong element, and an unwritten (NaN) one, each fail
    last = spec.OUTPUTS[-1]
    bad = {k: np.array(v, copy=True) for k, v in want.items()}
    bad[last][problem["n"] // 2] += np.float32(1.0)
    with pytest.raises(CheckFailure, match=f"index {problem['n'] // 2}"):
        spec.check(bad, inputs)
    bad = {k: np.array(v, copy=True) for k, v in want.items()}
    bad[last][-1] = np.nan
    with pytest.raises(CheckFailure) as err:
        spec.check(bad, inputs)
    assert err.value.mismatches == 1


def traffic(spec, inputs):
    """Every array is read or written once."""
    return sum(inputs[p].nbytes for p, kind in spec.PARAMS if kind == "ptr")


@pytest.mark.parametrize("name", SPECS)
def test_spec_agrees_with_kernel(name):
    spec = _spec(name)
    example = _example(name)
    tm = example.build()
    kernel = tm.kernel
    assert spec.KERNEL == kernel.name
    assert [p for p, _ in spec.PARAMS] == [
        a if isinstance(a, str) else a[0] for a in kernel.args]
    assert spec.BLOCK_THREADS == 32 * kernel.num_warps
    assert spec.TILE_ELEMS == example.TILE_ELEMS
    assert spec.TILES_PER_CTA == getattr(example, "TILES_PER_CTA",
                                         getattr(example, "NUM_ITERS", None))


@pytest.fixture
def fake_driver(monkeypatch):
    drv = fake.examples_driver()
    monkeypatch.setattr(_driver, "_driver", drv)
    monkeypatch.setattr(launcher, "_ctx", None)
    monkeypatch.setattr(launcher, "_device_info", None)
    monkeypatch.setattr(launcher, "_hung", False)
    return drv


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """out/ as `make demo` writes it for the two Hopper Python examples
    (PTX and metadata; no ptxas needed)."""
    from tspipe import demo

    out = tmp_path_factory.mktemp("out")
    for name in SPECS:
        demo.compile_example(ROOT / "examples" / "python" / f"{name}.py",
                             out, ptxas=None, log=lambda *a: None)
    return out


@pytest.fixture
def small_specs(tmp_path):
    """The real specs, with a small bandwidth problem (fast on the CPU)."""
    ex = tmp_path / "examples"
    ex.mkdir()
    for name in SPECS:
        src = (ROOT / "examples" / f"{name}.py").read_text()
        src = src.replace("BANDWIDTH_ELEMS = 64 * 1024 * 1024",
                          "BANDWIDTH_ELEMS = 1 << 20")
        src = src.replace("BANDWIDTH_ELEMS = 32 * 1024 * 1024",
                          "BANDWIDTH_ELEMS = 1 << 20")
        assert "BANDWIDTH_ELEMS = 1 << 20" in src
        (ex / f"{name}.py").write_text(src)
    return ex


def test_runner_runs_compiled_examples(fake_driver, compiled, small_specs,
                                       tmp_path):
    from tspipe.runtime import run_examples
    from tspipe.runtime.meta import ExampleMeta

    for name in SPECS:
        meta = ExampleMeta.load(compiled / f"{name}.sm_90a.json")
        (k,) = meta.kernels
        assert k.block_threads == _spec(name).BLOCK_THREADS
    res = tmp_path / "res"
    rc = run_examples.main([str(compiled), "--examples", str(small_specs),
                            "--results", str(res), "--no-subprocess",
                            "--iters", "2", "--warmup", "1"])
    report = json.loads((res / "results.json").read_text())
    assert rc == 0, report
    by_name = {e["example"]: e for e in report["examples"]}
    assert set(by_name) == set(SPECS)
    for name in SPECS:
        ex = by_name[name]
        assert ex["status"] == "pass"
        modes = [p["mode"] for p in ex["problems"]]
        assert modes.count("check") == 3 and modes.count("bandwidth") == 1
        for p in ex["problems"]:
            assert p["status"] == "pass" and p["check"]["mismatches"] == 0
    # launched as the metadata says: 8 warps, the allocated smem
    for launch in fake_driver.launches:
        if launch["name"] in SPECS:
            assert launch["block"] == (256, 1, 1)
            meta = ExampleMeta.load(compiled / f"{launch['name']}.sm_90a.json")
            assert launch["smem"] == meta.kernels[0].smem_bytes > 0


def test_runner_catches_stale_stage(fake_driver, compiled, small_specs,
                                    tmp_path):
    from tspipe.runtime import run_examples

    fake_driver.kernels["merge_copy"] = fake.stale_merge_copy_kernel
    rc = run_examples.main([str(compiled), "--examples", str(small_specs),
                            "--results", str(tmp_path), "--no-subprocess",
                            "--mode", "check", "--only", "merge_copy"])
    assert rc == 1
    (ex,) = json.loads((tmp_path / "results.json").read_text())["examples"]
    assert ex["status"] == "fail"
    assert "db: first mismatch at index 2048" in ex["problems"][0]["error"]


def test_tma_copy_release_fences_async_proxy(compiled):
    """tma_copy releases a stage right after its shared-memory loads; the
    release must fence the async proxy before lane 0 arrives, or the next
    bulk copy can land under those loads (found on an H200,
    docs/gpu-runs.md)."""
    ptx = (compiled / "tma_copy.sm_90a.ptx").read_text()
    body = ptx[ptx.index("ld.shared"):]
    fence = body.index("fence.proxy.async.shared::cta")
    assert fence < body.index("bar.warp.sync")
    # the release arrive on the empty barrier follows the fence
    assert "mbarrier.arrive.shared" in body[fence:]
