"""The build's task DAG, read from the plan without running doit (``npubuild graph --tasks``).

The same tasks npubuild.engine.tasks gives doit, like ``ninja -t graph``:
``emit:KERNEL@TARGET -> compile:KERNEL@TARGET -> manifest -> build``, and
``compile:GRAPH@TARGET -> manifest`` for the graphs a graph target builds whole (ane). A target whose toolchain is
missing is emitted only (xdna without mlir-aie): its compile tasks do not
exist, so its emit tasks lead straight to the manifest, drawn dashed.
"""
from __future__ import annotations

from .targets import compiled_pairs, graph_targets


def task_dag(plan) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """(nodes as (task name, label, DOT attributes), edges as (task name, task name))."""
    nodes: list[tuple[str, str, str]] = []
    edges: list[tuple[str, str]] = []
    problems: dict[str, str | None] = {}
    for unit in compiled_pairs(plan):
        t = unit.target
        if t.name not in problems:
            problems[t.name] = t.toolchain_problem(plan.config.store)
        emit = f"emit:{unit.kid}@{unit.label}"
        nodes.append((emit, emit, ""))
        if problems[t.name]:
            edges.append((emit, "manifest"))
            nodes[-1] = (emit, f"{emit}\n(not compiled: toolchain missing)", "style=dashed")
            continue
        comp = f"compile:{unit.kid}@{unit.label}"
        nodes.append((comp, comp, 'style=filled, fillcolor="#dbeafe"'))
        edges += [(emit, comp), (comp, "manifest")]
    for g in graph_targets():
        for name in g.graph_names(plan):
            comp = f"compile:{name}@{g.name}"
            nodes.append((comp, comp, 'style=filled, fillcolor="#fef3c7"'))
            edges.append((comp, "manifest"))
    nodes += [("manifest", "manifest", 'shape=box3d, style=filled, fillcolor="#dcfce7"'), ("build", "build", "shape=doubleoctagon")]
    edges.append(("manifest", "build"))
    return nodes, edges
