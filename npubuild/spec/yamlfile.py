"""Reading one spec file into a :class:`~.yamlnode.Node` tree, through a parse cache.

At thousands of kernels, parsing YAML costs more than doit's whole no-op, so a
parse is cached by the file's bytes; PyYAML (:mod:`.yamlparse`) is imported
only on a cache miss.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..errors import Diagnostic
from ..fsio import TooLarge, read_regular
from ..limits import Limits
from .yamlnode import Node

CACHE_VERSION = "3"  # bump when the tree or the parse diagnostics change


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
        cache_file = cache_dir / f"{digest}.json"
        try:
            cached = json.loads(cache_file.read_text())
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
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(payload))
            os.replace(tmp, cache_file)
        except OSError:
            pass  # the cache is an optimisation only
    return root, problems
