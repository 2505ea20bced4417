"""Load and validate ``specs/kernels/*.yaml`` and ``specs/graphs/*.yaml``.

Every problem in every file is collected and reported together as
``file:line: message`` with the fix (see docs/specs.md for the format).
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Callable, Mapping

from .. import ops
from ..core.errors import Diagnostic, OpError, SpecError
from ..core.limits import Limits
from ..core.target_names import known_targets
from ..ops.registry import (
    DTYPES,
    attr_problems,
    did_you_mean,
)
from .constdata import nested_shape, npy_header, size_problem, value_problem
from .files import walk_spec_files
from .graph import ModelOfGraphs, resolve_graph
from .instances import KernelInstance, make_instance
from .model import ConstantDecl, GraphSpec, KernelFamily, NodeDecl, Spec, TensorDecl
from .pinned import pinned_sources
from .positions import attr_error_line
from .yamlfile import load_file
from .yamlnode import Node
from .ane_storage_keys import graph_ane_options, layout_combines
from .metadata_keys import check_metadata_names, graph_metadata
from .xdna_keys import xdna_body, xdna_devices
from .ane_keys import graph_seq, graph_states, model_entries, model_problems, names_seq, resolve_sizes, seq_shape

# target -> (instance, xdna device) -> why the target's design cannot take it, or None
DesignChecks = Mapping[str, Callable[[KernelInstance, str], "str | None"]]
# target -> (op name, input shapes, attrs, dtype) -> the texts of the target's restrictions that
# combination fails, in the target's order (empty: it can run it); each is an error at the spec line
RestrictionChecks = Mapping[str, Callable[[str, list, dict, str], "list[str]"]]
# target -> resolved graph -> [(line, why)]: a target that builds a whole graph as one program (ane)
# checks the graph, not each kernel
GraphChecks = Mapping[str, Callable[[object], "list[tuple[int, str]]"]]

KERNEL_KEYS = ("op", "dtype", "attrs", "shapes", "targets", "device", "xdna_body", "sources", "doc")
GRAPH_KEYS = ("inputs", "params", "constants", "state", "seq", "nodes", "outputs", "targets", "device", "doc", "metadata",
              "compress", "layout")
NODE_KEYS = ("op", "inputs", "attrs", "dtype")
TENSOR_KEYS = ("shape", "dtype")
CONSTANT_KEYS = ("shape", "dtype", "value", "file")
# Names become directory and file names (artifacts/graphs/<graph>/<constant>.npy) and npz keys:
# one plain component, never '.', '..', a separator or a control character.
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")


def name_problem(name, what: str, limits: Limits) -> str | None:
    """Why ``name`` cannot be a name (None when it can): the one rule for YAML kernel, graph, node and
    tensor names and for ``.mil`` graph names (the file's stem), since each becomes a directory or file name."""
    limit = limits.max_name_length
    if isinstance(name, str) and NAME_RE.match(name) and len(name) <= limit:
        return None
    return (f"{what} name {str(name)[:80]!r} is not a valid name: use letters, digits, '_', '.' and '-', "
            f"starting with a letter or '_', at most {limit} characters (limits.max_name_length)")


class _Ctx:
    """Diagnostics collector for one file."""

    def __init__(self, file: str, xdna_device: str = "npu1", design_checks: DesignChecks | None = None,
                 limits: Limits = Limits(), data_roots: tuple = (), restriction_checks: RestrictionChecks | None = None):
        self.file = file
        self.problems: list[Diagnostic] = []
        self.xdna_device = xdna_device
        self.design_checks = design_checks or {}
        self.restriction_checks = restriction_checks or {}
        self.limits = limits
        self.data_roots = data_roots

    def check_name(self, name, line: int, what: str) -> bool:
        """A name from the spec that will become a file or directory name."""
        problem = name_problem(name, what, self.limits)
        if problem is None:
            return True
        self.err(line, problem)
        return False

    def err(self, line: int, msg: str) -> None:
        self.problems.append(Diagnostic(self.file, line, msg))

    def check_keys(self, node: Node, allowed, what: str) -> set[str]:
        """Report unknown keys; return the allowed keys suggested for them, so
        that a misspelt required key is not also reported as missing."""
        suggested = set()
        for k in node.value:
            if k not in allowed:
                hint = did_you_mean(k, allowed)
                suggested.update(a for a in allowed if hint == f" (did you mean '{a}'?)")
                self.err(
                    node.key_line(k),
                    f"unknown key '{k}' in {what}{hint}; allowed keys: {', '.join(allowed)}",
                )
        return suggested

    def expect_map(self, node: Node | None, what: str, line: int, example: str = "name: value") -> bool:
        if node is None or not node.is_map():
            self.err(node.line if node else line, f"{what} must be a mapping such as {example}")
            return False
        return True


def _shape(ctx: _Ctx, node: Node, what: str) -> tuple[int, ...] | None:
    v = node.value
    if isinstance(v, list) and all(isinstance(d.value, int) and not isinstance(d.value, bool) for d in v):
        dims = tuple(d.value for d in v)
        if len(dims) > ctx.limits.max_rank:
            ctx.err(node.line, f"{what} has {len(dims)} dimensions, over the limit of {ctx.limits.max_rank} (limits.max_rank)")
            return None
        if all(d >= 0 for d in dims):  # a dimension of 0 is a tensor without elements, as in ONNX
            if math.prod(dims) > ctx.limits.max_elements:
                ctx.err(node.line, f"{what} has {math.prod(dims)} elements, over the limit of {ctx.limits.max_elements} (limits.max_elements)")
                return None
            return dims
    got = repr(node.plain())
    ctx.err(node.line, f"{what} must be a list of non-negative integers such as [32, 1024]; got {got if len(got) <= 120 else got[:115] + ' ...'}")
    return None


def _dtype(ctx: _Ctx, node: Node | None, default: str | None, what: str) -> str | None:
    if node is None:
        return default
    if node.value in DTYPES:
        return node.value
    ctx.err(node.line, f"unknown dtype {node.value!r} for {what}{did_you_mean(str(node.value), DTYPES)}; use one of {', '.join(DTYPES)}")
    return None


def _targets(ctx: _Ctx, node: Node | None, default: tuple[str, ...]) -> tuple[str, ...]:
    if "ref" not in default:
        default = ("ref", *default)  # the oracle is always available
    if node is None:
        return default
    known = known_targets()
    if not node.is_list() or not all(isinstance(t.value, str) for t in node.value):
        ctx.err(node.line, f"targets must be a list such as [ref, host]; known targets: {', '.join(known)}")
        return default
    out = []
    for t in node.value:
        if t.value not in known:
            ctx.err(t.line, f"unknown target '{t.value}'{did_you_mean(t.value, known)}; known targets: {', '.join(known)}")
        else:
            out.append(t.value)
    if "ref" not in out:
        out.insert(0, "ref")  # the oracle is always available
    return tuple(out)


def _op(ctx: _Ctx, holder: Node, what: str, line: int, typos: set[str]):
    node = holder.value.get("op")
    if node is None:
        if "op" not in typos:
            ctx.err(line, f"{what} has no 'op'; add 'op: <name>' (see `npubuild ops`)")
        return None
    op = ops.get(node.value) if isinstance(node.value, str) else None
    if op is None:
        ctx.err(node.line, f"unknown op {node.plain()!r} in {what}{did_you_mean(str(node.value), ops.REGISTRY)}; `npubuild ops` lists them")
    return op


def _check_attrs(ctx: _Ctx, op, raw_attrs: dict, attrs_node: Node | None, line: int, what: str) -> bool:
    """Type-check attrs before any shape is looked at, so that their problems
    are reported even when every shape is wrong too."""
    problems = attr_problems(op, raw_attrs)
    for e in problems:  # all of them at once: one round of fixes, not one per build
        ctx.err(attr_error_line(e, attrs_node, line), f"{what}: {e}")
    return not problems


def _attrs(ctx: _Ctx, holder: Node, what: str) -> tuple[dict, Node | None]:
    node = holder.value.get("attrs")
    if node is None:
        return {}, None
    if node.value is None:
        return {}, node
    if not node.is_map():
        ctx.err(node.line, f"attrs of {what} must be a mapping such as {{axis: -1}}")
        return {}, None
    return node.plain(), node


def _check_restrictions(ctx: _Ctx, inst: KernelInstance, targets, line: int, what: str, devices: tuple[str, ...] | None = None) -> None:
    for t in targets:
        restricted = ctx.restriction_checks.get(t)
        problems = restricted(inst.op, inst.shapes, inst.attrs, inst.dtype) if restricted is not None else []
        for text in problems:
            shp = ", ".join("x".join(map(str, s)) for s in inst.shapes)
            ctx.err(line, f"{what}: {inst.op} with input shapes [{shp}] is not supported on {t}: {text}; change the shape/attrs or drop '{t}' from targets")
        check = ctx.design_checks.get(t)
        if check is not None and not problems:
            # the target design's static checks (xdna: tile memory, DMA limits ...) at spec time, per device
            chosen = devices or (ctx.xdna_device,)
            for device in chosen:
                text = check(inst, device)
                if text:
                    on = f"{t} ({device})" if len(chosen) > 1 else t
                    ctx.err(line, f"{what}: not supported on {on}: {text}; or drop '{t}' from targets")


def _kernel_family(ctx: _Ctx, name: str, node: Node, line: int, default_targets, base_dir: Path | None = None) -> KernelFamily | None:
    """``line`` is the line of the family's name (problems with the whole family go there); ``base_dir``
    the spec file's directory (what ``sources:`` paths are relative to)."""
    what = f"kernel family '{name}'"
    if not ctx.expect_map(node, what, line, "{op: relu, shapes: [[1024]]}"):
        return None
    typos = ctx.check_keys(node, KERNEL_KEYS, what)
    op = _op(ctx, node, what, line, typos)
    dtype = _dtype(ctx, node.value.get("dtype"), "f32", what)
    targets = _targets(ctx, node.value.get("targets"), default_targets)
    device = xdna_devices(ctx, node, targets, what)
    body = xdna_body(ctx, node, targets, what)
    raw_attrs, attrs_node = _attrs(ctx, node, what)
    shapes_node = node.value.get("shapes")
    if shapes_node is None:
        if "shapes" not in typos:
            ctx.err(line, f"{what} has no 'shapes'; add a list with one entry per kernel, e.g. shapes: [[32, 1024]]")
        return None
    if not shapes_node.is_list() or not shapes_node.value:
        ctx.err(shapes_node.line, f"'shapes' of {what} is empty; list at least one shape, e.g. - [32, 1024]")
        return None
    if all(not e.is_list() and not e.is_map() for e in shapes_node.value):
        # shapes: [4, 8] -- one shape written without the outer list
        flat = shapes_node.plain()
        if op is not None and (len(op.inputs) != 1 or op.variadic):
            fix = "[{" + ", ".join(f"{n}: {flat}" for n in op.input_names(max(2, len(op.inputs)))) + "}]"
        else:
            fix = f"[{flat}]"
        ctx.err(shapes_node.line, f"'shapes' of {what} is a list of shapes, one entry per kernel; write shapes: {fix}")
        return None
    if op is None or dtype is None:
        return None
    if dtype not in op.dtypes:
        ctx.err(node.value["dtype"].line if "dtype" in node.value else line,
                f"{what}: op '{op.name}' does not take dtype {dtype}; use one of {', '.join(op.dtypes)}")
        return None
    instances, lines = [], []
    attrs_ok = _check_attrs(ctx, op, raw_attrs, attrs_node, line, what)  # once: they apply to every entry
    for entry in shapes_node.value:
        shapes = _entry_shapes(ctx, op, entry, what)
        if shapes is None or not attrs_ok:
            continue
        try:
            inst = make_instance(op.name, dtype, shapes, raw_attrs)
        except OpError as e:
            ctx.err(entry.line, f"{what}: {e}")
            continue
        _check_restrictions(ctx, inst, targets, entry.line, what, device)
        instances.append(inst)
        lines.append(entry.line)
    sources = pinned_sources(ctx, node, targets, what, base_dir, len(shapes_node.value))
    return KernelFamily(name, ctx.file, line, op.name, dtype, targets, instances, device, body, sources, lines)


def _entry_shapes(ctx: _Ctx, op, entry: Node, what: str):
    """One 'shapes' entry -> list of input shapes in the op's input order."""
    if entry.is_list():
        if len(op.inputs) != 1 or op.variadic:
            names = ", ".join(f"{n}: [..]" for n in op.input_names(max(2, len(op.inputs))))
            ctx.err(entry.line, f"{what}: op '{op.name}' has several inputs; name them, e.g. {{{names}}}")
            return None
        s = _shape(ctx, entry, f"{what}: a shape")
        return [s] if s is not None else None
    if not entry.is_map():
        ctx.err(entry.line, f"{what}: a shapes entry must be a shape [d0, d1, ...] or a mapping input: shape; got {entry.plain()!r}")
        return None
    given = list(entry.value)
    if op.variadic:
        expected = op.input_names(max(len(given), len(op.inputs)))
        if sorted(given) != sorted(expected):
            ctx.err(entry.line, f"{what}: the inputs of '{op.name}' are numbered from 0 without gaps "
                                f"({', '.join(expected)}); got {', '.join(given)}")
            return None
    else:
        expected = op.inputs_named(given)
    unknown = [k for k in given if k not in expected]
    missing = [k for k in expected if k not in entry.value]
    every = op.input_sets()[-1] if op.optional else expected  # optional inputs are names too
    listing = op.arity_text() if op.optional else ", ".join(expected)
    for k in unknown:
        hint = did_you_mean(k, missing or every)
        if not hint and len(unknown) == len(missing) == 1:
            hint = f" (did you mean '{missing[0]}'?)"  # the one name left
        ctx.err(entry.key_line(k), f"{what}: op '{op.name}' has no input '{k}'{hint}; inputs: {listing}")
    if missing and not unknown:  # a misnamed input is reported once, as unknown
        add = ", ".join(f"{k}: [..]" for k in missing)
        ctx.err(entry.line, f"{what}: missing shape for input{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(repr(k) for k in missing)} of '{op.name}'; add {add} (inputs: {', '.join(expected)})")
    if unknown or missing:
        return None
    shapes = [_shape(ctx, entry.value[k], f"{what}: shape of '{k}'") for k in expected]
    return None if any(s is None for s in shapes) else shapes


def _tensor_decls(ctx: _Ctx, node: Node | None, what: str, allow_value: bool, base_dir: Path, rejected: set,
                  seq: tuple | None = None, seq_dims: dict | None = None, seq_given: bool = False) -> dict:
    """Declarations under inputs/params/constants; names that fail go to ``rejected``. With ``seq_dims`` (inputs),
    a shape may name one dimension ``seq``: declared with the first of the graph's ``seq`` sizes, its axis noted."""
    out: dict = {}
    if node is None or node.value is None:
        return out
    if not ctx.expect_map(node, what, node.line, "{x: {shape: [8, 256], dtype: f32}}"):
        return out
    for name, tnode in node.value.items():
        twhat = f"{what[:-1]} '{name}'"
        line = node.key_line(name)
        rejected.add(name)
        if not ctx.check_name(name, line, what[:-1]):
            continue
        if not tnode.is_map():
            ctx.err(tnode.line, f"{twhat} must be a mapping such as {{shape: [8, 256], dtype: f32}}")
            continue
        typos = ctx.check_keys(tnode, CONSTANT_KEYS if allow_value else TENSOR_KEYS, twhat)
        dtype = _dtype(ctx, tnode.value.get("dtype"), "f32", twhat)
        if allow_value:
            c = _constant(ctx, name, tnode, line, twhat, dtype, base_dir)
            if c is not None:
                out[name] = c
                rejected.discard(name)
            continue
        snode = tnode.value.get("shape")
        if snode is None:
            if "shape" not in typos:
                ctx.err(line, f"{twhat} has no shape; add shape: [..]")
            continue
        axis = None
        if seq_dims is not None:
            snode, axis = seq_shape(ctx, snode, seq, f"shape of {twhat}", reported=seq is None and seq_given)
            if snode is None:
                continue
        shape = _shape(ctx, snode, f"shape of {twhat}")
        if axis is not None and shape is not None:
            seq_dims[name] = axis
        if shape is not None and dtype is not None:
            out[name] = TensorDecl(name, shape, dtype, line)
            rejected.discard(name)
    return out


def _constant(ctx: _Ctx, name, tnode: Node, line: int, what, dtype, base_dir: Path):
    has_v, has_f = "value" in tnode.value, "file" in tnode.value
    if has_v == has_f:
        ctx.err(line, f"{what} needs exactly one of 'value' (inline list) or 'file' (a .npy file)"
                      + ("; remove one" if has_v else ""))
        return None
    if has_f:
        fnode = tnode.value["file"]
        fname = str(fnode.value)
        path = (base_dir / fname).resolve() if "\0" not in fname else None
        if path is None or not fname.endswith(".npy") or not path.exists():
            ctx.err(fnode.line, f"{what}: file {fname[:200]!r} not found or not a .npy file (paths are relative to the spec file)")
            return None
        header = npy_header(path, ctx.data_roots, ctx.limits)
        if isinstance(header, str):
            ctx.err(fnode.line, f"{what}: {fname!r} cannot be used: {header}")
            return None
        npy_shape, npy_dtype = header
        if "dtype" in tnode.value and dtype is not None and dtype != npy_dtype:
            ctx.err(tnode.value["dtype"].line, f"{what}: dtype {dtype} does not match the file's dtype {npy_dtype}")
            return None
        return ConstantDecl(name, npy_shape, npy_dtype, line, file=path)
    vnode = tnode.value["value"]
    value = vnode.plain()
    inferred = nested_shape(value)
    if inferred is None:
        ctx.err(vnode.line, f"{what}: value must be a number or a rectangular nested list of numbers")
        return None
    problem = size_problem(inferred, dtype or "f32", ctx.limits) or value_problem(value, dtype or "f32")
    if problem:
        ctx.err(vnode.line, f"{what}: {problem}")
        return None
    snode = tnode.value.get("shape")
    shape = _shape(ctx, snode, f"shape of {what}") if snode is not None else inferred
    if shape is None:
        return None
    if snode is not None and shape != inferred and not (inferred == () and True):
        ctx.err(snode.line, f"{what}: value has shape {list(inferred)} but shape says {list(shape)}")
        return None
    if shape == ():
        shape = (1,)
    return ConstantDecl(name, shape, dtype or "f32", line, value=value)


def _graph(ctx: _Ctx, name: str, node: Node, line: int, default_targets, base_dir: Path) -> GraphSpec | None:
    """``line`` is the line of the graph's name. Returns None when the graph is
    too broken to resolve (resolving it would only repeat what was reported)."""
    what = f"graph '{name}'"
    if not ctx.expect_map(node, what, line, "{inputs: {..}, nodes: {..}, outputs: [..]}"):
        return None
    typos = ctx.check_keys(node, GRAPH_KEYS, what)
    targets = _targets(ctx, node.value.get("targets"), default_targets)
    device = xdna_devices(ctx, node, targets, what)
    metadata = graph_metadata(ctx, node.value.get("metadata"), what)
    rejected: set[str] = set()
    seq, seq_dims = graph_seq(ctx, node, targets, what), {}
    inputs = _tensor_decls(ctx, node.value.get("inputs"), "inputs", False, base_dir, rejected, seq, seq_dims, "seq" in node.value)
    if seq is not None and not names_seq(node.value.get("inputs")) and "inputs" in node.value:
        ctx.err(node.value["seq"].line, f"{what}: seq lists sizes but no input names a dimension 'seq'; write it in the "
                                        "input's shape, e.g. x: {shape: [seq, 64]}")
    params = _tensor_decls(ctx, node.value.get("params"), "params", False, base_dir, rejected)
    constants = _tensor_decls(ctx, node.value.get("constants"), "constants", True, base_dir, rejected)
    states = graph_states(ctx, node, targets, what, lambda n, w: _shape(ctx, n, w), rejected)
    if "inputs" not in node.value and "inputs" not in typos:
        ctx.err(line, f"{what} has no 'inputs'; declare them as name: {{shape: [..], dtype: f32}}")
    seen: dict[str, int] = {}
    for group in (inputs, params, constants, states):
        for tname, decl in group.items():
            if tname in seen:
                ctx.err(decl.line, f"{what}: tensor '{tname}' is declared twice (also at line {seen[tname]}); rename one")
            seen[tname] = decl.line
    nodes: dict[str, NodeDecl] = {}
    nodes_node = node.value.get("nodes")
    if nodes_node is None or not nodes_node.is_map() or not nodes_node.value:
        if nodes_node is not None or "nodes" not in typos:
            ctx.err(nodes_node.line if nodes_node else line, f"{what} needs a non-empty 'nodes' mapping (name: {{op: .., inputs: [..]}})")
        return None
    for nname, nnode in nodes_node.value.items():
        if not ctx.check_name(nname, nodes_node.key_line(nname), f"node of {what}"):
            rejected.add(nname)
            continue
        decl = _node(ctx, what, nname, nnode, nodes_node.key_line(nname))
        if decl is None:
            rejected.add(nname)
            continue
        if nname in seen:
            ctx.err(decl.line, f"{what}: node '{nname}' has the name of a declared tensor (line {seen[nname]}); rename it")
            continue
        nodes[nname] = decl
    outputs, output_lines = [], []
    onode = node.value.get("outputs")
    if onode is None or not onode.is_list() or not onode.value:
        if onode is not None or "outputs" not in typos:
            ctx.err(onode.line if onode else line, f"{what} needs 'outputs': a list of node names, e.g. outputs: [{list(nodes_node.value)[-1]}]")
        return None
    for o in onode.value:
        outputs.append(str(o.value))
        output_lines.append(o.line)
    if "inputs" not in node.value or typos & {"params", "constants"}:
        return None  # a missing/misspelt section: every read of its tensors would be "unknown"
    metadata = check_metadata_names(ctx, metadata, inputs, outputs, what)
    ane_options = graph_ane_options(ctx, node, what, targets, constants)
    if not layout_combines(ctx, node, what, ane_options, states):
        return None
    return GraphSpec(name, ctx.file, line, inputs, params, constants, nodes, outputs, output_lines, targets, rejected, device,
                     metadata, states, seq if seq_dims else None, seq_dims, ane_options)


def _node(ctx: _Ctx, gwhat: str, name: str, nnode: Node, line: int) -> NodeDecl | None:
    what = f"node '{name}' of {gwhat}"
    if not ctx.expect_map(nnode, what, line, "{op: relu, inputs: [x]}"):
        return None
    typos = ctx.check_keys(nnode, NODE_KEYS, what)
    op = _op(ctx, nnode, what, line, typos)
    inode = nnode.value.get("inputs")
    if inode is None or not inode.is_list() or not all(isinstance(i.value, str) for i in inode.value):
        if inode is not None or "inputs" not in typos:
            ctx.err(inode.line if inode else line, f"{what} needs 'inputs': a list of tensor names, e.g. inputs: [x]")
        return None
    dtype = _dtype(ctx, nnode.value.get("dtype"), None, what)
    if "dtype" in nnode.value and dtype is None:
        return None
    raw_attrs, attrs_node = _attrs(ctx, nnode, what)
    if op is None or not _check_attrs(ctx, op, raw_attrs, attrs_node, line, what):
        return None
    return NodeDecl(
        name=name,
        op=op.name,
        inputs=[i.value for i in inode.value],
        input_lines=[i.line for i in inode.value],
        attrs=raw_attrs,
        attrs_node=attrs_node,
        dtype=dtype,
        line=line,
    )


def load_specs(
    spec_dir: Path,
    project_root: Path,
    default_targets=("ref", "host"),
    cache_dir: Path | None = None,
    xdna_device: str = "npu1",
    design_checks: DesignChecks | None = None,
    limits: Limits = Limits(),
    data_roots: tuple | None = None,
    graph_checks: GraphChecks | None = None,
    spec_checks: Callable | None = None,
    restriction_checks: RestrictionChecks | None = None,
) -> Spec:
    """Load every spec under ``spec_dir``; raise SpecError listing all problems.

    ``design_checks`` are the compiled targets' own static checks of an
    instance (the build passes them: npubuild.engine.targets.design_checks), so
    that what a target cannot build is reported at its spec line too.
    ``restriction_checks`` are the targets' restrictions (the build passes them:
    npubuild.engine.plan.restriction_checks): each one a kernel fails is an error at
    its spec line, and the target's design check is not run on that kernel.
    ``data_roots``: where .npy constants may be read from (default: the project).
    ``graph_checks``: per target, the check of a whole graph (the build passes ane's,
    npubuild.ane.from_graph.graph_problems), reported with the other problems.
    ``spec_checks``: a check of the whole (valid part of the) spec returning Diagnostics (the build
    passes its plan's: one kernel wanted with two devices ...), reported with the other problems.
    """
    roots = tuple(data_roots) if data_roots is not None else (project_root,)
    problems: list[Diagnostic] = []
    spec = Spec()
    family_origin: dict[str, str] = {}
    graph_origin: dict[str, str] = {}
    graph_specs: list[tuple[GraphSpec, _Ctx]] = []
    models: list = []  # (model name, line, [(function, line)]), the loader context of its file
    for kind in ("kernels", "graphs"):
        for path in walk_spec_files(spec_dir, kind):
            display = _display(path, project_root)
            spec.files.append(display)
            root, parse_problems = load_file(path, display, cache_dir, limits)
            problems += parse_problems
            if root is None:
                continue
            ctx = _Ctx(display, xdna_device, design_checks, limits, roots, restriction_checks)
            if not root.is_map():
                ctx.err(root.line, f"a spec file must be a mapping with a '{kind}:' key")
                problems += ctx.problems
                continue
            tops = (kind,) if kind == "kernels" else (kind, "models")
            ctx.check_keys(root, tops, f"a {kind} spec file (files under specs/{kind}/ hold '{kind}:'"
                                       + (" and may hold 'models:')" if kind == "graphs" else ")"))
            body = root.value.get(kind)
            if body is None and kind == "graphs" and "models" in root.value:
                pass  # a file of models only: their graphs are declared elsewhere
            elif body is None or not body.is_map() or not body.value:
                if kind in root.value or not root.value:
                    ctx.err(body.line if body else root.line, f"'{kind}:' must be a non-empty mapping of names")
            else:
                for name, node in body.value.items():
                    origin = family_origin if kind == "kernels" else graph_origin
                    here = f"{display}:{body.key_line(name)}"
                    if name in origin:
                        ctx.err(body.key_line(name), f"{kind[:-1]} '{name}' is already defined at {origin[name]}; names must be unique across files")
                        continue
                    origin[name] = here
                    if not ctx.check_name(name, body.key_line(name), "kernel family" if kind == "kernels" else "graph"):
                        continue
                    if kind == "kernels":
                        fam = _kernel_family(ctx, name, node, body.key_line(name), default_targets, path.parent)
                        if fam is not None:
                            spec.families[name] = fam
                    else:
                        g = _graph(ctx, name, node, body.key_line(name), default_targets, path.parent)
                        if g is not None:
                            graph_specs.append((g, ctx))
            if kind == "graphs" and root.value.get("models") is not None:  # after the file's graphs: a model names them
                models += [(m, ctx) for m in model_entries(ctx, root.value["models"], graph_origin)]
            problems += ctx.problems
    for g, ctx in graph_specs:
        gctx = _Ctx(g.file, xdna_device, design_checks, limits, roots, restriction_checks)
        resolved = resolve_graph(g, gctx.err)
        if resolved is not None and g.seq:
            resolved = resolve_sizes(g, resolved, gctx.err)
        for t in g.targets:
            if resolved is None:
                break
            for step in resolved.steps:
                _check_restrictions(gctx, step.instance, [t], g.nodes[step.node].line, f"node '{step.node}' of graph '{g.name}'", g.device)
            check = (graph_checks or {}).get(t)
            if check is not None:
                for line, msg in check(resolved):
                    gctx.err(line, msg)
        problems += gctx.problems
        if resolved is not None:
            spec.graphs[g.name] = resolved
    model_names = {m[0] for m, _ in models}
    # every graph name declared (None: a graph too broken to resolve, already reported), models aside
    declared = {**{n: None for n in graph_origin if n not in model_names}, **{g.name: g for g, _ in graph_specs}}
    taken: dict = {}
    for (name, line, functions), ctx in models:
        mctx = _Ctx(ctx.file, xdna_device, design_checks, limits, roots, restriction_checks)
        for fline, msg in model_problems(name, functions, declared, taken):
            mctx.err(fline, msg)
        problems += mctx.problems
        if not mctx.problems and all(f in spec.graphs for f, _ in functions):
            spec.models[name] = ModelOfGraphs(name, ctx.file, line, {f: spec.graphs[f] for f, _ in functions})
    if spec_checks is not None:
        problems += spec_checks(spec)
    if problems:
        raise SpecError(problems)
    return spec


def _display(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
