"""Attribute coercions shared by the tspipe op builders (tspipe.py and the
work-queue ops of _work_queue.py): a Python str becomes the attribute the op
expects, an Attribute passes through unchanged."""

from ..ir import FlatSymbolRefAttr, StringAttr


def symbol_ref(value):
    """``@value`` (FlatSymbolRefAttr) for a str; an Attribute unchanged."""
    return FlatSymbolRefAttr.get(value) if isinstance(value, str) else value


def symbol_name(value):
    """The StringAttr of a symbol's name for a str; an Attribute unchanged."""
    return StringAttr.get(value) if isinstance(value, str) else value
