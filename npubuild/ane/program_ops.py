"""Each program node as a MIL function: named constants, then ops whose arguments
all name a function input, a constant or an earlier op, each with the type
coremltools' type inference gives it (``coremltools/converters/mil/mil/ops/defs``:
``iOS15/elementwise_binary.py`` broadcasting, ``iOS15/linear.py`` matmul,
``iOS15/conv.py``, ``iOS15/tensor_transformation.py`` reshape and transpose,
``iOS15/elementwise_unary.py`` cast, ``iOS18/compression.py``
constexpr_blockwise_shift_scale). :mod:`.programs` renders it as ``program(1.3)``
text; the same description can be replayed with coremltools' MIL builder, which
is how the tests check every declared type.

Every program reads ``in0, in1, ..`` in its currencies' 4-D shapes and returns
``y``; inside it a ``reshape`` turns a currency's shape into the shape the op
works on (a conv's real ``[1, C, H, W]``, a matmul's ``[1, 1, 1, K]`` row) and
back, so the op sees the values in MIL's row-major order. Convs pass all five
parameters (strides, pad_type, pad, dilations, groups), matmuls both
transposes, as public ``program(1.3)`` samples do; a compressed weight stays its constexpr op: a
``constexpr_blockwise_shift_scale`` of its int data and fp16 scale, a ``constexpr_lut_to_dense`` of its
uint<n> indices and fp16 palettes, a ``constexpr_sparse_to_dense`` of its uint1 mask and fp16 values.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ops.lazy_numpy import np
from . import numerics as nm
from .plan_model import Packed, ProgNode


@dataclass
class Const:
    name: str
    dtype: str  # fp16 | int32 | bool | string | int8 | uint8 | ...
    shape: list | None  # None: a scalar
    value: object
    blob: bool = False  # stored in weights/weight.bin (else an inline literal)


@dataclass
class MilStep:
    result: str
    op: str
    args: dict  # argument -> the name of an input, constant or earlier result
    dtype: str
    shape: list


@dataclass
class NodeProgram:
    route: str
    inputs: list  # [(name, dtype, shape)]
    consts: list = field(default_factory=list)
    ops: list = field(default_factory=list)
    output: str = "y"

    def type_of(self, name: str) -> tuple:
        for n, d, s in self.inputs:
            if n == name:
                return d, s
        for c in self.consts:
            if c.name == name:
                return c.dtype, c.shape
        for o in self.ops:
            if o.result == name:
                return o.dtype, o.shape
        raise KeyError(name)


class _Builder:
    def __init__(self, node: ProgNode):
        self.node = node
        self.p = NodeProgram(node.route, [(f"in{i}", c.dtype, c.shape) for i, c in enumerate(node.ins)])
        self.scalars: dict = {}
        self.n = 0

    def fresh(self, tag: str) -> str:
        self.n += 1
        return f"{tag}_{self.n}"

    def const(self, name: str, dtype: str, shape, value, blob: bool = False) -> str:
        self.p.consts.append(Const(name, dtype, None if shape is None else [int(d) for d in shape], value, blob))
        return name

    def scalar(self, value, dtype: str = "fp16", tag: str | None = None) -> str:
        v = float(np.float16(value)) if dtype == "fp16" else value
        tag = tag or {"fp16": "c", "bool": "bool_" + str(v).lower(), "int32": "i", "string": "s"}[dtype]
        key = (tag, dtype, v)
        if key not in self.scalars:
            self.scalars[key] = self.const(self.fresh(tag) if dtype == "fp16" else self.unique(tag), dtype, None, v)
        return self.scalars[key]

    def unique(self, tag: str) -> str:
        taken = {c.name for c in self.p.consts}
        return tag if tag not in taken else self.fresh(tag)

    def ints(self, tag: str, values) -> str:
        values = [int(v) for v in values]
        key = (tag, "ints", tuple(values))
        if key not in self.scalars:
            self.scalars[key] = self.const(self.unique(tag), "int32", [len(values)], values)
        return self.scalars[key]

    def weight(self, name: str, shape) -> str:
        """A weight of the node, as the program declares it (``shape``): a BLOBFILE constant, or
        the constexpr of its compressed blobs."""
        pk: Packed | None = self.node.packed.get(name)
        if pk is None:
            value = np.asarray(self.node.weights[name], dtype=np.float16).reshape(shape)
            return self.const(name, "fp16", shape, value, blob=True)
        extra = [1] * (len(shape) - np.ndim(pk.data))  # a conv's [C_out, C_in] gains its 1x1 kernel axes
        if pk.kind == "lut":  # iOS18 constexpr_lut_to_dense: the indices in the weight's shape, a palette per block
            idx = self.const(f"{name}_indices", pk.dtype, [*np.shape(pk.data), *extra], np.asarray(pk.data).reshape(*np.shape(pk.data), *extra), True)
            lut = np.asarray(pk.scale, np.float16)
            lut = lut.reshape(*lut.shape[:-2], *extra, *lut.shape[-2:])
            return self.op("constexpr_lut_to_dense", list(shape), "fp16", name, indices=idx,
                           lut=self.const(f"{name}_lut", "fp16", list(lut.shape), lut, True))
        if pk.kind == "sparse":  # iOS18 constexpr_sparse_to_dense: a uint1 mask in the weight's shape, the set values
            mask = self.const(f"{name}_mask", "uint1", [*np.shape(pk.data), *extra], np.asarray(pk.data).reshape(*np.shape(pk.data), *extra), True)
            nz = np.asarray(pk.scale, np.float16).reshape(-1)
            return self.op("constexpr_sparse_to_dense", list(shape), "fp16", name, mask=mask,
                           nonzero_data=self.const(f"{name}_nonzero", "fp16", [nz.size], nz, True))
        data = self.const(f"{name}_data", pk.dtype, [*np.shape(pk.data), *extra], np.asarray(pk.data).reshape(*np.shape(pk.data), *extra), True)
        scale = self.const(f"{name}_scale", "fp16", [*np.shape(pk.scale), *extra],
                           np.asarray(pk.scale, np.float16).reshape(*np.shape(pk.scale), *extra), True)
        args = {"data": data, "scale": scale}
        if pk.offset is not None:
            off = np.asarray(pk.offset).reshape(*np.shape(pk.offset), *extra)
            odt = pk.dtype if off.dtype.kind in "iu" else "fp16"
            args["offset"] = self.const(f"{name}_offset", odt, list(off.shape), off, True)
        return self.op("constexpr_blockwise_shift_scale", list(shape), "fp16", name, **args)

    def op(self, op_: str, shape_, dtype_: str = "fp16", name_: str | None = None, **args) -> str:
        """An op; its arguments are MIL's (``shape``, ``dtype``, ... may be among them)."""
        name = name_ or self.fresh(op_)
        self.p.ops.append(MilStep(name, op_, dict(sorted(args.items())), dtype_, [int(d) for d in shape_]))
        return name

    def reshape(self, x: str, have, want, name: str | None = None) -> str:
        if list(have) == list(want) and name is None:
            return x
        return self.op("reshape", want, self.p.type_of(x)[0], name, shape=self.ints("shape", want), x=x)

    def finish(self, y: str) -> NodeProgram:
        """Make ``y`` the output ``y``, in the output currency's shape."""
        shape = self.p.type_of(y)[1]
        if list(shape) != self.node.out.shape or not self.p.ops or self.p.ops[-1].result != y:
            self.reshape(y, shape, self.node.out.shape, name="y")
        else:
            self.p.ops[-1].result = "y"
        return self.p

    # -- activations --------------------------------------------------------------------------------------------------
    def act(self, fn: str, x: str, shape, mode: str | None = None) -> str:
        if fn in ("sigmoid", "tanh", "relu"):
            return self.op(fn, shape, x=x)
        if fn == "silu":  # x sigmoid(x): the plan's spelling of MIL's silu
            return self.op("mul", shape, x=x, y=self.op("sigmoid", shape, x=x))
        if fn == "gelu":
            return self.gelu(x, shape, mode or "EXACT")
        raise ValueError(fn)

    def gelu(self, x: str, shape, mode: str) -> str:
        """gelu without a gelu op (npubuild/ane/numerics.py says why and which form)."""
        mul = lambda a, b: self.op("mul", shape, x=a, y=b)  # noqa: E731
        add = lambda a, b: self.op("add", shape, x=a, y=b)  # noqa: E731
        c = self.scalar
        if mode == "SIGMOID_APPROXIMATION":
            return mul(x, self.op("sigmoid", shape, x=mul(x, c(nm.SIGMOID_C))))
        if mode == "TANH_APPROXIMATION":
            cube = mul(mul(x, x), x)
            inner = mul(add(x, mul(cube, c(nm.TANH_C))), c(nm.SQRT_2_OVER_PI))
            return mul(mul(x, c(0.5)), add(self.op("tanh", shape, x=inner), c(1.0)))
        # EXACT: relu(x) - |x| q(|x|), q from Abramowitz & Stegun 7.1.26 (no erf op)
        a = self.op("abs", shape, x=x)
        t = self.op("real_div", shape, x=c(1.0), y=add(mul(a, c(nm.AS_P * nm.INV_SQRT2)), c(1.0)))
        poly = mul(t, c(nm.AS_A[4]))
        for coef in reversed(nm.AS_A[:4]):
            poly = mul(add(poly, c(coef)), t)
        tail = mul(mul(poly, self.op("exp", shape, x=mul(mul(x, x), c(-0.5)))), c(0.5))
        return self.op("sub", shape, x=self.op("relu", shape, x=x), y=mul(a, tail))

    def conv(self, x: str, w: str, shape, bias: str | None = None) -> str:
        extra = {"bias": bias} if bias else {}
        return self.op("conv", shape, x=x, weight=w, strides=self.ints("strides", [1, 1]),
                       pad_type=self.scalar("valid", "string", "pad_type"), pad=self.ints("pad", [0, 0, 0, 0]),
                       dilations=self.ints("dilations", [1, 1]), groups=self.scalar(1, "int32", "groups"), **extra)

    def bias(self) -> str | None:
        """The node's fused bias (one value per output channel) as a blob constant, or None."""
        return self.weight("b", [int(np.size(self.node.weights["b"]))]) if "b" in self.node.weights else None

    def tail(self, x: str, shape) -> str:
        """The node's fused activation (attrs ``act``, ``mode``) on ``x``, when it has one."""
        act = self.node.attrs.get("act")
        return self.act(act, x, shape, self.node.attrs.get("mode")) if act else x

    def matmul(self, x: str, y: str, shape, tx: bool = False, ty: bool = False) -> str:
        return self.op("matmul", shape, x=x, y=y, transpose_x=self.scalar(tx, "bool"), transpose_y=self.scalar(ty, "bool"))


def node_ops(node: ProgNode) -> NodeProgram:
    """The MIL function of one program node."""
    b = _Builder(node)
    r, a = node.route, node.attrs
    ins = [f"in{i}" for i in range(len(node.ins))]
    shp = [c.shape for c in node.ins]
    if r in ("ew", "add4d"):
        shape = a["shape"]
        refs = {}
        for key in ("x", "y"):
            ref = a[key]
            refs[key] = ins[int(ref[2:])] if ref.startswith("in") else b.weight(ref, np.shape(node.weights[ref]))
        return b.finish(b.op(a["op"], shape, **refs))
    if r in ("lut", "relu"):
        return b.finish(b.act(a["fn"], ins[0], shp[0]))
    if r == "gelu":
        return b.finish(b.gelu(ins[0], shp[0], a["mode"]))
    if r == "softmax":
        return b.finish(b.op("softmax", shp[0], x=ins[0], axis=b.scalar(a["axis"], "int32", "axis")))
    if r == "transpose":
        x = b.reshape(ins[0], shp[0], a["in_shape"])
        return b.finish(b.op("transpose", a["out_shape"], b.p.type_of(x)[0], x=x, perm=b.ints("perm", a["perm"])))
    if r == "cast":
        return b.finish(b.op("cast", shp[0], a["dtype"], x=ins[0], dtype=b.scalar(a["dtype"], "string", "dtype")))
    if r in ("conv1x1", "conv_act", "conv_chain"):
        h, w = a["h"], a["w"]
        chain = a["shapes"] if r == "conv_chain" else [[a["cin"], a["cout"]]]
        x = b.reshape(ins[0], shp[0], [1, chain[0][0], h, w])
        for k, (cin, cout) in enumerate(chain):
            key = f"w{k}" if r == "conv_chain" else "w"
            x = b.conv(x, b.weight(key, [cout, cin, 1, 1]), [1, cout, h, w], None if r == "conv_chain" else b.bias())
        return b.finish(b.tail(x, [1, chain[-1][1], h, w]))
    if r in ("matvec", "linear"):
        rows, k, n = a.get("rows", 1), a["k"], a["n"]
        x = b.reshape(ins[0], shp[0], [1, rows, 1, k] if rows > 1 else [1, 1, 1, k])
        out = [1, rows, 1, n] if rows > 1 else [1, 1, 1, n]
        w, bias = b.weight("w", [n, k]), b.bias()
        # with a fused bias MIL's linear (iOS17/linear.py: x @ weight^T + bias), else matmul by the transposed weight
        y = b.op("linear", out, x=x, weight=w, bias=bias) if bias else b.matmul(x, w, out, ty=True)
        return b.finish(b.tail(y, out))
    if r == "avw":
        v = b.reshape(ins[0], shp[0], [1, 1, 1, a["k"]])
        m = b.reshape(ins[1], shp[1], [1, a["r"], 1, a["k"]])
        return b.finish(b.matmul(v, m, [1, a["r"], 1, 1], ty=True))  # the batch axes broadcast [1, 1] with [1, r]
    if r == "attn_v":
        v = b.reshape(ins[0], shp[0], [1, 1, 1, a["t"]])
        m = b.reshape(ins[1], shp[1], [1, 1, a["t"], a["d"]])
        return b.finish(b.matmul(v, m, [1, 1, 1, a["d"]]))
    if r == "outer":
        u = b.reshape(ins[0], shp[0], [1, a["t"], 1, 1])
        v = b.reshape(ins[1], shp[1], [1, 1, 1, a["d"]])
        return b.finish(b.matmul(u, v, [1, a["t"], 1, a["d"]]))  # K = 1: [1, t] batch times a [1, d] row
    raise ValueError(f"route '{r}' has no MIL program")
