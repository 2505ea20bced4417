"""What an ANE plan is made of: currencies (physical layouts of fp16 or fp32 data),
bindings, program and host nodes, and the plan itself (:mod:`.plan` makes one,
:mod:`.programs` writes and reads it back, :mod:`npubuild.runner.ane` runs it).

A value's logical content is its MIL tensor in row-major order; every currency
holds those values in that order, so a MIL ``reshape`` (row-major by definition,
coremltools ``ops/defs/iOS15/tensor_transformation.py``) never moves data, only
the layout can change. :func:`natural` is the currency a MIL shape is held in.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core.errors import UserError
from .mil_model import MilBounds
from .mil_tokens import tokenize

PLANE = 32  # fp16 values per 64-byte channel plane: a strided[n] buffer holds n * PLANE
DTYPES = ("fp16", "fp32")  # what a program reads and writes; fp32 only at a cast


class PlanError(UserError):
    pass


@dataclass(frozen=True)
class PlanBounds(MilBounds):
    """MilBounds plus how the plan places ops no ANE route computes: on the CPU, or (``ane_strict``,
    ``[tool.npubuild] ane_strict = true``) nowhere: the route's refusal is the build's error."""

    ane_strict: bool = False
    # (author, version, license) the Core ML packages carry unless a graph's spec says (npubuild.ane.metadata);
    # () is npubuild's defaults. Part of the graph's key (npubuild.ane.build._meta_mark), never of a plan.
    package_meta: tuple = ()

    @classmethod
    def of(cls, config) -> "PlanBounds":
        meta = tuple(getattr(config, k) for k in ("ane_author", "ane_version", "ane_license") if hasattr(config, k))
        return cls(tuple(config.data_roots()), config.limits, config.max_artifact_size, bool(getattr(config, "ane_strict", False)),
                   meta if len(meta) == 3 else ())


class OffRoute(PlanError):
    """No ANE route computes the op as it is written: a placement on the CPU (or, with ane_strict, this
    error). ``why`` is the route's reason without the op's location, as the plan records it."""

    def __init__(self, message: str, why: str):
        super().__init__(message)
        self.why = why


@dataclass(frozen=True)
class Cur:
    kind: str  # strided | contig | packed
    a: int  # n, or t for packed
    b: int = 0  # d for packed
    dtype: str = "fp16"

    @staticmethod
    def strided(n: int, dtype: str = "fp16") -> "Cur":
        return Cur("strided", int(n), 0, dtype)

    @staticmethod
    def contig(n: int, dtype: str = "fp16") -> "Cur":
        return Cur("contig", int(n), 0, dtype)

    @staticmethod
    def packed(t: int, d: int, dtype: str = "fp16") -> "Cur":
        return Cur("packed", int(t), int(d), dtype)

    def with_dtype(self, dtype: str) -> "Cur":
        return Cur(self.kind, self.a, self.b, dtype)

    @property
    def elems(self) -> int:
        return self.a * self.b if self.kind == "packed" else self.a

    @property
    def buffer_elems(self) -> int:
        """Values of the buffer that holds it (a strided value takes a whole 64-byte plane)."""
        return self.a * (PLANE if self.dtype == "fp16" else PLANE // 2) if self.kind == "strided" else self.elems

    @property
    def shape(self) -> list[int]:
        """The 4-D MIL shape a program declares for a tensor in this currency."""
        if self.kind == "strided":
            return [1, self.a, 1, 1]
        if self.kind == "contig":
            return [1, 1, 1, self.a]
        return [1, self.a, 1, self.b]

    @property
    def mil_type(self) -> str:
        return f"tensor<{self.dtype}, [{', '.join(map(str, self.shape))}]>"

    def __str__(self) -> str:
        text = f"packed[{self.a}x{self.b}]" if self.kind == "packed" else f"{self.kind}[{self.a}]"
        return text if self.dtype == "fp16" else f"{text}:{self.dtype}"

    @staticmethod
    def parse(text: str) -> "Cur":
        body, _, dtype = text.partition(":")
        kind, _, rest = body.partition("[")
        dims = [int(d) for d in rest.rstrip("]").split("x")]
        return Cur(kind, dims[0], dims[1] if len(dims) > 1 else 0, dtype or "fp16")


def count(shape) -> int:
    return math.prod(int(d) for d in shape)


def broadcast(a: list, b: list) -> list | None:
    """NumPy broadcasting of two shapes (MIL's rule for element-wise binary ops and matmul's batch
    axes, coremltools ops/defs/_utils.py broadcast_shapes); None if they do not broadcast."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return out[::-1]


def natural(shape, dtype: str = "fp16") -> Cur:
    """The currency a MIL tensor of ``shape`` is held in: a tensor whose values all lie on its
    last axis is contig, one whose values lie on one other axis (a channel vector ``[1, n, 1,
    1]``, a column) strided, anything else ``packed[rows x last axis]`` (the ``[1, t, 1, d]``
    layout). The row-major order of the values is kept in each."""
    shape = [int(d) for d in shape]
    n = count(shape)
    if len(shape) == 4 and shape[0] == shape[2] == shape[3] == 1:
        return Cur.strided(n, dtype)
    last = shape[-1] if shape else 1
    if n == last:
        return Cur.contig(n, dtype)
    if sum(1 for d in shape if d > 1) == 1:
        return Cur.strided(n, dtype)
    return Cur.packed(n // last, last, dtype)


# ---- the op list the planner works on -----------------------------------------------------------------------------------


@dataclass
class Op:
    """One op of the function as the planner reads it (and the ops its lowering and fusion make)."""

    op: str
    result: str
    shape: list
    args: dict  # name -> variable name (str) or literal value (Lit)
    line: int | None = None
    dtype: str = "fp16"
    results: list | None = None  # every (name, shape, dtype) of an op with several results (split, topk, ...)


@dataclass(frozen=True)
class Lit:
    value: object


def flat_ops(fn) -> list[Op]:
    from .mil_model import Ref

    out = []
    for o in fn.ops:
        args = {k: (v.name if isinstance(v, Ref) else Lit(getattr(v, "value", v))) for k, v in o.args.items()}  # tuples stay whole
        results = [(n, list(t.shape or ()), t.dtype) for n, t in o.results] if len(o.results) > 1 else None
        out.append(Op(o.op, o.result, list(o.type.shape or ()), args, o.line, o.type.dtype, results))
    return out


# ---- names the plan makes ----------------------------------------------------------------------------------------------
# Lowering temporaries and adapters get names no MIL text can spell, so a user's `y_sig` beside
# `y = silu(a)` is a different value from the lowering's sigmoid: the separator is a character the
# reader's identifier rule (npubuild/ane/mil_tokens.py, [A-Za-z_][A-Za-z0-9_]*) never accepts.
TEMP_SEP = "%"


def is_mil_identifier(name: str) -> bool:
    """Whether ``name`` lexes as one MIL identifier, by the reader's own lexer."""
    try:
        toks = tokenize(name, "<name>")
    except UserError:
        return False
    return len(toks) == 2 and toks[0].kind == "ident" and toks[0].text == name


def temp_name(base: str, tag: str) -> str:
    name = f"{base}{TEMP_SEP}{tag}"
    if is_mil_identifier(name):  # the reader's identifier rule changed: the namespace would no longer be reserved
        raise AssertionError(f"plan temporary {name!r} is a MIL identifier; pick another TEMP_SEP")
    return name


assert not is_mil_identifier(f"y{TEMP_SEP}sig") and is_mil_identifier("y_sig")


@dataclass(frozen=True)
class Bind:
    """Where an input port reads: an external (function input, constant, host vector) or a node's output."""

    ext: str | None = None
    node: int | None = None

    def to_json(self):
        return {"ext": self.ext} if self.ext is not None else {"node": self.node}


@dataclass(frozen=True)
class Packed:
    """A weight kept compressed as one of the iOS18 constexpr ops (coremltools ``ops/defs/iOS18/compression.py``),
    by ``kind``: ``blockwise`` — ``constexpr_blockwise_shift_scale(data, scale, offset)``, ``data`` in ``dtype``
    (int8, uint8, int4, ...); ``lut`` — ``constexpr_lut_to_dense(indices = data, lut = scale)``, ``data`` the
    ``dtype`` (uint1..uint8) indices in the weight's shape, ``scale`` the palettes ``[*blocks, 2^n, 1]``; ``sparse``
    — ``constexpr_sparse_to_dense(nonzero_data = scale, mask = data)``, ``data`` the uint1 mask in the weight's
    shape, ``scale`` the fp16 values where it is set, in row-major order."""

    data: object
    scale: object
    offset: object = None
    dtype: str = "int8"
    kind: str = "blockwise"


@dataclass
class ProgNode:
    """A per-node ANE program (placement ``ane``)."""

    placement = "ane"
    reason = None

    name: str
    route: str
    attrs: dict
    ins: list  # wanted Cur per port
    out: Cur
    weights: dict = field(default_factory=dict)  # name -> fp16 array, as the emulation computes with it
    binds: list = field(default_factory=list)
    alias: list = field(default_factory=list)  # (out port, in port): the output rides the input's buffer (a declared state's only)
    zero: list = field(default_factory=list)  # input ports zeroed by reset_state (a declared state's only)
    line: int | None = None
    packed: dict = field(default_factory=dict)  # weight name -> Packed: how the program stores it


class HostNode:
    """A node the host computes (placement ``cpu``): no ANE program, no Core ML package of its own (the
    graph package keeps its op). :class:`RsqrtNode` and :class:`CpuNode` are the two kinds."""

    placement = "cpu"


RSQRT_REASON = "rms_norm's rsqrt(mean(x²) + eps), broadcast: the reference design computes it on the host"


@dataclass
class RsqrtNode(HostNode):
    """``rsqrt(mean(src²) + eps)`` (times gamma), broadcast into the external ``ext``."""

    name: str
    src: Bind
    ext: str
    n: int
    eps: float
    gamma: object = None  # fp16 array or None
    line: int | None = None
    route: str = "host_rsqrt_broadcast"
    reason: str = RSQRT_REASON


@dataclass
class CpuNode(HostNode):
    """One result of a MIL op no ANE route computes, computed on the host with MIL's semantics
    (:mod:`.cpu_ops`), as Core ML's CPU fallback would. ``attrs``: ``op``; ``args`` (parameter name ->
    ``{"in": port}``, ``{"value": constant}`` or ``{"tuple": [...]}`` of those); ``ports`` (each input's
    MIL ``shape`` and ``dtype``); ``shape`` and ``dtype`` of the result; ``index``, which result of the op
    this node is. ``ins`` are the currencies its inputs are held in (read as they are: the host decodes
    any layout), ``out`` the currency of its result (fp32 for fp32, int and bool results: an fp32
    buffer holds int32 values exactly up to 2^24). ``reason``: why no ANE route took it."""

    name: str
    attrs: dict
    ins: list
    out: Cur
    reason: str
    binds: list = field(default_factory=list)
    line: int | None = None
    route: str = "cpu"
    alias: list = field(default_factory=list)  # never in place
    zero: list = field(default_factory=list)


@dataclass
class AnePlan:
    nodes: list
    order: list[int]
    externals: dict  # name -> [(node, port)]
    const_fills: dict  # name -> fp16 values
    outputs: dict  # name -> node
    inputs: list  # [(name, shape, dtype)] function inputs (what a run must be given), states not among them
    ext_curs: dict  # external name -> the currency its buffer holds
    output_shapes: dict = field(default_factory=dict)  # function output -> declared shape
    states: list = field(default_factory=list)  # [(name, shape, dtype)] iOS18 state<tensor<...>> inputs: the only buffers written in place

    def programs(self) -> list[int]:
        return [i for i, n in enumerate(self.nodes) if isinstance(n, ProgNode)]
