"""The op catalog's data model: typed attrs, dtype rules, shape inference and
oracles. What a target cannot run is the target's fact, not the op's: xdna's
restrictions are in npubuild/targets/xdna/rules.py (:class:`Restriction` and the
helpers below are the shared vocabulary).

Nothing here imports NumPy at module load: the build's no-op path (doit loading
thousands of tasks) only needs shape inference, and importing NumPy would cost
more than doit itself. Oracles use :data:`npubuild.ops.lazy_numpy.np`.
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Any, Callable

from ..core.constants import (  # noqa: F401  (re-exported)
    BYTE_DTYPES,
    DTYPES,
    FLOAT_DTYPES,
    NUMERIC_DTYPES,
    NUMPY_DTYPE,
    TARGETS,
    XDNA_FLOAT_NOTES,
)
from ..core.errors import OpError
from ..core.errors import did_you_mean  # noqa: F401  (re-exported: the catalog's users import it from here)

# JSON spelling of non-finite floats (see canonical.json_safe)
NON_FINITE = ("inf", "-inf", "nan")


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()

# attr kind -> (python types accepted, description for docs/errors)
ATTR_KINDS = {
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "str": "a string",
    "ints": "a list of integers",
    "floats": "a list of numbers",
    "int_pairs": "a list of [before, after] integer pairs",
}


@dataclass(frozen=True)
class Attr:
    name: str
    kind: str
    default: Any = REQUIRED
    choices: tuple = ()
    doc: str = ""
    # value -> None, or what is wrong with it and what to write instead ("must be ..., got ...");
    # run on a given value once its kind is checked, so a bad value is one error at the attr's line
    check: Callable[[Any], "str | None"] | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def describe(self) -> dict:
        d = {"name": self.name, "type": self.kind, "doc": self.doc}
        if self.required:
            d["required"] = True
        else:
            from ..core.canonical import json_safe

            d["default"] = json_safe(self.default)
        if self.choices:
            d["choices"] = list(self.choices)
        return d


@dataclass(frozen=True)
class Restriction:
    """A combination a target cannot run (a target package keeps its own, per op name).

    ``check(shapes, attrs, dtype)`` is True when the target supports it; ``text``
    says what the target needs, in words a user can act on.
    """

    text: str
    check: Callable[[list[tuple[int, ...]], dict, str], bool]
    # True: no instance passes (the target has no design for the op at all)
    refuses_every_instance: bool = False


Shapes = list  # list[tuple[int, ...]]


def same_dtype(dtype: str, n_inputs: int, attrs: dict) -> tuple[list[str], str]:
    """Default dtype rule: every input and the output have the op's dtype."""
    return [dtype] * n_inputs, dtype


@dataclass(frozen=True)
class OpDef:
    name: str
    family: str
    doc: str
    inputs: tuple[str, ...]
    infer: Callable[[Shapes, dict], tuple[int, ...]]
    oracle: Callable[[list, dict], Any]
    attrs: tuple[Attr, ...] = ()
    dtypes: tuple[str, ...] = FLOAT_DTYPES
    # (op dtype, number of inputs, attrs) -> (input dtypes, output dtype)
    signature: Callable[[str, int, dict], tuple[list[str], str]] = same_dtype
    # True: the last input name repeats (concat); at least len(inputs) inputs.
    variadic: bool = False
    # Optional inputs after the required ones, in groups given whole or not at all (attention:
    # (("mask",), ("past_key", "past_value"))). Every choice of groups must give a different
    # number of inputs, so a positional graph node says which it gives.
    optional: tuple[tuple[str, ...], ...] = ()
    dtype_doc: str = ""
    output: str = "y"
    # True when the oracle's result depends on the op dtype beyond the input
    # dtypes (matmul: f32 and i8 take the same f32 tensors); it then gets it as
    # a third argument.
    oracle_needs_dtype: bool = False

    def evaluate(self, inputs: list, attrs: dict, dtype: str):
        """Run the oracle: the definition of the op (bf16: :func:`npubuild.ops.bf16.evaluate_bf16`)."""
        bf16_arrays = any(str(getattr(x, "dtype", "")) == "bfloat16" for x in inputs)
        if bf16_arrays or "bf16" in tensor_dtypes(self, len(inputs), attrs, dtype):
            from .bf16 import evaluate_bf16

            return evaluate_bf16(self, inputs, attrs, dtype)
        return self.call_oracle(inputs, attrs, dtype)

    def call_oracle(self, inputs: list, attrs: dict, dtype: str):
        """The oracle function itself, with the dtype when it takes one."""
        if self.oracle_needs_dtype:
            return self.oracle(inputs, attrs, dtype)
        return self.oracle(inputs, attrs)

    def attr(self, name: str) -> Attr | None:
        for a in self.attrs:
            if a.name == name:
                return a
        return None

    def input_sets(self) -> list[list[str]]:
        """Every list of input names an instance may have (one without optional inputs)."""
        sets = [list(self.inputs)]
        for group in self.optional:
            sets += [s + list(group) for s in sets]
        return sorted(sets, key=len)

    def input_names(self, n: int) -> list[str]:
        """Names of the inputs for an instance with ``n`` inputs."""
        if self.optional:
            return next((s for s in self.input_sets() if len(s) == n), list(self.inputs))
        if not self.variadic:
            return list(self.inputs)
        fixed = list(self.inputs[:-1])
        base = self.inputs[-1]
        return fixed + [f"{base}{i}" for i in range(n - len(fixed))]

    def inputs_named(self, given) -> list[str]:
        """The input list of a spec entry naming ``given``: the required inputs and every optional
        group one of whose names is given (a name left out of such a group is then missing)."""
        names = list(self.inputs)
        for group in self.optional:
            if any(g in given for g in group):
                names += list(group)
        return names

    def has_input(self, name: str, n: int) -> bool:
        """Whether an instance with ``n`` inputs has the input ``name``."""
        return name in self.input_names(n)

    def arity_ok(self, n: int) -> bool:
        if self.optional:
            return any(len(s) == n for s in self.input_sets())
        return n >= len(self.inputs) if self.variadic else n == len(self.inputs)

    def arity_text(self) -> str:
        if self.variadic:
            return f"at least {len(self.inputs)} inputs"
        text = f"{len(self.inputs)} input{'s' if len(self.inputs) != 1 else ''} ({', '.join(self.inputs)})"
        for group in self.optional:
            text += f", then optionally {' and '.join(group)}"
        return text

    def describe(self) -> dict:
        return {
            "name": self.name,
            "family": self.family,
            "doc": self.doc,
            "inputs": list(self.inputs),
            "variadic": self.variadic,
            "optional_inputs": [list(g) for g in self.optional],
            "attrs": [a.describe() for a in self.attrs],
            "dtypes": list(self.dtypes),
            "dtype_rule": self.dtype_doc or "inputs and output have the op's dtype",
        }


REGISTRY: dict[str, OpDef] = {}

def tensor_dtypes(op: OpDef, n_inputs: int, attrs: dict, dtype: str) -> set[str]:
    """Every element type an instance of ``op`` reads or writes."""
    ins, out = op.signature(dtype, n_inputs, attrs)
    return {*ins, out}


def register(*ops: OpDef) -> None:
    for op in ops:
        if op.name in REGISTRY:
            raise RuntimeError(f"op {op.name!r} registered twice")
        counts = [len(s) for s in op.input_sets()]
        if len(set(counts)) != len(counts) or (op.optional and op.variadic):
            raise RuntimeError(f"op {op.name!r}: its optional input groups must give distinct input counts")
        REGISTRY[op.name] = op


class AttrError(OpError):
    """A bad attr value; ``attr`` names the offending key (for file:line lookup)."""

    def __init__(self, attr: str | None, message: str):
        self.attr = attr
        super().__init__(message)


def _check_kind(attr: Attr, value: Any) -> Any:
    k = attr.kind
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if k == "int" and is_int:
        return value
    if k == "float" and (is_int or isinstance(value, float) or value in NON_FINITE):
        return float(value)
    if k == "bool" and isinstance(value, bool):
        return value
    if k == "str" and isinstance(value, str):
        return value
    if k in ("ints", "floats", "int_pairs") and isinstance(value, (list, tuple)):
        if k == "floats" and all(v in NON_FINITE for v in value if isinstance(v, str)) and all(
            isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in value
        ):
            return [float(v) for v in value]
        if k == "ints" and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return list(value)
        if k == "int_pairs" and all(
            isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
            for p in value
        ):
            return [list(p) for p in value]
    raise AttrError(attr.name, f"attr '{attr.name}' must be {ATTR_KINDS[k]}, got {value!r}{_yaml11_hint(k, value)}")


_YAML11_FLOAT = re.compile(r"[-+]?(\d+)(?:\.(\d*))?[eE]([-+]?\d+)")


def _yaml11_hint(kind: str, value: Any) -> str:
    """YAML 1.1 (PyYAML) reads ``1e-6`` as a string: a float needs a dot and a signed exponent, ``1.0e-6``."""
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        m = _YAML11_FLOAT.fullmatch(v) if kind in ("float", "floats") and isinstance(v, str) else None
        if m:
            exp = m.group(3) if m.group(3)[0] in "+-" else "+" + m.group(3)  # YAML 1.1 wants the exponent's sign
            fixed = f"{v[:m.end(1)]}.{m.group(2) or '0'}e{exp}"
            return f" (YAML reads {v} as text: write {fixed})"
    return ""


def normalize_attrs(op: OpDef, raw: dict | None) -> dict:
    """Type-check ``raw`` against ``op``'s attrs and fill defaults.

    Raises AttrError naming the first bad key (:func:`attr_problems` gives them all); unknown keys
    get a "did you mean".
    """
    out, problems = _normalized(op, raw)
    if problems:
        raise problems[0]
    return out


def attr_problems(op: OpDef, raw: dict | None) -> list[AttrError]:
    """Every problem of ``raw`` as ``op``'s attrs, one AttrError each (empty when they are fine)."""
    return _normalized(op, raw)[1]


def _normalized(op: OpDef, raw: dict | None) -> tuple[dict, list[AttrError]]:
    raw = dict(raw or {})
    out: dict = {}
    problems: list[AttrError] = []
    for name in raw:
        if op.attr(name) is None:
            known = [a.name for a in op.attrs]
            if not known:
                problems.append(AttrError(name, f"op '{op.name}' has no attr '{name}': it takes no attrs; remove it"))
                continue
            hint = did_you_mean(name, known)
            problems.append(AttrError(name, f"op '{op.name}' has no attr '{name}'{hint} (attrs: {', '.join(known)})"))
    for a in op.attrs:
        if a.name in raw:
            try:
                v = _check_kind(a, raw[a.name])
            except AttrError as e:
                problems.append(e)
                continue
            if a.choices and v not in a.choices:
                problems.append(AttrError(
                    a.name,
                    f"attr '{a.name}' of '{op.name}' must be one of {', '.join(map(str, a.choices))}; got {v!r}"
                    + did_you_mean(str(v), [str(c) for c in a.choices]),
                ))
                continue
            why = a.check(v) if a.check else None
            if why:
                problems.append(AttrError(a.name, f"attr '{a.name}' of '{op.name}' {why}"))
                continue
            out[a.name] = v
        elif a.required:
            problems.append(AttrError(None, f"op '{op.name}' needs attr '{a.name}' ({ATTR_KINDS[a.kind]}): {a.doc}"))
        else:
            out[a.name] = a.default
    return out, problems


# ---- helpers shared by the catalog modules ------------------------------------------------

# Integer type of index tensors (argmax/argmin outputs, gather indices): i64 as in
# ONNX and NumPy, or i32, which is what the NPU takes (mlir-aie's own kernels
# index with 32-bit integers; i64 cannot cross its shim DMA).
INDEX_DTYPE_ATTR = Attr("index_dtype", "str", "i64", ("i64", "i32"), "integer type of the indices: i64, or i32 (required on xdna)")


def norm_axis(axis: int, rank: int, what: str = "axis") -> int:
    if not -rank <= axis < max(rank, 1):
        raise OpError(f"{what} {axis} is out of range for rank {rank}")
    return axis % rank if rank else 0


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy broadcasting rule, in pure Python (no NumPy import on the build path)."""
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = {s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0}
        dims.discard(1)
        if len(dims) > 1:
            raise OpError("shapes " + " and ".join("x".join(map(str, s)) or "scalar" for s in shapes) + " do not broadcast")
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def last_axis(attr_name: str = "axis") -> Callable[[Shapes, dict, str], bool]:
    """Restriction check: the op's axis attr names the last axis of input 0."""

    def check(shapes: Shapes, attrs: dict, dtype: str) -> bool:
        rank = len(shapes[0])
        return rank > 0 and attrs[attr_name] % rank == rank - 1

    return check


def only_dtypes(dtypes: tuple[str, ...], why: str) -> Restriction:
    """Restriction: the target runs the op only for the op dtypes ``dtypes``."""
    allowed = tuple(dtypes)
    return Restriction(f"{', '.join(allowed)} only ({why})", lambda shapes, attrs, dtype: dtype in allowed)


def fmt_shape(shape) -> str:
    """``[2, 3]``: a shape as written in specs, for error messages."""
    return "[" + ", ".join(map(str, shape)) + "]"
