"""Launch facts of tspipe kernels, read from the IR's attributes.

:func:`compile_for_launch` is what ``make demo`` compiles an example with,
in process: it runs ``tspipe-allocate-smem`` on a copy of the module and
reads, from the ops' attributes (no printed IR), each ``tspipe.kernel``
(its enclosing ``gpu.func`` is the PTX entry): warps, cluster shape,
dynamic shared memory bytes, its pipelines (configs read back through the C
API, barrier and buffer offsets) and tasks; then it lowers the module with
the steps of :func:`tspipe.compile.lower_module` -- the compile path of the
Python API and the tests -- and cross-checks the launch attributes the lowering leaves
on the kernel functions (``tspipe.block_threads``, ``tspipe.smem_bytes``).

Part of the pipeline layer (it works on ``builtin.module`` operations and
imports nothing of the ``tspipe.ts`` front end). Needs the compiled
extension.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from . import ir, passmanager
from ._mlir_libs import _tspipe
from .compile import lower_to_nvvm, prepare_targets, serialize, target_fields
from .diagnostics import error_from_mlir
from .dialects import _tspipe_enum_gen as _enums
from .runtime.meta import KernelMeta, PipelineMeta, TaskMeta

__all__ = ["kernel_facts", "lowered_facts", "compile_for_launch", "LaunchError"]


class LaunchError(ValueError):
    """The launch facts of a kernel disagree between before and after
    lowering (a lowering defect), or a kernel lacks them."""


def _int(attrs, name: str) -> Optional[int]:
    if name not in attrs:
        return None
    return ir.IntegerAttr(attrs[name]).value


def _symbols(attrs, name: str) -> List[str]:
    if name not in attrs:
        return []
    return [ir.FlatSymbolRefAttr(a).value for a in ir.ArrayAttr(attrs[name])]


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
    attrs = op.attributes
    fields = _tspipe.config_fields(attrs["config"])
    facts = _tspipe.config_facts(attrs["config"])
    kind = str(_enums.PipelineType(fields["pipeline_type"]))

    def group(attr):
        agent, size = _tspipe.group_fields(attr)
        return (str(_enums.Agent(agent)), size)

    layout = tuple(fields["cta_layout_vmnk"]) or (1, 1, 1, 1)
    return PipelineMeta(
        name=ir.StringAttr(attrs["sym_name"]).value,
        type=kind,
        num_stages=fields["num_stages"],
        num_bytes=fields["num_bytes"],
        producer_group=group(fields["producer_group"]),
        consumer_group=group(fields["consumer_group"]),
        cta_layout_vmnk=layout,
        barrier_bytes=facts["barrier_bytes"],
        barrier_offset=_int(attrs, "barrier_offset"),
        buffer_offset=_int(attrs, "buffer_offset"),
        smem_bytes=_int(attrs, "smem_bytes"),
        tmem_columns=_int(attrs, "tmem_columns"),
        config={"type": kind, "num_stages": fields["num_stages"],
                "num_bytes": fields["num_bytes"],
                "interleave_stride": list(facts["strides"])},
    )


def kernel_facts(module_op) -> List[KernelMeta]:
    """The :class:`~tspipe.runtime.meta.KernelMeta` of every
    ``tspipe.kernel`` of a module on which ``tspipe-allocate-smem`` ran.
    Raises LaunchError for a kernel without ``smem_bytes`` or outside a
    ``gpu.func``."""
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
                meta.tensor_maps = _tensor_map_args(func)
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


def _tensor_map_args(func) -> Dict[str, str]:
    """Tensor-map parameters of a ``gpu.func`` (``tspipe.tensor_map`` argument
    attributes, tspipe.ts.tensor_maps): parameter name (``tspipe.arg_name``,
    else its position) -> the ``!nvgpu.tensormap.descriptor`` type text."""
    out: Dict[str, str] = {}
    if "arg_attrs" not in func.attributes:
        return out
    for position, attrs in enumerate(ir.ArrayAttr(func.attributes["arg_attrs"])):
        attrs = ir.DictAttr(attrs)
        if "tspipe.tensor_map" not in attrs:
            continue
        name = (ir.StringAttr(attrs["tspipe.arg_name"]).value
                if "tspipe.arg_name" in attrs else str(position))
        out[name] = str(ir.TypeAttr(attrs["tspipe.tensor_map"]).value)
    return out


def lowered_facts(module_op) -> Dict[str, dict]:
    """The launch attributes ``tspipe-to-nvvm`` leaves on the kernel
    functions (``tspipe.block_threads``, ``tspipe.smem_bytes``,
    ``tspipe.cluster_shape``), by function name."""
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
    """Compile module text, or a :class:`tspipe.ts.Kernel` (a verified copy
    of its module), for launching: ``(kernels, {gpu.module: ptx},
    {gpu.module: {"targets": [{chip, features, O}, ...]}})``.

    ``kernels`` come from the attributes after ``tspipe-allocate-smem``;
    the PTX from the steps of :func:`tspipe.compile.lower_module` (``arch``
    None: the module's own targets), the lowered launch attributes read in
    between. Raises what ``lower_module`` raises, and LaunchError when the
    lowered kernel's block size or shared memory differs from the
    allocation's. ``source_path``: the file the text was read from, parsed
    from there so that diagnostics name it.
    """
    if hasattr(source, "verified_copy"):
        # A tspipe.ts.Kernel: its module, target attached and verified by the
        # C++ verifiers (the progress checker runs in tspipe-to-nvvm).
        arch = arch or source.arch
        context = source.context
    else:
        context = ir.Context()
    with context, ir.Location.unknown():
        if context is getattr(source, "context", None):
            module_op = source.verified_copy(arch)
            arch = None  # its own targets
        else:
            try:
                module = (ir.Module.parseFile(str(source_path))
                          if source_path is not None
                          else ir.Module.parse(source))
            except ir.MLIRError as err:
                raise error_from_mlir(err) from None
            module_op = module.operation
        allocated = module_op.clone()
        try:
            passmanager.PassManager.parse(
                "builtin.module(tspipe-allocate-smem)").run(allocated)
        except ir.MLIRError as err:
            raise error_from_mlir(err) from None
        kernels = kernel_facts(allocated)
        prepare_targets(module_op, arch=arch)
        lower_to_nvvm(module_op, debug_hang_timeout)
        lowered = lowered_facts(module_op)
        ptx = serialize(module_op)
        for k in kernels:
            got = lowered.get(k.name, {})
            for key, want in (("block_threads", k.block_threads),
                              ("smem_bytes", k.smem_bytes)):
                if key in got and got[key] != want:
                    raise LaunchError(
                        f"@{k.name} {key} is {want} after tspipe-allocate-smem "
                        f"but {got[key]} after lowering")
        targets = {name: {"targets": fields}
                   for name, fields in target_fields(module_op).items()}
        return kernels, ptx, targets
