"""Fusion of a MIL op list into the ANE's blocks, a mixin of the plan compiler (:mod:`.plan`).

* a 1x1 ``conv`` on route, or a ``matmul`` by a constant matrix on the ``matvec`` / ``linear`` route, followed
  by an ``add`` of a per-output-channel constant (a bias) and/or an activation (``sigmoid``, ``tanh``, ``relu``,
  ``gelu`` with its mode, or the SiLU pattern ``s = sigmoid(v); mul(v, s)``) becomes one ``__affine`` op: one
  program computing ``act(W x + b)`` (:meth:`.routes.Routes.route_affine`);
* k >= 2 consecutive 1x1 convs become one ``__conv_chain`` program.

A fused intermediate must be no function output and be read only by the next op of the pattern, and every
fused op computes fp16; otherwise the ops stay apart.
"""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .plan_model import Lit as _Lit, Op as _Op, PlanError


class Fusion:
    def fuse(self, flat: list[_Op]) -> list[_Op]:
        outs = set(self.fn.outputs)
        uses: dict[str, int] = {}
        for o in flat:
            for v in o.args.values():
                if isinstance(v, str):
                    uses[v] = uses.get(v, 0) + 1

        def on_route(o) -> bool:
            return o.op == "conv" and self.is_const(o.args.get("weight")) and self.conv_problem(o) is None

        def is_1x1(o) -> bool:
            s = o.shape
            return on_route(o) and len(s) == 4 and s[0] == 1 and s[2] == 1 and s[3] == 1

        fused, i = [], 0
        while i < len(flat):
            o = flat[i]
            block = self.fuse_affine(flat, i, uses, outs)
            if block is not None:
                op, i = block
                fused.append(op)
                continue
            if is_1x1(o) and o.result not in outs and uses.get(o.result) == 1:
                end = i + 1
                while end < len(flat) and is_1x1(flat[end]) and flat[end].args.get("x") == flat[end - 1].result:
                    res = flat[end].result
                    end += 1
                    if res in outs or uses.get(res) != 1:
                        break  # the chain ends with the first conv whose result is needed elsewhere
                if end - i >= 2:
                    args = {"x": o.args.get("x"), "convs": _Lit(tuple(flat[i:end]))}
                    fused.append(_Op("__conv_chain", flat[end - 1].result, flat[end - 1].shape, args, o.line))
                    i = end
                    continue
            fused.append(o)
            i += 1
        return fused

    def affine_head(self, o: _Op) -> str | None:
        """"conv" for a conv the 1x1 route takes, "matmul" for a matmul by a constant matrix the matvec/linear
        route takes (fp16 throughout), else None: the ops a bias and an activation may be fused into."""
        if self.dtype_problem(o) is not None:
            return None
        if o.op == "conv" and self.is_const(o.args.get("weight")) and "bias" not in o.args:
            return "conv" if self.conv_problem(o) is None else None
        if o.op != "matmul" or not isinstance(o.args.get("x"), str) or not isinstance(o.args.get("y"), str):
            return None
        try:
            form = self.matmul_form(o)
        except PlanError:
            return None
        return "matmul" if not isinstance(form, str) and form.kind in ("matvec", "linear") and form.attrs["n"] >= 32 else None

    def bias_vector(self, head: _Op, kind: str, add: _Op, v):
        """The bias ``add(head, v)`` adds, as one fp16 value per output channel (conv: axis 1 of [1, C, H, W];
        matvec/linear: the result's columns, its last axis), or None when the constant ``v`` varies otherwise
        (or is no constant)."""
        if not self.is_constant(v):
            return None
        try:
            full = np.broadcast_to(self.literal_f16(add, v), head.shape)
        except ValueError:
            return None  # it broadcasts the result to a larger shape: no bias of this op
        if kind == "conv":
            per = full[0].reshape(full.shape[1], -1)
            b = per[:, 0]
            ok = bool(np.array_equal(per, np.broadcast_to(b[:, None], per.shape), equal_nan=True))
        else:
            rows = full.reshape(-1, self.matmul_form(head).attrs["n"])
            b = rows[0]
            ok = bool(np.array_equal(rows, np.broadcast_to(b, rows.shape), equal_nan=True))
        return np.ascontiguousarray(b) if ok else None

    def fuse_affine(self, flat: list[_Op], i: int, uses: dict, outs: set):
        """A conv 1x1 or a matmul by a constant (``affine_head``), then optionally ``add`` of a per-channel
        constant bias, then optionally an activation (sigmoid, tanh, relu, gelu with its mode, or the SiLU
        pattern ``s = sigmoid(v); mul(v, s)``) as one ``__affine`` op, when there is a bias or an activation to
        fuse and every fused intermediate is no function output and read only by the next op of the pattern.
        Returns (the op, the index after the block) or None."""
        head = flat[i]
        kind = self.affine_head(head)
        if kind is None:
            return None
        cur, j, bias, act, mode = head.result, i + 1, None, None, None

        def nxt(k):
            return flat[k] if k < len(flat) else None

        def free(name, n=1) -> bool:
            return name not in outs and uses.get(name) == n

        add = nxt(j)
        if add is not None and add.op == "add" and free(cur) and cur in (add.args.get("x"), add.args.get("y")) and \
                add.args.get("x") != add.args.get("y") and self.dtype_problem(add) is None:
            bias = self.bias_vector(head, kind, add, add.args.get("y" if add.args.get("x") == cur else "x"))
            if bias is not None:
                cur, j = add.result, j + 1
        a1, a2 = nxt(j), nxt(j + 1)
        if a1 is not None and a1.op == "sigmoid" and a1.args.get("x") == cur and free(cur, 2) and free(a1.result) and \
                a2 is not None and a2.op == "mul" and {a2.args.get("x"), a2.args.get("y")} == {cur, a1.result}:
            act, cur, j = "silu", a2.result, j + 2
        elif a1 is not None and a1.op in ("sigmoid", "tanh", "relu", "gelu") and a1.args.get("x") == cur and free(cur) \
                and self.dtype_problem(a1) is None:
            act, mode, cur, j = a1.op, (self.gelu_mode(a1) if a1.op == "gelu" else None), a1.result, j + 1
        if bias is None and act is None:
            return None
        if bias is not None:
            self.spend(head, bias.size * 2, f"bias of '{cur}'")
        args = {"x": head.args.get("x") if kind == "conv" else None, "head": _Lit(head), "kind": _Lit(kind),
                "bias": _Lit(bias), "act": _Lit(act), "mode": _Lit(mode)}
        if kind == "matmul":  # the computed operand: the one that is not the constant matrix
            form = self.matmul_form(head)
            args["x"] = head.args["x"] if form.const_side == "y" else head.args["y"]
        return _Op("__affine", cur, list(flat[j - 1].shape), args, head.line), j

