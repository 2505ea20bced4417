"""A manifest's records checked against each other: each kernel's key against its op, dtype, inputs
and attrs, and each graph step against the kernel it names (op, key, tensor shapes and dtypes).

File hashes and binaries' ABIs are :mod:`npubuild.artifacts.manifest`'s; both run in ``verify``.
"""
from __future__ import annotations

import hashlib

from ..core.canonical import canonical_json
from ..core.constants import INSTANCE_VERSION



def instance_key(k: dict) -> str:
    """The key spec.instances.make_instance gives the op, dtype, inputs and attrs of a kernel record."""
    desc = {
        "v": INSTANCE_VERSION,
        "op": k["op"],
        "dtype": k["dtype"],
        "inputs": [[list(t["shape"]), t["dtype"]] for t in k["inputs"]],
        "attrs": k["attrs"],
    }
    return hashlib.sha256(canonical_json(desc).encode()).hexdigest()


def key_problem(kernel_id: str, k: dict) -> str | None:
    if k["key"] == instance_key(k):
        return None
    return (
        f"kernel {kernel_id}: its key is not the key of its op, dtype, inputs and attrs "
        "(the record was edited after the build); rebuild with `doit build`"
    )


def graph_problems(name: str, g: dict, kernels: dict) -> list[str]:
    """Steps that name missing kernels, give a kernel tensors of other shapes or dtypes, or name another
    kernel than the one they were built with (the step's op and instance key)."""
    if g.get("kind") == "ane":
        return []
    unknown: dict = {}  # the output of a step already reported: its readers are not reported again
    tensors: dict[str, dict] = {}
    problems = []
    for side in ("inputs", "params", "constants"):
        for t, sig in g[side].items():
            if t in tensors:
                problems.append(f"graph {name}: '{t}' is declared twice (inputs, params, constants)")
            tensors[t] = sig
    for i, s in enumerate(g["steps"]):
        where = f"graph {name}: step {i} ({s.get('node', '?')})"
        k = kernels.get(s["kernel"])
        if k is None:
            problems.append(f"{where} names kernel '{s['kernel']}', which is not in the manifest")
        elif len(s["inputs"]) != len(k["inputs"]):
            problems.append(f"{where} gives kernel {s['kernel']} {len(s['inputs'])} input(s); it takes {len(k['inputs'])}")
        else:
            wrong = _step_input_problems(where, s, k, tensors, unknown)
            # tensors that fit, a kernel record that is its own key's (else that is the one message), and yet
            # another kernel than the step was built with: one of the same shapes put in its place
            if not wrong and key_problem(s["kernel"], k) is None and (why := _step_kernel_problem(s, k)) is not None:
                wrong.append(f"{where} {why}; the manifest was edited after the build: rebuild with `doit build`")
            problems += wrong
        out = s["outputs"][0]
        if out in tensors:
            problems.append(f"{where} writes '{out}', which is already defined")
        tensors[out] = k["outputs"][0] if k is not None and len(s["inputs"]) == len(k["inputs"]) else unknown
    problems += [f"graph {name}: output '{o}' is not defined by the graph" for o in g["outputs"] if o not in tensors]
    return problems


def _step_kernel_problem(s: dict, k: dict) -> str | None:
    """A step names a kernel by id; the op and instance key it was built with say which kernel that was."""
    if s["op"] != k["op"]:
        return f"is a {s['op']} step but names kernel {s['kernel']}, a {k['op']} kernel"
    if s["key"] != k["key"]:
        return (f"was built with the {s['op']} kernel of key {s['key'][:12]}, but names kernel {s['kernel']}, "
                f"of key {k['key'][:12]} (another dtype, input shapes or attrs)")
    return None


def _step_input_problems(where: str, s: dict, k: dict, tensors: dict, unknown: dict) -> list[str]:
    problems = []
    for t, want in zip(s["inputs"], k["inputs"]):
        got = tensors.get(t)
        if got is None:
            problems.append(f"{where} reads '{t}', which no input, param, constant or earlier step gives")
        elif got is not unknown and (list(got["shape"]), got["dtype"]) != (list(want["shape"]), want["dtype"]):
            problems.append(
                f"{where} gives kernel {s['kernel']} input '{want['name']}' the tensor '{t}' of "
                f"{list(got['shape'])} {got['dtype']}; the kernel takes {list(want['shape'])} {want['dtype']}"
            )
    return problems


def record_problems(m: dict) -> list[str]:
    """Keys that do not match their records, and graphs whose steps do not match their kernels."""
    kernels = m.get("kernels", {})
    problems = [p for kid, k in kernels.items() if (p := key_problem(kid, k))]
    for name, g in m.get("graphs", {}).items():
        problems += graph_problems(name, g, kernels)
    return problems
