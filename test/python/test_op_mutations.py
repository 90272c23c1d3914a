"""No user input kills the process (issue 17 item 8), for the work-model,
PDL, guard, buffer / alias-group, loop-state and named-barrier ops:
mutated IR through tspipe-opt's pass pipelines (op_mutations.py) and
malformed values through the Python builders' build() and to_ptx()
(builder_mutations.py, in a child interpreter so an abort cannot take the
test run with it)."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import builder_mutations as B  # noqa: E402
import op_mutations as M  # noqa: E402


def test_seeds_cover_the_new_ops():
    text = "\n".join(t for _, t in M.seeds())
    for op in ("tspipe.work_tile_loop", "tspipe.skippable",
               "tspipe.fetch_work_tile", "tspipe.pdl_wait", "tspipe.every",
               "tspipe.when_true", "tspipe.alias_group",
               "tspipe.buffer_address", "tspipe.tmem_column", "iter_args",
               "tspipe.named_barrier_sync", "tspipe.named_barrier_arrive"):
        assert op in text, op


def test_mutated_ir_never_crashes_tspipe_opt():
    opt = M.find_opt()
    # A slow run (the progress checker on an extreme period) is no crash.
    found = M.fuzz(opt, 120, seed=3, timeout=30)
    report = "\n\n".join(
        f"{name} ({change}) {' '.join(pipeline)}\n{err}\n{text}"
        for name, change, pipeline, err, text in found)
    assert not found, f"tspipe-opt crashed:\n{report}"


def test_the_crash_detector_sees_an_abort():
    proc = subprocess.run([sys.executable, "-c", "import os; os.abort()"],
                          capture_output=True, text=True)
    assert M.crashed(proc)
    ok = subprocess.run([sys.executable, "-c", "raise SystemExit(1)"],
                        capture_output=True, text=True)
    assert not M.crashed(ok)


def _run_builders(names):
    proc = subprocess.run([sys.executable, os.path.join(HERE,
                                                        "builder_mutations.py"),
                           *names], capture_output=True, text=True,
                          timeout=900)
    done = {}
    for line in proc.stdout.splitlines():
        if line.startswith("OK "):
            _, name, outcome = line.split(" ", 2)
            done[name] = outcome
    return proc, done


def test_builder_mutants_never_abort_the_interpreter():
    names = list(B.MUTANTS)
    proc, done = _run_builders(names)
    missing = [n for n in names if n not in done]
    assert proc.returncode == 0 and not missing, (
        f"the interpreter died at mutant {missing[:1]} "
        f"(status {proc.returncode}):\n{proc.stderr[-3000:]}")
    # The unmutated kernel lowers: the mutants test the values, not a
    # broken base.
    assert done["baseline"] == "ptx", done["baseline"]


@pytest.mark.parametrize("name, rule", [
    # An alias group beside a persistent task asserted in X23's model.
    ("alias_ring", "X23"),
    ("start_past_period", "X22"),
    ("period_0", "X22"),
    ("grid_0", "R35"),
    ("queue_unknown", "R19"),
])
def test_builder_mutants_raise_their_rule(name, rule):
    proc, done = _run_builders([name])
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"[{rule}]" in done[name], done[name]
