"""Graph resolution: name lookup, cycle check, topological order and shape
inference from a validated GraphSpec to a ResolvedGraph of kernel steps."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core.errors import OpError
from ..ops.registry import REGISTRY, AttrError, did_you_mean
from .instances import KernelInstance, TensorSig, make_instance
from .positions import attr_error_line


@dataclass
class Step:
    node: str
    instance: KernelInstance
    inputs: list[str]
    output: str


@dataclass
class ResolvedGraph:
    name: str
    file: str
    line: int
    inputs: dict[str, TensorSig]
    params: dict[str, TensorSig]
    constants: dict  # name -> spec.ConstantDecl
    steps: list[Step]
    outputs: list[str]
    tensors: dict[str, TensorSig]
    targets: tuple[str, ...]
    device: tuple[str, ...] | None = None  # xdna devices set by the spec, one design each (None: the project's xdna_device)
    # declared tensor / node name -> its spec line: a target that rebuilds the graph (ane) reports at it
    lines: dict = field(default_factory=dict)
    metadata: dict = field(default_factory=dict)  # the spec's metadata: author, version, license, description
    descriptions: dict = field(default_factory=dict)  # input / output name -> its text (metadata: inputs / outputs)
    ane_options: dict = field(default_factory=dict)  # compress / layout of an ane graph (npubuild.specfile.ane_storage_keys)
    states: dict = field(default_factory=dict)  # name -> model.StateDecl: an ane graph's iOS18 states, read like inputs
    seq: dict | None = None  # {"sizes": [default, ...], "inputs": input -> axis}: the graph at its first size (ane)
    variants: dict = field(default_factory=dict)  # size -> this graph resolved at that seq size (the sizes after the first)


@dataclass
class ModelOfGraphs:
    """A ``models:`` entry: ane graphs built as the functions of one multifunction Core ML model, named after their
    graphs, the first the default (what a YAML graph is to a one-function .mil, this is to a multifunction one)."""
    name: str
    file: str
    line: int
    functions: dict  # function (graph) name -> ResolvedGraph, the default first
    targets: tuple = ("ane",)

    @property
    def default(self):
        return next(iter(self.functions.values()))

    @property
    def metadata(self) -> dict:
        return self.default.metadata  # the package's metadata is the default function's graph's

    @property
    def descriptions(self) -> dict:
        return {k: v for g in reversed(list(self.functions.values())) for k, v in g.descriptions.items()}


def _listing(names, limit: int = 12) -> str:
    names = list(names)
    return ", ".join(names[:limit]) + (f", ... ({len(names)} in all)" if len(names) > limit else "")


def _topo_order(g, err) -> list[str] | None:
    """Kahn's algorithm; ready nodes are taken in spec order so the order is stable."""
    deps = {n: [i for i in d.inputs if i in g.nodes and i != n] for n, d in g.nodes.items()}  # self-reads are reported apart
    order: list[str] = []
    done: set[str] = set()
    pending = list(g.nodes)
    while pending:
        ready = [n for n in pending if all(i in done for i in deps[n])]
        if not ready:
            cyc = _find_cycle(pending, deps)
            err(g.nodes[cyc[0]].line, f"graph '{g.name}' has a cycle: {' -> '.join(cyc + [cyc[0]])}; a node cannot depend on its own output")
            return None
        for n in ready:
            order.append(n)
            done.add(n)
        pending = [n for n in pending if n not in done]
    return order


def _find_cycle(nodes, deps) -> list[str]:
    nodes = set(nodes)
    start = sorted(nodes)[0]
    path, seen = [start], {start: 0}
    cur = start
    while True:
        nxt = next(i for i in deps[cur] if i in nodes)
        if nxt in seen:
            return path[seen[nxt]:]
        seen[nxt] = len(path)
        path.append(nxt)
        cur = nxt


def resolve_graph(g, err: Callable[[int, str], None]) -> ResolvedGraph | None:
    what = f"graph '{g.name}'"
    tensors: dict[str, TensorSig] = {}
    states = getattr(g, "states", None) or {}
    for group in (g.inputs, g.params, g.constants, states):
        for name, decl in group.items():
            tensors[name] = TensorSig(decl.shape, decl.dtype)
    invalid = getattr(g, "invalid", set())  # rejected declarations, already reported
    known = set(tensors) | set(g.nodes) | invalid
    # Problems are collected, not returned at the first one: a node that cannot
    # be resolved goes to ``failed`` and its readers are skipped (no cascade),
    # while every other node is still checked.
    failed: set[str] = set(invalid) - set(g.nodes)
    for n, d in g.nodes.items():
        for inp, line in zip(d.inputs, d.input_lines):
            if inp not in known:
                err(line, f"node '{n}' of {what} reads unknown tensor '{inp}'{did_you_mean(inp, known)}; declare it under inputs/params/constants or add a node with that name")
                failed.add(n)
            elif inp == n:
                err(line, f"node '{n}' of {what} reads its own output; a node cannot depend on itself")
                failed.add(n)
    ok = True
    for o, line in zip(g.outputs, g.output_lines):
        if o not in known:
            hint = did_you_mean(o, known) or f"; its nodes are {_listing(g.nodes)}"
            err(line, f"output '{o}' of {what} is not a node or tensor{hint}")
            ok = False
    order = _topo_order(g, err)
    if order is None:
        return None
    steps: list[Step] = []
    for n in order:
        d = g.nodes[n]
        if n in failed or any(i in failed for i in d.inputs):
            failed.add(n)  # already reported upstream; avoid cascades
            continue
        op = REGISTRY[d.op]
        if not op.arity_ok(len(d.inputs)):
            err(d.line, f"node '{n}' ({d.op}) of {what} has {len(d.inputs)} input{'s' if len(d.inputs) != 1 else ''} "
                        f"[{', '.join(d.inputs)}] but '{d.op}' takes {op.arity_text()}; fix its 'inputs'")
            failed.add(n)
            continue
        sigs = [tensors[i] for i in d.inputs]
        dtype = d.dtype or (sigs[0].dtype if sigs else "f32")
        try:
            inst = make_instance(d.op, dtype, [s.shape for s in sigs], d.attrs, input_dtypes=[s.dtype for s in sigs])
        except AttrError as e:
            err(attr_error_line(e, d.attrs_node, d.line), f"node '{n}' of {what}: {e}")
            failed.add(n)
            continue
        except OpError as e:
            shapes = ", ".join(f"{i}: {list(s.shape)} {s.dtype}" for i, s in zip(d.inputs, sigs))
            hint = ""
            if not d.dtype and dtype not in op.dtypes:
                hint = " (the node's dtype defaults to its first input's; set 'dtype:' if the op needs another)"
            err(d.line, f"node '{n}' ({d.op}) of {what}: {e}; its inputs are {shapes}{hint}")
            failed.add(n)
            continue
        tensors[n] = inst.output
        steps.append(Step(n, inst, list(d.inputs), n))
    if failed or not ok:
        return None
    return ResolvedGraph(
        name=g.name,
        file=g.file,
        line=g.line,
        inputs={k: TensorSig(v.shape, v.dtype) for k, v in g.inputs.items()},
        params={k: TensorSig(v.shape, v.dtype) for k, v in g.params.items()},
        constants=dict(g.constants),
        steps=steps,
        outputs=list(g.outputs),
        tensors=tensors,
        targets=g.targets,
        device=g.device,
        lines={n: d.line for group in (g.inputs, g.params, g.constants, states, g.nodes) for n, d in group.items()},
        metadata={k: v for k, v in (getattr(g, "metadata", None) or {}).items() if k not in ("inputs", "outputs")},
        descriptions={**(getattr(g, "metadata", None) or {}).get("inputs", {}),
                      **(getattr(g, "metadata", None) or {}).get("outputs", {})},
        states=dict(states),
        ane_options=dict(getattr(g, "ane_options", None) or {}),
    )
