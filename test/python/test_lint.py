"""The Python lint of the repository (ruff, pinned in requirements-dev.txt,
configured in pyproject.toml: pyflakes, pycodestyle's errors and import
sorting over python/ and test/python) passes. Skipped where ruff is not
installed (the pure-Python runtime machines)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _ruff():
    beside = Path(sys.executable).parent / "ruff"
    if beside.is_file():
        return str(beside)
    return shutil.which("ruff")


@pytest.mark.skipif(_ruff() is None, reason="ruff is not installed")
def test_ruff_finds_nothing():
    proc = subprocess.run([_ruff(), "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
