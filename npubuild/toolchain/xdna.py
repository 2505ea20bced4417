"""The XDNA (Ryzen AI NPU) toolchain: locate aiecc, Peano (llvm-aie) and xclbinutil.

Thin on purpose: nothing heavy is imported at module load and the ``aie`` /
``llvm-aie`` Python packages are only *located* (``importlib.util.find_spec``),
never imported. Flags, env vars and install commands follow the project's
research notes on mlir-aie (``/work/shared/research/xdna.md`` §1).

* :func:`find_xdna_tools` -> one entry per tool: ``path`` (or None),
  ``version`` (or None) and ``missing`` (None, or one line saying why and how
  to install it).
* :func:`detect_aiecc_dialect` -> ``"legacy"`` (``--aie-generate-xclbin`` ...)
  or ``"new"`` (``--get-xclbin`` ...), read from ``aiecc --help``.
* :func:`xdna_fingerprint` identifies the tools (versions + sha256 of the
  binaries) and records what the installed mlir-aie accepts, probed with its
  ``aie-opt`` (:mod:`npubuild.toolchain.aie_features`); cached on disk like
  :func:`npubuild.toolchain.host.fingerprint`. :func:`xdna_problem` is the one
  line a compile refuses with when that could not be decided.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..core.canonical import canonical_json
from ..core.errors import UserError
from . import aie_features
from .fpcache import cached_fingerprint, stat_files
from .host import _first_lines, _package_version, _sha256_file

XDNA_FINGERPRINT_FILE = "xdna-toolchain.json"
_FINGERPRINT_SCHEMA = 4  # 3: aie-opt hashed, features probed instead of read from wheel dates; 4: aiecc_opt_level
TOOLS = ("aiecc", "peano", "xclbinutil")

# Install hints (xdna.md §1b "Env vars / install", from mlir-aie utils/env_setup.sh,
# utils/quick_setup.sh and README.md at MA@1e40030).
AIECC_HINT = (
    "install mlir-aie: pip install mlir_aie -f https://github.com/Xilinx/mlir-aie/releases/expanded_assets/latest-wheels-3"
    " (or set MLIR_AIE_INSTALL_DIR=$(pip show mlir_aie | Location)/mlir_aie)"
)
PEANO_HINT = (
    "install Peano: pip install llvm-aie -f https://github.com/Xilinx/llvm-aie/releases/expanded_assets/nightly"
    " (or set PEANO_INSTALL_DIR=$(pip show llvm-aie | Location)/llvm-aie)"
)
XRT_HINT = (
    "install XRT (Ubuntu 24.04, kernel >= 6.17): add-apt-repository ppa:amd-team/xrt && apt install libxrt2 "
    "libxrt-npu2 libxrt-dev libxrt-utils libxrt-utils-npu amdxdna-dkms (or set XILINX_XRT)"
)
PYXRT_HINT = (
    "pyxrt comes with XRT (PPA: /usr/lib/python3*/dist-packages, Python 3.12 only; legacy: $XILINX_XRT/python on "
    "PYTHONPATH); " + XRT_HINT.split(": ", 1)[1]
)

# Python package names, located with find_spec only. The mlir-aie wheel is the
# distribution ``mlir_aie`` whose Python package is ``aie``; the Peano wheel is
# the distribution ``llvm-aie`` installing the directory ``site-packages/llvm-aie``
# (xdna.md §1b: PEANO_INSTALL_DIR=$(pip show llvm-aie | Location)/llvm-aie; aiecc's
# discoverPeanoInstallDir falls back to site-packages/llvm-aie), a namespace "module"
# named ``llvm-aie`` as far as find_spec is concerned.
AIE_PACKAGE, AIE_DIST = "aie", "mlir_aie"
PEANO_PACKAGE, PEANO_DIST = "llvm-aie", "llvm-aie"

_HELP_TIMEOUT = 60


# ---- helpers ----------------------------------------------------------------------------------


def _executable(path: str | os.PathLike) -> str | None:
    p = os.path.abspath(path)
    return p if os.path.isfile(p) and os.access(p, os.X_OK) else None


def _package_dirs(module: str) -> list[str]:
    """Directories of a top-level package, found without importing it."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    dirs = list(spec.submodule_search_locations or [])
    if not dirs and spec.origin and spec.origin not in ("built-in", "frozen"):
        dirs = [os.path.dirname(spec.origin)]
    return [os.path.abspath(d) for d in dirs]


def _probe_version(cmds: list[list[str]]) -> str | None:
    """The version parsed from the first of ``cmds`` that succeeds, else None."""
    for cmd in cmds:
        try:
            lines = _first_lines(cmd, 8)
        except UserError:
            continue
        v = parse_version(lines)
        if v:
            return v
    return None


_VERSION_AFTER_WORD = re.compile(r"\bversion\b[:\s]+v?(\d[\w.+~-]*)", re.IGNORECASE)
_VERSION_ANY = re.compile(r"\bv?(\d+\.\d+[\w.+~-]*)")


def parse_version(lines: list[str] | str) -> str | None:
    """A version number from ``--version`` output.

    Takes the token after the word "version" (``clang version 19.0.0git (...)``,
    ``XRT Build Version: 2.19.0``, ``Version: 2.19.0``) from the first line that has
    one, else the first dotted number; None when there is none.
    """
    if isinstance(lines, str):
        lines = lines.splitlines()
    for ln in lines:
        m = _VERSION_AFTER_WORD.search(ln)
        if m:
            return m.group(1).rstrip(".,;")
    for ln in lines:
        m = _VERSION_ANY.search(ln)
        if m:
            return m.group(1).rstrip(".,;")
    return None


# ---- finding the tools ------------------------------------------------------------------------


def _find_aiecc() -> dict:
    tried = []
    candidates: list[tuple[str, str]] = []  # (directory or "", found via)
    install = os.environ.get("MLIR_AIE_INSTALL_DIR", "").strip()
    if install:
        candidates.append((os.path.join(install, "bin"), "MLIR_AIE_INSTALL_DIR"))
        tried.append(f"$MLIR_AIE_INSTALL_DIR/bin ({install}/bin)")
    candidates.append(("", "PATH"))
    tried.append("PATH")
    pkg_dirs = _package_dirs(AIE_PACKAGE)
    for pkg in pkg_dirs:
        # Where a wheel puts bin/aiecc relative to the `aie` package is not in the
        # research notes; try the parent (install tree <prefix>/{bin,python/aie}), its
        # parent, and a sibling mlir_aie/bin. Only a directory holding aiecc counts.
        parent = os.path.dirname(pkg)
        for d in (os.path.join(parent, "mlir_aie", "bin"), os.path.join(parent, "bin"), os.path.join(os.path.dirname(parent), "bin")):
            candidates.append((d, f"python package '{AIE_PACKAGE}'"))
    tried.append(f"python package '{AIE_PACKAGE}'" + ("" if pkg_dirs else " (not installed)"))
    for d, via in candidates:
        for name in ("aiecc", "aiecc.py"):
            path = shutil.which(name) if d == "" else _executable(os.path.join(d, name))
            if path:
                return {"path": os.path.abspath(path), "found_via": via, "missing": None}
    return {
        "path": None,
        "found_via": None,
        "missing": f"not found: aiecc (looked in {', '.join(tried)}); {AIECC_HINT}",
    }


def _find_peano() -> dict:
    # Peano is deliberately not on PATH (it would shadow the system clang; xdna.md §1b),
    # so PATH is not searched: $PEANO_INSTALL_DIR, then the llvm-aie wheel.
    dirs: list[tuple[str, str]] = []
    env = os.environ.get("PEANO_INSTALL_DIR", "").strip()
    if env:
        dirs.append((os.path.abspath(env), "PEANO_INSTALL_DIR"))
    pkg_dirs = _package_dirs(PEANO_PACKAGE)
    for d in pkg_dirs:
        dirs.append((d, f"python package '{PEANO_PACKAGE}'"))
    incomplete = None
    for d, via in dirs:
        bins = {n: _executable(os.path.join(d, "bin", n)) for n in ("clang++", "opt", "llc")}
        if bins["clang++"] is None:
            continue
        lacking = [n for n, p in bins.items() if p is None]
        entry = {
            "path": bins["clang++"],
            "install_dir": d,
            "opt": bins["opt"],
            "llc": bins["llc"],
            "found_via": via,
            "missing": None,
        }
        if not lacking:
            return entry
        if incomplete is None:
            entry["missing"] = f"incomplete: Peano at {d} has no bin/{', bin/'.join(lacking)}; {PEANO_HINT}"
            incomplete = entry
    if incomplete is not None:
        return incomplete
    tried = (f"$PEANO_INSTALL_DIR/bin ({env}/bin)" if env else "$PEANO_INSTALL_DIR (unset)") + f", python package '{PEANO_PACKAGE}'" + ("" if pkg_dirs else " (not installed)")
    return {
        "path": None,
        "install_dir": None,
        "opt": None,
        "llc": None,
        "found_via": None,
        "missing": f"not found: Peano clang++ (looked in {tried}); {PEANO_HINT}",
    }


def _find_xclbinutil(aiecc_path: str | None) -> dict:
    # aiecc itself looks on PATH and next to aiecc (xdna.md §1a "Silent failure"); the
    # declarative aiecc also honours AIE_XCLBINUTIL; XRT installs put it in $XILINX_XRT/bin.
    candidates: list[tuple[str | None, str]] = []
    if os.environ.get("AIE_XCLBINUTIL", "").strip():
        candidates.append((_executable(os.environ["AIE_XCLBINUTIL"].strip()), "AIE_XCLBINUTIL"))
    candidates.append((shutil.which("xclbinutil"), "PATH"))
    if aiecc_path:
        candidates.append((_executable(os.path.join(os.path.dirname(aiecc_path), "xclbinutil")), "next to aiecc"))
    xrt = os.environ.get("XILINX_XRT", "").strip()
    if xrt:
        candidates.append((_executable(os.path.join(xrt, "bin", "xclbinutil")), "XILINX_XRT"))
    for path, via in candidates:
        if path:
            return {"path": os.path.abspath(path), "found_via": via, "missing": None}
    tried = "PATH" + (", next to aiecc" if aiecc_path else "") + (f", $XILINX_XRT/bin ({xrt}/bin)" if xrt else "")
    return {
        "path": None,
        "found_via": None,
        "missing": f"not found: xclbinutil (looked in {tried}; aiecc silently skips the xclbin without it); {XRT_HINT}",
    }


def find_xdna_tools(probe_versions: bool = True) -> dict:
    """Locate aiecc, Peano and xclbinutil; never raises for a missing tool.

    Returns ``{"aiecc": {...}, "peano": {...}, "xclbinutil": {...}}``; every entry
    has ``path`` (absolute, or None), ``version`` (parsed from the tool, or None;
    not probed when ``probe_versions`` is false), ``found_via`` and ``missing``
    (None, or one line: what was searched and how to install it). ``aiecc`` also
    has ``package_version`` (the ``mlir_aie`` wheel), ``peano`` has
    ``install_dir``, ``opt``, ``llc`` and ``package_version`` (``llvm-aie``).
    When aiecc is found, its entry has ``aie_opt`` (path or None),
    ``aie_opt_found_via`` and ``aie_opt_missing`` (see
    :func:`npubuild.toolchain.aie_features.find_aie_opt`).
    """
    aiecc = _find_aiecc()
    if aiecc["path"]:
        opt = aie_features.find_aie_opt(aiecc["path"])
        aiecc.update(aie_opt=opt["path"], aie_opt_found_via=opt["found_via"], aie_opt_missing=opt["missing"])
    peano = _find_peano()
    xclbinutil = _find_xclbinutil(aiecc["path"])
    # importlib.metadata costs ~30 ms on first use (every no-op build pays it):
    # look a wheel's version up only when its package is there at all
    aiecc["package_version"] = _package_version(AIE_DIST) if _package_dirs(AIE_PACKAGE) else None
    peano["package_version"] = _package_version(PEANO_DIST) if _package_dirs(PEANO_PACKAGE) else None
    tools = {"aiecc": aiecc, "peano": peano, "xclbinutil": xclbinutil}
    for name, t in tools.items():
        t["version"] = _tool_version(name, t["path"]) if probe_versions and t["path"] else None
    return tools


def _tool_version(name: str, path: str) -> str | None:
    if name == "aiecc":
        # aiecc reports its version with --aie-version, not --version (xdna.md §1a,
        # C++ aiecc at MA@1e40030); --version is the fallback for other builds.
        return _probe_version([[path, "--aie-version"], [path, "--version"]])
    return _probe_version([[path, "--version"]])


# ---- dialects ---------------------------------------------------------------------------------


def aiecc_help(aiecc_path: str) -> str:
    """``aiecc --help`` output ("" when it cannot run)."""
    try:
        r = subprocess.run(
            [aiecc_path, "--help"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            timeout=_HELP_TIMEOUT,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return r.stdout[:1 << 20]


def detect_aiecc_dialect(aiecc_path: str, help_text: str | None = None) -> str | None:
    """``"new"`` if ``aiecc --help`` lists ``--get-xclbin`` (declarative aiecc,
    2026-07/08, mlir-aie #3271/#3501), ``"legacy"`` if it lists
    ``--aie-generate-xclbin`` (2025-03 .. mid-2026 form, #2075), None when it
    lists neither or cannot run. Some transitional builds list both; the new form
    wins then (``--no-xchesscc`` is gone from the newest one).
    """
    text = aiecc_help(aiecc_path) if help_text is None else help_text
    if re.search(r"--get-xclbin\b", text):
        return "new"
    if re.search(r"--aie-generate-xclbin\b", text):
        return "legacy"
    return None


# Peano's `opt` mid-end above O1 lets the SLP vectorizer make vector types that crash
# llvm-aie's GlobalISel (mlir-aie #2894, 8f220588, 2026-02-26, which capped the Python
# aiecc's opt at O1; the declarative aiecc caps it too). Legacy drivers with an
# `-O/--opt-level` option and no cap (Python aiecc from #2710, f718101a, 2025-11-13;
# the C++ aiecc from #2925, tools/aiecc/aiecc.cpp `optLevel("O")` with the alias
# "opt-level", default 2) run `default<O2>`; they are driven at --opt-level=1. Their
# option sets llc's level too (opt and llc share it), the price of avoiding the crash.
# Older drivers hard-code O2 and have no option: nothing can be done there.
SAFE_OPT_LEVEL = 1


def detect_opt_level(cli: str | None, help_text: str) -> int | None:
    """The ``--opt-level`` to pass aiecc, or None (newest driver caps itself; oldest has no option)."""
    if cli == "legacy" and re.search(r"--opt-level\b", help_text):
        return SAFE_OPT_LEVEL
    return None


def _features(tools: dict) -> dict:
    """What the installed mlir-aie accepts (probed with its aie-opt); empty without aiecc."""
    a = tools["aiecc"]
    if not a.get("path"):
        return {}
    return aie_features.probe_features({"path": a.get("aie_opt"), "missing": a.get("aie_opt_missing")})


def xdna_problem(fp: dict) -> str | None:
    """The one line an xdna compile refuses with, or None.

    Only a complete toolchain (aiecc, Peano, xclbinutil) is checked: with a tool
    missing the kernels are emitted, not compiled, and that is said elsewhere.
    """
    if fp.get("missing"):
        return None
    return (fp.get("features") or {}).get("problem")


def pyxrt_status() -> dict:
    """Whether ``pyxrt`` is importable (find_spec only; never imported)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("pyxrt")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return {"path": None, "missing": f"not importable: pyxrt; {PYXRT_HINT}"}
    return {"path": spec.origin, "missing": None}


# ---- fingerprint ------------------------------------------------------------------------------


def _hashed_files(tools: dict) -> dict[str, str]:
    files = {
        "aiecc": tools["aiecc"].get("path"),
        "peano_clang++": tools["peano"].get("path"),
        "peano_opt": tools["peano"].get("opt"),
        "peano_llc": tools["peano"].get("llc"),
        "xclbinutil": tools["xclbinutil"].get("path"),
        "aie_opt": tools["aiecc"].get("aie_opt"),
    }
    return {k: v for k, v in files.items() if v}


def _stat_key(tools: dict) -> dict:
    return {
        "schema": _FINGERPRINT_SCHEMA,
        "files": stat_files(_hashed_files(tools)),
        "packages": {AIE_DIST: tools["aiecc"].get("package_version"), PEANO_DIST: tools["peano"].get("package_version")},
    }


def _compute_fingerprint(tools: dict) -> dict:
    versions = {}
    for name in TOOLS:
        t = tools[name]
        v = t.get("version")
        if v is None and t.get("path"):
            v = _tool_version(name, t["path"])
        versions[name] = v
    fp = {
        "paths": _hashed_files(tools),
        "versions": versions,
        "packages": {AIE_DIST: tools["aiecc"].get("package_version"), PEANO_DIST: tools["peano"].get("package_version")},
        "sha256": {name: _sha256_file(path) for name, path in sorted(_hashed_files(tools).items())},
        "missing": [tools[n]["missing"] for n in TOOLS if tools[n].get("missing")],
    }
    features = _features(tools)
    fp["features"] = features
    if tools["aiecc"].get("path"):
        help_text = aiecc_help(tools["aiecc"]["path"])
        cli = detect_aiecc_dialect(tools["aiecc"]["path"], help_text)
        fp["dialect"] = {
            "aiecc_cli": cli,
            "aiecc_opt_level": detect_opt_level(cli, help_text),
            "runtime_sequence": features.get("runtime_sequence"),
            "link_with": features.get("link_with"),
        }
    else:
        fp["dialect"] = {}
    fp["warnings"] = aie_features.peano_warnings(tools["peano"].get("package_version"))
    # Content only: versions, binary hashes and what the probes decided, not where the
    # tools are installed ("missing", "features" and "warnings" name paths and versions).
    identity = {k: v for k, v in fp.items() if k not in ("paths", "missing", "features", "warnings")}
    identity["decided"] = {k: features.get(k) for k in aie_features.DECISIONS}
    fp["id"] = hashlib.sha256(canonical_json(identity).encode()).hexdigest()
    return fp


def xdna_fingerprint(tools: dict, cache_dir: Path | None) -> dict:
    """JSON-safe identity of the XDNA tools found (missing ones are simply absent).

    ``{"paths", "versions", "packages", "sha256", "dialect", "features",
    "warnings", "missing", "id"}``: ``features`` is what the aie-opt probes
    decided (:func:`npubuild.toolchain.aie_features.probe_features`), ``dialect``
    the emit options taken from it (``aiecc_cli``, ``runtime_sequence``,
    ``link_with``; None where undecided), ``warnings`` one line per reason to
    distrust the Peano wheel. ``id`` covers versions, hashes and decisions only.
    Cached in ``cache_dir/xdna-toolchain.json`` keyed by (path, size, mtime_ns)
    of every hashed binary (aie-opt included) and the wheel versions, and
    memoized in this process under the same key; a warm call runs no tool. A
    result from an aie-opt that crashed or hung is memoized but not written.
    """
    key = _stat_key(tools)
    cache_file = Path(cache_dir) / XDNA_FINGERPRINT_FILE if cache_dir is not None else None
    return cached_fingerprint(cache_file, key, lambda: _compute_fingerprint(tools),
                              persist=lambda fp: not (fp.get("features") or {}).get("transient"))
