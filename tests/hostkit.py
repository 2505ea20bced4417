"""Compile host kernels for tests: emit, lower, link, open (in parallel)."""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from npubuild.emitters import host as emitters
from npubuild.runner.host import HostKernel
from npubuild.toolchain import host as toolchain

# Many test modules compile the same kernel text (the same instance in two
# families' tables, an xdna body that is equal on npu1 and npu2): each distinct
# text is compiled once per test session into one temporary directory. Callers
# get their own HostKernel on the shared library, which tests only read and call.
_SESSION_DIR: Path | None = None
_SESSION_SO: dict[str, Path] = {}
_LOCK = threading.Lock()


def _session_dir() -> Path:
    global _SESSION_DIR
    with _LOCK:
        if _SESSION_DIR is None:
            _SESSION_DIR = Path(tempfile.mkdtemp(prefix="npubuild-test-kernels-"))
            atexit.register(shutil.rmtree, _SESSION_DIR, True)
        return _SESSION_DIR


def compiled_library(text: str, name: str) -> Path:
    """The shared library of MLIR ``text``, compiled on first request in this session.

    ``name`` only makes the file recognisable; the text's hash decides identity.
    A failed compile raises every time (nothing is cached for it)."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    with _LOCK:
        so = _SESSION_SO.get(digest)
    if so is not None:
        return so
    so = _session_dir() / f"{name[:60]}_{digest[:16]}.so"
    # two threads asking for the same text both compile it; the library appears atomically
    toolchain.compile_shared_library(text, so, so.with_suffix(".log"))
    with _LOCK:
        _SESSION_SO[digest] = so
    return so


def compile_kernels(instances, out_dir: Path | None = None) -> dict:
    """instance key -> HostKernel for each KernelInstance (duplicates compiled once per session).

    ``out_dir`` is kept for callers' signatures; the libraries live in the session's directory."""
    unique = {inst.key: inst for inst in instances}

    def build(inst):
        so = compiled_library(emitters.emit(inst), f"{inst.id}_{inst.key[:8]}")
        return inst.key, HostKernel(so, inst.describe())

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        return dict(pool.map(build, unique.values()))


STANDARD_DIALECTS = ("func", "scf", "arith", "memref", "vector")


def assert_standard_dialects(text: str, where: str = "") -> None:
    """Every op of an emitted body is func/scf/arith/memref/vector: no math dialect, no calls."""
    for ln in text.splitlines():
        ln = ln.strip()
        if not ln or ln.startswith("//"):
            continue
        # a module member (memref.global ... = dense<...>) is named by its first word
        opname = ln.split(" = ", 1)[1].split()[0] if " = " in ln and not ln.startswith("memref.global") else ln.split()[0]
        if "." in opname and not opname[0].isdigit():
            assert opname.split(".")[0] in STANDARD_DIALECTS, (where, ln)
        assert "func.call" not in ln and "math." not in ln, (where, ln)
