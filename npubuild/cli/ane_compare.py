"""``npubuild ane-compare GRAPH``: the graph's Core ML package (every function) and each node's, run on Core ML
(macOS) against npubuild's fp16 emulation (:mod:`npubuild.runner.ane_compare`)."""
from __future__ import annotations

from .common import ARTIFACTS, Command, arg


def run(args) -> int:
    from ..runner.ane_compare import run as compare

    return compare(args.graph, args.artifacts, args.seed, nodes=not args.no_nodes)


COMMAND = Command(
    "ane-compare",
    help="run the Core ML packages of an ANE graph (the graph's, each node's) on Core ML (macOS) against the fp16 emulation",
    description="Load every node's model.mlpackage with MLModel(path, compute_units=CPU_AND_NE), run it on seeded "
    "random fp16 inputs of the node's shapes and compare with npubuild's fp16 emulation of the node: max abs error "
    "and max ULP per node. Then the graph package: each of its functions on seeded random inputs of the graph's "
    "shapes against the ane backend running that function, per output, with each op's preferred device from Core "
    "ML's compute plan. Needs macOS (Core ML); elsewhere it says so and exits 1.",
    run=run,
    options=(
        arg("graph", help="an ANE graph (specs/graphs/<graph>.mil)"),
        ARTIFACTS,
        arg("--seed", type=int, default=0, help="seed of the random inputs (default 0)"),
        arg("--no-nodes", action="store_true", help="compare the graph package only, not each node's package"),
    ),
)
