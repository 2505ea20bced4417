"""A YAML ane graph with ``seq: [64, 128, ...]``: one dimension of its inputs takes each size (Core ML's
EnumeratedShapes, what ``ct.EnumeratedShapes`` gives an input).

The graph is resolved once per size by the spec loader (the ResolvedGraph at the first size, the default, with
``variants``: size -> the graph at that size). Here each size is translated (:mod:`.from_graph`) and planned
(:mod:`.plan`) on its own — the ANE runs programs compiled for fixed shapes, so the emulator holds one plan per
size — and written: the default size's programs as a one-size graph's, each other size's under ``seq/<size>/``
(:func:`.build.write_sizes`), and one graph package, built from the default size's program with the seq
dimension a symbol and each seq input given ``EnumeratedShapes`` of every size (:mod:`.coreml_graph`). The
record's ``seq`` says which sizes there are, which input axis takes them and holds each other size's plan record;
the runner picks the plan whose input shapes a run's arrays have.
"""
from __future__ import annotations

from ..core.errors import UserError

SEQ_DIR = "seq"  # a seq graph's other sizes: seq/<size>/ under the graph's directory


def plan_sizes(graph, bounds, translate) -> list:
    """[(size, MilProgram, plan)] for every seq size of ``graph``, the default first, each size's graph translated by
    ``translate(graph, bounds)`` (:func:`.build.yaml_program`); a size that cannot be planned is an error naming it
    (the planner's own file:line follows)."""
    from .plan import compile_plan

    out = []
    for size, g in [(graph.seq["sizes"][0], graph), *graph.variants.items()]:
        program = translate(g, bounds)
        try:
            out.append((size, program, compile_plan(program, bounds)))
        except UserError as e:
            raise UserError(f"graph '{graph.name}' at seq {size}: {e}") from None
    return out


def flexible(graph, programs: list) -> dict:
    """What the graph package needs to make the seq dimension a symbol: ``inputs`` (input -> axis), ``shapes`` (every
    function input and op result -> its declared shape at each size, the default first)."""
    shapes: dict = {}
    for _, program, _ in programs:
        fn = program.main
        for name, t in [*fn.inputs, *((o.result, o.type) for o in fn.ops if o.result)]:
            shapes.setdefault(name, []).append(list(t.shape or ()))
    return {"inputs": dict(graph.seq["inputs"]), "shapes": shapes}
