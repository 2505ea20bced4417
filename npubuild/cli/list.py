"""``npubuild list``: the project's kernel instances and graphs (with their xdna summaries) as text or JSON."""
from __future__ import annotations

import json

from .common import Command, arg


def run(args) -> int:
    from ..engine.catalog import built_state, xdna_summaries
    from ..engine.plan import build_plan
    from ..core.config import load_config
    from ..emitters.aie.summary import one_line

    plan = build_plan(load_config())
    xdna = xdna_summaries(plan)
    built = built_state(plan)
    if args.json:
        doc = {
            "kernels": {k: dict(i.describe(), targets=list(plan.targets[k]), **built.get(k, {}),
                                **({"xdna": xdna[k]} if k in xdna else {}))
                        for k, i in plan.instances.items()},
            "graphs": {n: [s.node for s in g.steps] for n, g in plan.spec.graphs.items()},
            "ane_graphs": {n: display for n, (_, display) in sorted(plan.ane_graphs.items())},
        }
        print(json.dumps(doc, indent=1))
        return 0
    print(f"{len(plan.instances)} kernel instances:")
    for kid, inst in plan.instances.items():
        extra = ""
        if kid in xdna:
            s = xdna[kid]
            extra = f"  xdna: {one_line(s)}" if "other_devices" not in s else "  xdna " + "; ".join(
                f"{d}: {one_line(x)}" for d, x in [(s.get("device"), s), *s["other_devices"].items()])
        said = built.get(kid, {})
        for t in said.get("stale", {}):
            extra += f"  [{t}: last compile failed, the previous good build is kept]"
        for t, why in said.get("unavailable", {}).items():
            extra += f"  [{t}: not built: {why.splitlines()[0][:120]}]"
        print(f"  {kid:<48} {','.join(plan.targets[kid])}{extra}")
    print(f"{len(plan.spec.graphs)} graphs:")
    for name, g in plan.spec.graphs.items():
        print(f"  {name:<24} {len(g.steps)} steps  ({g.file})")
    if plan.ane_graphs:
        print(f"{len(plan.ane_graphs)} ane graphs (one ANE plan each; `npubuild show` lists their nodes):")
        for name, (_, display) in sorted(plan.ane_graphs.items()):
            print(f"  {name:<24} ({display})")
    return 0


COMMAND = Command(
    "list",
    help="list the kernel instances and graphs of the specs",
    run=run,
    options=(arg("--json", action="store_true"),),
)
