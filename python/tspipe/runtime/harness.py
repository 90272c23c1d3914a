"""Runs one compiled example on the GPU from its launch spec.

A launch spec is a plain Python file `examples/<example>.py` next to
`examples/<example>.mlir`. It defines:

``KERNEL``
    the PTX entry (the `gpu.func` name).
``BLOCK_THREADS``
    threads per CTA the author expects; must equal the metadata's
    ``32 * warps`` (the metadata, read from the IR, is what is launched).
``PARAMS``
    the kernel's parameters in order, as ``(name, kind)`` with kind one of
    ``ptr`` (a device buffer), ``f32``, ``f64``, ``i32``, ``i64``, ``u32``,
    ``u64`` or ``tensormap`` (a CUtensorMap built from the IR's tensor-map
    type, see ``_upload``).
``BUFFERS`` (optional)
    names of device arrays that are not parameters but that ``tensormap``
    parameters address (their inputs come from ``make_inputs`` too).
``OUTPUTS``
    names of the ``ptr`` parameters the kernel writes. They are uploaded
    filled with NaN (float) or 0xFF bytes, so unwritten elements fail.
``problems(mode, ctx) -> list[dict]``
    the problem sizes for ``mode`` = ``"check"`` (correctness runs, at least
    1M elements each), ``"bandwidth"`` or ``"sanitize"`` (small problems for
    compute-sanitizer, checked like ``"check"``); each dict has ``label``
    and ``grid`` (a 3-tuple) plus whatever the spec's own functions need.
    ``ctx`` holds ``sm_count``,
    ``ctas_per_sm`` (occupancy of this kernel), ``block_threads``,
    ``smem_bytes``, ``cluster``, ``arch``.
``make_inputs(rng, problem) -> dict``
    a value for every parameter: numpy arrays for ``ptr`` parameters,
    numpy scalars for the others.
``expected(inputs) -> dict``
    for each output name, the reference array (or a list of acceptable
    references, e.g. with and without FMA contraction).
``check(outputs, inputs) -> dict``
    compares every element (raise ``CheckFailure``; return a summary).
``traffic_bytes(inputs) -> int``
    bytes the kernel reads plus writes (for bandwidth).

Optional, for kernels launched after another grid:

``BEFORE``
    kernels of the same module launched first, on the same stream and grid,
    as ``[(kernel, [parameter names])]``: each takes the named parameters
    of ``PARAMS`` (the same device buffers), in its own order.
``PDL``
    True to launch ``KERNEL`` with programmatic dependent launch (the
    PROGRAMMATIC_STREAM_SERIALIZATION launch attribute): it may start while
    the ``BEFORE`` grid still runs and must wait for it with
    ``griddepcontrol.wait`` (``tspipe.pdl_wait``).

The dynamic shared memory size and cluster shape always come from the
metadata JSON written next to the PTX by the demo, never from the spec.
"""

from __future__ import annotations

import runpy
import statistics
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from . import launcher as rt
from .checks import CheckFailure
from .meta import ExampleMeta

__all__ = ["load_spec", "derived_spec", "tiled_problem", "tiled_problems",
           "fit_grid", "run_example", "arch_runs_on", "KIND_DTYPES",
           "SpecError"]

KIND_DTYPES = {
    "f32": np.float32, "f64": np.float64,
    "i32": np.int32, "i64": np.int64,
    "u32": np.uint32, "u64": np.uint64,
}
_KIND_BYTES = {"ptr": 8, "f32": 4, "f64": 8, "i32": 4, "i64": 8, "u32": 4,
               "u64": 8, "tensormap": 128}


class SpecError(ValueError):
    """The spec disagrees with the metadata or the PTX."""


def load_spec(path: str | Path) -> ModuleType:
    path = Path(path)
    name = f"tspipe_example_spec_{path.stem}"
    if not path.is_file():
        raise ImportError(f"cannot load launch spec {path}")
    mod = ModuleType(name)
    mod.__file__ = str(path)
    mod.__dict__.update(runpy.run_path(str(path), run_name=name))
    # A compile-only spec (COMPILE_ONLY = True) describes the launch but has
    # no problems or checks: `make demo` lowers and assembles its kernel,
    # nothing runs it.
    required = ("KERNEL", "BLOCK_THREADS", "PARAMS", "OUTPUTS")
    if not getattr(mod, "COMPILE_ONLY", False):
        required += ("problems", "make_inputs", "expected", "check",
                     "traffic_bytes")
    for attr in required:
        if not hasattr(mod, attr):
            raise SpecError(f"{path}: launch spec lacks {attr}")
    return mod


def tiled_problem(mode: str, grid: int, tiles_per_cta: int,
                  tile_elems: int) -> dict:
    """One problem of a tiled example: `grid` CTAs, each owning
    `tiles_per_cta` consecutive tiles of `tile_elems` elements."""
    n = int(grid) * int(tiles_per_cta) * tile_elems
    return {"label": f"{mode} n={n / 2**20:.2f}Mi grid={grid} "
                     f"tiles/CTA={tiles_per_cta}",
            "grid": (int(grid), 1, 1), "tiles_per_cta": int(tiles_per_cta),
            "n": n}


def fit_grid(grid: int, ctx: dict) -> int:
    """Rounds `grid` up to a whole number of clusters (ctx["cluster"])."""
    c = (ctx.get("cluster") or (1, 1, 1))[0]
    return -(-int(grid) // c) * c


def tiled_problems(mode: str, ctx: dict, tile_elems: int, check, sanitize,
                   bandwidth_elems: int) -> list:
    """The problems of a tiled example for `mode`.

    `check` lists (grid, tiles per CTA) pairs, a grid of None meaning one CTA
    per SM; `sanitize` is one such pair, small enough for compute-sanitizer;
    `bandwidth` streams about `bandwidth_elems` elements with one full wave
    of resident CTAs (ctx["ctas_per_sm"] per SM). Grids are rounded up to
    whole clusters.
    """
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        return [tiled_problem(mode, fit_grid(g or sms, ctx), t, tile_elems)
                for g, t in check]
    if mode == "sanitize":
        g, t = sanitize
        return [tiled_problem(mode, fit_grid(g or sms, ctx), t, tile_elems)]
    if mode == "bandwidth":
        grid = fit_grid(sms * max(1, ctx.get("ctas_per_sm") or 1), ctx)
        tiles = max(1, round(bandwidth_elems / (grid * tile_elems)))
        return [tiled_problem(mode, grid, tiles, tile_elems)]
    return []


def derived_spec(namespace: dict, base_file: str | Path, **overrides):
    """Fills a launch spec's `namespace` (its globals()) from the spec in
    `base_file`, then applies `overrides` (e.g. KERNEL=...): for examples
    that differ from another only in their kernel."""
    base = load_spec(base_file)
    namespace.update({k: v for k, v in vars(base).items()
                      if not k.startswith("__")})
    namespace.update(overrides)


def _validate(spec, meta: ExampleMeta, kernel_meta, kernel: rt.Kernel):
    if spec.BLOCK_THREADS != kernel_meta.block_threads:
        raise SpecError(
            f"{spec.KERNEL}: spec says {spec.BLOCK_THREADS} threads per CTA, "
            f"the IR says warps({kernel_meta.warps}) = "
            f"{kernel_meta.block_threads}")
    for name, kind in spec.PARAMS:
        if kind not in _KIND_BYTES:
            raise SpecError(f"{spec.KERNEL}: parameter {name} has unknown "
                            f"kind {kind!r}")
    entry = kernel.entry
    if entry is not None:
        if len(entry.params) != len(spec.PARAMS):
            raise SpecError(
                f"{spec.KERNEL}: PTX entry has {len(entry.params)} parameters "
                f"({', '.join(p.ptx_type for p in entry.params)}), the spec "
                f"{len(spec.PARAMS)}")
        for p, (name, kind) in zip(entry.params, spec.PARAMS):
            if p.size != _KIND_BYTES[kind]:
                raise SpecError(
                    f"{spec.KERNEL}: parameter {name} is {kind} in the spec "
                    f"but .{p.ptx_type} in the PTX")
        if entry.reqntid and int(np.prod(entry.reqntid)) != \
                kernel_meta.block_threads:
            raise SpecError(f"{spec.KERNEL}: PTX .reqntid {entry.reqntid} "
                            f"vs {kernel_meta.block_threads} threads")


def arch_runs_on(arch: str, cc: tuple[int, int]) -> bool:
    """Whether code built for `arch` (``sm_90a``, ``sm_100a``, ``sm_80``) runs
    on a device of compute capability `cc`. Architecture-specific targets
    (``a`` suffix) run only on their own capability."""
    digits = "".join(ch for ch in arch.removeprefix("sm_") if ch.isdigit())
    if not digits:
        return False
    want = (int(digits[:-1]), int(digits[-1]))
    if arch.endswith(("a", "f")):
        return want == tuple(cc)
    return want <= tuple(cc)


def _upload(spec, inputs: dict, kernel_meta=None) -> tuple[list, dict]:
    """Device buffers for the ptr parameters and CUtensorMaps for the
    tensormap ones; returns (args, buffers).

    A ``tensormap`` parameter's input is ``{"tensor": <name of a ptr
    parameter or of one of the spec's ``BUFFERS``>, "shape": (outermost
    first), "row_strides": bytes or None}``;
    the map is encoded over that parameter's device buffer with the box,
    element type and modes the IR declares (``kernel_meta.tensor_maps``).
    Raises SpecError when the metadata has no tensor-map type for it."""
    args, bufs = [], {}
    # Device arrays that only tensor maps address (not kernel parameters).
    for name in getattr(spec, "BUFFERS", ()):
        bufs[name] = rt.DeviceArray.from_numpy(
            np.ascontiguousarray(inputs[name]))
    for name, kind in spec.PARAMS:
        if kind == "ptr":
            host = np.ascontiguousarray(inputs[name])
            if name in spec.OUTPUTS:
                host = (np.full(host.shape, np.nan, host.dtype)
                        if host.dtype.kind == "f" else
                        # All bits set (-1, or the maximum of an
                        # unsigned type: 0xFFFF, a bf16 NaN, for uint16).
                        np.full(host.shape, np.iinfo(host.dtype).max
                                if host.dtype.kind == "u" else -1,
                                host.dtype))
            bufs[name] = rt.DeviceArray.from_numpy(host)
    for name, kind in spec.PARAMS:
        v = inputs[name]
        if kind == "tensormap":
            from .tensor_map import TensorMap
            types = getattr(kernel_meta, "tensor_maps", None) or {}
            if name not in types:
                raise SpecError(f"{spec.KERNEL}: parameter {name} is a "
                                f"tensormap but the metadata declares no "
                                f"tensor-map type for it")
            args.append(TensorMap.encode(types[name], bufs[v["tensor"]].ptr,
                                         v["shape"], v.get("row_strides")))
            continue
        if kind == "ptr":
            args.append(bufs[name])
            continue
        args.append(KIND_DTYPES[kind](v))
    return args, bufs


def _download(spec, bufs: dict) -> dict:
    return {name: bufs[name].to_numpy() for name in spec.OUTPUTS}


def _free(bufs: dict):
    for b in bufs.values():
        b.free()


def _choose_image(meta_path: Path, meta: ExampleMeta, prefer: str):
    folder = meta_path.parent
    ptx = folder / meta.ptx
    cubin = folder / meta.cubin if meta.cubin else None
    order = ["cubin", "ptx"] if prefer == "cubin" else ["ptx", "cubin"]
    for kind in order:
        if kind == "cubin" and cubin is not None and cubin.exists():
            try:
                return rt.Module.from_file(cubin, ptx), "cubin"
            except rt.CudaError as e:
                if "NO_BINARY_FOR_GPU" not in e.name and \
                        "INVALID_IMAGE" not in e.name:
                    raise
        if kind == "ptx" and ptx.exists():
            return rt.Module.from_file(ptx), "ptx"
    raise FileNotFoundError(f"neither {ptx} nor a cubin exists")


def run_example(meta_path: str | Path, spec_path: str | Path,
                modes=("check", "bandwidth"), timeout: float = 30.0,
                bandwidth_timeout: float = 300.0, seed: int = 0,
                prefer: str = "cubin", iters: int = 20, warmup: int = 3,
                check_bandwidth: bool = True, copy_baseline: bool = True,
                log=print) -> dict:
    """Runs the example's correctness problems and bandwidth problems.

    Returns a JSON-ready dict. Raises KernelTimeout (after recording it in
    `result["problems"]`, available as the exception's `result` attribute)
    when a launch hangs: the process should then report and exit.
    """
    meta_path = Path(meta_path)
    meta = ExampleMeta.load(meta_path)
    spec = load_spec(spec_path)
    km = meta.kernel(spec.KERNEL)
    info = rt.device_info()
    result = {
        "example": meta.example,
        "kernel": spec.KERNEL,
        "arch": meta.arch,
        "device": info.name,
        "block_threads": km.block_threads,
        "smem_bytes": km.smem_bytes,
        "cluster": list(km.cluster),
        "pipelines": [f"{p.name}:{p.type}x{p.num_stages}"
                      for p in km.pipelines],
        "problems": [],
        "status": "pass",
    }
    if not arch_runs_on(meta.arch, info.compute_capability):
        result["status"] = "skipped"
        result["reason"] = f"built for {meta.arch}, device is {info.arch}"
        return result

    module, image = _choose_image(meta_path, meta, prefer)
    result["image"] = image
    kernel = module.kernel(spec.KERNEL)
    _validate(spec, meta, km, kernel)
    result["num_regs"] = kernel.attribute("NUM_REGS")
    before = _before_kernels(spec, meta, module)
    pdl = bool(getattr(spec, "PDL", False))
    if pdl or before:
        result["pdl"] = pdl
        result["before"] = [name for name, _, _, _ in before]
    ctas_per_sm = kernel.max_active_ctas_per_sm(km.block_threads,
                                                km.smem_bytes)
    result["ctas_per_sm"] = ctas_per_sm
    if ctas_per_sm < 1:
        result["status"] = "error"
        result["reason"] = (f"a CTA of {km.block_threads} threads with "
                            f"{km.smem_bytes} B of dynamic smem cannot run")
        return result
    ctx = {"sm_count": info.sm_count, "ctas_per_sm": ctas_per_sm,
           "block_threads": km.block_threads, "smem_bytes": km.smem_bytes,
           "cluster": tuple(km.cluster), "arch": info.arch}
    rng = np.random.default_rng(seed)
    block = (km.block_threads, 1, 1)

    for mode in modes:
        for prob in spec.problems(mode, ctx):
            entry = {"mode": mode, "label": prob.get("label", mode),
                     "grid": list(prob["grid"])}
            result["problems"].append(entry)
            if any(g % c for g, c in zip(prob["grid"], km.cluster)):
                entry["status"] = "skipped"
                entry["reason"] = (f"grid {tuple(prob['grid'])} is not a "
                                   f"multiple of cluster {tuple(km.cluster)}")
                log(f"  {meta.example} {entry['label']}: skipped "
                    f"({entry['reason']})")
                continue
            t0 = time.perf_counter()
            inputs = spec.make_inputs(rng, prob)
            entry["traffic_bytes"] = int(spec.traffic_bytes(inputs))
            args, bufs = _upload(spec, inputs, km)
            try:
                entry["status"] = "running"
                if mode == "bandwidth":
                    samples = rt.time_kernel_samples(
                        kernel, prob["grid"], block, args, km.smem_bytes,
                        km.cluster, warmup=warmup, iters=iters,
                        timeout=bandwidth_timeout)
                    med = statistics.median(samples)
                    entry["time_ms"] = {"median": med, "min": min(samples),
                                        "max": max(samples),
                                        "samples": len(samples)}
                    entry["gbps"] = entry["traffic_bytes"] / (med * 1e6)
                    if copy_baseline:
                        entry["copy_gbps"] = _copy_baseline(
                            entry["traffic_bytes"] // 2, warmup, iters,
                            bandwidth_timeout)
                        entry["ratio_to_copy"] = entry["gbps"] / \
                            entry["copy_gbps"]
                    log(f"  {meta.example} {entry['label']}: "
                        f"{med:.3f} ms, {entry['gbps']:.1f} GB/s")
                elif before or pdl:
                    _launch_after(spec, before, kernel, km, prob["grid"],
                                  args, pdl, timeout)
                else:
                    rt.launch(kernel, prob["grid"], block, args,
                              km.smem_bytes, km.cluster, timeout=timeout)
                if mode != "bandwidth" or check_bandwidth:
                    outputs = _download(spec, bufs)
                    try:
                        entry["check"] = spec.check(outputs, inputs)
                        entry["status"] = "pass"
                    except CheckFailure as e:
                        entry["status"] = "fail"
                        entry["error"] = str(e)
                        result["status"] = "fail"
                        log(f"  {meta.example} {entry['label']}: FAIL\n{e}")
                else:
                    entry["status"] = "pass (unchecked)"
            except rt.KernelTimeout as e:
                entry["status"] = "hang"
                entry["error"] = str(e)
                result["status"] = "hang"
                e.result = result
                raise
            except rt.CudaError as e:
                entry["status"] = "error"
                entry["error"] = str(e)
                result["status"] = "error"
                e.result = result
                raise
            finally:
                entry["seconds"] = round(time.perf_counter() - t0, 3)
                # cuMemFree synchronizes: never call it behind a hung kernel.
                if entry["status"] != "hang":
                    try:
                        _free(bufs)
                    except rt.CudaError:
                        pass
            if entry["status"] == "pass" and mode != "bandwidth":
                log(f"  {meta.example} {entry['label']}: pass "
                    f"({entry['check'].get('elements', '?')} elements)")
    return result


def _before_kernels(spec, meta: ExampleMeta, module) -> list:
    """(name, Kernel, KernelMeta, parameter names) of the spec's BEFORE
    kernels, checked against PARAMS and the metadata."""
    names = [n for n, _ in spec.PARAMS]
    out = []
    for entry in getattr(spec, "BEFORE", ()):
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2):
            raise SpecError(f"{spec.KERNEL}: BEFORE entries are (kernel, "
                            f"[parameter names]), got {entry!r}")
        name, params = entry
        unknown = [p for p in params if p not in names]
        if unknown:
            raise SpecError(f"{spec.KERNEL}: BEFORE kernel {name} takes "
                            f"{unknown}, which are not in PARAMS {names}")
        km = meta.kernel(name)
        k = module.kernel(name)
        if k.entry is not None and len(k.entry.params) != len(params):
            raise SpecError(f"{spec.KERNEL}: BEFORE kernel {name} has "
                            f"{len(k.entry.params)} PTX parameters, the spec "
                            f"names {len(params)}")
        out.append((name, k, km, list(params)))
    return out


def _launch_after(spec, before: list, kernel, km, grid, args: list,
                  pdl: bool, timeout: float):
    """The BEFORE kernels, then KERNEL (with `pdl`, as a programmatic
    dependent launch), back to back on one stream; waits with the
    watchdog."""
    by_name = dict(zip([n for n, _ in spec.PARAMS], args))
    stream = rt.Stream()
    try:
        for _, k, kmeta, params in before:
            rt.launch(k, grid, (kmeta.block_threads, 1, 1),
                      [by_name[p] for p in params], kmeta.smem_bytes,
                      kmeta.cluster, stream=stream)
        rt.launch(kernel, grid, (km.block_threads, 1, 1), args,
                  km.smem_bytes, km.cluster, stream=stream, pdl=pdl)
        rt.synchronize(stream, timeout, what=f"kernels "
                       f"{', '.join(n for n, *_ in before + [(spec.KERNEL,)])}")
    finally:
        stream.destroy()


def _copy_baseline(nbytes: int, warmup: int, iters: int,
                   timeout: float) -> float:
    """Device-to-device copy of `nbytes` (read + write = 2 * nbytes), GB/s."""
    src = rt.DeviceArray(nbytes, np.uint8)
    dst = rt.DeviceArray(nbytes, np.uint8)
    try:
        src.fill_bytes(1)
        samples = rt.time_callable_samples(
            lambda: dst.copy_from_device(src), warmup=warmup, iters=iters,
            timeout=timeout)
        return 2 * nbytes / (statistics.median(samples) * 1e6)
    finally:
        src.free()
        dst.free()
