"""``npubuild explain [TASK|KERNEL]`` and ``npubuild build --explain``: why tasks run, in words
(:mod:`npubuild.engine.explain`)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .common import Command, arg


def explanations(selector: str | None) -> list[tuple[str, bool, list[str]]]:
    """Run in the project root, as a build would."""
    from ..engine.explain import explain_build
    from ..core.config import find_root

    old = Path.cwd()
    os.chdir(find_root())
    try:
        return explain_build(selector)
    finally:
        os.chdir(old)


def render(rows, show_all: bool) -> list[str]:
    lines = []
    for name, runs, reasons in rows:
        if not runs and not show_all:
            continue
        head = f"{name}: {'will be rebuilt' if runs else 'up to date'}"
        if len(reasons) == 1:
            lines.append(f"{head}: {reasons[0]}")
        else:
            lines += [head + ":", *(f"  - {r}" for r in reasons)]
    stale = sum(1 for _, runs, _ in rows if runs)
    lines.append(f"{stale} of {len(rows)} kernel target(s) will be rebuilt" + ("" if show_all or not rows else
                 f"; {len(rows) - stale} up to date (--all lists them)"))
    return lines


def run(args) -> int:
    rows = explanations(args.what)
    if args.json:
        print(json.dumps([{"task": n, "runs": r, "reasons": w} for n, r, w in rows], indent=1))
        return 0
    print("\n".join(render(rows, args.all or bool(args.what))))
    return 0


COMMAND = Command(
    "explain",
    help="say why kernels will be rebuilt (which input of their key changed)",
    description="For every kernel a `doit build` would emit or compile, say why: a new shape in a spec, an "
    "emitter source file or an emit option that changed, a hand-edited generated source, a compiler or tool "
    "whose path or version changed, flags, a linked source, an output that no longer matches its record, and "
    "whether the new compile key is already in the local store. Nothing is built.",
    run=run,
    options=(
        arg("what", nargs="?", metavar="TASK|KERNEL",
            help="a kernel id (all its targets) or a task such as compile:relu_f32_64@host (default: every kernel)"),
        arg("--all", action="store_true", help="also list the kernels that are up to date"),
        arg("--json", action="store_true", help="[{task, runs, reasons}] as JSON"),
    ),
)
