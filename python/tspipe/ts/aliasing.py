"""TS's SMEM / TMEM allocations and alias groups as tspipe resources.

TS's resources declare their storage as ``SmemAllocation`` /
``TmemAllocation`` lists (``get_smem_requirements()``,
``get_tmem_requirements()``), and ``SmemAllocator.add_alias_group(phases)``
/ ``TmemAllocator.add_alias_group(phases)`` let allocations of different
phases share one region. In tspipe (docs/Protocols.md, Alias groups):

* the allocations of a pipelined resource are its pipeline's data buffer
  (``smem_bytes``: their sum) or TMEM columns, one block;
* each allocation of a resource without a pipeline (an epilogue's staging
  area, a scratch TMEM region) is a ``tspipe.buffer`` named
  ``<resource>_<allocation>``; an allocation no resource owns, one named
  ``<allocation>`` when an alias group lists it;
* an allocation several pipelines list (TS's fork members that view one
  buffer, ``fork_load_gemm_act``) is a ``tspipe.buffer`` named
  ``<allocation>`` that none of them owns;
* each alias group is a ``tspipe.alias_group`` of those resources, phase by
  phase; the verifier orders the reuse (X23).

:class:`StorageAliases` reads TS's allocator objects (or tspipe.ts's, which
keep the same ``_alias_groups`` lists) by attribute; both ``from_ts`` and
tspipe.ts's ``TaskManager`` build with it.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["StorageAliases", "allocations"]


def _identifier(text: str) -> str:
    """``text`` as a C identifier (a tspipe symbol)."""
    out = re.sub(r"\W", "_", str(text))
    return out if out and not out[0].isdigit() else f"_{out}"


def allocations(resource, tmem: bool) -> List[Any]:
    """The resource's SMEM (or TMEM) allocations, [] when it has none."""
    getter = getattr(resource, "get_tmem_requirements" if tmem
                     else "get_smem_requirements", None)
    return list(getter() or []) if callable(getter) else []


def _size(alloc, tmem: bool) -> int:
    return int(alloc.num_columns if tmem else alloc.size_bytes)


class StorageAliases:
    """The buffers and alias groups of a kernel's allocations.

    Args:
      smem_allocator, tmem_allocator: TS's allocators (or None); their
        ``_alias_groups`` (lists of phases, each a list of allocations) are
        read.
      resources: every resource of the kernel's tasks.
      pipelined: ``id()`` of the resources that have a pipeline.

    Raises NotImplementedError for a pipelined resource whose allocations an
    alias group puts in two phases (its buffer is one block in tspipe).
    """

    def __init__(self, smem_allocator, tmem_allocator,
                 resources: Sequence[Any], pipelined):
        self.buffers: List[Tuple[str, str, int]] = []  # (name, space, size)
        self.groups: List[Tuple[str, List[List[str]]]] = []
        self._of_resource: Dict[int, List[Tuple[str, str, Any]]] = {}
        self._by_alloc: Dict[int, str] = {}
        self._shared: set = set()
        for space, allocator in (("smem", smem_allocator),
                                 ("tmem", tmem_allocator)):
            tmem = space == "tmem"
            owner: Dict[int, Any] = {}
            listed: Dict[int, int] = {}
            for res in resources:
                for alloc in allocations(res, tmem):
                    owner.setdefault(id(alloc), res)
                    if id(res) in pipelined:
                        listed[id(alloc)] = listed.get(id(alloc), 0) + 1
                    else:
                        self._buffer(res, alloc, space)
            # An allocation several pipelines list (the one buffer of a
            # fork's members): a buffer of its own.
            for res in resources:
                for alloc in allocations(res, tmem):
                    if listed.get(id(alloc), 0) > 1:
                        self._shared.add(id(alloc))
                        self._buffer(None, alloc, space)
            for index, phases in enumerate(
                    getattr(allocator, "_alias_groups", None) or []):
                placed: Dict[str, int] = {}
                named: List[List[str]] = []
                for p, phase in enumerate(phases):
                    names: List[str] = []
                    for alloc in phase:
                        res = owner.get(id(alloc), alloc)
                        if id(alloc) in self._shared:
                            name = self._by_alloc[id(alloc)]
                        elif id(res) in pipelined:
                            name = res.name
                        elif res is alloc and not allocations(res, tmem):
                            # An allocation of no resource (or a resource
                            # given itself: its whole buffer).
                            name = self._buffer(None, alloc, space)
                        else:
                            name = self._by_alloc.get(id(alloc)) or \
                                self._buffer(res, alloc, space)
                        if placed.get(name, p) != p:
                            raise NotImplementedError(
                                f"{space} alias group {index}: the storage "
                                f"of {name!r} is in phases {placed[name]} and "
                                f"{p}; tspipe places a pipeline's buffer as "
                                f"one block")
                        placed[name] = p
                        if name not in names:
                            names.append(name)
                    named.append(names)
                self.groups.append((space, named))

    def _buffer(self, res, alloc, space: str) -> str:
        if id(alloc) in self._by_alloc:
            return self._by_alloc[id(alloc)]
        if res is None and hasattr(alloc, "pipeline_config"):
            # A resource listed as a phase member itself.
            name = _identifier(alloc.name)
            size = getattr(alloc, "tmem_columns" if space == "tmem"
                           else "smem_bytes", None)
            if size is None:
                raise ValueError(
                    f"[X24] resource {alloc.name!r} in a {space} alias group "
                    f"has no {space} storage")
        else:
            prefix = f"{res.name}_" if res is not None else ""
            name = _identifier(f"{prefix}{getattr(alloc, 'name', 'buffer')}")
            size = _size(alloc, space == "tmem")
        self._by_alloc[id(alloc)] = name
        if all(b[0] != name for b in self.buffers):
            self.buffers.append((name, space, int(size)))
            if res is not None:
                self._of_resource.setdefault(id(res), []).append(
                    (name, space, alloc))
        return name

    def pipeline_storage(self, resource, tmem: bool) -> Optional[int]:
        """The data buffer bytes (TMEM columns) of a pipelined resource: the
        sum of its allocations but those that are buffers of their own, or
        None when none is left."""
        sizes = [_size(a, tmem) for a in allocations(resource, tmem)
                 if id(a) not in self._shared]
        return sum(sizes) if sizes else None

    def declare(self, kernel) -> None:
        """The ``tspipe.buffer`` and ``tspipe.alias_group`` ops."""
        for name, space, size in self.buffers:
            if space == "smem":
                kernel.buffer(name, size)
            else:
                kernel.buffer(name, tmem_columns=size)
        for index, (space, phases) in enumerate(self.groups):
            kernel.alias_group(f"{space}_alias{index}", phases, space)

    def buffer_of(self, alloc) -> Optional[str]:
        """The ``tspipe.buffer`` an allocation became, or None."""
        return self._by_alloc.get(id(alloc))

    def touch(self, builder, resource) -> None:
        """A work placeholder on a resource without a pipeline: an access
        of each of its buffers where the step runs (a PTX comment taking
        the buffer's address or column), so that X23 sees it."""
        from .. import ir
        from ..dialects import llvm

        for name, space, _ in self._of_resource.get(id(resource), []):
            if space == "smem":
                with builder._building():
                    addr = builder.buffer_address(name)
                    value = llvm.PtrToIntOp(ir.IntegerType.get_signless(64),
                                            addr).result
                    llvm.InlineAsmOp(None, [value], f"// ts access {name} $0",
                                     "l", has_side_effects=True)
            else:
                with builder._building():
                    col = builder.tmem_column(name)
                    llvm.InlineAsmOp(None, [col], f"// ts access {name} $0",
                                     "r", has_side_effects=True)
