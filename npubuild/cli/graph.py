"""``npubuild graph GRAPH`` and ``npubuild graph --tasks``: a graph from the built manifest, or the
build's task DAG from the specs (the build's plan), as DOT, SVG or PNG."""
from __future__ import annotations

import sys
from pathlib import Path

from ..core.errors import UserError
from .common import ARTIFACTS, Command, arg, check_out_dir, signature_of


def run(args) -> int:
    from ..runner.graph_dot import dag_dot, picture_format, signature_dot, write_picture

    if bool(args.graph) == bool(args.tasks):
        raise UserError("give a graph name or --tasks (the build's task DAG), not both and not neither")
    if args.output:
        picture_format(Path(args.output))  # a wrong suffix is refused before anything is read
        check_out_dir(args.output, "-o")
    if args.tasks:
        from ..engine.plan import build_plan
        from ..engine.task_graph import task_dag
        from ..core.config import load_config

        cfg = load_config()
        nodes, edges = task_dag(build_plan(cfg))
        if len(nodes) <= 2:  # only manifest and build: nothing to draw (run outside a project?)
            raise UserError(f"the specs of {cfg.root} define no kernels or ANE graphs: the build has no tasks to draw")
        text = dag_dot("build tasks", nodes, edges)
        what = f"{len(nodes)} tasks"
    else:
        sig = signature_of(args)
        text = signature_dot(sig)
        what = f"graph '{sig['graph']}' ({len(sig['nodes'])} nodes)"
    if not args.output:
        sys.stdout.write(text)
        return 0
    write_picture(text, args.output)
    print(f"wrote {what} to {args.output}", file=sys.stderr)
    return 0


COMMAND = Command(
    "graph",
    help="draw a graph (or the build's task DAG) as DOT, SVG or PNG",
    description="Graphviz DOT of a graph: nodes with op, dtype, targets and kernel id, edges with tensor shapes. "
    "The suffix of -o picks the format: .dot (always), .svg or .png (needs Graphviz's `dot` on PATH). "
    "Without -o the DOT text is printed.",
    run=run,
    options=(
        arg("graph", nargs="?"),
        arg("-o", "--output", metavar="FILE", help="picture to write: .svg, .png or .dot"),
        arg("--tasks", action="store_true", help="draw the build's task DAG (emit -> compile -> manifest) instead"),
        ARTIFACTS,
    ),
)
