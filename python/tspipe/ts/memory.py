"""TS's ``SmemAllocator`` / ``TmemAllocator`` and their allocations
(``tspipe.ts.memory``), accepted so that TS code ports by changing imports.

tspipe places shared and tensor memory itself (``tspipe-allocate-smem``,
which also checks capacity, R43 / R44), so ``compute_layout()`` computes
nothing here; what the allocators keep is what the kernel needs: the
allocations of resources (a pipelined resource's are its data buffer, a
resource without a pipeline gets one ``tspipe.buffer`` per allocation) and
the alias groups (``add_alias_group``: phases in time order whose storage
is shared, ``tspipe.alias_group``; rule X23 checks that the IR orders the
reuse). See tspipe.ts.aliasing and docs/python.md.
"""

from __future__ import annotations

from typing import Any, List, Optional

__all__ = ["SmemAllocation", "TmemAllocation", "SmemAllocator",
           "TmemAllocator"]


class SmemAllocation:
    """``size_bytes`` bytes of shared memory named ``name`` (TS's
    ``SmemAllocation``; ``dtype`` / ``count`` give the size as
    ``count * dtype.width // 8`` when ``size_bytes`` is None). ``offset`` is
    not computed (tspipe places storage in its pass)."""

    def __init__(self, name: str, size_bytes: Optional[int] = None,
                 alignment: int = 128, *, dtype=None, count: int = 1):
        if size_bytes is None:
            width = getattr(dtype, "width", None)
            if width is None:
                raise TypeError(f"SmemAllocation {name!r}: give size_bytes, "
                                f"or a dtype with a width")
            size_bytes = count * width // 8
        self.name = name
        self.size_bytes = int(size_bytes)
        self.alignment = alignment
        self.dtype = dtype
        self.offset: Optional[int] = None

    def __repr__(self):
        return f"SmemAllocation({self.name!r}, {self.size_bytes})"


class TmemAllocation:
    """``num_columns`` tensor-memory columns named ``name`` (TS's
    ``TmemAllocation``)."""

    def __init__(self, name: str, num_columns: int):
        self.name = name
        self.num_columns = int(num_columns)
        self.offset: Optional[int] = None

    def __repr__(self):
        return f"TmemAllocation({self.name!r}, {self.num_columns})"


class SmemAllocator:
    """Records allocations, resources and alias groups; ``compute_layout()``
    does nothing (the ``tspipe-allocate-smem`` pass lays memory out)."""

    def __init__(self, *args, **kwargs):
        self.resources: List[Any] = []
        self.allocations: List[Any] = []
        self._alias_groups: List[List[List[Any]]] = []

    def add(self, alloc):
        """Register an allocation (returned, as TS returns it)."""
        self.allocations.append(alloc)
        return alloc

    def add_resource(self, resource) -> None:
        self.resources.append(resource)

    def add_tmem_ptr(self, alloc):
        """TS's slot for the tcgen05.alloc address (kept as an
        allocation)."""
        return self.add(alloc)

    def add_pipeline_group(self, group) -> None:
        """Accepted: tspipe lays out a group's barriers itself."""

    def add_alias_group(self, phases) -> None:
        """``phases`` (at least two, in time order), each a list of
        allocations (or resources) whose storage coexists; every phase
        reuses the same region. Raises ValueError for fewer than two
        phases (as TS)."""
        phases = [list(p) for p in phases]
        if len(phases) < 2:
            raise ValueError("Alias group must contain at least 2 phases")
        self._alias_groups.append(phases)

    def compute_layout(self, *args, **kwargs) -> None:
        return None


class TmemAllocator(SmemAllocator):
    """The same for tensor-memory columns (``TmemAllocation``)."""
