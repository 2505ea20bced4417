"""The ane-only keys of a YAML graph: ``state:`` (iOS18 Core ML states the graph reads and updates).
``ctx`` is the loader's context (npubuild.specfile.load: ``err(line, message)``, ``check_name``, ``check_keys``);
``shape(node, what)`` is the loader's shape reader, passed in (this module sits below the loader)."""
from __future__ import annotations

import dataclasses

from .graph import resolve_graph
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
        if dims is not None and 0 in dims:  # a Core ML state holds data: every dimension at least 1
            ctx.err(snode_shape.line, f"shape of {swhat} must be a list of positive integers such as [8, 64]; got "
                                      f"{list(dims)}")
            dims = None
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
        seen: set = set()
        twice = next((i for i in items if i.value in seen or seen.add(i.value)), None)
        if not 2 <= len(items) <= MAX_FUNCTIONS:
            ctx.err(fnode.line, f"{what} has {len(items)} function(s); a multifunction model holds 2 to {MAX_FUNCTIONS} graphs "
                                "(a single graph is built as it is)")
        elif twice is not None:
            ctx.err(twice.line, f"{what} lists function '{twice.value}' twice; name each graph once")
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
        elif graphs[g] is not None and getattr(graphs[g], "seq", None):
            out.append((line, f"{what} has seq: sizes; a function of a model has fixed shapes (a model's functions are "
                              "the way to several sizes: one graph per size)"))
        elif g in taken:
            out.append((line, f"{what} is already a function of model '{taken[g]}'; a graph belongs to one model"))
        else:
            taken[g] = name
    return out


SEQ_DIM = "seq"  # how an input's shape names the dimension that takes each of the graph's seq sizes
MAX_SEQ_SIZES = 16  # each size is a plan of its own, and an enumerated shape of the package
RANGE_REFUSED = ("a range of sizes (Core ML's RangeDim) is refused: a flexible range usually moves the model's work "
                 "off the Neural Engine, which runs programs compiled for fixed shapes; list the sizes instead, "
                 "seq: [64, 128, 256] (Core ML's EnumeratedShapes)")


def graph_seq(ctx, holder: Node, targets, what: str) -> tuple[int, ...] | None:
    """The optional ``seq:`` of a graph: the sizes (at least 2, distinct, positive, the first the default) one dimension
    of its inputs takes — Core ML's EnumeratedShapes. A range (``{min: .., max: ..}``, ``"1..512"``) is refused."""
    node = holder.value.get("seq")
    if node is None:
        return None
    where = f"seq of {what}"
    if node.is_map() or (isinstance(node.value, str) and ".." in node.value):
        ctx.err(node.line, f"{where}: {RANGE_REFUSED}")
        return None
    items = node.value if node.is_list() else None
    if items is None or not all(isinstance(i.value, int) and not isinstance(i.value, bool) and i.value > 0 for i in items):
        ctx.err(node.line, f"{where} must be a list of sizes (positive integers) such as [64, 128, 256], got {node.plain()!r}"[:400])
        return None
    sizes = tuple(i.value for i in items)
    if len(set(sizes)) != len(sizes) or not 2 <= len(sizes) <= MAX_SEQ_SIZES:
        ctx.err(node.line, f"{where} lists {list(sizes)[:20]}: give 2 to {MAX_SEQ_SIZES} different sizes (one size: write it "
                           "in the shapes)")
        return None
    if "ane" not in targets:
        ctx.err(node.line, f"{where} makes one Core ML package with enumerated shapes, which only an ane graph builds "
                           "(targets: [ane]); add targets: [ane] or remove seq")
        return None
    if holder.value.get("state") is not None:
        ctx.err(node.line, f"{where}: a graph with seq: cannot declare state: yet (each size is a plan with buffers of its "
                           "own, so a state would not carry from one size to the next); declare one graph per size")
        return None
    return sizes


def seq_shape(ctx, snode: Node, seq: tuple[int, ...] | None, what: str, reported: bool = False) -> tuple[Node | None, int | None]:
    """An input's shape node with its ``seq`` dimension (at most one) written as the default size, and that axis
    (None: no seq dimension); (None, None) after reporting a ``seq`` dimension without the graph's ``seq:``, or
    two of them; ``reported``: the graph's ``seq:`` was refused already, so a ``seq`` dimension says nothing more."""
    if not snode.is_list():
        return snode, None
    axes = [k for k, d in enumerate(snode.value) if d.value == SEQ_DIM]
    if not axes:
        return snode, None
    if seq is None:
        if reported:
            return None, None  # the graph's seq: is wrong, and said so
        ctx.err(snode.line, f"{what}: dimension '{SEQ_DIM}' needs the graph's sizes: add seq: [64, 128] (each size it takes)")
        return None, None
    if len(axes) > 1:
        ctx.err(snode.line, f"{what}: '{SEQ_DIM}' names {len(axes)} dimensions; one dimension takes the seq sizes "
                            "(Core ML enumerates whole shapes: name one)")
        return None, None
    dims = [Node(d.line, seq[0]) if k == axes[0] else d for k, d in enumerate(snode.value)]
    return Node(snode.line, dims), axes[0]


def names_seq(inputs: Node | None) -> bool:
    """Whether any input's shape (in the raw ``inputs:`` node) writes a dimension ``seq``."""
    decls = inputs.value.values() if inputs is not None and inputs.is_map() else ()
    shapes = [d.value.get("shape") for d in decls if d.is_map()]
    return any(sh is not None and sh.is_list() and any(x.value == SEQ_DIM for x in sh.value) for sh in shapes)


def resolve_sizes(g, default, err):
    """``default`` (``g`` resolved at its first seq size) with ``seq`` ({"sizes", "inputs": input -> axis}) and
    ``variants`` (size -> ``g`` resolved with its seq dimensions at that size); None when a size does not resolve,
    its problems reported at their lines, naming the size."""
    variants = {}
    for size in g.seq[1:]:
        inputs = {n: dataclasses.replace(d, shape=tuple(size if k == g.seq_dims.get(n) else v for k, v in enumerate(d.shape)))
                  for n, d in g.inputs.items()}
        at = resolve_graph(dataclasses.replace(g, inputs=inputs), lambda line, msg: err(line, f"(seq {size}) {msg}"))
        if at is None:
            return None
        variants[size] = at
    default.seq = {"sizes": list(g.seq), "inputs": dict(g.seq_dims)}
    default.variants = variants
    return default
