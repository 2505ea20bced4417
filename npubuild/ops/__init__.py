"""The op catalog: each op's inputs, typed attrs, dtypes, shape rule, NumPy oracle
and per-target restrictions (gemm_layout.py: the int8 GEMM overlay's blocking and host
layouts, which the emitters and the runtime share). May import only the foundation
(errors, constants, canonical).

Importing this package registers every op in REGISTRY."""
from __future__ import annotations

from . import elementwise, movement, nn, normalize, quant, reduce  # noqa: F401  (registers ops)
from .registry import REGISTRY, OpDef, check_target, normalize_attrs  # noqa: F401


def get(name: str) -> OpDef | None:
    return REGISTRY.get(name)
