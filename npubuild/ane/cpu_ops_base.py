"""The registry of MIL ops' CPU forms and the helpers every form uses (:mod:`.cpu_ops` holds the
dispatch and the element-wise forms, :mod:`.cpu_ops_nn` and :mod:`.cpu_ops_tensor` the others)."""
from __future__ import annotations

from ..ops.lazy_numpy import np

OPS: dict = {}


class Args(dict):
    """An op's operands by parameter name, plus the declared result (``out_shape``, ``out_dtype``). A parameter
    named like a dict method (``values``, ``update``) is read as ``a["values"]``: ``a.values`` is the method."""

    out_shape: list = []
    out_dtype: str = "fp16"

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def register(*names):
    def deco(fn):
        for n in names:
            OPS[n] = fn
        return fn

    return deco


def axis_of(axis, rank: int) -> int:
    return int(axis) % rank if rank else 0


def _p(a, key, default):
    """Parameter ``key`` of ``a``, or its MIL default when the program leaves it out."""
    v = a.get(key)
    return default if v is None else v


def _per_channel(v, rank: int):
    """A per-channel parameter [C] shaped to broadcast along axis 1 of a rank-``rank`` tensor."""
    v = np.asarray(v).reshape(-1)
    return v.reshape([1, -1] + [1] * (rank - 2)) if rank >= 2 else v
