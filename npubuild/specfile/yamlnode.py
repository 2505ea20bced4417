"""YAML with positions: the tree of :class:`Node` objects a spec file is parsed into.

Every key and value keeps its line, so that each problem can be reported as
``file:line``. The tree is plain JSON underneath, which lets parsed specs be
cached by file hash (:mod:`.yamlfile`).
"""
from __future__ import annotations


class Node:
    """A YAML value with its line. ``value`` is a dict[str, Node], list[Node] or scalar."""

    __slots__ = ("line", "value", "key_lines")

    def __init__(self, line: int, value, key_lines: dict | None = None):
        self.line = line
        self.value = value
        self.key_lines = key_lines or {}

    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    def is_list(self) -> bool:
        return isinstance(self.value, list)

    def plain(self):
        """The value with positions stripped."""
        v = self.value
        if isinstance(v, dict):
            return {k: n.plain() for k, n in v.items()}
        if isinstance(v, list):
            return [n.plain() for n in v]
        return v

    def key_line(self, key: str) -> int:
        return self.key_lines.get(key, self.line)

    # JSON round trip for the parse cache
    def to_json(self):
        v = self.value
        if isinstance(v, dict):
            return {"l": self.line, "m": [[k, self.key_lines[k], n.to_json()] for k, n in v.items()]}
        if isinstance(v, list):
            return {"l": self.line, "s": [n.to_json() for n in v]}
        return {"l": self.line, "v": v}

    @staticmethod
    def from_json(d) -> "Node":
        if "m" in d:
            return Node(d["l"], {k: Node.from_json(n) for k, _, n in d["m"]}, {k: kl for k, kl, _ in d["m"]})
        if "s" in d:
            return Node(d["l"], [Node.from_json(n) for n in d["s"]])
        return Node(d["l"], d["v"])
