"""``npubuild ane-compare GRAPH``: each node's Core ML package run on Core ML (macOS) against npubuild's
fp16 emulation (:mod:`npubuild.runner.ane_compare`)."""
from __future__ import annotations

from .common import ARTIFACTS, Command, arg


def run(args) -> int:
    from ..runner.ane_compare import run as compare

    return compare(args.graph, args.artifacts, args.seed)


COMMAND = Command(
    "ane-compare",
    help="run each Core ML package of an ANE graph on Core ML (macOS) against the fp16 emulation, per node",
    description="Load every node's model.mlpackage with MLModel(path, compute_units=CPU_AND_NE), run it on seeded "
    "random fp16 inputs of the node's shapes and compare with npubuild's fp16 emulation of the node: max abs error "
    "and max ULP per node. Needs macOS (Core ML); elsewhere it says so and exits 1.",
    run=run,
    options=(
        arg("graph", help="an ANE graph (specs/graphs/<graph>.mil)"),
        ARTIFACTS,
        arg("--seed", type=int, default=0, help="seed of the random inputs (default 0)"),
    ),
)
