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
