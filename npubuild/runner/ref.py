"""The ref backend: every kernel is its op's NumPy oracle."""
from __future__ import annotations

from ..core.errors import UserError
from ..ops import REGISTRY
from ..ops.registry import NUMPY_DTYPE, normalize_attrs
from .kernel_base import KernelBase


def run_oracle(op_name: str, inputs: list, attrs: dict, dtype: str, out_dtype: str):
    """Run the oracle and return an array of the op's output dtype."""
    import numpy as np

    out = REGISTRY[op_name].evaluate(list(inputs), attrs, dtype)
    return np.asarray(out).astype(NUMPY_DTYPE[out_dtype], copy=False)


class RefKernel(KernelBase):
    """No params to prepare (``bind_param`` is KernelBase's no-op): the oracle takes every input per call."""

    def __init__(self, desc: dict):
        self.desc = desc
        if desc["op"] not in REGISTRY:
            raise UserError(f"kernel '{desc['id']}': op '{desc['op']}' is unknown to this npubuild (built by a newer version?)")
        self.out = desc["outputs"][0]
        self.attrs = normalize_attrs(REGISTRY[desc["op"]], desc["attrs"])

    def __call__(self, *arrays):
        y = run_oracle(self.desc["op"], arrays, self.attrs, self.desc["dtype"], self.out["dtype"])
        if list(y.shape) != list(self.out["shape"]):
            raise UserError(f"kernel '{self.desc['id']}': oracle produced shape {list(y.shape)}, manifest says {self.out['shape']}")
        return y
