"""Placement: an op no ANE route computes becomes a CPU node instead of a refusal.

A mixin of the plan compiler (:mod:`.plan`), beside :mod:`.routes`. Core ML places each op of a
program itself — the Neural Engine where it can, else the GPU or the CPU (what ``MLComputePlan``
reports per op) — and never refuses a valid program for want of an ANE kernel. The plan does the same
with its two devices: an op a route takes is an ANE program; one a route refuses
(:class:`.plan_model.OffRoute`: a seed-design limit such as relu on other than 64 values, a matvec
with fewer than 32 outputs, a 3x3 conv, or an op with no program at all) is a :class:`.plan_model.CpuNode`
that the runtime computes with MIL's semantics (:mod:`.cpu_ops`), recording the route's reason.
``ane_strict`` (``[tool.npubuild]``) keeps the refusal instead. An op with no CPU form either is refused
naming the op, its ``file:line`` and "no CPU form yet".

A CPU node reads each operand in whatever layout it is held (the host decodes any currency, so no
adapter runs before it); its result is held in the currency of its shape, and an ANE program that wants
another layout gets the adapter it would get after a program. Its constant operands: float tensors are
read as fp16 constants (fills, as the programs' constants are), everything else (ints, bools, strings,
scalars) is kept in the node's attributes.
"""
from __future__ import annotations

import json

from ..ops.lazy_numpy import np
from .plan_model import CpuNode, Lit, natural

# ops that are state plumbing or the planner's own fused forms: their dtypes are the routes' business
_NO_DTYPE_CHECK = ("read_state", "write_state", "coreml_update_state", "__rsqrt_bcast", "__affine", "__conv_chain")


class Placement:
    def dtype_problem(self, o) -> str | None:
        """Why ``o`` cannot be an ANE program whatever its route: a program reads and writes fp16 (a cast
        fp32 too, at the graph's edges); an int32 index, a bool mask or fp32 arithmetic is the CPU's."""
        if o.op in _NO_DTYPE_CHECK:
            return None
        if o.op != "cast":  # a cast's result dtype is route_cast's to judge
            for name, _, dtype in o.results or [(o.result, o.shape, o.dtype)]:
                if dtype != "fp16":
                    return f"its result '{name}' is {dtype}: the ANE programs write fp16"
        for v in o.args.values():
            if isinstance(v, str) and not self.is_const(v):
                dtype = self.dtype_of(v)
                if dtype != "fp16" and not (o.op == "cast" and dtype == "fp32"):
                    return f"'{v}' is {dtype}: the ANE programs read fp16"
        return None

    def place_cpu(self, o, off) -> None:
        """``o`` as CPU nodes (one per result), or ``off`` (the route's refusal) when ane_strict is set."""
        from .cpu_ops import has_form

        if self.strict:
            raise off
        if not has_form(o.op):
            raise self.err(o, f"{o.op} '{o.result}' {self.signature(o)} has no ANE route ({off.why}) and no CPU form yet")
        ins, ports = [], []
        args = {k: self.cpu_arg(o, v, ins, ports) for k, v in o.args.items()}
        for i, (name, shape, dtype) in enumerate(o.results or [(o.result, o.shape, o.dtype)]):
            out = natural(shape, "fp16" if dtype == "fp16" else "fp32")  # int32 and bool exact in fp32 up to 2^24
            attrs = {"op": o.op, "args": args, "ports": ports, "shape": list(shape), "dtype": dtype, "index": i}
            try:
                json.dumps(attrs, allow_nan=False)  # the manifest is strict JSON
            except ValueError:
                raise self.err(o, f"{o.op} '{o.result}' has a parameter that is not a finite number; npubuild records "
                                  "it in the manifest (strict JSON): give a finite value") from None
            idx = len(self.nodes)
            self.nodes.append(CpuNode(name, attrs, [None] * len(ins), out, off.why, line=o.line))
            self.created.append(idx)
            self.prod[name] = (idx, out)
            self.wants.append((idx, list(ins), o))  # bind() takes each operand as it is held (want None)

    def copy_view_outputs(self) -> dict:
        """Function output -> the CPU node that copies it, for each output that is a function input or a
        constant, or only a view of one (a reshape, a transpose that keeps the order, ...): no program writes
        such an output (a view renames a buffer), and the plan binds outputs to results. Core ML returns a
        copy; so does a CPU reshape here (in strict mode too: it places no op the program has)."""
        from .plan_model import OffRoute, Op, temp_name

        copies = {}
        for name in self.fn.outputs:
            root = self.resolve(name)
            if root in self.prod:
                continue
            shape = list(self.shapes.get(name) or self.shape_of(name))
            dtype = self.dtypes.get(name) or self.dtype_of(root)
            line = next((o.line for o in self.flat if o.result == name), None) or self.fn.input_lines.get(name, self.fn.line)
            o = Op("reshape", temp_name(name, "copy"), shape, {"x": root, "shape": Lit(shape)}, line, dtype)
            why = f"the function output '{name}' is the value of '{root}' (no op computes it): a copy"
            strict, self.strict = self.strict, False
            try:
                self.place_cpu(o, OffRoute(why, why))
            finally:
                self.strict = strict
            copies[name] = o.result
        return copies

    def cpu_arg(self, o, v, ins: list, ports: list) -> dict:
        """How a CPU node reads operand ``v``: ``{"in": port}`` (a value, or a float constant tensor read as
        fp16), ``{"value": ...}`` (a constant kept in the attributes) or ``{"tuple": [...]}``."""
        from .mil_model import Ref

        if isinstance(v, Lit):
            if isinstance(v.value, tuple):
                return {"tuple": [self.cpu_arg(o, x.name if isinstance(x, Ref) else Lit(getattr(x, "value", x)), ins, ports)
                                  for x in v.value]}
            return {"value": _json_value(v.value)}
        if self.is_const(v):
            arr = np.asarray(self.consts[v])
            if arr.dtype.kind != "f" or arr.size <= 1:
                self.spend(o, arr.size * 8, f"constant '{v}' of {o.op} '{o.result}'")  # it is written out as JSON
                return {"value": _json_value(arr)}
            dtype = "fp16"  # read as the programs read constants: fp16 fills
        else:
            dtype = self.dtype_of(v)
        ins.append((v, None))
        ports.append({"shape": self.shape_of(v), "dtype": dtype})
        return {"in": len(ins) - 1}


def _json_value(v):
    """A constant as JSON data (a NaN or infinity stays one: place_cpu's strict-JSON check refuses it at its line)."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    return v
