"""Access to the CUDA driver API through cuda-python, loaded lazily.

cuda-python has moved its driver module: `cuda.bindings.driver` (12.6 and
later, the only one in 13.x) and `cuda.cuda` (11.x, 12.x). Both have the same
functions; every call returns a tuple whose first element is a `CUresult`.
`call()` turns a non-success result into a `CudaError` carrying the driver's
error name.

Nothing here runs at import time, so `tspipe.runtime` imports on a machine
without cuda-python or without a GPU.
"""

from __future__ import annotations

import os
import runpy
import threading

__all__ = [
    "CudaError",
    "CudaUnavailable",
    "driver",
    "call",
    "result_name",
]

_lock = threading.Lock()
_driver = None
_import_error: BaseException | None = None


class CudaError(RuntimeError):
    """A CUDA driver call failed.

    `name` is the driver's error name (e.g. ``CUDA_ERROR_INVALID_PTX``),
    `code` its number, `call` the driver function, `detail` extra text such as
    the JIT compiler's log.
    """

    def __init__(self, name: str, code: int | None = None, call: str = "",
                 detail: str = ""):
        self.name = name
        self.code = code
        self.call = call
        self.detail = detail
        msg = f"{call}: {name}" if call else name
        if code is not None:
            msg += f" ({code})"
        if detail:
            msg += f"\n{detail.rstrip()}"
        super().__init__(msg)


class CudaUnavailable(CudaError):
    """cuda-python is not importable, or the driver has no usable device."""

    def __init__(self, reason: str):
        super().__init__("CUDA_UNAVAILABLE", None, "", reason)
        self.reason = reason


def driver():
    """The cuda-python driver module (`cuda.bindings.driver` or `cuda.cuda`)."""
    global _driver, _import_error
    if _driver is not None:
        return _driver
    with _lock:
        if _driver is not None:
            return _driver
        fake = os.environ.get("TSPIPE_FAKE_CUDA_DRIVER")
        if fake:  # tests only: "path/to/module.py:factory"
            _driver = _load_fake(fake)
            return _driver
        errors = []
        try:
            from cuda.bindings import driver as mod  # cuda-python >= 12.6
        except ImportError as e:  # pragma: no cover - depends on the install
            errors.append(f"cuda.bindings.driver: {e}")
            try:
                from cuda import cuda as mod  # cuda-python 11.x / 12.x
            except ImportError as e2:
                errors.append(f"cuda.cuda: {e2}")
                _import_error = e2
                raise CudaUnavailable(
                    "cuda-python is not importable (" + "; ".join(errors) + ")"
                ) from None
        _driver = mod
        return mod


def _load_fake(spec: str):
    path, _, factory = spec.rpartition(":")
    return runpy.run_path(path, run_name="_tspipe_fake_driver")[factory]()


def result_name(res) -> str:
    """Name of a CUresult (enum member or int)."""
    name = getattr(res, "name", None)
    if name:
        return str(name)
    try:
        return driver().CUresult(int(res)).name
    except Exception:  # noqa: BLE001 - best effort only
        return f"CUresult({int(res)})"


def _is_success(res) -> bool:
    return int(res) == 0


def call(fn_name: str, *args, detail: str = ""):
    """Calls driver function `fn_name(*args)`; raises CudaError on failure.

    Returns None, the single value, or a tuple of the values the call returns
    after its CUresult.
    """
    drv = driver()
    fn = getattr(drv, fn_name)
    out = fn(*args)
    if not isinstance(out, tuple):
        out = (out,)
    res, vals = out[0], out[1:]
    if not _is_success(res):
        raise CudaError(result_name(res), int(res), fn_name, detail)
    if not vals:
        return None
    if len(vals) == 1:
        return vals[0]
    return vals
