"""``from_ts`` on real TS persistent kernels (run when TS_PYTHON names an
interpreter with nvidia-cutlass-dsl 4.8.1, e.g. ``TS_PYTHON=.venv-ts/bin/python
make pytest``): a static work queue with skip_if / skippable, a per-tile
domain from get_domain, PDL points around the tile loop, and the CLC-driven
queue with its scheduler task are imported, give the tspipe ops tspipe's own
TS vocabulary gives for the same kernel (ts_work_model_cases.py), and lower
to PTX (tspipe.ts.import_work); so does the whole of CUTLASS's TS tutorial
4 (gemm_cluster_2sm, static and CLC), built from TS's objects and compared
with its port."""

import json
import os
import subprocess
from pathlib import Path

import pytest

TS_PYTHON = os.environ.get("TS_PYTHON")
HERE = Path(__file__).resolve().parent
CASES = ("skip", "varlen", "pdl", "clc", "gemm2sm", "gemm2sm_clc")


def _tspipe_path(tmp_path):
    """A folder that makes the installed tspipe (and its MLIR) importable
    in TS's interpreter without installing it there."""
    import tspipe

    site = Path(tspipe.__file__).resolve().parent.parent
    for name in ("tspipe", "llvm"):
        if (site / name).exists():
            (tmp_path / name).symlink_to(site / name)
    return str(tmp_path)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    if not TS_PYTHON:
        pytest.skip("TS_PYTHON is not set")
    path = tmp_path_factory.mktemp("tspath")
    env = dict(os.environ, PYTHONPATH=_tspipe_path(path),
               CUTE_DSL_ARCH="sm_100a")
    out = subprocess.run([TS_PYTHON, str(HERE / "ts_work_model_cases.py"),
                          *CASES, "overrides", "errors"],
                         capture_output=True,
                         text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    found = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            found[record["case"]] = record
    assert sorted(found) == sorted(CASES + ("overrides", "errors")), out.stdout[-2000:]
    return found


@pytest.mark.parametrize("case", CASES)
def test_import_matches_native_front_end(imported, case):
    record = imported[case]
    assert record["imported"] == record["native"]
    assert record["ptx_lines"] > 0
    # crosscheck's normal form (crosscheck/import_check.py) sees the tile
    # loop, the domain bounds and the steps around the loop alike.
    assert record["shape_imported"] == record["shape_native"]
    assert all(task[1] is not None for task in record["shape_imported"])


def test_static_queue_with_skipped_tiles(imported):
    text = imported["skip"]["text"]
    assert "tspipe.work_queue @WorkQueue grid(%c6, %c1, %c1)" in text, text
    # TS's predicate is CuTe code: a named, side-effect-free placeholder.
    assert '"// ts skip_if: SkipQueue.skip_work_tile_if' in text, text
    assert "tspipe.skip_tile" in text and "tspipe.skippable" in text, text


def test_per_tile_domain_from_get_domain(imported):
    text = imported["varlen"]["text"]
    assert "// ts domain: DynamicDomainTask.get_domain" in text, text
    lines = text.splitlines()
    loop = next(i for i, l in enumerate(lines) if "tspipe.work_tile_loop" in l)
    domain = next(i for i, l in enumerate(lines) if "tspipe.domain_loop" in l)
    end = next(i for i, l in enumerate(lines) if "ts domain:" in l)
    assert loop < end < domain, text


def test_pdl_points_surround_the_tile_loop(imported):
    skel = imported["pdl"]["imported"]
    ops = [line.strip().split()[0] for line in skel]
    load = ops.index("tspipe.task")
    assert ops[load + 1] == "tspipe.pdl_wait", skel
    assert ops[load + 2] == "tspipe.work_tile_loop", skel
    assert "tspipe.pdl_launch_dependents" in ops, skel
    assert "tspipe.pdl_pipelines = [@ring]" in imported["pdl"]["text"]


def test_clc_queue_and_scheduler(imported):
    text = imported["clc"]["text"]
    assert "tspipe.pipeline @WorkQueue_clc config(<clc_fetch_async" in text
    assert "smem_bytes(32)" in text, text
    assert "tspipe.fetch_work_tile @WorkQueue" in text, text
    assert text.count("tspipe.advance_work_tile @WorkQueue") == 3, text


def test_the_runtime_code_can_be_given(imported):
    # from_ts(skip_if=, grid=, domain_end=): the tspipe forms of TS's
    # predicate, tile grid and get_domain replace the placeholders.
    record = imported["overrides"]
    skip, varlen = record["skip"], record["varlen"]
    assert "ts skip_if:" not in skip and "arith.cmpi uge" in skip, skip
    assert "tspipe.work_queue @WorkQueue grid(%c9, %c1, %c1)" in skip, skip
    assert "ts domain:" not in varlen, varlen
    lines = varlen.splitlines()
    loop = next(i for i, l in enumerate(lines) if "tspipe.work_tile_loop" in l)
    end = next(i for i, l in enumerate(lines) if "arith.addi" in l)
    domain = next(i for i, l in enumerate(lines) if "tspipe.domain_loop" in l)
    assert loop < end < domain, varlen
    assert record["ptx_lines"] > 0


@pytest.mark.parametrize("case", ["gemm2sm", "gemm2sm_clc"])
def test_tutorial_4_imports_as_its_port(imported, case):
    text = imported[case]["text"]
    assert "tspipe.pdl_pipelines = [@SmemA]" in text, text
    assert " cluster([2, 1, 1])" in text, text
    # TS's allocations size the buffers: 3 stages of 16 KiB per operand,
    # 512 accumulator columns.
    assert text.count("smem_bytes(49152)") == 2, text
    assert "tmem_columns(512)" in text, text
    # The auxiliary steps name no stage (TS exempts them from the bracket
    # rules): the ones beside the tile loop and the accumulator's per-tile
    # one before its acquire.
    assert "ts work: TmemC.init_work_tile_state" in text, text


def test_what_is_not_modelled_is_said(imported):
    errors = imported["errors"]
    assert "2 work queues (Q1, Q2)" in errors["two_queues"]
    assert "(R35)" in errors["two_queues"]
    assert "are not all ints" in errors["dynamic_start"]
    assert "get_domain" in errors["dynamic_start"]


def test_guard_in_a_persistent_task(imported):
    # every(2, start=1) inside the tile loop's domain loop.
    text = _task_text(imported["pdl"]["text"], "use")
    assert "tspipe.every period(2) start(1)" in text, text


def _task_text(text, name):
    start = text.index(f"tspipe.task @{name} ")
    nxt = text.find("tspipe.task @", start + 1)
    return text[start:nxt if nxt >= 0 else len(text)]
