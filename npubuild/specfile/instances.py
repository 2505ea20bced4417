"""Kernel instances: one op applied to concrete input shapes/dtypes and attrs.

Every kernel-spec entry and every graph node resolves to a KernelInstance. Its
``id`` is readable and stable (``softmax_f32_32x1024_axis-0``: op, dtype, input
shapes, attrs that differ from their defaults); its ``key`` is
the sha256 of a canonical description, so identical instances from different
files and graphs collapse into one build.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from .. import ops
from ..core.canonical import canonical_json, json_safe
from ..core.constants import INSTANCE_VERSION
from ..ops.registry import OpDef, normalize_attrs, numel

_MAX_ID = 96
# Kernels index buffers with 32-bit element counts on every target.
MAX_ELEMENTS = 2**31 - 1
_SAFE = re.compile(r"[^A-Za-z0-9_.+-]")


@dataclass(frozen=True)
class TensorSig:
    shape: tuple[int, ...]
    dtype: str

    def to_json(self) -> dict:
        return {"shape": list(self.shape), "dtype": self.dtype}


@dataclass(frozen=True)
class KernelInstance:
    op: str
    dtype: str
    inputs: tuple[TensorSig, ...]
    output: TensorSig
    attrs_json: str  # canonical JSON of the full (defaults filled) attrs
    id: str
    key: str
    input_names: tuple[str, ...] = field(default=())

    @property
    def attrs(self) -> dict:
        """The attrs as the oracle and emitters use them (non-finite floats restored)."""
        return normalize_attrs(self.opdef, json.loads(self.attrs_json))

    @property
    def opdef(self) -> OpDef:
        return ops.REGISTRY[self.op]

    @property
    def shapes(self) -> list[tuple[int, ...]]:
        return [t.shape for t in self.inputs]

    @property
    def empty(self) -> bool:
        """The output has no element (a dimension of 0): nothing to compute, so nothing is compiled."""
        return numel(self.output.shape) == 0

    def describe(self) -> dict:
        return {
            "id": self.id,
            "op": self.op,
            "dtype": self.dtype,
            "inputs": [dict(name=n, **t.to_json()) for n, t in zip(self.input_names, self.inputs)],
            "outputs": [dict(name=self.opdef.output, **self.output.to_json())],
            "attrs": json.loads(self.attrs_json),
            "key": self.key,
        }


def _fmt_value(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return json_safe(v)
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return repr(v)
    if isinstance(v, (list, tuple)):
        return ".".join(_fmt_value(x) for x in v)
    return str(v)


def _readable_id(op: OpDef, dtype: str, shapes, attrs: dict) -> str:
    parts = [op.name, dtype]
    parts += ["x".join(map(str, s)) or "scalar" for s in shapes]
    for a in op.attrs:  # only attrs that differ from the default, in declaration order
        v = attrs[a.name]
        if a.required or v != a.default:
            parts.append(f"{a.name}-{_fmt_value(v)}")
    return _SAFE.sub("", "_".join(parts))


def make_instance(op_name: str, dtype: str, shapes, raw_attrs: dict | None, input_dtypes=None) -> KernelInstance:
    """Resolve one instance. Raises OpError/AttrError for bad shapes/attrs/dtypes.

    ``input_dtypes`` defaults to the op's dtype rule; graphs pass what the
    producers give so that a mismatch is reported.
    """
    from ..core.errors import OpError

    op = ops.REGISTRY[op_name]
    attrs = normalize_attrs(op, raw_attrs)
    if dtype not in op.dtypes:
        raise OpError(f"op '{op.name}' does not take dtype {dtype} (allowed: {', '.join(op.dtypes)})")
    shapes = [tuple(int(d) for d in s) for s in shapes]
    if not op.arity_ok(len(shapes)):
        raise OpError(f"op '{op.name}' takes {op.arity_text()}, got {len(shapes)}")
    for s in shapes:
        if any(d < 0 for d in s):
            raise OpError(f"shape {list(s)} has a negative dimension")
        if numel(s) > MAX_ELEMENTS:
            raise OpError(f"shape {list(s)} has {numel(s)} elements; a tensor may have at most 2**31 - 1")
    in_dtypes, out_dtype = op.signature(dtype, len(shapes), attrs)
    if input_dtypes is not None:
        for i, (want, got) in enumerate(zip(in_dtypes, input_dtypes)):
            if want != got:
                name = op.input_names(len(shapes))[i]
                raise OpError(f"input '{name}' of '{op.name}' must be {want}, got {got}")
    out_shape = tuple(op.infer(shapes, attrs))
    if numel(out_shape) > MAX_ELEMENTS:  # attrs can grow a tensor (tile, expand, resize's sizes)
        raise OpError(f"the output {list(out_shape)} of '{op.name}' has {numel(out_shape)} elements; "
                      "a tensor may have at most 2**31 - 1")
    attrs_json = canonical_json(attrs)
    desc = {
        "v": INSTANCE_VERSION,
        "op": op.name,
        "dtype": dtype,
        "inputs": [[list(s), d] for s, d in zip(shapes, in_dtypes)],
        "attrs": attrs,
    }
    key = hashlib.sha256(canonical_json(desc).encode()).hexdigest()
    rid = _readable_id(op, dtype, shapes, attrs)
    if len(rid) > _MAX_ID:
        rid = rid[: _MAX_ID - 9] + "_" + key[:8]
    return KernelInstance(
        op=op.name,
        dtype=dtype,
        inputs=tuple(TensorSig(s, d) for s, d in zip(shapes, in_dtypes)),
        output=TensorSig(out_shape, out_dtype),
        attrs_json=attrs_json,
        id=rid,
        key=key,
        input_names=tuple(op.input_names(len(shapes))),
    )
