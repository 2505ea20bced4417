"""YAML text -> :class:`~npubuild.spec.yamlnode.Node` tree, with duplicate keys,
merge keys, aliases and bad tags turned into diagnostics.

Imported only when a spec file is not in the parse cache: a no-op build never
pays for PyYAML.
"""
from __future__ import annotations

import yaml

from ..errors import Diagnostic
from .yamlnode import Node

try:  # the C loader is ~7x faster; fall back when libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader



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


