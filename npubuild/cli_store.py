"""``npubuild gc``, ``npubuild cache stats`` and ``npubuild cache push``: the local store's housekeeping,
figures, and seeding the shared stores from it."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import UserError


def _store_dir(args) -> Path:
    if args.store:
        return Path(args.store)
    from .config import load_config

    return load_config().store


def cmd_gc(args) -> int:
    from .artifacts.housekeeping import fmt_size, gc
    from .config import parse_size

    store = _store_dir(args)
    limit = parse_size(args.max_size) if args.max_size is not None else None
    r = gc(store, limit, dry_run=args.dry_run)
    if args.json:
        print(json.dumps(r, indent=1))
        return 0
    rm = r["removed"]
    verb = "would remove" if args.dry_run else "removed"
    print(
        f"gc: {store}: {verb} {rm['entries']} least recently used entries, {rm['blobs']} blobs only they named, "
        f"{rm['dangling_entries']} dangling entries, {rm['orphan_blobs']} orphan blobs, {rm['temp_files']} stale temporary files"
    )
    after = f"{fmt_size(r['total_bytes_before'])} -> {fmt_size(r['total_bytes_after'])}"
    print(f"gc: {'would free' if args.dry_run else 'freed'} {fmt_size(r['freed_bytes'])} ({after}" + (f", limit {fmt_size(limit)})" if limit is not None else ")"))
    if r["failed"]:
        print(f"gc: {r['failed']} files could not be removed (permissions?)", file=sys.stderr)
    if r["over_limit"]:
        print(f"gc: the store is still over {fmt_size(limit)}: what is left is not evictable (temporary files younger than an hour, other files)", file=sys.stderr)
    return 0


def cmd_cache_push(args) -> int:
    from .artifacts.housekeeping import scan
    from .artifacts.stores import StoreAccess, open_stores, take_notices
    from .artifacts.stores.base import redact
    from .config import load_config

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


def cmd_cache_stats(args) -> int:
    from .artifacts.housekeeping import fmt_size, stats

    store = _store_dir(args)
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
