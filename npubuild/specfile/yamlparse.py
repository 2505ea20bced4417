"""YAML text -> :class:`~npubuild.specfile.yamlnode.Node` tree, with duplicate keys,
merge keys, aliases and bad tags turned into diagnostics.

Imported only when a spec file is not in the parse cache: a no-op build never
pays for PyYAML.
"""
from __future__ import annotations

import yaml

from ..core.errors import Diagnostic
from ..core.limits import Limits
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

    def __init__(self, file: str, max_alias_nodes: int):
        self.file = file
        self.constructor = yaml.constructor.SafeConstructor()
        self.problems: list[Diagnostic] = []
        self.done: dict[int, Node] = {}  # id(yaml node) -> Node, for aliases
        self.active: set[int] = set()  # nodes being converted, to catch recursive aliases
        self.sizes: dict[int, int] = {}  # id(yaml node) -> values in it once expanded
        # Each alias shares its node in the tree, but everything downstream (plain(),
        # the parse cache, the spec) expands it: the expansion is what is bounded.
        self.alias_budget = self.limit = max_alias_nodes

    def scalar(self, n):
        try:
            value = self.constructor.construct_object(n)
        except Exception as e:  # noqa: BLE001 - any tag/literal PyYAML cannot construct
            reason = getattr(e, "problem", None) or e
            self.problems.append(
                Diagnostic(self.file, n.start_mark.line + 1,
                           f"cannot read {_shown(n.value)} tagged {n.tag}: {reason}; remove the tag or quote the value")
            )
            return n.value
        if not isinstance(value, (str, int, float, bool, type(None))):
            value = str(value)  # dates and other YAML types are not meaningful in specs
        return value

    def convert(self, n) -> Node | None:
        """None for a recursive alias (reported; the caller drops it)."""
        line = n.start_mark.line + 1
        if id(n) in self.done:
            self.alias_budget -= self.sizes[id(n)]
            if self.alias_budget < 0:
                if self.alias_budget + self.sizes[id(n)] >= 0:  # report the first alias past the limit only
                    self.problems.append(Diagnostic(self.file, line, f"aliases of the value anchored here expand this file past the limit of "
                                                    f"{self.limit} values (limits.yaml_max_alias_nodes); write the values out or use fewer aliases"))
                return None
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
        self.sizes[id(n)] = _expanded_size(node)
        return node

    def _convert(self, n, line: int) -> Node:
        plain_tag = _PLAIN_TAGS.get(type(n))
        if plain_tag is not None and n.tag != plain_tag:
            # !!python/object/apply and friends on a mapping or list: PyYAML's safe
            # composer keeps the tag, so the value would silently lose its meaning
            self.problems.append(Diagnostic(self.file, line, f"tag {n.tag} is not allowed in specs; remove it"))
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


def _shown(value, limit: int = 80) -> str:
    """A value as a message shows it: a 5000-digit number is not repeated in full."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + "...'"


_PLAIN_TAGS = {yaml.MappingNode: "tag:yaml.org,2002:map", yaml.SequenceNode: "tag:yaml.org,2002:seq"}


def _expanded_size(node: Node) -> int:
    v = node.value
    if isinstance(v, dict):
        return 1 + sum(_expanded_size(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(_expanded_size(x) for x in v)
    return 1


def _too_deep(text: str, max_depth: int) -> int | None:
    """The line where nesting first passes ``max_depth``, found on the event stream
    (flat, unlike composing, which recurses per level and would overflow first)."""
    depth = 0
    for ev in yaml.parse(text, Loader=_Loader):
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > max_depth:
                return ev.start_mark.line + 1
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return None


def parse_text(text: str, file: str, limits: Limits = Limits()) -> tuple[Node | None, list[Diagnostic]]:
    try:
        deep = _too_deep(text, limits.yaml_max_depth)
        if deep is not None:
            return None, [Diagnostic(file, deep, f"values are nested more than {limits.yaml_max_depth} deep "
                                                 "(limits.yaml_max_depth); flatten the spec")]
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 0
        return None, [Diagnostic(file, line, f"YAML syntax error: {e.problem or e}; fix the YAML syntax")]
    except yaml.YAMLError as e:
        return None, [Diagnostic(file, 0, f"YAML error: {e}")]
    if root is None:
        return None, [Diagnostic(file, 0, "the file is empty; add a 'kernels:' or 'graphs:' mapping or delete it")]
    conv = _Converter(file, limits.yaml_max_alias_nodes)
    return conv.convert(root), conv.problems


