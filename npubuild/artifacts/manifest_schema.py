"""The manifest's schema: every field of a parsed ``manifest.json`` type-checked, each problem
naming its field (kernels.k.outputs[0].shape), so that the reader and the runtime after it
index a checked structure only.
"""
from __future__ import annotations

import json

from ..core.constants import DTYPES
from ..core.limits import Limits


def is_count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _is_sha(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


class _Schema:
    """Type checks of a parsed manifest; each problem names its field (kernels.k.outputs[0].shape)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.problems: list[str] = []
        n = limits.max_rank
        self.kinds = {
            "str": (lambda v: isinstance(v, str), "a string"),
            "name": (lambda v: isinstance(v, str) and 0 < len(v) <= 1024, "a non-empty string"),
            "bool": (lambda v: isinstance(v, bool), "true or false"),
            "count": (is_count, "a non-negative integer"),
            "sha256": (_is_sha, "64 lowercase hex digits"),
            "dtype": (lambda v: v in DTYPES, f"one of {', '.join(DTYPES)}"),
            "dict": (lambda v: isinstance(v, dict), "an object"),
            "list": (lambda v: isinstance(v, list), "a list"),
            "names": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings"),
            "shape": (self._shape_ok, f"a list of at most {n} non-negative integers of at most {limits.max_elements} elements in all"),
        }

    def _shape_ok(self, v) -> bool:
        if not isinstance(v, list) or len(v) > self.limits.max_rank or not all(is_count(d) for d in v):
            return False
        n = 1
        for d in v:
            n *= d
        return n <= self.limits.max_elements

    def field(self, rec: dict, key: str, where: str, kind: str, optional: bool = False):
        """rec[key] when it is of ``kind``; None (and a problem unless optional and absent) otherwise."""
        if key not in rec:
            if not optional:
                self.problems.append(f"{where}.{key} is missing")
            return None
        return self.value(rec[key], f"{where}.{key}", kind)

    def value(self, v, where: str, kind: str):
        ok, what = self.kinds[kind]
        if ok(v):
            return v
        self.problems.append(f"{where} must be {what}, got {show(v)}")
        return None

    def tensor(self, t, where: str, named: bool) -> None:
        if self.value(t, where, "dict") is not None:
            if named:
                self.field(t, "name", where, "name")
            self.field(t, "shape", where, "shape")
            self.field(t, "dtype", where, "dtype")

    def file(self, f, where: str) -> None:
        if self.value(f, where, "dict") is not None:
            self.field(f, "path", where, "name")
            self.field(f, "sha256", where, "sha256")
            self.field(f, "size", where, "count")

    def each(self, rec: dict, key: str, where: str, check, optional: bool = False) -> None:
        """check(value, where) for every member of the object rec[key]."""
        d = self.field(rec, key, where, "dict", optional)
        for name, v in (d or {}).items():
            check(v, f"{where}.{key}.{name}")

    def kernel(self, k, where: str) -> None:
        if self.value(k, where, "dict") is None:
            return
        self.field(k, "op", where, "name")
        self.field(k, "dtype", where, "dtype")
        self.field(k, "key", where, "sha256")
        self.field(k, "attrs", where, "dict")
        for side in ("inputs", "outputs"):
            for i, t in enumerate(self.field(k, side, where, "list") or []):
                self.tensor(t, f"{where}.{side}[{i}]", named=True)
        if isinstance(k.get("outputs"), list) and len(k["outputs"]) != 1:
            self.problems.append(f"{where}.outputs must hold exactly one tensor, got {len(k['outputs'])}")
        self.each(k, "targets", where, self.target)
        self.field(k, "unavailable", where, "dict", optional=True)

    def target(self, t, where: str) -> None:
        if self.value(t, where, "dict") is None:
            return
        self.each(t, "files", where, self.file, optional=True)
        if "abi_file" in t:
            self.file(t["abi_file"], f"{where}.abi_file")
        self.field(t, "key", where, "sha256", optional=True)
        self.field(t, "toolchain", where, "str", optional=True)
        self.field(t, "compiled", where, "bool", optional=True)
        self.field(t, "stale", where, "str", optional=True)
        self.field(t, "abi", where, "dict", optional=True)
        for i, name in enumerate(self.field(t, "isa", where, "list", optional=True) or []):
            self.value(name, f"{where}.isa[{i}]", "str")
        self.each(t, "resources", where, self.core_resources, optional=True)

    def core_resources(self, c, where: str) -> None:
        """One core's measured stack and program memory (xdna; npubuild.toolchain.core_elf):
        a byte count or null (not measured) against its limit."""
        if self.value(c, where, "dict") is None:
            return
        for key in ("col", "row", "stack_limit"):
            self.field(c, key, where, "count")
        for key in ("stack_bytes", "text_bytes", "program_memory"):
            if c.get(key) is not None:
                self.field(c, key, where, "count")
        self.field(c, "stack_measured", where, "str", optional=True)
        if c.get("not_measured") is not None:
            self.field(c, "not_measured", where, "str")

    def graph(self, g, where: str) -> None:
        if self.value(g, where, "dict") is None:
            return
        if g.get("kind") == "ane":
            return self.ane_graph(g, where)
        for side in ("inputs", "params"):
            self.each(g, side, where, lambda v, w: self.tensor(v, w, named=False))
        self.each(g, "constants", where, self.constant)
        self.field(g, "outputs", where, "names")
        self.field(g, "targets", where, "names", optional=True)
        for i, s in enumerate(self.field(g, "steps", where, "list") or []):
            w = f"{where}.steps[{i}]"
            if self.value(s, w, "dict") is not None:
                self.field(s, "node", w, "str", optional=True)
                self.field(s, "kernel", w, "name")
                # what the step was built with: verify checks the kernel it names against them
                self.field(s, "op", w, "name")
                self.field(s, "key", w, "sha256")
                self.field(s, "inputs", w, "names")
                if self.field(s, "outputs", w, "names") is not None and len(s["outputs"]) != 1:
                    self.problems.append(f"{w}.outputs must name exactly one tensor, got {len(s['outputs'])}")

    def constant(self, c, where: str) -> None:
        """A graph constant: its signature and its .npy file."""
        self.tensor(c, where, named=False)
        if isinstance(c, dict):
            self.file(c, where)

    def ane_graph(self, g, where: str) -> None:
        """What this module and the runtime read of an ANE graph; its plan is checked where it is parsed."""
        self.field(g, "file", where, "str", optional=True)
        self.each(g, "inputs", where, lambda v, w: self.value(v, w, "dict"))
        self.field(g, "outputs", where, "dict")
        for i, n in enumerate(self.field(g, "nodes", where, "list") or []):
            w = f"{where}.nodes[{i}]"
            if self.value(n, w, "dict") is not None:
                for role in ("mil", "weights"):
                    if n.get(role) is not None:
                        self.file(n[role], f"{w}.{role}")
        if g.get("fills") is not None:
            self.file(g["fills"], f"{where}.fills")
        for i, h in enumerate([*(g.get("nodes") if isinstance(g.get("nodes"), list) else []), g]):
            w = f"{where}.nodes[{i}].mlpackage" if h is not g else f"{where}.mlpackage"
            if isinstance(h, dict) and h.get("mlpackage") is not None and self.value(h["mlpackage"], w, "dict") is not None:
                self.field(h["mlpackage"], "path", w, "name")
                for j, f in enumerate(self.field(h["mlpackage"], "files", w, "list") or []):
                    self.file(f, f"{w}.files[{j}]")


def show(v) -> str:
    """A short JSON rendering of a value from the manifest (its type when it has none)."""
    try:
        text = json.dumps(v)
    except (TypeError, ValueError, RecursionError):
        text = type(v).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def schema_problems(m: dict, limits: Limits | None = None) -> list[str]:
    """One line per field of the wrong type or missing."""
    s = _Schema(limits or Limits())
    s.field(m, "generator", "manifest", "str", optional=True)
    s.each(m, "kernels", "manifest", s.kernel)
    s.each(m, "graphs", "manifest", s.graph)
    s.field(m, "toolchains", "manifest", "dict", optional=True)
    return [p.removeprefix("manifest.") for p in s.problems]
