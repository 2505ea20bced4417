"""Routes: which ANE program computes a MIL op, taken only when it computes exactly
what the op means in coremltools 9.0 (``coremltools/converters/mil/mil/ops/defs/iOS15..iOS18``).

A mixin of the plan compiler (:mod:`.plan`): every check reads the shapes the MIL
program declares (MIL values are immutable, row-major tensors), and anything a
route cannot compute is an :class:`.plan_model.OffRoute` naming the op, its
``file:line``, its operand shapes and why — never a wrong answer at run time. The
planner places such an op on the CPU (:mod:`.cpu_ops_placement`, the ``why``
becoming the node's reason) or, under ``ane_strict``, raises it as the build's error.

* element-wise ``add sub mul minimum maximum`` (``elementwise_binary.py``): NumPy
  broadcasting; a computed operand must have the result's shape, a constant may
  broadcast (scalar, per channel, per row, ...: kept in the program at the smallest
  shape that broadcasts the same way). ``add`` on ``[1, T, 1, D]`` runs in place on
  its input 0 only where :meth:`Routes.in_place_ok` allows it: the planner
  (npubuild.ane.plan) allows it for a declared state's value written back into it,
  never for a plain function input;
* ``sigmoid tanh relu gelu`` (``activation.py``): gelu's ``mode`` (EXACT default);
* ``softmax`` (``activation.py``, axis default -1): only when the reduced axis is the
  channel or the width axis of the program's ``[1, t, 1, d]`` layout (or has size 1);
* ``transpose``: a permutation that keeps the row-major order (it moves size-1 axes)
  is a pass-through; any other is a ``transpose`` program with the real ``perm``;
* ``reshape``: a pass-through (row-major: the values keep their order);
* ``cast`` fp16 <-> fp32: a ``cast`` program (fp32 buffers at the graph's edges); to
  the same dtype a pass-through; other dtypes refused;
* ``conv`` (``conv.py``): 1x1 kernel, strides 1, no padding (``valid``, a zero
  ``custom`` pad, or ``same``/``same_lower``, which pad nothing for a 1x1 stride-1
  kernel), groups 1, dilations any (a 1x1 kernel has no taps to spread), batch 1,
  at least 32 input and output channels, any spatial size;
* ``matmul`` (``linear.py``: transposes, rank-1 promotion, batch broadcasting) is
  read as which axes of x, y and the result carry the batch, rows (m), reduction (k)
  and columns (n): a constant matrix times rows of x (``matvec``, ``linear``), a
  vector times matrix rows or columns (``avw``, ``attn_v``), an outer product
  (``outer``).
"""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .matmul_form import classify
from .numerics import GELU_MODES
from .plan_model import Bind, OffRoute, PlanError, RsqrtNode, broadcast, count, natural

EW_OPS = ("add", "sub", "mul", "minimum", "maximum")
UNARY = ("sigmoid", "tanh", "relu", "gelu")
ROUTES_HELP = ("routes: add/sub/mul/minimum/maximum, sigmoid/tanh/relu/gelu, softmax, transpose, reshape, cast, "
               "conv (1x1), matmul, rms_norm, silu")


def collapse(full, shape: list):
    """``full`` (already of ``shape``) cut down along every axis on which it is constant: the
    smallest array that broadcasts back to it (a per-channel bias stays [1, C, 1, 1])."""
    keep = []
    for ax, d in enumerate(shape):
        first = np.take(full, [0], axis=ax)
        keep.append(d > 1 and not np.array_equal(np.broadcast_to(first, full.shape), full, equal_nan=True))
    idx = tuple(slice(None) if k else slice(0, 1) for k in keep)
    return np.ascontiguousarray(full[idx])


class Routes:
    # -- messages -------------------------------------------------------------------------------------------------------
    def signature(self, o) -> str:
        parts = []
        for k in ("x", "y", "weight"):
            v = o.args.get(k)
            if v is not None and not isinstance(v, tuple):
                parts.append(f"{k} {self.shape_of(v)}")
        return f"({', '.join(parts)} -> {o.shape})" if parts else f"(-> {o.shape})"

    def off(self, o, why: str, message: str | None = None) -> OffRoute:
        """No ANE route computes ``o`` as written: the plan places it on the CPU (ane_strict: this error)."""
        where = str(self.err(o, ""))
        return OffRoute(where + (message or f"{o.op} '{o.result}' {self.signature(o)} is off route: {why}"), why)

    def expect_shape(self, o, shape: list, how: str) -> None:
        if list(o.shape) != list(shape):
            raise self.err(o, f"{o.op} '{o.result}' is declared with shape {o.shape}, but {how} gives {list(shape)}")

    # -- dispatch -------------------------------------------------------------------------------------------------------
    def route(self, o) -> None:
        op = o.op
        if op == "__rsqrt_bcast":
            return self.route_rsqrt(o)
        if op in EW_OPS:
            return self.route_ew(o)
        if op in UNARY:
            return self.route_unary(o)
        handler = {"softmax": self.route_softmax, "transpose": self.route_transpose, "reshape": self.route_reshape,
                   "cast": self.route_cast, "conv": self.route_conv, "__affine": self.route_affine,
                   "__conv_chain": self.route_conv_chain, "matmul": self.route_matmul,
                   "rms_norm": self.route_rms_norm}.get(op)
        if handler is None:
            raise self.off(o, f"{op} has no ANE program", f"op '{op}' ('{o.result}', shape {o.shape}) is not on an ANE graph "
                                                           f"route; {ROUTES_HELP}")
        handler(o)

    def route_rms_norm(self, o) -> None:
        """An rms_norm the lowering left whole: x is not one vector (the lowering takes [1, ..., 1, D])."""
        xs = self.shape_of(self.arg(o, "x"))
        raise self.off(o, f"rms_norm over {count(xs) // max(xs[-1] if xs else 1, 1)} vectors: the host rsqrt route takes one",
                       f"rms_norm '{o.result}' on x {xs} is off route: npubuild's rms_norm extension op normalises over the "
                       "last axis, and the host rsqrt route takes one such vector (x [1, ..., 1, D])")

    def route_rsqrt(self, o) -> None:
        src = self.arg(o, "x")
        elems = count(o.shape)
        self.same_count(o, src, elems, "the rms_norm input")
        root = self.resolve(src)
        bind = Bind(node=self.prod[root][0]) if root in self.prod else Bind(ext=root)
        gamma = self.const_f16(o.args["w"]).reshape(-1) if "w" in o.args else None
        if gamma is not None and gamma.size != elems:
            raise self.err(o, f"rms_norm of '{src}' has {elems} values but its gamma '{o.args['w']}' has {gamma.size}")
        self.nodes.append(RsqrtNode(o.result, bind, o.result, elems, float(o.args["eps"].value), gamma, o.line))
        self.created.append(len(self.nodes) - 1)
        self.host_exts[o.result] = (root, self.shape_of(src))

    # -- element-wise ---------------------------------------------------------------------------------------------------
    def route_ew(self, o) -> None:
        x, y = self.operand(o, "x"), self.operand(o, "y")
        xs, ys = self.shape_of(x), self.shape_of(y)
        out = broadcast(xs, ys)
        if out is None:
            raise self.err(o, f"{o.op} '{o.result}': x {xs} and y {ys} do not broadcast (NumPy rules, coremltools "
                              "ops/defs/iOS15/elementwise_binary.py)")
        self.expect_shape(o, out, f"broadcasting x {xs} with y {ys}")
        cur = natural(out)
        if self.is_constant(x) and self.is_constant(y):
            raise self.off(o, "both operands are constants (fold them into one constant)")
        ins, weights, refs = [], {}, {}
        for key, v, vs in (("x", x, xs), ("y", y, ys)):
            if isinstance(v, str) and (not self.is_const(v) or count(vs) == count(out)):
                if count(vs) != count(out):
                    raise self.off(o, f"'{v}' {vs} is computed at run time and broadcasts to {out}; the ew route "
                                      "broadcasts constant operands only")
                refs[key] = f"in{len(ins)}"
                ins.append((v, cur))
                continue
            full = np.broadcast_to(self.literal_f16(o, v).reshape([1] * (len(out) - len(vs)) + vs), out).reshape(cur.shape)
            small = collapse(full, cur.shape)
            self.spend(o, small.size * 2, f"constant {key} of {o.op} '{o.result}'")
            refs[key] = f"b{key}"
            weights[f"b{key}"] = small
        attrs = {"op": o.op, "shape": cur.shape, **refs}
        if o.op == "add" and cur.kind == "packed" and refs["x"] == "in0" and self.in_place_ok(x):
            # the KV-cache / weight-update accumulator: the sum rides input 0's buffer
            self.add_node(o, "add4d", attrs, ins, cur, weights, alias=[(0, 0)], zero=[0])
            return
        self.add_node(o, "ew", attrs, ins, cur, weights)

    def in_place_ok(self, x: str) -> bool:
        """Whether the op at ``self.pos`` may overwrite ``x``'s buffer: never here (MIL values are immutable
        and Core ML's package is pure); the planner overrides it for the iOS18 states a program declares."""
        return False

    # -- unary ----------------------------------------------------------------------------------------------------------
    def route_unary(self, o) -> None:
        x = self.arg(o, "x")
        xs = self.shape_of(x)
        self.expect_shape(o, xs, f"{o.op} of x {xs}")
        cur = natural(xs)
        if o.op == "relu":
            if count(xs) != 64:
                raise self.off(o, f"relu on {count(xs)} values: the ANE relu program takes exactly 64 channels",
                               f"relu '{o.result}' on {count(xs)} elements is off route (the ANE relu program takes exactly 64 channels)")
            self.add_node(o, "relu", {"fn": "relu", "shape": cur.shape}, [(x, cur)], cur)
        elif o.op == "gelu":
            self.add_node(o, "gelu", {"mode": self.gelu_mode(o), "shape": cur.shape}, [(x, cur)], cur)
        else:
            self.add_node(o, "lut", {"fn": o.op, "shape": cur.shape}, [(x, cur)], cur)

    def gelu_mode(self, o) -> str:
        mode = self.const_value(o, "mode", "EXACT")  # coremltools iOS15/activation.py gelu: default_inputs mode="EXACT"
        if mode not in GELU_MODES:
            raise self.err(o, f"gelu '{o.result}' has mode {mode!r}; MIL's modes are {', '.join(GELU_MODES)}")
        return mode

    # -- softmax --------------------------------------------------------------------------------------------------------
    def route_softmax(self, o) -> None:
        x = self.arg(o, "x")
        xs = self.shape_of(x)
        rank = len(xs)
        axis = self.scalar(o, "axis", -1)  # coremltools iOS15/activation.py softmax: default axis -1
        if isinstance(axis, bool) or not isinstance(axis, int) or not -max(rank, 1) <= axis < max(rank, 1):
            raise self.err(o, f"softmax '{o.result}': axis {axis!r} is not an axis of x {xs}")
        self.expect_shape(o, xs, f"softmax of x {xs}")
        a = axis % rank if rank else 0
        rows, length, inner = count(xs[:a]), (xs[a] if rank else 1), count(xs[a + 1:])
        cur = natural(xs)
        t, d = cur.shape[1], cur.shape[3]
        if length == 1:
            ax = 2  # a size-1 axis: softmax is exp(0)/1 everywhere; axis 2 of [1, t, 1, d] is the same reduction
        elif inner == 1 and (rows, length) == (t, d):
            ax = 3
        elif rows == 1 and (length, inner) == (t, d):
            ax = 1
        else:
            raise self.off(o, f"softmax over axis {axis} reduces {length} values {inner} apart in {rows} groups; the ANE "
                              "softmax program reduces the channel or the width axis of [1, t, 1, d]")
        self.add_node(o, "softmax", {"axis": ax, "shape": cur.shape}, [(x, cur)], cur)

    # -- layout ops -----------------------------------------------------------------------------------------------------
    def route_transpose(self, o) -> None:
        x = self.arg(o, "x")
        xs = self.shape_of(x)
        perm = self.const_ints(o, "perm")
        if sorted(p % len(xs) if xs and -len(xs) <= p < len(xs) else -1 for p in perm) != list(range(len(xs))):
            raise self.err(o, f"transpose '{o.result}': perm {perm} is not a permutation of the {len(xs)} axes of x {xs}")
        perm = [p % len(xs) for p in perm]
        out = [xs[p] for p in perm]
        self.expect_shape(o, out, f"transposing x {xs} by perm {perm}")
        moved = [p for p in perm if xs[p] != 1]
        if moved == sorted(moved):  # only size-1 axes move: the row-major order is unchanged
            self.pass_through(o, x)
            return
        self.add_node(o, "transpose", {"perm": perm, "in_shape": list(xs), "out_shape": out},
                      [(x, natural(xs))], natural(out))

    def route_reshape(self, o) -> None:
        x = self.arg(o, "x")
        self.same_count(o, x, count(o.shape), str(o.shape))
        self.pass_through(o, x)

    def route_cast(self, o) -> None:
        x = self.arg(o, "x")
        xs = self.shape_of(x)
        self.expect_shape(o, xs, f"cast of x {xs}")
        dst, src = self.const_value(o, "dtype", None), self.dtype_of(x)
        if dst not in ("fp16", "fp32"):
            raise self.off(o, f"cast to {dst!r}: an ANE graph holds fp16 values (fp32 only where a cast meets its inputs "
                              "or outputs)")
        if dst != o.dtype:
            raise self.err(o, f"cast '{o.result}' is declared {o.dtype} but casts to {dst}")
        if src == dst:
            self.pass_through(o, x)
            return
        self.add_node(o, "cast", {"dtype": dst, "shape": natural(xs).shape}, [(x, natural(xs, src))], natural(xs, dst))

    # -- conv -----------------------------------------------------------------------------------------------------------
    def conv_problem(self, o) -> str | None:
        """Why ``conv`` ``o`` is not the ANE's 1x1 conv program, or None (coremltools iOS15/conv.py)."""
        x, wname = o.args.get("x"), o.args.get("weight")
        if not isinstance(x, str) or not self.is_const(wname):
            return None if isinstance(x, str) else "x must be a variable"
        xs, ws = self.shape_of(x), list(np.shape(self.consts[wname]))
        if len(xs) != 4 or xs[0] != 1:
            return f"x {xs} is not [1, C, H, W] (the ANE conv program is 2-D with batch 1)"
        if len(ws) != 4:
            return f"weight {ws} is not [C_out, C_in / groups, kH, kW]"
        groups = self.scalar(o, "groups", 1)
        if groups != 1:
            return f"groups = {groups} (the ANE conv program is not grouped)"
        if ws[1] != xs[1]:
            return f"weight {ws} takes {ws[1]} input channels, x has {xs[1]}"
        if ws[2:] != [1, 1]:
            return f"kernel {ws[2]}x{ws[3]}: the ANE conv route is 1x1 (a larger kernel is never flattened into channels)"
        strides = self.const_ints(o, "strides", [1, 1])
        dilations = self.const_ints(o, "dilations", [1, 1])
        if len(strides) != 2 or len(dilations) != 2 or min(dilations) < 1:
            return f"strides {strides} and dilations {dilations} must be two positive integers each"
        if strides != [1, 1]:
            return f"strides {strides} (the ANE conv program has stride 1)"
        pad_type = self.const_value(o, "pad_type", "valid")
        pad = self.const_ints(o, "pad", [0, 0, 0, 0])
        if pad_type == "custom" and any(pad):
            return f"pad {pad}: the ANE conv program does not pad"
        if pad_type not in ("valid", "custom", "same", "same_lower"):
            return f"pad_type {pad_type!r} is none of valid, custom, same, same_lower"
        if ws[0] < 32 or ws[1] < 32:
            return f"{ws[1]} -> {ws[0]} channels (the ANE conv program takes at least 32 input and output channels)"
        want = [1, ws[0], xs[2], xs[3]]  # 1x1, stride 1, no padding: the spatial size is kept
        if list(o.shape) != want:
            return f"it is declared {o.shape} but a 1x1 stride-1 conv of x {xs} gives {want}"
        return None

    def conv_weight(self, o, name: str):
        if not self.is_const(name):
            raise self.off(o, "the weight is computed at run time: the ANE conv program holds a constant weight")
        why = self.conv_problem(o)
        if why:
            raise self.off(o, why)
        return self.weight_matrix(o, name, False, int(o.shape[1]), self.shape_of(o.args["x"])[1])

    def route_conv(self, o) -> None:
        x = self.arg(o, "x")
        w, packed = self.conv_weight(o, o.args.get("weight"))
        xs = self.shape_of(x)
        attrs = {"cin": w.shape[1], "cout": w.shape[0], "h": xs[2], "w": xs[3]}
        self.add_node(o, "conv1x1", attrs, [(x, natural(xs))], natural(o.shape), {"w": w}, packed=packed)

    def route_affine(self, o) -> None:
        """A conv 1x1 or a matmul by a constant with its fused bias and activation (the plan's ``fuse_affine``):
        one program computing ``act(W x + b)``. A conv is ``conv1x1`` (bias only) or ``conv_act``; a matmul its
        ``matvec`` / ``linear`` route; ``act`` and ``mode`` are attributes (none without an activation), the bias
        the weight ``b``."""
        head, kind = o.args["head"].value, o.args["kind"].value
        bias, act, mode = o.args["bias"].value, o.args["act"].value, o.args["mode"].value
        x = self.arg(o, "x")
        xs = self.shape_of(x)
        if kind == "conv":
            w, packed = self.conv_weight(head, head.args["weight"])
            attrs = {"cin": w.shape[1], "cout": w.shape[0], "h": xs[2], "w": xs[3]}
            route = "conv_act" if act else "conv1x1"
        else:
            form, w, packed = self.matmul_weight(head)
            self.expect_shape(head, form.out, f"matmul of x {xs} by the constant matrix")
            attrs, route = dict(form.attrs), form.kind
        if act:
            attrs.update(act=act, mode=mode)
        weights = {"w": w, **({"b": bias} if bias is not None else {})}
        self.add_node(o, route, attrs, [(x, natural(xs))], natural(o.shape), weights, packed=packed)

    def route_conv_chain(self, o) -> None:
        x = self.arg(o, "x")
        convs = o.args["convs"].value
        shapes, weights, packed = [], {}, {}
        for i, c in enumerate(convs):  # each one passed conv_problem when it was fused: they chain
            weights[f"w{i}"], pk = self.conv_weight(c, c.args.get("weight"))
            if pk:
                packed[f"w{i}"] = pk["w"]
            shapes.append([int(weights[f"w{i}"].shape[1]), int(weights[f"w{i}"].shape[0])])
        xs = self.shape_of(x)
        self.add_node(o, "conv_chain", {"shapes": shapes, "h": xs[2], "w": xs[3]}, [(x, natural(xs))],
                      natural(o.shape), weights, packed=packed)

    # -- matmul ---------------------------------------------------------------------------------------------------------
    def matmul_form(self, o):
        """How ``o``'s matmul reads (:func:`.matmul_form.classify`), or a string saying why its shapes make none."""
        x, y = self.arg(o, "x"), self.arg(o, "y")
        tx, ty = bool(self.scalar(o, "transpose_x", False)), bool(self.scalar(o, "transpose_y", False))
        return classify(self.shape_of(x), self.shape_of(y), tx, ty, self.is_const(x), self.is_const(y))

    def matmul_weight(self, o):
        """(form, the weight as an [n, k] fp16 matrix, how it stays compressed) of a matvec / linear matmul."""
        form = self.matmul_form(o)
        cname = o.args["y"] if form.const_side == "y" else o.args["x"]
        if form.attrs["n"] < 32:
            raise self.off(o, f"{form.attrs['n']} outputs (the ANE matvec program takes at least 32)")
        w, packed = self.weight_matrix(o, cname, form.w_transposed, form.attrs["n"], form.attrs["k"])
        return form, w, packed

    def route_matmul(self, o) -> None:
        x, y = self.arg(o, "x"), self.arg(o, "y")
        tx, ty = bool(self.scalar(o, "transpose_x", False)), bool(self.scalar(o, "transpose_y", False))
        xs, ys = self.shape_of(x), self.shape_of(y)
        head = f"matmul '{o.result}' x {xs} y {ys} (transpose_x={tx}, transpose_y={ty})"
        form = self.matmul_form(o)
        if isinstance(form, str):
            if "route" in form:  # a valid matmul no ANE program computes (matmul_form says so), not a type error
                raise self.off(o, form, f"{head}: {form}")
            raise self.err(o, f"{head}: {form}")
        self.expect_shape(o, form.out, f"matmul of x {xs} y {ys} (transpose_x={tx}, transpose_y={ty})")
        out = natural(form.out)
        if form.kind is None:
            raise self.off(o, f"matmul {form.roles}: no ANE matmul program computes it",
                           f"{head} is not on an ANE route ({form.roles}); routes: a constant matrix times one vector "
                           "or rows (matvec, linear), a vector times the rows or columns of a matrix (avw, attn_v), "
                           "an outer product of two vectors (outer)")
        if form.kind in ("matvec", "linear"):
            vname = x if form.const_side == "y" else y
            _, w, packed = self.matmul_weight(o)
            self.add_node(o, form.kind, form.attrs, [(vname, natural(self.shape_of(vname)))], out, {"w": w}, packed=packed)
            return
        a, b = (y, x) if form.swapped else (x, y)
        self.add_node(o, form.kind, form.attrs, [(a, natural(self.shape_of(a))), (b, natural(self.shape_of(b)))], out)
