"""What a build action needs to open the stores: a small frozen, picklable value.

Actions run in doit worker processes, so they receive a :class:`StoreAccess`
built from the Config instead of the plan. :func:`open_stores` turns it (or a
bare local store path, for callers that only know the path) into a
:class:`~npubuild.artifacts.stores.layered.Layered` kept for the life of the process.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.limits import Limits

if TYPE_CHECKING:
    from .layered import Layered


@dataclass(frozen=True)
class StoreAccess:
    local: str  # the local store directory
    remotes: tuple = ()  # StoreSpec(url, mode), tried after the local store in order
    root: str = ""  # project root: relative file:// paths are resolved against it
    max_artifact_size: int = 1 << 30
    trusted_keys: tuple = ()  # public key file paths (str)
    require_signatures: bool = False
    signing_key: str | None = None  # secret key file: entries put into the stores are signed
    request_timeout: float = Limits().store_request_timeout  # seconds for one whole request to a further store

    @classmethod
    def from_config(cls, config) -> "StoreAccess":
        return cls(
            local=str(config.store),
            remotes=tuple(config.stores),
            root=str(config.root),
            max_artifact_size=int(config.max_artifact_size),
            trusted_keys=tuple(str(k) for k in config.trusted_keys),
            require_signatures=bool(config.require_signatures),
            signing_key=str(config.signing_key) if config.signing_key else None,
            request_timeout=float(config.limits.store_request_timeout),
        )


# local store path -> the access the last action of this process opened it with
_ACTIVE: dict[str, StoreAccess] = {}
_OPEN: dict[StoreAccess, object] = {}


def open_stores(access) -> "Layered":
    """The layered stores for ``access`` (a StoreAccess, or a local store path).

    A path gets the access an action of this process opened for the same
    local store (a compile passing its store path on to a helper such as the
    microkernel build), else the local store alone.
    """
    from .layered import Layered

    if not isinstance(access, StoreAccess):
        local = str(Path(access))
        access = _ACTIVE.get(local) or StoreAccess(local=local)
    else:
        _ACTIVE[access.local] = access
    layered = _OPEN.get(access)
    if layered is None:
        layered = _OPEN[access] = Layered(access)
    return layered


def new_build(store_root) -> None:
    """A build starts: forget the notices of an earlier one that did not finish, and this process's open stores."""
    from .notices import clear_notices

    clear_notices(store_root)
    forget_open()


def forget_open() -> None:
    """Close and forget every opened store of this process (a new build starts)."""
    from .layered import reset_process_state

    reset_process_state()
    for layered in _OPEN.values():
        layered.close()
    _OPEN.clear()
    _ACTIVE.clear()
