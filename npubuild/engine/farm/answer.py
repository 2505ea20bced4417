"""A farm worker's answer, checked as data from a stranger: its shape, its sizes, its log.

The answer arrives as msgpack (connect.SAFE_DESERIALIZERS): dicts, tuples,
str, bytes and numbers. Anything else in it, or a field of the wrong type, is a
malformed answer: one message naming the field, never a traceback.
"""
from __future__ import annotations

import hashlib

_HEAD = "# ... (the start of the log is left out: limits.farm_log_max_size)\n"


class Malformed(Exception):
    """The answer does not have the shape of one (the message names the field)."""


def _kind(value) -> str:
    return "None" if value is None else type(value).__name__


def kind_of(result) -> str:
    """``files``, ``error``, ``refused`` or ``raised``, once the fields it needs have their types."""
    if not isinstance(result, dict):
        raise Malformed(f"the answer is a {_kind(result)}, not a table")
    worker = result.get("worker")
    if not isinstance(worker, str) or not worker or len(worker) > 300:
        raise Malformed(f"its worker field is {_kind(worker)}, not an address")
    for kind in ("refused", "raised", "error"):
        if kind in result:
            if not isinstance(result[kind], str):
                raise Malformed(f"its {kind} field is {_kind(result[kind])}, not a message")
            if kind == "error":
                _text_fields(result)
            return kind
    if "files" not in result:
        raise Malformed("it has none of files, error, refused or raised")
    _text_fields(result)
    return "files"


def _text_fields(result: dict) -> None:
    for name in ("log", "scratch"):
        v = result.get(name)
        if v is not None and not isinstance(v, str):
            raise Malformed(f"its {name} field is {_kind(v)}, not text")


def outputs(result: dict, names, max_size: int) -> dict[str, tuple[bytes, int]]:
    """name -> (bytes, mode) for every output the target makes, each within ``max_size`` and
    matching the sha256 sent with it."""
    files = result.get("files")
    if not isinstance(files, dict):
        raise Malformed(f"its files field is {_kind(files)}, not a table of outputs")
    got = {}
    for name in names:
        f = files.get(name)
        if not isinstance(f, dict):
            raise Malformed(f"{name} is {'missing' if f is None else _kind(f)}")
        data, digest, mode = f.get("data"), f.get("sha256"), f.get("mode", 0o644)
        if not isinstance(data, bytes):
            raise Malformed(f"{name}'s data is {_kind(data)}, not bytes")
        if len(data) > max_size:
            raise Malformed(f"{name} is {len(data)} bytes, over max_artifact_size ({max_size})")
        if not isinstance(digest, str) or hashlib.sha256(data).hexdigest() != digest:
            raise Malformed(f"{name} does not match its sha256")
        if not isinstance(mode, int) or isinstance(mode, bool) or not 0 <= mode <= 0o7777:
            raise Malformed(f"{name}'s mode is {mode!r}, not a file mode")
        got[name] = (data, mode & 0o755)
    return got


def log_text(result: dict, out, limit: int) -> str:
    """The worker's log, its scratch paths rewritten to ``out``, never longer than ``limit`` bytes
    (the tail is kept). The scratch path is taken only when it looks like one: replacing a
    one-letter "path" everywhere once turned an 8 MiB log into 620 MB."""
    log = _tail(result.get("log") or "", limit)
    scratch = result.get("scratch")
    if isinstance(scratch, str) and scratch.startswith("/") and len(scratch) >= 8 and "\n" not in scratch:
        log = _tail(log.replace(scratch, str(out)), limit)
    return log


def message(result: dict, out) -> str:
    text = result["error"][:20_000]
    scratch = result.get("scratch")
    if isinstance(scratch, str) and scratch.startswith("/") and len(scratch) >= 8:
        text = text.replace(scratch, str(out))
    return text


def _tail(text: str, limit: int) -> str:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    return _HEAD + data[-limit:].decode("utf-8", "replace")
