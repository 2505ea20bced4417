"""The int8 GEMM on the NPU: ``matmul`` (dtype i8).

:func:`overlay_for` gives each instance the one-dispatch design specialised to
its M x K x N (:mod:`.gemm_whole`, mlir-aie's whole_array structure) whenever
one passes the static checks, and otherwise this module's blocked overlay,
with the reason recorded in its header and ABI (``fallback``).

The blocked overlay: one dispatch of the overlay computes, in int32,

    C[d, cols*d] = A[d, kt*d] @ B[kt*d, cols*d]        (d = 64)

on ``cols`` columns with one core each (row 2). Core ``c`` owns the d x d block
column ``c`` of C: it zeroes it (``zero_i32``), then for each of the ``kt``
K-blocks acquires one d x d block of A and one of B and accumulates their
product into it (``matmul_i8_i32``, mlir-aie's vectorised ``mm.cc`` compiled by
Peano with ``-Di8_i32_ONLY -DDIM_M=d -DDIM_K=d -DDIM_N=d``), then hands C back.
The runtime blocks any M x K x N over the overlay
(:class:`npubuild.runner.gemm.BlockedGemm` with an ``OverlayDispatch``): zero
padding at the edges, K-blocks summed in int32.

``kt = clamp(ceil(K / d), 1, 8)`` and ``cols = clamp(ceil(N / d), 1, 4)`` (and at
most the device's columns), as in the reference design: small problems get a
small overlay, large ones the 8 x 4 blocking.

Data movement (all host transfers are linear; the host lays data out with
:mod:`npubuild.ops.gemm_layout`: ``tile_a`` / ``tile_b``, and reads C back with ``untile_c``):

* A is **broadcast**: one shim(0, 0) -> mem(0, 1) FIFO, linked to one mem-tile
  FIFO whose consumers are all cores. A is read from host memory once per
  dispatch and held once in the mem tile (per-column copies would read it
  ``cols`` times); every core still gets its own L1 copy.
* B goes per column: shim(c, 0) -> mem(c, 1) -> core(c, 2), the column's kt
  blocks back to back.
* C goes per column: core(c, 2) -> mem(c, 1) -> shim(c, 0), awaited by the
  runtime sequence.

Each core thus has two input streams (A, B) and one output (C), within its
two + two DMA channels. The vectorised kernel wants its operands pre-tiled:
each d x d block of A in r x s sub-tiles, of B in s x t, C comes out in r x t,
every sub-tile row-major and the sub-tiles themselves in row-major order
(``mm.cc``; (r, s, t) = (4, 8, 8) on aie2, (8, 8, 8) on aie2p, see
``gemm_layout.mmul_shape``). The host does that tiling, so the DMAs stay linear.

Peano needs more than the default stack for ``mm.cc`` and overflowing it gives
wrong results silently, so every core gets ``stack_size = GEMM_STACK``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import prod

from ...core.errors import UnsupportedOnTarget
from ...ops.registry import fmt_shape
from ...specfile.instances import KernelInstance
from ...ops import gemm_layout
from ...ops.gemm_layout import D, cdiv, mmul_shape, overlay_geometry
from ..host.mlir_text import memref_type
from .check import Layout, layout_problems, raise_problems
from .design import HostBuffer, Transfer
from .devices import GEMM_STACK, Device
from .fifos import Fifo, Link
from .frame import DeviceModule, core_lines, sequence_op
from .gemm_micro import MATMUL_FN, ZERO_FN, MmMicrokernel, tile_step
from .placer import COLUMNS
from .text import FOREVER, IndexConsts, sequence_steps

LAYOUT_MODULE = gemm_layout.__name__  # where the host-side layouts the ABI names live
PLACER = COLUMNS  # one core row (the placer's first) per column


# ---- the overlay ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Overlay(MmMicrokernel):
    """The GEMM overlay for one matmul instance: geometry, streams, transfers and ABI."""

    kernel: str
    device: Device
    d: int
    kt: int
    cols: int
    m: int  # the full problem (a's leading dims flattened into M)
    k: int
    n: int
    a_shape: tuple[int, ...] = ()
    b_shape: tuple[int, ...] = ()
    stack: int = GEMM_STACK
    fallback: str = ""  # why the one-dispatch design does not take this instance
    kind = "gemm_overlay"

    # -- geometry --
    @property
    def partition(self) -> str:
        return self.device.partition(self.cols)

    @property
    def columns(self) -> int:
        return self.cols

    @property
    def mmul(self) -> tuple[int, int, int]:
        return mmul_shape(self.arch)

    @property
    def tile(self) -> tuple[int, int, int]:
        """(M, K, N) of one dispatch."""
        return self.d, self.kt * self.d, self.cols * self.d

    @property
    def blocks(self) -> tuple[int, int, int]:
        """Dispatch grid (M-blocks, K-blocks, N-blocks) of the full problem."""
        tm, tk, tn = self.tile
        return cdiv(self.m, tm), cdiv(self.k, tk), cdiv(self.n, tn)

    # -- the microkernel --
    @property
    def mm_dims(self) -> tuple[int, int, int]:
        return self.d, self.d, self.d

    # -- host buffers, FIFOs, links, DMA transfers --
    @property
    def buffers(self) -> list[HostBuffer]:
        """Runtime-sequence arguments (XRT group ids 3, 4, 5): the A tile, the B tiles, the C tile."""
        tm, tk, tn = self.tile
        return [
            HostBuffer("a_tile", "i8", (("a_tile", tm * tk),), True),
            HostBuffer("b_tiles", "i8", (("b_tiles", tk * tn),), True),
            HostBuffer("c_tile", "i32", (("c_tile", tm * tn),), True, True),
        ]

    def _depth(self) -> int:
        return 2 if self.kt > 1 else 1

    @property
    def fifos(self) -> list[Fifo]:
        d, dep = self.d, self._depth()
        blk = (d, d)
        cores = tuple(PLACER.core(c, 0) for c in range(self.cols))
        s = [
            Fifo("a_shim", PLACER.shim(0), (PLACER.mem(0),), dep, blk, "i8"),
            Fifo("a", PLACER.mem(0), cores, dep, blk, "i8"),
        ]
        for c in range(self.cols):
            s.append(Fifo(f"b_c{c}_shim", PLACER.shim(c), (PLACER.mem(c),), dep, blk, "i8"))
            s.append(Fifo(f"b_c{c}", PLACER.mem(c), (PLACER.core(c, 0),), dep, blk, "i8"))
        for c in range(self.cols):
            s.append(Fifo(f"c_c{c}", PLACER.core(c, 0), (PLACER.mem(c),), 1, blk, "i32"))
            s.append(Fifo(f"c_c{c}_shim", PLACER.mem(c), (PLACER.shim(c),), 1, blk, "i32"))
        return s

    @property
    def links(self) -> list[Link]:
        links = [Link("a_shim", "a")]
        links += [Link(f"b_c{c}_shim", f"b_c{c}") for c in range(self.cols)]
        links += [Link(f"c_c{c}", f"c_c{c}_shim") for c in range(self.cols)]
        return links

    @property
    def transfers(self) -> list[Transfer]:
        dd = self.d * self.d
        kb = self.kt * dd
        t = [Transfer(0, "a_shim", 0, 0, (1, 1, 1, kb), (0, 0, 0, 1), 0, False)]
        t += [Transfer(1, f"b_c{c}_shim", c, c * kb, (1, 1, 1, kb), (0, 0, 0, 1), 1, False) for c in range(self.cols)]
        t += [Transfer(2, f"c_c{c}_shim", c, c * dd, (1, 1, 1, dd), (0, 0, 0, 1), 2, True) for c in range(self.cols)]
        return t

    def core_streams(self, col: int) -> tuple[str, str, str]:
        """(A FIFO, B FIFO, C FIFO) of the core in column ``col``."""
        return "a", f"b_c{col}", f"c_c{col}"

    # -- what the runtime needs --
    def abi(self) -> dict:
        """The dispatch contract, JSON-safe: geometry, host buffers in argument order and their layouts, blocking."""
        tm, tk, tn = self.tile
        r, s, t = self.mmul
        mb, kb, nb = self.blocks
        return {
            "kind": "gemm_overlay",
            "device": self.device.name,
            "partition": self.partition,
            "arch": self.arch,
            "columns": self.cols,
            "d": self.d,
            "kt": self.kt,
            "cols": self.cols,
            "mmul": [r, s, t],
            "tile": {"m": tm, "k": tk, "n": tn},
            "microkernel": {
                "object": self.microkernel,
                "source": self.microkernel_source,
                "defines": self.defines,
                "symbols": [MATMUL_FN, ZERO_FN],
                "stack_size": self.stack,
            },
            "layouts": LAYOUT_MODULE,
            "buffers": [
                {**self.buffers[0].describe(), "shape": [tm, tk], "layout": "tile_a",
                 "order": f"{self.kt} K-blocks of {self.d}x{self.d}, each in {r}x{s} sub-tiles"},
                {**self.buffers[1].describe(), "shape": [tk, tn], "layout": "tile_b",
                 "order": f"per column, its {self.kt} K-blocks of {self.d}x{self.d}, each in {s}x{t} sub-tiles"},
                {**self.buffers[2].describe(), "shape": [tm, tn], "layout": "untile_c", "output": True,
                 "order": f"per column one {self.d}x{self.d} block in {r}x{t} sub-tiles"},
            ],
            "blocking": {
                "m": self.m,
                "k": self.k,
                "n": self.n,
                "m_blocks": mb,
                "k_blocks": kb,
                "n_blocks": nb,
                "dispatches": mb * kb * nb,
                "padding": "zero",
                "accumulate": "int32 sum of the K-blocks on the host",
                "runtime": "npubuild.runner.gemm.BlockedGemm + OverlayDispatch",
            },
            "quantisation": "a per row, b per column, symmetric int8 (npubuild.ops.quant); output acc * sx[m] * sw[n]",
            "cores": self.cols,
            "dispatches_per_run": mb * kb * nb,
            # host <-> NPU per run with the weight's tiles resident (uploaded once: weight_once)
            "bytes_per_run": mb * kb * nb * (tm * tk + tm * tn * 4),
            "bytes_detail": {"to_device": mb * kb * nb * tm * tk, "from_device": mb * kb * nb * tm * tn * 4,
                             "weight_once": kb * nb * tk * tn},
            "fallback": self.fallback or None,
        }


def overlay_for(inst: KernelInstance, device: Device, bf16_mmul: str = "native"):
    """The checked design of a ``matmul``: the one-dispatch whole-array design when one fits
    (:func:`.gemm_whole.plan_whole_array`), else, for int8, the blocked overlay stating why
    (UnsupportedOnTarget when the NPU can take neither). ``bf16_mmul``: the project's ``xdna_bf16_mmul``
    ("bfp16" gives a bf16 matmul on aie2p mm.cc's emulated 8x8x8 mmul; no effect elsewhere)."""
    _check_matmul(inst, ("i8", "bf16"))
    from .gemm_whole import plan_whole_array

    a, b = inst.inputs[0].shape, inst.inputs[1].shape
    w, why = plan_whole_array(inst.id, device, prod(a[:-1]), a[-1], b[1], tuple(a), tuple(b), inst.dtype,
                              rank=lambda w: _modelled(inst, w)[0], bf16_mmul=bf16_mmul)
    if prod(a[:-1]) <= GEMV_MAX_M:
        from .gemv import plan_gemv

        v = plan_gemv(inst.id, device, prod(a[:-1]), a[-1], b[1], tuple(a), tuple(b), inst.dtype, bf16_mmul)
        if v is not None and (w is None or _modelled(inst, v) <= _modelled(inst, w)):
            return v
    if w is not None:
        return w
    if inst.dtype == "bf16":
        raise UnsupportedOnTarget(f"{inst.id}: {why}; the blocked overlay is int8 only (use smaller shapes, or dtype i8)")
    return blocked_overlay_for(inst, device, why)


GEMV_MAX_M = 16  # M that fits the GEMV's one tile of rows (mm.cc's smallest tm); the model decides below it


def _modelled(inst: KernelInstance, w) -> tuple[float, int]:
    """(modelled µs per run, bytes per run) of a one-dispatch design (:mod:`.roofline`)."""
    from .gemm_whole import with_mac_rate
    from .roofline import design_facts, fifo_bytes, roofline, shim_bytes

    abi = w.abi()
    return roofline(with_mac_rate(design_facts(inst, w, abi), abi))["us_per_run"], sum(shim_bytes(w, fifo_bytes(w)).values())


def _check_matmul(inst: KernelInstance, dtypes=("i8",)) -> None:
    if inst.op != "matmul":
        raise UnsupportedOnTarget(f"{inst.id}: the GEMM overlay implements matmul, not {inst.op}")
    if inst.dtype not in dtypes:
        raise UnsupportedOnTarget(
            f"{inst.id}: matmul with dtype {inst.dtype} is not supported on xdna; the NPU GEMM computes in "
            f"{' or '.join(dtypes)} (i8: a quantised per row, b per column, int32 accumulation"
            + ("; bf16: f32 accumulation, one rounding" if "bf16" in dtypes else "") + ")"
        )


def blocked_overlay_for(inst: KernelInstance, device: Device, fallback: str = "") -> Overlay:
    """The checked blocked overlay for an i8 ``matmul``; ``fallback`` says why it is used."""
    _check_matmul(inst)
    a, b = inst.inputs[0].shape, inst.inputs[1].shape
    m, k, n = prod(a[:-1]), a[-1], b[1]
    _, kt, cols = overlay_geometry(k, n, device.columns)
    ov = Overlay(inst.id, device, D, kt, cols, m, k, n, tuple(a), tuple(b), fallback=fallback)
    check_overlay(ov)
    return ov


# ---- static checks --------------------------------------------------------------------------------------------------


def check_overlay(ov: Overlay) -> None:
    raise_problems(ov.kernel, f"{ov.partition} GEMM overlay", overlay_problems(ov))


def overlay_problems(ov: Overlay) -> list[str]:
    """What aiecc or the hardware would reject: mm.cc's tiling plus the rules of :mod:`.check`."""
    p: list[str] = []
    r, s, t = ov.mmul
    # mm.cc's static_asserts (aie2 expands the mmul 4x2, aie2p 2x2 or 2x4): conservative common bound
    if ov.d % (4 * r) or ov.d % s or ov.d % (4 * t):
        p.append(f"a {ov.d}x{ov.d}x{ov.d} microkernel does not tile into {r}x{s}x{t} mmul blocks")
    streams = {st.name: st for st in ov.fifos}
    src_of = {ln.dst: ln.src for ln in ov.links}
    dst_of = {ln.src: ln.dst for ln in ov.links}
    expect = Counter()
    expect[src_of["a"]] += ov.kt * streams["a"].elems  # broadcast: the shim sends each block once
    acquires = {"a"}
    for c in range(ov.cols):
        _, fb, fc = ov.core_streams(c)
        expect[src_of[fb]] += ov.kt * streams[fb].elems
        expect[dst_of[fc]] += streams[fc].elems
        acquires |= {fb, fc}
    lay = Layout(
        device=ov.device,
        columns=ov.cols,
        buffers=ov.buffers,
        fifos=ov.fifos,
        links=ov.links,
        transfers=ov.transfers,
        cores=[PLACER.core(c, 0) for c in range(ov.cols)],
        stack=ov.stack,
        core_acquires=acquires,
        expect=expect,
        outputs=[dst_of[ov.core_streams(c)[2]] for c in range(ov.cols)],
    )
    return p + layout_problems(lay)


# ---- rendering ------------------------------------------------------------------------------------------------------


def render_overlay(overlay, options: dict) -> str:
    """The design :func:`overlay_for` chose as AIE-dialect MLIR; ``options`` as for :func:`npubuild.emitters.aie.emit`."""
    if overlay.kind == "gemm_whole_array":
        from .gemm_whole_text import render_whole_array

        return render_whole_array(overlay, options)
    ov = overlay
    link_with = options.get("link_with", "func")
    if link_with not in ("func", "core"):
        raise UnsupportedOnTarget(f"{ov.kernel}: unknown link_with placement '{link_with}' (expected func or core)")
    d = ov.d
    a_ty, c_ty = memref_type((d, d), "i8"), memref_type((d, d), "i32")
    attrs = f' attributes {{link_with = "{ov.microkernel}"}}' if link_with == "func" else ""
    decls = [
        f"    func.func private @{ZERO_FN}({c_ty}){attrs}",
        f"    func.func private @{MATMUL_FN}({a_ty}, {a_ty}, {c_ty}){attrs}",
    ]
    cores = [ln for c in range(ov.cols) for ln in _core(ov, c, link_with)]
    module = DeviceModule(_header(ov), ov.partition, ov.fifos, ov.links, decls, cores, ov.buffers, sequence_steps(ov),
                          decls_first=True)
    return module.render(sequence_op(options))


def _core(ov: Overlay, col: int, link_with: str) -> list[str]:
    streams = {s.name: s for s in ov.fifos}
    fa, fb, fc = ov.core_streams(col)
    a_ty, c_ty = memref_type(streams[fa].shape, "i8"), memref_type(streams[fc].shape, "i32")
    k = IndexConsts()
    body = tile_step(streams, fa, fb, fc, ov.kt, (a_ty, a_ty, c_ty), k)
    loop = [f"scf.for %run = {k(0)} to {k(FOREVER)} step {k(1)} {{", *("  " + ln for ln in body), "}"]
    attrs = f'link_with = "{ov.microkernel}", ' if link_with == "core" else ""
    return core_lines(PLACER.core(col, 0), k.lines, loop, f"{attrs}stack_size = {ov.stack} : i32")


def _header(ov: Overlay) -> list[str]:
    tm, tk, tn = ov.tile
    mb, kb, nb = ov.blocks
    r, s, t = ov.mmul
    bufs = "; ".join(
        f"{3 + i}: {b.name} ({'x'.join(map(str, shape))} {b.dtype}, {layout})"
        for i, (b, shape, layout) in enumerate(zip(ov.buffers, [(tm, tk), (tk, tn), (tm, tn)], ["tile_a", "tile_b", "untile_c"]))
    )
    return [
        f"npubuild xdna kernel {ov.kernel}",
        "op: matmul, dtype: i8 (int8 GEMM microkernel overlay, int32 accumulation)",
        f"problem: a {fmt_shape(ov.a_shape)} (M={ov.m}, K={ov.k}), b {fmt_shape(ov.b_shape)} (N={ov.n}); "
        f"host-blocked into {mb} x {kb} x {nb} dispatches (M, K, N blocks, zero padded, K-blocks summed in int32)",
        f"device {ov.device.name}, partition {ov.partition}: one dispatch computes C[{tm}, {tn}] = A[{tm}, {tk}] . B[{tk}, {tn}] "
        f"on {ov.cols} core(s) (row 2), {ov.kt} K-block(s) of {ov.d} per core",
        f"microkernel {ov.microkernel}: {ov.microkernel_source} {' '.join(ov.defines)} ({ov.arch}, mmul {r}x{s}x{t}), "
        f"stack {ov.stack} bytes",
        "streams: A broadcast shim(0,0) -> mem(0,1) -> every core; B and C per column through its mem tile",
        f"host buffers (XRT group id: name (shape dtype, layout in {LAYOUT_MODULE})): {bufs}",
    ] + ([f"blocked overlay, not the one-dispatch design: {ov.fallback}"] if ov.fallback else [])
