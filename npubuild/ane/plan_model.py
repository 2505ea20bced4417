"""What an ANE plan is made of: currencies (physical fp16 layouts), bindings,
program and host nodes, and the plan itself (:mod:`.plan` makes one, :mod:`.programs`
writes and reads it back, :mod:`npubuild.runner.ane` runs it)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UserError

PLANE = 32  # fp16 values per 64-byte channel plane: a strided[n] buffer holds n * PLANE


class PlanError(UserError):
    pass


@dataclass(frozen=True)
class Cur:
    kind: str  # strided | contig | packed
    a: int  # n, or t for packed
    b: int = 0  # d for packed

    @staticmethod
    def strided(n: int) -> "Cur":
        return Cur("strided", int(n))

    @staticmethod
    def contig(n: int) -> "Cur":
        return Cur("contig", int(n))

    @staticmethod
    def packed(t: int, d: int) -> "Cur":
        return Cur("packed", int(t), int(d))

    @property
    def elems(self) -> int:
        return self.a * self.b if self.kind == "packed" else self.a

    @property
    def buffer_elems(self) -> int:
        """fp16 values of the buffer that holds it (a strided value takes a whole plane)."""
        return self.a * PLANE if self.kind == "strided" else self.elems

    @property
    def shape(self) -> list[int]:
        """The 4-D MIL shape a program declares for a tensor in this currency."""
        if self.kind == "strided":
            return [1, self.a, 1, 1]
        if self.kind == "contig":
            return [1, 1, 1, self.a]
        return [1, self.a, 1, self.b]

    def __str__(self) -> str:
        return f"packed[{self.a}x{self.b}]" if self.kind == "packed" else f"{self.kind}[{self.a}]"

    @staticmethod
    def parse(text: str) -> "Cur":
        kind, _, rest = text.partition("[")
        dims = rest.rstrip("]").split("x")
        return Cur(kind, *map(int, dims))


@dataclass(frozen=True)
class Bind:
    """Where an input port reads: an external (function input, constant, host vector) or a node's output."""

    ext: str | None = None
    node: int | None = None

    def to_json(self):
        return {"ext": self.ext} if self.ext is not None else {"node": self.node}


@dataclass
class ProgNode:
    name: str
    route: str
    attrs: dict
    ins: list  # wanted Cur per port
    out: Cur
    weights: dict = field(default_factory=dict)  # name -> fp16 array
    binds: list = field(default_factory=list)
    alias: list = field(default_factory=list)  # (out port, in port): the output rides the input's buffer
    zero: list = field(default_factory=list)  # input ports zeroed before the first run and by reset_state
    line: int | None = None


@dataclass
class HostNode:
    """``rsqrt(mean(src²) + eps)`` (times gamma), broadcast strided into the external ``ext``."""

    name: str
    src: Bind
    ext: str
    n: int
    eps: float
    gamma: object = None  # fp16 array or None
    line: int | None = None
    route: str = "host_rsqrt_broadcast"


@dataclass
class AnePlan:
    nodes: list
    order: list[int]
    externals: dict  # name -> [(node, port)]
    const_fills: dict  # name -> fp16 values
    outputs: dict  # name -> node
    inputs: list  # [(name, shape, dtype)] function inputs
    ext_curs: dict  # external name -> the currency its consumers read it in
    output_shapes: dict = field(default_factory=dict)  # function output -> declared shape

    def programs(self) -> list[int]:
        return [i for i, n in enumerate(self.nodes) if isinstance(n, ProgNode)]
