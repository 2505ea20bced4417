"""mlir-aie's ``mm.cc`` microkernel as both int8 GEMM designs use it (the one-dispatch
whole-array design and the blocked overlay): its symbols, the Peano flags selecting a
configuration, the object's name, and a core's zero / K-loop / release step."""
from __future__ import annotations

from .text import IndexConsts, access_lines

MATMUL_FN = "matmul_i8_i32"
ZERO_FN = "zero_i32"


def mm_object(arch: str, m: int, k: int, n: int) -> str:
    """Object file basename; aiecc copies linked objects by basename, so it names the whole configuration."""
    return f"mm_{arch}_i8_i32_{m}x{k}x{n}.o"


def mm_defines(arch: str, m: int, k: int, n: int) -> list[str]:
    """Peano ``clang++`` flags selecting the kernel in ``aie_kernels/<arch>/mm.cc``."""
    # -DVECTORIZED_ONLY drops the unused matmul_scalar_*/zero_scalar_* from the core's
    # program memory, as mlir-aie's matrix_multiplication/whole_array/Makefile does
    # (@1e400306 l.70-75). Only aie2's mm.cc tests it (aie_kernels/aie2/mm.cc l.946-951
    # since #2387, 2025-08-14); aie2p/mm.cc builds both variants unconditionally.
    only = ["-DVECTORIZED_ONLY"] if arch == "aie2" else []
    return ["-Di8_i32_ONLY", f"-DDIM_M={m}", f"-DDIM_K={k}", f"-DDIM_N={n}", *only]


def mm_source(arch: str) -> str:
    """``mm.cc`` relative to the mlir-aie include directory."""
    return f"aie_kernels/{arch}/mm.cc"


class MmMicrokernel:
    """The mm.cc configuration of a GEMM design: subclasses give ``device`` and ``mm_dims`` (m, k, n)."""

    @property
    def arch(self) -> str:
        return self.device.arch

    @property
    def microkernel(self) -> str:
        """Object file basename (:func:`mm_object`)."""
        return mm_object(self.arch, *self.mm_dims)

    @property
    def defines(self) -> list[str]:
        """Peano ``clang++`` flags selecting the kernel (:func:`mm_defines`)."""
        return mm_defines(self.arch, *self.mm_dims)

    @property
    def define_names(self) -> list[str]:
        """:attr:`defines` without ``-D`` (the form ``toolchain.aiecc.compile_object`` takes)."""
        return [f[2:] for f in self.defines]

    @property
    def microkernel_source(self) -> str:
        """``mm.cc`` relative to the mlir-aie include directory."""
        return mm_source(self.arch)


def tile_step(fifos: dict, fa: str, fb: str, fc: str, k_blocks: int, types, k: IndexConsts) -> list[str]:
    """One C tile in a core: acquire it, ``zero_i32``, ``k_blocks`` times acquire A and B and
    ``matmul_i8_i32`` into it (an ``scf.for`` when more than one), release it."""
    a_ty, b_ty, c_ty = types
    step = [
        *access_lines(fifos[fa], fa, "Consume", "%a"),
        *access_lines(fifos[fb], fb, "Consume", "%b"),
        f"func.call @{MATMUL_FN}(%a, %b, %acc) : ({a_ty}, {b_ty}, {c_ty}) -> ()",
        f"aie.objectfifo.release @{fa}(Consume, 1)",
        f"aie.objectfifo.release @{fb}(Consume, 1)",
    ]
    tile = [*access_lines(fifos[fc], fc, "Produce", "%acc"), f"func.call @{ZERO_FN}(%acc) : ({c_ty}) -> ()"]
    if k_blocks > 1:
        tile += [f"scf.for %kb = {k(0)} to {k(k_blocks)} step {k(1)} {{", *("  " + ln for ln in step), "}"]
    else:
        tile += step
    tile.append(f"aie.objectfifo.release @{fc}(Produce, 1)")
    return tile
