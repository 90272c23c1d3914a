"""Every error of the front end carries a rule id (docs/Rules.md) and the
user's Python line; build(), verify(), to_ptx() and lower_to_ptx() raise
alike, the progress checker's failures included."""

import os
import sys

import pytest

from tspipe.compile import lower_to_ptx
from tspipe.ts import (
    Agent,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    ScheduleError,
    TSPipeError,
)

G = CooperativeGroup
T = Agent.Thread
THIS_FILE = os.path.basename(__file__)


def here() -> int:
    """The caller's line number."""
    return sys._getframe(1).f_lineno


def ring_cfg(stages=2):
    return PipelineConfig.create_async_async_pipeline_cfg(
        stages, G(T, 32), G(T, 32), None)


def two_tasks(**kernel_args):
    k = Kernel(num_warps=2, **kernel_args)
    ring = k.pipeline("ring", ring_cfg())
    p = k.task("p", 0, 1, produces=[ring])
    c = k.task("c", 1, 1, consumes=[ring])
    return k, ring, p, c


# -- shape errors: raised at the call ---------------------------------------


def _bad_name():
    Kernel(num_warps=1, name="not a name")


def _duplicate_args():
    Kernel(num_warps=1, args=["x", "x"])


def _huge_int():
    k = Kernel(num_warps=2)
    k.task("t", 2 ** 70, 1)


def _stage_after_its_block():
    k, ring, p, c = two_tasks()
    with p.domain_loop(0, 4):
        stage = p.acquire(ring)
        p.commit(ring)
    stage.index()


def _stage_of_another_task():
    k, ring, p, c = two_tasks()
    with p.domain_loop(0, 4):
        stage = p.acquire(ring)
        p.commit(ring)
        with c.domain_loop(0, 4):
            c.work(lambda: stage.index())


# Checks of Python values (names, integers the IR cannot hold) and of the
# builder's own scopes: raised at the call.
@pytest.mark.parametrize("make,rule", [
    (_bad_name, "X9"),
    (_duplicate_args, "X9"),
    (_huge_int, "X9"),
    (_stage_after_its_block, "R22"),
    (_stage_of_another_task, "R22"),
])
def test_call_errors_carry_rule_and_line(make, rule):
    with pytest.raises(ScheduleError) as info:
        make()
    err = info.value
    assert err.rule == rule, str(err)
    assert str(err).startswith(f"[{rule}]"), str(err)
    assert THIS_FILE in err.location, err.location


# -- rules the C++ verifiers check: reported at build(), at the op's line ----


def _with_loop(task):
    with task.domain_loop(0, 1):
        pass


def _underscore_kernel():
    # X10: '_' alone is no PTX entry name.
    line = here(); k = Kernel(num_warps=1, name="_")  # noqa: E702
    _with_loop(k.task("t", 0, 1))
    return k, line


def _too_many_warps():
    # The CTA's warp count is TS's R18 (warps in [1, 32]).
    line = here(); k = Kernel(num_warps=33)  # noqa: E702
    _with_loop(k.task("t", 0, 1))
    return k, line


def _task_outside_the_kernel():
    k = Kernel(num_warps=2)
    line = here(); t = k.task("t", 1, 2)  # noqa: E702
    _with_loop(t)
    return k, line


def _token_of_the_other_side():
    k = Kernel(num_warps=1)
    ring = k.pipeline("ring", ring_cfg())
    t = k.task("t", 0, 1, produces=[ring], consumes=[ring])
    with t.domain_loop(0, 4):
        token = t.try_wait(ring)
        line = here(); t.acquire(ring, ready=token)  # noqa: E702
        t.commit(ring)
        t.wait(ring)
        t.release(ring)
    return k, line


def _token_of_another_pipeline():
    k = Kernel(num_warps=1)
    a = k.pipeline("a", ring_cfg())
    b = k.pipeline("b", ring_cfg())
    t = k.task("t", 0, 1, produces=[a, b], consumes=[a])
    with t.domain_loop(0, 4):
        token = t.try_acquire(b)
        line = here(); t.acquire(a, ready=token)  # noqa: E702
        t.commit(a)
        t.wait(a)
        t.release(a)
    return k, line


@pytest.mark.parametrize("make,rule,says", [
    (_underscore_kernel, "X10", "PTX identifier"),
    (_too_many_warps, "R18", "warps(33) must be in [1, 32]"),
    (_task_outside_the_kernel, "X9", "do not fit in the kernel's 2 warps"),
    (_token_of_the_other_side, "R34", "tspipe.consumer_try_wait"),
    (_token_of_another_pipeline, "R34", "probes pipeline @b"),
])
def test_verifier_errors_carry_rule_text_and_line(make, rule, says):
    # The C++ diagnostic itself, not a Python restatement: its rule id, its
    # text and the Python line of the op it is about.
    k, line = make()
    with pytest.raises(ScheduleError) as info:
        k.build()
    err = info.value
    assert err.rule == rule, str(err)
    assert f"[{rule}]" in err.message and says in err.message, err.message
    assert f'{THIS_FILE}":{line}:' in err.location, (line, err.location)


# -- shape errors: reported by the C++ verifiers at build() -----------------


def _overlapping_tasks():
    k = Kernel(num_warps=2)
    a = k.task("a", 0, 2)
    with a.domain_loop(0, 1):
        pass
    line = here(); b = k.task("b", 1, 1)  # noqa: E702
    with b.domain_loop(0, 1):
        pass
    return k, line


def _uneven_buffer():
    k = Kernel(num_warps=2)
    line = here(); ring = k.pipeline("ring", ring_cfg(3), smem_bytes=1000)  # noqa: E702
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 3):
        p.acquire(ring)
        p.commit(ring)
    c = k.task("c", 1, 1, consumes=[ring])
    with c.domain_loop(0, 3):
        c.wait(ring)
        c.release(ring)
    return k, line


@pytest.mark.parametrize("make", [_overlapping_tasks, _uneven_buffer])
def test_shape_errors_of_the_verifier_carry_their_rule(make):
    # The kernel's shape that only the whole kernel shows is X9.
    k, line, *rule = make()
    with pytest.raises(ScheduleError) as info:
        k.build()
    err = info.value
    assert err.rule == (rule[0] if rule else "X9"), str(err)
    assert all(d.rule is not None for d in err.diagnostics), err.diagnostics
    assert THIS_FILE in err.location, err.location
    if line is not None:
        assert f":{line}:" in err.location, (line, err.location)


def test_module_without_gpu_module_is_x9():
    with pytest.raises(TSPipeError) as info:
        lower_to_ptx("module {}")
    assert info.value.rule == "X9", str(info.value)


# -- the progress checker: build() runs it, every entry point alike --------


def _deadlock():
    """The producer runs 8 iterations, the consumer 4: the producer blocks
    on the empty barrier of a stage nobody releases again (R70)."""
    k, ring, p, c = two_tasks(name="dead")
    with p.domain_loop(0, 8):
        acquire = here(); p.acquire(ring)  # noqa: E702
        p.commit(ring)
    with c.domain_loop(0, 4):
        c.wait(ring)
        c.release(ring)
    return k, acquire


def test_build_runs_the_progress_checker():
    k, _ = _deadlock()
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert info.value.rule == "R70"
    # The C++ verifiers alone accept it.
    assert k.build(check_progress=False) is k.module


@pytest.mark.parametrize("entry", ["build", "verify", "to_ptx", "text"])
def test_progress_error_points_at_the_bracket_and_locates_its_notes(entry):
    k, acquire = _deadlock()
    with pytest.raises(ScheduleError) as info:
        if entry == "text":
            # Through the pass pipeline (tspipe-to-nvvm reports it on the
            # kernel op): the same error, at the same line.
            text = k.to_mlir()
            lower_to_ptx(text)
        else:
            getattr(k, entry)()
    err = info.value
    assert err.rule == "R70", str(err)
    # At the blocked acquire's line, not at the Kernel(...) line.
    assert f'{THIS_FILE}":{acquire}:' in err.location, err.location
    notes = err.diagnostics[0].notes
    assert notes, err.diagnostics
    for note in notes:
        assert THIS_FILE in note.split(": ")[0], note
        assert "see current operation" not in note
    assert notes[0].split(": ")[0].endswith(f"{THIS_FILE}:{acquire}:1")
    # The exception text lists the notes with their lines.
    assert "note: " in str(err) and f"{THIS_FILE}:{acquire}:1" in str(err)
