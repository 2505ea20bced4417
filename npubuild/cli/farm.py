"""``npubuild farm status``: the compile farm's workers (docs/farm.md)."""
from __future__ import annotations

import json

from .common import Command, arg


def run_status(args) -> int:
    from ..core.config import find_root, load_config, parse_executor
    from ..core.errors import UserError
    from ..engine.farm.status import farm_status, render

    root = find_root()
    if (root / "pyproject.toml").is_file() or (root / "dodo.py").is_file():
        config = load_config()
    elif args.scheduler:
        config = None  # outside a project: nothing is written here (this machine's fingerprints are not cached)
    else:
        raise UserError("not in an npubuild project (no pyproject.toml or dodo.py here or above): give --scheduler dask://HOST:PORT")
    if args.scheduler:
        try:
            executor = parse_executor(args.scheduler, "--scheduler")
        except UserError:
            raise UserError(f'--scheduler must be "dask://host:port" (a Dask scheduler), got {args.scheduler!r}') from None
    else:
        executor = config.executor
    status = farm_status(executor, config.store if config is not None else None, config.farm if config is not None else None)
    if args.json:
        print(json.dumps(status, indent=1, sort_keys=True))
    else:
        print("\n".join(render(status)))
    return 0


COMMAND = Command(
    "farm",
    help="the compile farm (Dask): `npubuild farm status`",
    description="Compiles that miss every store run on a Dask cluster when [tool.npubuild] executor "
    "is dask://host:port (docs/farm.md).",
    subcommands=(
        Command(
            "status",
            help="list the workers, their resources and toolchain fingerprints",
            description="Ask the scheduler for its workers and each worker for its toolchain fingerprints; "
            "a fingerprint that differs from this machine's means that worker refuses that target's compiles.",
            run=run_status,
            options=(
                arg("--scheduler", metavar="dask://HOST:PORT", help="default: the project's executor (NPUBUILD_EXECUTOR)"),
                arg("--json", action="store_true"),
            ),
        ),
    ),
)
