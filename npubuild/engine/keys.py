"""The compile key: the sha256 of everything that determines a compile's output.

Its own module so that code which checks keys without running a build (the
compile farm's workers, npubuild.engine.farm.worker) does not import the build actions.
"""
from __future__ import annotations

import hashlib

# Bump to invalidate every compile key (e.g. when the build record format changes).
CACHE_VERSION = 1


def compile_key(target: str, source_sha256: str, toolchain_id: str, flags, linked: dict | None = None) -> str:
    from ..core.canonical import canonical_json

    recipe = {
        "v": CACHE_VERSION,
        "target": target,
        "source_sha256": source_sha256,
        "toolchain": toolchain_id,
        "flags": flags,
    }
    if linked:
        recipe["linked"] = linked
    return hashlib.sha256(canonical_json(recipe).encode()).hexdigest()
