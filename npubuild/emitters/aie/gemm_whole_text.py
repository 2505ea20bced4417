"""The one-dispatch GEMM (:mod:`.gemm_whole`) as AIE-dialect MLIR text."""
from __future__ import annotations

from ...core.errors import UnsupportedOnTarget
from ...ops.registry import fmt_shape
from ..host.mlir_text import memref_type
from .frame import DeviceModule, core_lines, sequence_op
from .gemm_micro import tile_step
from .gemm_whole import ROWS, WholeArray
from .text import FOREVER, IndexConsts

# ---- rendering ------------------------------------------------------------------------------------------------------


def render_whole_array(w: WholeArray, options: dict) -> str:
    """AIE-dialect MLIR of the design. Constructs and their mlir-aie sources:
    objectfifo with ``dimensionsToStream`` and several consumers, and distribute links with offsets
    (test/objectFifo-stateful-transform/dma_transformations/nd_dma_distribute_broadcast_AIE2.mlir);
    join links with offsets (test/objectFifo-stateful-transform/data_movement_patterns/link/
    link_test_join_offsets.mlir); ``dma_memcpy_nd`` with 4-D sizes/strides, ``issue_token`` and
    ``dma_wait`` (test/Conversion/DmaToNpu/dma_to_npu.mlir), interleaved per transfer block as
    whole_array.py's sequence emits them; the core's loops and microkernel calls as the overlay
    (:mod:`.gemm`) and whole_array.py's core_body."""
    link_with = options.get("link_with", "func")
    if link_with not in ("func", "core"):
        raise UnsupportedOnTarget(f"{w.kernel}: unknown link_with placement '{link_with}' (expected func or core)")
    a_ty, b_ty = memref_type((w.tm, w.tk), w.in_dtype), memref_type((w.tk, w.tn), w.in_dtype)
    c_ty = memref_type((w.tm, w.tn), w.acc_dtype)
    matmul_fn, zero_fn = w.symbols
    attrs = f' attributes {{link_with = "{w.microkernel}"}}' if link_with == "func" else ""
    decls = [f"    func.func private @{zero_fn}({c_ty}){attrs}", f"    func.func private @{matmul_fn}({a_ty}, {b_ty}, {c_ty}){attrs}"]
    fifos = w.fifos
    by_name = {f.name: f for f in fifos}
    cores = [ln for c in range(w.cols) for row in range(ROWS) for ln in _core(w, c, row, by_name, link_with, (a_ty, b_ty, c_ty))]
    module = DeviceModule(header(w), w.partition, fifos, w.links, decls, cores, w.buffers, w.sequence, decls_first=True)
    return module.render(sequence_op(options))


def _core(w: WholeArray, col: int, row: int, fifos: dict, link_with: str, types) -> list[str]:
    fa, fb, fc = w.core_fifos(col, row)
    k = IndexConsts()
    tile = tile_step(fifos, fa, fb, fc, w.k_blocks, types, k, w.symbols)
    if w.tiles_per_core > 1:
        body = [f"scf.for %tile = {k(0)} to {k(w.tiles_per_core)} step {k(1)} {{", *("  " + ln for ln in tile), "}"]
    else:
        body = tile
    loop = [f"scf.for %run = {k(0)} to {k(FOREVER)} step {k(1)} {{", *("  " + ln for ln in body), "}"]
    attrs = f'link_with = "{w.microkernel}", ' if link_with == "core" else ""
    return core_lines(w.core_tile(col, row), k.lines, loop, f"{attrs}stack_size = {w.stack} : i32")


def header(w: WholeArray) -> list[str]:
    mp, kp, np_ = w.padded
    r, s, t = w.mmul
    return [
        f"npubuild xdna kernel {w.kernel}",
        (f"op: matmul, dtype: i8 (one-dispatch {w.variant} int8 GEMM, int32 accumulation)" if w.in_dtype == "i8" else
         f"op: matmul, dtype: bf16 (one-dispatch {w.variant} bf16 GEMM, f32 accumulation, one rounding by the runtime)"),
        f"problem: a {fmt_shape(w.a_shape)} (M={w.m}, K={w.k}), b {fmt_shape(w.b_shape)} (N={w.n}); "
        f"padded by the runtime to {mp} x {kp} x {np_}; one dispatch per run",
        f"device {w.device.name}, partition {w.partition}: {ROWS} rows x {w.cols} column(s) = {w.cores} cores, "
        f"{w.tiles_per_core} C tile(s) of {w.tm}x{w.tn} per core, {w.k_blocks} K-block(s) of {w.tk} each",
        f"microkernel {w.microkernel}: {w.microkernel_source} {' '.join(w.defines)} ({w.arch}, mmul {r}x{s}x{t}), "
        f"stack {w.stack} bytes",
        w.header_streams(),
        "host buffers (XRT group id: name (shape dtype, row-major)): "
        + "; ".join(f"{3 + i}: {b.name} ({x}x{y} {b.dtype})" for i, (b, (x, y)) in enumerate(zip(w.buffers, ((mp, kp), (kp, np_), (mp, np_))))),
    ]
