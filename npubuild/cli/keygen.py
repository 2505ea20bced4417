"""``npubuild keygen``: an Ed25519 key pair for signing bundles and store entries, and how to use it."""
from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import UserError
from .common import Command, arg


def run(args) -> int:
    from ..artifacts import trust
    from ..core.config import find_root

    name = args.name
    if not name or "/" in name or os.sep in name or name.startswith("."):
        raise UserError(f"--name must be a plain file name without '/' or a leading '.', got {name!r}")
    secret, public = trust.generate_keypair(Path(args.dir), name)
    secret, public = secret.resolve(), public.resolve()
    root = find_root()

    def shown(p: Path) -> str:
        return os.path.relpath(p, root) if p.is_relative_to(root) else str(p)

    print(f"keygen: secret key {secret} (mode 0600: keep it private, never commit or share it)")
    print(f"keygen: public key {public}")
    print("To trust signatures made with it, add the public key to [tool.npubuild] in pyproject.toml:")
    print(f'  trusted_keys = ["{shown(public)}"]')
    print(f'To sign with it: npubuild pack --sign {shown(secret)}  (or signing_key = "{shown(secret)}" in [tool.npubuild])')
    return 0


COMMAND = Command(
    "keygen",
    help="create an Ed25519 key pair for signing bundles and store entries",
    run=run,
    options=(
        arg("--dir", default=".", help="directory for the key files (default: the current directory)"),
        arg("--name", default="npubuild", help="key name: writes NAME.key (secret) and NAME.pub (default: npubuild)"),
    ),
)
