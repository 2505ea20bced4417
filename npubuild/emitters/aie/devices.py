"""NPU devices and the hardware limits the design emitter and its checker obey.

Geometry from mlir-aie ``docs/Devices.md`` (research notes xdna.md §1c): every
column has a shim tile (row 0, DMA to host memory), a mem tile (row 1) and four
compute tiles (rows 2-5). ``npu1`` (Phoenix / Hawk Point, AIE2 cores) exposes 4
columns, ``npu2`` (Strix / Strix Halo / Krackan, AIE2P cores) 8. A design that
uses k < all columns is emitted for the ``<dev>_<k>col`` partition so that the
driver reserves only those columns.

DMA channel counts and memory sizes are the AIE-ML architecture's: a compute
tile has 64 KiB of data memory and 2 input + 2 output DMA channels, a mem tile
512 KiB, 6 + 6 channels, 48 buffer descriptors and 64 locks, a shim tile 2 + 2
and 16 buffer descriptors (research notes xdna-review.md, "Budgets"). Both
devices have four core rows per column, so a streamed design can run on up to
``columns * core_rows`` cores (npu1 16, npu2 32).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import UnsupportedOnTarget


@dataclass(frozen=True)
class Device:
    name: str
    columns: int
    arch: str  # Peano target: aie2 / aie2p
    core_memory: int = 64 * 1024
    mem_tile_memory: int = 512 * 1024
    core_in_channels: int = 2
    core_out_channels: int = 2
    mem_in_channels: int = 6
    mem_out_channels: int = 6
    shim_in_channels: int = 2  # host -> array (MM2S)
    shim_out_channels: int = 2  # array -> host (S2MM)
    shim_bds: int = 16
    mem_bds: int = 48
    mem_locks: int = 64
    core_rows: int = 4  # compute rows FIRST_CORE_ROW .. FIRST_CORE_ROW + core_rows - 1

    def partition(self, cols: int) -> str:
        """The aie.device name for a design on the first ``cols`` columns."""
        return self.name if cols == self.columns else f"{self.name}_{cols}col"


DEVICES = {
    "npu1": Device("npu1", 4, "aie2"),
    "npu2": Device("npu2", 8, "aie2p"),
}
DEFAULT_DEVICE = "npu1"


def device(options: dict | None) -> Device:
    """The device ``options`` names (``device``; npu1 by default). Here, with the table, so
    that every module of the package may look a device up without importing the package."""
    name = (options or {}).get("device", DEFAULT_DEVICE)
    try:
        return DEVICES[name]
    except KeyError:
        raise UnsupportedOnTarget(f"unknown xdna device '{name}' (known: {', '.join(DEVICES)})") from None

FIRST_CORE_ROW = 2  # row 0 shim, row 1 mem tile

# aie.core stack size (bytes). mlir-aie's default is 0x400; the stack lives in
# the core's data memory, so it comes out of the buffer budget.
DEFAULT_STACK = 0x400
# Peano needs more stack for mm.cc than the default, and overflowing it gives
# wrong results without any error (research notes §1b, single_core.py).
GEMM_STACK = 0xD00

# Shim DMA limits (mlir-aie AIEXDialect.cpp NpuDmaMemcpyNdOp::verify, research
# notes §1c): sizes and strides are counted in 32-bit words; the two inner
# wraps are 10-bit, the repeat (outermost) count at most 64, strides at most
# 1M words; offsets and transfer lengths are multiples of 4 bytes.
DMA_WRAP_MAX = 1023
DMA_REPEAT_MAX = 64
DMA_STRIDE_MAX = 1 << 20
DMA_GRANULE = 4

# What the NPU cannot carry, whatever the op: an i64 tensor (the shim DMA's dma_memcpy_nd) or an f16 one
# (Peano's legalizer); the rules, with the mlir-aie and llvm-aie sources behind them, are the xdna
# target's (npubuild/targets/xdna/rules.py), and the emitter's own last check says the same.
XDNA_I64_TEXT = (
    "no i64 tensors (the NPU's shim DMA moves elements of at most 32 bits): use i32"
    "; argmax/argmin/gather: attrs index_dtype: i32"
)
XDNA_U8_TEXT = (
    "no u8 tensors (no xdna design has been checked with unsigned bytes; the simulated and golden designs "
    "carry i8, i32, f32 and bf16): cast to i32 or i8 first, or run the kernel on host"
)
# Ops no xdna design computes: op -> what is missing (the xdna target refuses every instance at spec time
# with this reason, targets/xdna/rules.NO_DESIGN, and design_for never builds one)
NO_XDNA_DESIGN = {
    "matmul_nbits": "it needs a core body that unpacks the 4/8-bit codes and applies the "
    "per-block scales and zero points ahead of mm.cc's bf16 GEMM tiles, which npubuild does not have; "
    "run it on host, or dequantize the weights once to bf16 and use matmul bf16",
    "dequantize_nbits": "it needs a core body that unpacks the 4/8-bit codes (the u8 bytes "
    "no checked design carries); dequantize on host, once, and feed the bf16 weight to matmul bf16",
}
XDNA_SUB_BYTE_TEXT = (
    "no i4 or u4 tensors (the NPU's DMAs move whole bytes and no design unpacks 4-bit codes): quantize to i8 "
    "for the NPU, or run the kernel on host"
)
XDNA_F16_TEXT = (
    "no f16 tensors (Peano compiles every 16-bit float as bfloat16, so f16 would be computed wrongly): "
    "use bf16, the NPU's float (or f32, which AIE cores compute in software)"
)
