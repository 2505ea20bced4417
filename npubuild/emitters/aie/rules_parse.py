"""The parts of an emitted ``aie.mlir`` that :mod:`.rules_check` applies mlir-aie's rules to,
read from the text itself (whichever design kind wrote it): tiles, object FIFOs, links,
``aie.buffer`` locals, cores (their accesses, stack size and the widest vector their bodies
use), the runtime sequence's arguments, ``dma_memcpy_nd`` ops and ``dma_wait`` symbols.
Only the forms npubuild writes are read (frame.py, fifos.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import prod

_DEVICE = re.compile(r"aie\.device\((\w+)\)")
_TILE = re.compile(r"^\s*(%\w+) = aie\.tile\((\d+), (\d+)\)", re.M)
_FIFO = re.compile(
    r"aie\.objectfifo @(\w+)\((%\w+)(?: dimensionsToStream \[([^\]]*)\])?, \{([^}]*)\}, (\[[\d, ]*\]|-?\d+) : i32\)"
    r"(?: \{padDimensions = #aie<bd_pad_layout_array\[([^\]]*)\]>\})? : !aie\.objectfifo<(.*)>\s*$", re.M)
_PAD = re.compile(r"<const_pad_before = (-?\d+), const_pad_after = (-?\d+)>")
_DIM = re.compile(r"<size = (-?\d+), stride = (-?\d+)>")
_CONSUMER = re.compile(r"(%\w+)(?: dimensionsFromStream \[([^\]]*)\])?")
_LINK = re.compile(r"aie\.objectfifo\.link \[([^\]]*)\] -> \[([^\]]*)\] \(\[([^\]]*)\] \[([^\]]*)\]\)")
_BUFFER = re.compile(r"= aie\.buffer\((%\w+)\)[^:]*: (memref<[^>]*>)")
_MEMREF = re.compile(r"memref<((?:\d+x)*)(i8|i16|i32|i64|bf16|f16|f32|f64)>$")
_CORE = re.compile(r"aie\.core\((%\w+)\) \{\n(.*?)\n    \} \{([^}]*)\}", re.S)
_ACQUIRE = re.compile(r"(?:%(\w+) = )?aie\.objectfifo\.acquire @(\w+)\((Produce|Consume), (\d+)\)")
_RELEASE = re.compile(r"aie\.objectfifo\.release @(\w+)\((Produce|Consume), (\d+)\)")
_ACCESS = re.compile(r"aie\.objectfifo\.subview\.access %(\w+)\[(\d+)\]")
_STACK = re.compile(r"stack_size = (\d+) : i32")
_CALL = re.compile(r"func\.call @(\w+)\(")
_FUNC = re.compile(r"^    func\.func @(\w+)\((.*?)^    \}$", re.S | re.M)
_VECTOR = re.compile(r"vector<((?:\d+x)+)(i8|i16|i32|i64|bf16|f16|f32|f64)>")
_SEQ_ARGS = re.compile(r"runtime_sequence\(([^)]*)\) \{")
_ARG = re.compile(r"%(\w+): memref<(\d+)x(\w+)>")
_DMA = re.compile(r"aiex\.npu\.dma_memcpy_nd\(%(\w+)\[([-\d, ]+)\]\[([-\d, ]+)\]\[([-\d, ]+)\]\) \{([^}]*)\}")
_WAIT = re.compile(r"aiex\.npu\.dma_wait \{symbol = @(\w+)\}")

BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "bf16": 16, "f16": 16, "f32": 32, "f64": 64}


def _ints(s: str) -> tuple[int, ...]:
    return tuple(int(x) for x in s.replace(" ", "").split(",") if x)


def _dims(s: str | None) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in _DIM.findall(s or ""))


def memref(ty: str) -> tuple[tuple[int, ...], str] | None:
    """(shape, element type) of a static ``memref<AxBxT>``, None for anything else."""
    m = _MEMREF.match(ty.strip())
    if m is None:
        return None
    return tuple(int(x) for x in m.group(1).split("x") if x), m.group(2)


@dataclass
class TextFifo:
    name: str
    producer: str
    consumers: list[str]
    from_dims: dict  # consumer tile name -> dimensionsFromStream
    depth: tuple[int, ...]  # one entry, or producer + one per consumer
    type: str  # the objectfifo's element type as written
    dims: tuple  # dimensionsToStream
    pads: tuple = ()  # padDimensions: (before, after) per entry of dims

    @property
    def shape(self):
        m = memref(self.type)
        return m[0] if m else None

    @property
    def dtype(self):
        m = memref(self.type)
        return m[1] if m else None

    @property
    def elems(self) -> int:
        return prod(self.shape) if self.shape is not None else 0

    @property
    def bytes(self) -> int:
        return self.elems * BITS.get(self.dtype or "i8", 8) // 8


@dataclass
class TextCore:
    tile: str
    accesses: list  # (op "acquire"/"release", fifo, port, count)
    subviews: list  # (fifo, acquired count, index)
    stack: int | None
    calls: list[str]


@dataclass
class Module:
    device: str
    tiles: dict  # name -> (col, row)
    fifos: dict = field(default_factory=dict)  # name -> TextFifo
    links: list = field(default_factory=list)  # (ins, outs, src offsets, dst offsets)
    buffers: list = field(default_factory=list)  # (tile name, shape, dtype)
    cores: list = field(default_factory=list)
    vectors: dict = field(default_factory=dict)  # func name -> widest vector bytes in it
    stray_accesses: int = 0  # acquire/release ops outside any aie.core
    args: dict = field(default_factory=dict)  # runtime sequence arg -> (elems, dtype)
    dmas: list = field(default_factory=list)  # (arg, offsets, sizes, strides, attrs)
    waits: list = field(default_factory=list)

    def kind(self, tile: str) -> str:
        row = self.tiles[tile][1]
        return "shim" if row == 0 else "mem" if row == 1 else "core"


def parse(text: str) -> Module:
    dev = _DEVICE.search(text)
    mod = Module(dev.group(1) if dev else "", {m.group(1): (int(m.group(2)), int(m.group(3))) for m in _TILE.finditer(text)})
    for m in _FIFO.finditer(text):
        cons = [(c.group(1), _dims(c.group(2))) for c in _CONSUMER.finditer(m.group(4))]
        depth = m.group(5)
        mod.fifos[m.group(1)] = TextFifo(
            m.group(1), m.group(2), [t for t, _ in cons], {t: d for t, d in cons if d},
            _ints(depth.strip("[]")), m.group(7).strip(), _dims(m.group(3)),
            tuple((int(b), int(a)) for b, a in _PAD.findall(m.group(6) or "")))
    for m in _LINK.finditer(text):
        names = [tuple(n.strip().lstrip("@") for n in g.split(",") if n.strip()) for g in (m.group(1), m.group(2))]
        mod.links.append((names[0], names[1], _ints(m.group(3)), _ints(m.group(4))))
    for m in _BUFFER.finditer(text):
        ty = memref(m.group(2))
        if ty is not None:
            mod.buffers.append((m.group(1), *ty))
    for m in _FUNC.finditer(text):
        widest = 0
        for v in _VECTOR.finditer(m.group(2)):
            widest = max(widest, prod(int(x) for x in v.group(1).split("x") if x) * BITS[v.group(2)] // 8)
        mod.vectors[m.group(1)] = widest
    in_cores = 0
    for m in _CORE.finditer(text):
        body = m.group(2)
        subviews, acquired, accesses = [], {}, []
        for a in _ACQUIRE.finditer(body):
            accesses.append(("acquire", a.group(2), a.group(3), int(a.group(4))))
            if a.group(1):
                acquired[a.group(1)] = (a.group(2), int(a.group(4)))
        for r in _RELEASE.finditer(body):
            accesses.append(("release", r.group(1), r.group(2), int(r.group(3))))
        for s in _ACCESS.finditer(body):
            if s.group(1) in acquired:
                subviews.append((*acquired[s.group(1)], int(s.group(2))))
        in_cores += len(accesses)
        st = _STACK.search(m.group(3))
        mod.cores.append(TextCore(m.group(1), accesses, subviews, int(st.group(1)) if st else None, _CALL.findall(body)))
    mod.stray_accesses = len(_ACQUIRE.findall(text)) + len(_RELEASE.findall(text)) - in_cores
    seq = _SEQ_ARGS.search(text)
    if seq:
        mod.args = {n: (int(e), t) for n, e, t in _ARG.findall(seq.group(1))}
        body = text[seq.end():]
        mod.dmas = [(d.group(1), _ints(d.group(2)), _ints(d.group(3)), _ints(d.group(4)), d.group(5)) for d in _DMA.finditer(body)]
        mod.waits = _WAIT.findall(body)
    return mod
