"""The build's view of the targets registry (npubuild.targets): which targets compile kernels, which
build whole graphs, and what the task creators ask of them. Nothing here names a target: a target
registered later is built the same way.

A kernel target that produces artifacts (``unit = "kernel"`` and ``needs_binary``: host, xdna) names
its source and binary files, its emitter and its toolchain driver (npubuild.targets.base); a target
whose toolchain is missing is emitted but not compiled (unless the project is strict), see
:mod:`npubuild.engine.tasks`. A graph target (``unit = "graph"``: ane) hands the compile task creator
one GraphUnit per graph.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .. import targets


class KernelUnit(NamedTuple):
    """One kernel instance on one kernel target, for one of the target's variants of it."""

    kid: str
    instance: Any
    target: Any
    label: str  # the target's name when the kernel has one variant, else "<name>.<variant>" (xdna.npu2)
    own: dict  # the variant's options (xdna: device, body)


def unit_label(target_name: str, variant: str | None, variants: int) -> str:
    return target_name if variants == 1 or variant is None else f"{target_name}.{variant}"


def target_of(label: str) -> str:
    """The target name of a unit label (``xdna.npu2`` -> ``xdna``)."""
    return label.partition(".")[0]


def kernel_targets() -> dict:
    """name -> target, for every registered target that compiles kernel instances into binaries."""
    return {t.name: t for t in targets.all_targets() if t.unit == "kernel" and t.needs_binary}


def kernel_target(name: str):
    """The kernel-compiling target called ``name``, or None (a name from a farm request or a stamp may be anything)."""
    return kernel_targets().get(name) if isinstance(name, str) else None


def graph_targets() -> list:
    """Every registered target that builds whole graphs."""
    return [t for t in targets.all_targets() if t.unit == "graph"]


def design_checks() -> dict:
    """target -> (instance, xdna device) -> why its design cannot take the instance, or None:
    the spec loader runs them so that such problems are reported at the spec's line."""
    return {name: t.design_problem for name, t in kernel_targets().items()}


def builds(target: str, op: str) -> bool:
    """True when ``target`` produces an artifact for ``op`` (ref needs none)."""
    t = kernel_target(target)
    return t is not None and t.supports(op) is None


def not_built_reason(target: str, op: str) -> str | None:
    """Why ``target`` has no artifact for ``op``; None when it has one or needs none."""
    t = targets.get(target)
    if (t is not None and not t.needs_binary) or builds(target, op):
        return None
    return "not yet emitted"


def compiled_pairs(plan):
    """A :class:`KernelUnit` for every artifact the plan builds: each kernel on each kernel target that builds
    its op, once per variant the target makes of it (``kernel_variants``: xdna, one per device). A kernel whose
    output has no element has none: there is nothing to compute (the runtime gives the empty output)."""
    compiled = kernel_targets()
    for kid, inst in plan.instances.items():
        if inst.empty:
            continue
        for name in plan.targets[kid]:
            t = compiled.get(name)
            if t is None or t.supports(inst.op) is not None:
                continue
            variants = t.kernel_variants(plan, kid)
            for variant, own in variants:
                yield KernelUnit(kid, inst, t, unit_label(name, variant, len(variants)), own)
