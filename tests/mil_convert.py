"""Shared test helpers between coremltools' MIL and npubuild's MIL text.

- :func:`program_text`: a coremltools MIL builder ``Program`` (``@mb.program``) printed as ``program(1.3)``
  text that npubuild's reader (:func:`npubuild.ane.mil.parse_mil`) takes: the main function's inputs, every
  op with its inputs (names, tuples) and result types, ``const`` ops with their values inline (no BLOBFILE),
  the outputs.
- :func:`milproto_text`: the same for a converted mlprogram spec (``ct.convert(...).get_spec()``), whose
  large weights are BLOBFILEs beside it.
- :func:`coreml_value`: coremltools' own value inference of a builder program on given inputs (each op
  re-created with the builder on constant operands, as coremltools folds constants), where every op has one.
- :func:`replay`: npubuild's parsed program re-created op by op with the builder; every declared type that
  coremltools' type inference disagrees with, and optionally the value coremltools computes.
"""
from __future__ import annotations

import numpy as np
import pytest

f16 = np.float16

_PROTO_DTYPES = {"BOOL": "bool", "STRING": "string", "FLOAT16": "fp16", "FLOAT32": "fp32", "FLOAT64": "fp64", "INT8": "int8",
                 "INT16": "int16", "INT32": "int32", "INT64": "int64", "INT4": "int4", "UINT8": "uint8", "UINT16": "uint16",
                 "UINT32": "uint32", "UINT64": "uint64", "UINT4": "uint4", "UINT2": "uint2", "UINT1": "uint1",
                 "UINT6": "uint6", "UINT3": "uint3"}


def milproto_text(spec) -> str:
    """The ``program(1.3)`` text of an mlprogram spec's main function (what Apple's compiler would
    print; coremltools prints no such text on Linux), for the ops and values these tests use."""
    from coremltools.proto import MIL_pb2

    from npubuild.ane.weightbin import SUB_BYTE, unpack_bits

    def dtype(vt):
        return _PROTO_DTYPES[MIL_pb2.DataType.Name(vt.tensorType.dataType)]

    def shape(vt):
        return [d.constant.size for d in vt.tensorType.dimensions]

    def ty(vt):
        if vt.HasField("stateType"):
            return f"state<{ty(vt.stateType.wrappedType)}>"
        return dtype(vt) if not shape(vt) else f"tensor<{dtype(vt)}, [{', '.join(map(str, shape(vt)))}]>"

    def scalar(v, dt):
        if dt == "bool":
            return "true" if v else "false"
        if dt == "string":
            v = v if isinstance(v, str) else v.decode()
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return float(v).hex() if dt.startswith("fp") else str(int(v))

    def value(v):
        dt, sh = dtype(v.type), shape(v.type)
        if v.HasField("blobFileValue"):
            b = v.blobFileValue
            return f'{ty(v.type)}(BLOBFILE(path = string("{b.fileName}"), offset = uint64({b.offset})))'
        t, n = v.immediateValue.tensor, int(np.prod(sh))
        kind = t.WhichOneof("value")
        items = list(getattr(t, kind).values)
        if kind == "bytes":
            raw = items if isinstance(items, bytes) else t.bytes.values
            items = unpack_bits(raw, dt, n) if dt in SUB_BYTE else np.frombuffer(raw, dtype=HOLD_NP[dt], count=n)
        text = [scalar(x, dt) for x in items]
        return f"{dt}({text[0]})" if not sh else f"{ty(v.type)}([{', '.join(text)}])"

    def arg(a):
        parts = [b.name if b.name else value(b.value) for b in a.arguments]
        return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"

    fn = spec.mlProgram.functions["main"]
    block = fn.block_specializations[fn.opset]
    lines = ["program(1.3)", "{", f"    func main<{fn.opset}>(" + ", ".join(f"{ty(i.type)} {i.name}" for i in fn.inputs) + ") {"]
    for op in block.operations:
        outs = ", ".join(f"{ty(o.type)} {o.name}" for o in op.outputs)
        ins = ", ".join(f"{k} = {arg(v)}" for k, v in sorted(op.inputs.items()))
        attrs = ", ".join(f"{k} = {value(v)}" for k, v in sorted(op.attributes.items()))
        lines.append(f"        {outs + ' = ' if outs else ''}{op.type}({ins})[{attrs}];")
    lines += [f"    }} -> ({', '.join(block.outputs)});", "}", ""]
    return "\n".join(lines)


HOLD_NP = {"fp16": "<f2", "fp32": "<f4", "int8": "i1", "uint8": "u1", "int16": "<i2", "uint16": "<u2", "int32": "<i4", "uint32": "<u4"}


# ---- a builder Program as program(1.3) text ------------------------------------------------------------------------

_OPSETS = {"iOS15": "ios15", "iOS16": "ios16", "iOS17": "ios17", "iOS18": "ios18"}


def _mil_dtype(builtin) -> str:
    from coremltools.converters.mil.mil import types

    s = types.builtin_to_string(builtin)
    return {"String": "string", "str": "string"}.get(s, s)


def _var_type(var) -> str:
    from coremltools.converters.mil.mil import types

    if types.is_state(var.sym_type):
        inner = var.sym_type.wrapped_type()
        return f"state<tensor<{_mil_dtype(inner.get_primitive())}, [{', '.join(map(str, inner.get_shape()))}]>>"
    dt = _mil_dtype(var.dtype)
    if not types.is_tensor(var.sym_type):
        return dt
    shape = ", ".join("?" if not isinstance(d, (int, np.integer)) else str(int(d)) for d in var.shape)
    return f"tensor<{dt}, [{shape}]>"


def _scalar_text(v, dt: str) -> str:
    if dt == "bool":
        return "true" if bool(v) else "false"
    if dt == "string":
        v = v if isinstance(v, str) else v.decode()
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if dt.startswith("fp"):
        f = float(v)
        return f.hex() if np.isfinite(f) else ("-inf" if f < 0 else "inf" if f > 0 else "nan")
    return str(int(v))


def _literal(var) -> str:
    """A const's value as an inline literal of its declared type (fp values in exact hex)."""
    from coremltools.converters.mil.mil import types

    dt, val = _mil_dtype(var.dtype), var.val
    if not types.is_tensor(var.sym_type):
        v = val.item() if isinstance(val, np.ndarray) else val
        return f"{dt}({_scalar_text(v, dt)})"
    flat = np.asarray(val).reshape(-1)
    return f"{_var_type(var)}([{', '.join(_scalar_text(x, dt) for x in flat.tolist())}])"


def program_text(prog, function: str = "main") -> str:
    """The ``program(1.3)`` text of ``prog``'s function (a coremltools ``Program`` from ``@mb.program``):
    inputs, ops in order with every input by name (a tuple input as ``(a, b)``), each op's result types as
    coremltools inferred them and its name attribute, ``const`` ops with inline values, the outputs."""
    import coremltools as ct

    fn = prog.functions[function]
    opset = _OPSETS[ct.target(fn.opset_version).name]
    sig = ", ".join(f"{_var_type(v)} {n}" for n, v in fn.inputs.items())
    lines = ["program(1.3)", "{", f"    func {function}<{opset}>({sig}) {{"]
    for op in fn.operations:
        if op.blocks:
            raise NotImplementedError(f"op {op.op_type} '{op.name}' has nested blocks")
        outs = ", ".join(f"{_var_type(o)} {o.name}" for o in op.outputs)
        if op.op_type == "const":
            out = op.outputs[0]
            lines.append(f'        {outs} = const()[name = string("{out.name}"), val = {_literal(out)}];')
            continue
        args = []
        for k, v in op.inputs.items():
            args.append(f"{k} = " + ("(" + ", ".join(x.name for x in v) + ")" if isinstance(v, (list, tuple)) else v.name))
        lines.append(f'        {outs + " = " if outs else ""}{op.op_type}({", ".join(args)})[name = string("{op.name}")];')
    lines += [f"    }} -> ({', '.join(v.name for v in fn.outputs)});", "}", ""]
    return "\n".join(lines)


def coreml_value(prog, inputs: dict, function: str = "main"):
    """coremltools' value inference of ``prog`` on ``inputs`` (name -> NumPy array): the function's ops
    re-created one by one with the builder on constant operands, so each op's ``value_inference``
    (iOS15..18 op definitions, NumPy in the op's dtype: fp16 ops compute and round in fp16) gives its
    result; a ``constexpr_*`` op through its ``materialized_val_inference``. Returns ``(outputs, None)``,
    or ``(None, op_type)`` naming the first op coremltools has no value inference for (conv, silu)."""
    from coremltools.converters.mil import Builder as mb
    from coremltools.converters.mil import mil
    from coremltools.converters.mil.mil import types

    fn = prog.functions[function]
    env = {n: np.asarray(v) for n, v in inputs.items()}
    with mil.Function({"unused%": mb.TensorSpec(shape=(1,), dtype=types.fp16)}, opset_version=fn.opset_version) as f:
        for op in fn.operations:
            if op.op_type == "const":
                env[op.outputs[0].name] = op.outputs[0].val
                continue
            if op.op_type.startswith("constexpr_"):
                env[op.outputs[0].name] = op.materialized_val_inference()
                continue
            args = {k: (tuple(env[x.name] for x in v) if isinstance(v, (list, tuple)) else env[v.name]) for k, v in op.inputs.items()}
            res = getattr(mb, op.op_type)(**args)
            res = res if isinstance(res, (list, tuple)) else [res]
            if any(r.val is None for r in res):
                f.set_outputs([f.inputs["unused%"]])
                return None, op.op_type
            for o, r in zip(op.outputs, res):
                env[o.name] = np.asarray(r.val)
        f.set_outputs([f.inputs["unused%"]])
    return [env[v.name] for v in fn.outputs], None


# ---- npubuild's parsed program re-created with the builder (type and value check) -------------------------------------

def coremltools_mil():
    ct = pytest.importorskip("coremltools", reason="the emitted programs are checked against coremltools' own MIL")
    from coremltools.converters.mil import Builder as mb
    from coremltools.converters.mil import mil
    from coremltools.converters.mil.mil import types

    return ct, mb, mil, types


def _arg(fn, v, env):
    from npubuild.ane.mil_model import Ref

    if not isinstance(v, Ref):
        return v.value
    if v.name in env:
        return env[v.name]
    c, t = np.asarray(fn.consts[v.name]), fn.const_types[v.name]
    if t.shape is None:  # a scalar constant: keep its MIL dtype (fp16 stays fp16)
        return f16(c) if t.dtype == "fp16" else c.item()
    return c


def replay(prog, values: dict | None = None):
    """Re-create ``prog``'s ops with coremltools' MIL builder. Returns every (op, coremltools' type, declared type)
    that disagree and, given input ``values``, the output as coremltools' value inference computes it (each op in
    fp16 NumPy, iOS15..18 ``value_inference``; a conv, which has none, as its definition for the 1x1 stride-1
    convs the programs hold)."""
    ct, mb, mil, types = coremltools_mil()
    fn = prog.main
    tmap = {"fp16": types.fp16, "fp32": types.fp32}
    specs = {n: mb.TensorSpec(shape=tuple(t.shape), dtype=tmap[t.dtype]) for n, t in fn.inputs}
    wrong, env = [], {}
    with mil.Function(specs, opset_version=ct.target.iOS18) as f:
        env.update(values if values is not None else f.inputs)
        for o in fn.ops:
            args = {k: _arg(fn, v, env) for k, v in o.args.items()}
            if values is not None and o.op == "conv":
                assert [args["strides"].tolist(), args["pad_type"], args["groups"]] == [[1, 1], "valid", 1]
                w = args["weight"].astype(np.float64)[:, :, 0, 0]
                env[o.result] = np.einsum("oc,bchw->bohw", w, args["x"].astype(np.float64)).astype(f16)
                continue
            var = getattr(mb, o.op)(**args, name=o.result)
            got = (types.builtin_to_string(var.dtype), list(var.shape))
            if values is None and got != (o.type.dtype, list(o.type.shape or ())):
                wrong.append((o.line, o.op, o.result, got, str(o.type)))
            env[o.result] = var if values is None else np.asarray(var.val)
        f.set_outputs([f.inputs[next(iter(f.inputs))]] if values is not None else [env[n] for n in fn.outputs])
    return wrong, (env[fn.outputs[0]] if values is not None else None)
