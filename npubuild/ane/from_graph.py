"""ANE graphs from YAML: a graph of ``specs/graphs/*.yaml`` with ``targets: [ane]`` as a :class:`.mil_model.MilProgram`.

The graph (a resolved graph of :mod:`npubuild.specfile.graph`, read here by its attributes only: the ane
stage does not import the spec stage) becomes one MIL function ``main``, opset ios18:

* every input is a function input of its declared shape in **fp16** — the ANE computes in fp16, so a
  graph declared f32 is rounded to fp16 on the way in and its outputs are fp16;
* every constant (inline ``value`` or ``.npy`` file) is a MIL ``const`` in fp16, so a matmul by a
  constant is a matmul by a constant weight (the plan's ``linear`` / ``matvec`` routes);
* every node is the MIL op with the catalog op's semantics (:data:`MIL_OPS`), its result declared with
  the shape the catalog infers, so MIL's type inference (:func:`.mil_types.infer_program`) checks that
  both agree, and every op's line is the node's line in the spec: a type or plan error names the spec's
  ``file:line`` and the node.

:func:`graph_problems` is the spec-time check (the spec loader runs it for every graph that targets
ane, beside the other targets' restrictions): an op without a mapping, attrs the mapping cannot
honour, params (an ANE graph bakes its weights into the programs), names that are no MIL identifier,
non-float tensors, and ``ane`` beside other targets. :func:`program_from_graph` builds the program.
"""
from __future__ import annotations

import re

from ..ops.lazy_numpy import np
from .channels_first import compress_axes, layout, layout_problems, rewrite
from .mil_model import NO_RESULT, Literal, MilError, MilFunction, MilOp, MilProgram, MilType, Ref

#: catalog op -> the MIL op it is (the same semantics; attrs translated by _attr_args). Only ops an ANE
#: route can compute (docs/ane.md, "Routes and currencies") are mapped: another op would only fail later,
#: at plan time, with a less useful message.
MIL_OPS = {
    "add": "add", "sub": "sub", "mul": "mul", "max": "maximum", "min": "minimum",
    "relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "silu": "silu", "gelu": "gelu",
    "softmax": "softmax", "matmul": "matmul", "rms_norm": "rms_norm", "reshape": "reshape", "transpose": "transpose",
}
#: catalog gelu ``approximate`` -> MIL gelu ``mode`` (coremltools defs/iOS15/activation.py gelu)
GELU_MODES = {"none": "EXACT", "tanh": "TANH_APPROXIMATION"}
FLOAT_DTYPES = ("f32", "f16")
# the MIL reader's identifier rule (mil_tokens.py): names are kept as the value names of the program
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
FP16_MAX = 65504.0


def _line(graph, name: str) -> int:
    return getattr(graph, "lines", {}).get(name, graph.line)


def graph_problems(graph) -> list[tuple[int, str]]:
    """(line, message) for everything of ``graph`` the ANE translation cannot honour; [] when it can."""
    what = f"graph '{graph.name}'"
    out: list[tuple[int, str]] = []
    others = [t for t in graph.targets if t not in ("ane", "ref")]  # the loader adds ref to every graph
    if others:
        out.append((graph.line, f"{what}: targets {list(graph.targets)}: an ane graph is built as one ANE plan, not as "
                                f"kernels, so 'ane' is its only target; declare the same nodes in a second graph (another name) "
                                f"for {', '.join(others)}"))
    for name in graph.params:
        out.append((_line(graph, name), f"{what}: param '{name}': an ANE graph has no params (its weights are constants "
                                        "baked into the programs); declare it under constants with a value or a .npy file"))
    for group, decls in (("input", graph.inputs), ("constant", graph.constants)):
        for name, sig in decls.items():
            if sig.dtype not in FLOAT_DTYPES:
                out.append((_line(graph, name), f"{what}: {group} '{name}' is {sig.dtype}; the ANE computes in fp16: "
                                                "use f32 or f16"))
    out += update_problems(graph)
    names = [*graph.inputs, *graph.constants, *_states(graph), *(s.node for s in graph.steps)]
    for name in names:
        if not _IDENT.match(name):
            out.append((_line(graph, name), f"{what}: '{name}' is no MIL identifier (letters, digits and '_', not starting "
                                            "with a digit), which every value of an ANE graph is named by; rename it"))
    nodes = {s.node for s in graph.steps}
    for o in graph.outputs:
        if o not in nodes:
            out.append((graph.line, f"{what}: output '{o}' is not a node; an ANE graph's outputs are op results"))
    out += _compress_problems(graph, what)
    out += layout_problems(graph, what, lambda n: _line(graph, n))
    for step in graph.steps:
        why = _step_problem(step, graph)
        if why:
            out.append((_line(graph, step.node), f"node '{step.node}' of {what}: {step.instance.op} is not supported on ane: "
                                                 f"{why}; or drop 'ane' from targets"))
    return out


def update_problems(graph) -> list[tuple[int, str]]:
    """(line, message) for each ``update:`` of a resolved ane graph's states that the ANE plan cannot write: it writes
    a state only in place, as the sum ``add(state, x)`` of the state's own value riding its buffer (docs/ane.md)."""
    out = []
    steps = {s.node: s for s in graph.steps}
    for name, st in _states(graph).items():
        if st.update is None:
            continue
        where = f"state '{name}' of graph '{graph.name}': update '{st.update}'"
        step = steps.get(st.update)
        if step is None:
            out.append((st.update_line, f"{where} is not a node of the graph; name the node whose value is written back"))
        elif step.instance.op != "add" or name not in step.inputs or list(step.instance.output.shape) != list(st.shape):
            out.append((st.update_line, f"{where} is {step.instance.op}({', '.join(step.inputs)}) -> "
                                        f"{list(step.instance.output.shape)}: the ANE writes a state only in place, as "
                                        f"add({name}, x) of the state's shape {list(st.shape)} (the KV-cache accumulate); "
                                        f"make '{st.update}' such an add"))
    return out


def _states(graph) -> dict:
    return getattr(graph, "states", None) or {}


def _state_reads(graph) -> dict:
    """state -> the name of the value ``read_state`` gives at the start of the run (what the graph's nodes read by the
    state's name): ``<state>_value``, with ``_`` added until it is no name of the graph."""
    taken = {*graph.inputs, *graph.constants, *_states(graph), *(s.node for s in graph.steps)}
    out = {}
    for name in _states(graph):
        value = f"{name}_value"
        while value in taken:
            value += "_"
        taken.add(value)
        out[name] = value
    return out


def _compress_problems(graph, what: str) -> list[tuple[int, str]]:
    """A compressed constant must be a matmul weight wherever it is read (its second input, ``b`` of ``a @ b``):
    the constexpr op's blocks and palettes are laid out along that weight's input and output channels."""
    out = []
    for name, (_, line) in (getattr(graph, "ane_options", None) or {}).get("compress", {}).items():
        readers = [(st, i) for st in graph.steps for i, src in enumerate(st.inputs) if src == name]
        bad = sorted({st.node for st, i in readers if st.instance.op != "matmul" or i != 1})
        if bad or not readers:
            read = f"node{'s' if len(bad) > 1 else ''} {', '.join(bad)} read{'s' if len(bad) == 1 else ''} it as another operand" \
                if bad else "no node reads it"
            out.append((line, f"{what}: compress '{name}': {read}; compress takes constants that every reader uses as its "
                              "matmul weight (the second input of matmul)"))
    return out


def _step_problem(step, graph) -> str | None:
    inst = step.instance
    op, attrs = inst.op, inst.attrs
    if op not in MIL_OPS:
        return f"no MIL op of an ANE route computes it (mapped: {', '.join(sorted(MIL_OPS))})"
    if inst.dtype not in FLOAT_DTYPES:
        return f"dtype {inst.dtype}: the ANE computes {op} in fp16; set dtype: f32 (or f16)"
    if op == "gelu" and attrs.get("approximate", "none") not in GELU_MODES:
        return f"approximate {attrs.get('approximate')!r} has no MIL gelu mode"
    if op == "reshape" and 0 in attrs.get("shape", ()):
        return "a 0 in shape is a zero-size axis here but 'keep this axis' in MIL's reshape"
    if op == "rms_norm" and len(step.inputs) == 2 and step.inputs[1] not in graph.constants:
        return f"gamma '{step.inputs[1]}' must be a constant (the ANE plan folds it into the host's rsqrt vector)"
    return None


def _fp16(name: str, arr, where: tuple[str, int]):
    a = np.asarray(arr, dtype=np.float64)
    if np.any(np.abs(a[np.isfinite(a)]) > FP16_MAX):
        raise MilError(where[0], where[1], f"constant '{name}' holds values beyond the fp16 range (±65504), which the ANE computes in")
    return a.astype(np.float16)


def _constant_values(c, graph, read_npy):
    """A constant's values: inline, or its .npy file read by ``read_npy(path)`` (the build bounds the read)."""
    if c.file is not None:
        arr = read_npy(c.file)
        if tuple(arr.shape or (1,)) != tuple(c.shape):
            raise MilError(graph.file, c.line, f"constant '{c.name}' ({c.file}) changed since the specs were read: "
                                               f"now {list(arr.shape)}; run the build again")
        return arr.reshape(c.shape)
    return np.asarray(c.value, dtype=np.float64).reshape(c.shape)


def _attr_args(step, graph) -> dict:
    """The MIL arguments besides the tensors, spelt out (no MIL default is relied on)."""
    op, attrs = step.instance.op, step.instance.attrs
    if op == "gelu":
        return {"mode": Literal(MilType("string"), GELU_MODES[attrs.get("approximate", "none")])}
    if op == "softmax":
        return {"axis": Literal(MilType("int32"), int(attrs.get("axis", -1)))}
    if op == "matmul":
        # the catalog's a [..., M, K] @ b [K, N] is MIL's matmul without transposes (defs/iOS17/linear.py)
        return {"transpose_x": Literal(MilType("bool"), False), "transpose_y": Literal(MilType("bool"), False)}
    if op == "rms_norm":
        return {"eps": Literal(MilType("fp16"), float(np.float16(attrs.get("eps", 1e-5))))}
    if op == "reshape":
        shape = np.asarray(attrs["shape"], dtype=np.int32)
        return {"shape": Literal(MilType("int32", (len(shape),)), shape)}
    if op == "transpose":
        rank = len(step.instance.shapes[0])
        perm = list(attrs.get("perm") or ()) or list(range(rank))[::-1]  # the catalog's [] reverses the axes
        return {"perm": Literal(MilType("int32", (rank,)), np.asarray(perm, dtype=np.int32))}
    return {}


# catalog input position -> MIL argument name
_ARGS = {"rms_norm": ("x", "w"), "matmul": ("x", "y")}


def program_from_graph(graph, read_npy=None) -> MilProgram:
    """The MIL program of ``graph`` (checked by :func:`graph_problems` first: the first problem is a MilError
    at its line), type-checked with MIL's inference. ``read_npy(path)`` reads a ``.npy`` constant (default:
    ``np.load`` without pickles)."""
    from .mil_types import infer_program

    problems = graph_problems(graph)
    if problems:
        line, msg = problems[0]
        raise MilError(graph.file, line, msg)
    read_npy = read_npy or (lambda p: np.load(p, allow_pickle=False))
    inputs = [(n, MilType("fp16", tuple(int(d) for d in s.shape))) for n, s in graph.inputs.items()]
    consts, const_types = {}, {}
    for name, c in graph.constants.items():
        consts[name] = _fp16(name, _constant_values(c, graph, read_npy), (graph.file, c.line))
        const_types[name] = MilType("fp16", tuple(int(d) for d in c.shape))
    states, reads = _states(graph), _state_reads(graph)
    inputs += [(n, MilType("fp16", tuple(int(d) for d in st.shape), state=True)) for n, st in states.items()]
    ops = [MilOp("read_state", reads[n], MilType("fp16", tuple(int(d) for d in st.shape)), {"input": Ref(n)}, reads[n], st.line)
           for n, st in states.items()]
    updated = {st.update: n for n, st in states.items() if st.update}
    for step in graph.steps:
        op = step.instance.op
        names = _ARGS.get(op, ("x", "y"))
        srcs = list(step.inputs)
        if op == "add" and updated.get(step.node) == srcs[-1] != srcs[0]:
            srcs.reverse()  # the in-place add reads the state as x (the plan's add4d route); add commutes exactly
        args = {names[i]: Ref(reads.get(src, src)) for i, src in enumerate(srcs)}
        args.update(_attr_args(step, graph))
        out = MilType("fp16", tuple(int(d) for d in step.instance.output.shape))
        ops.append(MilOp(MIL_OPS[op], step.output, out, args, step.node, _line(graph, step.node)))
    for n, st in states.items():
        if st.update:  # the node's value written back into the state after the run (iOS18 write_state)
            ops.append(MilOp("write_state", "", NO_RESULT, {"data": Ref(st.update), "input": Ref(n)}, f"{n}_write", st.update_line))
    if layout(graph) == "channels_first":  # [S, C] held as (1, C, 1, S); a matmul by a weight a 1x1 conv
        inputs, ops = rewrite(graph, inputs, consts, const_types, ops)
    fn = MilFunction("main", "ios18", inputs, ops, consts, const_types, list(graph.outputs), graph.line,
                     {n: _line(graph, n) for n, _ in inputs})
    for name, (settings, line) in (getattr(graph, "ane_options", None) or {}).get("compress", {}).items():
        _compress(fn, graph, name, settings, line, compress_axes(graph, name))
    prog = MilProgram("1.3", {"main": fn}, graph.file)
    infer_program(prog)  # the catalog's shapes against MIL's: a disagreement is an error at the node's line
    return prog


def _compress(fn: MilFunction, graph, name: str, settings: dict, line: int, axes: tuple[int, int]) -> None:
    """Constant ``name`` (a matmul weight [K, N], or its conv weight [N, K, 1, 1] under channels_first: ``axes``
    are its input and output channel axes, fp16) kept compressed as ``settings`` say (:mod:`.compress`): its
    operands become constants of their own (``<name>_data``, ``<name>_scale``, ... in their MIL dtypes), the weight
    the constexpr op over them (MilFunction.constexprs), and its value what that op computes, which the plan and
    the emulator compute with."""
    from . import compress as cz

    w = np.asarray(fn.consts[name], dtype=np.float16)
    kind = settings["kind"]
    if kind == "quantize":
        gran = settings["granularity"]
        blocks = [0] * w.ndim  # coremltools' infer_block_sizes: per channel along the output axis, blocks along the input
        if gran != "per_tensor":
            blocks[axes[1]] = 1
        if gran == "per_block":
            blocks[axes[0]] = settings["block_size"]
        made = cz.quantize(w, settings["dtype"], settings["mode"], blocks)
        scale = made.parts["scale"].astype(np.float32)
        if not np.all(np.isfinite(scale)) or np.any(scale == 0):
            raise MilError(graph.file, line, f"graph '{graph.name}': compress '{name}': a {gran.replace('per_', '')} of its "
                                             "values is all zeros (or not finite), so its linear quantization scale is not a "
                                             "positive number (coremltools would write NaN); use a coarser granularity or "
                                             "palettize it")
    elif kind == "palettize":
        group = settings["group_size"] if settings["granularity"] == "per_grouped_channel" else 0
        made = cz.palettize(w, settings["nbits"], axes[1], group)
    else:
        made = cz.prune(w, float(settings["target_sparsity"]))
    taken = {n for n, _ in fn.inputs} | set(fn.consts) | {o.result for o in fn.ops}
    args = {}
    for param, value in made.parts.items():
        part, k = f"{name}_{param}", 1
        while part in taken:
            part, k = f"{name}_{param}_{k}", k + 1
        taken.add(part)
        fn.consts[part], fn.const_types[part] = value, MilType(made.dtypes[param], tuple(value.shape))
        args[param] = Ref(part)
    fn.consts[name] = np.asarray(made.dense, dtype=np.float16).reshape(w.shape)
    fn.constexprs[name] = MilOp(made.op, name, fn.const_types[name], args, name, line)


def describe(graph) -> dict:
    """What the program is made from, as JSON-able data (the build's key; constants by value digest elsewhere)."""
    return {
        "name": graph.name,
        "inputs": {n: [list(s.shape), s.dtype] for n, s in graph.inputs.items()},
        "constants": {n: [list(c.shape), c.dtype] for n, c in graph.constants.items()},
        "states": {n: [list(st.shape), st.update, st.update_line] for n, st in _states(graph).items()},
        "steps": [[s.node, s.instance.key, list(s.inputs)] for s in graph.steps],
        "outputs": list(graph.outputs),
        "seq": getattr(graph, "seq", None),  # the sizes: each is a plan, and a shape of the package
        "lines": dict(getattr(graph, "lines", {})),  # messages name them
        "ane_options": getattr(graph, "ane_options", None) or {},  # compression and layout change every artifact
    }
