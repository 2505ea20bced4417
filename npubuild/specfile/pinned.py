"""A kernel family's ``sources:``: hand-written kernel sources that replace the emitted ones.

    kernels:
      relu_tuned:
        op: relu
        dtype: bf16
        targets: [ref, xdna]
        shapes: [[64, 4096]]
        sources: {xdna: kernels/relu_tuned.aie.mlir}   # relative to the spec file

A pinned source is one kernel's, so the family has one shape. The file must be a
regular file inside the project (or a data_dirs directory), at most
limits.spec_max_file_size bytes. What the build checks of its text (the interface
the runtime calls) is :mod:`npubuild.engine.pinned`'s.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

from ..core.fsio import read_regular

PINNABLE = ("host", "xdna")  # the targets whose source is a text npubuild emits


def pinned_sources(ctx, node, targets, what: str, base_dir: Path | None, n_shapes: int) -> dict[str, Path]:
    """target -> absolute path of the family's ``sources:``; problems go to ``ctx`` (file:line)."""
    snode = node.value.get("sources")
    if snode is None:
        return {}
    if not snode.is_map() or not snode.value:
        ctx.err(snode.line, f"sources of {what} must be a mapping target: file, e.g. {{xdna: kernels/my_kernel.aie.mlir}}")
        return {}
    out: dict[str, Path] = {}
    for target, vnode in snode.value.items():
        line = snode.key_line(target)
        if target not in PINNABLE:
            ctx.err(line, f"sources of {what}: '{target}' has no emitted source to replace; pin one of {', '.join(PINNABLE)}")
            continue
        if target not in targets:
            ctx.err(line, f"sources of {what}: {target} is not in the family's targets; add it to targets or remove the source")
            continue
        fname = vnode.value
        if not isinstance(fname, str) or not fname or "\0" in fname or base_dir is None:
            ctx.err(vnode.line, f"sources of {what}: the {target} source must be a file path relative to the spec file")
            continue
        # the path as the spec names it, not where it leads today: every build follows it again and checks
        # that it still leads inside the project (npubuild.engine.pinned), whether or not the plan is cached
        path = Path(os.path.abspath(base_dir / fname))
        try:
            read_regular(path, ctx.limits.spec_max_file_size, ctx.data_roots or None, prefix=0)
        except FileNotFoundError:
            ctx.err(vnode.line, f"sources of {what}: {fname[:200]!r} not found (paths are relative to the spec file)")
            continue
        except OSError as e:
            why = "a symlink loop (a link that leads back to itself)" if e.errno == errno.ELOOP else (e.strerror or str(e))
            ctx.err(vnode.line, f"sources of {what}: {fname[:200]!r} cannot be used: {why}; make it a regular file")
            continue
        except ValueError as e:
            ctx.err(vnode.line, f"sources of {what}: {fname[:200]!r} cannot be used: {e}")
            continue
        out[target] = path
    if out and n_shapes != 1:
        ctx.err(snode.line, f"{what} pins a hand-written source, which is one kernel's, but lists {n_shapes} shapes; "
                            "give the pinned kernel a family of its own with its one shape")
        return {}
    return out
