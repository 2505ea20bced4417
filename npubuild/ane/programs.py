"""Per-node artifacts of an ANE plan: each program as MIL text plus its weights
in a Core ML ``weight.bin`` (version 2), and the plan's manifest record.

A node's MIL (:func:`.program_ops.node_ops`, rendered here) is a one-function
``program(1.3)`` / ``ios18`` program whose inputs and output have the 4-D shapes
of their currencies (``strided[n]`` -> ``[1, n, 1, 1]``, ``contig[n]`` -> ``[1,
1, 1, n]``, ``packed[t x d]`` -> ``[1, t, 1, d]``), whose weights are
``BLOBFILE`` constants at ``@model_path/weights/weight.bin`` and whose every
op declares the type coremltools infers for it. It is written in one literal
style, the ios18 short one (``fp16(0x1p-1)``, ``bool(true)``, ``string("valid")``).
The ``ane`` backend here runs the node's route from the plan record, with the
weights read back from that file (compressed ones — blockwise int, palettized,
sparse — dequantised at load as their iOS18 constexpr ops define, as Core ML does).
"""
from __future__ import annotations

from ..core.version import __version__
from ..ops.lazy_numpy import np
from .plan_model import AnePlan, Bind, CpuNode, Cur, Packed, ProgNode, RsqrtNode
from .program_ops import NodeProgram, node_ops
from .weightbin import NUMPY_DTYPES, SUB_BYTE, write_weight_bin

WEIGHT_FILE = "@model_path/weights/weight.bin"
# buildInfo says what wrote the file: npubuild (its version), which renders the text itself from the
# plan (program_ops.node_ops); coremltools does not run for it, nor does Apple's compiler (coremlc), so
# neither is named. coremltools' readers never need a key of it (milproto's load skips the attribute);
# the route is added per program. A node's Core ML package (coreml.py), which coremltools does build,
# carries coremltools' own buildInfo.
BUILD_INFO = (("npubuild-version", __version__),)


def _type(dtype: str, shape) -> str:
    return dtype if shape is None else f"tensor<{dtype}, [{', '.join(map(str, shape))}]>"


def _hex(v: float) -> str:
    """A float as a MIL hex literal with no trailing zero digits (0x1.8p+0)."""
    text = float(v).hex()
    mant, _, exp = text.partition("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}p{exp}"


def _scalar(dtype: str, v) -> str:
    if dtype == "bool":
        return f"bool({'true' if v else 'false'})"
    if dtype == "string":
        return 'string("' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '")'
    if dtype == "fp16":
        return f"fp16({_hex(float(np.float16(v)))})"
    return f"{dtype}({int(v)})"


def render(p: NodeProgram) -> tuple[str, bytes, dict]:
    """(MIL text, weight.bin bytes, blob name -> {offset, dtype, shape})."""
    blobs = [c for c in p.consts if c.blob]
    arrays = [(np.asarray(c.value).reshape(-1), c.dtype) if c.dtype in SUB_BYTE else
              np.ascontiguousarray(np.asarray(c.value).astype(np.dtype(NUMPY_DTYPES[c.dtype])))
              for c in blobs]
    data, offsets = write_weight_bin(arrays) if arrays else (b"", [])
    where = {c.name: {"offset": off, "dtype": c.dtype, "shape": list(c.shape)} for c, off in zip(blobs, offsets)}
    info = ", ".join(f'{{"{k}", "{v}"}}' for k, v in (*BUILD_INFO, ("npubuild-ane-route", p.route)))
    sig = ", ".join(f"{_type(d, s)} {n}" for n, d, s in p.inputs)
    lines = ["program(1.3)", f"[buildInfo = dict<string, string>({{{info}}})]", "{", f"    func main<ios18>({sig}) {{"]
    for c in p.consts:
        t = _type(c.dtype, c.shape)
        if c.blob:
            val = f'{t}(BLOBFILE(path = string("{WEIGHT_FILE}"), offset = uint64({where[c.name]["offset"]})))'
        elif c.shape is None:
            val = _scalar(c.dtype, c.value)
        else:
            val = f"{t}([{', '.join(str(int(v)) for v in np.asarray(c.value).reshape(-1))}])"
        lines.append(f'        {t} {c.name} = const()[name = string("{c.name}"), val = {val}];')
    for o in p.ops:
        args = ", ".join(f"{k} = {v}" for k, v in o.args.items())
        lines.append(f'        {_type(o.dtype, o.shape)} {o.result} = {o.op}({args})[name = string("{o.result}")];')
    lines += [f"    }} -> ({p.output});", "}", ""]
    return "\n".join(lines), data, where


def node_program(node: ProgNode) -> tuple[str, bytes, dict]:
    """(MIL text, weight.bin bytes, the program's record: where each blob is, how each weight is made of blobs)."""
    text, data, blobs = render(node_ops(node))
    packed = {k: _packed_record(k, pk) for k, pk in sorted(node.packed.items())}
    return text, data, {"blobs": blobs, "packed": packed, "shapes": {k: list(np.shape(v)) for k, v in sorted(node.weights.items())}}


def _packed_record(k: str, pk: Packed) -> dict:
    """Which blobs of the program's weight.bin make compressed weight ``k`` (the names program_ops gives them);
    ``data`` is always the blob in the weight's shape (int data, lut indices, sparse mask)."""
    if pk.kind == "lut":
        return {"kind": "lut", "data": f"{k}_indices", "lut": f"{k}_lut"}
    if pk.kind == "sparse":
        return {"kind": "sparse", "data": f"{k}_mask", "nonzero": f"{k}_nonzero"}
    return {"data": f"{k}_data", "scale": f"{k}_scale", "offset": f"{k}_offset" if pk.offset is not None else None}


def plan_record(plan: AnePlan, program_files: dict, fills_file: dict | None) -> dict:
    """The manifest's record of an ane graph. ``program_files[i]`` holds node
    i's {"mil": file record, "weights": file record | None, "blobs": ..., "packed": ..., "shapes": ...};
    ``fills_file`` the graph's constants/gamma weight.bin record with offsets."""
    nodes = []
    for i, n in enumerate(plan.nodes):
        placed = {"placement": n.placement, **({"reason": n.reason} if n.reason else {})}  # as MLComputePlan reports per op
        if isinstance(n, RsqrtNode):
            rec = {"name": n.name, "route": n.route, "src": n.src.to_json(), "ext": n.ext, "n": n.n, "eps": n.eps, **placed}
            if n.gamma is not None:
                rec["gamma"] = fills_file["offsets"][f"gamma:{i}"]
            nodes.append(rec)
            continue
        if isinstance(n, CpuNode):  # no program, no files: the runtime computes it (npubuild.runner.ane.cpu_execute)
            nodes.append({"name": n.name, "route": n.route, "attrs": n.attrs, "ins": [str(c) for c in n.ins], "out": str(n.out),
                          "binds": [b.to_json() for b in n.binds], "alias": [], "zero": [], **placed})
            continue
        nodes.append({
            "name": n.name,
            "route": n.route,
            **placed,
            "attrs": n.attrs,
            "ins": [str(c) for c in n.ins],
            "out": str(n.out),
            "binds": [b.to_json() for b in n.binds],
            "alias": [list(p) for p in n.alias],
            "zero": list(n.zero),
            **program_files[i],
        })
    return {
        "kind": "ane",
        "inputs": {name: {"shape": shape, "dtype": dtype} for name, shape, dtype in plan.inputs},
        "states": {name: {"shape": shape, "dtype": dtype} for name, shape, dtype in plan.states},
        "outputs": dict(plan.outputs),
        "output_shapes": dict(plan.output_shapes),
        "order": list(plan.order),
        "externals": {k: [list(p) for p in v] for k, v in sorted(plan.externals.items())},
        "ext_currencies": {k: str(v) for k, v in sorted(plan.ext_curs.items())},
        "const_fills": {k: fills_file["offsets"][f"const:{k}"] for k in sorted(plan.const_fills)},
        "fills": fills_file["file"] if fills_file else None,
        "nodes": nodes,
    }


def load_weights(prog: dict, read_blob) -> tuple[dict, dict]:
    """A program's weights from its record: (name -> fp16 values the emulation computes with,
    name -> Packed for the compressed ones). ``read_blob(offset, dtype, shape)`` reads its weight.bin;
    a compressed weight is dequantised as its iOS18 constexpr op defines it (npubuild.ane.compress.dense)."""
    from .compress import dense

    blobs = {k: read_blob(b["offset"], b["dtype"], b["shape"]) for k, b in prog.get("blobs", {}).items()}
    weights, packed = {}, {}
    for k, shape in prog.get("shapes", {}).items():
        pk = prog.get("packed", {}).get(k)
        if pk is None:
            weights[k] = np.asarray(blobs[k], dtype=np.float16).reshape(shape)
            continue
        info, kind = prog["blobs"][pk["data"]], pk.get("kind", "blockwise")
        if kind == "lut":
            packed[k] = Packed(blobs[pk["data"]], blobs[pk["lut"]], None, info["dtype"], "lut")
        elif kind == "sparse":
            packed[k] = Packed(blobs[pk["data"]], blobs[pk["nonzero"]], None, info["dtype"], "sparse")
        else:
            packed[k] = Packed(blobs[pk["data"]], blobs[pk["scale"]], blobs[pk["offset"]] if pk["offset"] else None, info["dtype"])
        weights[k] = dense(packed[k]).reshape(shape)
    return weights, packed


def plan_from_record(rec: dict, read_weights) -> AnePlan:
    """Rebuild the plan the runtime executes from a manifest record.

    ``read_weights(file_record, offset, shape)`` returns fp16 values from an artifact file.
    """
    nodes = []
    for n in rec["nodes"]:
        if n["route"] == "host_rsqrt_broadcast":
            src = Bind(**n["src"])
            gamma = read_weights(rec["fills"], n["gamma"], [n["n"]]) if "gamma" in n else None
            nodes.append(RsqrtNode(n["name"], src, n["ext"], n["n"], n["eps"], gamma))
            continue
        if n["route"] == "cpu":
            node = CpuNode(n["name"], n["attrs"], [Cur.parse(c) for c in n["ins"]], Cur.parse(n["out"]), n.get("reason") or "")
            node.binds = [Bind(**b) for b in n["binds"]]
            nodes.append(node)
            continue
        node = ProgNode(n["name"], n["route"], n["attrs"], [Cur.parse(c) for c in n["ins"]], Cur.parse(n["out"]))
        node.binds = [Bind(**b) for b in n["binds"]]
        node.alias = [tuple(p) for p in n["alias"]]
        node.zero = list(n["zero"])
        node.weights = {}  # read from the program's weight.bin when the runtime loads it
        node.program = {"mil": n["mil"], "weights": n.get("weights"), "blobs": n.get("blobs", {}),
                        "packed": n.get("packed", {}), "shapes": n.get("shapes", {})}
        nodes.append(node)
    fills = {k: read_weights(rec["fills"], off, [Cur.parse(rec["ext_currencies"][k]).elems]) for k, off in rec["const_fills"].items()}
    inputs = [(k, v["shape"], v["dtype"]) for k, v in rec["inputs"].items()]
    raw = rec.get("states")
    states = [(k, list(v["shape"]), v.get("dtype")) for k, v in raw.items()  # an edited entry: no state (an alias onto it is refused)
              if isinstance(v, dict) and isinstance(v.get("shape"), list) and all(type(d) is int and d > 0 for d in v["shape"])] \
        if isinstance(raw, dict) else []
    externals = {k: [tuple(p) for p in v] for k, v in rec["externals"].items()}
    curs = {k: Cur.parse(v) for k, v in rec["ext_currencies"].items()}
    return AnePlan(nodes, list(rec["order"]), externals, fills, dict(rec["outputs"]), inputs, curs, dict(rec.get("output_shapes", {})),
                   states)
