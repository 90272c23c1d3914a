"""The launch spec of examples/persistent_merge.py: more tiles than CTAs
with an uneven last wave, a grid with CTAs that get no tile, every element
of y checked (a tile no CTA wrote fails), and the static work queue's tile
walk covering every tile exactly once."""

from pathlib import Path

import numpy as np
import pytest

from tspipe.runtime.checks import CheckFailure
from tspipe.runtime.harness import load_spec

ROOT = Path(__file__).resolve().parents[2]
CTX = {"sm_count": 132, "ctas_per_sm": 1, "cluster": (1, 1, 1)}


def spec():
    return load_spec(ROOT / "examples" / "persistent_merge.py")


def tiles_of_cta(c, grid, num_tiles):
    """The static queue's walk (docs/Protocols.md, Work queues)."""
    return list(range(c, num_tiles, grid))


def test_problems_are_persistent_and_uneven():
    s = spec()
    checks = s.problems("check", CTX)
    assert len(checks) >= 3
    for p in checks:
        assert p["n"] == p["num_tiles"] * s.TILE_ELEMS
    # More tiles than CTAs, with a partial last wave.
    assert any(p["num_tiles"] > p["grid"][0] and
               p["num_tiles"] % p["grid"][0] for p in checks)
    # More CTAs than tiles (CTAs without a tile only drain).
    assert any(p["num_tiles"] < p["grid"][0] for p in checks)


@pytest.mark.parametrize("grid,num_tiles", [(132, 2156), (7, 45), (64, 10)])
def test_walk_covers_every_tile_once(grid, num_tiles):
    seen = np.zeros(num_tiles, np.int64)
    for c in range(grid):
        for t in tiles_of_cta(c, grid, num_tiles):
            seen[t] += 1
    assert (seen == 1).all()


def test_check_sees_every_element():
    s = spec()
    (p,) = s.problems("sanitize", CTX)
    inputs = s.make_inputs(np.random.default_rng(0), p)
    y = s.expected(inputs)["y"]
    s.check({"y": y.copy()}, inputs)
    # A tile left unwritten (NaN, as make_inputs starts y) fails.
    missing = y.copy()
    missing[-s.TILE_ELEMS:] = np.nan
    with pytest.raises(CheckFailure):
        s.check({"y": missing}, inputs)
