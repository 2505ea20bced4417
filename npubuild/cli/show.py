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
    places, seq = None, None
    if sig["kind"] == "ane":  # where each node of the shown function runs (MLComputePlan's question)
        _, m = read_manifest_of(args)
        places = sig["placement"] = placements(m["graphs"][args.graph])
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
        print("\n".join(lines + (placement_lines(places) if places is not None else [])))
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
