"""What `npubuild ops` and `npubuild list` show: the op catalog per target and, per planned kernel,
its measured resources and its xdna design's summary."""
from __future__ import annotations

import json
import sys

from ..core.constants import XDNA_FLOAT_NOTES
from ..core.errors import UserError

# dtypes no xdna design takes (the catalog's xdna rules say why)
XDNA_NO_DTYPES = ("i64", "f16", "bool")


def ops_catalog(bodies: bool = False) -> list[dict]:
    """Every op: its definition and, per target, whether it is emitted and how (``bodies``: per xdna
    device and dtype, which body a core gets; costs an emit per op, device and dtype)."""
    from ..emitters.aie.summary import op_bodies
    from ..ops import REGISTRY
    from ..targets import get
    from .targets import builds

    xdna = get("xdna")
    out = []
    for name in sorted(REGISTRY):
        op = REGISTRY[name]
        d = op.describe()
        refused = any(r.refuses_every_instance for r in xdna.restrictions(name))
        emitted = builds("xdna", name) and not refused
        d["targets"] = {
            "ref": {"status": "supported"},
            "host": {"status": "emitted" if builds("host", name) else "not yet emitted"},
            "xdna": {
                "status": "emitted" if emitted else "refused at spec time" if refused else "not yet emitted",
                "design": xdna_design_kind(name),
                "restrictions": [r.text for r in xdna.restrictions(name)]
                + ["every design must fit the NPU: checked per instance at spec time (core memory, DMA limits)"],
                "floats": {dt: note for dt, note in XDNA_FLOAT_NOTES.items() if dt in op.dtypes},
            },
        }
        if bodies and emitted:
            d["targets"]["xdna"]["bodies"] = op_bodies(name, [dt for dt in op.dtypes if dt not in XDNA_NO_DTYPES])
        out.append(d)
    return out


def xdna_design_kind(name: str) -> str:
    """How the xdna design streams this op (see docs/kernels.md)."""
    from ..emitters.aie import split
    if name == "matmul":
        return ("int8 and bf16 GEMM: one dispatch per shape on all cores (mm.cc, whole_array structure); int8: the "
                "blocked overlay where that cannot fit")
    from ..ops import REGISTRY

    from ..targets import get

    op = REGISTRY[name]
    if any(r.refuses_every_instance for r in get("xdna").restrictions(name)):
        return "none: every instance is refused (the restriction below says why)"
    if name == "transpose":
        return ("DMA only: tiles transposed by each mem tile's dimensionsToStream on every column, no core "
                "(2-D, f32/i32); bf16: the mem tiles cut 4x8 blocks, one core per lane shuffles each (npu1)")
    if op.family in split.FLAT_FAMILIES or name in split.FLAT_OPS:
        return "flat: elementwise chunks streamed over up to all columns"
    if name in split.LAST_AXIS_OPS or op.family in split.LAST_AXIS_FAMILIES:
        return "last axis: rows streamed, the last axis whole per row"
    if name in split.OUTER_OPS or op.family == "quant":
        return "outer: rows before the op's axis streamed (per-tensor quantisation: flat)"
    return "whole: one chunk holding the full tensors (must fit a core's 64 KiB)"


def built_state(plan) -> dict:
    """kernel id -> what the last build says of it, for the kernels whose key the specs still give:
    ``resources`` (target -> per-core stack and program memory measured), ``stale`` (target -> why the
    previous good build's binary is kept: its last compile failed) and ``unavailable`` (target -> why it
    was not built), each only when there is some."""
    from ..artifacts.manifest import MANIFEST, read_manifest

    art = plan.config.artifacts
    if not (art / MANIFEST).is_file():
        return {}
    try:
        m = read_manifest(art, plan.config.limits)
    except (UserError, OSError) as e:
        print(f"npubuild list: what the last build made is not shown: {e}", file=sys.stderr)
        return {}
    out = {}
    for kid, inst in plan.instances.items():
        k = m["kernels"].get(kid)
        if not (isinstance(k, dict) and k.get("key") == inst.key):
            continue
        targets = {t: tr for t, tr in k.get("targets", {}).items() if isinstance(tr, dict)}
        state = {"resources": {t: tr["resources"] for t, tr in targets.items() if "resources" in tr},
                 "stale": {t: tr["stale"] for t, tr in targets.items() if tr.get("stale")},
                 "unavailable": dict(k.get("unavailable") or {})}
        state = {key: v for key, v in state.items() if v}
        if state:
            out[kid] = state
    return out


def xdna_summaries(plan) -> dict:
    """kernel id -> the xdna design's summary (cores, body, dispatches, bytes per run with and without resident
    weights, the roofline model's time, bound and fraction) for kernels built for xdna; a kernel built for several
    devices has its first device's, and the others' under ``other_devices``."""
    from ..emitters.aie.summary import summary
    from ..core.errors import UnsupportedOnTarget

    from .targets import kernel_target

    out = {}
    base = None
    for kid, inst in plan.instances.items():
        if "xdna" in plan.targets[kid]:
            if base is None:  # the dialect and the kernels the installed mlir-aie has, as the build sees them
                base = kernel_target("xdna").emit_options(plan.config, plan.config.store)
            designs = {}
            for device in plan.xdna_devices(kid):  # one design per device the kernel is wanted for
                try:
                    designs[device] = summary(inst, {**base, **plan.xdna_options(kid, device)})
                except UnsupportedOnTarget as e:  # the plan refuses such kernels; say so rather than fail the listing
                    designs[device] = {"error": str(e)}
            first, *others = designs
            out[kid] = designs[first] if not others else {**designs[first], "device": first,
                                                                          "other_devices": {d: designs[d] for d in others}}
    return out


def describe_op(o: dict) -> list[str]:
    """``npubuild ops OP`` as text: the op's definition, then per target what it builds and, on xdna,
    the design and per device and dtype the body a core runs (the same record as ``--json``)."""
    from ..emitters.aie.kernel_library import left_out

    lines = [f"{o['name']} ({o['family']}): {o['doc']}",
             f"  inputs: {', '.join(o['inputs'])}{' (any number)' if o['variadic'] else ''}"
             + "".join(f"; optional: {', '.join(g)}" for g in o.get("optional_inputs", ())),
             f"  dtypes: {', '.join(o['dtypes'])}; {o['dtype_rule']}"]
    if o["attrs"]:
        lines.append("  attrs:")
        for a in o["attrs"]:
            default = "required" if a.get("required") else f"default {json.dumps(a.get('default'))}"
            lines.append(f"    {a['name']} ({a['type']}, {default}): {a.get('doc', '')}".rstrip(": "))
    t = o["targets"]
    lines.append(f"  host: {t['host']['status']}")
    x = t["xdna"]
    lines.append(f"  xdna: {x['status']}; {x['design']}")
    lines += [f"    restriction: {r}" for r in x.get("restrictions", [])]
    for dev, per in (x.get("bodies") or {}).items():
        for dt, b in per.items():
            lanes = b["lanes"]
            body = "scalar" if lanes == "scalar" else f"{b['source']} x{lanes}" if isinstance(lanes, int) else f"{b['source']} ({lanes})"
            why = f" ({b['why']})" if b.get("why") else ""
            lib = b.get("mlir_aie") or {}
            needs = "".join(f", when {k}: {v}" for k, v in (lib.get("attrs") or {}).items())
            alt = (f"; mlir-aie: {lib['kernel']} ({lib['chunk']}{needs})" if lib.get("kernel") else
                   f"; mlir-aie: none ({'; '.join(filter(None, (lib['why'], left_out(o['name'], dev))))})"
                   if lanes == "scalar" and lib.get("why") else "")
            when = b.get("auto_when", {}).get("mlir-aie kernel")
            also = f" (mlir-aie kernel when {', '.join(f'{k}: {v}' for k, v in when.items())})" if when else ""
            auto = f"; default (auto): {b['auto']}{also}" if b.get("auto") else ""
            lines.append(f"    {dev} {dt}: {body}{why}{alt}{auto}")
    return lines
