"""``npubuild inputs GRAPH -o FILE.npz``: seeded example inputs (and params) of a graph, which
``npubuild run -i/-p`` accepts; the shapes come from the built manifest."""
from __future__ import annotations

import sys
from pathlib import Path

from ..core.errors import UserError
from .common import ARTIFACTS, Command, arg, check_out_dir, fmt_tensor, signature_of


def listing(tensors: dict) -> str:
    return ", ".join(f"{n} {fmt_tensor(t)}" for n, t in tensors.items()) or "none"


def run(args) -> int:
    from ..runner.examples import example_arrays
    from ..runner.npzio import write_npz

    check_out_dir(args.output, "-o")
    if args.params:
        check_out_dir(args.params, "--params")
        if Path(args.params).resolve() == Path(args.output).resolve():
            raise UserError(f"-o and --params are the same file ({args.output}): give two names")
    from ..core.config import load_config

    sig = signature_of(args)
    # the project's limit on a run's input arrays (as `npubuild run` reads it), checked before drawing any
    inputs, params = example_arrays(sig, args.seed, load_config().limits)
    write_npz(args.output, inputs)
    print(f"wrote inputs {listing(sig['inputs'])} to {args.output} (seed {args.seed})", file=sys.stderr)
    if args.params:
        write_npz(args.params, params)
        print(f"wrote params {listing(sig['params'])} to {args.params} (seed {args.seed})", file=sys.stderr)
    elif params:
        print(f"graph '{sig['graph']}' also takes params ({listing(sig['params'])}): add --params FILE.npz to write them", file=sys.stderr)
    return 0


COMMAND = Command(
    "inputs",
    help="write seeded example inputs (and params) of a graph as .npz",
    description="Random arrays of the declared shapes and dtypes (floats of order 1, small integers, bools; bf16 "
    "via ml_dtypes), the same for the same seed; `npubuild run GRAPH -i FILE -p PARAMS` accepts them.",
    run=run,
    options=(
        arg("graph"),
        arg("-o", "--output", required=True, metavar="FILE.npz", help="inputs file to write"),
        arg("--params", metavar="FILE.npz", help="also write the graph's params to this file"),
        arg("--seed", type=int, default=0, help="seed of the random values (default 0)"),
        ARTIFACTS,
    ),
)
