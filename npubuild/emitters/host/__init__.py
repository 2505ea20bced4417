"""Host emitters: KernelInstance -> standard-dialect MLIR text (func/scf/arith/memref).

Each op-family module exposes ``EMITTERS: dict[op name, (KernelInstance) ->
str]`` and is listed in ``FAMILIES`` (an explicit import, so that the package's
imports can be read without running it; a test checks that none is left out).
``EMITTER_VERSION`` is the sha256 of this package's source files: it changes
whenever emitter code changes and belongs in the cache key of the emitted text.

The text must be deterministic (a pure function of the instance and this code).
:func:`emit` adds the ``npubuild_abi`` constant (mlir_text.abi_global) to every module.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

from ...core.errors import UnsupportedOnTarget
from ...specfile.instances import KernelInstance
from . import (
    attention,
    cast,
    conv,
    einsum,
    elementwise,
    indexing,
    matmul_nbits,
    mlir_text,
    movement,
    nn,
    normalize,
    power,
    quant,
    reduce,
    resize,
    select,
    topk,
    unary_math,
)

FAMILIES = (attention, cast, conv, einsum, elementwise, indexing, matmul_nbits, movement, nn, normalize, power, quant,
            reduce, resize, select, topk, unary_math)

EMITTERS: dict[str, Callable[[KernelInstance], str]] = {}
for _mod in FAMILIES:
    for _op, _fn in _mod.EMITTERS.items():
        if _op in EMITTERS:
            raise RuntimeError(f"host emitter for {_op!r} registered twice")
        EMITTERS[_op] = _fn


def _source_hash() -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for p in sorted(here.glob("*.py")):
        h.update(p.name.encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


EMITTER_VERSION: str = _source_hash()


def has_emitter(op_name: str) -> bool:
    return op_name in EMITTERS


def emit(instance: KernelInstance) -> str:
    """The MLIR text of ``instance``; UnsupportedOnTarget if no host emitter exists."""
    return mlir_text.with_abi(_emit_module(instance), mlir_text.kernel_abi(instance, _functions(instance)))


def kernel_function(instance: KernelInstance) -> mlir_text.KernelFunction:
    """The ``func.func @kernel`` of ``instance`` as data (the function :func:`emit` writes), for a
    target that places it in a module of its own (xdna's cores call it as their body)."""
    text = _emit_module(instance)
    if not isinstance(text, mlir_text.KernelText):
        # a module with more than the kernel function (the int8 matmul's gemm_tile) has no single body
        raise UnsupportedOnTarget(f"{instance.id}: the host module of op '{instance.op}' is not a single kernel function")
    return text.function


def _emit_module(instance: KernelInstance) -> str:
    fn = EMITTERS.get(instance.op)
    if fn is None:
        raise UnsupportedOnTarget(
            f"{instance.id}: op '{instance.op}' has no host emitter yet "
            f"(host emitters exist for: {', '.join(sorted(EMITTERS))})"
        )
    return fn(instance)


def _functions(instance: KernelInstance) -> dict | None:
    """Entry points besides ``kernel``: the int8 matmul's ``gemm_tile`` and ``gemm_tile_rows`` (quant.emit_matmul), whose
    shapes the runtime derives from the overlay geometry, so a runtime of another geometry is refused."""
    if instance.op != "matmul" or instance.dtype != "i8":
        return None
    from ...ops.gemm_layout import overlay_geometry

    from .vector_gemm import tile_functions

    d, kt, cols = overlay_geometry(instance.inputs[0].shape[-1], instance.inputs[1].shape[1])
    return {name: [{"shape": s, "dtype": t} for s, t in shapes] for name, shapes in tile_functions(d, kt * d, cols * d).items()}
