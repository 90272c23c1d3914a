"""Malformed inputs to the Python builders of the work-model, PDL, guard,
buffer / alias-group and loop-state ops: each mutant builds one kernel with
one bad value and calls ``build()`` and ``to_ptx()``. Every outcome must be
success or a Python exception; an abort of the interpreter is a crash.

Run as a script, it runs the mutants named on the command line (all when
none) in this interpreter and prints ``OK <name> <outcome>`` after each, so
a parent that sees the process die knows the mutant that killed it
(test_op_mutations.py)."""

from __future__ import annotations

import sys

import tspipe.ir as ir
import tspipe.ts as pl
from tspipe.dialects import arith
from tspipe.ts import Kernel, PipelineConfig

G32 = pl.CooperativeGroup(pl.Agent.Thread, 32)
BIG = [0, -1, 2 ** 31, 2 ** 32, 2 ** 63 - 1, -2 ** 63, 2 ** 64]


def _ring():
    return PipelineConfig.create_async_async_pipeline_cfg(2, G32, G32, None)


def persistent(grid=(4, 2), period=2, start=0, skip=False, skippable=None,
               when=None, buffer_bytes=256, tmem_columns=None,
               alias=None, address="scratch", carried=1, yields=None,
               advance="wq", queue="wq", clc=None, pdl=True, launch=True,
               domain=(0, 4, 1), wq_name="wq"):
    """A static-queue persistent kernel with every guard, PDL points, a
    buffer in an alias group and a carried loop value; each keyword is one
    thing a mutant changes."""
    k = Kernel(num_warps=2, name="mut", args=[("c", "i1")])
    ring = k.pipeline("ring", _ring(), smem_bytes=128)
    if clc is not None:
        k.pipeline("clc", clc, smem_bytes=32)
        k.work_queue(wq_name, clc="clc")
    else:
        k.work_queue(wq_name, grid=list(grid))
    if buffer_bytes is not None or tmem_columns is not None:
        k.buffer("scratch", buffer_bytes, tmem_columns=tmem_columns)
    if alias is not None:
        k.alias_group("g", alias)
    skip_fn = None
    if skip:
        def skip_fn(*coords):
            return arith.constant(ir.IntegerType.get_signless(1), 0)
    for name, warp, side in (("p", 0, "p"), ("c", 1, "c")):
        t = k.task(name, warp, 1, **({"produces": [ring]} if side == "p"
                                     else {"consumes": [ring]}))
        with t.work_tile_loop(queue, skip_if=skip_fn):
            if pdl and side == "p":
                t.pdl_wait()
            scope = t.skippable() if (skippable if skippable is not None
                                      else skip) else None
            if scope is not None:
                scope.__enter__()
            with t.ops():
                zero = arith.constant(ir.IntegerType.get_signless(32), 0)
            loop = t.domain_loop(*domain, iter_args=[zero] * carried)
            with loop as got:
                _, values = got if carried else (got, [])
                guard = (t.every(period, start) if when is None else
                         (t.when_true(when(k)) if side == "p"
                          else t.when_false(when(k))))
                with guard:
                    if side == "p":
                        t.acquire(ring)
                        t.commit(ring)
                    else:
                        t.wait(ring)
                        t.release(ring)
                with t.ops():
                    if address is not None:
                        t.buffer_address(address)
                t.loop_yield(*(values if yields is None else yields(values)))
            if scope is not None:
                scope.__exit__(None, None, None)
            if advance is not None:
                t.advance_work_tile(advance)
            if launch and side == "c":
                t.pdl_launch_dependents()
    return k


def _i32(value):
    def make(values):
        return [arith.constant(ir.IntegerType.get_signless(32), value)]
    return make


MUTANTS = {"baseline": dict()}
for v in BIG + [1]:
    MUTANTS[f"grid_{v}"] = dict(grid=(v, 2))
    MUTANTS[f"period_{v}"] = dict(period=v)
    MUTANTS[f"start_{v}"] = dict(start=v)
    MUTANTS[f"buffer_{v}"] = dict(buffer_bytes=v)
    MUTANTS[f"tmem_{v}"] = dict(buffer_bytes=None, tmem_columns=v,
                                address=None)
    MUTANTS[f"domain_end_{v}"] = dict(domain=(0, v, 1))
    MUTANTS[f"domain_step_{v}"] = dict(domain=(0, 4, v))
MUTANTS.update({
    "grid_empty": dict(grid=()),
    "grid_four": dict(grid=(1, 2, 3, 4)),
    "grid_str": dict(grid=("a",)),
    "grid_float": dict(grid=(1.5,)),
    "grid_none": dict(grid=(None,)),
    "period_bool": dict(period=True),
    "period_float": dict(period=2.0),
    "start_past_period": dict(period=2, start=5),
    "skip_no_skippable": dict(skip=True, skippable=False),
    "skippable_no_skip": dict(skip=False, skippable=True),
    "when_not_i1": dict(when=lambda k: k.arg("c") if False else 3),
    "when_i1_arg": dict(when=lambda k: k.arg("c")),
    "when_i32": dict(when=lambda k: arith.constant(
        ir.IntegerType.get_signless(32), 1)),
    "both_buffers": dict(buffer_bytes=64, tmem_columns=32),
    "neither_buffer": dict(buffer_bytes=None, tmem_columns=None,
                           address=None),
    "address_unknown": dict(address="nope"),
    "address_pipeline": dict(address="ring"),
    "address_queue": dict(address="wq"),
    "tmem_address": dict(buffer_bytes=None, tmem_columns=32),
    "alias_one_phase": dict(alias=[["scratch"]]),
    "alias_unknown": dict(alias=[["scratch"], ["nope"]]),
    "alias_same_twice": dict(alias=[["scratch"], ["scratch"]]),
    "alias_empty_phase": dict(alias=[["scratch"], []]),
    "alias_queue": dict(alias=[["scratch"], ["wq"]]),
    "alias_ring": dict(alias=[["scratch"], ["ring"]]),
    "alias_str": dict(alias="scratch"),
    "alias_nested_str": dict(alias=[["scratch"], "ring"]),
    "carried_none": dict(carried=0),
    "carried_three": dict(carried=3),
    "yield_none": dict(yields=lambda values: []),
    "yield_two": dict(yields=lambda values: values + values),
    "yield_i64": dict(yields=lambda values: [arith.constant(
        ir.IntegerType.get_signless(64), 1)]),
    "yield_big": dict(yields=_i32(2 ** 31 - 1)),
    "advance_none": dict(advance=None),
    "advance_unknown": dict(advance="nope"),
    "advance_pipeline": dict(advance="ring"),
    "queue_unknown": dict(queue="nope"),
    "queue_pipeline": dict(queue="ring"),
    "wq_name_empty": dict(wq_name="", queue=""),
    "wq_name_percent": dict(wq_name="w%s", queue="w%s", advance="w%s"),
    "pdl_none": dict(pdl=False, launch=False),
    "clc_static_advance": dict(clc=PipelineConfig
                               .create_clc_fetch_async_pipeline_cfg(
                                   2, 16, pl.CooperativeGroup(pl.Agent.Thread, 1),
                                   pl.CooperativeGroup(pl.Agent.Thread, 64),
                                   (1, 1, 1, 1))),
})


def run(name):
    """The outcome of one mutant: 'ptx', or the exception class and the
    first words of its message."""
    try:
        k = persistent(**MUTANTS[name])
        k.build()
        k.to_ptx("sm_100a")
        return "ptx"
    except Exception as err:  # noqa: BLE001 - every exception is an outcome
        return f"{type(err).__name__}: {str(err)[:120]!r}"


def main(argv) -> int:
    names = argv[1:] or list(MUTANTS)
    for name in names:
        outcome = run(name)
        print(f"OK {name} {outcome}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
