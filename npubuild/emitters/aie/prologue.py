"""What a core runs on each chunk before an mlir-aie kernel that needs it (``kernel_library.LibraryKernel.prologue``):
the generated function and the local buffer it fills, named once here for the planner, the text and the model."""
from __future__ import annotations

PROLOGUE = "shift"  # the function's name inside aie.device (kernel_library.ROW_SHIFT)


def prologue_local(tile: tuple[int, int]) -> str:
    """The ``aie.buffer`` of core ``tile`` the prologue writes the chunk into and the kernel reads."""
    return f"shift_{tile[0]}_{tile[1]}"


def prologue_function(d):
    """The generated ``@shift`` of design ``d`` (a :class:`~npubuild.emitters.host.mlir_text.KernelFunction`): the
    chunk's rows minus their maxima, rounded to bf16 (``vector_rows.emit_row_shift``, under the current profile)."""
    from ..host.vector_rows import emit_row_shift

    text = emit_row_shift(d.body)
    if text is None:  # kernel_library only offers the kernel where its prologue has a vector form
        raise ValueError(f"{d.kernel}: no prologue for mlir-aie's {d.call.kernel.symbol}")
    return text.function.renamed(PROLOGUE)
