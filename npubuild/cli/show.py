"""``npubuild show GRAPH``: a graph's inputs, params, constants, outputs and nodes, from the built
manifest only (so it works on an artifact folder shared without its specs)."""
from __future__ import annotations

import json

from .common import ARTIFACTS, Command, arg, fmt_tensor, signature_of


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
    if args.json:
        print(json.dumps(sig, indent=1))
    else:
        lines = show_lines(sig)
        if len(functions) > 1:
            lines.insert(1, f"functions: {functions[0]} (default, shown), {', '.join(functions[1:])} "
                            f"(`npubuild run {args.graph} --function NAME`)")
        print("\n".join(lines))
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
    "targets. Reads the built manifest only (graphs from .mil files included).",
    run=run,
    options=(
        arg("graph"),
        arg("--json", action="store_true", help="the same as JSON"),
        ARTIFACTS,
    ),
)
