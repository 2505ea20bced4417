"""The target names specs and the project's config may use: the built-in targets' (constants.TARGETS,
the order npubuild.targets registers their objects in) and any a program registered since
(npubuild.targets.register adds the name here). The spec loader and the config read names from here
because they may not import the targets themselves (tests/test_layout.py)."""
from __future__ import annotations

from .constants import TARGETS

_REGISTERED: list[str] = []


def known_targets() -> tuple[str, ...]:
    """Every target name, built-ins first in their order."""
    return (*TARGETS, *(n for n in _REGISTERED if n not in TARGETS))


def add(name: str) -> None:
    if name not in _REGISTERED:
        _REGISTERED.append(name)


def remove(name: str) -> None:
    if name in _REGISTERED:
        _REGISTERED.remove(name)
