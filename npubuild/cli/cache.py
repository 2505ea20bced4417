"""``npubuild cache stats`` and ``npubuild cache push``: the local store's figures, and seeding the
shared stores from it."""
from __future__ import annotations

import json
import sys

from ..core.errors import UserError
from .common import Command, arg, store_dir


def run_push(args) -> int:
    from ..artifacts.housekeeping import scan
    from ..artifacts.stores import StoreAccess, open_stores, take_notices
    from ..artifacts.stores.base import redact
    from ..core.config import load_config

    cfg = load_config()
    targets = [redact(s.url) for s in cfg.stores if s.mode == "rw"]
    if not targets:
        raise UserError("cache push: no read-write store is configured; add one to [tool.npubuild] stores "
                        "(e.g. stores = [\"http://cache:8080/npubuild\"]) or NPUBUILD_STORES")
    store = open_stores(StoreAccess.from_config(cfg))
    keys = sorted(e.path.name for e in scan(cfg.store).entries) if cfg.store.is_dir() else []
    took: dict[str, int] = {}
    skipped = 0
    for key in keys:
        urls = store.push(key)
        if urls is None:
            skipped += 1  # dangling: a blob is missing (`npubuild gc` removes such entries)
            continue
        for u in urls:
            took[redact(u)] = took.get(redact(u), 0) + 1
    notices = take_notices(cfg.store)
    if args.json:
        print(json.dumps({"entries": len(keys), "skipped": skipped, "pushed": {u: took.get(u, 0) for u in targets},
                          "notices": notices}, indent=1))
    else:
        for line in notices:
            print(line, file=sys.stderr)
        for u in targets:
            print(f"cache push: {u}: {took.get(u, 0)} of {len(keys) - skipped} entries")
        if skipped:
            print(f"cache push: {skipped} incomplete local entries skipped (`npubuild gc` removes them)")
    return 0 if all(took.get(u, 0) == len(keys) - skipped for u in targets) else 1


def run_stats(args) -> int:
    from ..artifacts.housekeeping import fmt_size, stats

    store = store_dir(args)
    r = stats(store)
    if args.json:
        print(json.dumps(r, indent=1))
        return 0
    if not r["exists"]:
        print(f"store:       {store} (does not exist yet)")
        return 0
    print(f"store:       {store}")
    print(f"entries:     {r['entries']} ({fmt_size(r['entry_bytes'])}), {r['dangling_entries']} dangling (unreadable or missing a blob)")
    print(f"blobs:       {r['blobs']} ({fmt_size(r['blob_bytes'])}), {r['orphan_blobs']} orphan ({fmt_size(r['orphan_bytes'])}) named by no entry")
    print(f"temp files:  {r['temp_files']} ({fmt_size(r['temp_bytes'])}), {r['stale_temp_files']} older than an hour")
    print(f"other files: {r['other_files']} ({fmt_size(r['other_bytes'])})")
    print(f"total:       {fmt_size(r['total_bytes'])} ({r['total_bytes']} bytes)")
    print(f"oldest use:  {r['oldest_use'] or '-'}")
    print(f"newest use:  {r['newest_use'] or '-'}")
    return 0


COMMAND = Command(
    "cache",
    help="inspect the local store, or push it to the shared stores",
    subcommands=(
        Command(
            "stats",
            help="entries, blobs, sizes, oldest and newest use, orphans, temporary files",
            run=run_stats,
            options=(
                arg("--json", action="store_true"),
                arg("--store", metavar="DIR", help="store directory (default: the project's store)"),
            ),
        ),
        Command(
            "push",
            help="upload the local store's entries to the read-write shared stores (seed a team cache)",
            description="Every complete entry of the local store (with its blobs) goes to each store of [tool.npubuild] "
            "stores (or NPUBUILD_STORES) with mode rw, as a build uploads what it compiles; a store that is down is "
            "reported once and skipped.",
            run=run_push,
            options=(arg("--json", action="store_true"),),
        ),
    ),
)
