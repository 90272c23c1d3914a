"""Launch metadata of tspipe kernels, read from printed IR, and its JSON form.

The demo runs `tspipe-opt --tspipe-allocate-smem` on an example and reads,
from the printed IR, each `tspipe.kernel` (its enclosing `gpu.func` is the
PTX entry), its warp count, cluster shape, dynamic shared memory bytes, its
pipelines (type, stages, bytes, barrier and buffer offsets) and tasks. It
also reads the PTX out of a `gpu.binary` op. The metadata JSON written next
to the PTX is what `run_examples` launches with on the GPU machine, where
neither tspipe-opt nor the compiled bindings exist.

Only text is parsed here; nothing needs the compiled extension.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..targets import PTX_FEATURES

__all__ = [
    "PipelineMeta",
    "TaskMeta",
    "KernelMeta",
    "ExampleMeta",
    "parse_config",
    "parse_allocated_ir",
    "parse_lowered_ir",
    "extract_gpu_objects",
    "decode_mlir_string",
    "retarget",
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
# #tspipe.config<...> text
# --------------------------------------------------------------------------

def _split_top(s: str, sep: str = ",") -> list[str]:
    """Splits on `sep` outside <>, [], (), {} and string literals."""
    parts, depth, cur, in_str, esc = [], 0, [], False, False
    for ch in s:
        if in_str:
            cur.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "<[({":
            depth += 1
        elif ch in ">])}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _value(v: str):
    v = v.strip()
    if re.fullmatch(r"-?\d+", v):
        return int(v)
    if v in ("true", "false"):
        return v == "true"
    if v.startswith("[") and v.endswith("]"):
        return [_value(x) for x in _split_top(v[1:-1])]
    if v.startswith("<") and v.endswith(">"):
        return [_value(x) for x in _split_top(v[1:-1])]
    return v


def parse_config(text: str) -> dict:
    """Parses the body of `#tspipe.config<...>` (with or without the
    `#tspipe.config` prefix and the angle brackets) into a dict: `type` is the
    pipeline type, the other keys are the printed fields."""
    t = text.strip()
    if t.startswith("#tspipe.config"):
        t = t[len("#tspipe.config"):].strip()
    if t.startswith("<") and t.endswith(">"):
        t = t[1:-1]
    parts = _split_top(t)
    if not parts:
        raise ValueError(f"empty pipeline config: {text!r}")
    cfg = {"type": parts[0].strip()}
    for p in parts[1:]:
        if "=" not in p:
            cfg[p.strip()] = True
            continue
        k, v = p.split("=", 1)
        cfg[k.strip()] = _value(v)
    return cfg


# --------------------------------------------------------------------------
# IR after tspipe-allocate-smem
# --------------------------------------------------------------------------

_GPU_MODULE_RE = re.compile(r"\bgpu\.module\s+@([\w$.\-]+)")
_FUNC_RE = re.compile(r"\b(?:gpu|llvm)\.func\s+@([\w$.\-]+)\s*\(")
_KERNEL_RE = re.compile(
    r"\btspipe\.kernel\s+warps\(\s*(\d+)\s*\)"
    r"(?:\s+cluster\(\s*\[([\d,\s]*)\]\s*\))?")
_PIPELINE_RE = re.compile(
    r"\btspipe\.pipeline\s+@([\w$.\-]+)\s+config\(\s*(<[^()]*>)\s*\)"
    r"(?:\s+smem_bytes\(\s*(\d+)\s*\))?"
    r"(?:\s+tmem_columns\(\s*(\d+)\s*\))?"
    r"(?:\s*(\{[^{}]*\}))?")
_TASK_RE = re.compile(
    r"\btspipe\.task\s+@([\w$.\-]+)\s+warps\(\s*(\d+)\s*,\s*(\d+)\s*\)"
    r"(?:\s+produces\s+\[([^\]]*)\])?"
    r"(?:\s+consumes\s+\[([^\]]*)\])?"
    r"(?:\s+cta\(\s*(\d+)\s*\))?"
    r"(?:\s+registers\(\s*(\d+)\s*\))?")


def _int_attr(text: str, name: str) -> int | None:
    m = re.search(rf"\b{re.escape(name)}\s*=\s*(-?\d+)\s*(?::\s*i\d+)?", text)
    return int(m.group(1)) if m else None


def _symbols(s: str | None) -> list[str]:
    return re.findall(r"@([\w$.\-]+)", s or "")


def parse_allocated_ir(text: str) -> list[KernelMeta]:
    """Reads every `tspipe.kernel` of IR printed after tspipe-allocate-smem
    (pretty form). Raises ValueError for a kernel without `smem_bytes` (the
    pass did not run)."""
    kernels: list[KernelMeta] = []
    gpu_module = None
    func = None
    current: KernelMeta | None = None
    for line in text.splitlines():
        m = _GPU_MODULE_RE.search(line)
        if m:
            gpu_module = m.group(1)
        m = _FUNC_RE.search(line)
        if m:
            func = m.group(1)
            current = None
        m = _KERNEL_RE.search(line)
        if m:
            warps = int(m.group(1))
            cluster = tuple(int(v) for v in re.findall(r"\d+", m.group(2)
                                                       or ""))
            cluster = (cluster + (1, 1, 1))[:3] if cluster else (1, 1, 1)
            rest = line[m.end():]
            smem = _int_attr(rest, "smem_bytes")
            if smem is None:
                raise ValueError(
                    f"tspipe.kernel in @{func} has no smem_bytes: run "
                    "tspipe-allocate-smem first")
            if func is None:
                raise ValueError("tspipe.kernel outside a gpu.func")
            current = KernelMeta(name=func, gpu_module=gpu_module,
                                 warps=warps, block_threads=32 * warps,
                                 cluster=cluster, smem_bytes=smem)
            kernels.append(current)
            continue
        if current is None:
            continue
        m = _PIPELINE_RE.search(line)
        if m:
            cfg = parse_config(m.group(2))
            attrs = m.group(5) or ""
            stages = int(cfg.get("num_stages", 0))

            def group(key):
                g = cfg.get(key)
                return (str(g[0]), int(g[1])) if isinstance(g, list) and \
                    len(g) == 2 else None

            current.pipelines.append(PipelineMeta(
                name=m.group(1),
                type=cfg["type"],
                num_stages=stages,
                num_bytes=int(cfg.get("num_bytes", 0)),
                producer_group=group("producer_group"),
                consumer_group=group("consumer_group"),
                cta_layout_vmnk=tuple(cfg.get("cta_layout_vmnk",
                                              [1, 1, 1, 1])),
                barrier_bytes=16 * stages,
                barrier_offset=_int_attr(attrs, "barrier_offset"),
                buffer_offset=_int_attr(attrs, "buffer_offset"),
                smem_bytes=int(m.group(3)) if m.group(3) else None,
                tmem_columns=int(m.group(4)) if m.group(4) else None,
                config=cfg,
            ))
            continue
        m = _TASK_RE.search(line)
        if m:
            current.tasks.append(TaskMeta(
                name=m.group(1), warp_idx=int(m.group(2)),
                num_warps=int(m.group(3)),
                produces=_symbols(m.group(4)), consumes=_symbols(m.group(5)),
                cta=int(m.group(6)) if m.group(6) else None,
                registers=int(m.group(7)) if m.group(7) else None))
    return kernels


def parse_lowered_ir(text: str) -> dict[str, dict]:
    """Launch attributes that convert-tspipe-to-nvvm leaves on the lowered
    functions (`tspipe.block_threads`, `tspipe.smem_bytes`,
    `tspipe.cluster_shape`), by function name. Used as a cross-check."""
    out: dict[str, dict] = {}
    for m in _FUNC_RE.finditer(text):
        name = m.group(1)
        # The function's attribute dictionary ends the header line.
        end = text.find("\n", m.end())
        header = text[m.end(): end if end >= 0 else len(text)]
        info = {}
        bt = _int_attr(header, "tspipe.block_threads")
        if bt is not None:
            info["block_threads"] = bt
        sb = _int_attr(header, "tspipe.smem_bytes")
        if sb is not None:
            info["smem_bytes"] = sb
        cm = re.search(r"tspipe\.cluster_shape\s*=\s*array<i64:\s*([\d,\s]+)>",
                       header)
        if cm:
            info["cluster"] = [int(v) for v in re.findall(r"\d+", cm.group(1))]
        if info:
            out[name] = info
    return out


# --------------------------------------------------------------------------
# gpu.binary objects
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


def retarget(module_text: str, chip: str, features: str | None = None) -> str:
    """Rewrites every `#nvvm.target<...>` of the module to `chip`."""
    features = features or PTX_FEATURES.get(chip, "+ptx86")
    new = f'#nvvm.target<chip = "{chip}", features = "{features}">'
    return re.sub(r"#nvvm\.target(<[^>]*>)?", new, module_text)
