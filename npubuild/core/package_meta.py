"""The rule for the metadata text of Core ML packages (npubuild.ane.metadata), shared by the spec loader
(a YAML graph's ``metadata:`` and ``description:``) and the configuration (``ane_author``, ...)."""
from __future__ import annotations

MAX_TEXT = 1000  # characters of any metadata value or description
DEFAULT_AUTHOR, DEFAULT_VERSION, DEFAULT_LICENSE = "npubuild user", "0", "unspecified"
META_KEYS = ("author", "version", "license", "description")  # a YAML graph's metadata: keys with one text
META_FEATURES = ("inputs", "outputs")  # and with a text per input / output name


def text_problem(value) -> str | None:
    """Why ``value`` cannot be a metadata value or a description (None when it can)."""
    if not isinstance(value, str):
        shown = repr(value)
        return f"must be a string, got {shown[:60]}{' ...' if len(shown) > 60 else ''} ({type(value).__name__}; quote it)"
    if not value.strip():
        return "must not be empty"
    if len(value) > MAX_TEXT:
        return f"is {len(value)} characters long, over the limit of {MAX_TEXT}"
    if any(ord(ch) < 32 and ch not in "\t\n" for ch in value):
        return "must not hold control characters"
    return None
