"""mlir-aie's ``mm.cc`` microkernel as both int8 GEMM designs use it (the one-dispatch
whole-array design and the blocked overlay): its symbols, the Peano flags selecting a
configuration, the object's name, and a core's zero / K-loop / release step."""
from __future__ import annotations

from .text import IndexConsts, access_lines

# (input, accumulator) element types -> the mm.cc configuration: its ``combos`` entry
# (aie_kernels/aie2/mm.cc l.882-915, aie2p/mm.cc l.419-450 @1e400306) is selected by
# -D<in>_<out>_ONLY and names the functions matmul_<in>_<out> and zero_<out>.
# bf16 accumulates into f32 (bf16_f32), so a K loop of calls rounds only once, at the end.
MM_TYPES = {"i8": ("i8", "i32"), "bf16": ("bf16", "f32")}
MATMUL_FN = "matmul_i8_i32"
# bf16 mmul emulated with bfp16 (aie2p only): mm.cc then takes its 8x8x8 bf16 shape (aie_kernels/aie2p/mm.cc
# l.293-311 and the combos at l.439-453 @1e400306); aie_api's mmul<8,8,8,bfloat16,bfloat16> converts each A
# and B sub-tile to bfp16ebs8 before mac_8x8_8x8T (gemm_bfp16.py). aie2's mm.cc has no such define.
BFP16_DEFINE = "-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16"
ZERO_FN = "zero_i32"


def mm_symbols(in_dtype: str = "i8") -> tuple[str, str]:
    """(matmul, zero) symbols of mm.cc for ``in_dtype``."""
    a, c = MM_TYPES[in_dtype]
    return f"matmul_{a}_{c}", f"zero_{c}"


def mm_object(arch: str, m: int, k: int, n: int, in_dtype: str = "i8", bfp16: bool = False) -> str:
    """Object file basename; aiecc copies linked objects by basename, so it names the whole configuration
    (``bfp16``: the emulated bf16 mmul, another object)."""
    a, c = MM_TYPES[in_dtype]
    return f"mm_{arch}_{a}_{c}{'_bfp16' if bfp16 else ''}_{m}x{k}x{n}.o"


def mm_defines(arch: str, m: int, k: int, n: int, in_dtype: str = "i8", bfp16: bool = False) -> list[str]:
    """Peano ``clang++`` flags selecting the kernel in ``aie_kernels/<arch>/mm.cc`` (``bfp16``: with
    :data:`BFP16_DEFINE`, as mlir-aie's matrix_multiplication/makefile-common adds it for
    ``--emulate-bf16-mmul-with-bfp16``)."""
    # -DVECTORIZED_ONLY drops the unused matmul_scalar_*/zero_scalar_* from the core's
    # program memory, as mlir-aie's matrix_multiplication/whole_array/Makefile does
    # (@1e400306 l.70-75). Only aie2's mm.cc tests it (aie_kernels/aie2/mm.cc l.946-951
    # since #2387, 2025-08-14); aie2p/mm.cc builds both variants unconditionally.
    a, c = MM_TYPES[in_dtype]
    only = ["-DVECTORIZED_ONLY"] if arch == "aie2" else []
    emulate = [BFP16_DEFINE] if bfp16 else []
    return [f"-D{a}_{c}_ONLY", f"-DDIM_M={m}", f"-DDIM_K={k}", f"-DDIM_N={n}", *only, *emulate]


def mm_source(arch: str) -> str:
    """``mm.cc`` relative to the mlir-aie include directory."""
    return f"aie_kernels/{arch}/mm.cc"


class MmMicrokernel:
    """The mm.cc configuration of a GEMM design: subclasses give ``device`` and ``mm_dims`` (m, k, n),
    and ``in_dtype`` when it is not int8."""

    in_dtype = "i8"
    bf16_mmul = "native"  # "bfp16": the emulated 8x8x8 bf16 mmul (only ever set for bf16 on aie2p)

    @property
    def bfp16(self) -> bool:
        """mm.cc compiled with :data:`BFP16_DEFINE`."""
        return self.in_dtype == "bf16" and self.bf16_mmul == "bfp16"

    @property
    def acc_dtype(self) -> str:
        """The accumulator's (and C's) element type: i32 for int8, f32 for bf16."""
        return MM_TYPES[self.in_dtype][1]

    @property
    def symbols(self) -> tuple[str, str]:
        """(matmul, zero) functions of mm.cc (:func:`mm_symbols`)."""
        return mm_symbols(self.in_dtype)

    @property
    def arch(self) -> str:
        return self.device.arch

    @property
    def microkernel(self) -> str:
        """Object file basename (:func:`mm_object`)."""
        return mm_object(self.arch, *self.mm_dims, self.in_dtype, self.bfp16)

    @property
    def defines(self) -> list[str]:
        """Peano ``clang++`` flags selecting the kernel (:func:`mm_defines`)."""
        return mm_defines(self.arch, *self.mm_dims, self.in_dtype, self.bfp16)

    @property
    def define_names(self) -> list[str]:
        """:attr:`defines` without ``-D`` (the form ``toolchain.aiecc.compile_object`` takes)."""
        return [f[2:] for f in self.defines]

    @property
    def microkernel_source(self) -> str:
        """``mm.cc`` relative to the mlir-aie include directory."""
        return mm_source(self.arch)


def tile_step(fifos: dict, fa: str, fb: str, fc: str, k_blocks: int, types, k: IndexConsts,
              symbols: tuple[str, str] = (MATMUL_FN, ZERO_FN)) -> list[str]:
    """One C tile in a core: acquire it, zero it (``zero_i32``), ``k_blocks`` times acquire A and B and
    multiply-accumulate into it (``matmul_i8_i32``; an ``scf.for`` when more than one), release it."""
    a_ty, b_ty, c_ty = types
    matmul_fn, zero_fn = symbols
    step = [
        *access_lines(fifos[fa], fa, "Consume", "%a"),
        *access_lines(fifos[fb], fb, "Consume", "%b"),
        f"func.call @{matmul_fn}(%a, %b, %acc) : ({a_ty}, {b_ty}, {c_ty}) -> ()",
        f"aie.objectfifo.release @{fa}(Consume, 1)",
        f"aie.objectfifo.release @{fb}(Consume, 1)",
    ]
    tile = [*access_lines(fifos[fc], fc, "Produce", "%acc"), f"func.call @{zero_fn}(%acc) : ({c_ty}) -> ()"]
    if k_blocks > 1:
        tile += [f"scf.for %kb = {k(0)} to {k(k_blocks)} step {k(1)} {{", *("  " + ln for ln in step), "}"]
    else:
        tile += step
    tile.append(f"aie.objectfifo.release @{fc}(Produce, 1)")
    return tile
