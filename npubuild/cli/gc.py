"""``npubuild gc``: the local store's housekeeping (stale temporary files, dangling entries, orphan blobs)
and least-recently-used eviction down to --max-size."""
from __future__ import annotations

import json
import sys

from .common import Command, arg, store_dir


def run(args) -> int:
    from ..artifacts.housekeeping import fmt_size, gc
    from ..core.config import parse_size

    store = store_dir(args)
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


COMMAND = Command(
    "gc",
    help="clean the local store and evict least recently used entries",
    description="Remove stale temporary files, dangling entries and old orphan blobs, then (with --max-size) evict the "
    "least recently used entries and the blobs no remaining entry names until the store fits.",
    run=run,
    options=(
        arg("--max-size", metavar="SIZE", help="size limit, e.g. 500M or 2G"),
        arg("--dry-run", action="store_true", help="show what would be removed; remove nothing"),
        arg("--store", metavar="DIR", help="store directory (default: the project's store)"),
        arg("--json", action="store_true", help="the report as JSON"),
    ),
)
