"""Ed25519 signatures for bundles and store entries (PyNaCl).

A key pair is two files written by ``npubuild keygen``: ``<name>.key`` (the
32-byte seed, hex, mode 0600) and ``<name>.pub`` (the 32-byte public key,
hex). A signature is ``{"key": <public key hex>, "sig": <signature hex>}``
over exact bytes (a bundle's manifest, a store entry's canonical JSON without
its signature). It is accepted when the public key is one of the project's
``trusted_keys`` and the signature verifies; with ``require_signatures`` a
missing, unknown or wrong signature is refused, without it a wrong one still
is (an unknown key or no signature is then tolerated).
"""
from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import UserError


class TrustError(UserError):
    pass


def _nacl():
    try:
        import nacl.exceptions
        import nacl.signing
    except ImportError:
        raise UserError("signing needs PyNaCl: pip install PyNaCl") from None
    return nacl


def generate_keypair(directory: Path, name: str) -> tuple[Path, Path]:
    nacl = _nacl()
    directory = Path(directory)
    if not directory.parent.is_dir():  # a typo in --dir must not create a directory tree somewhere
        raise UserError(f"{directory}: its parent directory {directory.parent} does not exist; create it first or fix the path")
    directory.mkdir(exist_ok=True)
    secret, public = directory / f"{name}.key", directory / f"{name}.pub"
    for p in (secret, public):
        if p.exists():
            raise UserError(f"{p} exists; remove it or choose another name")
    sk = nacl.signing.SigningKey.generate()
    fd = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(sk.encode().hex() + "\n")
    public.write_text(sk.verify_key.encode().hex() + "\n")
    return secret, public


def _read_hex(path: Path, what: str) -> bytes:
    try:
        data = bytes.fromhex(Path(path).read_text().strip())
    except FileNotFoundError:
        raise TrustError(f"{what} {path} not found") from None
    except (OSError, ValueError) as e:
        raise TrustError(f"{what} {path} is not a hex key file ({e})") from None
    if len(data) != 32:
        raise TrustError(f"{what} {path} must hold 32 bytes (64 hex digits), it holds {len(data)}")
    return data


def load_trusted(paths) -> dict:
    """public key hex -> key file path, for every trusted key file."""
    return {_read_hex(p, "trusted key").hex(): str(p) for p in paths}


def sign(data: bytes, secret_key: Path) -> dict:
    nacl = _nacl()
    sk = nacl.signing.SigningKey(_read_hex(secret_key, "signing key"))
    return {"key": sk.verify_key.encode().hex(), "sig": sk.sign(data).signature.hex()}


def check(data: bytes, signature: dict | None, trusted: dict, required: bool, what: str) -> str | None:
    """Verify ``signature`` over ``data``; returns the signing key file or None (unsigned, tolerated).

    Raises TrustError naming ``what`` when the signature is wrong, or when
    signatures are required and it is missing or its key is not trusted.
    """
    if not signature:
        if required:
            raise TrustError(f"{what} is not signed and signatures are required (require_signatures)")
        return None
    if not isinstance(signature, dict) or not isinstance(signature.get("key"), str) or not isinstance(signature.get("sig"), str):
        raise TrustError(f"{what}: malformed signature")
    key = signature["key"].lower()
    if key not in trusted:
        if required:
            raise TrustError(f"{what} is signed by an untrusted key {key[:16]}...; add its .pub file to trusted_keys to accept it")
        return None
    nacl = _nacl()
    try:
        nacl.signing.VerifyKey(bytes.fromhex(key)).verify(data, bytes.fromhex(signature["sig"]))
    except (ValueError, nacl.exceptions.BadSignatureError):
        raise TrustError(f"{what}: the signature does not match its content (key {trusted[key]}); it was altered or signed by someone else") from None
    return trusted[key]
