"""The one-dispatch int8 GEMM: a design specialised to one matmul's M x K x N.

The structure is mlir-aie's
``programming_examples/basic/matrix_multiplication/whole_array/whole_array.py``
(and ``whole_array_placed.py``), int8 x int8 -> int32 as its
``tests/run_makefile_4_col_i8.lit`` / ``run_strix_makefile_4_col i8.lit`` run it:
4 core rows x ``cols`` columns (1, 2 or 4 on npu1; 1, 2, 4 or 8 on npu2), each
core computing ``tm x tn`` tiles of C with the ``zero_i32`` and
``matmul_i8_i32`` functions of ``aie_kernels/<arch>/mm.cc`` (compiled with
``-Di8_i32_ONLY -DDIM_M=tm -DDIM_K=tk -DDIM_N=tn``), the K loop inside the core.

Data movement (whole_array.py, names kept):

* A is **broadcast along core rows**: ``A_L3L2_i`` goes shim -> mem tile
  (column ``i``; column ``2 i`` with 8 columns), and the mem tile distributes
  its ``4 / cols`` row tiles (``aie.objectfifo.link ... ([] [0, tm*tk, ..])``)
  to ``A_L2L1_row``, each consumed by every core of that row.
* B is **broadcast along core columns**: ``B_L3L2_col`` shim -> mem tile,
  ``B_L2L1_col`` to the 4 cores of the column.
* C is **joined per column**: ``C_L1L2_col_row`` core -> mem tile, joined
  (offsets ``tm*tn*row``) into ``C_L2L3_col`` -> shim.
* Tiling is done by the DMAs, not the host: the mem tile's
  ``dimensionsToStream`` cuts row-major A, B into the microkernel's r x s /
  s x t sub-tiles and C's r x t sub-tiles back into rows; the shim's 4-D
  ``dma_memcpy_nd`` patterns walk the row-major host matrices (A repeated
  once per N-tile with stride 0, B every ``cols``-th tile column, C likewise).
* The runtime sequence issues transfer blocks of at most 2 rows of tiles
  (4 row tiles of 4 cores each) in ping-pong: block ``g`` uses buffer
  descriptors ``8 * (g % 2) + 0..4`` and block ``g + 2`` reuses them only
  after a ``dma_wait`` on every column's C has retired block ``g``.

Padding is the runtime's, once per dimension: it quantises A into a zeroed
``Mp x Kp`` buffer and the weight into a zeroed ``Kp x Np`` buffer (the codes
are written there anyway, so the padding costs no extra pass), and reads the
``M x N`` corner of C. ``Mp`` is a multiple of ``4 * tm`` (whole_array requires
``M % (m * n_aie_rows) == 0``; a GEMV's single row is padded to ``4 * tm`` rows),
``Kp`` of ``tk``, ``Np`` of ``tn * cols``. Zero rows and columns add zero to
every int32 sum, so the product's ``M x N`` corner is exact.

The tile (tm, tk, tn) and width are chosen per instance: every candidate that
passes the static checks (core and mem-tile memory with the GEMM stack, DMA
channels, the shim DMA's wraps, repeat count, strides and buffer descriptors,
mm.cc's static_asserts) is ranked by the roofline model's time per run
(:mod:`.roofline`: DMA per channel, MACs, and each microkernel call's C tile
loaded into and stored from the accumulators), then by the work per core
including padding and the number of microkernel calls, and the first is taken. None fits only when
the shim's patterns cannot address the matrices (e.g. more than 64 N-tiles per
column, or a C row-block stride beyond the DMA's 2**20 words); then the
blocked overlay (:mod:`.gemm`) runs the instance, and says why.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import prod

from ...core.constants import DTYPE_BYTES
from ...ops.gemm_layout import cdiv, mmul_shape
from .check import Layout, layout_problems
from .design import HostBuffer, Transfer
from .devices import DMA_GRANULE, DMA_REPEAT_MAX, DMA_STRIDE_MAX, GEMM_STACK, Device
from .fifos import Fifo, Link
from .frame import Wait
from .gemm_micro import MmMicrokernel
from .placer import COLUMNS

ROWS = 4  # core rows per column (whole_array.py: n_aie_rows = 4)
PLACER = COLUMNS  # whole_array_placed.py's tiles: shim, mem tile, then the ROWS core rows of each column
DEPTH = 2  # every FIFO double-buffered (whole_array.py: fifo_depth = 2)
TB_MAX_ROWS = 4  # whole_array.py: tb_max_n_rows, split in ping and pong halves
WIDTHS = (1, 2, 4, 8)  # whole_array.py: --n-aie-cols choices
TILE_M = (64, 32, 16)
TILE_K = (256, 128, 64, 32, 16, 8)
TILE_N = (64, 32, 16)
CALL_COST = 2048  # MAC-equivalents one microkernel call costs beyond its MACs (acquire/release, loop setup)
# bf16 mmul shapes of mm.cc's bf16_f32 combos (aie_kernels/aie2/mm.cc: 4x8x4, aie2p/mm.cc without bfp16
# emulation: 4x8x8), the same as whole_array.py's microkernel_mac_dim_map
BF16_MMUL = {"aie2": (4, 8, 4), "aie2p": (4, 8, 8)}
# with -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 (xdna_bf16_mmul = "bfp16") aie2p/mm.cc's bf16_f32 combo is
# 8x8x8 (matmul_vectorized_8x8x8_bf16_f32: static_asserts m % 2r, k % s, n % 2t, l.331-346 @1e400306)
BFP16_MMUL = (8, 8, 8)
BF16_MMUL_MODES = ("native", "bfp16")


def effective_bf16_mmul(requested: str, arch: str, in_dtype: str) -> str:
    """The bf16 mmul a design uses: "bfp16" only for bf16 on aie2p; elsewhere the request has no effect
    ("native"): aie2's mm.cc has no emulation define and int8 has no bf16 mmul."""
    if requested not in BF16_MMUL_MODES:
        raise ValueError(f"bf16_mmul must be {', '.join(repr(v) for v in BF16_MMUL_MODES)}, got {requested!r}")
    return "bfp16" if requested == "bfp16" and arch == "aie2p" and in_dtype == "bf16" else "native"
# mm.cc's static_asserts on the tile (m, k, n) per (arch, dtype), as multiples of (r, s, t):
# i8 on aie2 expands its mmul 4x2 (matmul_vectorized_4x8x8_i8_i32), bf16 4x4 (matmul_vectorized_4x4);
# on aie2p both expand 2x2 (aie_kernels/aie2p/mm.cc)
TILE_MULTIPLES = {("aie2", "i8"): (4, 1, 2), ("aie2", "bf16"): (4, 1, 4), ("aie2p", "i8"): (2, 1, 2), ("aie2p", "bf16"): (2, 1, 2)}


@dataclass(frozen=True)
class WholeArray(MmMicrokernel):
    kernel: str
    device: Device
    m: int
    k: int
    n: int
    tm: int
    tk: int
    tn: int
    cols: int
    a_shape: tuple[int, ...] = ()
    b_shape: tuple[int, ...] = ()
    stack: int = GEMM_STACK
    in_dtype: str = "i8"  # i8: int32 accumulators (quantised matmul); bf16: f32 accumulators
    bf16_mmul: str = "native"  # "bfp16": mm.cc's emulated 8x8x8 bf16 mmul (bf16 on aie2p; effective_bf16_mmul)
    kind = "gemm_whole_array"
    variant = "whole-array"  # the GEMV (:mod:`.gemv`) shares the ABI kind

    # -- geometry --
    @property
    def mmul(self) -> tuple[int, int, int]:
        if self.in_dtype != "bf16":
            return mmul_shape(self.arch)
        return BFP16_MMUL if self.bfp16 else BF16_MMUL[self.arch]

    @property
    def mac_dtype(self) -> str:
        """The roofline's MAC-rate key (roofline.Figures.macs): the input dtype, or "bfp16" for the emulated mmul."""
        return "bfp16" if self.bfp16 else self.in_dtype

    @property
    def partition(self) -> str:
        return self.device.partition(self.cols)

    @property
    def columns(self) -> int:
        return self.cols

    @property
    def cores(self) -> int:
        return ROWS * self.cols

    @property
    def padded(self) -> tuple[int, int, int]:
        return (cdiv(max(self.m, 1), ROWS * self.tm) * ROWS * self.tm, cdiv(self.k, self.tk) * self.tk,
                cdiv(self.n, self.tn * self.cols) * self.tn * self.cols)

    @property
    def row_blocks(self) -> int:
        """Blocks of 4 * tm rows of C (one row tile per core row)."""
        return self.padded[0] // (ROWS * self.tm)

    @property
    def n_tiles(self) -> int:
        """tn-wide tiles of C per column per row block (whole_array.py: N // n // n_aie_cols)."""
        return self.padded[2] // (self.tn * self.cols)

    @property
    def k_blocks(self) -> int:
        return self.padded[1] // self.tk

    @property
    def tiles_per_core(self) -> int:
        return self.row_blocks * self.n_tiles

    @property
    def a_shims(self) -> int:
        """Shim/mem tiles carrying A (whole_array.py: n_shim_mem_A)."""
        return min(self.cols, ROWS)

    @property
    def a_rows_per_shim(self) -> int:
        """Core rows one A shim feeds (whole_array.py: n_A_tiles_per_shim)."""
        return ROWS // self.cols if self.cols < ROWS else 1

    def a_column(self, i: int) -> int:
        """The column of A shim/mem tile ``i``: alternate columns on the full 8-column npu2."""
        return 2 * i if self.cols == 8 else i

    # -- the microkernel --
    @property
    def mm_dims(self) -> tuple[int, int, int]:
        return self.tm, self.tk, self.tn

    # -- host buffers, FIFOs, links --
    @property
    def buffers(self) -> list[HostBuffer]:
        mp, kp, np_ = self.padded
        a, b, c = ("a_codes", "b_codes", "c_acc") if self.in_dtype == "i8" else ("a", "b", "c_acc")
        return [
            HostBuffer(a, self.in_dtype, ((a, mp * kp),), True),
            HostBuffer(b, self.in_dtype, ((b, kp * np_),), True),
            HostBuffer(c, self.acc_dtype, ((c, mp * np_),), True, True),
        ]

    def core_tile(self, col: int, row: int) -> tuple[int, int]:
        return PLACER.core(col, row)

    def a_l1(self, row: int) -> str:
        return f"A_L2L1_{row}"

    def b_l1(self, col: int) -> str:
        return f"B_L2L1_{col}"

    def c_l1(self, col: int, row: int) -> str:
        return f"C_L1L2_{col}_{row}"

    def core_fifos(self, col: int, row: int) -> tuple[str, str, str]:
        """The (A, B, C) FIFOs core ``(col, row)`` acquires."""
        return self.a_l1(row), self.b_l1(col), self.c_l1(col, row)

    def header_streams(self) -> str:
        return ("streams (mlir-aie whole_array.py): A broadcast along core rows, B along core columns, C joined per column; "
                "mem-tile dimensionsToStream does the sub-tiling")

    @property
    def fifos(self) -> list[Fifo]:
        r, s, t = self.mmul
        m, k, n = self.tm, self.tk, self.tn
        out: list[Fifo] = []
        per = self.a_rows_per_shim
        for i in range(self.a_shims):
            c = self.a_column(i)
            out.append(Fifo(f"A_L3L2_{i}", PLACER.shim(c), (PLACER.mem(c),), DEPTH, (m * k * per,), self.in_dtype))
        a_dims = ((m // r, r * k), (k // s, s), (r, k), (s, 1))  # whole_array.py A_L2L1 dims
        for row in range(ROWS):
            src = PLACER.mem(2 * row) if self.cols == 8 else PLACER.mem(self.a_column(row // per))
            cons = tuple(self.core_tile(c, row) for c in range(self.cols))  # broadcast along one row
            out.append(Fifo(self.a_l1(row), src, cons, DEPTH, (m, k), self.in_dtype, a_dims))
        b_dims = ((k // s, s * n), (n // t, t), (s, n), (t, 1))  # whole_array.py B_L2L1 dims (row-major B)
        for c in range(self.cols):
            out.append(Fifo(f"B_L3L2_{c}", PLACER.shim(c), (PLACER.mem(c),), DEPTH, (k * n,), self.in_dtype))
            cons = tuple(self.core_tile(c, row) for row in range(ROWS))  # broadcast along one column
            out.append(Fifo(self.b_l1(c), PLACER.mem(c), cons, DEPTH, (k, n), self.in_dtype, b_dims))
        # whole_array.py C_L2L3 dims: (m // r, r * n), (r, t), (n // t, r * t), (t, 1), one tm x tn core tile
        # back from its r x t sub-tiles into rows. C_L2L3 is the output of a join, and mlir-aie applies
        # its dimensionsToStream to EACH join input, not to the joined object: the objectFifo lowering
        # (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp, createMemTileDMA) emits one
        # mem-tile MM2S buffer descriptor per join input, at that input's src offset, of
        # getJoinTransferLengths()[i] = tm * tn elements, each walking this pattern; and
        # ObjectFifoLinkOp::verify (lib/Dialect/AIE/IR/AIEDialect.cpp) refuses a pattern whose largest
        # index reaches a join input's length ("specified output stride(s) and size(s) result in out of
        # bounds access in join input"). So the outermost size is m // r, never 4 * m // r.
        c_dims = ((m // r, r * n), (r, t), (n // t, r * t), (t, 1))
        return out + self.c_fifos(c_dims)

    def c_fifos(self, c_dims) -> list[Fifo]:
        """Each core's C tile to its column's mem tile, joined there into one stream to the shim walking
        ``c_dims`` per join input (the C side every whole-array design kind shares)."""
        m, n = self.tm, self.tn
        out: list[Fifo] = []
        for c in range(self.cols):
            for row in range(ROWS):
                out.append(Fifo(self.c_l1(c, row), self.core_tile(c, row), (PLACER.mem(c),), DEPTH, (m, n), self.acc_dtype))
            out.append(Fifo(f"C_L2L3_{c}", PLACER.mem(c), (PLACER.shim(c),), DEPTH, (ROWS * m * n,), self.acc_dtype, c_dims))
        return out

    @property
    def links(self) -> list[Link]:
        """A: plain, or a distribute of 4 / cols row tiles at offsets tm*tk*j; B plain; C a join at tm*tn*row."""
        per = self.a_rows_per_shim
        mk, mn = self.tm * self.tk, self.tm * self.tn
        out = []
        for i in range(self.a_shims):
            rows = range(i * per, (i + 1) * per) if self.cols <= ROWS else [i]
            dsts = tuple(self.a_l1(r) for r in rows)
            out.append(Link(f"A_L3L2_{i}", dsts, tuple(mk * j for j in range(len(dsts))) if len(dsts) > 1 else ()))
        out += [Link(f"B_L3L2_{c}", self.b_l1(c)) for c in range(self.cols)]
        for c in range(self.cols):
            out.append(Link(tuple(self.c_l1(c, r) for r in range(ROWS)), f"C_L2L3_{c}", tuple(mn * r for r in range(ROWS))))
        return out

    # -- the runtime sequence --
    def groups(self) -> list[tuple[int, int, int]]:
        """(row_base, rows, bd_base) of each transfer block, in issue order (whole_array.py's tb/pingpong loop)."""
        out = []
        for tb in range(cdiv(self.row_blocks, TB_MAX_ROWS)):
            for pingpong in (0, 1):
                row_base = tb * TB_MAX_ROWS + pingpong * TB_MAX_ROWS // 2
                rows = min(TB_MAX_ROWS // 2, self.row_blocks - row_base)
                if rows <= 0:
                    break
                out.append((row_base, rows, 8 * pingpong))
        return out

    @property
    def sequence(self) -> list:
        """Transfers and waits in program order: per block the C, A and B patterns of every column,
        then (from the second block on) a wait that retires the block before last."""
        _, kp, np_ = self.padded
        m, k, n, cols = self.tm, self.tk, self.tn, self.cols
        per = self.a_rows_per_shim
        out: list = []
        waits = [Wait(f"C_L2L3_{c}") for c in range(cols)]
        for g, (row_base, rows, bd) in enumerate(self.groups()):
            for c in range(cols):
                out.append(Transfer(2, f"C_L2L3_{c}", c, row_base * m * ROWS * np_ + c * n,
                                    (rows, self.n_tiles, m * ROWS, n), (m * ROWS * np_, n * cols, np_, 1), bd, True))
                for tile_row in range(rows):
                    if c < self.a_shims:
                        off = (row_base + tile_row) * ROWS * m * kp + c * per * m * kp
                        out.append(Transfer(0, f"A_L3L2_{c}", self.a_column(c), off, (self.n_tiles, self.k_blocks, m * per, k),
                                            (0, k, kp, 1), bd + 2 * tile_row + 1, False))
                    out.append(Transfer(1, f"B_L3L2_{c}", c, c * n, (self.n_tiles, self.k_blocks, k, n),
                                        (n * cols, k * np_, np_, 1), bd + 2 * tile_row + 2, False))
            if g > 0:
                out += waits
        out += waits
        return out

    @property
    def transfers(self) -> list[Transfer]:
        return [op for op in self.sequence if isinstance(op, Transfer)]

    # -- what the runtime and the build report need --
    def bytes_per_run(self) -> dict:
        mp, kp, np_ = self.padded
        eb = DTYPE_BYTES[self.in_dtype]
        return {"to_device": mp * kp * eb, "from_device": mp * np_ * 4, "weight_once": kp * np_ * eb}

    def abi(self) -> dict:
        mp, kp, np_ = self.padded
        r, s, t = self.mmul
        return {
            "kind": self.kind,
            "device": self.device.name,
            "partition": self.partition,
            "arch": self.arch,
            "columns": self.cols,
            "core_rows": ROWS,
            "cores": self.cores,
            "dispatches_per_run": 1,
            # host <-> NPU per run with the weight resident (a parameter: uploaded once, weight_once)
            "bytes_per_run": self.bytes_per_run()["to_device"] + self.bytes_per_run()["from_device"],
            "bytes_detail": self.bytes_per_run(),
            "fallback": None,
            "mmul": [r, s, t],
            "problem": {"m": self.m, "k": self.k, "n": self.n},
            "padded": {"m": mp, "k": kp, "n": np_},
            "padding": {"m": "runtime", "k": "runtime", "n": "runtime",
                        "how": ("codes quantised into zeroed padded buffers" if self.in_dtype == "i8"
                                else "a and b copied into zeroed padded buffers") + "; the M x N corner of C is read"},
            "core_tile": {"m": self.tm, "k": self.tk, "n": self.tn},
            "tiles_per_core": self.tiles_per_core,
            "k_blocks": self.k_blocks,
            "microkernel": {
                "object": self.microkernel,
                "source": self.microkernel_source,
                "defines": self.defines,
                "symbols": list(self.symbols),
                "stack_size": self.stack,
            },
            "buffers": [
                {**self.buffers[0].describe(), "shape": [mp, kp], "layout": "row-major"},
                {**self.buffers[1].describe(), "shape": [kp, np_], "layout": "row-major"},
                {**self.buffers[2].describe(), "shape": [mp, np_], "layout": "row-major", "output": True},
            ],
            "dtype": self.in_dtype,
            **({"quantisation": "a per row, b per column, symmetric int8 (npubuild.ops.quant); output acc * sx[m] * sw[n]"}
               if self.in_dtype == "i8" else
               {"bf16_mmul": self.bf16_mmul,
                "numerics": ("bf16 products summed in f32 by mm.cc (matmul_bf16_f32, f32 C tiles across the K loop); "
                             "the runtime rounds C to bf16 once, to nearest even") if not self.bfp16 else
                            ("mm.cc's bf16 mmul emulated with bfp16 (-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16): A per row and "
                             "B per column cut into blocks of 8 along K, each block one shared exponent and 8-bit mantissas, "
                             "rounded toward -inf; block products summed in f32 "
                             "(npubuild.emitters.aie.gemm_bfp16); the runtime rounds C to bf16 once, to nearest even")}),
        }


# ---- static checks ----------------------------------------------------------------------------------------------------


def core_bytes(tm: int, tk: int, tn: int, in_bytes: int = 1) -> int:
    """One core's data memory: A, B and C FIFOs double-buffered plus the GEMM stack."""
    return DEPTH * (in_bytes * (tm * tk + tk * tn) + 4 * tm * tn) + GEMM_STACK


def whole_array_problems(w: WholeArray) -> list[str]:
    """What aiecc, mm.cc or the hardware would reject (:mod:`.check`'s rules plus the sequence's own)."""
    p: list[str] = []
    r, s, t = w.mmul
    # mm.cc's static_asserts (TILE_MULTIPLES): e.g. i8 on aie2 m % 4r, k % s, n % 2t
    fm, fk, fn = TILE_MULTIPLES[(w.arch, w.in_dtype)]
    rm, sk, tn = fm * r, fk * s, fn * t
    if w.tm % rm or w.tk % sk or w.tn % tn:
        p.append(f"a {w.tm}x{w.tk}x{w.tn} microkernel does not satisfy mm.cc's m % {rm}, k % {sk}, n % {tn}")
    if w.in_dtype == "i8" and w.padded[1] * 128 * 128 > 2**31 - 1:  # the runner refuses such an ABI (runner.checks.MAX_GEMM_DEPTH)
        p.append(f"K padded to {w.padded[1]} sums more int8 products per output than an int32 accumulator holds")
    if w.cols not in WIDTHS or w.cols > w.device.columns:
        p.append(f"{w.cols} columns: whole_array takes {', '.join(map(str, WIDTHS))} up to the device's {w.device.columns}")
        return p
    if w.n_tiles > DMA_REPEAT_MAX:  # every A and B pattern repeats once per N-tile: say it once, skip the rest
        return p + [f"{w.n_tiles} N-tiles of {w.tn} per column: the shim DMA's repeat count ({w.n_tiles}) exceeds {DMA_REPEAT_MAX}"]
    fifos = {f.name: f for f in w.fifos}
    expect = Counter()
    for row in range(ROWS):
        src = next(ln.ins[0] for ln in w.links if w.a_l1(row) in ln.outs)
        expect[src] += w.tiles_per_core * w.k_blocks * fifos[w.a_l1(row)].elems
    for c in range(w.cols):
        expect[f"B_L3L2_{c}"] += w.tiles_per_core * w.k_blocks * fifos[w.b_l1(c)].elems
        expect[f"C_L2L3_{c}"] += ROWS * w.tiles_per_core * fifos[w.c_l1(c, 0)].elems
    # BD ids may repeat across transfer blocks (ping-pong); the checker sees each block's BDs apart
    # and :func:`sequence_problems` proves each reuse waits for its block to retire
    block_of, tagged, g = {}, [], 0
    for op in w.sequence:
        if isinstance(op, Wait):
            continue
        key = (op.column, op.bd_id)
        g = block_of[key] = block_of.get(key, -1) + 1
        tagged.append(Transfer(op.buffer, op.fifo, (op.column, g), op.offset, op.sizes, op.strides, op.bd_id, op.wait))
    acquires = {f.name for f in w.fifos if f.name.startswith(("A_L2L1", "B_L2L1", "C_L1L2"))}
    lay = Layout(
        device=w.device,
        columns=w.cols,
        buffers=w.buffers,
        fifos=w.fifos,
        links=w.links,
        transfers=tagged,
        cores=[w.core_tile(c, row) for c in range(w.cols) for row in range(ROWS)],
        stack=w.stack,
        core_acquires=acquires,
        expect=expect,
        outputs=[f"C_L2L3_{c}" for c in range(w.cols)],
    )
    p += layout_problems(lay)
    for tr in w.transfers:
        b = w.buffers[tr.buffer]
        eb = DTYPE_BYTES[b.dtype]
        # the repeat's stride (transfer_problems checks the three inner ones): AIEXDialect.cpp verifyStridesWraps
        if tr.sizes[0] > 1 and tr.strides[0] * eb // DMA_GRANULE > DMA_STRIDE_MAX:
            p.append(f"transfer of {b.name} to @{tr.fifo}: repeat stride of {tr.strides[0] * eb // DMA_GRANULE} words exceeds {DMA_STRIDE_MAX}")
    for f in w.fifos:
        if f.dims and f.elems % prod(sz for sz, _ in f.dims):
            p.append(f"@{f.name}: dimensionsToStream covers {prod(sz for sz, _ in f.dims)} elements, not a divisor of its {f.elems}")
    p += sequence_problems(w)
    return list(dict.fromkeys(p))


def sequence_problems(w: WholeArray) -> list[str]:
    """A buffer descriptor is reused only once the block that used it has retired: every transfer
    of a block feeds that block's C, so its C's completion (a dma_wait per column) frees its BDs."""
    p: list[str] = []
    block = -1  # a block starts with column 0's C transfer
    owner: dict = {}  # (column, bd) -> block that last used it
    outstanding: dict[str, list[int]] = {f"C_L2L3_{c}": [] for c in range(w.cols)}
    done: dict[str, set] = {k: set() for k in outstanding}
    for op in w.sequence:
        if isinstance(op, Wait):
            if not outstanding[op.fifo]:
                p.append(f"dma_wait on @{op.fifo} with no transfer outstanding")
            else:
                done[op.fifo].add(outstanding[op.fifo].pop(0))
            continue
        if op.wait and op.fifo == "C_L2L3_0":
            block += 1
        if op.wait:
            outstanding[op.fifo].append(block)
        key = (op.column, op.bd_id)
        prev = owner.get(key)
        if prev is not None and prev != block and not all(prev in d for d in done.values()):
            p.append(f"buffer descriptor {op.bd_id} of column {op.column} is reused by block {block} before block {prev} retired")
        owner[key] = block
    if any(outstanding.values()):
        p.append("the runtime sequence ends with C transfers never awaited")
    return p


# ---- planning -------------------------------------------------------------------------------------------------------


def candidates(kernel: str, device: Device, m: int, k: int, n: int, a_shape=(), b_shape=(), in_dtype: str = "i8",
               bf16_mmul: str = "native") -> list[WholeArray]:
    """Every tile and width mm.cc and the core memory allow, cheapest first."""
    mode = effective_bf16_mmul(bf16_mmul, device.arch, in_dtype)
    out = []
    eb = DTYPE_BYTES[in_dtype]
    for cols in (c for c in WIDTHS if c <= device.columns):
        for tm in TILE_M:
            for tk in TILE_K:
                for tn in TILE_N:
                    if core_bytes(tm, tk, tn, eb) > device.core_memory:
                        continue
                    out.append(WholeArray(kernel, device, m, k, n, tm, tk, tn, cols, tuple(a_shape), tuple(b_shape),
                                          in_dtype=in_dtype, bf16_mmul=mode))
    return sorted(out, key=_cost)


def call_cost(w: WholeArray) -> float:
    """MAC-equivalents one microkernel call costs beyond its MACs: :data:`CALL_COST`, and loading and storing
    its C tile in the accumulators (``roofline.Figures.accumulator_cycles`` at the device's MAC rate), which
    favours a deeper tk for the same tm x tn (whole_array's 64x64x32 bf16 tile rather than 64x32x64)."""
    from .roofline import FIGURES

    fig = FIGURES[w.device.name]
    return CALL_COST + fig.accumulator_cycles(w.tm, w.tn) * fig.macs(w.mac_dtype)


def with_mac_rate(facts: dict, abi: dict) -> dict:
    """``roofline.design_facts`` of a GEMM with the emulated bf16 mmul: its work (and the ideal design's) at the
    MAC rate of the 8x8x8 bfp16 mmul (key "bfp16" of ``roofline.Figures.macs``), not the native bf16 one."""
    if abi.get("bf16_mmul") == "bfp16":
        if isinstance(facts.get("work"), dict) and facts["work"].get("kind") == "matmul":
            facts["work"]["dtype"] = "bfp16"
        if isinstance(facts.get("ideal"), dict) and "macs" in facts["ideal"]:
            facts["ideal"]["dtype"] = "bfp16"
    return facts


def _cost(w: WholeArray):
    calls = w.tiles_per_core * w.k_blocks
    work = calls * w.tm * w.tk * w.tn  # MACs per core, padding included
    mp, kp, np_ = w.padded
    eb = DTYPE_BYTES[w.in_dtype]
    return (work + call_cost(w) * calls, eb * (mp * kp + kp * np_) + 4 * mp * np_, -w.cols, -w.tm, -w.tn, -w.tk)


def plan_whole_array(kernel: str, device: Device, m: int, k: int, n: int, a_shape=(), b_shape=(),
                     in_dtype: str = "i8", rank=None, bf16_mmul: str = "native") -> tuple[WholeArray | None, str]:
    """The cheapest whole-array design that passes every check, or (None, why none does). ``rank(w)``: a
    cost to order the candidates by first (the roofline model's time per run: a tile's DMA traffic, A re-read
    once per N-tile, can outweigh its compute), then by :func:`_cost`."""
    cands = candidates(kernel, device, m, k, n, a_shape, b_shape, in_dtype, bf16_mmul)
    if rank is not None:
        cost = {id(w): (rank(w), _cost(w)) for w in cands}
        cands.sort(key=lambda w: cost[id(w)])
    first = None
    for w in cands:
        probs = whole_array_problems(w)
        if not probs:
            return w, ""
        first = first or (w, probs)
    if first is None:
        return None, "no microkernel tile fits a core's data memory"
    w, probs = first
    return None, (f"no whole-array design fits (the {'fastest modelled' if rank is not None else 'cheapest'}, "
                  f"{w.cols} column(s) of {w.tm}x{w.tk}x{w.tn} tiles, "
                  f"fails: {'; '.join(probs[:3])})")
