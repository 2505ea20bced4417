"""Core ML packages (``.mlpackage``) of an ANE plan, built and checked with coremltools.

What is written, next to each program's ``model.mil`` + ``weights/weight.bin``:

* ``n<i>_<name>/model.mlpackage`` for every program node (:class:`.plan_model.ProgNode`):
  the node's computation as the ``ane`` backend defines it (:func:`npubuild.runner.ane.execute`),
  built from the plan — route, attributes, currencies, fp16 weights, compressed int8 blocks —
  with coremltools' MIL builder at opset iOS18, never by re-reading text (:func:`node_program`:
  it replays the node's MIL function as npubuild.ane.program_ops describes it, the description
  ``model.mil`` is rendered from, so package and text hold the same ops). Inputs ``in0``,
  ``in1``, .. and the output ``y`` have the currencies' 4-D shapes and dtypes (fp16; fp32 only
  at a cast). A route with no MIL spelling is an error naming it, so none is skipped silently.
* ``<graph>.mlpackage``: the whole MIL function (:mod:`.coreml_graph`, which also writes every package of a
  plan: ``write_packages``).

Each program is converted with ``ct.convert(prog, convert_to="mlprogram",
minimum_deployment_target=ct.target.iOS18, compute_precision=ct.precision.FLOAT16,
pass_pipeline=ct.PassPipeline.EMPTY, skip_model_load=True)``: the EMPTY pipeline keeps
the program as built (the mlprogram backend still runs its own passes, of which
``mil_backend::fuse_activation_silu`` rewrites ``sigmoid`` + ``mul`` into ``silu``), and
``skip_model_load`` because Linux has no Core ML runtime. Its model metadata (author, version, license,
description, a description of every input and output) is written into the saved spec
(:mod:`.metadata`). The package is then made
byte-reproducible (:func:`normalise`) and validated (:func:`check_package`): the spec is
reloaded with ``ct.utils.load_spec``, round-tripped through coremltools' milproto loader,
and its inputs, outputs and ops are compared with what was built; any failure is a
:class:`CoreMLError` naming the graph, the node and what is wrong.

coremltools (2-3 s to import) is imported on first use only: a no-op build never imports it.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from collections import Counter
from pathlib import Path

from ..core.errors import UserError
from ..core.fsio import sha256_file
from ..ops.lazy_numpy import np
from .ct_quiet import no_progress_bars, quiet  # noqa: F401 - coremltools' lock and quiet stderr, used here and by callers
from .metadata import DATA, MODEL_FILE  # noqa: F401 - where a package's spec is, here and for callers

PACKAGE = "model.mlpackage"
WEIGHTS_ITEM = "com.apple.CoreML/weights"  # the weights item's path in Manifest.json (coremltools' _WEIGHTS_DIR_NAME)
DATE_KEY = "com.github.apple.coremltools.conversion_date"  # metadata that would differ from day to day
SPEC_DTYPES = {"fp16": "FLOAT16", "fp32": "FLOAT32", "int32": "INT32"}  # MIL dtype -> ArrayFeatureType name
MIN_SPEC_VERSION = 9  # iOS18 / macOS15 models (coremltools' _SPECIFICATION_VERSION_IOS_18)
_NS = uuid.UUID("6f1d4a56-1b3e-5c1e-9a57-6e7075627569")  # npubuild's namespace for package item identifiers


class CoreMLError(UserError):
    """A Core ML package that cannot be built or does not check out; the message names graph, node and what."""


# ---- coremltools, quietly ----------------------------------------------------------------------------------------------


def coremltools():
    """(ct, mb, types, mil): coremltools, its MIL Builder, MIL types and the mil module (Function, Program)."""
    with quiet():
        import coremltools as ct
        from coremltools.converters.mil import Builder as mb
        from coremltools.converters.mil import mil
        from coremltools.converters.mil.mil import types

        no_progress_bars()
    return ct, mb, types, mil


def fail(what: str, e: BaseException, captured: str = "") -> CoreMLError:
    """One line: what failed, coremltools' exception, and the last thing it logged (its progress bars dropped)."""
    said = " ".join(str(e).split()) or type(e).__name__
    tail = [ln for ln in captured.splitlines() if ln.strip() and "passes/s" not in ln and "Running MIL" not in ln][-1:]
    return CoreMLError(f"{what}: {said}" + (f" (coremltools: {tail[0].strip()})" if tail else ""))


# ---- node programs ------------------------------------------------------------------------------------------------------

# MIL dtype -> the NumPy dtype of a const's value (sub-byte ints: coremltools' np_<dtype>_dtype, see _const_value)
NP_DTYPES = {"fp16": "float16", "fp32": "float32", "int8": "int8", "uint8": "uint8", "int16": "int16",
             "uint16": "uint16", "int32": "int32", "bool": "bool"}


def _const_value(types, c):
    """A program constant (npubuild.ane.program_ops.Const) as ``mb.const`` takes it: a NumPy scalar or array
    of its MIL dtype (int4, uint1..uint6 as coremltools' sub-byte NumPy dtypes), or a str."""
    if c.dtype == "string":
        return str(c.value)
    dt = getattr(types, f"np_{c.dtype}_dtype", None) or np.dtype(NP_DTYPES[c.dtype])
    if c.shape is None:
        return np.dtype(dt).type(c.value)
    return np.asarray(c.value).astype(dt).reshape(c.shape)


def node_program(node, desc=None):
    """The coremltools Program of one program node, built from the plan.

    :func:`npubuild.ane.program_ops.node_ops` describes the node's MIL function as data — per route, the
    spelling the route's computation has in MIL (the table of routes is there: an unknown one raises,
    naming it), every parameter explicit, each op with the type it declares; programs.py renders the same
    description as ``model.mil``. It is replayed here op by op with coremltools' MIL builder (``mb.const``
    for each constant, the plan's fp16 weights and its compressed int8 blocks with their
    ``constexpr_blockwise_shift_scale``; ``getattr(mb, op)(**args)`` for each op), and coremltools' type
    inference must give every op the type model.mil declares, so the package and the text are one program."""
    from .program_ops import node_ops

    ct, mb, types, mil = coremltools()
    desc = desc or node_ops(node)
    specs = {n: mb.TensorSpec(shape=tuple(s), dtype=getattr(types, d)) for n, d, s in desc.inputs}
    with mil.Function(specs, opset_version=ct.target.iOS18) as fn:
        env = dict(fn.inputs)
        for c in desc.consts:
            env[c.name] = mb.const(val=_const_value(types, c), name=c.name)
        for step in desc.ops:
            build = getattr(mb, step.op, None) if not step.op.startswith("_") else None
            if build is None:
                raise ValueError(f"op '{step.op}' has no coremltools MIL builder")
            var = build(**{k: env[v] for k, v in step.args.items()}, name=step.result)
            got = (types.builtin_to_string(var.dtype), list(var.shape))
            if got != (step.dtype, list(step.shape)):
                raise ValueError(f"{step.op} '{step.result}' is declared tensor<{step.dtype}, {list(step.shape)}> in "
                                 f"model.mil, coremltools infers tensor<{got[0]}, {got[1]}>")
            env[step.result] = var
        y = env[desc.output]
        if (list(y.shape), types.builtin_to_string(y.dtype)) != (list(node.out.shape), node.out.dtype):
            raise ValueError(f"the program makes {list(y.shape)} {types.builtin_to_string(y.dtype)}, "
                             f"the plan says {node.out} ({node.out.shape} {node.out.dtype})")
        fn.set_outputs([y])
    prog = mil.Program()
    prog.add_function("main", fn)
    return prog


# ---- converting, saving, checking ----------------------------------------------------------------------------------------


def op_types(prog) -> list[str]:
    return [op.op_type for op in prog.functions["main"].operations if op.op_type != "const"]


def convert(prog, dest: Path, what: str, normalised: bool = True, meta=None, description: str = "",
            enumerated: dict | None = None) -> None:
    """Convert ``prog`` and save it as the package ``dest`` (written beside it, then renamed into place), with
    the metadata ``meta`` (:class:`.metadata.PackageMeta`; None: the defaults) and ``description`` as its
    model description where ``meta`` gives none (:func:`.metadata.stamp_package`);
    ``normalised=False`` leaves it as coremltools saved it (:func:`normalise` drops an empty weights directory,
    which ``ct.utils.save_multifunction`` requires of every package it reads: ``_try_get_weights_dir_path``).
    ``enumerated`` (input -> [shape, ...], the default first) gives those inputs ``ct.EnumeratedShapes``, as
    ``ct.convert(..., inputs=[ct.TensorType(name, shape=ct.EnumeratedShapes(shapes, default))])`` does; the
    program's input must have a symbol on the axes that vary (MILFrontend sets them as the function's input_types,
    the mlprogram backend writes them as the feature's ``enumeratedShapes``: backend/mil/load.py get_func_input)."""
    from .metadata import PackageMeta, stamp_package

    ct = coremltools()[0]
    tmp = dest.with_name("tmp-" + dest.name)  # ct requires the .mlpackage extension
    shutil.rmtree(tmp, ignore_errors=True)
    with quiet() as captured:
        try:
            inputs = None
            if enumerated:
                dtypes = {n: v.dtype for n, v in prog.functions["main"].inputs.items()}
                inputs = [ct.TensorType(name=n, shape=ct.EnumeratedShapes(shapes=shapes, default=shapes[0]),
                                        dtype=coremltools()[2].nptype_from_builtin(dtypes[n])) for n, shapes in enumerated.items()]
            model = ct.convert(prog, convert_to="mlprogram", minimum_deployment_target=ct.target.iOS18,
                               compute_precision=ct.precision.FLOAT16, pass_pipeline=ct.PassPipeline.EMPTY,
                               skip_model_load=True, inputs=inputs)
            user = model.user_defined_metadata  # the spec's metadata map; save() writes the spec
            if DATE_KEY in user:
                del user[DATE_KEY]
            model.save(str(tmp))
        except Exception as e:  # coremltools raises ValueError, RuntimeError, AssertionError, ...
            shutil.rmtree(tmp, ignore_errors=True)
            raise fail(f"{what}: coremltools cannot convert it", e, captured.getvalue()) from None
    try:
        stamp_package(tmp, meta or PackageMeta(), description or what)
    except ValueError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise CoreMLError(f"{what}: {e}") from None
    if normalised:
        normalise(tmp)
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)


def normalise(pkg: Path) -> None:
    """Make a saved package a function of its program alone. coremltools' output is not: ``model.mlmodel``
    is serialised with protobuf maps in hash order (it differs between processes) and Manifest.json names its
    items by random UUIDs (ModelPackage). The spec is re-serialised deterministically (sorted map keys, the same
    message), the items get identifiers derived from the spec's digest and their paths, an empty weights
    directory (no blob: a program of small constants) is dropped with its item — the layout coremltools' own
    ``save_spec`` writes without weights, and what survives a store or a bundle, which carry files only — and
    files get the modes the store writes (0644, directories 0755)."""
    from coremltools.proto import Model_pb2

    data = pkg.joinpath(*DATA)
    spec = Model_pb2.Model()
    spec.ParseFromString((data / MODEL_FILE).read_bytes())
    blob = spec.SerializeToString(deterministic=True)
    (data / MODEL_FILE).write_bytes(blob)
    digest = hashlib.sha256(blob).hexdigest()
    man_path = pkg / "Manifest.json"
    man = json.loads(man_path.read_text())
    weights = data / "weights"
    entries, ids = {}, {}
    for ident, item in sorted(man["itemInfoEntries"].items()):
        if item.get("path") == WEIGHTS_ITEM and weights.is_dir() and not any(weights.iterdir()):
            weights.rmdir()
            continue
        ids[ident] = str(uuid.uuid5(_NS, f"{digest}/{item['path']}"))
        entries[ids[ident]] = item
    man["itemInfoEntries"] = entries
    man["rootModelIdentifier"] = ids[man["rootModelIdentifier"]]
    man_path.write_text(json.dumps(man, indent=4, sort_keys=True) + "\n")  # ModelPackage's own layout
    for root, dirs, files in os.walk(pkg):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)


def _same_ops(built: list[str], saved: list[str]) -> bool:
    """The saved ops are the built ones, up to the mlprogram backend's fuse_activation_silu
    (sigmoid + mul -> silu), which even the EMPTY pipeline runs."""
    k = saved.count("silu") - built.count("silu")
    want = Counter(built)
    want.subtract({"sigmoid": k, "mul": k})
    want["silu"] += k
    return k >= 0 and +want == Counter(saved)


def check_package(pkg: Path, inputs: list, outputs: list, ops: list[str], what: str, states: list = (), meta=None,
                  enumerated: dict | None = None, seq_axes: dict | None = None) -> None:
    """Reload ``pkg`` as Core ML would read it and compare it with what was built: ``inputs``, ``outputs`` and
    ``states`` (iOS18 state inputs: the spec's ``description.state``, state-typed inputs of the MIL function)
    are [(name, shape, MIL dtype)], ``ops`` the built program's op types. ``ct.utils.load_spec`` reads it through
    ModelPackage; coremltools.converters.mil.frontend.milproto.load.load rebuilds the MIL program from the
    protobuf and the weight files (types re-inferred on the way). Its metadata must be complete — author, version,
    license, description and a description of every input, output and state, none empty — and ``meta``'s
    (:func:`.metadata.check_spec`). ``enumerated`` (a seq graph's inputs -> their shapes at every size, the default
    first): those inputs must carry exactly these ``enumeratedShapes`` with the default as their shape; ``seq_axes``
    (feature -> the axes its shape varies on with the size): a symbol there in the MIL program, and an output with
    such axes has no shape in the spec (coremltools writes none for a symbolic output)."""
    from .metadata import check_spec

    ct, _, types, _ = coremltools()
    from coremltools.converters.mil.frontend.milproto.load import load as milproto_load
    from coremltools.proto.FeatureTypes_pb2 import ArrayFeatureType

    with quiet() as captured:
        try:
            spec = ct.utils.load_spec(str(pkg))
            prog = milproto_load(spec, spec.specificationVersion, str(pkg.joinpath(*DATA, "weights")))
        except Exception as e:
            raise fail(f"{what}: the saved package does not reload (load_spec + milproto)", e, captured.getvalue()) from None
    if spec.WhichOneof("Type") != "mlProgram" or spec.specificationVersion < MIN_SPEC_VERSION:
        raise CoreMLError(f"{what}: the package is a {spec.WhichOneof('Type')} of specification version "
                          f"{spec.specificationVersion}, not an iOS18 mlProgram (version {MIN_SPEC_VERSION})")
    fn = prog.functions["main"]
    args = list(fn.inputs.values())
    for side, feats, mil_vars, want in (("input", spec.description.input, [v for v in args if not types.is_state(v.sym_type)], inputs),
                                        ("state", spec.description.state, [v for v in args if types.is_state(v.sym_type)], states),
                                        ("output", spec.description.output, list(fn.outputs), outputs)):
        arrays = [(f.name, f.type.stateType.arrayType if side == "state" else f.type.multiArrayType) for f in feats]
        have_spec = [(n, list(a.shape), ArrayFeatureType.ArrayDataType.Name(a.dataType)) for n, a in arrays]
        seq_axes = seq_axes or {}
        want_spec = [(n, [] if side == "output" and seq_axes.get(n) else list(s), SPEC_DTYPES.get(d, d)) for n, s, d in want]
        if have_spec != want_spec:
            raise CoreMLError(f"{what}: the package's {side}s are {_show(have_spec)}, the plan's {_show(want_spec)}")
        for n, a in arrays:
            have_enum = [list(e.shape) for e in a.enumeratedShapes.shapes] if a.WhichOneof("ShapeFlexibility") == "enumeratedShapes" else None
            if have_enum != (enumerated or {}).get(n):
                raise CoreMLError(f"{what}: {side} {n}'s enumerated shapes are {have_enum}, the plan's {(enumerated or {}).get(n)}")
        have_mil = [(v.name, symbolic_dims(v.shape), types.builtin_to_string(_tensor_type(types, v).get_primitive())) for v in mil_vars]
        want = [(n, ["seq" if k in seq_axes.get(n, ()) else d for k, d in enumerate(s)], d) for n, s, d in want]
        if have_mil != want:
            raise CoreMLError(f"{what}: the package's MIL program has {side}s {_show(have_mil)}, the plan's {_show(want)}")
    saved = op_types(prog)
    if not _same_ops(ops, saved):
        raise CoreMLError(f"{what}: the package holds the ops {' '.join(saved)}, built were {' '.join(ops)}")
    problems = check_spec(spec, meta, what)
    if problems:
        raise CoreMLError(problems[0])


def symbolic_dims(shape) -> list:
    """A MIL var's shape with each symbol written ``seq`` (the only symbol npubuild gives a package)."""
    from coremltools.converters.mil.mil.types.symbolic import is_symbolic

    return ["seq" if is_symbolic(d) else int(d) for d in shape]


def _tensor_type(types, v):
    """The tensor type of a MIL var (a state's is the tensor it wraps: coremltools' types.state)."""
    return v.sym_type.wrapped_type() if types.is_state(v.sym_type) else v.sym_type


def _show(tensors) -> str:
    return ", ".join(f"{n} {list(s)} {d}" for n, s, d in tensors) or "none"


def package_files(pkg: Path, rel_to: Path) -> dict:
    """The manifest's record of a package: its directory and every file in it with sha256 and size."""
    files = sorted(p for p in pkg.rglob("*") if p.is_file())
    return {"path": pkg.relative_to(rel_to).as_posix(),
            "files": [{"path": p.relative_to(rel_to).as_posix(), "sha256": sha256_file(p), "size": p.stat().st_size}
                      for p in files]}


def write_node_package(node, dest: Path, what: str, meta=None) -> None:
    """Build, convert, save and check the package of one program node; ``meta`` (:class:`.metadata.PackageMeta`)
    gives its author, version and license, its description is generated (:func:`.metadata.summary`)."""
    from .metadata import PackageMeta, summary
    from .program_ops import node_ops

    try:
        desc = node_ops(node)
    except (ValueError, KeyError) as e:  # a route (or a route's attribute) the MIL spelling does not know
        raise CoreMLError(f"{what}: npubuild has no MIL program for it ({' '.join(str(e).split())}); "
                          "npubuild.ane.program_ops.node_ops spells every route") from None
    try:
        prog = node_program(node, desc)
    except Exception as e:  # the builder's type inference refuses what Core ML would refuse
        raise fail(f"{what}: coremltools' MIL builder refuses the program", e) from None
    ops = op_types(prog)  # before convert: the backend passes rewrite the program in place
    ins = [(f"in{p}", c.shape, c.dtype) for p, c in enumerate(node.ins)]
    outs = [("y", node.out.shape, node.out.dtype)]
    meta = (meta or PackageMeta()).node()
    convert(prog, dest, what, meta=meta, description=summary(what, ops, ins, outs))
    check_package(dest, ins, outs, ops, what, meta=meta)


def relocate(rec: dict, prefix: str) -> dict:
    """A plan record's package paths (relative to the graph's directory) made relative to the artifact
    directory, as manifest_record does for the other files."""
    for holder in [*rec.get("nodes", []), rec]:
        pkg = holder.get("mlpackage") if isinstance(holder, dict) else None
        if isinstance(pkg, dict):
            pkg["path"] = f"{prefix}/{pkg['path']}"
            for f in pkg.get("files", []):
                f["path"] = f"{prefix}/{f['path']}"
    return rec
