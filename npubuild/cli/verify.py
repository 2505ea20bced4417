"""``npubuild verify [DIR]``: re-hash every file the manifest names, as text or one JSON answer."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..core.errors import UserError
from .common import Command, arg


def run(args) -> int:
    from ..artifacts.verify import verify
    from ..core.config import load_config

    path = Path(args.dir) if args.dir else load_config().artifacts
    try:
        problems = verify(path)
    except UserError as e:
        if not args.json:
            raise
        problems = [str(e)]  # e.g. no manifest: still one JSON answer
    if problems:
        if args.json:
            print(json.dumps({"artifacts": str(path), "ok": False, "problems": problems}, indent=1))
            return 1
        for p in problems:
            print(p, file=sys.stderr)
        print(f"verify: {len(problems)} problem(s) in {path}", file=sys.stderr)
        return 1
    from ..artifacts.manifest import manifest_files, read_manifest

    n = sum(1 for _ in manifest_files(read_manifest(path)))
    if args.json:
        print(json.dumps({"artifacts": str(path), "ok": True, "files": n, "problems": []}, indent=1))
        return 0
    print(f"verify: {path}: {n} files match the manifest")
    return 0


COMMAND = Command(
    "verify",
    help="re-hash every file the manifest names",
    run=run,
    options=(
        arg("dir", nargs="?", help="artifact directory (default: from the project config)"),
        arg("--json", action="store_true", help="{artifacts, ok, files, problems} as JSON on stdout"),
    ),
)
