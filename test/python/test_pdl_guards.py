"""Programmatic dependent launch and the loop guards every / when_true /
when_false in the Python front end: the builder and TS's schedule DSL emit
the ops, the verifier's rules (R37, X20-X22, R32/R33 under guards) come
back as ScheduleError, the launcher sets the PDL launch attribute, and the
PDL pair example runs through the example runner against the fake driver.
The importer of real TS task managers is run when TS_PYTHON names an
interpreter with nvidia-cutlass-dsl 4.8.1."""

import json
import os
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path

import fake_cuda_driver as fake
import pytest

import tspipe.ir as ir
import tspipe.ts as pl
from tspipe.dialects import llvm
from tspipe.runtime import _driver, launcher
from tspipe.ts import Kernel, PipelineConfig, ScheduleError
from tspipe.ts.resources import MemoryResource, PdlLaunchBarrier, PdlWaitBarrier
from tspipe.ts.schedule import when_false, when_true
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

ROOT = Path(__file__).resolve().parents[2]
G32 = pl.CooperativeGroup(pl.Agent.Thread, 32)


def ring_cfg():
    return PipelineConfig.create_async_async_pipeline_cfg(2, G32, G32, None)


def load_x(kernel):
    """A work step reading the kernel argument x."""
    return llvm.load(ir.F32Type.get(), kernel.arg("x"))


def pdl_kernel(consumer_waits=True):
    k = Kernel(num_warps=2, name="pdl", args=["x", ("n", "index")],
               pdl_inputs=["x"])
    ring = k.pipeline("ring", ring_cfg())
    p = k.task("producer", 0, 1, produces=[ring])
    p.pdl_wait()
    with p.domain_loop(0, k.arg("n"), 1):
        p.acquire(ring)
        p.work(load_x, k)
        p.commit(ring)
    c = k.task("consumer", 1, 1, consumes=[ring])
    if consumer_waits:
        c.pdl_wait()
    with c.domain_loop(0, k.arg("n"), 1):
        c.wait(ring)
        c.work(load_x, k)
        c.release(ring)
    c.pdl_launch_dependents()
    return k


def test_builder_emits_pdl_ops_and_arg_attribute():
    k = pdl_kernel()
    text = str(k.build())
    assert text.count("tspipe.pdl_wait") == 2
    assert "tspipe.pdl_launch_dependents" in text
    assert "tspipe.pdl_input" in text
    ptx = k.to_ptx("sm_90a")
    assert "griddepcontrol.wait;" in ptx
    assert "griddepcontrol.launch_dependents;" in ptx


def test_x20_every_role_waits():
    # The consumer reads x too: its own wait is required (X20), the
    # producer's does not order it.
    with pytest.raises(ScheduleError, match=r"\[X20\].*task '@consumer'"):
        pdl_kernel(consumer_waits=False).build()


def test_x21_pdl_inputs_names_arguments():
    with pytest.raises(ScheduleError, match=r"\[X21\]"):
        Kernel(num_warps=1, args=["x"], pdl_inputs=["y"])


def test_guards_build_and_lower():
    k = Kernel(num_warps=2, name="guards", args=[("n", "index"),
                                                 ("flag", "i1")])
    ring = k.pipeline("ring", ring_cfg())
    p = k.task("producer", 0, 1, produces=[ring])
    with p.domain_loop(0, k.arg("n"), 1):
        with p.every(2, 1):
            p.acquire(ring)
            p.commit(ring)
        with p.when_true(k.arg("flag")):
            p.acquire(ring)
            p.commit(ring)
    c = k.task("consumer", 1, 1, consumes=[ring])
    with c.domain_loop(0, k.arg("n"), 1):
        with c.every(2, 1):
            c.wait(ring)
            c.release(ring)
        with c.when_true(lambda kern: kern.arg("flag")):
            c.wait(ring)
            c.release(ring)
    text = str(k.build())
    assert "tspipe.every period(2) start(1)" in text
    assert text.count("tspipe.when_true") == 2
    assert "setp" in k.to_ptx("sm_90a")


def test_guard_arguments_are_checked():
    k = Kernel(num_warps=1, args=[("n", "index"), ("m", "i32")])
    t = k.task("t", 0, 1)
    with t.domain_loop(0, k.arg("n"), 1):
        with pytest.raises(TypeError, match="i1"):
            t.when_true(k.arg("m"))
        with pytest.raises(TypeError, match="int"):
            t.every(2.0)
        with t.every(2, 2):  # X22, reported by the verifier
            pass
    with pytest.raises(ScheduleError, match=r"\[X22\] start\(2\)"):
        k.build()


def test_unbalanced_guards_are_r33():
    k = Kernel(num_warps=2, args=[("n", "index")])
    ring = k.pipeline("ring", ring_cfg())
    p = k.task("producer", 0, 1, produces=[ring])
    with p.domain_loop(0, k.arg("n"), 1):
        p.acquire(ring)
        with p.every(2):
            p.commit(ring)
    c = k.task("consumer", 1, 1, consumes=[ring])
    with c.domain_loop(0, k.arg("n"), 1):
        c.wait(ring)
        c.release(ring)
    with pytest.raises(ScheduleError, match=r"\[R33\].*ceil\(\(n - 0\) / 2\)"):
        k.build()


@dataclass
class Ring(MemoryResource):
    pass


def ts_pdl(wait_late=False, pdl_inputs=("x",)):
    """TS's vocabulary: a PdlWaitBarrier the ring depends on, a
    PdlLaunchBarrier, every() and when_true/when_false in the schedules."""
    ring = Ring(name="ring", pipeline_config=ring_cfg())
    pdl_wait = PdlWaitBarrier(name="pdl_wait")
    pdl_launch = PdlLaunchBarrier(name="pdl_launch")

    @schedule
    def produce(r, w, launch):
        if not wait_late:
            w.wait_griddep()
        with domain_loop(0, 8, 1) as d:
            with d.every(2, start=1):
                r.acquire(); r.commit()  # noqa: E702
            with when_true(lambda k: k.arg("flag")):
                r.acquire(); r.commit()  # noqa: E702
        if wait_late:
            w.wait_griddep()
        launch.launch_griddep()

    @schedule
    def consume(r):
        with domain_loop(0, 8, 1) as d:
            with d.every(2, start=1):
                r.wait(); r.release()  # noqa: E702
            with when_false(lambda k: k.arg("flag")):
                pass
            with when_true(lambda k: k.arg("flag")):
                r.wait(); r.release()  # noqa: E702

    return TaskManager(
        [Task([pdl_wait], [ring, pdl_launch], 0, 1,
              schedule=produce(ring, pdl_wait, pdl_launch), name="p"),
         Task([ring], [], 1, 1, schedule=consume(ring), name="c")],
        {ring: [pdl_wait]}, verbose=False, args=["x", ("flag", "i1")],
        pdl_inputs=pdl_inputs)


def test_ts_vocabulary_emits_the_ops():
    tm = ts_pdl()
    text = str(tm.module)
    assert "tspipe.pdl_pipelines = [@ring]" in text
    assert "tspipe.pdl_wait" in text and "tspipe.pdl_launch_dependents" in text
    assert "tspipe.every period(2) start(1)" in text
    assert "tspipe.when_false" in text and text.count("tspipe.when_true") == 2


def test_ts_r37_wait_after_first_bracket():
    with pytest.raises(ScheduleError, match=r"\[R37\] task '@p' uses '@ring'"):
        ts_pdl(wait_late=True)


def test_when_true_needs_a_condition():
    with pytest.raises(TypeError):
        when_true()


# --------------------------------------------------------------------------
# Launcher and example runner (fake driver)
# --------------------------------------------------------------------------

@pytest.fixture
def fake_driver(monkeypatch):
    drv = fake.examples_driver()
    monkeypatch.setattr(_driver, "_driver", drv)
    monkeypatch.setattr(launcher, "_ctx", None)
    monkeypatch.setattr(launcher, "_device_info", None)
    monkeypatch.setattr(launcher, "_hung", False)
    return drv


def test_launch_attributes(fake_driver):
    attrs = launcher.launch_attributes((1, 1, 1), pdl=True)
    assert [a.id for a in attrs] == ["pdl"]
    assert attrs[0].value.programmaticStreamSerializationAllowed == 1
    attrs = launcher.launch_attributes((2, 1, 1), pdl=True)
    assert [a.id for a in attrs] == ["cluster", "pdl"]
    assert launcher.launch_attributes((1, 1, 1)) == []


def test_pdl_pair_runs_in_order(fake_driver, tmp_path):
    from tspipe import demo
    from tspipe.runtime import run_examples

    out = tmp_path / "out"
    out.mkdir()
    demo.compile_example(ROOT / "examples" / "pdl_pair.mlir", out,
                         ptxas=None, log=lambda *a: None)
    res = tmp_path / "res"
    rc = run_examples.main([str(out), "--examples", str(ROOT / "examples"),
                            "--only", "pdl_pair", "--results", str(res),
                            "--no-subprocess", "--mode", "check"])
    report = json.loads((res / "results.json").read_text())
    assert rc == 0, report
    (ex,) = report["examples"]
    assert ex["status"] == "pass" and ex["pdl"] is True
    assert ex["before"] == ["pdl_write"]
    checks = [p for p in ex["problems"] if p["mode"] == "check"]
    assert len(checks) == 3
    for p in checks:
        assert p["status"] == "pass" and p["check"]["mismatches"] == 0
    names = [(launch["name"], launch["pdl"]) for launch in fake_driver.launches]
    assert names == [("pdl_write", False), ("pdl_read", True)] * 3


def test_pdl_reader_without_writer_fails(fake_driver, tmp_path):
    """The stand-in reader refuses to run unless launched with PDL right
    after its writer: a spec without BEFORE fails."""
    from tspipe import demo
    from tspipe.runtime import run_examples

    out = tmp_path / "out"
    out.mkdir()
    demo.compile_example(ROOT / "examples" / "pdl_pair.mlir", out,
                         ptxas=None, log=lambda *a: None)
    ex = tmp_path / "examples"
    ex.mkdir()
    src = (ROOT / "examples" / "pdl_pair.py").read_text()
    src = src.replace('BEFORE = [("pdl_write", ["x", "tiles_per_cta"])]',
                      "BEFORE = []")
    (ex / "pdl_pair.py").write_text(src)
    rc = run_examples.main([str(out), "--examples", str(ex), "--results",
                            str(tmp_path / "res"), "--no-subprocess",
                            "--mode", "check"])
    assert rc != 0


# --------------------------------------------------------------------------
# Importer (real TS in its own interpreter)
# --------------------------------------------------------------------------

TS_PYTHON = os.environ.get("TS_PYTHON")


def _tspipe_path(tmp_path):
    import tspipe

    package = Path(tspipe.__file__).resolve().parent
    site = package.parent
    for name in ("tspipe", "llvm"):
        if (site / name).exists():
            (tmp_path / name).symlink_to(site / name)
    return str(tmp_path)


@pytest.mark.skipif(not TS_PYTHON, reason="TS_PYTHON is not set")
def test_from_ts_imports_pdl_and_guards(tmp_path):
    code = textwrap.dedent("""
        from dataclasses import dataclass
        import cutlass.pipeline as pl
        from cutlass.experimental.task_scheduling import (
            schedule, domain_loop)
        from cutlass.experimental.task_scheduling.resources import (
            PipelineConfig, MemoryResource, PdlWaitBarrier, PdlLaunchBarrier)
        from cutlass.experimental.task_scheduling.task import Task
        from cutlass.experimental.task_scheduling.task_manager import (
            TaskManager)
        from tspipe.ts import from_ts

        @dataclass
        class Ring(MemoryResource):
            pass

        g = pl.CooperativeGroup(pl.Agent.Thread, 32)
        cfg = PipelineConfig.create_async_async_pipeline_cfg(
            2, g, g, (1, 1, 1, 1))
        ring = Ring(name="ring", pipeline_config=cfg)
        w = PdlWaitBarrier(name="pdl_wait")
        launch = PdlLaunchBarrier(name="pdl_launch")

        @schedule
        def produce(r, w, launch):
            w.wait_griddep()
            with domain_loop(0, 8, 1) as d:
                with d.every(2, start=1):
                    r.acquire(); r.producer_work(); r.commit()
            launch.launch_griddep()

        @schedule
        def consume(r):
            with domain_loop(0, 8, 1) as d:
                with d.every(2, start=1):
                    r.wait(); r.consumer_work(); r.release()

        tm = TaskManager(
            [Task([w], [ring, launch], 0, 1,
                  schedule=produce(ring, w, launch), name="p"),
             Task([ring], [], 1, 1, schedule=consume(ring), name="c")],
            {ring: [w], launch: []}, verbose=False)
        k = from_ts(tm, arch="sm_90a")
        text = str(k.module)
        assert "tspipe.pdl_wait" in text, text
        assert "tspipe.pdl_launch_dependents" in text, text
        assert "tspipe.every period(2) start(1)" in text, text
        assert "tspipe.pdl_pipelines = [@ring]" in text, text
        print("ok")
    """)
    env = dict(os.environ, PYTHONPATH=_tspipe_path(tmp_path),
               CUTE_DSL_ARCH="sm_100a")
    out = subprocess.run([TS_PYTHON, "-c", code], capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ok" in out.stdout
