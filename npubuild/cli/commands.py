"""``npubuild commands [TASK...]`` and ``npubuild compdb``: the tool command lines the build's compile tasks
run (ninja's ``-t commands`` and ``-t compdb``).

The lines come from each target's ``commands`` (npubuild.targets.base.ToolCommand), which calls the same
functions the compile does: nothing here knows a flag. The specs, the plan and the recipes are read as
``npubuild explain`` reads them; nothing is built (the toolchain fingerprints are cached in the store, as
for every command that reads the recipes).
"""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from ..core.errors import UserError, did_you_mean
from .common import Command, arg, check_out_dir


def _build():
    """The project's :class:`~npubuild.engine.state.Build` with its plan, without the build's sweeps and
    stamp removal (``Build.load_plan`` does them: this reads only)."""
    from ..core.config import load_config
    from ..engine.plan import build_plan
    from ..engine.state import Build

    build = Build()
    build.config = load_config()
    build.plan = build_plan(build.config)
    return build


def _selected(build, selectors: list[str]) -> list:
    """(task name, pair or None) in build order for the selectors: a kernel id (all its targets), a task
    ``compile:ID@TARGET`` / ``ID@TARGET``, a graph target's ``compile:GRAPH@TARGET`` or an emit task (these
    two run no tool: pair None)."""
    from ..engine.targets import graph_targets

    pairs = build.pairs()
    kernels = [(f"compile:{p.kid}@{p.label}", p.kid, p) for p in pairs]
    # as the compile task creator yields them: the kernels' compiles, then the graphs'
    graphs = [(f"compile:{n}@{g.name}", n, None) for g in graph_targets() for n in g.graph_names(build.plan)]
    tasks = kernels + graphs
    if not selectors:
        return [(name, p) for name, _, p in tasks]
    names = {name for name, _, _ in tasks}
    chosen: set[str] = set()
    for sel in selectors:
        if sel.startswith("emit:") and f"compile:{sel[5:]}" in names:
            chosen.add(sel)
            continue
        name = sel if sel.startswith("compile:") else f"compile:{sel}"
        hits = [n for n, unit, _ in tasks if n == name or (":" not in sel and "@" not in sel and unit == sel)]
        if not hits:
            raise UserError(f"no compile task or kernel '{sel}'{did_you_mean(sel, [p.kid for p in pairs] + sorted(names))}; "
                            "`npubuild list` shows the kernels, `doit list --all compile` the tasks")
        chosen.update(hits)
    # build order: a kernel's emit task before its compile task
    return [(n, p) for name, _, pair in tasks for n, p in ((f"emit:{name[8:]}", None), (name, pair)) if n in chosen]


def tool_commands(selectors: list[str]) -> list[tuple[str, list | None]]:
    """(task name, its ToolCommands) for the selected tasks, in build order: [] for a task that runs no
    tool, None for one whose target does not list its lines."""
    build = _build()
    chosen = _selected(build, selectors)
    recipes = build.recipes()
    out = []
    for name, pair in chosen:
        if pair is None:
            out.append((name, []))
            continue
        t = pair.target
        if not hasattr(t, "commands"):  # the method is optional (npubuild.targets.base)
            out.append((name, None))
            continue
        recipe = recipes.get(t.name)
        # a target only emitted here (no toolchain) shows the lines of the recipe it would compile with
        flags = recipe.flags if recipe is not None and recipe.flags is not None else t.flags(build.config)
        toolchain = recipe.toolchain if recipe is not None else {}
        out.append((name, t.commands(pair.inst, build.pair_options(pair), Path(pair.dir), toolchain, flags)))
    return out


def render(rows) -> list[str]:
    """Shell text: per task a header, ``cd DIR`` when the directory changes, each note once, each line."""
    lines = []
    for name, cmds in rows:
        if not cmds:
            lines.append(f"# {name}: " + ("runs no tool command (done in process)" if cmds == [] else
                                          "its target does not list its command lines"))
            continue
        lines.append(f"# {name} (each line runs in a fresh temporary directory inside the directory named)")
        cwd = note = None
        for c in cmds:
            if c.directory != cwd:
                lines.append(f"cd {shlex.quote(c.directory)}")
                cwd = c.directory
            if c.note and c.note != note:
                lines.append(f"# {c.note}")
            note = c.note
            if c.arguments:
                lines.append(shlex.join(c.arguments))
    return lines


def run(args) -> int:
    rows = tool_commands(args.tasks)
    if args.json:
        doc = [{"task": name, "directory": c.directory, "arguments": c.arguments, **({"note": c.note} if c.note else {})}
               for name, cmds in rows for c in cmds or () if c.arguments]
        print(json.dumps(doc, indent=1))
        return 0
    print("\n".join(render(rows)))
    return 0


def compdb_entries(rows) -> tuple[list[dict], int]:
    """compile_commands.json entries of the C/C++ compiles, and how many were left out because their
    tool or sources are not installed here (a C/C++ compile's note says only that)."""
    entries, missing = [], 0
    for _, cmds in rows:
        for c in cmds or ():
            if c.file is None:
                continue
            if c.note:
                missing += 1
                continue
            entries.append({"directory": c.directory, "file": c.file, "arguments": c.arguments,
                            "output": str(Path(c.directory) / c.output) if c.output else None})
    return entries, missing


def run_compdb(args) -> int:
    if args.output:
        check_out_dir(args.output, "-o")
    entries, missing = compdb_entries(tool_commands([]))
    if not entries:
        why = "the build compiles no C or C++ here (host kernels are MLIR: llc and cc only link)"
        if missing:
            why += f"; {missing} Peano compile(s) of xdna kernels are left out: Peano or mlir-aie is not installed"
        print(f"npubuild: compdb: {why}", file=sys.stderr)
    text = json.dumps(entries, indent=1) + "\n"
    if args.output:
        from ..core.fsio import atomic_write_text

        atomic_write_text(Path(args.output), text)
    else:
        sys.stdout.write(text)
    return 0


COMMAND = Command(
    "commands",
    help="print the tool command lines of the compile tasks (as ninja -t commands)",
    description="The exact command lines each compile task runs (llc and cc for host, Peano clang++ and aiecc for "
    "xdna), in build order, with their directories, as a shell could run them. Tools not installed here are "
    "shown by name with a note. Nothing is built.",
    run=run,
    options=(
        arg("tasks", nargs="*", metavar="TASK",
            help="a task such as compile:relu_f32_64@host, or a kernel id (all its targets); default: every compile task"),
        arg("--json", action="store_true", help="[{task, directory, arguments}] as JSON"),
    ),
)

COMPDB = Command(
    "compdb",
    help="write compile_commands.json for the build's C/C++ compiles (as ninja -t compdb)",
    description="A clang JSON compilation database (directory, file, arguments, output) of the C/C++ compiles the "
    "build runs: the Peano compiles of the xdna microkernels. Nothing is built.",
    run=run_compdb,
    options=(arg("-o", "--output", metavar="FILE", help="write it to FILE (default: stdout)"),),
)
