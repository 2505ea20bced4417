"""The whole-graph Core ML package, a ``.mil`` graph's main function re-created with coremltools' MIL builder,
and :func:`write_packages`: every package of a plan (the node packages are :mod:`.coreml`'s).

The function is read with npubuild's reader (:func:`.mil.load_mil`, the same bounds as the build) and
each op is re-created with ``coremltools.converters.mil.Builder`` at opset iOS18, every parameter
explicit (:data:`DEFAULTS`: a conv's strides, pad_type, pad, dilations and groups, matmul's transposes,
softmax's axis, ...), so nothing is left to a default the reader of the package must know. One op is
spelled out in MIL ops:

* npubuild's extension op ``rms_norm(x, w, eps)`` — ``x · rsqrt(mean(x²) + eps) · w`` over x's last axis,
  as npubuild's reader defines it (:func:`.mil_shapes.rms_norm`) — as ``mul``, ``reduce_mean`` (axis -1,
  keep_dims), ``add`` eps, ``rsqrt`` (epsilon 0: eps is the add), ``mul``, and ``mul`` by w.

``gelu`` stays MIL's ``gelu`` with its mode explicit (EXACT, MIL's default, when the text gives none): Core ML's
public path runs it (the node programs spell it in elementwise ops for the private compiler, :mod:`.program_ops`).

Inputs keep their declared dtype (fp16, or fp32 read through a cast); constants keep their names and
their float data is fp16 (every program computes in fp16, as the plan does); a constexpr weight is
re-created as the op the text wrote (the reader keeps it beside the materialised values), so int8 blocks
stay compressed in the package. coremltools infers every result's
type on the way; one that disagrees with the declared type is an error naming ``file:line`` and both.
The package is converted, normalised and checked as the node packages are (:mod:`.coreml`), its inputs
and outputs against the plan's.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..ops.lazy_numpy import np
from . import numerics as nm
from .coreml import (PACKAGE, CoreMLError, check_package, convert, coremltools, fail, op_types, package_files, symbolic_dims,
                     write_node_package)
from .mil_model import FLOATS, Literal, Ref, numpy_dtype
from .plan_model import HostNode


def _conv_defaults(args: dict) -> dict:
    spatial = max(len(getattr(args.get("x"), "shape", ()) or ()) - 2, 1)
    return {"strides": [1] * spatial, "pad_type": "valid", "pad": [0] * (2 * spatial), "dilations": [1] * spatial, "groups": 1}


# op -> the parameters a MIL text may leave out, with iOS18's defaults (coremltools ops/defs/iOS15..iOS18
# default_inputs()); written into every package so nothing rests on a default
DEFAULTS = {
    "conv": _conv_defaults,
    "matmul": lambda a: {"transpose_x": False, "transpose_y": False},
    "softmax": lambda a: {"axis": -1},
    "concat": lambda a: {"interleave": False},
    **{f"reduce_{r}": (lambda a: {"keep_dims": False}) for r in ("mean", "sum", "max", "min", "prod", "l2_norm", "log_sum_exp")},
    "rsqrt": lambda a: {"epsilon": np.float16(1e-12)},
    "inverse": lambda a: {"epsilon": np.float16(1e-4)},
    "leaky_relu": lambda a: {"alpha": np.float16(0.01)},
    "elu": lambda a: {"alpha": np.float16(1.0)},
}


# decomposed ops whose constant arguments are values, not const ops
RAW_ARGS = {"rms_norm": ("eps",), "gelu": ("mode",)}


def _fp16(value):
    a = np.asarray(value)
    return a.astype(np.float16) if a.dtype.kind == "f" else a


def _literal(lit: Literal):
    v = lit.value
    if isinstance(v, np.ndarray) and lit.type.dtype in SUB_BYTE:
        return v.astype(getattr(coremltools()[2], f"np_{lit.type.dtype}_dtype"))
    if isinstance(v, np.ndarray):
        return _fp16(v)
    if lit.type.dtype in FLOATS:
        return np.float16(v)
    if lit.type.dtype in ("int32", "int16", "int8", "uint8", "uint16"):
        return np.int32(v)
    return v  # bool, str


def const_value(fn, name: str):
    """Named constant ``name`` of ``fn`` as coremltools' builder takes a const's value (``mb.const(val=...)``,
    typed by ``Const._get_type_val``, coremltools ops/defs/iOS15/control_flow.py): a ``string`` a Python str, a
    ``bool`` scalar a Python bool, any other scalar a NumPy scalar of its dtype (``int32(1)`` an np.int32), a
    tensor an ndarray of its dtype (a sub-byte one, e.g. palettized uint4 indices, in coremltools'
    ``types.np_uint4_dtype``, so the package keeps indices and LUT); float data fp16, as every program computes.
    The reader holds a scalar as a 0-d array (or a str): handed to the builder as is, a string const became an
    ndarray, which cast's ``dtype`` and conv's ``pad_type`` (looked up in dicts) refuse."""
    v, ty = fn.consts[name], fn.const_types.get(name)
    dtype = ty.dtype if ty is not None else None
    if dtype == "string" or isinstance(v, str):
        return str(v.item() if isinstance(v, np.ndarray) else v)
    a = np.asarray(v)
    if dtype in FLOATS or (dtype is None and a.dtype.kind == "f"):
        a = a.astype(np.float16)
    elif dtype in SUB_BYTE:  # held unpacked in (u)int8; coremltools marks the MIL dtype in the NumPy dtype's metadata
        a = a.astype(getattr(coremltools()[2], f"np_{dtype}_dtype"))
    elif dtype is not None and dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        a = a.astype(numpy_dtype(dtype))
    if ty is not None and not ty.shape and a.size == 1:  # a scalar (``int32``, ``tensor<int32, []>``)
        return bool(a.reshape(())) if a.dtype == np.bool_ else a.reshape(())[()]
    return a


# the sub-byte MIL dtypes (constexpr_lut_to_dense's indices, int4 blocks): coremltools' types.np_<dtype>_dtype
SUB_BYTE = ("int4", "uint1", "uint2", "uint3", "uint4", "uint6")


class _Names:
    """Names for the ops a decomposition adds, outside every name the function uses."""

    def __init__(self, fn):
        self.taken = {n for n, _ in fn.inputs} | set(fn.consts) | {o.result for o in fn.ops}

    def __call__(self, base: str) -> str:
        name, k = base, 1
        while name in self.taken:
            name, k = f"{base}_{k}", k + 1
        self.taken.add(name)
        return name


def _rms_norm(mb, args: dict, result: str, fresh):
    """``x · rsqrt(mean(x², last axis) + eps) · w``: npubuild's extension op as its reader defines it
    (npubuild.ane.mil_shapes.rms_norm: over the last axis, w of x's last dimension, broadcast by MIL's rule);
    ``args``: x and w vars (w optional), eps a number (default 1e-5)."""
    x, w, eps = args["x"], args.get("w"), args.get("eps", 1e-5)
    sq = mb.mul(x=x, y=x, name=fresh(f"{result}_sq"))
    mean = mb.reduce_mean(x=sq, axes=[-1], keep_dims=True, name=fresh(f"{result}_mean"))
    shifted = mb.add(x=mean, y=np.float16(np.asarray(eps).reshape(())), name=fresh(f"{result}_eps"))
    r = mb.rsqrt(x=shifted, epsilon=np.float16(0), name=fresh(f"{result}_rsqrt"))
    if w is None:
        return mb.mul(x=x, y=r, name=result)
    return mb.mul(x=mb.mul(x=x, y=r, name=fresh(f"{result}_xn")), y=w, name=result)


def _make(mb, op: str, args: dict, result: str, fresh):
    if op == "rms_norm":
        return _rms_norm(mb, args, result, fresh)
    if op == "gelu":  # MIL's own gelu, its mode explicit (iOS15/activation.py; Core ML's public path runs it)
        return mb.gelu(x=args["x"], mode=str(np.asarray(args.get("mode", "EXACT")).reshape(())), name=result)
    if op == "write_state":
        # the op model.mil holds for a state write; coremltools reads it back as coreml_update_state
        # (frontend/milproto/load.py: "write_state is translated into coreml_update_state") and writes that
        # as write_state + read_state (backend/mil/load.py translate_coreml_update_state_op)
        return mb.coreml_update_state(state=args["input"], value=args["data"], name=fresh(result or "write_state"))
    build = getattr(mb, op, None) if not op.startswith("_") else None
    if build is None or not callable(build):
        raise ValueError(f"op '{op}' has no coremltools MIL builder")
    for k, v in DEFAULTS.get(op, lambda a: {})(args).items():
        args.setdefault(k, v)
    return build(**args, name=result)


def graph_program(fn, file: str, flexible: dict | None = None):
    """The coremltools Program of a MIL function read by npubuild (:class:`.mil_model.MilFunction`). With
    ``flexible`` (a seq graph: :func:`.sizes.flexible`) the seq axis of each seq input is one symbol, as coremltools
    declares a flexible input (``get_new_symbol``), and every result's dims that differ between the sizes must be
    inferred as symbols, the others as the declared numbers."""
    ct, mb, types, mil = coremltools()
    fresh = _Names(fn)
    seq = _SeqShapes(flexible) if flexible else None
    # inputs as declared: fp16, or fp32 where the graph reads one through a cast (the plan allows no other);
    # a state<tensor<...>> input is a state of the package (coremltools' StateTensorSpec, iOS18 states.py)
    def spec(n, t):
        shape = seq.input_shape(n, t.shape) if seq else tuple(t.shape)
        tensor = dict(shape=shape, dtype=getattr(types, t.dtype if t.dtype in ("fp16", "fp32") else "fp16"))
        return mb.StateTensorSpec(**tensor) if t.state else mb.TensorSpec(**tensor)

    specs = {n: spec(n, t) for n, t in fn.inputs}
    with mil.Function(specs, opset_version=ct.target.iOS18) as f:
        env, consts = dict(f.inputs), {}

        def value(v, raw: bool = False):
            """A var for a Ref; a value for a literal; with ``raw`` a constant's values, not a const op."""
            if isinstance(v, tuple):
                return [value(x) for x in v]
            if isinstance(v, Literal):
                return _literal(v)
            if v.name in env:
                return env[v.name]
            if raw:
                return const_value(fn, v.name)
            if v.name not in consts:  # one named const per MIL constant, made where it is first read
                consts[v.name] = constant(v.name)
            return consts[v.name]

        def constant(name: str):
            """A constant; a constexpr one (the reader keeps the op as written in MilFunction.constexprs, e.g.
            int8 blocks and their scales) re-created as that op, so the package stores it compressed."""
            op = getattr(fn, "constexprs", {}).get(name)
            if op is None:
                return mb.const(val=const_value(fn, name), name=name)
            args = {k: (const_value(fn, x.name) if isinstance(x, Ref) else _literal(x)) for k, x in op.args.items()}
            return getattr(mb, op.op)(**args, name=name)

        for o in fn.ops:
            where = f"{file}:{o.line}: {o.op} '{o.result}'"
            unknown = [v.name for v in _refs(o.args) if v.name not in env and v.name not in fn.consts]
            if unknown:
                raise CoreMLError(f"{where} reads '{unknown[0]}', which is defined nowhere before it")
            try:
                raw = RAW_ARGS.get(o.op, ())  # read as values by a decomposition: no const op of their own
                var = _make(mb, o.op, {k: value(v, k in raw) for k, v in o.args.items()}, o.result, fresh)
            except Exception as e:  # coremltools' type inference: ValueError, TypeError, AssertionError, ...
                raise fail(f"{where}: coremltools' MIL builder refuses it", e) from None
            if o.op == "write_state":
                continue  # no result: the state it writes is the effect
            results = getattr(o, "results", None) or ((o.result, o.type),)  # split and the like make several
            made = list(var) if isinstance(var, (list, tuple)) else [var]
            if len(made) != len(results):
                raise CoreMLError(f"{where} declares {len(results)} results, coremltools makes {len(made)}")
            for (name, ty), v in zip(results, made):
                declared, dt = list(ty.shape or ()), types.builtin_to_string(v.dtype)
                same_dtype = dt == ty.dtype or (ty.dtype in FLOATS and dt in FLOATS)
                if seq is not None and same_dtype:
                    seq.check(name, v.shape, where)
                elif list(v.shape) != declared or not same_dtype:
                    raise CoreMLError(f"{where} declares '{name}' {ty}, but coremltools infers tensor<{dt}, {list(v.shape)}>")
                env[name] = v
        missing = [n for n in fn.outputs if n not in env]
        if missing:
            raise CoreMLError(f"{file}: function output '{missing[0]}' is no op result")
        f.set_outputs([env[n] for n in fn.outputs])
    prog = mil.Program()
    prog.add_function("main", f)
    return prog


class _SeqShapes:
    """The seq dimension of a seq graph's package as one coremltools symbol (:func:`graph_program`)."""

    def __init__(self, flexible: dict):
        from coremltools.converters.mil.mil import get_new_symbol

        self.symbol = get_new_symbol()
        self.inputs, self.shapes = flexible["inputs"], flexible["shapes"]

    def input_shape(self, name: str, shape) -> tuple:
        axis = self.inputs.get(name)
        return tuple(self.symbol if k == axis else d for k, d in enumerate(shape))

    def check(self, name: str, inferred, where: str) -> None:
        """The dims of ``name`` that differ between the sizes must be symbolic, the others its declared numbers."""
        sizes, varying = self.shapes[name], _varying(self.shapes[name])
        want = ["seq" if k in varying else d for k, d in enumerate(sizes[0])]
        have = symbolic_dims(inferred)
        if have != want:
            raise CoreMLError(f"{where}: its shape is {want} over the seq sizes, but coremltools infers {have} with the seq "
                              "dimension a symbol: the package could not take every size (a reshape or an attr with a "
                              "size in it fixes one); drop seq or keep that size out of the op")


def _refs(args: dict):
    for v in args.values():
        for x in v if isinstance(v, tuple) else (v,):
            if isinstance(x, Ref):
                yield x


def package_names(prog) -> dict:
    """The feature name each input and output of ``prog``'s main function gets in the saved package, keyed by
    its name in the program. coremltools' mlprogram backend always runs ``mil_backend::sanitize_name_strings``
    (even with ``PassPipeline.EMPTY``): one ``NameSanitizer(prefix="var_")`` over the main function's inputs,
    then every op's results in order (coremltools/converters/mil/mil/passes/defs/preprocess.py). It replaces
    characters outside ``[a-zA-Z0-9_]`` with ``_``, prefixes a name that does not start with a letter or ``_``,
    appends ``_workaround`` to a reserved word (``state``, ``tensor``, ``string``, ``fp16``, ``bool``, ``func``,
    ...) and ``_0``, ``_1``, ... to a changed name already taken. The same sanitizer, run here the same way
    before converting, predicts each name; the saved package is then checked against the prediction."""
    from coremltools.converters.mil.mil.passes.defs.preprocess import NameSanitizer

    fn = prog.functions["main"]
    san, names = NameSanitizer(prefix="var_"), {}
    for name in fn.inputs:
        names[name] = san.sanitize_name(name)
    outs = {v.name for v in fn.outputs}
    for op in fn.operations:
        for v in op.outputs:
            new = san.sanitize_name(v.name)
            if v.name in outs:
                names[v.name] = new
    return names


def _renamed(name: str, names: dict) -> str:
    return f"'{name}'" if names[name] == name else f"'{name}' (coremltools names it '{names[name]}')"


def graph_package(plan, fn, file: str, dest: Path, out_dir: Path, what: str, normalised: bool = True, meta=None,
                  parts: list | None = None, flexible: dict | None = None) -> dict:
    """Build, convert, save and check the whole-graph package of MIL function ``fn`` (read from ``file``, or
    translated from a YAML graph) at ``dest``; returns its manifest record: :func:`.coreml.package_files` and
    ``io_names``, every input and output of the plan -> its feature name in the package (:func:`package_names`:
    an input named ``state`` is ``state_workaround`` there), so a caller of the package knows what to pass.
    ``normalised=False``: saved as coremltools saves it (:func:`.coreml.convert`), for save_multifunction to read.
    ``meta`` (:class:`.metadata.PackageMeta`, its features keyed by the plan's names) is the package's metadata, its
    description generated (:func:`.metadata.summary`) where ``meta`` gives none; ``parts``, when given, gets
    (ops, inputs, outputs) appended, what that description was made of. ``flexible`` (a seq graph:
    :func:`.sizes.flexible`): each seq input takes ``ct.EnumeratedShapes`` of its shape at every size, the default
    first, and the package is checked for them (:func:`.coreml.check_package`)."""
    from .metadata import PackageMeta, summary

    _, _, types, _ = coremltools()
    prog = graph_program(fn, file, flexible)
    outs = {v.name: types.builtin_to_string(v.dtype) for v in prog.functions["main"].outputs}
    ops = op_types(prog)
    names = package_names(prog)
    seen: dict = {}
    for n in [*(i[0] for i in plan.inputs), *plan.outputs]:
        if names[n] in seen:  # the sanitizer keeps unchanged names as they are: 'state' -> 'state_workaround' may meet one
            a, b = seen[names[n]], n
            raise CoreMLError(f"{what}: {_renamed(a, names)} and {_renamed(b, names)} would share the name '{names[n]}' in "
                              "the package (coremltools renames reserved words such as state, tensor, fp16): rename one")
        seen[names[n]] = n
    inputs = [(names[n], list(shape), dtype if dtype in ("fp16", "fp32") else "fp16") for n, shape, dtype in plan.inputs]
    declared = {o.result: list(o.type.shape or ()) for o in fn.ops}
    outputs = [(names[n], list(plan.output_shapes.get(n) or declared.get(n, [])), outs[n]) for n in plan.outputs]
    states = [(names.get(n, n), list(shape), dtype if dtype in ("fp16", "fp32") else "fp16") for n, shape, dtype in plan.states]
    meta = (meta or PackageMeta()).renamed(names)
    if parts is not None:
        parts.append((ops, inputs, outputs))
    enumerated = {names[n]: [list(s) for s in flexible["shapes"][n]] for n in flexible["inputs"]} if flexible else None
    seq_axes = {names[n]: _varying(flexible["shapes"][n]) for n in [*flexible["inputs"], *plan.outputs]} if flexible else None
    convert(prog, dest, what, normalised, meta=meta, description=summary(what, ops, inputs, outputs), enumerated=enumerated)
    check_package(dest, inputs, outputs, ops, what, states, meta=meta, enumerated=enumerated, seq_axes=seq_axes)
    rec = package_files(dest, out_dir)
    rec["io_names"] = {n: names[n] for n in [*(i[0] for i in plan.inputs), *plan.outputs]}
    return rec


def _varying(shapes: list) -> set:
    """The axes on which a value's shapes at the seq sizes differ."""
    return {k for k in range(len(shapes[0])) if len({s[k] for s in shapes}) > 1}


def write_graph_package(plan, source, dest: Path, what: str, functions: dict | None = None, meta=None) -> dict:
    """Build, convert, save and check ``dest`` from the .mil ``source`` = (path, display name, MilBounds);
    returns its record (:func:`graph_package`). With ``functions`` (function name -> its plan, the default
    function's first, ``plan`` among them) every one of them goes into one multifunction package
    (:func:`multifunction_package`)."""
    from .mil import load_mil

    mil_path, display, bounds = source
    prog = load_mil(mil_path, display, bounds)
    if functions and len(functions) > 1:
        return multifunction_package(functions, prog.functions, display, dest, dest.parent, what, meta)
    return graph_package(plan, prog.main, display, dest, dest.parent, what, meta=meta)


def multifunction_package(plans: dict, fns: dict, file: str, dest: Path, out_dir: Path, what: str, meta=None) -> dict:
    """One package holding every function of a multifunction .mil, as ``ct.utils.save_multifunction`` makes
    one (coremltools/models/utils.py): each function is built, converted and checked against its plan as a
    package of its own (:func:`graph_package`, in a scratch directory beside ``dest``), a
    ``MultiFunctionDescriptor`` takes each package's ``main`` as that function (``add_function(path, "main",
    name)``), its ``default_function_name`` is the first of ``plans`` (``main``, or the only function), and
    ``save_multifunction`` writes the package, deduplicating equal constants across functions (its
    ``const_deduplication`` pass), so a weight the functions share is stored once. The result is normalised and
    reloaded: :func:`check_functions`; its metadata is ``meta``'s, its description generated from every
    function's ops and the default function's inputs and outputs (:mod:`.metadata`). Returns its record:
    :func:`.coreml.package_files`, ``default_function``,
    ``io_names`` (the default function's) and ``functions`` ([{name, io_names}] in the package's order)."""
    import os
    import shutil

    from coremltools.models.utils import MultiFunctionDescriptor, save_multifunction

    from .coreml import normalise, quiet
    from .metadata import PackageMeta, check_spec, stamp_package, summary

    names = list(plans)
    default = names[0]
    work = dest.with_name("tmp-functions-" + dest.name)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        singles, recs, parts = {}, {}, []
        meta = meta or PackageMeta()
        for k, name in enumerate(names):
            singles[name] = work / f"f{k}.mlpackage"
            recs[name] = graph_package(plans[name], fns[name], file, singles[name], work, f"{what}: function '{name}'",
                                       normalised=False, meta=meta, parts=parts)
        desc = MultiFunctionDescriptor()
        for name in names:
            desc.add_function(str(singles[name]), "main", name)
        desc.default_function_name = default
        tmp = work / dest.name
        with quiet() as captured:
            try:
                save_multifunction(desc, str(tmp))
            except Exception as e:  # ValueError, RuntimeError, ... from coremltools
                raise fail(f"{what}: coremltools' save_multifunction cannot join the functions {', '.join(names)}", e,
                           captured.getvalue()) from None
        ops = [op for p in parts for op in p[0]]
        try:
            stamp_package(tmp, meta.renamed(recs[default]["io_names"]),
                          summary(f"{what} (functions {', '.join(names)}; default '{default}')", ops, parts[0][1], parts[0][2]))
        except ValueError as e:
            raise CoreMLError(f"{what}: {e}") from None
        normalise(tmp)
        check_functions(tmp, singles, default, what)
        problems = check_spec(ct_load_spec(tmp), None, what)
        if problems:
            raise CoreMLError(problems[0])
        shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rec = package_files(dest, out_dir)
    rec["default_function"] = default
    rec["io_names"] = recs[default]["io_names"]
    rec["functions"] = [{"name": name, "io_names": recs[name]["io_names"]} for name in names]  # a list: plan.json sorts keys
    return rec


def check_functions(pkg: Path, singles: dict, default: str, what: str) -> None:
    """Reload the multifunction package ``pkg`` as :func:`.coreml.check_package` reloads a package (``load_spec``
    and coremltools' milproto loader) and compare it with the single-function packages it was joined from
    (``singles``: function name -> package, each checked against its plan already): the spec is an iOS18
    mlProgram whose ``description.functions`` are those functions in that order, its ``defaultFunctionName``
    ``default``, each function's inputs, outputs and states its package's, and each MIL function holds its
    package's ops."""
    from collections import Counter

    from coremltools.converters.mil.frontend.milproto.load import load as milproto_load

    from .coreml import DATA, MIN_SPEC_VERSION, quiet

    ct = coremltools()[0]

    def reload(path: Path):
        with quiet() as captured:
            try:
                spec = ct.utils.load_spec(str(path))
                return spec, milproto_load(spec, spec.specificationVersion, str(path.joinpath(*DATA, "weights")))
            except Exception as e:
                raise fail(f"{what}: the saved package {path.name} does not reload (load_spec + milproto)", e,
                           captured.getvalue()) from None

    spec, prog = reload(pkg)
    if spec.WhichOneof("Type") != "mlProgram" or spec.specificationVersion < MIN_SPEC_VERSION:
        raise CoreMLError(f"{what}: the package is a {spec.WhichOneof('Type')} of specification version "
                          f"{spec.specificationVersion}, not an iOS18 mlProgram (version {MIN_SPEC_VERSION})")
    descs = {f.name: f for f in spec.description.functions}
    if list(descs) != list(singles) or spec.description.defaultFunctionName != default:
        raise CoreMLError(f"{what}: the package's functions are {', '.join(descs) or 'none'} (default "
                          f"'{spec.description.defaultFunctionName}'), built were {', '.join(singles)} (default '{default}')")
    for name, single in singles.items():
        one, one_prog = reload(single)
        for side in ("input", "output", "state"):
            have, want = list(getattr(descs[name], side)), list(getattr(one.description, side))
            if have != want:
                raise CoreMLError(f"{what}: function '{name}': the package's {side}s are {[f.name for f in have]}, "
                                  f"its own package's {[f.name for f in want]}")
        saved = [op.op_type for op in prog.functions[name].operations if op.op_type != "const"]
        built = [op.op_type for op in one_prog.functions["main"].operations if op.op_type != "const"]
        if Counter(saved) != Counter(built):
            raise CoreMLError(f"{what}: function '{name}' holds the ops {' '.join(saved)}, its own package {' '.join(built)}")


def ct_load_spec(path: Path):
    """A saved package's spec (coremltools' load_spec, quietly)."""
    from .coreml import quiet

    ct = coremltools()[0]
    with quiet():
        return ct.utils.load_spec(str(path))


def write_packages(plan, out_dir: Path, stems: dict, graph: str, source=None,
                   functions: dict | None = None, meta=None) -> tuple[dict, dict | None, list[Path]]:
    """Every package of ``plan`` under ``out_dir``: ``stems[i]`` is program node i's directory; ``source``
    (path, display name, MilBounds) the graph's .mil, for the whole-graph package (none without it);
    ``functions`` (name -> plan, default first) makes that package a multifunction one (:func:`write_graph_package`).
    ``meta`` (:class:`.metadata.PackageMeta`): the metadata of every package (a node's gets its own description).
    Returns (node index -> package record, the graph's package record or None, every file written)."""
    records, files = {}, []
    for i, node in enumerate(plan.nodes):
        if isinstance(node, HostNode):
            continue  # the host's rsqrt broadcast: no program; the graph package has it as MIL ops
        dest = out_dir / stems[i] / PACKAGE
        write_node_package(node, dest, f"ane graph '{graph}': node {i} '{node.name}' (route {node.route})", meta)
        records[i] = package_files(dest, out_dir)
    graph_rec = None
    if source is not None:
        dest = out_dir / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', graph)}.mlpackage"
        graph_rec = write_graph_package(plan, source, dest, f"ane graph '{graph}': the graph package", functions, meta)
    for rec in [*records.values(), *([graph_rec] if graph_rec else [])]:
        files += [out_dir / f["path"] for f in rec["files"]]
    return records, graph_rec, files
