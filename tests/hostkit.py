"""Compile host kernels for tests: emit, lower, link, open (in parallel)."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from npubuild.emitters import host as emitters
from npubuild.runner.host import HostKernel
from npubuild.toolchain import host as toolchain


def compile_kernels(instances, out_dir: Path) -> dict:
    """instance key -> HostKernel for each KernelInstance (duplicates compiled once)."""
    unique = {inst.key: inst for inst in instances}

    def build(inst):
        so = Path(out_dir) / f"{inst.id}_{inst.key[:8]}.so"
        toolchain.compile_shared_library(emitters.emit(inst), so, so.with_suffix(".log"))
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
        opname = ln.split(" = ", 1)[1].split()[0] if " = " in ln else ln.split()[0]
        if "." in opname and not opname[0].isdigit():
            assert opname.split(".")[0] in STANDARD_DIALECTS, (where, ln)
        assert "func.call" not in ln and "math." not in ln, (where, ln)
