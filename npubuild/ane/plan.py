"""A MIL program -> an ANE plan: per-node programs, currencies, adapters, order.

The reference design's graph scheduler, in Python:

1. **Lowering**: ``rms_norm(x, w, eps)`` becomes a host node computing
   ``rsqrt(mean(x²) + eps)`` broadcast into an external vector (times gamma
   when gamma is a constant: folded) and ``mul(x, rvec)`` (then ``mul(·, w)``
   when gamma is not constant); ``silu(x)`` becomes ``sigmoid`` + ``mul``;
   ``conv`` with a bias becomes ``conv`` + ``add``.
2. **Fusion**: a 64 -> 64 ``conv`` followed by ``sigmoid``/``tanh``/``relu``/
   ``gelu``, or by the SiLU pattern ``g = conv; s = sigmoid(g); mul(g, s)``,
   becomes one program; k >= 2 consecutive 1x1 convs one program. Guards: the
   fused intermediates are no function outputs and have exactly the uses the
   pattern needs.
3. **Routes**: each op maps to a program route that declares the currency
   (physical layout) it produces and the one it wants per input:
   ``strided[n]`` — one fp16 per 64-byte channel plane, ``[1, n, 1, 1]``;
   ``contig[n]`` — packed fp16 on the width axis, ``[1, 1, 1, n]``;
   ``packed[t x d]`` — ``[1, t, 1, d]`` rows. An op with no route is an error
   naming the op, its line and its shapes.
4. **Adapters**: a consumer wanting another currency than its producer makes
   gets a repack (strided -> contig) or an identity-matmul unrepack (contig ->
   strided) program, one per (producer, currency), evaluated just before the
   first consumer that needed it.

The plan records nodes, eval order, externals (function inputs and constants
read as inputs) with every (node, port) bound to them, constant fills and
function outputs; :func:`plan_record` turns it into the manifest's JSON.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..limits import over
from ..ops.lazy_numpy import np
from .mil_model import FLOATS, MilBounds
from .plan_model import AnePlan, Bind, Cur, HostNode, PlanError, ProgNode  # noqa: F401 - re-exported for callers of .plan


# ---- the op list the scheduler works on --------------------------------------------------------------------------------------


@dataclass
class _Op:
    op: str
    result: str
    shape: list
    args: dict  # name -> variable name (str) or literal value (_Lit)
    line: int | None = None


@dataclass(frozen=True)
class _Lit:
    value: object


def _flat_ops(fn) -> list[_Op]:
    from .mil import Ref

    out = []
    for o in fn.ops:
        args = {k: (v.name if isinstance(v, Ref) else _Lit(getattr(v, "value", v))) for k, v in o.args.items()}  # tuples stay whole
        out.append(_Op(o.op, o.result, list(o.type.shape or ()), args, o.line))
    return out


def _where(fn_file: str, o: _Op) -> str:
    return f"{fn_file}:{o.line}" if o.line else fn_file


# ---- compile ---------------------------------------------------------------------------------------------------------------


def compile_plan(prog, bounds: MilBounds | None = None) -> AnePlan:
    """The plan of ``prog``'s main function; ``bounds`` limits the buffers and weights it may plan."""
    fn = prog.main
    return _Compiler(prog.file, fn, bounds or MilBounds()).run()


def _count(shape) -> int:
    return math.prod(int(d) for d in shape)


class _Compiler:
    def __init__(self, file: str, fn, bounds: MilBounds):
        self.file = file
        self.fn = fn
        self.consts = fn.consts
        self.limits, self.budget = bounds.limits, bounds.max_bytes
        self.f16: dict[str, object] = {}  # const name -> its fp16 values, made once however many nodes use it
        self.input_shapes = {n: list(t.shape or ()) for n, t in fn.inputs}

    # -- helpers --------------------------------------------------------------------------------------------------------
    def err(self, o: _Op | None, msg: str) -> PlanError:
        where = f"{self.file}:{o.line}: " if o is not None and o.line else f"{self.file}: "
        return PlanError(where + msg)

    def is_const(self, name) -> bool:
        return isinstance(name, str) and name in self.consts

    def const_f16(self, name: str):
        if name not in self.f16:
            arr = np.asarray(self.consts[name])
            if arr.dtype.kind not in "biuf":
                raise PlanError(f"{self.file}: constant '{name}' ({arr.dtype}) is read as fp16 data but holds no numbers")
            if arr.dtype != np.float16:
                self.spend(None, arr.size * 2, f"constant '{name}' as fp16")
            self.f16[name] = arr.astype(np.float16, copy=False)
        return self.f16[name]

    def spend(self, o: _Op | None, nbytes: int, what: str) -> None:
        """Weights the plan makes count against the program's byte budget (MilBounds.max_bytes)."""
        if nbytes > self.limits.max_constant_bytes:
            raise self.err(o, str(over(f"the planned weight {what}", f"{nbytes} bytes", "max_constant_bytes", self.limits.max_constant_bytes)))
        self.budget -= nbytes
        if self.budget < 0:
            raise self.err(o, "the weights of this plan are over the byte budget of the program (max_artifact_size in [tool.npubuild])")

    def scalar(self, o: _Op, key: str, default=None):
        v = o.args.get(key)
        if v is None:
            return default
        if isinstance(v, _Lit):
            value = v.value
        elif self.is_const(v):
            arr = np.asarray(self.consts[v])
            value = arr.reshape(-1)[0].item() if arr.size == 1 else None
        else:
            raise self.err(o, f"'{key}' of {o.op} '{o.result}' must be a constant, got the variable '{v}'")
        if isinstance(value, (np.generic, np.ndarray)) and np.size(value) == 1:
            value = np.asarray(value).reshape(-1)[0].item()
        if not isinstance(value, (bool, int, float)):
            raise self.err(o, f"'{key}' of {o.op} '{o.result}' must be one number or bool")
        return value

    def arg(self, o: _Op, key: str) -> str:
        v = o.args.get(key)
        if not isinstance(v, str):
            raise self.err(o, f"{o.op} '{o.result}' needs '{key}' as a variable or constant name")
        return v

    # -- 0. declared shapes ---------------------------------------------------------------------------------------------
    def check_declared(self) -> None:
        """Every input and result the plan sizes buffers from must have known, positive dimensions
        (a '?' or 0 would be taken as 1 and the plan would disagree with the program) and a float
        dtype (every program computes in fp16)."""
        named = [(f"function input '{n}'", t, self.fn.input_lines.get(n, self.fn.line)) for n, t in self.fn.inputs]
        for what, t, line in named + [(f"'{o.result}'", o.type, o.line) for o in self.fn.ops]:
            if any(d <= 0 for d in t.shape or ()):
                raise PlanError(f"{self.file}:{line}: {what} is declared {t}; an ANE graph needs known, positive dimensions")
            if t.dtype not in FLOATS:
                raise PlanError(f"{self.file}:{line}: {what} is declared {t}; an ANE graph computes in fp16 "
                                f"(declare {', '.join(FLOATS)})")

    def declared_count(self, name: str) -> int | None:
        """Values of a variable as the program declares it (None for names the plan made up)."""
        if name in self.shapes:
            return _count(self.shapes[name])
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
        taken = {n for n, _ in self.fn.inputs} | set(self.consts) | {o.result for o in ops}
        flat = []
        for o in ops:
            made = {"rms_norm": ("_rvec", "_xn"), "silu": ("_sig",), "conv": ("_nb",)}.get(o.op, ())
            for name in (o.result + m for m in made):
                if name in taken:  # the lowering would wire two values under one name
                    raise self.err(o, f"'{name}' is a name the lowering of {o.op} '{o.result}' needs; rename that variable")
            if o.op == "rms_norm":
                x = self.arg(o, "x")
                eps = float(self.scalar(o, "eps", 1e-5))
                w = o.args.get("w")
                fold = isinstance(w, str) and self.is_const(w)
                bc = {"x": x, "eps": _Lit(eps)}
                if fold:
                    bc["w"] = w
                flat.append(_Op("__rsqrt_bcast", f"{o.result}_rvec", o.shape, bc, o.line))
                if isinstance(w, str) and not fold:
                    flat.append(_Op("mul", f"{o.result}_xn", o.shape, {"x": x, "y": f"{o.result}_rvec"}, o.line))
                    flat.append(_Op("mul", o.result, o.shape, {"x": f"{o.result}_xn", "y": w}, o.line))
                else:
                    flat.append(_Op("mul", o.result, o.shape, {"x": x, "y": f"{o.result}_rvec"}, o.line))
            elif o.op == "silu":
                x = self.arg(o, "x")
                flat.append(_Op("sigmoid", f"{o.result}_sig", o.shape, {"x": x}, o.line))
                flat.append(_Op("mul", o.result, o.shape, {"x": x, "y": f"{o.result}_sig"}, o.line))
            elif o.op == "conv" and "bias" in o.args:
                args = {k: v for k, v in o.args.items() if k != "bias"}
                flat.append(_Op("conv", f"{o.result}_nb", o.shape, args, o.line))
                flat.append(_Op("add", o.result, o.shape, {"x": f"{o.result}_nb", "y": o.args["bias"]}, o.line))
            else:
                flat.append(o)
        return flat

    # -- 2. fusion ------------------------------------------------------------------------------------------------------
    def weight(self, o: _Op):
        name = o.args.get("weight", o.args.get("y"))
        if not self.is_const(name):
            raise self.err(o, f"{o.op} '{o.result}' needs a constant weight")
        return self.const_f16(name)

    def fuse(self, flat: list[_Op]) -> list[_Op]:
        outs = set(self.fn.outputs)
        uses: dict[str, int] = {}
        for o in flat:
            for v in o.args.values():
                if isinstance(v, str):
                    uses[v] = uses.get(v, 0) + 1

        def is_1x1(o) -> bool:
            s = o.shape
            return (len(s) == 4 and s[0] == 1 and s[2] == 1 and s[3] == 1 and s[1] >= 32
                    and self.is_const(o.args.get("weight")))

        fused, i = [], 0
        while i < len(flat):
            o = flat[i]
            if o.op == "conv" and o.shape == [1, 64, 1, 1] and o.result not in outs and self._weight_elems(o) == 64 * 64:
                nxt = flat[i + 1] if i + 1 < len(flat) else None
                third = flat[i + 2] if i + 2 < len(flat) else None
                if (
                    nxt is not None and third is not None and nxt.op == "sigmoid" and nxt.args.get("x") == o.result
                    and nxt.result not in outs and uses.get(o.result) == 2 and uses.get(nxt.result) == 1
                    and third.op == "mul" and {third.args.get("x"), third.args.get("y")} == {o.result, nxt.result}
                ):
                    fused.append(_Op("__conv_act", third.result, [1, 64, 1, 1],
                                     {"x": o.args.get("x"), "weight": o.args.get("weight"), "act": _Lit("silu")}, o.line))
                    i += 3
                    continue
                if nxt is not None and nxt.op in ("sigmoid", "tanh", "relu", "gelu") and nxt.args.get("x") == o.result and uses.get(o.result) == 1:
                    fused.append(_Op("__conv_act", nxt.result, [1, 64, 1, 1],
                                     {"x": o.args.get("x"), "weight": o.args.get("weight"), "act": _Lit(nxt.op)}, o.line))
                    i += 2
                    continue
            if o.op == "conv" and is_1x1(o) and o.result not in outs and uses.get(o.result) == 1:
                end = i + 1
                while end < len(flat) and flat[end].op == "conv" and is_1x1(flat[end]) and flat[end].args.get("x") == flat[end - 1].result:
                    res = flat[end].result
                    end += 1
                    if res in outs or uses.get(res) != 1:
                        break  # the chain ends with the first conv whose result is needed elsewhere
                if end - i >= 2:
                    args = {"x": o.args.get("x")}
                    for k, c in enumerate(flat[i:end]):
                        args[f"w{k}"] = c.args.get("weight")
                        args[f"c{k}"] = _Lit(c.shape[1])
                    fused.append(_Op("__conv_chain", flat[end - 1].result, flat[end - 1].shape, args, o.line))
                    i = end
                    continue
            fused.append(o)
            i += 1
        return fused

    def _weight_elems(self, o: _Op) -> int:
        name = o.args.get("weight")
        return int(np.asarray(self.consts[name]).size) if self.is_const(name) else -1

    # -- 3. routes ------------------------------------------------------------------------------------------------------
    def run(self) -> AnePlan:
        self.check_declared()
        flat = self.fuse(self.lower(_flat_ops(self.fn)))
        self.shapes = dict(self.input_shapes)
        for o in flat:
            self.shapes[o.result] = o.shape
        self.nodes: list = []
        self.created: list[int] = []
        self.prod: dict[str, tuple[int, Cur]] = {}
        self.wants: list[tuple[int, list[tuple[str, Cur]], _Op]] = []
        for o in flat:
            self.route(o)
        return self.bind()

    def add_node(self, o: _Op, route: str, attrs: dict, ins: list[tuple[str, Cur]], out: Cur, weights=None, **kw) -> int:
        """A program; what it reads and writes must be what the program declares, value for value."""
        for name, cur in ins:
            self.same_count(o, name, cur.elems, str(cur))
        if _count(o.shape) != out.elems:
            raise self.err(o, f"{o.op} '{o.result}' is declared with shape {o.shape} ({_count(o.shape)} values), but its "
                              f"inputs make {out} ({out.elems} values)")
        idx = len(self.nodes)
        self.nodes.append(ProgNode(o.result, route, attrs, [c for _, c in ins], out, weights or {}, line=o.line, **kw))
        self.created.append(idx)
        self.prod[o.result] = (idx, out)
        self.wants.append((idx, ins, o))
        return idx

    def route(self, o: _Op) -> None:
        elems = 1
        for d in o.shape:
            elems *= max(int(d), 1)
        op = o.op
        if op == "__rsqrt_bcast":
            src = self.arg(o, "x")
            self.same_count(o, src, elems, "the rms_norm input")
            bind = Bind(node=self.prod[src][0]) if src in self.prod else Bind(ext=src)
            gamma = self.const_f16(o.args["w"]).reshape(-1) if "w" in o.args else None
            if gamma is not None and gamma.size != elems:
                raise self.err(o, f"rms_norm of '{src}' has {elems} values but its gamma '{o.args['w']}' has {gamma.size}")
            self.nodes.append(HostNode(o.result, bind, o.result, elems, float(o.args["eps"].value), gamma, o.line))
            self.created.append(len(self.nodes) - 1)
            return  # the vector is an external of its consumers
        if op in ("add", "sub", "mul", "minimum", "maximum"):
            x, y = self.arg(o, "x"), self.arg(o, "y")
            if op == "add" and len(o.shape) == 4 and o.shape[1] > 1 and o.shape[3] > 1:
                t, d = o.shape[1], o.shape[3]  # packed 4-D add, in place: the KV-cache / weight-update accumulator
                self.add_node(o, "add4d", {"t": t, "d": d}, [(x, Cur.packed(t, d)), (y, Cur.packed(t, d))], Cur.packed(t, d),
                              alias=[(0, 0)], zero=[0])
                return
            ew = {"add": "add", "sub": "sub", "mul": "mul", "minimum": "min", "maximum": "max"}[op]
            self.add_node(o, "ew", {"op": ew, "n": elems}, [(x, Cur.strided(elems)), (y, Cur.strided(elems))], Cur.strided(elems))
            return
        if op in ("sigmoid", "tanh", "relu"):
            x = self.arg(o, "x")
            if op == "relu" and elems != 64:
                raise self.err(o, f"relu '{o.result}' on {elems} elements is off route (the ANE relu program takes exactly 64 channels)")
            self.add_node(o, "relu" if op == "relu" else "lut", {"fn": op, "n": elems}, [(x, Cur.strided(elems))], Cur.strided(elems))
            return
        if op == "softmax":
            x = self.arg(o, "x")
            axis = self.scalar(o, "axis", -1)
            t = max(int(o.shape[1]) if len(o.shape) > 1 else 1, 1)
            if axis == 1 and t > 1:
                self.add_node(o, "softmax_ch", {"t": t}, [(x, Cur.strided(t))], Cur.strided(t))
            else:
                self.add_node(o, "softmax", {"n": elems}, [(x, Cur.contig(elems))], Cur.contig(elems))
            return
        if op == "transpose":
            x = self.arg(o, "x")
            self.add_node(o, "repack", {"n": elems}, [(x, Cur.strided(elems))], Cur.contig(elems))
            return
        if op in ("reshape", "cast"):
            x = self.arg(o, "x")
            self.same_count(o, x, elems, str(o.shape))
            if x in self.prod:
                self.prod[o.result] = self.prod[x]  # pass-through: same bytes, new name
            else:
                self.add_node(o, "repack", {"n": elems}, [(x, Cur.strided(elems))], Cur.contig(elems))
            return
        if op == "__conv_act":
            x = self.arg(o, "x")
            w = self.weight(o).reshape(64, 64)
            self.add_node(o, "conv_act", {"act": o.args["act"].value, "cin": 64, "cout": 64}, [(x, Cur.strided(64))], Cur.strided(64), {"w": w})
            return
        if op == "__conv_chain":
            x = self.arg(o, "x")
            k = (len(o.args) - 1) // 2
            shapes, weights = [], {}
            for i in range(k):
                cout = int(o.args[f"c{i}"].value)
                w = self.const_f16(o.args[f"w{i}"])
                cin = w.size // cout
                if w.size % cout or (shapes and cin != shapes[-1][1]):
                    want = f"{shapes[-1][1]} x {cout}" if shapes else f"a multiple of {cout}"
                    raise self.err(o, f"conv {i} of the 1x1 conv chain ending in '{o.result}' has a {w.size}-element "
                                      f"weight '{o.args[f'w{i}']}'; it needs {want}")
                shapes.append([cin, cout])
                weights[f"w{i}"] = w.reshape(cout, cin)
            self.add_node(o, "conv_chain", {"shapes": shapes}, [(x, Cur.strided(shapes[0][0]))], Cur.strided(shapes[-1][1]), weights)
            return
        if op == "conv":
            x = self.arg(o, "x")
            w = self.weight(o)
            cout = max(int(o.shape[1]) if len(o.shape) > 1 else 0, 1)
            spatial = max(int(o.shape[2]), 1) * max(int(o.shape[3]), 1) if len(o.shape) == 4 else 1
            if cout < 32 or w.size % cout or w.size // cout < 32:
                raise self.err(o, f"conv '{o.result}' {o.shape} with a {w.size}-element weight is off route "
                                  "(the ANE conv program is 1x1 with at least 32 input and output channels)")
            cin = w.size // cout
            self.add_node(o, "conv1x1", {"cin": cin, "cout": cout, "spatial": spatial},
                          [(x, Cur.strided(cin * spatial))], Cur.strided(cout * spatial), {"w": w.reshape(cout, cin)})
            return
        if op == "matmul":
            self.route_matmul(o)
            return
        raise self.err(o, f"op '{op}' ('{o.result}', shape {o.shape}) is not on an ANE graph route; routes: add/sub/mul/minimum/maximum, "
                          "sigmoid/tanh/relu, softmax, transpose, reshape/cast, conv (1x1), matmul, rms_norm, silu")

    def route_matmul(self, o: _Op) -> None:
        x, y = self.arg(o, "x"), self.arg(o, "y")
        tx, ty = bool(self.scalar(o, "transpose_x", False)), bool(self.scalar(o, "transpose_y", False))
        xs, ys = self.shapes.get(x, []), self.shapes.get(y, [])
        if self.is_const(y):
            w = self.const_f16(y)
            m = int(o.shape[1]) if len(o.shape) > 1 else 0
            n = int(o.shape[3]) if len(o.shape) > 3 else 0
            if ty and n >= 32 and w.size % n == 0:
                k = w.size // n
                seq = max(int(xs[0]), 1) if len(xs) == 2 else max(int(xs[2]) if len(xs) > 2 else 1, 1)
                have = self.prod.get(x)
                x_strided = have[1].kind == "strided" if have else (len(xs) > 1 and xs[1] > 1)
                w = w.reshape(n, k)
                if x_strided or (seq > 1 and m != 1):
                    self.add_node(o, "conv1x1", {"cin": k, "cout": n, "spatial": seq}, [(x, Cur.strided(k * seq))], Cur.strided(n * seq), {"w": w})
                else:
                    self.add_node(o, "matvec", {"k": k, "n": n}, [(x, Cur.contig(k))], Cur.strided(n), {"w": w})
                return
            raise self.err(o, f"matmul '{o.result}' with constant y (x {xs} -> {o.shape}, transpose_y={ty}) is off route "
                              "(needs transpose_y = true and at least 32 outputs)")
        wide_y = sum(1 for d in ys[1:] if d > 1)
        xt = max(int(xs[1]) if len(xs) > 1 else 1, int(xs[2]) if len(xs) > 2 else 1, 1)
        if tx and len(xs) == 4 and len(ys) == 4 and wide_y == 1:
            t, d = xt, max(int(ys[1]), int(ys[3]), 1)  # outer product: strided one-hot rows x a vector
            self.add_node(o, "outer", {"t": t, "d": d}, [(x, Cur.strided(t)), (y, Cur.contig(d))], Cur.packed(t, d))
            return
        if tx and len(xs) == 4 and len(ys) == 4 and wide_y == 2:
            t, d = xt, int(ys[3])  # attn.V: strided scores x packed rows
            self.add_node(o, "attn_v", {"t": t, "d": d}, [(x, Cur.strided(t)), (y, Cur.packed(t, d))], Cur.contig(d))
            return
        if (ty and len(xs) == 4 and len(ys) == 4 and ys[0] == 1 and ys[1] > 1 and ys[2] == 1 and ys[3] > 1
                and sum(1 for d in xs[1:] if d > 1) == 1 and max(xs[1], xs[3]) == ys[3]):
            r, k = max(int(ys[1]), 1), max(int(ys[3]), 1)  # broadcast matvec: a vector x matrix rows
            self.add_node(o, "avw", {"r": r, "k": k}, [(x, Cur.contig(k)), (y, Cur.packed(r, k))], Cur.strided(r))
            return
        raise self.err(o, f"matmul '{o.result}' x {xs} y {ys} (transpose_x={tx}, transpose_y={ty}) is not on an ANE route; "
                          "routes: constant-weight matvec / 1x1 conv (transpose_y), broadcast matvec [1,1,1,K] x [1,R,1,K] "
                          "(transpose_y), attn.V and outer product (transpose_x)")

    # -- 4. bindings and adapters ---------------------------------------------------------------------------------------
    def bind(self) -> AnePlan:
        pre: dict[int, list[int]] = {}
        adapters: dict[tuple[int, Cur], int] = {}
        ext_uses: dict[str, list[tuple[int, int]]] = {}
        ext_curs: dict[str, Cur] = {}
        const_fills: dict = {}
        for nidx, ins, o in self.wants:
            binds = []
            for port, (name, want) in enumerate(ins):
                if name in self.prod:
                    pn, have = self.prod[name]
                    src = pn
                    if have != want:
                        src = adapters.get((pn, want))
                        if src is None:
                            src = self.adapter(o, name, pn, have, want)
                            pre.setdefault(nidx, []).append(src)
                            adapters[(pn, want)] = src
                    binds.append(Bind(node=src))
                    continue
                if self.is_const(name):
                    const_fills[name] = self.const_f16(name).reshape(-1)
                elif name not in self.input_shapes and not any(isinstance(n, HostNode) and n.ext == name for n in self.nodes):
                    raise self.err(o, f"'{name}' read by '{o.result}' is neither a function input, a constant nor a result")
                prev = ext_curs.setdefault(name, want)
                if prev != want:
                    raise self.err(o, f"'{name}' is read as {prev} by one program and as {want} by '{o.result}'; "
                                      "an external has one layout")
                ext_uses.setdefault(name, []).append((nidx, port))
                binds.append(Bind(ext=name))
            self.nodes[nidx].binds = binds
        order: list[int] = []
        for idx in self.created:
            order += pre.get(idx, [])
            order.append(idx)
        outputs = {}
        for name in self.fn.outputs:
            if name not in self.prod:
                raise self.err(None, f"function output '{name}' is not produced by any program")
            outputs[name] = self.prod[name][0]
        self.check_buffers(ext_curs)
        inputs = [(n, list(t.shape or ()), t.dtype) for n, t in self.fn.inputs]
        shapes = {name: list(self.shapes.get(name, [])) for name in outputs}
        return AnePlan(self.nodes, order, ext_uses, const_fills, outputs, inputs, ext_curs, shapes)

    def check_buffers(self, ext_curs: dict) -> None:
        """Every buffer the runtime will allocate, in its physical layout, within limits.max_elements."""
        lim = self.limits.max_elements
        for node in self.nodes:
            for cur in (*node.ins, node.out) if isinstance(node, ProgNode) else ():
                if cur.buffer_elems > lim:
                    where = f"{self.file}:{node.line}: " if node.line else f"{self.file}: "
                    raise PlanError(where + str(over(f"the buffer of {cur} in program '{node.name}'", f"{cur.buffer_elems} fp16 values",
                                                     "max_elements", lim)))
        for name, cur in ext_curs.items():
            if cur.buffer_elems > lim:
                raise PlanError(f"{self.file}: " + str(over(f"the buffer of input '{name}' ({cur})", f"{cur.buffer_elems} fp16 values",
                                                              "max_elements", lim)))

    def adapter(self, o: _Op, name: str, pn: int, have: Cur, want: Cur) -> int:
        idx = len(self.nodes)
        if have.kind == "strided" and want.kind == "contig" and have.a == want.a:
            node = ProgNode(f"{name}_rp", "repack", {"n": have.a}, [have], want, line=o.line)
        elif have.kind == "contig" and want.kind == "strided" and have.a == want.a:
            self.spend(o, have.a * have.a * 2, f"of the {have} -> {want} adapter of '{name}'")  # before np.eye: n² values
            eye = np.eye(have.a, dtype=np.float16)  # identity matmul: contig in, strided out
            node = ProgNode(f"{name}_unrp", "matvec", {"k": have.a, "n": have.a}, [have], want, {"w": eye}, line=o.line)
        else:
            raise self.err(o, f"'{o.result}' wants '{name}' as {want} but it is produced as {have}; no adapter converts these")
        node.binds = [Bind(node=pn)]
        self.nodes.append(node)
        return idx
