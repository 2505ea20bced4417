"""The command table: every ``npubuild`` command, in the order of the top-level help, and the parser
built from it by one loop (each command declares itself in its own module).

A new command is a module that defines ``COMMAND`` (a :class:`~.common.Command`) and one line in
``COMMANDS``, at the place its line should have in ``npubuild --help``."""
from __future__ import annotations

import argparse

from . import ane_compare, bench, build, cache, doctor, explain, farm, gc, graph, inputs, keygen, ops, pack, run, show, unpack, verify
from . import commands as commands_cmd
from . import list as list_cmd
from .common import Command, OneOf, run_guarded

COMMANDS: tuple[Command, ...] = (
    build.COMMAND,
    ops.COMMAND,
    list_cmd.COMMAND,
    run.COMMAND,
    bench.COMMAND,
    show.COMMAND,
    inputs.COMMAND,
    graph.COMMAND,
    explain.COMMAND,
    commands_cmd.COMMAND,
    commands_cmd.COMPDB,
    farm.COMMAND,
    ane_compare.COMMAND,
    verify.COMMAND,
    doctor.COMMAND,
    pack.COMMAND,
    unpack.COMMAND,
    keygen.COMMAND,
    gc.COMMAND,
    cache.COMMAND,
)
BY_NAME = {c.name: c for c in COMMANDS}


def add_command(sub, c: Command) -> None:
    """``c`` as a subparser of ``sub``; a group's subcommands go under it as ``<name>_cmd``."""
    p = sub.add_parser(c.name, help=c.help, description=c.description)
    for o in c.options:
        if isinstance(o, OneOf):
            group = p.add_mutually_exclusive_group()
            for a in o.args:
                group.add_argument(*a.flags, **a.kwargs)
        else:
            p.add_argument(*o.flags, **o.kwargs)
    if c.subcommands:
        inner = p.add_subparsers(dest=f"{c.name}_cmd", metavar="SUBCOMMAND")
        inner.required = True
        for s in c.subcommands:
            add_command(inner, s)
    if c.run is not None:
        p.set_defaults(fn=c.run)


def make_parser() -> argparse.ArgumentParser:
    from .. import __version__

    p = argparse.ArgumentParser(
        prog="npubuild",
        description="Build NPU kernels from YAML specs and run kernel graphs. "
        "`doit build` in the project root is the same as `npubuild build`.",
    )
    p.add_argument("--version", action="version", version=f"npubuild {__version__}")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True
    for c in COMMANDS:
        add_command(sub, c)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not BY_NAME[args.cmd].passes_unknown:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.doit_args = extra
    return run_guarded(args.fn, args)
