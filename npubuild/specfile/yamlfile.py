"""Reading one spec file into a :class:`~.yamlnode.Node` tree, through a parse cache.

At thousands of kernels, parsing YAML costs more than doit's whole no-op, so a
parse is cached by the file's bytes; PyYAML (:mod:`.yamlparse`) is imported
only on a cache miss. A cached parse decides what the build believes the spec
says, so each entry is sealed with this machine's cache secret
(:mod:`npubuild.core.cache_auth`): an entry edited, or made elsewhere and copied
in, is a miss and the file is parsed again.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..core.cache_auth import seal, unseal
from ..core.errors import Diagnostic
from ..core.fsio import TooLarge, atomic_write_bytes, read_regular
from ..core.limits import Limits
from .yamlnode import Node

CACHE_VERSION = "3"  # bump when the tree or the parse diagnostics change
SPEC_CACHE = ".npubuild.specfile-cache"  # in the project, next to doit's database: not in the shipped artifact folder
# an entry is a parse of a file of at most limits.spec_max_file_size bytes (with positions: a few times larger)
_ENTRY_PER_SPEC_BYTE = 64


def load_file(path: Path, display: str, cache_dir: Path | None, limits: Limits = Limits()) -> tuple[Node | None, list[Diagnostic]]:
    """Parse ``path``; reuse a cached parse when the file's bytes are unchanged."""
    try:
        data = read_regular(path, limits.spec_max_file_size)
    except TooLarge:
        size = path.stat().st_size
        return None, [Diagnostic(display, 0, f"the file is {size} bytes, over the limit of {limits.spec_max_file_size} "
                                             "(limits.spec_max_file_size)")]
    except (OSError, ValueError) as e:
        return None, [Diagnostic(display, 0, f"cannot read the spec file: {e}")]
    cache_file = None
    if cache_dir is not None:
        # the limits decide which diagnostics a parse gives, so they are part of its key
        salt = f"{CACHE_VERSION}:{limits.yaml_max_depth}:{limits.yaml_max_alias_nodes}"
        digest = hashlib.sha256(data + salt.encode() + display.encode()).hexdigest()
        # named after the file too, so that writing a file's new parse removes its older ones: one entry per spec file
        owner = hashlib.sha256(display.encode()).hexdigest()[:16]
        cache_file = cache_dir / f"{owner}-{digest}.parse"
        try:
            payload = unseal(read_regular(cache_file, _ENTRY_PER_SPEC_BYTE * limits.spec_max_file_size + (1 << 20)), digest)
            if payload is not None:
                cached = json.loads(payload)
                return (Node.from_json(cached["root"]) if cached["root"] else None), [
                    Diagnostic(*d) for d in cached["problems"]
                ]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, [Diagnostic(display, 0, f"not UTF-8 text ({e}); save the file as UTF-8")]
    from .yamlparse import parse_text  # PyYAML only on a cache miss

    root, problems = parse_text(text, display, limits)
    if cache_file is not None:
        payload = {"root": root.to_json() if root else None, "problems": [[d.file, d.line, d.message] for d in problems]}
        sealed = seal(json.dumps(payload).encode(), digest)  # bound to its key: not to be moved under another
        try:
            if sealed is not None:  # no secret: nothing is cached
                atomic_write_bytes(cache_file, sealed)
                for old in cache_dir.glob(f"{owner}-*.parse"):
                    if old != cache_file:
                        old.unlink(missing_ok=True)
        except OSError:
            pass  # the cache is an optimisation only
    return root, problems
