"""TS's ``SmemAllocator`` / ``TmemAllocator`` (``tspipe.ts.memory``),
accepted so that TS code ports by changing imports. tspipe places shared
memory itself (the ``tspipe-allocate-smem`` pass checks capacity, R43), so
these only record the resources they are given."""

from __future__ import annotations

from typing import Any, List

__all__ = ["SmemAllocator", "TmemAllocator"]


class SmemAllocator:
    """Records resources; ``compute_layout()`` does nothing (the
    ``tspipe-allocate-smem`` pass lays shared memory out)."""

    def __init__(self, *args, **kwargs):
        self.resources: List[Any] = []

    def add_resource(self, resource) -> None:
        self.resources.append(resource)

    def compute_layout(self, *args, **kwargs) -> None:
        return None


class TmemAllocator(SmemAllocator):
    """Records resources; tensor memory columns come from each resource's
    ``tmem_columns``."""
