"""``npubuild ops [OP]``: the op catalog as a table, one op in full, or JSON."""
from __future__ import annotations

import json

from ..core.constants import XDNA_FLOAT_NOTES
from ..core.errors import UserError
from .common import Command, arg


def run(args) -> int:
    from ..engine.catalog import ops_catalog

    catalog = ops_catalog(bodies=args.json or bool(args.op))
    if args.op:
        match = [o for o in catalog if o["name"] == args.op]
        if not match:
            from ..ops.registry import did_you_mean

            raise UserError(f"unknown op '{args.op}'{did_you_mean(args.op, [o['name'] for o in catalog])}")
        if args.json:
            print(json.dumps(match[0], indent=1))
        else:
            from ..engine.catalog import describe_op

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
        ins += "".join(f", [{', '.join(g)}]" for g in o.get("optional_inputs", ()))
        host = "yes" if o["targets"]["host"]["status"] == "emitted" else "-"
        xdna = "yes" if o["targets"]["xdna"]["status"] == "emitted" else "-"
        print(f"{o['name']:<{name_w}}  {o['family']:<{fam_w}}  {host:<5}  {xdna:<5}  ({ins}) {attrs}")
    print("\nfloats on xdna: " + "; ".join(f"{dt}: {note}" for dt, note in XDNA_FLOAT_NOTES.items()))
    print(f"{len(catalog)} ops; `npubuild ops OP` shows one in full, `npubuild ops --json` all.")
    return 0


COMMAND = Command(
    "ops",
    help="list the op catalog",
    run=run,
    options=(
        arg("op", nargs="?", help="show one op in full"),
        arg("--json", action="store_true", help="the whole catalog as JSON (attrs, dtypes, per-target support)"),
    ),
)
