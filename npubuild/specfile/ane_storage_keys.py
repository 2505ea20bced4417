"""A YAML ane graph's ``compress:`` key (how its matmul weights are stored: quantized, palettized, pruned) and
``layout:`` key (where its rank-2 tensors' channels lie), checked at their lines (npubuild.ane.from_graph applies
them; docs/ane.md "Compressed weights" and "Channels-first layout").

``compress: {w1: {kind: quantize, dtype: int4, granularity: per_block, block_size: 32}, w2: {kind: palettize,
nbits: 4}, w3: {kind: prune, target_sparsity: 0.5}}``: each name a constant of the graph, each entry one of
:data:`npubuild.core.ane_options.KINDS` with that kind's keys (coremltools.optimize.coreml's config names);
``layout: channels_first``. Problems go through the loader's context (``ctx.err``, ``ctx.check_keys``)."""
from __future__ import annotations

import math

from ..core.ane_options import DEFAULTS, KINDS, LAYOUTS, NBITS, PALETTE_GRANULARITY, QUANT_DTYPES, QUANT_GRANULARITY, QUANT_MODES
from ..ops.registry import did_you_mean
from .yamlnode import Node

_CHOICES = {("quantize", "mode"): QUANT_MODES, ("quantize", "dtype"): QUANT_DTYPES,
            ("quantize", "granularity"): QUANT_GRANULARITY, ("palettize", "granularity"): PALETTE_GRANULARITY}
_EXAMPLE = "{w1: {kind: quantize, dtype: int8, granularity: per_block, block_size: 32}, w2: {kind: palettize, nbits: 4}}"


def graph_ane_options(ctx, node: Node, what: str, targets, constants: dict) -> dict:
    """``{"compress": {constant: (settings with every default filled in, line)}, "layout": (name, line)}`` from
    the graph's mapping ``node``: only what is sound (every problem is reported at its line)."""
    out: dict = {}
    lnode, cnode = node.value.get("layout"), node.value.get("compress")
    if (lnode is not None or cnode is not None) and "ane" not in targets:
        ctx.err(node.key_line("compress" if cnode is not None else "layout"), f"{what}: 'compress' and 'layout' are options of an ane graph (targets: [ane]); "
                                       "drop them or target ane")
        return out
    if lnode is not None:
        if not isinstance(lnode.value, str) or lnode.value not in LAYOUTS:
            ctx.err(lnode.line, f"{what}: layout {_show(lnode.value)} is none of {', '.join(LAYOUTS)}")
        else:
            out["layout"] = (lnode.value, lnode.line)
    if cnode is None or not ctx.expect_map(cnode, f"compress of {what}", cnode.line, _EXAMPLE):
        return out
    entries = {}
    for name, enode in cnode.value.items():
        line = cnode.key_line(name)
        if name not in constants:
            ctx.err(line, f"{what}: compress names '{name}', which is not one of its constants"
                          f"{did_you_mean(name, list(constants))}; its constants are {', '.join(constants) or 'none'}")
            continue
        settings = _entry(ctx, enode, f"{what}: compress '{name}'", line, tuple(constants[name].shape))
        if settings is not None:
            entries[name] = (settings, line)
    out["compress"] = entries
    return out


def _entry(ctx, node: Node, what: str, line: int, shape: tuple) -> dict | None:
    if not ctx.expect_map(node, what, line, "{kind: quantize, dtype: int8}"):
        return None
    kind = node.value.get("kind")
    if kind is None or not isinstance(kind.value, str) or kind.value not in KINDS:
        ctx.err(kind.line if kind else line, f"{what}: kind {'is missing' if kind is None else _show(kind.value)}; "
                                             f"it is one of {', '.join(KINDS)}")
        return None
    allowed = DEFAULTS[kind.value]
    if ctx.check_keys(node, ("kind", *allowed), f"{what} ({kind.value})") or any(k not in ("kind", *allowed) for k in node.value):
        return None
    settings, ok = {"kind": kind.value}, True
    for key, default in allowed.items():
        v = node.value.get(key)
        if v is None:
            if default is None:
                ctx.err(line, f"{what}: {kind.value} needs '{key}'")
                ok = False
            settings[key] = default
            continue
        why = _value_problem(kind.value, key, v.value)
        if why:
            ctx.err(v.line, f"{what}: {key} {why}")
            ok = False
        settings[key] = v.value
    if ok:
        why = _shape_problem(settings, shape)
        if why:
            ctx.err(line, f"{what}: {why}")
            ok = False
    return settings if ok else None


def _show(v) -> str:
    return repr(v[:40]) if isinstance(v, str) else str(v)[:40]


def _value_problem(kind: str, key: str, v) -> str | None:
    choices = _CHOICES.get((kind, key))
    if choices is not None:
        return None if isinstance(v, str) and v in choices else f"is {_show(v)}, none of {', '.join(choices)}"
    if key == "nbits":
        return None if type(v) is int and v in NBITS else f"is {_show(v)}; palettization takes {', '.join(map(str, NBITS))} bits"
    if key in ("block_size", "group_size"):
        return None if type(v) is int and 0 < v <= 1 << 20 else f"is {_show(v)}, not a positive integer (at most 2^20)"
    if key == "target_sparsity":
        ok = type(v) in (int, float) and math.isfinite(v) and 0 <= v <= 1
        return None if ok else f"is {_show(v)}, not a number from 0 to 1"
    return None


def _shape_problem(s: dict, shape: tuple) -> str | None:
    """A compressed constant is a matmul weight ``[K, N]`` (the catalog's ``a [.., K] @ b [K, N]``): blocks run
    along K (the input channels), groups of palettes along N (the output channels), as coremltools places them."""
    if len(shape) != 2:
        return f"the constant is {list(shape)}; compress takes matmul weights [K, N] (rank 2)"
    k, n = shape
    if s["kind"] == "quantize" and s["granularity"] == "per_block" and k % s["block_size"]:
        return f"block_size {s['block_size']} does not divide the {k} input channels (axis 0 of {list(shape)})"
    if s["kind"] == "palettize" and s["granularity"] == "per_grouped_channel" and n % s["group_size"]:
        return f"group_size {s['group_size']} does not divide the {n} output channels (axis 1 of {list(shape)})"
    return None


def layout_combines(ctx, node: Node, what: str, ane_options: dict, states: dict) -> bool:
    """False (and one message at the layout line) when ``layout:`` meets ``state:`` or ``seq:``: the channels-first
    rewrite holds the graph's inputs, outputs and nodes, while a state's buffer and the per-size plans of seq: are
    laid out as declared."""
    if "layout" not in ane_options or not (states or "seq" in node.value):
        return True
    ctx.err(node.key_line("layout"), f"{what}: layout: {ane_options['layout'][0]} does not combine with "
                                     f"{'state:' if states else 'seq:'}; declare the tensors as (1, C, 1, S) yourself, "
                                     "or drop layout")
    return False
