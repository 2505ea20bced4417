"""Compiled targets: what the build needs to know about each.

A target that produces artifacts (today ``host``; later ``xdna``) is one object
here naming its file names, its emitter and its toolchain driver; the doit
tasks, the build actions and the manifest only talk to this interface. Heavy
modules (the MLIR bindings) are imported only when a method needs them.
"""
from __future__ import annotations

from pathlib import Path


class HostTarget:
    name = "host"
    source_name = "kernel.mlir"
    binary_name = "kernel.so"

    def has_emitter(self, op: str) -> bool:
        from .emitters.host import has_emitter

        return has_emitter(op)

    def emitter_version(self) -> str:
        from .emitters.host import EMITTER_VERSION

        return EMITTER_VERSION

    def emit(self, instance) -> str:
        from .emitters.host import emit

        return emit(instance)

    def fingerprint(self, cache_dir: Path) -> dict:
        from .toolchain.host import fingerprint

        return fingerprint(cache_dir)

    def flags(self):
        from .toolchain.host import HOST_FLAGS

        return HOST_FLAGS

    def compile(self, source_text: str, out_dir: Path, log_path: Path) -> None:
        from .toolchain.host import compile_shared_library

        compile_shared_library(source_text, out_dir / self.binary_name, log_path)


COMPILED: dict[str, HostTarget] = {"host": HostTarget()}


def builds(target: str, op: str) -> bool:
    """True when ``target`` produces an artifact for ``op`` (ref needs none)."""
    t = COMPILED.get(target)
    return t is not None and t.has_emitter(op)


def not_built_reason(target: str, op: str) -> str | None:
    """Why ``target`` has no artifact for ``op``; None when it has one or needs none."""
    if target == "ref" or builds(target, op):
        return None
    return "not yet emitted"


def compiled_pairs(plan):
    """(kernel id, instance, target object) for every artifact the plan builds."""
    for kid, inst in plan.instances.items():
        for t in plan.targets[kid]:
            if builds(t, inst.op):
                yield kid, inst, COMPILED[t]
