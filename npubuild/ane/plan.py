"""A MIL program -> an ANE plan: per-node programs, currencies, adapters, order.

The reference design's graph scheduler, in Python:

1. **Lowering**: ``rms_norm(x, w, eps)`` (an npubuild extension op over one
   vector) becomes a host node computing ``rsqrt(mean(x²) + eps)`` broadcast into
   an external vector (times gamma when gamma is a constant: folded) and
   ``mul(x, rvec)`` (then ``mul(·, w)`` when gamma is not constant); ``silu(x)``
   becomes ``sigmoid`` + ``mul``; ``conv`` with a bias becomes ``conv`` + ``add``
   of the bias as ``[1, C, 1, 1]``. The values the lowering makes have names
   no MIL text can spell (:func:`.plan_model.temp_name`).
2. **Fusion** (:mod:`.fusion`): a 1x1 ``conv`` or a ``matmul`` by a constant matrix on
   route, followed by a per-channel constant bias ``add`` and/or an activation
   (``sigmoid``/``tanh``/``relu``/``gelu`` with its mode, or the SiLU pattern), becomes
   one program; k >= 2 consecutive 1x1 convs one program. Guards: every fused op is
   on route and fp16, the fused intermediates are no function outputs and have
   exactly the uses the pattern needs. MIL's ``linear`` with a constant weight is
   lowered to that matmul and the add of its bias first.
3. **Routes** (:mod:`.routes`): each op maps to a program route, taken only when
   it computes the op's MIL semantics; an op no route takes is a CPU node
   (:mod:`.cpu_ops_placement`, computed by :mod:`.cpu_ops`), or with ``ane_strict``
   the route's refusal; a value is held in the currency
   (physical layout) of its shape (:func:`.plan_model.natural`): ``strided[n]``
   for ``[1, n, 1, 1]``, ``contig[n]`` for values on the last axis, ``packed[t x
   d]`` for ``[1, t, 1, d]`` rows. ``reshape`` (and a transpose that keeps the
   order, a cast to the same dtype) passes its input's buffer through.
   Only a declared state's buffer (``state<tensor<...>>``) is written in place:
   ``read_state`` passes it through; an ``add`` of it whose sum is written back
   (``write_state``/``coreml_update_state``) rides it (``add4d``); other state
   writes are refused; a plain input is never written (``in_place_ok``).
4. **Adapters**: a consumer wanting another currency than its producer (or an
   external's buffer) holds gets a layout step of the emulator (a CPU ``reshape``
   node; the reference design's repack program and identity-matvec "unrepack" are
   no packages of their own), one per (producer, currency), evaluated just before
   the first consumer that needed it.

The plan records nodes, eval order, externals (function inputs and constants
read as inputs) with every (node, port) bound to them, constant fills and
function outputs; :func:`.programs.plan_record` turns it into the manifest's JSON.
"""
from __future__ import annotations

import math

from ..core.limits import over
from ..ops.lazy_numpy import np
from .mil_model import MilBounds
from .compress import dense
from .plan_model import (  # noqa: F401 - re-exported for callers of .plan
    AnePlan, Bind, CpuNode, Cur, HostNode, OffRoute, Packed, PlanError, ProgNode, RsqrtNode, count, natural, temp_name,
)
from .plan_model import Lit as _Lit, Op as _Op, flat_ops as _flat_ops
from .cpu_ops_placement import Placement
from .fusion import Fusion
from .routes import Routes

INT_DTYPES = ("int4", "int8", "uint1", "uint2", "uint3", "uint4", "uint6", "uint8")


# ---- compile ---------------------------------------------------------------------------------------------------------------


def compile_plan(prog, bounds: MilBounds | None = None) -> AnePlan:
    """The plan of ``prog``'s main function; ``bounds`` limits the buffers and weights it may plan, and (a
    PlanBounds with ane_strict) refuses any op no ANE route computes instead of placing it on the CPU."""
    fn = prog.main
    return _Compiler(prog.file, fn, bounds or MilBounds()).run()


def _all_finite(v) -> bool:
    """Whether every number in a parameter value (a number, or lists/tuples of them) is finite."""
    if isinstance(v, (list, tuple)):
        return all(_all_finite(x) for x in v)
    if isinstance(v, (float, np.floating)):
        return math.isfinite(float(v))
    return True


class _Compiler(Placement, Routes, Fusion):
    def __init__(self, file: str, fn, bounds: MilBounds):
        self.strict = bool(getattr(bounds, "ane_strict", False))
        self.file = file
        self.fn = fn
        self.consts = dict(fn.consts)  # the lowering adds the reshaped conv biases
        self.limits, self.budget = bounds.limits, bounds.max_bytes
        self.f16: dict[str, object] = {}  # const name -> its fp16 values, made once however many nodes use it
        self.input_shapes = {n: list(t.shape or ()) for n, t in fn.inputs}
        self.input_dtypes = {n: t.dtype for n, t in fn.inputs}
        self.states = {n for n, t in fn.inputs if t.state}  # iOS18 state<tensor<...>> inputs: the only buffers written in place
        self.in_place: dict[str, str] = {}  # result of an in-place add -> the state whose buffer it rides
        self.same: dict[str, str] = {}  # pass-through result -> the value whose buffer it is
        self.host_exts: dict[str, tuple] = {}  # host vector -> (its source, the source's shape)

    # -- helpers --------------------------------------------------------------------------------------------------------
    def err(self, o: _Op | None, msg: str) -> PlanError:
        where = f"{self.file}:{o.line}: " if o is not None and o.line else f"{self.file}: "
        return PlanError(where + msg)

    def is_const(self, name) -> bool:
        return isinstance(name, str) and name in self.consts

    def is_constant(self, v) -> bool:
        return isinstance(v, _Lit) or self.is_const(v)

    def const_f16(self, name: str):
        if name not in self.f16:
            arr = np.asarray(self.consts[name])
            if arr.dtype.kind not in "biuf":
                raise PlanError(f"{self.file}: constant '{name}' ({arr.dtype}) is read as fp16 data but holds no numbers")
            if arr.dtype != np.float16:
                self.spend(None, arr.size * 2, f"constant '{name}' as fp16")
            self.f16[name] = arr.astype(np.float16, copy=False)
        return self.f16[name]

    def literal_f16(self, o: _Op, v):
        """A constant operand (a named constant or an inline literal) as fp16 values."""
        if isinstance(v, str):
            return self.const_f16(v)
        arr = np.asarray(v.value)
        if arr.dtype.kind not in "iuf":
            raise self.err(o, f"{o.op} '{o.result}' takes a literal {v.value!r} as a number")
        return arr.astype(np.float16)

    def spend(self, o: _Op | None, nbytes: int, what: str) -> None:
        """Weights the plan makes count against the program's byte budget (MilBounds.max_bytes)."""
        if nbytes > self.limits.max_constant_bytes:
            raise self.err(o, str(over(f"the planned weight {what}", f"{nbytes} bytes", "max_constant_bytes", self.limits.max_constant_bytes)))
        self.budget -= nbytes
        if self.budget < 0:
            raise self.err(o, "the weights of this plan are over the byte budget of the program (max_artifact_size in [tool.npubuild])")

    def const_value(self, o: _Op, key: str, default=None):
        """A constant argument as a Python value (string, number, bool or a list of them)."""
        v = o.args.get(key)
        if v is None:
            return default
        if isinstance(v, _Lit):
            value = v.value
        elif self.is_const(v):
            value = self.consts[v]
        else:
            raise self.err(o, f"'{key}' of {o.op} '{o.result}' must be a constant, got the variable '{v}'")
        if isinstance(value, (np.ndarray, np.generic)):
            value = value.tolist()
        return value

    def const_ints(self, o: _Op, key: str, default=None) -> list:
        value = self.const_value(o, key, default)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in value):
            raise self.err(o, f"'{key}' of {o.op} '{o.result}' must be a list of integers, got {value!r}")
        return value

    def scalar(self, o: _Op, key: str, default=None):
        value = self.const_value(o, key, default)
        while isinstance(value, list) and len(value) == 1:
            value = value[0]
        if not isinstance(value, (bool, int, float)):
            raise self.err(o, f"'{key}' of {o.op} '{o.result}' must be one number or bool")
        return value

    def arg(self, o: _Op, key: str) -> str:
        v = o.args.get(key)
        if not isinstance(v, str):
            raise self.err(o, f"{o.op} '{o.result}' needs '{key}' as a variable or constant name")
        return v

    def operand(self, o: _Op, key: str):
        """A data operand: a variable or constant name, or an inline numeric literal."""
        v = o.args.get(key)
        if isinstance(v, _Lit) and isinstance(v.value, (int, float, np.ndarray)) and not isinstance(v.value, bool):
            return v
        return self.arg(o, key)

    def shape_of(self, v) -> list:
        if isinstance(v, _Lit):
            return list(np.shape(v.value))
        if v in self.shapes:
            return list(self.shapes[v])
        if self.is_const(v):
            return list(np.shape(self.consts[v]))
        raise PlanError(f"{self.file}: '{v}' is neither a function input, a constant nor a result")

    def dtype_of(self, name: str) -> str:
        if name in self.input_dtypes:
            return self.input_dtypes[name]
        if name in self.dtypes:
            return self.dtypes[name]
        return "fp16"  # constants are read as fp16 (const_f16)

    def resolve(self, name: str) -> str:
        while name in self.same:
            name = self.same[name]
        return name

    def pass_through(self, o: _Op, src: str) -> None:
        """``o``'s result is ``src``'s buffer under a new name (the row-major order is unchanged)."""
        if src in self.prod or src in self.input_shapes or self.is_const(src) or src in self.host_exts or src in self.same:
            self.same[o.result] = src
            if self.resolve(src) in self.prod:
                self.prod[o.result] = self.prod[self.resolve(src)]
            return
        raise self.err(o, f"'{src}' read by '{o.result}' is neither a function input, a constant nor a result")

    def weight_matrix(self, o: _Op, name: str, transposed: bool, rows: int, cols: int):
        """Constant ``name`` as a [rows, cols] fp16 matrix (stored [cols, rows] when ``transposed``),
        and, when it is exactly a constexpr op of constants in the program (blockwise shift-scale, a
        palette, a sparse mask), how to keep it compressed: {"w": Packed} (else {})."""
        arr = self.const_f16(name)
        if arr.size != rows * cols:
            raise self.err(o, f"{o.op} '{o.result}' reads the constant '{name}' {list(arr.shape)} as {rows} x {cols}")
        w = np.ascontiguousarray(arr.reshape(cols, rows).T if transposed else arr.reshape(rows, cols))
        pk = self.provenance(name)
        if pk is None:
            return w, {}
        keep = [i for i, d in enumerate(np.shape(pk.data)) if d != 1]  # a block axis over a size-1 data axis has size 1 too

        def matrix(a, tail=0):
            """``a`` (a weight-shaped array, or per-block values of one, with ``tail`` trailing axes of its own)
            in the [rows, cols] layout of ``w``."""
            a = np.asarray(a)
            lead = [a.shape[i] for i in keep]
            a = a.reshape(lead + list(a.shape[a.ndim - tail:]))
            if transposed and len(lead) == 2:
                a = np.swapaxes(a, 0, 1)
            if len(lead) == 1:
                a = a.reshape(([1, -1] if rows == 1 else [-1, 1]) + list(a.shape[1:]))
            elif not lead:
                a = a.reshape([1, 1] + list(a.shape))
            return np.ascontiguousarray(a)

        data = matrix(pk.data)
        if len(keep) > 2 or list(data.shape) != [rows, cols]:
            return w, {}  # the blocks do not survive this layout: the program stores the weight dequantised
        if pk.kind == "sparse":  # the values where the mask is set, in the row-major order of this layout
            packed = Packed(data, np.ascontiguousarray(w[data != 0]), None, pk.dtype, "sparse")
        elif pk.kind == "lut":
            packed = Packed(data, matrix(pk.scale, 2), None, pk.dtype, "lut")
        else:
            packed = Packed(data, matrix(pk.scale), None if pk.offset is None else matrix(pk.offset), pk.dtype)
        if dense(packed).tobytes() != w.tobytes():
            return w, {}
        return w, {"w": packed}

    def provenance(self, name: str):
        """``name`` as the program wrote it when it is an iOS18 constexpr op of constants (coremltools
        ops/defs/iOS18/compression.py; the reader keeps the op as written in MilFunction.constexprs beside the
        materialised value): ``constexpr_blockwise_shift_scale(data, scale[, offset])`` of int data and an fp16
        scale, ``constexpr_lut_to_dense(indices, lut)`` of scalar fp16 palettes, ``constexpr_sparse_to_dense(
        nonzero_data, mask)`` of fp16 values: its operands as a Packed, else None."""
        from .mil_model import Ref

        op = self.fn.constexprs.get(name)
        if op is None:
            return None

        def operand(key):
            v = op.args.get(key)
            if isinstance(v, Ref):
                return np.asarray(self.fn.consts[v.name]), self.fn.const_types[v.name].dtype
            return (np.asarray(v.value), v.type.dtype) if v is not None else (None, None)

        if op.op == "constexpr_lut_to_dense" and "shape" not in op.args and "vector_axis" not in op.args:
            (idx, dtype), (lut, lty) = operand("indices"), operand("lut")
            if idx is None or lty != "fp16" or lut.ndim != idx.ndim + 2 or lut.shape[-1] != 1:
                return None
            return Packed(idx, lut, None, dtype, "lut")
        if op.op == "constexpr_sparse_to_dense" and "shape" not in op.args:
            (mask, mty), (nz, nty) = operand("mask"), operand("nonzero_data")
            return Packed(mask, nz, None, "uint1", "sparse") if mty == "uint1" and nty == "fp16" else None
        if op.op != "constexpr_blockwise_shift_scale":
            return None
        (data, dtype), (scale, _), (offset, _) = operand("data"), operand("scale"), operand("offset")
        if dtype not in INT_DTYPES or scale is None or scale.dtype != np.float16:
            return None  # fp16/fp32 data or an fp32 scale: stored as the fp16 values it makes
        return Packed(data, scale, offset, dtype)

    # -- 0. declared shapes ---------------------------------------------------------------------------------------------
    def check_declared(self) -> None:
        """Every input and result the plan sizes buffers from must have known, positive dimensions
        (a '?' or 0 would be taken as 1 and the plan would disagree with the program); programs
        compute in fp16, so an input is fp16 or fp32 (read by a cast); a result of another dtype (an int32 index,
        a bool mask, an fp32 value) is computed by a CPU node (:mod:`.placement`)."""
        for n, t in self.fn.inputs:
            line = self.fn.input_lines.get(n, self.fn.line)
            if any(d <= 0 for d in t.shape or ()):
                why = ("; a flexible dimension (Core ML's RangeDim) is refused: it usually moves the work off the Neural "
                       "Engine, which runs programs compiled for fixed shapes (for several sizes, a YAML graph's seq: "
                       "[64, 128] builds one plan per size and a package with EnumeratedShapes)") if -1 in (t.shape or ()) else ""
                raise PlanError(f"{self.file}:{line}: function input '{n}' is declared {t}; an ANE graph needs known, positive "
                                f"dimensions{why}")
            if t.dtype not in ("fp16", "fp32"):
                raise PlanError(f"{self.file}:{line}: function input '{n}' is declared {t}; an ANE graph computes in fp16 "
                                "(declare fp16, or fp32 read through a cast)")
        for o in self.fn.ops:
            t = o.type
            if o.op == "write_state":
                continue  # no result (its operands are checked where they are made)
            for name, t in o.results:
                if any(d <= 0 for d in t.shape or ()):
                    raise PlanError(f"{self.file}:{o.line}: '{name}' is declared {t}; an ANE graph needs known, positive dimensions")

    def declared_count(self, name: str) -> int | None:
        """Values of a variable as the program declares it (None for names the plan made up)."""
        if name in self.shapes:
            return count(self.shapes[name])
        if self.is_const(name):
            return int(np.size(self.consts[name]))
        return None

    def same_count(self, o: _Op, name: str, n: int, what: str) -> None:
        have = self.declared_count(name)
        if have is not None and have != n:
            shape = self.shapes.get(name, list(np.shape(self.consts.get(name, ()))))
            raise self.err(o, f"{o.op} '{o.result}' reads '{name}' as {what} ({n} values), but '{name}' is declared "
                              f"with shape {shape} ({have} values)")

    # -- 1. lowering ----------------------------------------------------------------------------------------------------
    def lower(self, ops: list[_Op]) -> list[_Op]:
        flat = []
        for o in ops:
            if o.op == "rms_norm":
                flat += self.lower_rms_norm(o)
            elif o.op == "silu":
                x, sig = self.arg(o, "x"), temp_name(o.result, "sig")
                flat.append(_Op("sigmoid", sig, o.shape, {"x": x}, o.line))
                flat.append(_Op("mul", o.result, o.shape, {"x": x, "y": sig}, o.line))
            elif o.op == "conv" and "bias" in o.args:
                bias, nb = o.args["bias"], temp_name(o.result, "nb")
                if not self.is_const(bias):
                    flat.append(o)  # a bias computed at run time: the conv is placed whole, bias and all
                    continue
                if len(o.shape) < 2 or np.size(self.consts[bias]) != o.shape[1]:
                    raise self.err(o, f"conv '{o.result}' needs a constant bias of {o.shape[1] if len(o.shape) > 1 else '?'} "
                                      "values (one per output channel, coremltools iOS15/conv.py)")
                b = temp_name(o.result, "bias")
                self.consts[b] = np.asarray(self.consts[bias]).reshape([1, o.shape[1]] + [1] * (len(o.shape) - 2))
                flat.append(_Op("conv", nb, o.shape, {k: v for k, v in o.args.items() if k != "bias"}, o.line))
                flat.append(_Op("add", o.result, o.shape, {"x": nb, "y": b}, o.line))
            elif o.op == "linear" and self.linear_as_matmul(o):
                # MIL's linear (iOS17/linear.py: x @ weight^T + bias, weight [N, K]) is the matmul the matvec /
                # linear routes take plus the add of its bias, which the fusion folds back into one program
                bias = o.args.get("bias")
                mm = _Op("matmul", temp_name(o.result, "mm") if bias is not None else o.result, o.shape,
                         {"x": o.args.get("x"), "y": o.args["weight"], "transpose_x": _Lit(False), "transpose_y": _Lit(True)},
                         o.line)
                flat.append(mm)
                if bias is not None:
                    flat.append(_Op("add", o.result, o.shape, {"x": mm.result, "y": bias}, o.line))
            else:
                flat.append(o)
        return flat

    def linear_as_matmul(self, o: _Op) -> bool:
        """Whether ``linear`` ``o`` is a matmul an ANE route takes (a constant [N, K] weight, a constant bias or
        none, fp16); otherwise it stays whole (a CPU node computing MIL's linear)."""
        w, bias = o.args.get("weight"), o.args.get("bias")
        if not self.is_const(w) or np.ndim(self.consts[w]) != 2 or (bias is not None and not self.is_const(bias)):
            return False
        return self.affine_head(_Op("matmul", o.result, o.shape, {"x": o.args.get("x"), "y": w, "transpose_x": _Lit(False),
                                                                   "transpose_y": _Lit(True)}, o.line, o.dtype)) == "matmul"

    def lower_rms_norm(self, o: _Op) -> list[_Op]:
        x = self.arg(o, "x")
        xs = self.shape_of(x)
        if count(xs) != (xs[-1] if xs else 1):
            return [o]  # several vectors: no ANE route (routes.route_rms_norm says why); placed whole
        eps = float(self.scalar(o, "eps", 1e-5))
        w = o.args.get("w")
        fold = isinstance(w, str) and self.is_const(w)
        rvec = temp_name(o.result, "rvec")
        bc = {"x": x, "eps": _Lit(eps)}
        if fold:
            bc["w"] = w
        out = [_Op("__rsqrt_bcast", rvec, o.shape, bc, o.line)]
        if isinstance(w, str) and not fold:  # gamma computed at run time: one value per element of x
            xn, wr = temp_name(o.result, "xn"), temp_name(o.result, "w")
            out.append(_Op("mul", xn, o.shape, {"x": x, "y": rvec}, o.line))
            out.append(_Op("reshape", wr, o.shape, {"x": w}, o.line))
            out.append(_Op("mul", o.result, o.shape, {"x": xn, "y": wr}, o.line))
        else:
            out.append(_Op("mul", o.result, o.shape, {"x": x, "y": rvec}, o.line))
        return out

    # -- 3. routes ------------------------------------------------------------------------------------------------------
    def run(self) -> AnePlan:
        self.check_declared()
        self.shapes = dict(self.input_shapes)
        self.dtypes: dict[str, str] = {}
        self.prod: dict[str, tuple[int, Cur]] = {}
        ops = _flat_ops(self.fn)
        for o in ops:
            self.shapes[o.result] = o.shape
        flat = self.lower(ops)
        for o in flat:
            for name, shape, dtype in o.results or [(o.result, o.shape, o.dtype)]:
                self.shapes[name], self.dtypes[name] = shape, dtype
        flat = self.fuse(flat)
        self.readers: dict[str, list[int]] = {}
        for i, o in enumerate(flat):
            for v in o.args.values():
                if isinstance(v, str):
                    self.readers.setdefault(v, []).append(i)
        self.flat = flat
        self.nodes: list = []
        self.created: list[int] = []
        self.wants: list[tuple[int, list[tuple[str, Cur]], _Op]] = []
        for self.pos, o in enumerate(flat):
            self.route(o)
        self.copies = self.copy_view_outputs()
        plan = self.bind()
        self.check_finite(plan)
        return plan

    def check_finite(self, plan: AnePlan) -> None:
        """A NaN or infinite scalar parameter (``eps = fp16(nan)``) is valid MIL, and coremltools would keep it,
        but the plan's parameters go into the manifest, which is strict JSON: refuse it at its line, before a
        build writes anything (weights may hold NaN/Inf: they are stored as binary)."""
        for node in plan.nodes:
            if isinstance(node, CpuNode):
                continue  # its constants were checked where it was placed (placement.cpu_args)
            params = {"eps": node.eps} if isinstance(node, RsqrtNode) else node.attrs
            for key, v in params.items():
                if not _all_finite(v):
                    where = f"{self.file}:{node.line}: " if node.line else f"{self.file}: "
                    raise PlanError(f"{where}'{node.name.split('%')[0]}' ({node.route}): parameter {key} is {v}, not a finite number; "
                                    "npubuild records it in the manifest (strict JSON): give a finite value")

    def add_node(self, o: _Op, route: str, attrs: dict, ins: list[tuple[str, Cur]], out: Cur, weights=None, **kw) -> int:
        """A program; what it reads and writes must be what the program declares, value for value."""
        for name, cur in ins:
            self.same_count(o, name, cur.elems, str(cur))
        if count(o.shape) != out.elems:
            raise self.err(o, f"{o.op} '{o.result}' is declared with shape {o.shape} ({count(o.shape)} values), but its "
                              f"inputs make {out} ({out.elems} values)")
        idx = len(self.nodes)
        self.nodes.append(ProgNode(o.result, route, attrs, [c for _, c in ins], out, weights or {}, line=o.line, **kw))
        self.created.append(idx)
        self.prod[o.result] = (idx, out)
        self.wants.append((idx, ins, o))
        return idx

    # -- 3b. states (coremltools ops/defs/iOS18/states.py, coreml_dialect/ops.py) ---------------------------------------
    def route(self, o: _Op) -> None:
        if o.op == "read_state":
            return self.pass_through(o, self.arg(o, "input"))  # the state's buffer, read where it is
        if o.op in ("write_state", "coreml_update_state"):
            state, value = (self.arg(o, k) for k in (("input", "data") if o.op == "write_state" else ("state", "value")))
            if self.in_place.get(self.resolve(value)) != state:
                raise self.err(o, f"{o.op} of '{value}' into state '{state}' is off route: the plan writes a state only in "
                                  f"place: '{value}' must be add(x = read_state(input = {state}), y = ...) on [1, T, 1, D], "
                                  "with nothing reading the state's old value after that add")
            return self.pass_through(o, value) if o.op == "coreml_update_state" else None  # its result: the value written
        try:
            why = self.dtype_problem(o)
            if why:
                raise self.off(o, why)
            return super().route(o)
        except OffRoute as e:
            self.place_cpu(o, e)

    def in_place_ok(self, x: str) -> bool:
        """Whether the add at ``self.pos`` may write its sum into ``x``'s buffer: only when ``x`` is a declared
        state's value, held in the add's layout, and the program writes this very sum back into that state
        later, nothing else reading the state after the add. A plain input is never written (Core ML is pure)."""
        root, o = self.resolve(x), self.flat[self.pos]
        if root not in self.states or natural(self.shape_of(root)) != natural(o.shape) or \
                any(self.resolve(n) == root for n in self.fn.outputs):
            return False
        write = next((j for j in range(self.pos + 1, len(self.flat)) if self._writes(self.flat[j], root) is not None), None)
        if write is None or self._writes(self.flat[write], root) != o.result:
            return False
        names = {n for n in self.readers if self.resolve(n) == root} | {root}
        if any(i > self.pos and i != write for n in names for i in self.readers.get(n, ())):
            return False
        self.in_place[o.result] = root
        return True

    @staticmethod
    def _writes(o: _Op, state: str):
        """The value ``o`` writes into ``state`` (None when it writes nothing there)."""
        keys = {"write_state": ("input", "data"), "coreml_update_state": ("state", "value")}.get(o.op)
        return o.args.get(keys[1]) if keys and o.args.get(keys[0]) == state else None

    # -- 4. bindings and adapters ---------------------------------------------------------------------------------------
    def bind(self) -> AnePlan:
        pre: dict[int, list[int]] = {}
        adapters: dict[tuple, int] = {}
        self.ext_uses: dict[str, list[tuple[int, int]]] = {}
        ext_curs: dict[str, Cur] = {}
        const_fills: dict = {}
        for nidx, ins, o in self.wants:
            binds = []
            for port, (name, want) in enumerate(ins):
                root = self.resolve(name)
                as_held = want is None  # a CPU node reads any layout: it takes the value as it is held
                if root in self.prod:
                    pn, have = self.prod[root]
                    if as_held:
                        want = self.nodes[nidx].ins[port] = have
                    src = pn
                    if have != want:
                        src = adapters.get((pn, want))
                        if src is None:
                            src = self.adapter(o, name, Bind(node=pn), have, want)
                            pre.setdefault(nidx, []).append(src)
                            adapters[(pn, want)] = src
                    binds.append(Bind(node=src))
                    continue
                dtype = self.input_dtypes.get(root, "fp16")
                if self.is_const(root):
                    const_fills[root] = self.const_f16(root).reshape(-1)
                elif root not in self.input_shapes and root not in self.host_exts:
                    raise self.err(o, f"'{name}' read by '{o.result}' is neither a function input, a constant nor a result")
                if as_held:
                    want = self.nodes[nidx].ins[port] = ext_curs.setdefault(root, natural(self.shape_of(root), dtype))
                if want.dtype != dtype:
                    raise self.err(o, f"{o.op} '{o.result}' reads '{name}' ({dtype}) as {want.dtype}; an ANE program computes "
                                      "in fp16: cast it first")
                # one buffer per external, in the currency of its own shape; another layout is an adapter reading it
                have = ext_curs.setdefault(root, natural(self.shape_of(root), dtype))
                if have != want:
                    src = adapters.get((root, want))
                    if src is None:
                        src = self.adapter(o, name, Bind(ext=root), have, want)
                        self.ext_uses.setdefault(root, []).append((src, 0))
                        pre.setdefault(nidx, []).append(src)
                        adapters[(root, want)] = src
                    binds.append(Bind(node=src))
                    continue
                self.ext_uses.setdefault(root, []).append((nidx, port))
                binds.append(Bind(ext=root))
            self.nodes[nidx].binds = binds
        for name, (src, shape) in self.host_exts.items():
            if src not in self.prod:  # the host node reads an external that no program may read
                ext_curs.setdefault(src, natural(shape, self.input_dtypes.get(src, "fp16")))
                if self.is_const(src):
                    const_fills[src] = self.const_f16(src).reshape(-1)
        order: list[int] = []
        for idx in self.created:
            order += pre.get(idx, [])
            order.append(idx)
        outputs = {}
        for name in self.fn.outputs:
            root = self.copies.get(name) or self.resolve(name)
            if root not in self.prod:
                raise self.err(None, f"function output '{name}' is not produced by any program")
            outputs[name] = self.prod[root][0]
        self.check_buffers(ext_curs)
        inputs = [(n, list(t.shape or ()), t.dtype) for n, t in self.fn.inputs if not t.state]
        states = [(n, list(t.shape or ()), t.dtype) for n, t in self.fn.inputs if t.state]
        shapes = {name: list(self.shapes.get(name, [])) for name in outputs}
        return AnePlan(self.nodes, order, self.ext_uses, const_fills, outputs, inputs, ext_curs, shapes, states)

    def check_buffers(self, ext_curs: dict) -> None:
        """Every buffer the runtime will allocate, in its physical layout, within limits.max_elements."""
        lim = self.limits.max_elements
        for node in self.nodes:
            for cur in (*node.ins, node.out) if isinstance(node, (ProgNode, CpuNode)) else ():
                if cur.buffer_elems > lim:
                    where = f"{self.file}:{node.line}: " if node.line else f"{self.file}: "
                    raise PlanError(where + str(over(f"the buffer of {cur} in program '{node.name}'", f"{cur.buffer_elems} fp16 values",
                                                     "max_elements", lim)))
        for name, cur in ext_curs.items():
            if cur.buffer_elems > lim:
                raise PlanError(f"{self.file}: " + str(over(f"the buffer of input '{name}' ({cur})", f"{cur.buffer_elems} fp16 values",
                                                              "max_elements", lim)))

    def adapter(self, o: _Op, name: str, src: Bind, have: Cur, want: Cur) -> int:
        idx = len(self.nodes)
        if have.elems != want.elems or have.dtype != want.dtype:
            raise self.err(o, f"'{o.result}' wants '{name}' as {want} but it is held as {have}; no adapter converts these")
        # a layout change, not an op of the program: a step of the emulator (the seed's repack program and its
        # identity-matvec "unrepack" were packages of their own; Core ML lays out the graph package itself)
        attrs = {"op": "reshape", "args": {"x": {"in": 0}}, "ports": [{"shape": list(have.shape), "dtype": have.dtype}],
                 "shape": list(want.shape), "dtype": have.dtype, "index": 0}
        node = CpuNode(temp_name(name, "rp"), attrs, [have], want, f"layout adapter {have} -> {want} for '{o.result}'",
                       line=o.line)
        node.binds = [src]
        self.nodes.append(node)
        return idx
