"""Limits on what input may cost: every size, depth and wait that a spec, a MIL
file, an input array, a manifest, a bundle or a store can make npubuild spend.

Each limit is checked before the memory is allocated or the wait begins, and
going past one is one message naming the limit's key. They are set in
``[tool.npubuild.limits]`` (pyproject.toml); the defaults below suit every
example and test in this repository with a wide margin, and none of them is
reached by a real NPU kernel.

``Limits()`` is the defaults: code that runs without a project (``npubuild
unpack`` into a bare directory, ``npubuild.load``) uses them.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import UserError

_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text) -> int:
    """``1G``, ``512M``, ``4096`` (bytes)."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise UserError(f"a size cannot be negative: {text!r}")
        return text
    t = str(text).strip().upper().removesuffix("B").removesuffix("I")
    unit = t[-1:] if t[-1:] in _SIZE_UNITS else ""
    try:
        n = float(t[: len(t) - len(unit)] if unit else t)
    except ValueError:
        raise UserError(f"not a size: {text!r} (use bytes or a K/M/G/T suffix, e.g. 1G)") from None
    if not n >= 0 or n == float("inf"):
        raise UserError(f"a size must be a finite, non-negative number: {text!r}")
    return int(n * _SIZE_UNITS[unit])


@dataclass(frozen=True)
class Limits:
    # specs
    max_rank: int = 8  # dimensions of one tensor
    max_elements: int = 2**31 - 1  # elements of one tensor (the kernels index with i32 offsets)
    max_name_length: int = 128  # kernel family, graph, node, tensor and constant names (ONNX names reach ~100)
    max_constant_bytes: int = 256 << 20  # one graph constant (inline or .npy)
    yaml_max_depth: int = 64  # nesting of mappings and lists in a spec file
    yaml_max_alias_nodes: int = 10000  # values that expanding YAML aliases adds to one file (a "billion laughs" stops here)
    spec_max_file_size: int = 16 << 20  # one spec file (.yaml, .mil)
    # MIL
    mil_max_depth: int = 64  # nesting of values and literals
    mil_max_literal_elements: int = 1 << 24  # elements of one inline tensor literal
    # runtime inputs and artifacts read back
    max_input_bytes: int = 4 << 30  # one .npy/.npz array given to `npubuild run` (and one member of an .npz)
    manifest_max_size: int = 64 << 20  # artifacts/manifest.json
    manifest_max_depth: int = 32  # nesting of its JSON
    # bundles
    bundle_max_entries: int = 20000  # members of one bundle
    bundle_max_total_size: int = 16 << 30  # bytes a bundle unpacks to
    bundle_max_ratio: int = 1000  # unpacked bytes per compressed byte
    bundle_max_header_size: int = 64 << 10  # one tar/PAX header record, checked before tarfile parses it
    # waits
    store_request_timeout: float = 60.0  # seconds for one whole request to a further store (not per read)
    tool_timeout: float = 600.0  # seconds for one llc / cc / Peano compile
    aiecc_timeout: float = 1800.0  # seconds for one aiecc run
    xrt_run_timeout: float = 60.0  # seconds one NPU dispatch may take before the xrt backend calls the NPU hung
    # the compile farm
    farm_log_max_size: int = 4 << 20  # bytes of a farm worker's build log kept (its tail) in build.log

    def describe(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_SIZES = {
    "max_constant_bytes", "spec_max_file_size", "max_input_bytes", "manifest_max_size",
    "bundle_max_total_size", "bundle_max_header_size", "farm_log_max_size",
}
_SECONDS = {"store_request_timeout", "tool_timeout", "aiecc_timeout", "xrt_run_timeout"}
KNOWN_LIMITS = tuple(f.name for f in fields(Limits))


def limits_from_table(table, where: str) -> Limits:
    """``[tool.npubuild.limits]`` -> Limits; one message naming the key for a bad value."""
    if table is None:
        return Limits()
    if not isinstance(table, dict):
        raise UserError(f"{where}: [tool.npubuild.limits] must be a table of limits")
    values = {}
    for key, raw in table.items():
        if key not in KNOWN_LIMITS:
            raise UserError(f"{where}: unknown limit '{key}' in [tool.npubuild.limits]; known: {', '.join(KNOWN_LIMITS)}")
        if key in _SIZES:
            try:
                value = parse_size(raw)
            except UserError as e:
                raise UserError(f"{where}: limits.{key}: {e}") from None
        elif key in _SECONDS:
            if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 0 < raw < float("inf"):
                raise UserError(f"{where}: limits.{key} must be a positive number of seconds, got {raw!r}")
            value = float(raw)
        else:
            if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
                raise UserError(f"{where}: limits.{key} must be a positive integer, got {raw!r}")
            value = raw
        values[key] = value
    return Limits(**values)


def over(what: str, value, key: str, limit) -> UserError:
    """The message for ``value`` past a limit: what, how much, the key that sets it."""
    return UserError(f"{what} is {value}, over the limit of {limit} (limits.{key} in [tool.npubuild.limits])")
