"""The ane-only keys of a YAML graph: ``state:`` (iOS18 Core ML states the graph reads and updates).
``ctx`` is the loader's context (npubuild.specfile.load: ``err(line, message)``, ``check_name``, ``check_keys``);
``shape(node, what)`` is the loader's shape reader, passed in (this module sits below the loader)."""
from __future__ import annotations

from .model import StateDecl
from .yamlnode import Node

STATE_KEYS = ("shape", "dtype", "update")
STATE_EXAMPLE = "{k_cache: {shape: [1, 8, 1, 64], dtype: f16, update: k_next}}"


def graph_states(ctx, holder: Node, targets, what: str, shape, rejected: set) -> dict:
    """The optional ``state:`` of a graph: name -> :class:`StateDecl`. Each is an iOS18 state of the graph's Core ML
    package (``state<tensor<fp16, shape>>``): its nodes read it by name, and ``update: NODE`` writes that node's
    value back into it after the run. Names that fail go to ``rejected`` (their readers are not re-reported)."""
    node = holder.value.get("state")
    if node is None:
        return {}
    if not ctx.expect_map(node, f"state of {what}", node.line, STATE_EXAMPLE):
        return {}
    if "ane" not in targets:
        ctx.err(node.line, f"state of {what} is an iOS18 Core ML state, which only an ane graph has (targets: [ane]); "
                           "add targets: [ane] or remove state")
        return {}
    out: dict = {}
    for name, snode in node.value.items():
        line = node.key_line(name)
        swhat = f"state '{name}' of {what}"
        rejected.add(name)
        if not ctx.check_name(name, line, "state"):
            continue
        if not snode.is_map():
            ctx.err(snode.line, f"{swhat} must be a mapping such as {{shape: [1, 8, 1, 64], dtype: f16, update: NODE}}")
            continue
        ctx.check_keys(snode, STATE_KEYS, swhat)
        dnode = snode.value.get("dtype")
        if dnode is not None and dnode.value not in ("f32", "f16"):
            ctx.err(dnode.line, f"{swhat}: dtype {dnode.plain()!r}: Core ML holds a state in fp16 only (coremltools: "
                                "\"State only support fp16 dtype\"); declare f32 (the default, as the graph's inputs: "
                                "held in fp16 like every tensor of an ane graph) or f16")
            continue
        snode_shape = snode.value.get("shape")
        if snode_shape is None:
            ctx.err(line, f"{swhat} has no shape; add shape: [..]")
            continue
        dims = shape(snode_shape, f"shape of {swhat}")
        unode = snode.value.get("update")
        if unode is not None and not isinstance(unode.value, str):
            ctx.err(unode.line, f"{swhat}: update must name the node whose value is written back into the state, "
                                f"got {unode.plain()!r}")
            continue
        if dims is None:
            continue
        out[name] = StateDecl(name, dims, dnode.value if dnode is not None else "f32", line, unode.value if unode else None, unode.line if unode else line)
        rejected.discard(name)
    return out
