"""Element-by-element comparison of kernel outputs with numpy references."""

from __future__ import annotations

import numpy as np

__all__ = ["CheckFailure", "compare_fp32", "compare_exact"]


class CheckFailure(AssertionError):
    """Outputs differ from the reference; the message lists the first
    mismatches and counts."""

    def __init__(self, message: str, mismatches: int = 0, total: int = 0):
        super().__init__(message)
        self.mismatches = mismatches
        self.total = total


_CHUNK = 1 << 24


def _describe(name, got, want, bad, limit=8, offset=0):
    idx = np.flatnonzero(bad)
    lines = [f"{name}: first mismatch at index {int(idx[0]) + offset}"]
    for i in idx[:limit]:
        lines.append(f"  [{int(i) + offset}] got {got.flat[i]!r} expected "
                     f"{want.flat[i]!r}")
    return "\n".join(lines)


def compare_fp32(name: str, got: np.ndarray, references, max_ulps: int = 1,
                 ) -> dict:
    """Checks every element of `got` (float32) against one or more float32
    references: an element passes when it equals one of them, or is within
    `max_ulps` units in the last place of the first. Use several references
    when the compiler may or may not fuse a multiply-add into an FMA.

    Returns a summary dict; raises CheckFailure listing the first mismatches.
    """
    if isinstance(references, np.ndarray):
        references = [references]
    got = np.asarray(got)
    if got.dtype != np.float32:
        raise CheckFailure(f"{name}: dtype {got.dtype}, expected float32")
    flat = got.reshape(-1)
    refs = [np.asarray(r, dtype=np.float32).reshape(-1) for r in references]
    n_bad = 0
    n_exact = 0
    max_err = None
    first_bad = None
    # Chunks keep temporaries small for outputs of hundreds of millions.
    for lo in range(0, flat.size, _CHUNK):
        g = flat[lo:lo + _CHUNK]
        rs = [r[lo:lo + _CHUNK] for r in refs]
        base = rs[0]
        ok = np.zeros(g.shape, dtype=bool)
        for r in rs:
            ok |= g == r
        if max_ulps > 0:
            tol = np.spacing(np.abs(base)) * np.float32(max_ulps)
            with np.errstate(invalid="ignore"):
                ok |= np.abs(g - base) <= tol
        bad = ~ok
        nb = int(bad.sum())
        if nb and first_bad is None:
            first_bad = (lo, g, base, bad)
        n_bad += nb
        n_exact += int((g == base).sum())
        with np.errstate(invalid="ignore"):
            diff = np.abs(g.astype(np.float64) - base.astype(np.float64))
        finite = np.isfinite(diff)
        if finite.any():
            m = float(diff[finite].max())
            max_err = m if max_err is None else max(max_err, m)
    summary = {
        "name": name,
        "elements": int(flat.size),
        "mismatches": n_bad,
        "exact": n_exact,
        "max_abs_err": max_err,
    }
    if n_bad:
        lo, g, base, bad = first_bad
        msg = _describe(name, g, base, bad, offset=lo)
        msg += f"\n  total: {n_bad} of {flat.size} elements differ"
        nan_total = int(np.isnan(flat).sum())
        if nan_total:
            msg += (f"\n  {nan_total} elements are NaN (never written? "
                    "outputs start as NaN)")
        raise CheckFailure(msg, n_bad, flat.size)
    return summary


def compare_exact(name: str, got: np.ndarray, want: np.ndarray) -> dict:
    """Bit-for-bit equality of every element."""
    got = np.asarray(got)
    want = np.asarray(want).reshape(got.shape)
    bad = got != want
    n_bad = int(bad.sum())
    if n_bad:
        msg = _describe(name, got.reshape(-1), want.reshape(-1),
                        bad.reshape(-1))
        raise CheckFailure(msg + f"\n  total: {n_bad} of {got.size} differ",
                           n_bad, got.size)
    return {"name": name, "elements": int(got.size), "mismatches": 0}
