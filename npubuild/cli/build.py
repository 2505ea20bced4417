"""``npubuild build``: the build through doit (``doit build`` in the project root is the same); the
options npubuild does not know are doit's ``run`` options and pass through."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..core.errors import UserError
from .common import Command, OneOf, arg


def run_doit(argv: list[str], root: Path) -> int:
    from doit.cmd_base import ModuleTaskLoader
    from doit.doit_cmd import DoitMain

    from ..engine import tasks
    from ..engine.state import Build

    tasks.install_signal_handlers()
    old = Path.cwd()
    os.chdir(root)
    try:
        # a new Build per run: a second run in this process loads the config and plan again
        return DoitMain(ModuleTaskLoader(tasks.BuildTasks(Build(argv)).namespace()), config_filenames=()).run(argv)
    finally:
        os.chdir(old)
        import gc

        gc.enable()  # the task creators switch it off while tasks load (on again here if doit stopped before running)


def doit_run_problem(extra: list[str]) -> str | None:
    """The first of ``extra`` that `doit run` would not take as an option (task names pass), or None."""
    from doit.cmd_base import DoitCmdBase
    from doit.cmd_run import Run

    takes_value, flags = set(), set()
    for o in (*DoitCmdBase.base_options, *Run.cmd_options):
        for form in ([f"-{o['short']}"] if o.get("short") else []) + ([f"--{o['long']}"] if o.get("long") else []):
            (flags if o.get("type") is bool else takes_value).add(form)
    it = iter(extra)
    for tok in it:
        if not tok.startswith("-") or tok == "-":
            continue
        name = tok.split("=", 1)[0] if tok.startswith("--") else tok[:2]
        if name in flags:
            continue
        if name in takes_value:
            if name == tok and next(it, None) is None:
                return f"{tok} expects a value"
            continue
        return f"unrecognized argument {tok}"
    return None


def run(args) -> int:
    from ..core.config import find_root

    problem = doit_run_problem(args.doit_args)
    if problem:
        print(f"usage: npubuild build [--xdna-strict] [--verbose | --quiet] [--explain] [doit run options: -n N, -v N, -a, -s ...]\n"
              f"npubuild build: error: {problem} (`npubuild build --help`; doit's: `doit help run`)", file=sys.stderr)
        return 2

    root = find_root()
    if not ((root / "dodo.py").is_file() or (root / "pyproject.toml").is_file()):
        raise UserError(f"not in an npubuild project: no pyproject.toml or dodo.py in {Path.cwd()} or any directory above; "
                        "run this in a project (README: Set-up), nothing was written here")
    if args.xdna_strict:
        os.environ["NPUBUILD_XDNA_STRICT"] = "1"
    if args.verbose:
        os.environ["NPUBUILD_VERBOSE"] = "1"
    if args.quiet:
        os.environ["NPUBUILD_QUIET"] = "1"
    if args.json:
        os.environ["NPUBUILD_SUMMARY"] = "json"
    if args.explain:
        from .explain import explanations, render

        print("\n".join(render(explanations(None), False)))
    return run_doit([*args.doit_args, "build"], root)


COMMAND = Command(
    "build",
    help="build every kernel and write the manifest (runs doit)",
    description="Build every kernel and write the manifest. Other options are passed to doit, e.g. `npubuild build -n 2`.",
    run=run,
    passes_unknown=True,
    options=(
        arg("--xdna-strict", action="store_true",
            help="fail when the XDNA toolchain (aiecc, Peano, xclbinutil) is missing instead of emitting aie.mlir only "
            "(same as xdna_strict = true in [tool.npubuild] or NPUBUILD_XDNA_STRICT=1)"),
        OneOf((
            arg("--verbose", action="store_true",
                help="a line per task on a terminal too, besides the status line (NPUBUILD_VERBOSE=1)"),
            arg("--quiet", action="store_true",
                help="no status line and no line per task: failures and the summary only (NPUBUILD_QUIET=1)"),
        )),
        arg("--json", action="store_true", help="end with the summary as one JSON object (counts, seconds, "
            "slowest, failures with their logs) instead of text (NPUBUILD_SUMMARY=json)"),
        arg("--explain", action="store_true", help="first say why each kernel target will be rebuilt (`npubuild explain`)"),
    ),
)
