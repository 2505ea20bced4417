"""``npubuild ops`` and ``npubuild list``: the op catalog and the project's kernels and graphs as text or JSON."""
from __future__ import annotations

import json

from .constants import XDNA_FLOAT_NOTES
from .errors import UserError


def cmd_ops(args) -> int:
    from .build.catalog import ops_catalog

    catalog = ops_catalog(bodies=args.json or bool(args.op))
    if args.op:
        match = [o for o in catalog if o["name"] == args.op]
        if not match:
            from .ops.registry import did_you_mean

            raise UserError(f"unknown op '{args.op}'{did_you_mean(args.op, [o['name'] for o in catalog])}")
        if args.json:
            print(json.dumps(match[0], indent=1))
        else:
            from .build.catalog import describe_op

            print("\n".join(describe_op(match[0])))
        return 0
    if args.json:
        print(json.dumps({"ops": catalog}, indent=1))
        return 0
    fam_w = max(len(o["family"]) for o in catalog)
    name_w = max(len(o["name"]) for o in catalog)
    print(f"{'op':<{name_w}}  {'family':<{fam_w}}  {'host':<5}  {'xdna':<5}  inputs -> attrs")
    for o in catalog:
        attrs = ", ".join(
            a["name"] + ("" if a.get("required") else f"={json.dumps(a['default'])}") for a in o["attrs"]
        )
        ins = ", ".join(o["inputs"]) + ("..." if o["variadic"] else "")
        host = "yes" if o["targets"]["host"]["status"] == "emitted" else "-"
        xdna = "yes" if o["targets"]["xdna"]["status"] == "emitted" else "-"
        print(f"{o['name']:<{name_w}}  {o['family']:<{fam_w}}  {host:<5}  {xdna:<5}  ({ins}) {attrs}")
    print("\nfloats on xdna: " + "; ".join(f"{dt}: {note}" for dt, note in XDNA_FLOAT_NOTES.items()))
    print(f"{len(catalog)} ops; `npubuild ops OP` shows one in full, `npubuild ops --json` all.")
    return 0


def cmd_list(args) -> int:
    from .build.catalog import built_resources, xdna_summaries
    from .build.plan import build_plan
    from .config import load_config
    from .emitters.aie.summary import one_line

    plan = build_plan(load_config())
    xdna = xdna_summaries(plan)
    if args.json:
        built = built_resources(plan)
        doc = {
            "kernels": {k: dict(i.describe(), targets=list(plan.targets[k]), **({"resources": built[k]} if k in built else {}),
                                **({"xdna": xdna[k]} if k in xdna else {}))
                        for k, i in plan.instances.items()},
            "graphs": {n: [s.node for s in g.steps] for n, g in plan.spec.graphs.items()},
            "ane_graphs": {n: display for n, (_, display) in sorted(plan.ane_graphs.items())},
        }
        print(json.dumps(doc, indent=1))
        return 0
    print(f"{len(plan.instances)} kernel instances:")
    for kid, inst in plan.instances.items():
        extra = f"  xdna: {one_line(xdna[kid])}" if kid in xdna else ""
        print(f"  {kid:<48} {','.join(plan.targets[kid])}{extra}")
    print(f"{len(plan.spec.graphs)} graphs:")
    for name, g in plan.spec.graphs.items():
        print(f"  {name:<24} {len(g.steps)} steps  ({g.file})")
    if plan.ane_graphs:
        print(f"{len(plan.ane_graphs)} ane graphs (one ANE plan each; `npubuild show` lists their nodes):")
        for name, (_, display) in sorted(plan.ane_graphs.items()):
            print(f"  {name:<24} ({display})")
    return 0
