"""What every command module shares: the declaration of a command (:class:`Command`, options as data),
the one place errors become exit codes (:func:`run_guarded`), and reading the project's store and
manifest the way every command does."""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from ..core.errors import UserError


class Arg(NamedTuple):
    """One ``add_argument`` call kept as data: a command lists its options, the table adds them."""

    flags: tuple[str, ...]
    kwargs: dict


def arg(*flags: str, **kwargs) -> Arg:
    return Arg(flags, kwargs)


class OneOf(NamedTuple):
    """Options that exclude each other (argparse's mutually exclusive group), in their place among the others."""

    args: tuple[Arg, ...]


@dataclass(frozen=True)
class Command:
    """One ``npubuild`` command: its name, its line in the top-level help, its options in --help order,
    and the function that runs it (None for a group such as ``cache``, whose subcommands run)."""

    name: str
    help: str
    run: Callable[[argparse.Namespace], int] | None = None
    options: tuple[Arg | OneOf, ...] = ()
    description: str | None = None
    subcommands: tuple[Command, ...] = ()
    passes_unknown: bool = False  # options it does not know go on (`npubuild build -n 2` to doit), not an error


# the --artifacts option of the commands that read a built manifest
ARTIFACTS = arg("--artifacts", help="artifact directory (default: from the project config)")


def run_guarded(fn: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command; what the user can fix (a UserError, a full disk) is one line on stderr and exit 1, never a traceback."""
    try:
        return fn(args)
    except UserError as e:
        print(f"npubuild: {e}" if "\n" not in str(e) else str(e), file=sys.stderr)
        json_error(args, str(e))
        return 1
    except KeyboardInterrupt:
        from ..engine.reporter import ProgressReporter

        if not ProgressReporter.interrupt_said:  # a build's summary has said it, with what was done
            print("npubuild: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `npubuild ops | head`
        sys.stderr.close()
        return 0
    except OSError as e:
        from ..core.nospace import disk_full_message, is_disk_full

        if not is_disk_full(e):
            raise
        print(f"npubuild: {disk_full_message(e)}", file=sys.stderr)
        json_error(args, disk_full_message(e))
        return 1


def json_error(args: argparse.Namespace, message: str) -> None:
    """A command asked for ``--json`` still gives a JSON document on stdout when it fails: ``{"error": ...}``
    (the same line is on stderr, and the exit status is 1), so a script reading stdout never parses text."""
    if getattr(args, "json", False):
        import json

        print(json.dumps({"error": message}))


def store_dir(args) -> Path:
    """--store, else the project's store."""
    if args.store:
        return Path(args.store)
    from ..core.config import load_config

    return load_config().store


def read_manifest_of(args) -> tuple[Path, dict]:
    """The artifact directory (--artifacts, else the project's) and its manifest; the project's limits apply to its own."""
    from ..artifacts.manifest import read_manifest
    from ..core.config import load_config

    if args.artifacts:
        path = Path(args.artifacts)
        return path, read_manifest(path)
    cfg = load_config()
    return cfg.artifacts, read_manifest(cfg.artifacts, cfg.limits)


def signature_of(args) -> dict:
    """The signature of graph ``args.graph`` from the built manifest (no specs needed)."""
    from ..runner.signature import graph_signature

    path, m = read_manifest_of(args)
    return graph_signature(m, args.graph, str(path / "manifest.json"))


def fmt_tensor(t: dict) -> str:
    return f"{t['dtype']} {list(t['shape'])}" if t.get("shape") or not t.get("layout") else f"{t['dtype']} {t['layout']}"


def check_out_dir(path: str, flag: str) -> None:
    """Refuse an output file whose directory does not exist (a typo must not fail after the work is done)."""
    parent = Path(path).parent
    if not parent.is_dir():
        raise UserError(f"cannot write {path} ({flag}): its directory {parent} does not exist")
