"""`python -m tspipe.demo` on a plain gpu.func kernel: PTX extraction,
metadata JSON, ptxas. Needs tspipe-opt (skipped without it)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
try:
    import tspipe.demo  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "python"))

from tspipe import demo  # noqa: E402

FILL = """
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @fill(%y: !llvm.ptr<1>, %v: f32, %n: i64) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %ti = arith.index_cast %t : index to i64
      %ok = arith.cmpi slt, %ti, %n : i64
      scf.if %ok {
        %p = llvm.getelementptr %y[%ti] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        llvm.store %v, %p : f32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
"""


def _tspipe_opt():
    try:
        return demo.find_tspipe_opt(root=ROOT)
    except demo.DemoError:
        pytest.skip("tspipe-opt not built")


@pytest.mark.parametrize("archs", [[], ["sm_90a", "sm_100a"]])
def test_demo_compiles_plain_kernel(tmp_path, archs):
    opt = _tspipe_opt()
    ex = tmp_path / "examples"
    ex.mkdir()
    (ex / "fill.mlir").write_text(FILL)
    out = tmp_path / "out"
    argv = ["--examples", str(ex), "--out", str(out), "--tspipe-opt", opt,
            "--no-run"]
    for a in archs:
        argv += ["--arch", a]
    assert demo.main(argv) == 0
    for arch in archs or ["sm_90a"]:
        meta = json.loads((out / f"fill.{arch}.json").read_text())
        assert meta["arch"] == arch and meta["ptx"] == f"fill.{arch}.ptx"
        ptx = (out / meta["ptx"]).read_text()
        assert f".target {arch}" in ptx and ".entry fill(" in ptx
        (k,) = meta["kernels"]
        assert [p["type"] for p in k["ptx_params"]] == ["u64", "f32", "u64"]
        if demo.find_ptxas():
            assert meta["ptxas"]["ok"] is True
            assert (out / meta["cubin"]).stat().st_size > 0


def test_demo_reports_lowering_failure(tmp_path):
    opt = _tspipe_opt()
    ex = tmp_path / "examples"
    ex.mkdir()
    (ex / "broken.mlir").write_text("gpu.module @m { this is not IR }\n")
    rc = demo.main(["--examples", str(ex), "--out", str(tmp_path / "out"),
                    "--tspipe-opt", opt, "--no-run"])
    assert rc == 1


def test_demo_module_entry_point(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "python"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "tspipe.demo", "--help"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and "--examples" in proc.stdout
