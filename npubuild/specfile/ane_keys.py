"""The ane-only keys of a YAML graph: ``state:`` (iOS18 Core ML states the graph reads and updates).
``ctx`` is the loader's context (npubuild.specfile.load: ``err(line, message)``, ``check_name``, ``check_keys``);
``shape(node, what)`` is the loader's shape reader, passed in (this module sits below the loader)."""
from __future__ import annotations

from .model import StateDecl
from .yamlnode import Node

STATE_KEYS = ("shape", "dtype", "update")
STATE_EXAMPLE = "{k_cache: {shape: [1, 8, 1, 64], dtype: f16, update: k_next}}"


def graph_states(ctx, holder: Node, targets, what: str, shape, rejected: set) -> dict:
    """The optional ``state:`` of a graph: name -> :class:`StateDecl`. Each is an iOS18 state of the graph's Core ML
    package (``state<tensor<fp16, shape>>``): its nodes read it by name, and ``update: NODE`` writes that node's
    value back into it after the run. Names that fail go to ``rejected`` (their readers are not re-reported)."""
    node = holder.value.get("state")
    if node is None:
        return {}
    if not ctx.expect_map(node, f"state of {what}", node.line, STATE_EXAMPLE):
        return {}
    if "ane" not in targets:
        ctx.err(node.line, f"state of {what} is an iOS18 Core ML state, which only an ane graph has (targets: [ane]); "
                           "add targets: [ane] or remove state")
        return {}
    out: dict = {}
    for name, snode in node.value.items():
        line = node.key_line(name)
        swhat = f"state '{name}' of {what}"
        rejected.add(name)
        if not ctx.check_name(name, line, "state"):
            continue
        if not snode.is_map():
            ctx.err(snode.line, f"{swhat} must be a mapping such as {{shape: [1, 8, 1, 64], dtype: f16, update: NODE}}")
            continue
        ctx.check_keys(snode, STATE_KEYS, swhat)
        dnode = snode.value.get("dtype")
        if dnode is not None and dnode.value not in ("f32", "f16"):
            ctx.err(dnode.line, f"{swhat}: dtype {dnode.plain()!r}: Core ML holds a state in fp16 only (coremltools: "
                                "\"State only support fp16 dtype\"); declare f32 (the default, as the graph's inputs: "
                                "held in fp16 like every tensor of an ane graph) or f16")
            continue
        snode_shape = snode.value.get("shape")
        if snode_shape is None:
            ctx.err(line, f"{swhat} has no shape; add shape: [..]")
            continue
        dims = shape(snode_shape, f"shape of {swhat}")
        unode = snode.value.get("update")
        if unode is not None and not isinstance(unode.value, str):
            ctx.err(unode.line, f"{swhat}: update must name the node whose value is written back into the state, "
                                f"got {unode.plain()!r}")
            continue
        if dims is None:
            continue
        out[name] = StateDecl(name, dims, dnode.value if dnode is not None else "f32", line, unode.value if unode else None, unode.line if unode else line)
        rejected.discard(name)
    return out


MODEL_KEYS = ("functions", "doc")
MAX_FUNCTIONS = 64  # functions of one model: each is planned and built, and joined into one package


def model_entries(ctx, body: Node, origin: dict) -> list[tuple[str, int, list[tuple[str, int]]]]:
    """The ``models:`` of one graphs file: [(model name, its line, [(function graph name, its line)])], each model a
    multifunction Core ML package made of ane graphs (the first function is the default). ``origin``: the names
    graphs and models took so far (name -> file:line), shared with the graphs: a model is named like a graph."""
    out: list = []
    if not body.is_map() or not body.value:
        ctx.err(body.line, "'models:' must be a non-empty mapping of names such as {llm: {functions: [prefill, decode]}}")
        return out
    for name, node in body.value.items():
        line = body.key_line(name)
        if name in origin:
            ctx.err(line, f"model '{name}' takes the name of the graph or model at {origin[name]}; names of graphs and models "
                          "are unique across files")
            continue
        origin[name] = f"{ctx.file}:{line}"
        if not ctx.check_name(name, line, "model"):
            continue
        what = f"model '{name}'"
        if not ctx.expect_map(node, what, line, "{functions: [prefill, decode]}"):
            continue
        ctx.check_keys(node, MODEL_KEYS, what)
        fnode = node.value.get("functions")
        items = fnode.value if fnode is not None and fnode.is_list() else None
        if items is None or not all(isinstance(i.value, str) for i in items):
            ctx.err(fnode.line if fnode else line, f"{what} needs 'functions': a list of the ane graphs it holds, the default "
                                                   "first, e.g. functions: [prefill, decode]")
            continue
        names = [i.value for i in items]
        twice = next((i for k, i in enumerate(items) if i.value in names[:k]), None)
        if twice is not None:
            ctx.err(twice.line, f"{what} lists function '{twice.value}' twice; name each graph once")
        elif not 2 <= len(items) <= MAX_FUNCTIONS:
            ctx.err(fnode.line, f"{what} has {len(items)} function(s); a multifunction model holds 2 to {MAX_FUNCTIONS} graphs "
                                "(a single graph is built as it is)")
        else:
            out.append((name, line, [(i.value, i.line) for i in items]))
    return out


def model_problems(name: str, functions: list, graphs: dict, taken: dict) -> list[tuple[int, str]]:
    """(line, message) for the functions of model ``name`` that are no ane graph (``graphs``: every graph the specs
    declare, resolved or not: a graph that failed is already reported) or belong to another model (``taken``: graph
    -> the model holding it, filled here)."""
    out = []
    for g, line in functions:
        what = f"model '{name}': function '{g}'"
        if g not in graphs:
            out.append((line, f"{what} is no graph of the specs; declare a graph named '{g}' with targets: [ane]"))
        elif graphs[g] is not None and "ane" not in graphs[g].targets:
            out.append((line, f"{what} is a graph with targets {list(graphs[g].targets)}; the functions of a model are ane "
                              "graphs (targets: [ane]), joined into one Core ML package"))
        elif g in taken:
            out.append((line, f"{what} is already a function of model '{taken[g]}'; a graph belongs to one model"))
        else:
            taken[g] = name
    return out
