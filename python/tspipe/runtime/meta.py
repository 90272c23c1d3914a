"""Launch metadata of tspipe kernels and its JSON form.

The demo fills these records from the IR's attributes
(`tspipe.launch.kernel_facts`): each `tspipe.kernel` (its enclosing
`gpu.func` is the PTX entry), its warp count, cluster shape, dynamic shared
memory bytes, its pipelines (type, stages, bytes, barrier and buffer
offsets) and tasks. The metadata JSON written next to the PTX is what
`run_examples` launches with on the GPU machine, where the compiled bindings
need not exist. `extract_gpu_objects` reads the payloads of a `gpu.binary`
printed by `tspipe-opt` (to compare the command line's PTX).

Nothing here needs the compiled extension.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

__all__ = [
    "PipelineMeta",
    "TaskMeta",
    "KernelMeta",
    "ExampleMeta",
    "extract_gpu_objects",
    "decode_mlir_string",
    "METADATA_VERSION",
]

METADATA_VERSION = 1


@dataclass
class PipelineMeta:
    name: str
    type: str
    num_stages: int
    num_bytes: int = 0
    producer_group: tuple[str, int] | None = None
    consumer_group: tuple[str, int] | None = None
    cta_layout_vmnk: tuple[int, ...] = (1, 1, 1, 1)
    barrier_bytes: int = 0  # 2 * num_stages mbarriers of 8 bytes
    barrier_offset: int | None = None
    buffer_offset: int | None = None
    smem_bytes: int | None = None  # data buffer bytes
    tmem_columns: int | None = None
    config: dict = field(default_factory=dict)  # every printed field


@dataclass
class TaskMeta:
    name: str
    warp_idx: int
    num_warps: int
    produces: list[str] = field(default_factory=list)
    consumes: list[str] = field(default_factory=list)
    cta: int | None = None
    registers: int | None = None


@dataclass
class KernelMeta:
    name: str  # the gpu.func, i.e. the PTX entry
    gpu_module: str | None
    warps: int
    block_threads: int
    cluster: tuple[int, int, int] = (1, 1, 1)
    smem_bytes: int = 0
    pipelines: list[PipelineMeta] = field(default_factory=list)
    tasks: list[TaskMeta] = field(default_factory=list)
    ptx_params: list[dict] | None = None
    # Tensor-map parameters: name -> the !nvgpu.tensormap.descriptor type
    # the IR declares (tspipe.runtime.tensor_map builds the map from it).
    tensor_maps: dict = field(default_factory=dict)


@dataclass
class ExampleMeta:
    """Contents of out/<example>.<arch>.json."""
    example: str
    arch: str
    source: str
    ptx: str  # file name, relative to the JSON's folder
    cubin: str | None
    kernels: list[KernelMeta]
    ptx_counts: dict = field(default_factory=dict)
    ptx_opcodes: dict = field(default_factory=dict)
    ptxas: dict = field(default_factory=dict)
    tool: dict = field(default_factory=dict)
    version: int = METADATA_VERSION

    def kernel(self, name: str) -> KernelMeta:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(f"no kernel {name!r} in {self.example} "
                       f"({', '.join(k.name for k in self.kernels)})")

    def to_json(self) -> dict:
        return asdict(self)

    def save(self, path: str | Path):
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def from_json(cls, d: dict) -> "ExampleMeta":
        kernels = []
        for k in d["kernels"]:
            k = dict(k)
            k["cluster"] = tuple(k.get("cluster") or (1, 1, 1))
            k["pipelines"] = [_pipeline_from_json(p)
                              for p in k.get("pipelines", [])]
            k["tasks"] = [TaskMeta(**t) for t in k.get("tasks", [])]
            kernels.append(KernelMeta(**k))
        d = dict(d)
        d["kernels"] = kernels
        return cls(**d)

    @classmethod
    def load(cls, path: str | Path) -> "ExampleMeta":
        return cls.from_json(json.loads(Path(path).read_text()))


def _pipeline_from_json(p: dict) -> PipelineMeta:
    p = dict(p)
    for key in ("producer_group", "consumer_group"):
        if p.get(key) is not None:
            p[key] = tuple(p[key])
    p["cta_layout_vmnk"] = tuple(p.get("cta_layout_vmnk") or (1, 1, 1, 1))
    return PipelineMeta(**p)


# --------------------------------------------------------------------------
# gpu.binary objects printed by tspipe-opt
# --------------------------------------------------------------------------

def decode_mlir_string(s: str, start: int) -> tuple[bytes, int]:
    """Decodes the MLIR string literal whose opening quote is at `start`;
    returns its bytes and the index after the closing quote. Handles
    `\\XX` hex escapes and `\\n \\t \\\\ \\"`."""
    assert s[start] == '"'
    out = bytearray()
    i = start + 1
    n = len(s)
    while i < n:
        ch = s[i]
        if ch == '"':
            return bytes(out), i + 1
        if ch == "\\":
            nxt = s[i + 1]
            if nxt in "\\\"":
                out.append(ord(nxt))
                i += 2
            elif nxt == "n":
                out.append(10)
                i += 2
            elif nxt == "t":
                out.append(9)
                i += 2
            else:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
            continue
        out.extend(ch.encode())
        i += 1
    raise ValueError("unterminated string literal")


_OBJECT_RE = re.compile(r"#gpu\.object<\s*#nvvm\.target<([^>]*)>")


def extract_gpu_objects(text: str) -> list[dict]:
    """Every `#gpu.object` of the printed module: its binary's name, chip,
    features, format (`assembly`, `bin`, `fatbin`, `offload`) and payload
    bytes."""
    objs = []
    binaries = [(m.start(), m.group(1))
                for m in re.finditer(r"\bgpu\.binary\s+@([\w$.\-]+)", text)]
    for m in _OBJECT_RE.finditer(text):
        target = m.group(1)
        chip = re.search(r'chip\s*=\s*"([^"]*)"', target)
        feats = re.search(r'features\s*=\s*"([^"]*)"', target)
        # The payload is the first string literal after the properties dict.
        i = m.end()
        depth = 0
        fmt = "fatbin"
        while i < len(text):
            ch = text[i]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == '"' and depth == 0:
                kind = re.search(r"(offload|assembly|bin|fatbin)\s*=\s*$",
                                 text[m.end():i])
                if kind:
                    fmt = kind.group(1)
                break
            elif ch == '"':  # string inside properties: skip it
                _, i = decode_mlir_string(text, i)
                continue
            i += 1
        payload, _ = decode_mlir_string(text, i)
        binary = None
        for pos, name in binaries:
            if pos < m.start():
                binary = name
        objs.append({
            "binary": binary,
            "chip": chip.group(1) if chip else None,
            "features": feats.group(1) if feats else None,
            "format": fmt,
            "payload": payload,
        })
    return objs
