"""NumPy, imported on first use.

The build's no-op path must not pay NumPy's import time; the oracles use this
proxy so that importing the catalog stays cheap.
"""
from __future__ import annotations

import importlib


class _LazyModule:
    def __init__(self, name: str):
        self._name = name
        self._mod = None

    def __getattr__(self, attr):
        if self._mod is None:
            self._mod = importlib.import_module(self._name)
        return getattr(self._mod, attr)


np = _LazyModule("numpy")
