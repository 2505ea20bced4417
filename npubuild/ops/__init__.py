"""The op catalog: each op's inputs, typed attrs, dtypes, shape rule and NumPy oracle
(gemm_layout.py: the int8 GEMM overlay's blocking and host layouts, which the emitters
and the runtime share). What a target cannot run is in that target's package
(npubuild/targets/xdna/rules.py), not here. May import only the foundation (errors,
constants, canonical).

Importing this package registers every op in REGISTRY."""
from __future__ import annotations

# importing each module registers its ops
from . import (  # noqa: F401
    attention, conv, einsum, elementwise, indexing, matmul_nbits, movement, nn, normalize, quant, reduce, resize, topk,
)
from .registry import REGISTRY, OpDef, normalize_attrs  # noqa: F401


def get(name: str) -> OpDef | None:
    return REGISTRY.get(name)
