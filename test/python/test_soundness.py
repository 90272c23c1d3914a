"""No user input kills the process (rule X14, docs/Rules.md).

An `llvm.load` with `alignment = 3` (or -2**63) in a work step used to pass
`build()` and then abort the Python process inside LLVM's translation at
`to_ptx()` (an assertion on `llvm::Align`). Each case runs in a child
process, so that an abort fails the test instead of ending the test run,
and must come back as a tspipe error naming X14.
"""

import subprocess
import sys
import textwrap

import pytest

CASE = textwrap.dedent("""
    import tspipe.ir as ir
    from tspipe.dialects import llvm
    from tspipe.ts import (Agent, CooperativeGroup as G, Kernel,
                           PipelineConfig, ScheduleError)
    T = Agent.Thread
    k = Kernel(num_warps=2, args=["out"], name="align")
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 32), None), smem_bytes=2 * 256)
    p = k.task("p", 0, 1, produces=[ring])
    c = k.task("c", 1, 1, consumes=[ring])
    with p.domain_loop(0, 4):
        p.acquire(ring)
        p.commit(ring)
    with c.domain_loop(0, 4):
        got = c.wait(ring)
        c.work(lambda: llvm.load(ir.IntegerType.get_signless(32),
                                 got.buffer(), alignment={alignment}))
        c.release(ring)
    for step in (k.build, lambda: k.to_ptx("sm_90a")):
        try:
            step()
        except ScheduleError as err:
            print("tspipe error:", err)
        else:
            print("accepted")
""")


def run_case(alignment):
    proc = subprocess.run([sys.executable, "-c",
                           CASE.format(alignment=alignment)],
                          capture_output=True, text=True, timeout=300)
    return proc


@pytest.mark.parametrize("alignment", ["3", "-2**63", "2**33", "6"])
def test_bad_alignment_is_a_tspipe_error(alignment):
    proc = run_case(alignment)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == 2, proc.stdout
    for line in lines:
        assert line.startswith("tspipe error:"), proc.stdout
        assert "[X14]" in line, proc.stdout
        assert "alignment" in line, proc.stdout


@pytest.mark.parametrize("alignment", ["4", "16"])
def test_good_alignment_compiles(alignment):
    proc = run_case(alignment)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == ["accepted", "accepted"], proc.stdout
