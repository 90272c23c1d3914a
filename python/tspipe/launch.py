"""Launch facts of tspipe kernels, read from the IR's attributes.

:func:`compile_for_launch` is what ``make demo`` compiles an example with,
in process: it runs ``tspipe-allocate-smem`` on a copy of the module and
reads, from the ops' attributes (no printed IR), each ``tspipe.kernel``
(its enclosing ``gpu.func`` is the PTX entry): warps, cluster shape,
dynamic shared memory bytes, its pipelines (configs read back through the C
API, barrier and buffer offsets) and tasks; then it lowers the module with
:func:`tspipe.compile.lower_module` -- the compile path of the Python API
and the tests -- and cross-checks the launch attributes the lowering leaves
on the kernel functions (``tspipe.block_threads``, ``tspipe.smem_bytes``).

Needs the compiled extension.
"""

from __future__ import annotations

import importlib
from typing import Dict, List, Optional, Tuple

from .runtime.meta import KernelMeta, PipelineMeta, TaskMeta

__all__ = ["kernel_facts", "lowered_facts", "compile_for_launch", "LaunchError"]


class LaunchError(ValueError):
    """The launch facts of a kernel disagree between before and after
    lowering (a lowering defect), or a kernel lacks them."""


def _ir():
    return importlib.import_module("tspipe.ir")


def _int(attrs, name: str) -> Optional[int]:
    if name not in attrs:
        return None
    return _ir().IntegerAttr(attrs[name]).value


def _symbols(attrs, name: str) -> List[str]:
    if name not in attrs:
        return []
    return [_ir().FlatSymbolRefAttr(a).value for a in _ir().ArrayAttr(attrs[name])]


def _walk(op, name: str):
    """Every nested op named ``name`` (pre-order)."""
    found = []
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                if child.name == name:
                    found.append(child)
                found.extend(_walk(child, name))
    return found


def _pipeline_meta(op) -> PipelineMeta:
    from .ts.config import PipelineConfig

    ir = _ir()
    attrs = op.attributes
    cfg = PipelineConfig.from_attr(attrs["config"])
    return PipelineMeta(
        name=ir.StringAttr(attrs["sym_name"]).value,
        type=str(cfg.pipeline_type),
        num_stages=cfg.num_stages,
        num_bytes=cfg.num_bytes,
        producer_group=(str(cfg.producer_group.agent), cfg.producer_group.size),
        consumer_group=(str(cfg.consumer_group.agent), cfg.consumer_group.size),
        cta_layout_vmnk=tuple(cfg.cta_layout_vmnk or (1, 1, 1, 1)),
        barrier_bytes=cfg.barrier_bytes,
        barrier_offset=_int(attrs, "barrier_offset"),
        buffer_offset=_int(attrs, "buffer_offset"),
        smem_bytes=_int(attrs, "smem_bytes"),
        tmem_columns=_int(attrs, "tmem_columns"),
        config={"type": str(cfg.pipeline_type), "num_stages": cfg.num_stages,
                "num_bytes": cfg.num_bytes,
                "interleave_stride": list(cfg.strides)},
    )


def kernel_facts(module_op) -> List[KernelMeta]:
    """The :class:`~tspipe.runtime.meta.KernelMeta` of every
    ``tspipe.kernel`` of a module on which ``tspipe-allocate-smem`` ran.
    Raises LaunchError for a kernel without ``smem_bytes`` or outside a
    ``gpu.func``."""
    ir = _ir()
    kernels: List[KernelMeta] = []
    for gpu_module in _walk(module_op, "gpu.module"):
        module_name = ir.StringAttr(gpu_module.attributes["sym_name"]).value
        for func in _walk(gpu_module, "gpu.func"):
            func_name = ir.StringAttr(func.attributes["sym_name"]).value
            for kernel in _walk(func, "tspipe.kernel"):
                attrs = kernel.attributes
                smem = _int(attrs, "smem_bytes")
                if smem is None:
                    raise LaunchError(
                        f"tspipe.kernel in @{func_name} has no smem_bytes: "
                        f"run tspipe-allocate-smem first")
                warps = _int(attrs, "num_warps")
                cluster = (1, 1, 1)
                if "cluster_shape" in attrs:
                    cluster = tuple(ir.DenseI64ArrayAttr(attrs["cluster_shape"]))
                meta = KernelMeta(name=func_name, gpu_module=module_name,
                                  warps=warps, block_threads=32 * warps,
                                  cluster=cluster, smem_bytes=smem)
                meta.pipelines = [_pipeline_meta(p)
                                  for p in _walk(kernel, "tspipe.pipeline")]
                for task in _walk(kernel, "tspipe.task"):
                    t = task.attributes
                    meta.tasks.append(TaskMeta(
                        name=ir.StringAttr(t["sym_name"]).value,
                        warp_idx=_int(t, "warp_idx"),
                        num_warps=_int(t, "num_warps"),
                        produces=_symbols(t, "produces"),
                        consumes=_symbols(t, "consumes"),
                        cta=_int(t, "run_only_on_cta_id"),
                        registers=_int(t, "num_registers")))
                kernels.append(meta)
    return kernels


def lowered_facts(module_op) -> Dict[str, dict]:
    """The launch attributes ``tspipe-to-nvvm`` leaves on the kernel
    functions (``tspipe.block_threads``, ``tspipe.smem_bytes``,
    ``tspipe.cluster_shape``), by function name."""
    ir = _ir()
    out: Dict[str, dict] = {}
    for name in ("llvm.func", "gpu.func"):
        for func in _walk(module_op, name):
            attrs = func.attributes
            info = {}
            for key, attr in (("block_threads", "tspipe.block_threads"),
                              ("smem_bytes", "tspipe.smem_bytes")):
                value = _int(attrs, attr)
                if value is not None:
                    info[key] = value
            if "tspipe.cluster_shape" in attrs:
                info["cluster"] = list(
                    ir.DenseI64ArrayAttr(attrs["tspipe.cluster_shape"]))
            if info:
                out[ir.StringAttr(attrs["sym_name"]).value] = info
    return out


def compile_for_launch(source, *, arch: Optional[str] = None,
                       debug_hang_timeout: int = 0,
                       source_path: Optional[str] = None
                       ) -> Tuple[List[KernelMeta], Dict[str, str], Dict[str, dict]]:
    """Compile module text, or a :class:`tspipe.ts.Kernel` (a copy of its
    built module), for launching: ``(kernels, {gpu.module: ptx},
    {gpu.module: target facts})``.

    ``kernels`` come from the attributes after ``tspipe-allocate-smem``;
    the PTX from :func:`tspipe.compile.lower_module` (``arch`` None: the
    module's own targets). Raises what ``lower_module`` raises, and
    LaunchError when the lowered kernel's block size or shared memory
    differs from the allocation's. ``source_path``: the file the text was
    read from, parsed from there so that diagnostics name it.
    """
    ir = _ir()
    passmanager = importlib.import_module("tspipe.passmanager")
    compile_mod = importlib.import_module("tspipe.compile")
    errors = importlib.import_module("tspipe.ts.errors")
    if hasattr(source, "build") and hasattr(source, "module"):
        arch = arch or source.arch
        source.build(arch)
        context = source.context
    else:
        context = ir.Context()
    with context, ir.Location.unknown():
        if context is not getattr(source, "context", None):
            try:
                module = (ir.Module.parseFile(str(source_path))
                          if source_path is not None
                          else ir.Module.parse(source))
            except ir.MLIRError as err:
                raise errors.error_from_mlir(err) from None
            module_op = module.operation
        else:
            module_op = source.module.operation.clone()
        allocated = module_op.clone()
        try:
            passmanager.PassManager.parse(
                "builtin.module(tspipe-allocate-smem)").run(allocated)
        except ir.MLIRError as err:
            raise errors.error_from_mlir(err) from None
        kernels = kernel_facts(allocated)
        lowered: Dict[str, dict] = {}
        ptx = compile_mod.lower_module(module_op, arch=arch,
                                       debug_hang_timeout=debug_hang_timeout,
                                       lowered_facts=lowered)
        for k in kernels:
            got = lowered.get(k.name, {})
            for key, want in (("block_threads", k.block_threads),
                              ("smem_bytes", k.smem_bytes)):
                if key in got and got[key] != want:
                    raise LaunchError(
                        f"@{k.name} {key} is {want} after tspipe-allocate-smem "
                        f"but {got[key]} after lowering")
        targets: Dict[str, dict] = {}
        for op in module_op.regions[0].blocks[0].operations:
            if op.operation.name != "gpu.binary":
                continue
            name = ir.StringAttr(op.operation.attributes["sym_name"]).value
            gpu = importlib.import_module("tspipe.dialects.gpu")
            for obj in ir.ArrayAttr(op.operation.attributes["objects"]):
                target = gpu.ObjectAttr(obj).target
                targets[name] = {"target": str(target)}
        return kernels, ptx, targets
