"""Per-node artifacts of an ANE plan: each program as MIL text plus its weights
in a Core ML ``weight.bin`` (version 2), and the plan's manifest record.

A node's MIL is a one-function ``program(1.3)`` / ``ios18`` program whose
inputs and output have the 4-D shapes of their currencies (``strided[n]`` ->
``[1, n, 1, 1]``, ``contig[n]`` -> ``[1, 1, 1, n]``, ``packed[t x d]`` ->
``[1, t, 1, d]``) and whose weights are ``BLOBFILE`` constants at
``@model_path/weights/weight.bin`` — what Apple's compiler takes on a Mac. The
``ane`` backend here runs the node's route from the plan record, with the
weights read back from that file.
"""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .plan_model import AnePlan, Bind, Cur, HostNode, ProgNode
from .weightbin import write_weight_bin

HEADER = 'program(1.3)\n[buildInfo = dict<string, string>({{{{"npubuild-ane-route", "{route}"}}}})]\n{{'
WEIGHT_FILE = "@model_path/weights/weight.bin"


def _t(cur: Cur) -> str:
    return f"tensor<fp16, [{', '.join(map(str, cur.shape))}]>"


def _const(name: str, arr, offset: int) -> str:
    shape = ", ".join(map(str, arr.shape))
    return (
        f"        tensor<fp16, [{shape}]> {name} = const()[name = string(\"{name}\"), val = tensor<fp16, [{shape}]>"
        f"(BLOBFILE(path = string(\"{WEIGHT_FILE}\"), offset = uint64({offset})))];"
    )


def _body(node: ProgNode, args: list[str], consts: list[str]) -> list[str]:
    """MIL statements computing ``y`` from ``args`` (the route's standard-op spelling)."""
    r, a, y = node.route, node.attrs, _t(node.out)
    bt = '        tensor<bool, []> bt = const()[name = string("bt"), val = bool(true)];'
    if r == "ew":
        op = {"min": "minimum", "max": "maximum"}.get(a["op"], a["op"])
        return [f"        {y} y = {op}(x = {args[0]}, y = {args[1]})[name = string(\"y\")];"]
    if r == "add4d":
        return [f"        {y} y = add(x = {args[0]}, y = {args[1]})[name = string(\"y\")];"]
    if r in ("lut", "relu"):
        return [f"        {y} y = {a['fn']}(x = {args[0]})[name = string(\"y\")];"]
    if r in ("softmax", "softmax_ch"):
        axis = 1 if r == "softmax_ch" else 3
        return [f"        {y} y = softmax(axis = int32({axis}), x = {args[0]})[name = string(\"y\")];"]
    if r == "repack":
        return [f"        {y} y = reshape(shape = tensor<int32, [4]>([{', '.join(map(str, node.out.shape))}]), x = {args[0]})[name = string(\"y\")];"]
    if r in ("conv_act", "conv1x1"):
        lines = [f"        {_t(node.out)} c = conv(weight = {consts[0]}, x = {args[0]})[name = string(\"c\")];"]
        act = a.get("act")
        if act == "silu":
            lines += [f"        {y} s = sigmoid(x = c)[name = string(\"s\")];", f"        {y} y = mul(x = c, y = s)[name = string(\"y\")];"]
        elif act:
            lines += [f"        {y} y = {act}(x = c)[name = string(\"y\")];"]
        else:
            lines[0] = lines[0].replace(" c = conv(", " y = conv(").replace('string("c")', 'string("y")')
        return lines
    if r == "conv_chain":
        lines, x = [], args[0]
        for k, (_, cout) in enumerate(a["shapes"]):
            res = "y" if k == len(a["shapes"]) - 1 else f"c{k}"
            lines.append(f"        tensor<fp16, [1, {cout}, 1, 1]> {res} = conv(weight = {consts[k]}, x = {x})[name = string(\"{res}\")];")
            x = res
        return lines
    if r == "matvec":
        return [bt, f"        {y} y = matmul(transpose_y = bt, x = {args[0]}, y = {consts[0]})[name = string(\"y\")];"]
    if r == "avw":
        return [bt, f"        {y} y = matmul(transpose_y = bt, x = {args[0]}, y = {args[1]})[name = string(\"y\")];"]
    if r in ("attn_v", "outer"):
        return [bt, f"        {y} y = matmul(transpose_x = bt, x = {args[0]}, y = {args[1]})[name = string(\"y\")];"]
    raise ValueError(r)


def weight_shape(node: ProgNode, name: str, arr):
    """Weights as a conv/matmul program declares them."""
    if node.route in ("conv_act", "conv1x1", "conv_chain"):
        return arr.reshape(arr.shape[0], arr.shape[1], 1, 1)
    return arr


def node_program(node: ProgNode) -> tuple[str, bytes, dict]:
    """(MIL text, weight.bin bytes, weight name -> BLOBFILE offset) of one program."""
    names = sorted(node.weights)
    arrays = [np.ascontiguousarray(weight_shape(node, n, node.weights[n]).astype(np.float16)) for n in names]
    blob, offsets = write_weight_bin(arrays) if arrays else (b"", [])
    args = [f"in{p}" for p in range(len(node.ins))]
    sig = ", ".join(f"{_t(c)} {a}" for c, a in zip(node.ins, args))
    lines = [HEADER.format(route=node.route), f"    func main<ios18>({sig}) {{"]
    lines += [_const(n, a, off) for n, a, off in zip(names, arrays, offsets)]
    lines += _body(node, args, names)
    lines += ["    } -> (y);", "}", ""]
    return "\n".join(lines), blob, dict(zip(names, offsets))


def plan_record(plan: AnePlan, program_files: dict, fills_file: dict | None) -> dict:
    """The manifest's record of an ane graph. ``program_files[i]`` holds node
    i's {"mil": file record, "weights": file record | None, "offsets": {...}};
    ``fills_file`` the graph's constants/gamma weight.bin record with offsets."""
    nodes = []
    for i, n in enumerate(plan.nodes):
        if isinstance(n, HostNode):
            rec = {"name": n.name, "route": n.route, "src": n.src.to_json(), "ext": n.ext, "n": n.n, "eps": n.eps}
            if n.gamma is not None:
                rec["gamma"] = fills_file["offsets"][f"gamma:{i}"]
            nodes.append(rec)
            continue
        nodes.append({
            "name": n.name,
            "route": n.route,
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
        "outputs": dict(plan.outputs),
        "output_shapes": dict(plan.output_shapes),
        "order": list(plan.order),
        "externals": {k: [list(p) for p in v] for k, v in sorted(plan.externals.items())},
        "ext_currencies": {k: str(v) for k, v in sorted(plan.ext_curs.items())},
        "const_fills": {k: fills_file["offsets"][f"const:{k}"] for k in sorted(plan.const_fills)},
        "fills": fills_file["file"] if fills_file else None,
        "nodes": nodes,
    }


def plan_from_record(rec: dict, read_weights) -> AnePlan:
    """Rebuild the plan the runtime executes from a manifest record.

    ``read_weights(file_record, offset, shape)`` returns fp16 values from an artifact file.
    """
    nodes = []
    for n in rec["nodes"]:
        if n["route"] == "host_rsqrt_broadcast":
            src = Bind(**n["src"])
            gamma = read_weights(rec["fills"], n["gamma"], [n["n"]]) if "gamma" in n else None
            nodes.append(HostNode(n["name"], src, n["ext"], n["n"], n["eps"], gamma))
            continue
        node = ProgNode(n["name"], n["route"], n["attrs"], [Cur.parse(c) for c in n["ins"]], Cur.parse(n["out"]))
        node.binds = [Bind(**b) for b in n["binds"]]
        node.alias = [tuple(p) for p in n["alias"]]
        node.zero = list(n["zero"])
        node.weights = {}  # read from the program's weight.bin when the runtime loads it
        node.program = {"mil": n["mil"], "weights": n.get("weights"), "offsets": n.get("offsets", {}), "shapes": n.get("shapes", {})}
        nodes.append(node)
    fills = {k: read_weights(rec["fills"], off, [Cur.parse(rec["ext_currencies"][k]).elems]) for k, off in rec["const_fills"].items()}
    inputs = [(k, v["shape"], v["dtype"]) for k, v in rec["inputs"].items()]
    externals = {k: [tuple(p) for p in v] for k, v in rec["externals"].items()}
    curs = {k: Cur.parse(v) for k, v in rec["ext_currencies"].items()}
    return AnePlan(nodes, list(rec["order"]), externals, fills, dict(rec["outputs"]), inputs, curs, dict(rec.get("output_shapes", {})))
