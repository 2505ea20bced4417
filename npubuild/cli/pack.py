"""``npubuild pack [DIR] -o FILE.tar.zst``: a reproducible, optionally signed bundle of an artifact directory."""
from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import UserError
from .common import Command, arg


def run(args) -> int:
    from ..artifacts.bundle import pack
    from ..core.config import load_config

    cfg = load_config()
    src = Path(args.dir) if args.dir else cfg.artifacts
    key = None if args.no_sign else (Path(args.sign) if args.sign else cfg.signing_key)
    if not Path(args.output).absolute().parent.is_dir():  # a typo in -o must not create a directory tree
        raise UserError(f"{args.output}: its directory does not exist; create it first or fix the path")
    r = pack(src, Path(args.output), signing_key=key, level=args.level, limits=cfg.limits)
    if args.json:
        print(json.dumps({"path": str(r.path), "entries": r.entries, "files": r.files, "bytes": r.size,
                          "signed_by": str(key) if r.signed_by else None}, indent=1))
        return 0
    signed = f"; signed with {key}" if r.signed_by else "; unsigned"
    print(f"pack: {r.path}: {r.entries} entries (manifest, {'signature, ' if r.signed_by else ''}{r.files} files), {r.size} bytes{signed}")
    return 0


COMMAND = Command(
    "pack",
    help="write a reproducible .tar.zst bundle of an artifact directory",
    description="Bundle manifest.json and every file it names (nothing else) into a reproducible tar (PAX) + zstd archive: "
    "two packs of the same artifacts are byte-identical. With --sign or signing_key in [tool.npubuild] the bundle "
    "carries an Ed25519 signature over the manifest.",
    run=run,
    options=(
        arg("dir", nargs="?", help="artifact directory (default: from the project config)"),
        arg("--json", action="store_true", help="{path, entries, files, bytes, signed_by} as JSON on stdout"),
        arg("-o", "--output", required=True, metavar="FILE.tar.zst", help="bundle file to write"),
        arg("--sign", metavar="KEY", help="secret key file (npubuild keygen) to sign the manifest with (default: signing_key)"),
        arg("--no-sign", action="store_true", help="do not sign, even when signing_key is set"),
        arg("--level", type=int, default=3, help="zstd level 1-19 (default 3); the same level gives the same bytes"),
    ),
)
