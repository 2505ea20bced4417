"""Which line of a spec file a problem is reported at, when the problem is
found away from the YAML (by the op catalog, or while resolving a graph)."""
from __future__ import annotations

from ..ops.registry import AttrError
from .yamlnode import Node


def attr_error_line(err: AttrError, attrs_node: Node | None, fallback: int) -> int:
    """Line of the attr an AttrError is about (its value for a type error, its key otherwise)."""
    if attrs_node is None or not attrs_node.is_map() or err.attr is None or err.attr not in attrs_node.value:
        return attrs_node.line if attrs_node is not None and err.attr is None else fallback
    if "has no attr" in str(err):
        return attrs_node.key_line(err.attr)
    return attrs_node.value[err.attr].line
