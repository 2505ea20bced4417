"""YAML with positions.

Specs are parsed into a small tree of :class:`Node` objects that keep the line of
every key and value, so that each problem can be reported as ``file:line``. The
tree is plain JSON underneath, which lets parsed specs be cached by file hash
(at thousands of kernels, parsing YAML costs more than doit's whole no-op).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path


from ..errors import Diagnostic

CACHE_VERSION = "2"  # bump when the tree or the parse diagnostics change


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


def load_file(path: Path, display: str, cache_dir: Path | None) -> tuple[Node | None, list[Diagnostic]]:
    """Parse ``path``; reuse a cached parse when the file's bytes are unchanged."""
    data = path.read_bytes()
    cache_file = None
    if cache_dir is not None:
        digest = hashlib.sha256(data + CACHE_VERSION.encode() + display.encode()).hexdigest()
        cache_file = cache_dir / f"{digest}.json"
        try:
            cached = json.loads(cache_file.read_text())
            return (Node.from_json(cached["root"]) if cached["root"] else None), [
                Diagnostic(*d) for d in cached["problems"]
            ]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, [Diagnostic(display, 0, f"not UTF-8 text ({e}); save the file as UTF-8")]
    from .yamlparse import parse_text  # PyYAML only on a cache miss

    root, problems = parse_text(text, display)
    if cache_file is not None:
        payload = {"root": root.to_json() if root else None, "problems": [[d.file, d.line, d.message] for d in problems]}
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(payload))
            os.replace(tmp, cache_file)
        except OSError:
            pass  # the cache is an optimisation only
    return root, problems
