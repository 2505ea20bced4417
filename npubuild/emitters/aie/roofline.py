"""An analytic roofline per xdna design: modelled time per run, what bounds it, and how far from the device's limit.

No NPU is reachable here, so speed is *modelled*, from the design's own facts (:func:`design_facts`):

* **DMA**: every object FIFO occupies one DMA channel at its producer (MM2S) and one at each consumer
  (S2MM; a broadcast is one MM2S channel). The bytes through each FIFO per dispatch are counted from the
  runtime sequence's shim transfers (every ``dma_memcpy_nd`` with its repeat count, weights and parameters
  included) and carried through the mem-tile links (a distribute's output takes its share of each input
  object, a join's input its share of the output). A channel's time is its bytes over the channel's bytes
  per cycle at the tile kind (shim, mem tile, core); the busiest channel of each kind is kept.
* **compute** per core (the busiest core): a GEMM's MACs, padding included, at the mmul MACs per cycle
  of its dtype; a generated body's operations counted from its own MLIR text, each executed as often as
  its enclosing ``scf.for`` loops run: one cycle per vector operation or scalar integer / memory
  operation, :data:`SOFTFLOAT_CYCLES` per scalar float operation (the AIE scalar unit has no floating
  point: each one is a compiler-rt soft-float call); an mlir-aie library kernel at its floor of one
  vector instruction per ``lanes`` elements (its own instruction count is not modelled), plus the generated
  prologue a core runs before it where it has one (counted as a generated body).
* **dispatch**: :data:`DISPATCH_US` per dispatch of the run.

Time per run = dispatches x (max(DMA channel times, compute) + dispatch overhead): DMA and compute
overlap (double-buffered FIFOs), dispatches do not. The **bound** is the largest of those terms.

The **fraction** of the roofline is ``ideal / design``, both without the one dispatch any design pays:
the *ideal* design of the same op on the same device moves only the op's own tensors (each input,
weights included, once, and the output once, no padding) spread over every shim channel of the device,
and computes at the device's peak on every core (a GEMM's true MACs at the mmul rate; any other op at
one vector instruction of :data:`VECTOR_BYTES` per vector of its elements); its time is the larger of
the two. The design's side is its array time plus the overhead of every dispatch beyond the first.

Every figure's source is in docs/performance.md ("The xdna roofline"); "assumed" figures say why there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod

from ...core.constants import DTYPE_BYTES


@dataclass(frozen=True)
class Figures:
    """The hardware figures of one device the model uses."""

    clock_hz: float  # AIE array clock
    shim_bytes_per_cycle: float  # per shim (array interface) DMA channel
    mem_bytes_per_cycle: float  # per mem-tile DMA channel
    core_bytes_per_cycle: float  # per compute-tile DMA channel
    macs_per_cycle: tuple[tuple[str, int], ...]  # per core: (input dtype, MACs per cycle of one mmul instruction)
    load_bytes_per_cycle: int = 64  # a core's two vector load units together
    store_bytes_per_cycle: int = 32  # its one vector store unit

    def macs(self, dtype: str) -> int:
        return dict(self.macs_per_cycle).get(dtype, dict(self.macs_per_cycle)["bf16"])

    def accumulator_cycles(self, tm: int, tn: int) -> float:
        """Cycles one microkernel call spends loading its tm x tn C tile (32-bit accumulators) from data memory
        and storing it back: mm.cc loads C into the accumulators for each call and stores it at its end, and
        those are not overlapped with the call's MACs (assumed)."""
        return tm * tn * 4 * (1 / self.load_bytes_per_cycle + 1 / self.store_bytes_per_cycle)


# npu1: AIE-ML (AM020); npu2: AIE-ML v2 (AM027). Sources per figure: docs/performance.md.
FIGURES = {
    "npu1": Figures(1.0e9, 4, 4, 4, (("i8", 256), ("bf16", 128)), 64, 32),
    "npu2": Figures(1.5e9, 4, 8, 4, (("i8", 512), ("bf16", 256), ("bfp16", 512)), 128, 64),
}
SOFTFLOAT_CYCLES = 40  # assumed: cycles of one scalar f32 operation done by a compiler-rt soft-float call
DISPATCH_US = 45.0  # one dispatch's fixed cost (XRT run + wait of an empty kernel, mlir-aie issue #2381)
VECTOR_BYTES = 64  # one 512-bit vector register: the ideal design's elements per vector instruction

# Vector operations that are more than one instruction, per AIE generation: (arch, op, element type) -> cycles.
# An f32 multiply on AIE2 is emulated with bf16 MACs (lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp,
# MulElemOpConversion, at the pass's default aie2-fp32-emulation-strategy=accuracy-safe, which aiecc does not
# change): each operand is split into three bf16 vectors (3 to_v16bfloat16, 3 upd, 2 msc_elem), then 1 mul and
# 8 mac: 25 instructions for one vector<16xf32> mulf. AIE2P multiplies f32 natively (MulElemOpAIE2pConversion).
# A product of two bf16 vectors widened with arith.extf is one bf16 mul_elem with an f32 result instead
# (test/Conversion/VectorToAIEVec/test_mul_elem.mlir, test_mul_elem_bf16_float): one instruction.
VECTOR_OP_CYCLES = {("aie2", "mulf", "f32"): 25}

_TILE_KIND = {0: "shim", 1: "mem"}


# ---- facts of a design ---------------------------------------------------------------------------------------------


def fifo_bytes(d) -> dict[str, int]:
    """Bytes through every object FIFO of ``d`` in one dispatch: the shim FIFOs' from the runtime sequence's
    transfers (repeats included), the others through the mem-tile links."""
    fifos = {f.name: f for f in d.fifos}
    got: dict[str, float] = {}
    for t in d.transfers:
        got[t.fifo] = got.get(t.fifo, 0) + prod(t.sizes) * DTYPE_BYTES[d.buffers[t.buffer].dtype]
    changed = True
    while changed:
        changed = False
        for ln in d.links:
            if len(ln.ins) == 1 and ln.ins[0] in got:  # plain or distribute: each out takes its share
                src = ln.ins[0]
                for o in ln.outs:
                    if o not in got:
                        got[o] = got[src] * fifos[o].bytes / fifos[src].bytes
                        changed = True
            elif len(ln.outs) == 1 and ln.outs[0] in got:  # join: each in gives its share
                dst = ln.outs[0]
                for i in ln.ins:
                    if i not in got:
                        got[i] = got[dst] * fifos[i].bytes / fifos[dst].bytes
                        changed = True
    return {name: int(got.get(name, 0)) for name in fifos}


def busiest_channels(d, traffic: dict[str, int]) -> dict:
    """Per tile kind (shim, mem, core): the bytes of its busiest DMA channel and the FIFO using it."""
    out: dict = {}
    for f in d.fifos:
        for tile in (f.producer, *f.consumers):
            kind = _TILE_KIND.get(tile[1], "core")
            if traffic[f.name] > out.get(kind, {}).get("bytes", -1):
                out[kind] = {"bytes": traffic[f.name], "fifo": f.name}
    return out


def shim_bytes(d, traffic: dict[str, int]) -> dict[str, int]:
    """Bytes each host buffer moves between DDR and the array in one dispatch (what its transfers move)."""
    out: dict[str, int] = {}
    for t in d.transfers:
        b = d.buffers[t.buffer]
        out[b.name] = out.get(b.name, 0) + prod(t.sizes) * DTYPE_BYTES[b.dtype]
    return out


def design_facts(inst, d, abi: dict) -> dict:
    """What the model needs of design ``d`` of ``inst``, JSON-safe: DMA per dispatch, work of the busiest
    core per dispatch, dispatches, and the op's own tensors (for the ideal design)."""
    traffic = fifo_bytes(d)
    facts = {
        "device": d.device.name,
        "cores": int(abi.get("cores") or 1),
        "dispatches_per_run": int(abi.get("dispatches_per_run") or 1),
        "dma": busiest_channels(d, traffic),
        # every shim DMA channel's bytes per dispatch, by the FIFO (stream) using it: "<fifo>": [column, "in"|"out", bytes]
        "shim_channels": {f.name: [f.producer[0] if f.producer[1] == 0 else f.consumers[0][0],
                                   "in" if f.producer[1] == 0 else "out", traffic[f.name]]
                          for f in d.fifos if f.producer[1] == 0 or any(c[1] == 0 for c in f.consumers)},
        "ideal": ideal_facts(inst),
    }
    if inst.op == "matmul":
        tile = abi.get("core_tile")
        calls = 0
        if tile:  # the whole-array design: every core works through its tiles and K-blocks
            calls = abi["tiles_per_core"] * abi["k_blocks"]
            macs = calls * tile["m"] * tile["k"] * tile["n"]
        else:  # the blocked overlay: one tile per dispatch, split over its columns
            t = abi["tile"]
            macs = t["m"] * t["k"] * t["n"] // max(1, abi.get("cores") or 1)
        facts["work"] = {"kind": "matmul", "dtype": abi.get("dtype", "i8"), "macs": int(macs)}
        if calls:  # each call's C tile in and out of the accumulators (Figures.accumulator_cycles)
            facts["work"].update(calls=int(calls), core_tile=[tile["m"], tile["n"]])
    elif hasattr(d, "block_body"):  # the bf16 transpose (shuffle_transpose): one body call per object
        calls = max(c.calls for c in d.cores)
        counts = count_ops("\n".join(d.block_body()), d.device.arch)
        facts["work"] = {"kind": "generated", **{k: v * calls for k, v in counts.items()}}
    elif not d.cores:  # a DMA-only design (dma_transpose): no core runs, nothing is computed
        facts["cores"] = 0
        facts["work"] = {"kind": "dma only"}
    elif d.call is not None:
        calls = max(c.chunks for c in d.cores)
        n = prod(d.body.output.shape) if d.body.output.shape else 1
        facts["work"] = {"kind": "mlir-aie kernel", "vectors": calls * -(-n // d.call.kernel.lanes)}
        if d.call.kernel.prologue:  # the generated prologue each call follows, counted as a generated body
            from .prologue import prologue_function

            counts = count_ops("\n".join(prologue_function(d).lines()), d.device.arch)
            facts["work"]["prologue"] = {k: v * calls for k, v in counts.items()}
    else:
        from ..host import emit as host_emit
        from ..host.vector import profile

        with profile(d.device.arch):
            text = host_emit(d.body)
        calls = max(c.chunks for c in d.cores)
        counts = count_ops(text, d.device.arch)
        facts["work"] = {"kind": "generated", **{k: v * calls for k, v in counts.items()}}
    return facts


def ideal_facts(inst) -> dict:
    """The op's own tensors: bytes in (every input once, weights included), bytes out, and its work."""
    # a matmul's inputs move as its compute dtype (the int8 GEMM's host quantises a and b to int8 codes)
    ins = sum(prod(t.shape) * DTYPE_BYTES[inst.dtype if inst.op == "matmul" else t.dtype] for t in inst.inputs)
    out = prod(inst.output.shape) * DTYPE_BYTES[inst.output.dtype]
    facts = {"in_bytes": int(ins), "out_bytes": int(out), "dtype": inst.dtype}
    if inst.op == "matmul":
        facts["macs"] = int(prod(inst.output.shape) * inst.inputs[0].shape[-1])
    else:
        facts["elements"] = int(max(prod(t.shape) for t in (*inst.inputs, inst.output)))
    return facts


# ---- counting a body's operations ------------------------------------------------------------------------------

_FOR = re.compile(r"scf\.for %\w+ = (%\w+) to (%\w+) step (%\w+)")
_CONST = re.compile(r"(%\w+) = arith\.constant (-?\d+) : index")
_OP = re.compile(r"=\s*(arith|math|vector|memref)\.(\w+)|^\s*(memref\.store|vector\.transfer_write|vector\.store)")
_SOFT = {"addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf", "cmpf", "negf",
         "fptosi", "fptoui", "sitofp", "uitofp", "truncf"}
# no instruction: constants; shape casts, which fold (a vector.transpose's lowering wraps its aievec.shuffle
# in shape casts that cancel the body's own: LowerVectorTransposeOpToAIEVecShuffleOpPattern)
_FREE = {"constant", "shape_cast"}
_VECTOR_ELEM = re.compile(r"vector<\d+x(\w+)>")
_RESULT = re.compile(r"(%[\w.]+) = ")
_OPERANDS = re.compile(r"arith\.mulf (%[\w.]+), (%[\w.]+)")


def count_ops(text: str, arch: str = "") -> dict:
    """Dynamic operation counts of one call of a body (MLIR text): each op counted as many times as its
    enclosing ``scf.for`` loops run. ``vector_ops``: vector instructions (an op on vector types, weighted by
    :data:`VECTOR_OP_CYCLES` for ``arch``); ``softfloat_ops``: scalar float ops (extf of bf16 is a shift and
    counts as integer); ``scalar_ops``: every other scalar op, loads and stores."""
    consts = {m.group(1): int(m.group(2)) for m in _CONST.finditer(text)}
    stack: list[int] = []
    out = {"vector_ops": 0, "softfloat_ops": 0, "scalar_ops": 0}
    widened: set[str] = set()  # vectors that are arith.extf of bf16 vectors
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("//"):
            continue
        m = _FOR.search(s)
        if m:
            lo, hi, step = (consts.get(g) for g in m.groups())
            trips = max(0, -(-(hi - lo) // step)) if None not in (lo, hi, step) and step else 1
        op = _OP.search(s)
        if op and not m and op.group(2) not in _FREE:
            times = prod(stack) if stack else 1
            name = op.group(2) or ""
            if "vector<" in s:
                elem = _VECTOR_ELEM.search(s)
                key = (arch, name, elem.group(1) if elem else "")
                res = _RESULT.match(s)
                if res and name == "extf" and "bf16" in s:
                    widened.add(res.group(1))
                operands = _OPERANDS.search(s) if name == "mulf" else None
                if operands and {operands.group(1), operands.group(2)} <= widened:
                    key = ()  # bf16 x bf16 into f32: one mul_elem
                out["vector_ops"] += times * VECTOR_OP_CYCLES.get(key, 1)
            elif name in _SOFT or op.group(1) == "math":
                out["softfloat_ops"] += times
            else:
                out["scalar_ops"] += times
        opens, closes = s.count("{"), s.count("}")
        if "dense<" in s or "{in_bounds" in s:  # attribute braces, not regions
            opens = closes = 0
        for _ in range(opens):
            stack.append(trips if m else 1)
            m = None
        for _ in range(closes):
            if stack:
                stack.pop()
    return out


# ---- the model -------------------------------------------------------------------------------------------------


def compute_cycles(work: dict, fig: Figures) -> tuple[float, float]:
    """(cycles of the busiest core per dispatch, of which soft-float)."""
    kind = work["kind"]
    if kind == "matmul":
        acc = work.get("calls", 0) * fig.accumulator_cycles(*work["core_tile"]) if work.get("calls") else 0.0
        return work["macs"] / fig.macs(work.get("dtype", "i8")) + acc, 0.0
    if kind == "mlir-aie kernel":
        pro = work.get("prologue", {})
        soft = pro.get("softfloat_ops", 0) * SOFTFLOAT_CYCLES
        return float(work["vectors"] + pro.get("vector_ops", 0) + pro.get("scalar_ops", 0) + soft), float(soft)
    soft = work.get("softfloat_ops", 0) * SOFTFLOAT_CYCLES
    return work.get("vector_ops", 0) + work.get("scalar_ops", 0) + soft, float(soft)


def roofline(facts: dict) -> dict:
    """Modelled time per run (µs), its bound, and the fraction of the device's roofline (module doc)."""
    fig = FIGURES[facts["device"]]
    us = 1e6 / fig.clock_hz  # µs per cycle
    per_kind = {"shim": fig.shim_bytes_per_cycle, "mem": fig.mem_bytes_per_cycle, "core": fig.core_bytes_per_cycle}
    n = int(facts.get("dispatches_per_run") or 1)
    terms: dict[str, float] = {}
    for kind, ch in facts.get("dma", {}).items():
        terms[f"{kind} DMA @{ch['fifo']}"] = ch["bytes"] / per_kind[kind] * us
    cycles, soft = compute_cycles(facts["work"], fig)
    terms["soft-float" if soft > cycles / 2 else "compute"] = cycles * us
    array_us = max(terms.values())
    terms = {k: v * n for k, v in terms.items()}
    terms["dispatch overhead"] = n * DISPATCH_US
    ideal = ideal_us(facts["device"], facts["ideal"])
    design = array_us * n + (n - 1) * DISPATCH_US
    return {
        "us_per_run": round(array_us * n + n * DISPATCH_US, 3),
        "bound": max(terms, key=terms.get),
        "fraction": round(min(1.0, ideal / design), 4) if design > 0 else 1.0,
        "array_us": round(array_us * n, 3),
        "design_us": round(design, 3),  # what the fraction divides by: array time + every dispatch beyond the first
        "ideal_us": round(ideal, 3),
        "terms_us": {k: round(v, 3) for k, v in terms.items()},
    }


def ideal_us(device: str, ideal: dict) -> float:
    """The ideal design's array time (module doc): every shim channel, every core at peak."""
    from .devices import DEVICES

    dev = DEVICES[device]
    fig = FIGURES[device]
    us = 1e6 / fig.clock_hz
    dma = max(ideal["in_bytes"] / (dev.columns * dev.shim_in_channels),
              ideal["out_bytes"] / (dev.columns * dev.shim_out_channels)) / fig.shim_bytes_per_cycle
    cores = dev.columns * dev.core_rows
    if "macs" in ideal:
        compute = ideal["macs"] / (cores * fig.macs(ideal["dtype"]))
    else:
        lanes = VECTOR_BYTES // DTYPE_BYTES.get(ideal["dtype"], 4)
        compute = ideal["elements"] / (cores * lanes)
    return max(dma, compute) * us


def short(r: dict) -> str:
    """``model 1.23 ms/run, shim DMA @x_c0_shim-bound, 0.41 of roofline`` for the text listing."""
    t = r["us_per_run"]
    when = f"{t / 1000:.2f} ms" if t >= 1000 else f"{t:.1f} µs"
    return f"model {when}/run, {r['bound']}-bound, {r['fraction']:.2g} of roofline"
