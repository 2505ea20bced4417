"""``npubuild show GRAPH``: a graph's inputs, params, constants, outputs and nodes, from the built
manifest only (so it works on an artifact folder shared without its specs). For an ANE graph also
where each node runs, as Core ML's MLComputePlan reports per op: ``ane`` (a per-node ANE program) or
``cpu`` (computed on the host), with the reason the plan recorded (npubuild.ane.programs.plan_record)."""
from __future__ import annotations

import json

from .common import ARTIFACTS, Command, arg, fmt_tensor, read_manifest_of, signature_of


def placements(record: dict) -> list[dict]:
    """Each node of an ANE graph's record in run order: name, op (a CPU node's MIL op, else its route),
    placement and, for a CPU node, why (read defensively: a field of the wrong type shows as ?)."""
    nodes = record.get("nodes") if isinstance(record.get("nodes"), list) else []
    order = record.get("order")
    if not (isinstance(order, list) and sorted(order, key=str) == sorted(range(len(nodes)), key=str)):
        order = range(len(nodes))
    out = []
    for i in order:
        n = nodes[i] if isinstance(nodes[i], dict) else {}
        attrs = n.get("attrs") if isinstance(n.get("attrs"), dict) else {}
        cpu = n.get("route") == "cpu"
        op = attrs.get("op") if cpu and isinstance(attrs.get("op"), str) else n.get("route")
        placement = n.get("placement") if n.get("placement") in ("ane", "cpu") else ("ane" if "mil" in n else "cpu")
        reason = n.get("reason") if isinstance(n.get("reason"), str) else None
        out.append({"name": n.get("name") if isinstance(n.get("name"), str) else f"node{i}", "op": op if isinstance(op, str) else "?",
                    "placement": placement, "reason": reason})
    return out


def placement_lines(places: list[dict]) -> list[str]:
    on = {p: sum(1 for n in places if n["placement"] == p) for p in ("ane", "cpu")}
    lines = [f"placement: {on['ane']} on ane, {on['cpu']} on cpu"]
    w = max((len(n["name"]) for n in places), default=0)
    wo = max((len(n["op"]) for n in places), default=0)
    for n in places:
        why = f"  {n['reason']}" if n["placement"] == "cpu" and n["reason"] else ""
        lines.append(f"  {n['name']:<{w}}  {n['placement']}  {n['op']:<{wo}}{why}".rstrip())
    return lines


ROW_BYTES = 64  # the ANE lays a tensor's last axis out in rows padded to 64 bytes (ml-ane-transformers; docs/ane.md)


def padding(record: dict) -> list[dict]:
    """The ANE graph's inputs, states and outputs whose last axis is not a whole number of 64-byte rows: name,
    shape, dtype, the row's bytes and what it is padded to (read defensively: odd fields are skipped)."""
    nodes = record.get("nodes") if isinstance(record.get("nodes"), list) else []
    tensors = []
    for side in ("inputs", "states"):
        for name, t in (record.get(side) or {}).items() if isinstance(record.get(side), dict) else []:
            if isinstance(t, dict):
                tensors.append((name, t.get("shape"), t.get("dtype")))
    shapes = record.get("output_shapes") if isinstance(record.get("output_shapes"), dict) else {}
    for name, node in (record.get("outputs") or {}).items() if isinstance(record.get("outputs"), dict) else []:
        out = nodes[node].get("out") if isinstance(node, int) and 0 <= node < len(nodes) and isinstance(nodes[node], dict) else None
        tensors.append((name, shapes.get(name), "fp32" if isinstance(out, str) and out.endswith(":fp32") else "fp16"))
    found = []
    for name, shape, dtype in tensors:
        if not (isinstance(shape, list) and shape and all(type(d) is int and d > 0 for d in shape)):
            continue
        row = shape[-1] * (4 if dtype == "fp32" else 2)
        if row % ROW_BYTES:
            padded = -(-row // ROW_BYTES) * ROW_BYTES
            found.append({"name": name, "shape": shape, "dtype": dtype or "fp16", "row_bytes": row, "padded_bytes": padded})
    return found


def padding_lines(found: list[dict]) -> list[str]:
    if not found:
        return [f"last axes: every input and output's last axis is a whole number of {ROW_BYTES}-byte rows"]
    lines = [f"last axes not a multiple of {ROW_BYTES} bytes (the ANE pads each row of the last axis to {ROW_BYTES} bytes; "
             "`layout: channels_first` holds [S, C] as (1, C, 1, S)):"]
    w = max(len(f["name"]) for f in found)
    for f in found:
        waste = 100 * (f["padded_bytes"] - f["row_bytes"]) // f["padded_bytes"]
        lines.append(f"  {f['name']:<{w}}  {f['dtype']} {f['shape']}: last axis {f['row_bytes']} bytes, padded to "
                     f"{f['padded_bytes']} ({waste}% of the buffer is padding)")
    return lines


def show_lines(sig: dict) -> list[str]:
    kind = "ANE graph" if sig["kind"] == "ane" else "graph"
    lines = [f"{kind} {sig['graph']}" + (f" ({sig['file']})" if sig.get("file") else "")
             + (f"; targets {', '.join(sig['targets'])}" if sig["targets"] else "")]
    for side in ("inputs", "params", "constants", "outputs"):
        tensors = sig[side]
        if not tensors and side in ("params", "constants"):
            continue
        lines.append(f"{side}:" if tensors else f"{side}: none")
        w = max(len(n) for n in tensors) if tensors else 0
        lines += [f"  {n:<{w}}  {fmt_tensor(t)}" for n, t in tensors.items()]
    lines.append(f"nodes ({len(sig['nodes'])}):")
    w = max((len(n["name"]) for n in sig["nodes"]), default=0)
    for n in sig["nodes"]:
        outs = ", ".join(f"{o} {fmt_tensor(sig['tensors'][o])}" for o in n["outputs"])
        targets = ", ".join(t + (" (not compiled)" if t in n["not_compiled"] else "") for t in n["targets"])
        kernel = f"  kernel {n['kernel']}" if n.get("kernel") else ""
        lines.append(f"  {n['name']:<{w}}  {n['op']} {n['dtype']} ({', '.join(n['inputs'])}) -> {outs}  [{targets}]{kernel}")
    return lines


def run(args) -> int:
    sig = signature_of(args)
    functions = _functions(args) if sig["kind"] == "ane" else []
    if len(functions) > 1:  # an ANE graph from a multifunction .mil: shown is its default function
        sig["functions"] = functions
    places = pads = seq = None
    if sig["kind"] == "ane":  # where each node of the shown function runs (MLComputePlan's question)
        _, m = read_manifest_of(args)
        places = sig["placement"] = placements(m["graphs"][args.graph])
        pads = sig["padding"] = padding(m["graphs"][args.graph])
        seq = m["graphs"][args.graph].get("seq")  # a YAML graph with seq: shown at its first size
        if isinstance(seq, dict):
            sig["seq"] = {"sizes": seq.get("sizes"), "inputs": seq.get("inputs")}
    if args.json:
        print(json.dumps(sig, indent=1))
    else:
        lines = show_lines(sig)
        if len(functions) > 1:
            lines.insert(1, f"functions: {functions[0]} (default, shown), {', '.join(functions[1:])} "
                            f"(`npubuild run {args.graph} --function NAME`)")
        if "seq" in sig:
            sizes, axes = sig["seq"]["sizes"] or [], sig["seq"]["inputs"] or {}
            lines.insert(1, f"seq: {sizes[0] if sizes else '?'} (default, shown), {', '.join(map(str, sizes[1:]))} "
                            f"({', '.join(f'{n} axis {a}' for n, a in axes.items())}; a run picks the size by the input's shape)")
        extra = placement_lines(places) + padding_lines(pads) if places is not None else []
        print("\n".join(lines + extra))
    return 0


def _functions(args) -> list[str]:
    """The functions of the ANE graph ``args.graph``, the default one first."""
    from ..runner.ane_graph import function_names
    from .common import read_manifest_of

    _, m = read_manifest_of(args)
    g = m.get("graphs", {}).get(args.graph)
    return function_names(g) if isinstance(g, dict) else []


COMMAND = Command(
    "show",
    help="a graph's inputs, params, constants, outputs and nodes, from the manifest",
    description="Inputs, params, constants and outputs with shape and dtype; each node with its op, kernel id and "
    "targets; for an ANE graph where each node runs (ane or cpu) and why. Reads the built manifest only (graphs from .mil files included).",
    run=run,
    options=(
        arg("graph"),
        arg("--json", action="store_true", help="the same as JSON"),
        ARTIFACTS,
    ),
)
