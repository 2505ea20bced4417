"""``npubuild unpack FILE -C DIR``: verify a bundle (its signature against trusted_keys) while extracting it."""
from __future__ import annotations

from pathlib import Path

from .common import Command, arg


def run(args) -> int:
    from ..artifacts import trust
    from ..artifacts.bundle import unpack
    from ..core.config import load_config

    cfg = load_config()
    r = unpack(
        Path(args.file),
        Path(args.directory),
        max_size=cfg.max_artifact_size,
        trusted=trust.load_trusted(cfg.trusted_keys),
        required=cfg.require_signatures or args.require_signatures,
        force=args.force,
        limits=cfg.limits,
    )
    if r.signer:
        how = f"signature verified (trusted key {r.signer})"
    elif r.signed:
        how = "signed by a key that is not in trusted_keys (signature not checked)"
    else:
        how = "unsigned"
    print(f"unpack: {args.file} -> {r.dest}: {r.files} files match the manifest; {how}")
    return 0


COMMAND = Command(
    "unpack",
    help="verify a bundle and extract it",
    description="Verify a bundle (entry names and types, sizes, sha256 against its manifest, the signature) while "
    "extracting it into a temporary directory beside DIR, then move it into place. Nothing is written outside DIR, "
    "and a refused bundle leaves DIR untouched.",
    run=run,
    options=(
        arg("file", help="bundle file (npubuild pack)"),
        arg("-C", dest="directory", required=True, metavar="DIR", help="destination directory (absent or empty unless --force)"),
        arg("--force", action="store_true", help="unpack into a non-empty DIR, replacing only the files the bundle names"),
        arg("--require-signatures", action="store_true",
            help="refuse an unsigned bundle or one signed by a key not in trusted_keys (same as require_signatures = true)"),
    ),
)
