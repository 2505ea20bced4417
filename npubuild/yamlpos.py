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

import yaml

from .errors import Diagnostic

try:  # the C loader is ~7x faster; fall back when libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

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


class _Converter:
    """yaml node graph -> Node tree, collecting duplicate keys, unreadable
    tagged values and recursive aliases as diagnostics. Merge keys (``<<: *x``)
    are expanded; an alias's node is converted once (problems are not repeated)."""

    MERGE_TAG = "tag:yaml.org,2002:merge"

    def __init__(self, file: str):
        self.file = file
        self.constructor = yaml.constructor.SafeConstructor()
        self.problems: list[Diagnostic] = []
        self.done: dict[int, Node] = {}  # id(yaml node) -> Node, for aliases
        self.active: set[int] = set()  # nodes being converted, to catch recursive aliases

    def scalar(self, n):
        try:
            value = self.constructor.construct_object(n)
        except Exception as e:  # noqa: BLE001 - any tag/literal PyYAML cannot construct
            reason = getattr(e, "problem", None) or e
            self.problems.append(
                Diagnostic(self.file, n.start_mark.line + 1,
                           f"cannot read {n.value!r} tagged {n.tag}: {reason}; remove the tag or quote the value")
            )
            return n.value
        if not isinstance(value, (str, int, float, bool, type(None))):
            value = str(value)  # dates and other YAML types are not meaningful in specs
        return value

    def convert(self, n) -> Node | None:
        """None for a recursive alias (reported; the caller drops it)."""
        line = n.start_mark.line + 1
        if id(n) in self.done:
            return self.done[id(n)]
        if id(n) in self.active:
            self.problems.append(Diagnostic(self.file, line, "recursive alias: a value cannot contain itself; remove the alias"))
            return None
        self.active.add(id(n))
        try:
            node = self._convert(n, line)
        finally:
            self.active.discard(id(n))
        self.done[id(n)] = node
        return node

    def _convert(self, n, line: int) -> Node:
        if isinstance(n, yaml.MappingNode):
            out, lines = {}, {}
            merges = []
            for k, v in n.value:
                kl = k.start_mark.line + 1
                if not isinstance(k, yaml.ScalarNode):
                    self.problems.append(Diagnostic(self.file, kl, "mapping keys must be plain names"))
                    continue
                if k.tag == self.MERGE_TAG:
                    merges += v.value if isinstance(v, yaml.SequenceNode) else [v]
                    continue
                key = str(self.scalar(k))
                if key in out:
                    self.problems.append(
                        Diagnostic(self.file, kl, f"duplicate key '{key}' (first at line {lines[key]}); remove one")
                    )
                    continue
                val = self.convert(v)
                if val is not None:
                    out[key] = val
                    lines[key] = kl
            for src in merges:  # explicit keys win over merged ones, earlier merges over later
                merged = self.convert(src)
                if merged is None:
                    continue
                if not merged.is_map():
                    self.problems.append(Diagnostic(self.file, src.start_mark.line + 1, "a merge key (<<) takes a mapping or an alias of one"))
                    continue
                for key, val in merged.value.items():
                    if key not in out:
                        out[key] = val
                        lines[key] = merged.key_line(key)
            return Node(line, out, lines)
        if isinstance(n, yaml.SequenceNode):
            return Node(line, [x for x in map(self.convert, n.value) if x is not None])
        return Node(line, self.scalar(n))


def parse_text(text: str, file: str) -> tuple[Node | None, list[Diagnostic]]:
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 0
        return None, [Diagnostic(file, line, f"YAML syntax error: {e.problem or e}; fix the YAML syntax")]
    except yaml.YAMLError as e:
        return None, [Diagnostic(file, 0, f"YAML error: {e}")]
    if root is None:
        return None, [Diagnostic(file, 0, "the file is empty; add a 'kernels:' or 'graphs:' mapping or delete it")]
    conv = _Converter(file)
    return conv.convert(root), conv.problems


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
