"""How each op's work divides into independent rows for streaming.

A design streams its tensors through the array in chunks of whole *rows*: a
row is a slice along the op's outermost independent axes, on which the compute
body (the host emitter's text for a smaller instance of the same op) runs
unchanged. Per op:

* **flat** (elementwise ops, casts, selects, per-tensor quantisation,
  reshape): every element is a row; all inputs have the output's shape (the
  xdna target's restrictions, npubuild/targets/xdna/rules.py, make sure).
* **last axis** (softmax, norms, last-axis reductions, scans, arg-max/min,
  rope): rows are the leading dims, the last axis stays whole. gamma/beta are
  parameters (sent whole, once per run); rope's cos/sin are per token, so they
  stream with x.
* **outer** (narrow, slice, pad, reverse, tile, expand, concat, gather,
  per-channel quantisation): rows are the dims before the op's axis.
* **whole**: everything else is one chunk holding the full tensors; it must
  fit a core's data memory (the static checker says so at spec time).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...ops.registry import norm_axis, numel
from ...specfile.instances import KernelInstance, make_instance

FLAT_FAMILIES = ("unary", "binary", "compare", "cast")
FLAT_OPS = ("clamp", "where", "fma", "stop_gradient", "reshape")
LAST_AXIS_OPS = ("softmax", "rms_norm", "layer_norm", "rope")
LAST_AXIS_FAMILIES = ("reduce", "scan", "arg")
OUTER_OPS = ("narrow", "slice", "pad", "reverse", "tile", "expand", "concat", "gather")


@dataclass(frozen=True)
class Split:
    kind: str  # flat | last_axis | outer | whole
    rows: int
    streamed: tuple[int, ...]  # inputs streamed row by row
    params: tuple[int, ...]  # inputs sent whole
    axis: int = 0  # outer: the first axis kept whole

    def row_elems(self, inst: KernelInstance, i: int) -> int:
        """Elements of input ``i`` per row (a param: all of it)."""
        n = numel(inst.inputs[i].shape)
        return n // self.rows if i in self.streamed else n

    def out_row_elems(self, inst: KernelInstance) -> int:
        return numel(inst.output.shape) // self.rows


def split_for(inst: KernelInstance) -> Split:
    op = inst.opdef
    n_in = len(inst.inputs)
    x = inst.inputs[0].shape
    if op.family in FLAT_FAMILIES or op.name in FLAT_OPS or (op.family == "quant" and _per_tensor(inst)):
        return Split("flat", numel(inst.output.shape), tuple(range(n_in)), ())
    if op.name in LAST_AXIS_OPS or op.family in LAST_AXIS_FAMILIES:
        rows = numel(x[:-1]) if x else 1
        streamed = (0, 1, 2) if op.name == "rope" else (0,)
        return Split("last_axis", rows, streamed, tuple(i for i in range(n_in) if i not in streamed))
    if op.name in OUTER_OPS or op.family == "quant":
        a = _outer_axis(inst)
        streamed = tuple(range(n_in)) if op.name == "concat" else (0,)
        return Split("outer", numel(x[:a]), streamed, tuple(i for i in range(n_in) if i not in streamed), a)
    return Split("whole", 1, (0,), tuple(range(1, n_in)))


def _per_tensor(inst: KernelInstance) -> bool:
    return len(inst.attrs["scales"]) == 1


def _outer_axis(inst: KernelInstance) -> int:
    """The first axis the op reads across (rows are the axes before it)."""
    a, rank = inst.attrs, len(inst.inputs[0].shape)
    name = inst.op
    if name in ("narrow", "slice", "concat", "gather"):
        return norm_axis(a["axis"], rank)
    if name == "reverse":
        return norm_axis(a["axes"][0], rank)
    if name == "pad":
        return next((i for i, p in enumerate(a["pads"]) if p != [0, 0]), rank)
    if name == "tile":
        return next((i for i, r in enumerate(a["reps"]) if r != 1), rank)
    if name == "expand":
        return next((i for i, (d, t) in enumerate(zip(inst.inputs[0].shape, a["shape"])) if d != t), rank)
    if name in ("quantize", "dequantize"):
        return norm_axis(a["axis"], rank)
    raise AssertionError(name)


def chunk_instance(inst: KernelInstance, split: Split, r: int) -> KernelInstance:
    """The instance the compute body is emitted for: ``r`` rows of ``inst``."""
    a = dict(inst.attrs)
    shapes = [t.shape for t in inst.inputs]
    name = inst.op
    if split.kind == "whole":
        return inst
    if split.kind == "flat":
        shapes = [(r,)] * len(shapes)
        if name == "reshape":
            a["shape"] = [r]
    elif split.kind == "last_axis":
        c = shapes[0][-1] if shapes[0] else 1
        new = [(r, c)]
        for i in range(1, len(shapes)):
            new.append((r, numel(shapes[i]) // split.rows) if i in split.streamed else shapes[i])
        shapes = new
        if "axis" in a:
            a["axis"] = -1
        if "axes" in a:
            a["axes"] = [-1]
    else:  # outer: rows are axes [0, ax); the chunk keeps axes [ax, rank) behind one row axis
        ax = split.axis
        shapes = [(r, *s[ax:]) if i in split.streamed else s for i, s in enumerate(shapes)]
        if name in ("narrow", "slice", "concat", "gather", "quantize", "dequantize"):
            a["axis"] = 1
        elif name == "reverse":
            a["axes"] = [1]
        elif name == "pad":
            a["pads"] = [[0, 0]] + a["pads"][ax:]
        elif name == "tile":
            a["reps"] = [1] + a["reps"][ax:]
        elif name == "expand":
            a["shape"] = [r] + list(a["shape"][ax:])
    return make_instance(name, inst.dtype, shapes, a, input_dtypes=[t.dtype for t in inst.inputs])
