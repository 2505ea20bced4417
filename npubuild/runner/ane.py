"""The ``ane`` backend: an ANE plan executed in fp16 on the host.

No Apple Neural Engine is reachable from here, so each node program is
evaluated with NumPy, in the physical layout of its currency:

* ``strided[n]``: an ``[n, 32]`` fp16 buffer, value ``i`` at ``[i, 0]`` (one
  value per 64-byte channel plane, the rest of the plane zero);
* ``contig[n]``: ``n`` packed fp16 values;
* ``packed[t x d]``: a ``[t, d]`` fp16 buffer.

Everything else is the reference design's runtime: one buffer per node
output, shared by its consumers without copies; in-place aliases, only onto
the buffer of a state the program declares (iOS18 ``state<tensor<...>>``: the
output of a packed ``add`` of ``read_state(s)`` that the program writes back
into ``s``: KV-cache accumulation and weight updates), never onto a plain
input, which nothing but :meth:`AneRuntime.write_ext` writes; a run with a
function input never written is an error naming it (Core ML's predict
refuses it too); :meth:`AneRuntime.reset_state` zeroes the states; host nodes
(the rsqrt broadcast of ``rms_norm``) and CPU nodes (ops the plan placed on the CPU: :func:`cpu_execute`,
run between programs on the same buffers); external inputs written with
:meth:`AneRuntime.write_ext`, queued until a consumer program is loaded and
materialises the buffer; lazy program loading under a residency budget where a
load that does not fit evicts the most recently run program other than the one
being loaded (in a DAG run over and over, the program that just ran is the one
needed furthest in the future) and retries.

Arithmetic: each program computes in float32 from its fp16 inputs and rounds
its output to fp16 once, so every node boundary is an fp16 rounding, as on the
ANE (a cast to fp32 rounds to fp32: fp32 buffers exist only at casts).
sigmoid/tanh use exact functions rather than the ANE's lookup tables; gelu
computes its mode as npubuild.ane.numerics defines it (EXACT without erf,
within 1.5e-7 of it). Every route computes its op's MIL semantics on the
values in row-major order, whatever the layout.

``accumulate`` (``[tool.npubuild] ane_accumulate``) chooses how sums are
formed: ``"fp32"`` (the default, above: the best case) or ``"fp16"``, the worst
case (:func:`dot16`, :func:`sum16`): every dot product of a matmul, conv,
linear or matvec route and softmax's denominator is a sequential sum in index
order (k = 0, 1, ..., K-1, from +0) of fp16-rounded terms, the running sum
rounded to fp16 after every add. A model of the least precise accumulator, not
a claim about the hardware (docs/ane.md, Numerics).
"""
from __future__ import annotations

import math

from ..ane.numerics import ACT, gelu
from ..ane.plan_model import PLANE
from ..core.errors import UserError
from ..ops.lazy_numpy import np


class NoAneResources(Exception):
    """A program load refused for lack of residency (the ANE's "no ANE resources")."""


def _np_dtype(cur):
    return np.float32 if cur.dtype == "fp32" else np.float16


def alloc(cur) -> "np.ndarray":
    dt = _np_dtype(cur)
    if cur.kind == "strided":
        return np.zeros((cur.a, PLANE if cur.dtype == "fp16" else PLANE // 2), dtype=dt)
    if cur.kind == "contig":
        return np.zeros(cur.a, dtype=dt)
    return np.zeros((cur.a, cur.b), dtype=dt)


def decode(buf, cur):
    """The logical values of a buffer as float32, flat in MIL's row-major order."""
    if cur.kind == "strided":
        return buf[:, 0].astype(np.float32)
    return buf.astype(np.float32).reshape(-1)


def encode(values, cur, buf) -> None:
    """Round ``values`` to the currency's dtype (fp16, or fp32 at a cast) into ``buf`` laid out in ``cur``."""
    v = np.asarray(values, dtype=np.float32).reshape(-1).astype(_np_dtype(cur))
    if cur.kind == "strided":
        buf[:, 0] = v
    else:
        buf[...] = v.reshape(buf.shape)


ACCUMULATES = ("fp32", "fp16")


def dot16(a, b):
    """``a @ b`` (2-D, or a 1-D vector on either side) accumulated in fp16: for each output, the products
    a[i, k] * b[k, j] (exact in float32 for fp16 operands) rounded to fp16 and added to a running fp16 sum in
    the order k = 0, 1, ..., K-1 starting from +0, the sum rounded to fp16 after every add."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    a2, b2 = (a[None, :] if a.ndim == 1 else a), (b[:, None] if b.ndim == 1 else b)
    acc = np.zeros((a2.shape[0], b2.shape[1]), np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(a2.shape[1]):
            p = (a2[:, k:k + 1] * b2[k:k + 1, :]).astype(np.float16)
            acc = (acc.astype(np.float32) + p.astype(np.float32)).astype(np.float16)
    out = acc.astype(np.float32)
    if b.ndim == 1:
        out = out[:, 0]
    return out[0] if a.ndim == 1 else out


def sum16(terms, axis: int):
    """The sum of ``terms`` along ``axis`` accumulated in fp16 as :func:`dot16` sums its products (keepdims)."""
    t = np.moveaxis(np.asarray(terms, np.float32), axis, 0).astype(np.float16)
    acc = np.zeros(t.shape[1:], np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(t.shape[0]):
            acc = (acc.astype(np.float32) + t[k].astype(np.float32)).astype(np.float16)
    return np.expand_dims(acc.astype(np.float32), axis)


def _mm(a, b, accumulate: str):
    return a @ b if accumulate == "fp32" else dot16(a, b)


EW = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "minimum": np.minimum, "maximum": np.maximum}


def _softmax(x, axis: int, accumulate: str = "fp32"):
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        if accumulate == "fp32":
            return e / e.sum(axis=axis, keepdims=True)
        return e / sum16(e, axis % x.ndim)


def _tail(y, attrs: dict):
    """A fused activation (attrs ``act``, ``mode``) on a conv's or matmul's sum, computed before the one rounding."""
    act = attrs.get("act")
    if not act:
        return y
    return gelu(y, attrs.get("mode") or "EXACT") if act == "gelu" else ACT[act](y)


def execute(node, ins: list, accumulate: str = "fp32"):
    """The float32 result of one program on its decoded (flat, row-major) inputs: the MIL
    semantics of the op the route stands for, its sums formed as ``accumulate`` says (module docstring)."""
    r, a, acc = node.route, node.attrs, accumulate
    w = {k: v.astype(np.float32) for k, v in node.weights.items()}
    if r in ("ew", "add4d"):
        shape = a["shape"]
        xy = [ins[int(a[k][2:])].reshape(shape) if a[k].startswith("in") else w[a[k]] for k in ("x", "y")]
        return EW[a["op"]](xy[0], xy[1]).reshape(-1)
    if r in ("lut", "relu"):
        return ACT[a["fn"]](ins[0])
    if r == "gelu":
        return gelu(ins[0], a["mode"])
    if r == "softmax":
        return _softmax(ins[0].reshape(a["shape"]), a["axis"], acc).reshape(-1)
    if r == "cast":
        return ins[0]
    if r == "transpose":
        return np.transpose(ins[0].reshape(a["in_shape"]), a["perm"]).reshape(-1)
    if r in ("conv_act", "conv1x1"):  # act(W x + b): one program, one rounding (the bias per output channel)
        y = _mm(w["w"], ins[0].reshape(a["cin"], a["h"] * a["w"]), acc)
        return _tail(y + w["b"][:, None] if "b" in w else y, a).reshape(-1)
    if r == "conv_chain":
        x = ins[0].reshape(a["shapes"][0][0], a["h"] * a["w"])
        for k in range(len(a["shapes"])):
            x = _mm(w[f"w{k}"], x, acc).astype(np.float16).astype(np.float32)  # each stage lands in fp16
        return x.reshape(-1)
    if r == "matvec":
        y = _mm(w["w"], ins[0], acc)
        return _tail(y + w["b"] if "b" in w else y, a)
    if r == "linear":
        y = _mm(ins[0].reshape(a["rows"], a["k"]), w["w"].T, acc)
        return _tail(y + w["b"][None, :] if "b" in w else y, a).reshape(-1)
    if r == "avw":
        return _mm(ins[1].reshape(a["r"], a["k"]), ins[0], acc)
    if r == "attn_v":
        return _mm(ins[0], ins[1].reshape(a["t"], a["d"]), acc)
    if r == "outer":
        return np.outer(ins[0], ins[1]).reshape(-1)
    raise UserError(f"program '{node.name}': unknown route '{r}'")


def cpu_execute(node, ins: list):
    """A CPU node's result (flat, row-major, float32 holding its MIL dtype's values) from its decoded inputs:
    the op's MIL semantics (npubuild.ane.cpu_ops) as Core ML's CPU fallback of an fp16 model computes it —
    fp16 operands read as fp16 and computed in float32 (or wider), the result rounded once to fp16; fp32, int
    and bool values keep their dtype (held in an fp32 buffer, exact for int32 up to 2^24)."""
    from ..ane.cpu_ops import Args, compute
    from ..ane.cpu_ops_tensor import NP_DTYPES

    a = node.attrs
    # the record's shapes must be the currencies' (which the record check bounds): an edited shape is one error,
    # not an allocation of its size (fill, reshape read the declared shape)
    if math.prod(a["shape"]) != node.out.elems or len(a["ports"]) != len(ins) or \
            any(math.prod(p["shape"]) != x.size for x, p in zip(ins, a["ports"])):
        raise UserError(f"CPU node '{node.name}' ({a['op']}): its shapes are not its currencies' ({node.out}); rebuild with `doit build`")
    vals = []
    for x, port in zip(ins, a["ports"]):
        v = x.reshape(port["shape"])
        vals.append(v if port["dtype"] in ("fp16", "fp32") else v.astype(NP_DTYPES[port["dtype"]]))

    def arg(spec):
        if "in" in spec:
            return vals[spec["in"]]
        if "tuple" in spec:
            return tuple(arg(s) for s in spec["tuple"])
        return np.asarray(spec["value"]) if isinstance(spec["value"], list) else spec["value"]

    args = Args({k: arg(spec) for k, spec in a["args"].items()})
    args.out_shape, args.out_dtype = list(a["shape"]), a["dtype"]
    res = np.asarray(compute(a["op"], args)[a["index"]])
    if res.size != node.out.elems:
        raise UserError(f"CPU node '{node.name}' ({a['op']}) computed {res.size} values, its result holds {node.out.elems}")
    if a["dtype"] == "fp16":
        return res.astype(np.float16).astype(np.float32).reshape(-1)  # one rounding, straight from the computed value
    return res.astype(NP_DTYPES[a["dtype"]]).astype(np.float32).reshape(-1)


class AneRuntime:
    """One ANE plan's buffers, resident programs and state."""

    def __init__(self, plan, budget: int | None = None, loader=None, accumulate: str = "fp32"):
        if accumulate not in ACCUMULATES:
            raise UserError(f"ane_accumulate must be {' or '.join(repr(v) for v in ACCUMULATES)}, got {accumulate!r}")
        self.plan = plan
        self.budget = budget
        self.accumulate = accumulate  # how programs sum: fp32 (best case) or fp16 (worst case)
        self._loader = loader or (lambda i: plan.nodes[i])  # what "loading" a program yields
        self.progs: dict[int, object] = {}
        self.lru: list[int] = []  # resident programs, least recently run first
        self.loads: list[int] = []  # every load, in order (tests, stats)
        self.evictions: list[int] = []
        self.bufs: dict[int, np.ndarray] = {}
        self.ext: dict[str, np.ndarray] = {}
        self.pending: dict[str, list] = {}
        self.declared = {n: (shape, dtype) for n, shape, dtype in [*plan.inputs, *getattr(plan, "states", [])]}
        self.states = [n for n, _, _ in getattr(plan, "states", [])]
        self.written: set[str] = set()  # function inputs and states written at least once
        self._check_aliases()
        for name, values in plan.const_fills.items():
            self.write_ext(name, values)

    def _check_aliases(self) -> None:
        """Only a declared state's buffer may be written by a program (a plan written before states were
        declared aliases plain inputs: refused, not run with hidden state)."""
        for i, node in enumerate(self.plan.nodes):
            for _, port in [*getattr(node, "alias", []), *((None, p) for p in getattr(node, "zero", []))]:
                b = node.binds[port] if 0 <= port < len(node.binds) else None
                if b is None or b.ext not in self.states:
                    what = f"'{b.ext}'" if b is not None and b.ext is not None else f"port {port}"
                    raise UserError(f"program '{node.name}' writes in place into {what}, which the program does not declare "
                                    "as a state (state<tensor<...>>); rebuild with `doit build`")

    # -- buffers -----------------------------------------------------------------------------------------------------
    def _ext_buffer(self, name: str):
        buf = self.ext.get(name)
        if buf is None:
            buf = self.ext[name] = alloc(self.plan.ext_curs[name])  # fresh: zero
            for values in self.pending.pop(name, []):
                encode(values, self.plan.ext_curs[name], buf)
        return buf

    def node_buffer(self, i: int):
        """Node ``i``'s output buffer (its input's buffer when aliased)."""
        node = self.plan.nodes[i]
        for out, port in getattr(node, "alias", []):
            if out == 0:
                return self.port_buffer(i, port)
        return self.bufs.get(i)

    def port_buffer(self, i: int, port: int):
        b = self.plan.nodes[i].binds[port]
        return self._ext_buffer(b.ext) if b.ext is not None else self.node_buffer(b.node)

    def write_ext(self, name: str, values) -> None:
        """Write an external input; queued until a consumer materialises its buffer."""
        if name in self.declared and name not in self.plan.ext_curs:  # declared but read by no program
            shape = self.declared[name][0]
            if np.asarray(values).size != int(np.prod(shape or [1])):
                raise UserError(f"input '{name}' holds {int(np.prod(shape or [1]))} values ({list(shape)}), got {np.asarray(values).size}")
            self.written.add(name)
            return
        if name not in self.plan.ext_curs:
            known = ", ".join(sorted(self.plan.ext_curs)) or "none"
            raise UserError(f"'{name}' is not an external input of this plan (externals: {known})")
        values = np.asarray(values, dtype=np.float32)
        cur = self.plan.ext_curs[name]
        if values.size != cur.elems:
            raise UserError(f"external '{name}' holds {cur.elems} values ({cur}), got {values.size}")
        if name in self.ext:
            encode(values, cur, self.ext[name])
        else:
            self.pending.setdefault(name, []).append(np.array(values))  # a copy: the caller's array is never kept
        if name in self.declared:
            self.written.add(name)

    def reset_state(self) -> None:
        """Zero every declared state (iOS18 ``state<tensor<...>>``) without unloading programs; plain inputs keep
        the values last written."""
        for name in self.states:
            self.pending.pop(name, None)
            if name in self.ext:
                self.ext[name][...] = 0

    def read_state(self, name: str):
        """A declared state's current values (flat, float32 from its fp16), as Core ML's ``MLState`` reads one."""
        if name not in self.states:
            raise UserError(f"'{name}' is not a state of this plan (states: {', '.join(self.states) or 'none'})")
        if name not in self.plan.ext_curs:  # read by no program: it keeps the zeros it starts with
            shape = self.declared[name][0]
            return np.zeros(int(np.prod(shape or [1])), np.float32)
        return decode(self._ext_buffer(name), self.plan.ext_curs[name]).reshape(-1).astype(np.float32)

    # -- residency ---------------------------------------------------------------------------------------------------
    def _load(self, i: int) -> None:
        if self.budget is not None and len(self.progs) >= self.budget:
            raise NoAneResources(f"program {i}: no ANE resources")
        self.progs[i] = self._loader(i)
        self.loads.append(i)
        node = self.plan.nodes[i]
        for port in range(len(node.binds)):
            self.port_buffer(i, port)  # materialise bound externals (applies pending writes)
        if not any(out == 0 for out, _ in node.alias) and i not in self.bufs:
            self.bufs[i] = alloc(node.out)

    def ensure(self, i: int) -> None:
        if i in self.progs:
            self._touch(i)
            return
        while True:
            try:
                self._load(i)
                self._touch(i)
                return
            except NoAneResources:
                victims = [v for v in self.lru if v != i]
                if not victims:
                    raise UserError(f"program '{self.plan.nodes[i].name}' cannot be loaded: the residency budget is {self.budget}") from None
                victim = victims[-1]  # the most recently run: its next use is furthest away
                self.lru.remove(victim)
                del self.progs[victim]
                self.evictions.append(victim)

    def _touch(self, i: int) -> None:
        if i in self.lru:
            self.lru.remove(i)
        self.lru.append(i)

    # -- running -----------------------------------------------------------------------------------------------------
    def missing_inputs(self) -> list[str]:
        """Function inputs (states aside: they start at zero) never written."""
        return [n for n, _, _ in self.plan.inputs if n not in self.written]

    def run(self) -> None:
        missing = self.missing_inputs()
        if missing:
            raise UserError(f"missing inputs: {', '.join(missing)} (write each with write_ext before run)")
        for i in self.plan.order:
            node = self.plan.nodes[i]
            if node.route == "host_rsqrt_broadcast":
                self._host_rsqrt(node)
                continue
            if node.route == "cpu":
                self._cpu(i, node)
                continue
            self.ensure(i)
            prog = self.progs[i]
            ins = [decode(self.port_buffer(i, p), c) for p, c in enumerate(prog.ins)]
            out = execute(prog, ins, self.accumulate)
            encode(out, prog.out, self.node_buffer(i))

    def _cpu(self, i: int, node) -> None:
        """A CPU node, between programs: it reads its operands' buffers in their currencies and writes its own."""
        ins = [decode(self.port_buffer(i, p), c) for p, c in enumerate(node.ins)]
        out = cpu_execute(node, ins)
        if i not in self.bufs:
            self.bufs[i] = alloc(node.out)
        encode(out, node.out, self.bufs[i])

    def _host_rsqrt(self, node) -> None:
        if node.src.ext is not None:
            buf, cur = self._ext_buffer(node.src.ext), self.plan.ext_curs[node.src.ext]
        else:
            buf, cur = self.node_buffer(node.src.node), self.plan.nodes[node.src.node].out
        x = decode(buf, cur).reshape(-1)[: node.n]
        r = np.float32(1.0) / np.sqrt(np.float32((x * x).sum() / node.n + node.eps))
        g = node.gamma.astype(np.float32) if node.gamma is not None else np.ones(node.n, np.float32)
        self.write_ext(node.ext, r * g)

    def output(self, name: str):
        """A function output's logical values (fp16; fp32 for the output of a cast to fp32)."""
        i = self.plan.outputs[name]
        node = self.plan.nodes[i]
        cur = node.out
        if node.route == "cpu" and node.attrs["dtype"] not in ("fp16", "fp32"):  # an int or bool result of a CPU node
            from ..ane.cpu_ops_tensor import NP_DTYPES

            return decode(self.node_buffer(i), cur).astype(NP_DTYPES[node.attrs["dtype"]])
        return decode(self.node_buffer(i), cur).astype(_np_dtype(cur))
