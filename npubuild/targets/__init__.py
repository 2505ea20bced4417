"""Targets as plugins: ref, host, xdna and ane, each a package holding one object that
implements :class:`npubuild.targets.base.Target`, found here by name.

The build's task creators, the runtime and the command line loop over this
registry instead of branching on target names. A target package may import the
stages it builds and runs with (ops, spec, emitters, toolchain, ane, artifacts,
the runner's kernel classes); nothing outside imports a target package except
through this registry.
"""
from __future__ import annotations

from ..core import target_names
from .base import GraphUnit, Kernel, Target

__all__ = ["GraphUnit", "Kernel", "Target", "all_targets", "backends", "by_backend", "get", "register", "unregister"]

_REGISTRY: dict[str, Target] = {}
_LOADED: list[bool] = []  # non-empty once the built-ins are registered


def _builtins() -> None:
    """Register the built-in targets once, in the order they are listed (ref, host, xdna, ane).
    Imported on first use: the packages import nothing heavy until a method needs it."""
    if _LOADED:
        return
    _LOADED.append(True)
    from .ane import TARGET as ane
    from .host import TARGET as host
    from .ref import TARGET as ref
    from .xdna import TARGET as xdna

    # core.constants.TARGETS lists the same names, for the stages that may not import targets
    for t in (ref, host, xdna, ane):
        _REGISTRY.setdefault(t.name, t)


def register(target: Target) -> Target:
    """Add ``target`` (a new name, or a replacement of the same name); returns it."""
    _builtins()
    _REGISTRY[target.name] = target
    target_names.add(target.name)  # specs and the config may name it now
    return target


def unregister(name: str) -> None:
    _builtins()
    _REGISTRY.pop(name, None)
    target_names.remove(name)


def all_targets() -> list[Target]:
    """Every registered target, built-ins first in their listed order."""
    _builtins()
    return list(_REGISTRY.values())


def get(name: str) -> Target | None:
    return next((t for t in all_targets() if t.name == name), None)


def by_backend(backend: str) -> Target | None:
    """The target the runtime calls ``backend`` (xdna runs as "xrt")."""
    return next((t for t in all_targets() if t.backend == backend), None)


def backends(kernels_only: bool = False) -> tuple[str, ...]:
    """Backend names in registry order; ``kernels_only`` leaves out targets that run whole graphs only."""
    return tuple(t.backend for t in all_targets() if not (kernels_only and getattr(t, "graph_kind", None)))
