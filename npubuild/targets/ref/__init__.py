"""The ``ref`` target: the NumPy oracle of each op. It emits and compiles nothing and opens every
kernel the op catalog accepts; the smallest target, the one docs/adding-a-target.md walks through."""
from __future__ import annotations

from pathlib import Path


class RefTarget:
    name = "ref"
    unit = "kernel"
    backend = "ref"
    variants: tuple[str, ...] = ()
    needs_binary = False  # the oracle runs from the manifest record alone
    auto_rank = 2  # the last resort of backend="auto": it always runs
    graph_kind: str | None = None  # runs kernels, not whole graphs

    # -- build: nothing to build ----------------------------------------------------------------
    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        return None  # every op in the catalog has an oracle (the catalog refuses the others first)

    def restrictions(self, op: str) -> tuple:
        return ()

    def emitter_version(self) -> str:
        return ""

    def emit(self, instance, options: dict) -> str:
        return ""

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        return None

    def fingerprint(self, cache_dir: Path) -> dict:
        return {}

    def flags(self, config=None):
        return None

    def compile(self, source_text, out_dir, log_path, instance, options, store_root, toolchain, **kw) -> None:
        return None

    # -- run ------------------------------------------------------------------------------------
    def open(self, record: dict, files):
        if record.get("op") == "matmul" and record.get("dtype") == "i8":
            # the blocked int8 GEMM of npubuild.runner.gemm over the oracle's tile product
            from ...runner.gemm import GemmKernel, RefDispatch

            return GemmKernel(record, lambda g: RefDispatch(g.kk))
        from ...runner.ref import RefKernel

        return RefKernel(record)

    def auto_problem(self, ctx, lacking: list[str]) -> str | None:
        return None

    def traffic(self, ctx):
        return None


TARGET = RefTarget()
