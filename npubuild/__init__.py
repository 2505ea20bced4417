"""npubuild: a build system for NPU kernels.

``npubuild.load(DIR)`` opens a built artifact directory (see runner/runtime.py).
"""
from __future__ import annotations

__version__ = "0.1.0"


def load(path="artifacts", **kwargs):
    from .runner.runtime import load as _load

    return _load(path, **kwargs)
