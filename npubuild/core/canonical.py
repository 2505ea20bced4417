"""Canonical JSON: the one text form hashed into every key."""
from __future__ import annotations

import json


def json_safe(obj):
    """Non-finite floats as the strings "inf", "-inf", "nan" (strict JSON has no such
    numbers); float attrs accept these strings back."""
    if isinstance(obj, float) and obj != obj or obj in (float("inf"), float("-inf")):
        return "nan" if obj != obj else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def canonical_json(obj) -> str:
    try:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except ValueError:  # a non-finite float somewhere: the rare, slower path
        return json.dumps(json_safe(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)
