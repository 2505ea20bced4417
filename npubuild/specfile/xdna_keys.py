"""The xdna-only keys of a kernel family or graph: ``device`` (one NPU, or a list of them: one design
each) and ``xdna_body`` (where a core's compute body comes from). ``ctx`` is the loader's context
(npubuild.specfile.load: ``err(line, message)``, the spec file being read)."""
from __future__ import annotations

from ..core.constants import XDNA_BODY_SOURCES, XDNA_DEVICES
from ..core.errors import did_you_mean
from .yamlnode import Node


def _xdna_choice(ctx, holder: Node, targets, what: str, key: str, allowed, describe: str) -> str | None:
    """An optional xdna-only key of a kernel family or graph whose value is one of ``allowed``."""
    node = holder.value.get(key)
    if node is None:
        return None
    if not isinstance(node.value, str) or node.value not in allowed:
        hint = did_you_mean(str(node.value), allowed) if isinstance(node.value, str) else ""
        ctx.err(node.line, f"{key} of {what} must be {describe}, got {node.plain()!r}{hint}")
        return None
    if "xdna" not in targets:
        ctx.err(node.line, f"{key} of {what} applies to the xdna target, which is not in its targets; add xdna to targets or remove {key}")
        return None
    return node.value


def xdna_devices(ctx, holder: Node, targets, what: str) -> tuple[str, ...] | None:
    """The optional ``device:`` of a kernel family or graph: the NPU its xdna designs are for, or a list of
    them (``[npu1, npu2]``: each xdna kernel gets one design per device), in XDNA_DEVICES order."""
    node = holder.value.get("device")
    if node is None or not node.is_list():
        one = _xdna_choice(ctx, holder, targets, what, "device", XDNA_DEVICES, _DEVICE_TEXT)
        return None if one is None else (one,)
    chosen: list[str] = []
    for item in node.value:
        if not isinstance(item.value, str) or item.value not in XDNA_DEVICES:
            hint = did_you_mean(str(item.value), XDNA_DEVICES) if isinstance(item.value, str) else ""
            ctx.err(item.line, f"device of {what} must be {_DEVICE_TEXT}, got {item.plain()!r}{hint}")
            return None
        if item.value in chosen:
            ctx.err(item.line, f"device of {what} lists {item.value} twice; name each device once")
            return None
        chosen.append(item.value)
    if not chosen:
        ctx.err(node.line, f"device of {what} is an empty list; name one or more of {', '.join(XDNA_DEVICES)}, or remove device")
        return None
    if "xdna" not in targets:
        ctx.err(node.line, f"device of {what} applies to the xdna target, which is not in its targets; add xdna to targets or remove device")
        return None
    return tuple(d for d in XDNA_DEVICES if d in chosen)


_DEVICE_TEXT = "npu1 (Phoenix / Hawk Point) or npu2 (Strix / Strix Halo / Krackan), or a list of them"


def xdna_body(ctx, holder: Node, targets, what: str) -> str | None:
    """The optional ``xdna_body:`` of a kernel family (overrides the project's ``xdna_bodies``)."""
    return _xdna_choice(ctx, holder, targets, what, "xdna_body", XDNA_BODY_SOURCES,
                        f"{', '.join(XDNA_BODY_SOURCES)} (docs/xdna-kernels.md)")
