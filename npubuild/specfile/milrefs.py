"""Which files a ``specs/graphs/*.mil`` spec names (its BLOBFILE weights), found
without parsing it: the plan key stats them on the nothing-changed path, and the
ANE build keys and depends on them. Also the MIL string-literal escapes, which
the MIL lexer (npubuild.ane.mil_tokens) shares."""
from __future__ import annotations

import re
from pathlib import Path

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "\\": "\\", "'": "'"}
# Every `path = <string literal>` outside comments, in any argument order and either literal
# spelling: a superset of the BLOBFILE paths the reader opens (a key may name too many files,
# never too few).
_COMMENT_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)
_PATH_ARG = re.compile(r'\bpath\s*=\s*(?:string|tensor\s*<\s*string\s*,\s*\[\s*\]\s*>)\s*\(\s*(?:\[\s*)*("(?:[^"\\\n]|\\.)*")', re.S)


def unescape(literal: str) -> str:
    """The value of a MIL string literal, quotes included in ``literal``."""
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), literal[1:-1], flags=re.S)


def blob_paths(text: str, base: Path) -> list[Path]:
    """The weight files MIL ``text`` may read, resolved as the reader does against ``base``."""
    code = _COMMENT_OR_STRING.sub(lambda m: m.group() if m.group().startswith('"') else " ", text)
    out = []
    for lit in _PATH_ARG.findall(code):
        raw = unescape(lit)
        if "\0" in raw:
            continue  # the reader refuses it; there is no file to name
        p = raw[len("@model_path/"):] if raw.startswith("@model_path/") else raw
        path = Path(p) if Path(p).is_absolute() else base / p
        if path not in out:
            out.append(path)
    return out
