"""Reading PTX text: kernel entries, their parameters, and instruction counts.

Pure Python (no CUDA needed); used by the demo to summarize what the lowering
produced and by the launcher to check launch arguments against the entry's
parameter list before a launch.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = [
    "PtxParam",
    "PtxEntry",
    "parse_entries",
    "opcodes",
    "opcode_histogram",
    "count_key_instructions",
    "KEY_INSTRUCTIONS",
]

# Sizes of PTX scalar parameter types in bytes.
_TYPE_BYTES = {
    "b8": 1, "u8": 1, "s8": 1,
    "b16": 2, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
    "b32": 4, "u32": 4, "s32": 4, "f32": 4,
    "b64": 8, "u64": 8, "s64": 8, "f64": 8,
    "pred": 1,
}


@dataclass
class PtxParam:
    name: str
    ptx_type: str  # e.g. "u64", "f32", or "b8[16]" for byte arrays
    size: int  # bytes
    is_pointer: bool = False  # declared with `.ptr`


@dataclass
class PtxEntry:
    name: str
    params: list[PtxParam] = field(default_factory=list)
    reqntid: tuple[int, ...] | None = None
    maxntid: tuple[int, ...] | None = None
    reqnctapercluster: tuple[int, ...] | None = None
    explicitcluster: bool = False
    maxnreg: int | None = None

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "params": [
                {"name": p.name, "type": p.ptx_type, "size": p.size,
                 "pointer": p.is_pointer}
                for p in self.params
            ],
            "reqntid": list(self.reqntid) if self.reqntid else None,
            "maxntid": list(self.maxntid) if self.maxntid else None,
            "reqnctapercluster": (list(self.reqnctapercluster)
                                  if self.reqnctapercluster else None),
            "explicitcluster": self.explicitcluster,
            "maxnreg": self.maxnreg,
        }


_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENTRY_RE = re.compile(
    r"\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)\s*([^{;]*?)\{", re.S)


def strip_comments(text: str) -> str:
    return _COMMENT_RE.sub("", text)


def _parse_param(decl: str) -> PtxParam | None:
    toks = decl.replace(",", " ").split()
    if not toks or toks[0] != ".param":
        return None
    is_ptr = ".ptr" in toks
    name_tok = toks[-1]
    scalar = None
    for t in toks[1:-1]:
        if t.startswith(".") and t[1:] in _TYPE_BYTES:
            scalar = t[1:]
            break
    m = re.match(r"([\w$]+)\[(\d+)\]$", name_tok)
    if m:  # byte array (aggregate by value)
        elems = int(m.group(2))
        base = scalar or "b8"
        return PtxParam(m.group(1), f"{base}[{elems}]",
                        elems * _TYPE_BYTES[base], is_ptr)
    if scalar is None:
        return PtxParam(name_tok, "?", 0, is_ptr)
    return PtxParam(name_tok, scalar, _TYPE_BYTES[scalar], is_ptr)


def _ints(s: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", s))


def parse_entries(ptx: str) -> dict[str, PtxEntry]:
    """Every `.entry` of a PTX module, by name, in order."""
    text = strip_comments(ptx)
    entries: dict[str, PtxEntry] = {}
    for m in _ENTRY_RE.finditer(text):
        entry = PtxEntry(m.group(1))
        for decl in m.group(2).split(","):
            p = _parse_param(decl.strip())
            if p is not None:
                entry.params.append(p)
        directives = m.group(3)
        for d in re.finditer(r"\.(reqntid|maxntid|reqnctapercluster|maxnreg)"
                             r"\s+([\d\s,]+)", directives):
            vals = _ints(d.group(2))
            if d.group(1) == "maxnreg":
                entry.maxnreg = vals[0] if vals else None
            else:
                setattr(entry, d.group(1), vals)
        entry.explicitcluster = ".explicitcluster" in directives
        entries[entry.name] = entry
    return entries


_LABEL_RE = re.compile(r"^\s*[A-Za-z_$][\w$]*\s*:")
_PRED_RE = re.compile(r"^@!?[%\w$]+\s+")


def opcodes(ptx: str):
    """Yields the opcode (e.g. ``mbarrier.try_wait.parity.shared::cta.b64``) of
    every instruction in the module's function bodies, inline assembly
    included. Directives (``.reg``, ``.param``...) are skipped."""
    text = strip_comments(ptx)
    # Statements end at ';'; braces open and close scopes (inline asm uses
    # `{ .reg .pred P; L: insn; ... }` on one line).
    for stmt in re.split(r"[;{}]", text):
        s = stmt.strip()
        while True:
            m = _LABEL_RE.match(s)
            if not m:
                break
            s = s[m.end():].strip()
        if not s:
            continue
        s = _PRED_RE.sub("", s)
        op = s.split(None, 1)[0]
        if op.startswith(".") or not re.match(r"[a-z]", op):
            continue
        yield op


def opcode_histogram(ptx: str) -> dict[str, int]:
    return dict(sorted(Counter(opcodes(ptx)).items()))


# Instruction families the demo reports. Each is a predicate on the opcode.
KEY_INSTRUCTIONS: dict[str, callable] = {
    "mbarrier.init": lambda op: op.startswith("mbarrier.init"),
    "mbarrier.try_wait": lambda op: op.startswith("mbarrier.try_wait"),
    # every mbarrier.arrive form (plain, expect_tx, remote)
    "mbarrier.arrive": lambda op: op.startswith("mbarrier.arrive"),
    # mbarrier.arrive.expect_tx and mbarrier.expect_tx
    "expect_tx": lambda op: op.startswith("mbarrier.") and ".expect_tx" in op,
    # Ampere-style cp.async (copies, commit/wait groups, mbarrier.arrive)
    "cp.async": lambda op: op.startswith("cp.async.")
    and not op.startswith("cp.async.bulk"),
    # bulk and bulk-tensor copies (TMA), their commit/wait groups
    "cp.async.bulk": lambda op: op.startswith("cp.async.bulk"),
    "elect.sync": lambda op: op.startswith("elect.sync"),
    "fence.mbarrier_init": lambda op: op.startswith("fence.mbarrier_init"),
}


def count_key_instructions(ptx: str) -> dict[str, int]:
    """Static counts of the instruction families in KEY_INSTRUCTIONS."""
    counts = {k: 0 for k in KEY_INSTRUCTIONS}
    for op in opcodes(ptx):
        for key, pred in KEY_INSTRUCTIONS.items():
            if pred(op):
                counts[key] += 1
    return counts


def target_of(ptx: str) -> str | None:
    """The chip of the PTX module's `.target` directive (`sm_90a`), or
    None."""
    m = re.search(r"^\s*\.target\s+([\w]+)", ptx, re.M)
    return m.group(1) if m else None


def ptx_version_of(ptx: str) -> str | None:
    """The PTX ISA version of the `.version` directive (`8.0`), or None."""
    m = re.search(r"^\s*\.version\s+([\d.]+)", ptx, re.M)
    return m.group(1) if m else None
