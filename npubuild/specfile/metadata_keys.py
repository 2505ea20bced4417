"""A graph's ``metadata:`` key: what the Core ML packages of an ane graph carry (npubuild.ane.metadata).

``metadata: {author, version, license, description, inputs: {name: text}, outputs: {name: text}}``, every key
optional, every text a non-empty string of at most 1000 characters (npubuild.core.package_meta.text_problem);
each problem is reported at its line through the loader's context (``ctx.err``, ``ctx.check_keys``)."""
from __future__ import annotations

from ..core.package_meta import META_FEATURES, META_KEYS, text_problem
from ..ops.registry import did_you_mean
from .yamlnode import Node


def _text(ctx, node: Node | None, what: str) -> str | None:
    """One text of a graph's metadata: a non-empty string of at most 1000 characters
    (npubuild.core.package_meta.text_problem); None when absent or refused."""
    if node is None:
        return None
    why = text_problem(node.plain())
    if why:
        ctx.err(node.line, f"{what} {why}")
        return None
    return node.value


def graph_metadata(ctx, node: Node | None, what: str) -> dict:
    """A graph's ``metadata: {author, version, license, description, inputs: {name: text}, outputs: {name: text}}``:
    what its Core ML packages carry (ane). ``inputs`` / ``outputs`` map names to texts; whether each names an input
    or output of the graph is checked by :func:`check_metadata_names`."""
    if node is None:
        return {}
    if not ctx.expect_map(node, f"metadata of {what}", node.line, '{author: "..", version: "1.0", license: "..", description: ".."}'):
        return {}
    ctx.check_keys(node, META_KEYS + META_FEATURES, f"metadata of {what}")
    out: dict = {}
    for k in META_KEYS:
        v = _text(ctx, node.value.get(k), f"{what}: metadata {k}")
        if v is not None:
            out[k] = v
    for k in META_FEATURES:
        sub = node.value.get(k)
        example = '{x: "what x is"}' if k == "inputs" else '{y: "what y is"}'
        if sub is None or not ctx.expect_map(sub, f"{what}: metadata {k}", sub.line, example):
            continue
        out[k] = {}
        for name, vnode in sub.value.items():
            v = _text(ctx, vnode, f"{what}: metadata {k} '{name}'")
            if v is not None:
                out[k][name] = (v, sub.key_line(name))
    return out


def check_metadata_names(ctx, metadata: dict, inputs: dict, outputs: list, what: str) -> dict:
    """Each name under metadata inputs / outputs must be one of the graph's inputs / outputs; returns the
    metadata as GraphSpec holds it (inputs / outputs: name -> text)."""
    for k, names in (("inputs", list(inputs)), ("outputs", list(outputs))):
        for name, (_, line) in metadata.get(k, {}).items():
            if name not in names:
                ctx.err(line, f"{what}: metadata {k} names '{name}', which is not one of its {k}"
                              f"{did_you_mean(name, names)}; its {k} are {', '.join(names) or 'none'}")
    return {k: ({n: t for n, (t, _) in v.items()} if k in META_FEATURES else v) for k, v in metadata.items()}
