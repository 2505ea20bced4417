"""Project configuration: ``[tool.npubuild]`` in pyproject.toml, then environment.

Keys (all optional):
  specs      = "specs"                spec directory
  artifacts  = "artifacts"            build output directory (env NPUBUILD_ARTIFACTS)
  store      = "<artifacts>/.cache"   content-addressed store (env NPUBUILD_STORE)
  targets    = ["ref", "host"]        targets built for every kernel unless a spec says otherwise
  max_open_kernels = 16               runtime LRU limit of open kernels (env NPUBUILD_MAX_OPEN_KERNELS)
  xdna_device = "npu1"                NPU the xdna designs are for: npu1 (Phoenix / Hawk Point, 4 columns)
                                      or npu2 (Strix / Strix Halo / Krackan, 8 columns) (env NPUBUILD_XDNA_DEVICE)
  xdna_bodies = "auto"               where xdna cores' compute bodies come from: generated (npubuild's own,
                                      vectorized where mlir-aie lowers it), mlir-aie (its aie_kernels where
                                      one computes the kernel) or auto (mlir-aie's kernel only where npubuild's
                                      body would be scalar; docs/xdna-kernels.md) (env NPUBUILD_XDNA_BODIES);
                                      a kernel family's xdna_body overrides it
  xdna_bf16_mmul = "native"           the mmul of bf16 matmul kernels on npu2: native (mm.cc's 4x8x8 bf16 mmul,
                                      bf16 products summed in f32) or bfp16 (its 8x8x8 mmul on bf16 converted to
                                      bfp16 blocks of 8 along K, AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16: twice the
                                      MACs per cycle, coarser numerics; no effect on npu1 or int8; docs/xdna-gemm.md)
                                      (env NPUBUILD_XDNA_BF16_MMUL)
  xdna_strict = false                 true: a missing XDNA toolchain fails the build instead of
                                      emitting aie.mlir only (env NPUBUILD_XDNA_STRICT=1)
  xrt_contexts = <by device>          NPU hardware contexts the xrt backend keeps open (npu1: 6,
                                      npu2: 16; env XRT_CONTEXT_CACHE_SIZE wins)
  ane_resident_programs = <no limit>  ANE programs the ane backend keeps loaded (env NPUBUILD_ANE_RESIDENT)
  ane_strict = false                  true: an op of an ane graph no ANE route computes fails the build with the
                                      route's reason instead of running on the CPU (docs/ane.md, Placement)
  ane_accumulate = "fp32"             how the ANE emulator sums matmul/conv/linear dot products and softmax's
                                      denominator: fp32 (one fp16 rounding of the result: the best case) or fp16
                                      (every product and every partial sum rounded to fp16, in K order: the worst
                                      case; docs/ane.md, Numerics) (env NPUBUILD_ANE_ACCUMULATE)
  ane_author / ane_version / ane_license   the author, version and license every Core ML package carries unless
                                      its graph's metadata: says (default: [project] authors[0], version and license,
                                      else "npubuild user", "0", "unspecified"; docs/graphs.md, docs/ane.md)
  stores = []                         further stores tried after the local one, in order: strings or tables
                                      {url = "...", mode = "rw" | "ro"}; url file:///dir (shared directory),
                                      http(s)://host[:port]/prefix (Bazel HTTP cache protocol), redis://host[:port][/db]
                                      (env NPUBUILD_STORES: space-separated [ro:|rw:]url)
  max_artifact_size = "1G"            largest file accepted from a store or a bundle (env NPUBUILD_MAX_ARTIFACT_SIZE)
  trusted_keys = []                   Ed25519 public key files (npubuild keygen) whose signatures are accepted
                                      (env NPUBUILD_TRUSTED_KEYS, separated by the path separator)
  require_signatures = false          refuse unsigned or wrongly signed bundles and store entries (env NPUBUILD_REQUIRE_SIGNATURES=1)
  signing_key = ""                    secret key file: entries this project uploads are signed with it (env NPUBUILD_SIGNING_KEY)
  host_cpu = "portable"               CPU the host kernels are compiled for: portable (llc's generic CPU of
                                      the machine's architecture), native (this machine's CPU, resolved
                                      to its name so the build key says which) or an llc CPU name such
                                      as x86-64-v3 (env NPUBUILD_HOST_CPU); part of the host build key
  executor = "local"                  where compiles that miss every store run: local, or dask://host[:port] (a Dask
                                      distributed scheduler; docs/farm.md) (env NPUBUILD_EXECUTOR)
  farm_trusted = false                every farm worker's outputs are used, signed and shared; needed for plain TCP
                                      to a scheduler on another machine (env NPUBUILD_FARM_TRUSTED=1; docs/farm.md)
  farm_tls_ca / farm_tls_cert / farm_tls_key = ""   Dask TLS: the CA, this client's certificate and key (PEM)
                                      (env NPUBUILD_FARM_TLS_CA, _CERT, _KEY)
  farm_trusted_workers = []           TLS certificate subjects ("CN=w1,O=Lab") of workers whose outputs are used
                                      (env NPUBUILD_FARM_TRUSTED_WORKERS, ';'-separated)
  farm_verify = "0%"                  share of farm compiles also compiled here; a byte mismatch fails the kernel
                                      (env NPUBUILD_FARM_VERIFY)
  [tool.npubuild.flags]               extra llc, cc, aiecc and Peano options from an allowlist per tool,
                                      part of the build key (npubuild.core.tool_flags; env NPUBUILD_LLC_FLAGS ...)
  data_dirs = []                      directories outside the project that specs may read data from (.npy
                                      constants, MIL BLOBFILE weights); the project itself is always allowed
  [tool.npubuild.limits]              sizes, depths and waits input may cost (npubuild.core.limits; docs/limits.md)
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .constants import XDNA_BF16_MMUL_DEFAULT, XDNA_BF16_MMULS, XDNA_BODY_DEFAULT, XDNA_BODY_SOURCES, XDNA_DEVICES
from .errors import UserError, did_you_mean
from .limits import Limits, limits_from_table, parse_size
from .target_names import known_targets
from .tool_flags import ToolFlags, tool_flags_from
from .farm_settings import FarmSettings, parse_farm_settings

# how the ANE emulator sums dot products (npubuild.runner.ane): fp32 the best case, fp16 the worst (docs/ane.md)
ANE_ACCUMULATES = ("fp32", "fp16")
ANE_ACCUMULATE_DEFAULT = "fp32"

KNOWN_KEYS = (
    "specs", "artifacts", "store", "targets", "max_open_kernels", "xdna_device", "xdna_strict", "xrt_contexts", "ane_resident_programs",
    "ane_strict", "ane_accumulate", "ane_author", "ane_version", "ane_license",
    "stores", "max_artifact_size", "trusted_keys", "require_signatures", "signing_key", "limits", "data_dirs",
    "host_cpu", "xdna_bodies", "xdna_bf16_mmul", "flags", "executor",
    "farm_trusted", "farm_trusted_workers", "farm_tls_ca", "farm_tls_cert", "farm_tls_key", "farm_verify",
)
STORE_SCHEMES = ("file", "http", "https", "redis")


@dataclass(frozen=True)
class StoreSpec:
    url: str
    mode: str = "rw"  # rw | ro


def _store_spec(item, where: str) -> StoreSpec:
    if isinstance(item, str):
        mode, _, url = item.partition(":") if item.split(":", 1)[0] in ("ro", "rw") else ("rw", "", item)
        item = {"url": url, "mode": mode}
    if not isinstance(item, dict) or not isinstance(item.get("url"), str):
        raise UserError(f"{where}: each store is a URL string or a table {{url = \"...\", mode = \"rw\"}}, got {item!r}")
    url, mode = item["url"], item.get("mode", "rw")
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in STORE_SCHEMES:
        raise UserError(f"{where}: store URL {url!r} must start with file://, http://, https:// or redis://")
    if mode not in ("rw", "ro"):
        raise UserError(f"{where}: store mode must be 'rw' or 'ro', got {mode!r}")
    return StoreSpec(url, mode)


def _bool(value, name: str) -> bool:
    if isinstance(value, bool):
        return value
    v = str(value).strip().lower()
    if v not in _TRUE + _FALSE:
        raise UserError(f"{name} must be true or false (1 or 0), got {value!r}")
    return v in _TRUE
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
    stores: tuple = ()  # StoreSpec, tried after the local store in order
    max_artifact_size: int = 1 << 30
    trusted_keys: tuple = ()  # paths of Ed25519 public keys
    require_signatures: bool = False
    signing_key: Path | None = None
    limits: Limits = Limits()
    data_dirs: tuple = ()  # resolved Paths specs may read data from besides the project root
    host_cpu: str = "portable"
    xdna_bodies: str = XDNA_BODY_DEFAULT
    xdna_bf16_mmul: str = XDNA_BF16_MMUL_DEFAULT  # native | bfp16 (npu2 bf16 GEMMs)
    flags: ToolFlags = ToolFlags()
    executor: str = "local"  # or dask://host:port
    farm: FarmSettings = FarmSettings()  # the farm_* keys: whom the compile farm trusts (docs/farm.md)
    ane_strict: bool = False  # refuse CPU placements in ane graphs (npubuild.ane.cpu_ops_placement)
    ane_accumulate: str = ANE_ACCUMULATE_DEFAULT  # fp32 | fp16: the ANE emulator's sums (npubuild.runner.ane)
    # what every Core ML package carries as author, version and license (npubuild.ane.metadata)
    ane_author: str = "npubuild user"
    ane_version: str = "0"
    ane_license: str = "unspecified"

    def data_roots(self) -> tuple:
        """Where spec data files (.npy, BLOBFILE) may be: the project, then data_dirs."""
        return (self.root, *self.data_dirs)


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
    project: dict = {}
    pp = root / "pyproject.toml"
    if pp.is_file():
        try:
            doc = tomllib.loads(pp.read_text())
        except tomllib.TOMLDecodeError as e:
            raise UserError(f"{pp}: invalid TOML: {e}") from None
        table = doc.get("tool", {}).get("npubuild", {})
        project = doc.get("project", {}) if isinstance(doc.get("project"), dict) else {}
    for k in table:
        if k not in KNOWN_KEYS:
            raise UserError(f"{pp}: unknown key '{k}' in [tool.npubuild]{did_you_mean(k, KNOWN_KEYS)}; known keys: {', '.join(KNOWN_KEYS)}")
    _check_types(table, pp)
    specs = root / table.get("specs", "specs")
    artifacts = Path(os.environ.get("NPUBUILD_ARTIFACTS") or (root / table.get("artifacts", "artifacts")))
    if not artifacts.is_absolute():
        artifacts = root / artifacts
    store = os.environ.get("NPUBUILD_STORE") or table.get("store")
    store = (root / store) if store else artifacts / ".cache"
    targets = tuple(table.get("targets", ("ref", "host")))
    for t in targets:
        if t not in known_targets():
            raise UserError(f"{pp}: unknown target '{t}' in [tool.npubuild] targets; known: {', '.join(known_targets())}")
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
    env_stores = os.environ.get("NPUBUILD_STORES")
    raw_stores = env_stores.split() if env_stores is not None else table.get("stores", [])
    if not isinstance(raw_stores, list):
        raise UserError(f"{pp}: stores must be a list of store URLs or tables")
    stores = tuple(_store_spec(s, "NPUBUILD_STORES" if env_stores is not None else str(pp)) for s in raw_stores)
    max_size = parse_size(os.environ.get("NPUBUILD_MAX_ARTIFACT_SIZE") or table.get("max_artifact_size", "1G"))
    env_keys = os.environ.get("NPUBUILD_TRUSTED_KEYS")
    keys = [k for k in env_keys.split(os.pathsep) if k] if env_keys is not None else table.get("trusted_keys", [])
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise UserError(f"{pp}: trusted_keys must be a list of public key file paths")
    trusted = tuple((root / k).resolve() for k in keys)
    require = _bool(os.environ.get("NPUBUILD_REQUIRE_SIGNATURES", table.get("require_signatures", False)), "require_signatures")
    sk = os.environ.get("NPUBUILD_SIGNING_KEY") or table.get("signing_key") or ""
    signing = (root / sk).resolve() if sk else None
    return Config(
        root, specs, artifacts.resolve(), Path(store).resolve(), targets, max_open, device, strict, contexts, resident,
        stores=stores, max_artifact_size=max_size, trusted_keys=trusted, require_signatures=require, signing_key=signing,
        limits=limits_from_table(table.get("limits"), str(pp)),
        data_dirs=_data_dirs(table.get("data_dirs", []), root, pp),
        host_cpu=_host_cpu(os.environ.get("NPUBUILD_HOST_CPU") or table.get("host_cpu", "portable"), pp),
        xdna_bodies=_xdna_bodies(os.environ.get("NPUBUILD_XDNA_BODIES") or table.get("xdna_bodies", XDNA_BODY_DEFAULT), pp),
        xdna_bf16_mmul=_xdna_bf16_mmul(os.environ.get("NPUBUILD_XDNA_BF16_MMUL") or table.get("xdna_bf16_mmul", XDNA_BF16_MMUL_DEFAULT), pp),
        flags=tool_flags_from(table.get("flags"), str(pp)),
        executor=parse_executor(os.environ.get("NPUBUILD_EXECUTOR") or table.get("executor", "local"), pp),
        farm=parse_farm_settings(table, root, pp),
        ane_strict=_bool(table.get("ane_strict", False), "ane_strict"),
        ane_accumulate=_ane_accumulate(os.environ.get("NPUBUILD_ANE_ACCUMULATE") or table.get("ane_accumulate", ANE_ACCUMULATE_DEFAULT), pp),
        **_package_meta(table, project, pp),
    )


def _package_meta(table: dict, project: dict, pp: Path) -> dict:
    """ane_author, ane_version, ane_license: [tool.npubuild]'s, else pyproject.toml's [project] authors[0] (its
    name, or email), version and license (a string, or a table's text, or "see <its file>"), else npubuild's
    defaults; each a non-empty string of at most 1000 characters (npubuild.ane.metadata.text_problem)."""
    from .package_meta import DEFAULT_AUTHOR, DEFAULT_LICENSE, DEFAULT_VERSION, text_problem

    authors = project.get("authors")
    first = authors[0] if isinstance(authors, list) and authors and isinstance(authors[0], dict) else {}
    lic = project.get("license")
    if isinstance(lic, dict):
        lic = lic.get("text") or (f"see {lic['file']}" if isinstance(lic.get("file"), str) else None)
    found = {"ane_author": first.get("name") or first.get("email"), "ane_version": project.get("version"), "ane_license": lic}
    out = {}
    for key, default in (("ane_author", DEFAULT_AUTHOR), ("ane_version", DEFAULT_VERSION), ("ane_license", DEFAULT_LICENSE)):
        if key in table:
            why = text_problem(table[key])
            if why:
                raise UserError(f"{pp}: [tool.npubuild] {key} {why}; write it as a quoted string such as {key} = \"{default}\"")
            out[key] = table[key]
        else:  # [project]'s value where it is one the package can carry
            out[key] = found[key] if text_problem(found[key]) is None else default
    return out


def parse_executor(value, pp) -> str:
    """``local`` or ``dask://host[:port]`` (port 8786, Dask's, when left out)."""
    m = re.fullmatch(r"dask://([A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:]{2,45}\])(?::(\d{1,5}))?/?", value) if isinstance(value, str) else None
    if value == "local":
        return value
    if m is None or (m.group(2) and not 0 < int(m.group(2)) < 65536):
        raise UserError(f"{pp}: executor (NPUBUILD_EXECUTOR) must be \"local\" or \"dask://host:port\" (a Dask scheduler), got {value!r}")
    return f"dask://{m.group(1)}:{m.group(2) or 8786}"


def _one_of(key: str, env: str, choices, doc: str):
    """A validator of the string option ``key`` (env ``env``): one of ``choices``, else one error naming ``doc``."""

    def check(value, pp: Path) -> str:
        if value not in choices:
            raise UserError(f"{pp}: {key} ({env}) must be {', '.join(repr(v) for v in choices)}, got {value!r} ({doc})")
        return value

    return check


_xdna_bodies = _one_of("xdna_bodies", "NPUBUILD_XDNA_BODIES", XDNA_BODY_SOURCES, "docs/xdna-kernels.md")
_xdna_bf16_mmul = _one_of("xdna_bf16_mmul", "NPUBUILD_XDNA_BF16_MMUL", XDNA_BF16_MMULS, "docs/xdna-gemm.md")
_ane_accumulate = _one_of("ane_accumulate", "NPUBUILD_ANE_ACCUMULATE", ANE_ACCUMULATES, "docs/ane.md, Numerics")


# [tool.npubuild] keys -> (the TOML types they take, what to write); the other keys check their own values
_KEY_TYPES = {
    "specs": (str, 'a path string such as "specs"'), "artifacts": (str, 'a path string such as "artifacts"'),
    "store": (str, 'a path string such as "artifacts/.cache"'), "targets": (list, 'a list such as ["ref", "host"]'),
    "max_open_kernels": (int, "an integer such as 16"), "xdna_device": (str, 'a string such as "npu1"'),
    "host_cpu": (str, 'a string such as "portable"'), "xdna_bodies": (str, 'a string such as "auto"'),
    "xdna_bf16_mmul": (str, 'a string such as "native"'), "ane_accumulate": (str, 'a string such as "fp32"'),
    "signing_key": (str, 'a path string such as "keys/me.key"'),
    "executor": (str, 'a string such as "local" or "dask://host:8786"'), "flags": (dict, "a table: [tool.npubuild.flags]"),
    "max_artifact_size": ((str, int), 'a size such as "1G" or a number of bytes'),
    "limits": (dict, "a table: [tool.npubuild.limits]"),
    "farm_trusted_workers": (list, 'a list such as ["CN=worker1,O=Lab"]'),
    "farm_tls_ca": (str, 'a path string such as "certs/ca.pem"'), "farm_tls_cert": (str, 'a path string such as "certs/me.pem"'),
    "farm_tls_key": (str, 'a path string such as "certs/me.key"'), "farm_verify": (str, 'a percentage such as "5%"'),
}


def _check_types(table: dict, pp: Path) -> None:
    for k, (types, what) in _KEY_TYPES.items():
        v = table.get(k)
        if v is not None and (not isinstance(v, types) or isinstance(v, bool)):
            raise UserError(f"{pp}: [tool.npubuild] {k} must be {what}, got {v!r}")
    if "targets" in table and not all(isinstance(t, str) for t in table["targets"]):
        raise UserError(f"{pp}: [tool.npubuild] targets must be a list of target names such as [\"ref\", \"host\"]")


def _host_cpu(value, pp: Path) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}", value):
        raise UserError(
            f"{pp}: host_cpu (NPUBUILD_HOST_CPU) must be 'portable', 'native' or an llc CPU name such as x86-64-v3, got {value!r}"
        )
    return value


def _data_dirs(raw, root: Path, pp: Path) -> tuple:
    if not isinstance(raw, list) or not all(isinstance(d, str) and d and "\0" not in d for d in raw):
        raise UserError(f"{pp}: data_dirs must be a list of directory paths")
    return tuple((root / d).resolve() for d in raw)
