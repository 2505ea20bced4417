"""npubuild: a build system for NPU kernels.

``npubuild.load(DIR)`` opens a built artifact directory (see runner/runtime.py).
"""
from __future__ import annotations

from .core.version import __version__  # noqa: F401 - the one place it is written


def load(path="artifacts", **kwargs):
    from .runner.runtime import load as _load

    return _load(path, **kwargs)
