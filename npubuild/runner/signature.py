"""A graph's signature from the built manifest: what ``npubuild show``, ``npubuild
inputs``, ``npubuild run --example`` and ``npubuild graph`` read.

Only the manifest is read (no specs), so this works on an artifact folder a
colleague shared. Two kinds of graph records exist (docs/runtime.md):

* YAML graphs: ``inputs``/``params``/``constants`` with shape and dtype, and
  ``steps`` naming a kernel record each (op, dtype, output, targets);
* ANE graphs (``kind: ane``, from ``.mil``): ``inputs`` with shape and dtype,
  ``outputs`` naming the node that writes each, ``nodes`` (a route such as
  ``matvec`` or ``ew``, the nodes or externals they read, the currency they
  write, e.g. ``contig[128]``). A node without a ``mil`` program runs on the
  host (e.g. the rsqrt of an rms_norm) and writes an external another node reads.

The manifest's schema check does not type every field of an ANE node (the plan
is checked where the runtime parses it), so those are read defensively here:
a field of the wrong type shows as ``?`` rather than raising.
"""
from __future__ import annotations

from ..artifacts.manifest_records import graph_problems
from ..core.errors import UserError

# what an ANE graph's tensors are: fp16 throughout (an input a cast reads may be declared fp32)
ANE_DTYPE = "fp16"


def unknown_graph(name, graphs, where) -> UserError:
    from ..ops.registry import did_you_mean

    listing = ", ".join(sorted(graphs)) or "none"
    hint = did_you_mean(name, graphs) if isinstance(name, str) else ""
    return UserError(f"no graph '{name}' in {where}{hint}; graphs: {listing}")


def graph_signature(manifest: dict, name: str, where: str = "the manifest") -> dict:
    """name -> {kind, file, targets, inputs, params, constants, outputs, nodes} (see the module docstring)."""
    graphs = manifest.get("graphs", {})
    if name not in graphs:
        raise unknown_graph(name, graphs, where)
    g = graphs[name]
    if g.get("kind") == "ane":
        return _ane_signature(name, g)
    problems = graph_problems(name, g, manifest["kernels"])
    if problems:
        raise UserError(f"{where}: " + "; ".join(problems[:5]))
    return _kernel_signature(name, g, manifest["kernels"])


def _sig(t: dict) -> dict:
    return {"shape": list(t["shape"]), "dtype": t["dtype"]}


def _kernel_signature(name: str, g: dict, kernels: dict) -> dict:
    tensors = {n: _sig(t) for side in ("inputs", "params", "constants") for n, t in g[side].items()}
    nodes = []
    for s in g["steps"]:
        k = kernels[s["kernel"]]
        out = s["outputs"][0]
        tensors[out] = _sig(k["outputs"][0])
        targets = k.get("targets", {})
        nodes.append({
            "name": s.get("node") or out,
            "op": k["op"],
            "dtype": k["dtype"],
            "kernel": s["kernel"],
            "targets": sorted(targets, key=_target_order),
            # a target listed but without a binary (xdna without its toolchain): why, from the build
            "not_compiled": {t: (v.get("not_compiled") or "not compiled") for t, v in targets.items()
                             if isinstance(v, dict) and v.get("compiled") is False},
            "inputs": list(s["inputs"]),
            "outputs": [out],
        })
    return {
        "graph": name,
        "kind": "kernels",
        "file": g.get("file"),
        "targets": list(g.get("targets") or []),
        "inputs": {n: _sig(t) for n, t in g["inputs"].items()},
        "params": {n: _sig(t) for n, t in g["params"].items()},
        "constants": {n: _sig(t) for n, t in g["constants"].items()},
        "outputs": {o: tensors[o] for o in g["outputs"]},
        "tensors": tensors,
        "nodes": nodes,
    }


def _target_order(t: str) -> tuple:
    order = ("ref", "host", "xdna", "ane")
    return (order.index(t) if t in order else len(order), t)


def _ane_signature(name: str, g: dict) -> dict:
    raw = g.get("nodes") if isinstance(g.get("nodes"), list) else []
    nodes = [n if isinstance(n, dict) else {} for n in raw]
    names = [n["name"] if isinstance(n.get("name"), str) else f"node{i}" for i, n in enumerate(nodes)]
    inputs = {n: _ane_input(name, n, t) for n, t in g["inputs"].items()}
    currencies = g.get("ext_currencies") if isinstance(g.get("ext_currencies"), dict) else {}
    tensors: dict = {n: dict(s) for n, s in inputs.items()}
    out_nodes = []
    for i, n in enumerate(nodes):
        host = "mil" not in n  # no MIL program: a host step (it writes the external it is named by)
        writes = n.get("ext") if host and isinstance(n.get("ext"), str) else names[i]
        form = n.get("out") if isinstance(n.get("out"), str) else currencies.get(writes, "?")
        tensors[writes] = {"shape": [], "dtype": ANE_DTYPE, "layout": form}
        attrs = n.get("attrs") if isinstance(n.get("attrs"), dict) else {}
        route = n.get("route") if isinstance(n.get("route"), str) else "?"
        op = f"{route} {attrs['op']}" if isinstance(attrs.get("op"), str) else route
        out_nodes.append({
            "name": names[i],
            "op": op,
            "dtype": ANE_DTYPE,
            "kernel": (n["mil"].get("path") if isinstance(n.get("mil"), dict) else None),
            "targets": ["host"] if host else ["ane"],
            "not_compiled": {},
            "inputs": _ane_reads(n, names),
            "outputs": [writes],
        })
    order = g.get("order")
    if isinstance(order, list) and sorted(order, key=str) == sorted(range(len(out_nodes)), key=str):
        out_nodes = [out_nodes[i] for i in order]  # the order the programs run in
    out_shapes = g.get("output_shapes") if isinstance(g.get("output_shapes"), dict) else {}
    outputs = {}
    for o, idx in g["outputs"].items():
        src = names[idx] if isinstance(idx, int) and 0 <= idx < len(names) else None
        shape = out_shapes.get(o)
        outputs[o] = {"shape": shape if _is_shape(shape) else [], "dtype": ANE_DTYPE, "node": src}
        if src is not None:  # the output is what its node writes: that tensor has the output's shape
            tensors[src] = dict(tensors[src], shape=outputs[o]["shape"])
    return {
        "graph": name,
        "kind": "ane",
        "file": g.get("file") if isinstance(g.get("file"), str) else f"{name}.mil",  # older manifests name no file
        "targets": ["ane"],
        "inputs": inputs,
        "params": {},
        "constants": {},
        "outputs": outputs,
        "tensors": tensors,
        "nodes": out_nodes,
    }


def _is_shape(v) -> bool:
    return isinstance(v, list) and all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in v)


def _ane_input(graph: str, name: str, t: dict) -> dict:
    """An ANE graph input's signature; one UserError when the record does not give a usable one."""
    shape, dtype = t.get("shape"), t.get("dtype", ANE_DTYPE)
    import math

    from ..core.limits import Limits

    if not _is_shape(shape) or math.prod(shape) > Limits().max_elements or dtype not in ("fp16", "fp32"):
        raise UserError(
            f"graph '{graph}': the manifest's input '{name}' has shape {shape!r} and dtype {dtype!r} (want a list of "
            f"positive integers within limits.max_elements, and fp16 or fp32); rebuild with `doit build`"
        )
    return {"shape": list(shape), "dtype": dtype}


def _ane_reads(n: dict, names: list[str]) -> list[str]:
    """The tensors an ANE node reads: earlier nodes by index, externals (graph inputs, host steps' outputs) by name."""
    binds = n.get("binds") if isinstance(n.get("binds"), list) else []
    if not binds and isinstance(n.get("src"), dict):
        binds = [n["src"]]  # a host step names the external it reads as its source
    out = []
    for b in binds:
        b = b if isinstance(b, dict) else {}
        if isinstance(b.get("node"), int) and 0 <= b["node"] < len(names):
            out.append(names[b["node"]])
        elif isinstance(b.get("ext"), str):
            out.append(b["ext"])
        else:
            out.append("?")
    return out
