"""Project configuration: ``[tool.npubuild]`` in pyproject.toml, then environment.

Keys (all optional):
  specs      = "specs"                spec directory
  artifacts  = "artifacts"            build output directory (env NPUBUILD_ARTIFACTS)
  store      = "<artifacts>/.cache"   content-addressed store (env NPUBUILD_STORE)
  targets    = ["ref", "host"]        targets built for every kernel unless a spec says otherwise
  max_open_kernels = 16               runtime LRU limit of open kernels (env NPUBUILD_MAX_OPEN_KERNELS)
  xdna_device = "npu1"                NPU the xdna designs are for: npu1 (Phoenix / Hawk Point, 4 columns)
                                      or npu2 (Strix / Strix Halo / Krackan, 8 columns) (env NPUBUILD_XDNA_DEVICE)
  xdna_strict = false                 true: a missing XDNA toolchain fails the build instead of
                                      emitting aie.mlir only (env NPUBUILD_XDNA_STRICT=1)
  xrt_contexts = <by device>          NPU hardware contexts the xrt backend keeps open (npu1: 6,
                                      npu2: 16; env XRT_CONTEXT_CACHE_SIZE wins)
  ane_resident_programs = <no limit>  ANE programs the ane backend keeps loaded (env NPUBUILD_ANE_RESIDENT)
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import UserError
from .constants import TARGETS

KNOWN_KEYS = (
    "specs", "artifacts", "store", "targets", "max_open_kernels", "xdna_device", "xdna_strict", "xrt_contexts", "ane_resident_programs",
)
XDNA_DEVICES = ("npu1", "npu2")
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


@dataclass(frozen=True)
class Config:
    root: Path
    specs: Path
    artifacts: Path
    store: Path
    targets: tuple[str, ...]
    max_open_kernels: int
    xdna_device: str = "npu1"
    xdna_strict: bool = False
    xrt_contexts: int | None = None
    ane_resident_programs: int | None = None


def find_root(start: Path | None = None) -> Path:
    """The nearest directory at or above ``start`` holding pyproject.toml with [tool.npubuild], or dodo.py."""
    start = (start or Path.cwd()).resolve()
    for d in (start, *start.parents):
        if (d / "dodo.py").is_file() or (d / "pyproject.toml").is_file():
            return d
    return start


def load_config(root: Path | None = None) -> Config:
    root = (root or find_root()).resolve()
    table: dict = {}
    pp = root / "pyproject.toml"
    if pp.is_file():
        try:
            table = tomllib.loads(pp.read_text()).get("tool", {}).get("npubuild", {})
        except tomllib.TOMLDecodeError as e:
            raise UserError(f"{pp}: invalid TOML: {e}") from None
    for k in table:
        if k not in KNOWN_KEYS:
            raise UserError(f"{pp}: unknown key '{k}' in [tool.npubuild]; known keys: {', '.join(KNOWN_KEYS)}")
    specs = root / table.get("specs", "specs")
    artifacts = Path(os.environ.get("NPUBUILD_ARTIFACTS") or (root / table.get("artifacts", "artifacts")))
    if not artifacts.is_absolute():
        artifacts = root / artifacts
    store = os.environ.get("NPUBUILD_STORE") or table.get("store")
    store = (root / store) if store else artifacts / ".cache"
    targets = tuple(table.get("targets", ("ref", "host")))
    for t in targets:
        if t not in TARGETS:
            raise UserError(f"{pp}: unknown target '{t}' in [tool.npubuild] targets; known: {', '.join(TARGETS)}")
    try:
        max_open = int(os.environ.get("NPUBUILD_MAX_OPEN_KERNELS") or table.get("max_open_kernels", 16))
    except ValueError:
        raise UserError("NPUBUILD_MAX_OPEN_KERNELS must be an integer") from None
    if max_open < 1:
        raise UserError("max_open_kernels must be at least 1")
    device = os.environ.get("NPUBUILD_XDNA_DEVICE") or table.get("xdna_device", "npu1")
    if device not in XDNA_DEVICES:
        raise UserError(f"xdna_device must be one of {', '.join(XDNA_DEVICES)} (npu1: Phoenix / Hawk Point; npu2: Strix / Strix Halo / Krackan), got {device!r}")
    strict = table.get("xdna_strict", False)
    env_strict = os.environ.get("NPUBUILD_XDNA_STRICT")
    if env_strict is not None:
        if env_strict.strip().lower() not in _TRUE + _FALSE:
            raise UserError(f"NPUBUILD_XDNA_STRICT must be 1 or 0, got {env_strict!r}")
        strict = env_strict.strip().lower() in _TRUE
    if not isinstance(strict, bool):
        raise UserError(f"{pp}: xdna_strict must be true or false")
    contexts = table.get("xrt_contexts")
    if contexts is not None and (not isinstance(contexts, int) or isinstance(contexts, bool) or contexts < 1):
        raise UserError(f"{pp}: xrt_contexts must be a positive integer, got {contexts!r}")
    resident = os.environ.get("NPUBUILD_ANE_RESIDENT") or table.get("ane_resident_programs")
    if resident is not None:
        try:
            resident = int(resident)
        except (TypeError, ValueError):
            resident = 0
        if resident < 1:
            raise UserError("ane_resident_programs (NPUBUILD_ANE_RESIDENT) must be a positive integer")
    return Config(root, specs, artifacts.resolve(), Path(store).resolve(), targets, max_open, device, strict, contexts, resident)
