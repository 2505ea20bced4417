"""``artifacts/manifest.json`` (schema 1): the only thing the runtime reads.

It lists every kernel (id, op, inputs, outputs, attrs, key, per-target files
with sha256 and size, toolchain fingerprint) and every graph (inputs, params,
constants, outputs, topologically ordered steps). Paths are relative to the
artifact directory and may never leave it. This module reads it (bounded in
size and depth, every field type-checked) and verifies it: file hashes, each
kernel's key against its op/dtype/inputs/attrs, graph steps against the
kernels they name, and the ABI each binary carries against its kernel record
(the build writes it: npubuild.build.manifest_writer).
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
from pathlib import Path, PurePosixPath

from ..constants import DTYPE_BYTES, DTYPES
from ..errors import UserError, VerifyError
from ..fsio import read_regular, sha256_file
from ..limits import Limits, over
# records checked against each other (keys, graph steps against their kernels): their own module
from .manifest_records import INSTANCE_VERSION, graph_problems, instance_key, key_problem, record_problems  # noqa: F401

SCHEMA = 1
MANIFEST = "manifest.json"
# the kernel ABI: the host emitter's npubuild_abi symbol and the xdna abi.json (emitters.host.mlir_text.ABI_VERSION)
ABI_VERSION = 1
ABI_SYMBOL = "npubuild_abi"
ABI_FILE = "abi.json"


# ---- reading -----------------------------------------------------------------------------------------------


def read_manifest(artifacts: Path, limits: Limits | None = None) -> dict:
    """The parsed manifest; VerifyError (one message naming the field) when it is malformed."""
    limits = limits or Limits()
    path = Path(artifacts) / MANIFEST
    data = _read_bounded(path, limits)
    try:
        m = json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        deep = over(f"{path}: the JSON nesting", "deeper than Python parses", "manifest_max_depth", limits.manifest_max_depth)
        raise VerifyError(str(deep)) from None
    except ValueError as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None
    if not isinstance(m, dict) or m.get("schema") != SCHEMA:
        schema = m.get("schema") if isinstance(m, dict) else "?"
        raise VerifyError(f"{path}: unsupported manifest schema {schema} (this npubuild reads schema {SCHEMA})")
    depth = _depth(m)
    if depth > limits.manifest_max_depth:
        raise VerifyError(str(over(f"{path}: the JSON nesting", depth, "manifest_max_depth", limits.manifest_max_depth)))
    problems = schema_problems(m, limits)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise VerifyError(f"{path}: malformed manifest: {problems[0]}{more}")
    return m


def _read_bounded(path: Path, limits: Limits) -> bytes:
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        raise UserError(f"{path} not found; run `doit build` (or point at a built artifact directory)") from None
    except OSError as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None
    if size > limits.manifest_max_size:
        raise VerifyError(str(over(f"{path}", f"{size} bytes", "manifest_max_size", limits.manifest_max_size)))
    try:
        return read_regular(path, limits.manifest_max_size)
    except (OSError, ValueError) as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number (the build writes strict JSON)")


def _depth(obj) -> int:
    """Nesting of lists and objects, counted without recursion."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def safe_path(artifacts: Path, rel: str) -> Path:
    """``rel`` inside ``artifacts``; refuse absolute paths and paths that leave it."""
    if not isinstance(rel, str) or "\0" in rel:
        raise VerifyError(f"manifest path {rel!r} is not a plain relative path; refusing it")
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise VerifyError(f"manifest path {rel!r} leaves the artifact directory; refusing it")
    full = (Path(artifacts) / p).resolve()
    if not full.is_relative_to(Path(artifacts).resolve()):
        raise VerifyError(f"manifest path {rel!r} resolves outside the artifact directory; refusing it")
    return full


def read_verified(artifacts: Path, rec: dict, what: str) -> bytes:
    """The bytes of a file the manifest names, read once and checked against its sha256 and size.

    The caller uses these bytes, never the path again: a file swapped after the
    check cannot be what is used."""
    path = safe_path(artifacts, rec["path"])
    changed = VerifyError(f"{what}: {rec['path']} changed since the manifest was written (sha256/size differ); refusing to use it")
    try:
        data = read_regular(path, rec["size"])  # a larger file is refused before it is read
    except FileNotFoundError:
        raise VerifyError(f"{what}: {rec['path']} is missing; rebuild with `doit build`") from None
    except (OSError, ValueError) as e:
        raise (changed if path.is_file() else VerifyError(f"{what}: {rec['path']} cannot be read ({e}); refusing to use it")) from None
    if len(data) != rec["size"] or hashlib.sha256(data).hexdigest() != rec["sha256"]:
        raise changed
    return data


def manifest_files(m: dict):
    """(what, record) for every file the manifest names."""
    for kid, k in _items(m.get("kernels")):
        for t, tr in _items(k.get("targets") if isinstance(k, dict) else None):
            if not isinstance(tr, dict):
                continue
            for role, f in _items(tr.get("files")):
                yield f"kernel {kid} [{t} {role}]", f
            if isinstance(tr.get("abi_file"), dict):
                yield f"kernel {kid} [{t} abi]", tr["abi_file"]
    for gname, g in _items(m.get("graphs")):
        if not isinstance(g, dict):
            continue
        for cname, c in _items(g.get("constants")):
            if isinstance(c, dict) and "path" in c:
                yield f"graph {gname} constant {cname}", c
        if g.get("kind") == "ane":
            for i, n in enumerate(g.get("nodes") or []):
                for role in ("mil", "weights"):
                    if isinstance(n, dict) and n.get(role):
                        yield f"ane graph {gname} node {i} ({n.get('name')}) [{role}]", n[role]
            if g.get("fills"):
                yield f"ane graph {gname} [fills]", g["fills"]
            # every file of each Core ML package (a directory Core ML reads whole: npubuild.ane.coreml)
            for what, h in [*((f"ane graph {gname} node {i} [mlpackage]", n) for i, n in enumerate(g.get("nodes") or [])), (f"ane graph {gname} [mlpackage]", g)]:
                pkg = h.get("mlpackage") if isinstance(h, dict) else None
                yield from ((what, f) for f in pkg["files"]) if isinstance(pkg, dict) and isinstance(pkg.get("files"), list) else ()


def _items(d):
    return d.items() if isinstance(d, dict) else ()


# ---- the schema --------------------------------------------------------------------------------------------


def _is_count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _is_sha(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


class _Schema:
    """Type checks of a parsed manifest; each problem names its field (kernels.k.outputs[0].shape)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.problems: list[str] = []
        n = limits.max_rank
        self.kinds = {
            "str": (lambda v: isinstance(v, str), "a string"),
            "name": (lambda v: isinstance(v, str) and 0 < len(v) <= 1024, "a non-empty string"),
            "bool": (lambda v: isinstance(v, bool), "true or false"),
            "count": (_is_count, "a non-negative integer"),
            "sha256": (_is_sha, "64 lowercase hex digits"),
            "dtype": (lambda v: v in DTYPES, f"one of {', '.join(DTYPES)}"),
            "dict": (lambda v: isinstance(v, dict), "an object"),
            "list": (lambda v: isinstance(v, list), "a list"),
            "names": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings"),
            "shape": (self._shape_ok, f"a list of at most {n} positive integers of at most {limits.max_elements} elements in all"),
        }

    def _shape_ok(self, v) -> bool:
        if not isinstance(v, list) or len(v) > self.limits.max_rank or not all(_is_count(d) and d > 0 for d in v):
            return False
        n = 1
        for d in v:
            n *= d
        return n <= self.limits.max_elements

    def field(self, rec: dict, key: str, where: str, kind: str, optional: bool = False):
        """rec[key] when it is of ``kind``; None (and a problem unless optional and absent) otherwise."""
        if key not in rec:
            if not optional:
                self.problems.append(f"{where}.{key} is missing")
            return None
        return self.value(rec[key], f"{where}.{key}", kind)

    def value(self, v, where: str, kind: str):
        ok, what = self.kinds[kind]
        if ok(v):
            return v
        self.problems.append(f"{where} must be {what}, got {_show(v)}")
        return None

    def tensor(self, t, where: str, named: bool) -> None:
        if self.value(t, where, "dict") is not None:
            if named:
                self.field(t, "name", where, "name")
            self.field(t, "shape", where, "shape")
            self.field(t, "dtype", where, "dtype")

    def file(self, f, where: str) -> None:
        if self.value(f, where, "dict") is not None:
            self.field(f, "path", where, "name")
            self.field(f, "sha256", where, "sha256")
            self.field(f, "size", where, "count")

    def each(self, rec: dict, key: str, where: str, check, optional: bool = False) -> None:
        """check(value, where) for every member of the object rec[key]."""
        d = self.field(rec, key, where, "dict", optional)
        for name, v in (d or {}).items():
            check(v, f"{where}.{key}.{name}")

    def kernel(self, k, where: str) -> None:
        if self.value(k, where, "dict") is None:
            return
        self.field(k, "op", where, "name")
        self.field(k, "dtype", where, "dtype")
        self.field(k, "key", where, "sha256")
        self.field(k, "attrs", where, "dict")
        for side in ("inputs", "outputs"):
            for i, t in enumerate(self.field(k, side, where, "list") or []):
                self.tensor(t, f"{where}.{side}[{i}]", named=True)
        if isinstance(k.get("outputs"), list) and len(k["outputs"]) != 1:
            self.problems.append(f"{where}.outputs must hold exactly one tensor, got {len(k['outputs'])}")
        self.each(k, "targets", where, self.target)
        self.field(k, "unavailable", where, "dict", optional=True)

    def target(self, t, where: str) -> None:
        if self.value(t, where, "dict") is None:
            return
        self.each(t, "files", where, self.file, optional=True)
        if "abi_file" in t:
            self.file(t["abi_file"], f"{where}.abi_file")
        self.field(t, "key", where, "sha256", optional=True)
        self.field(t, "toolchain", where, "str", optional=True)
        self.field(t, "compiled", where, "bool", optional=True)
        self.field(t, "abi", where, "dict", optional=True)
        self.each(t, "resources", where, self.core_resources, optional=True)

    def core_resources(self, c, where: str) -> None:
        """One core's measured stack and program memory (xdna; npubuild.toolchain.core_elf):
        a byte count or null (not measured) against its limit."""
        if self.value(c, where, "dict") is None:
            return
        for key in ("col", "row", "stack_limit"):
            self.field(c, key, where, "count")
        for key in ("stack_bytes", "text_bytes", "program_memory"):
            if c.get(key) is not None:
                self.field(c, key, where, "count")
        self.field(c, "stack_measured", where, "str", optional=True)
        if c.get("not_measured") is not None:
            self.field(c, "not_measured", where, "str")

    def graph(self, g, where: str) -> None:
        if self.value(g, where, "dict") is None:
            return
        if g.get("kind") == "ane":
            return self.ane_graph(g, where)
        for side in ("inputs", "params"):
            self.each(g, side, where, lambda v, w: self.tensor(v, w, named=False))
        self.each(g, "constants", where, self.constant)
        self.field(g, "outputs", where, "names")
        self.field(g, "targets", where, "names", optional=True)
        for i, s in enumerate(self.field(g, "steps", where, "list") or []):
            w = f"{where}.steps[{i}]"
            if self.value(s, w, "dict") is not None:
                self.field(s, "node", w, "str", optional=True)
                self.field(s, "kernel", w, "name")
                # what the step was built with: verify checks the kernel it names against them
                self.field(s, "op", w, "name")
                self.field(s, "key", w, "sha256")
                self.field(s, "inputs", w, "names")
                if self.field(s, "outputs", w, "names") is not None and len(s["outputs"]) != 1:
                    self.problems.append(f"{w}.outputs must name exactly one tensor, got {len(s['outputs'])}")

    def constant(self, c, where: str) -> None:
        """A graph constant: its signature and its .npy file."""
        self.tensor(c, where, named=False)
        if isinstance(c, dict):
            self.file(c, where)

    def ane_graph(self, g, where: str) -> None:
        """What this module and the runtime read of an ANE graph; its plan is checked where it is parsed."""
        self.each(g, "inputs", where, lambda v, w: self.value(v, w, "dict"))
        self.field(g, "outputs", where, "dict")
        for i, n in enumerate(self.field(g, "nodes", where, "list") or []):
            w = f"{where}.nodes[{i}]"
            if self.value(n, w, "dict") is not None:
                for role in ("mil", "weights"):
                    if n.get(role) is not None:
                        self.file(n[role], f"{w}.{role}")
        if g.get("fills") is not None:
            self.file(g["fills"], f"{where}.fills")
        for i, h in enumerate([*(g.get("nodes") if isinstance(g.get("nodes"), list) else []), g]):
            w = f"{where}.nodes[{i}].mlpackage" if h is not g else f"{where}.mlpackage"
            if isinstance(h, dict) and h.get("mlpackage") is not None and self.value(h["mlpackage"], w, "dict") is not None:
                self.field(h["mlpackage"], "path", w, "name")
                for j, f in enumerate(self.field(h["mlpackage"], "files", w, "list") or []):
                    self.file(f, f"{w}.files[{j}]")


def _show(v) -> str:
    """A short JSON rendering of a value from the manifest (its type when it has none)."""
    try:
        text = json.dumps(v)
    except (TypeError, ValueError, RecursionError):
        text = type(v).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def schema_problems(m: dict, limits: Limits | None = None) -> list[str]:
    """One line per field of the wrong type or missing."""
    s = _Schema(limits or Limits())
    s.field(m, "generator", "manifest", "str", optional=True)
    s.each(m, "kernels", "manifest", s.kernel)
    s.each(m, "graphs", "manifest", s.graph)
    s.field(m, "toolchains", "manifest", "dict", optional=True)
    return [p.removeprefix("manifest.") for p in s.problems]


# ---- kernel ABIs ------------------------------------------------------------------------------------------------


def tensor_bytes(t: dict) -> int:
    n = DTYPE_BYTES[t["dtype"]]
    for d in t["shape"]:
        n *= d
    return n


def abi_mismatch(kernel_id: str, k: dict, abi, source: str) -> str | None:
    """How ``abi`` (what the build compiled) differs from the kernel record, or None."""
    if not isinstance(abi, dict) or abi.get("abi") != ABI_VERSION:
        return f"{source} carries ABI version {abi.get('abi') if isinstance(abi, dict) else '?'!r}; this npubuild reads {ABI_VERSION}"
    for field, want in (("id", kernel_id), ("op", k["op"]), ("dtype", k["dtype"])):
        if abi.get(field) != want:
            return f"{field} is {want!r} in the manifest, {_show(abi.get(field))} in {source}"
    for side in ("inputs", "outputs"):
        theirs = abi.get(side)
        if not isinstance(theirs, list) or len(theirs) != len(k[side]):
            return f"the manifest lists {len(k[side])} {side}, {source} {len(theirs) if isinstance(theirs, list) else '?'}"
        for i, (a, b) in enumerate(zip(k[side], theirs)):
            b = b if isinstance(b, dict) else {}
            for f in ("name", "shape", "dtype"):
                if a[f] != b.get(f):
                    return f"{side}[{i}].{f} is {json.dumps(a[f])} in the manifest, {_show(b.get(f))} in {source}"
            if b.get("bytes") != tensor_bytes(a):
                return f"{side}[{i}] is {tensor_bytes(a)} bytes by the manifest, {_show(b.get('bytes'))} in {source}"
    if abi.get("key") != k["key"]:  # last: a changed op, shape or dtype is the better message
        return f"key is {k['key'][:16]}... in the manifest, {str(abi.get('key'))[:16]}... in {source} (the attrs differ)"
    return None


def xdna_layout_problem(k: dict, abi: dict) -> str | None:
    """A streamed design's host buffers must hold each input once, in a slot at least its size, and the output last."""
    if abi.get("kind") in ("gemm_overlay", "gemm_whole_array"):
        return None  # its buffers are codes, not tensors: the runner checks them against the GEMM's geometry
    bufs = abi.get("buffers")
    if not isinstance(bufs, list) or not bufs:
        return "the xdna abi has no buffers"
    ins = {t["name"]: t for t in k["inputs"]}
    out = k["outputs"][0]
    placed = []
    for i, b in enumerate(bufs):
        last = i == len(bufs) - 1
        parts = b.get("parts") if isinstance(b, dict) else None
        if not isinstance(parts, list) or not parts or (last and len(parts) != 1):
            return f"xdna buffer {i} is malformed"
        for p in parts:
            name = p.get("tensor") if isinstance(p, dict) else None
            t = out if last and name == out["name"] else None if last else ins.get(name)
            if t is None:
                return f"xdna buffer {i} holds {_show(name)}, which is not {'the output' if last else 'an input'} of the kernel"
            n = tensor_bytes(t) // DTYPE_BYTES[t["dtype"]]
            if b.get("dtype") != t["dtype"] or p.get("elements") != n or not (_is_count(p.get("slot")) and p["slot"] >= n):
                return f"xdna buffer {i} part '{name}' does not fit its tensor ({n} {t['dtype']} elements)"
            placed.append(name)
    if sorted(placed[:-1]) != sorted(ins):
        return "the xdna buffers do not hold every input exactly once"
    return None


def embedded_abi(data: bytes) -> dict:
    """The ABI a host kernel.so exports as ``npubuild_abi`` (NUL-terminated JSON), read from
    its ELF dynamic symbol table without loading it; ValueError saying why not."""
    try:
        raw = _elf_symbol(data, ABI_SYMBOL.encode())
    except (struct.error, IndexError, KeyError, ValueError, OverflowError):
        raise ValueError("it is not a readable ELF shared library") from None
    if raw is None:
        raise ValueError(f"it exports no '{ABI_SYMBOL}' (built by an older npubuild or not by npubuild)")
    text, nul, _ = raw.partition(b"\0")
    try:
        if not nul:
            raise ValueError
        abi = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        raise ValueError(f"its '{ABI_SYMBOL}' is not NUL-terminated JSON") from None
    if not isinstance(abi, dict):
        raise ValueError(f"its '{ABI_SYMBOL}' is not a JSON object")
    return abi


_SHT_NOBITS, _SHT_DYNSYM = 8, 11
# ELF class -> (header after e_ident, section header, symbol) layouts
_ELF = {1: ("HHIIIIIHHHHHH", "IIIIIIIIII", "IIIBBH"), 2: ("HHIQQQIHHHHHH", "IIQQQQIIQQ", "IBBHQQ")}


def _elf_symbol(data: bytes, name: bytes) -> bytes | None:
    """The bytes of the dynamic symbol ``name``; every offset is bounds-checked by struct/slicing."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not ELF")
    end = {1: "<", 2: ">"}[data[5]]
    hdr, sec, sym = (end + f for f in _ELF[data[4]])
    eh = struct.unpack_from(hdr, data, 16)
    shoff, shentsize, shnum = eh[5], eh[10], eh[11]
    if shentsize != struct.calcsize(sec):
        raise ValueError("section header size")
    # (name, type, flags, addr, offset, size, link, info, align, entsize)
    sections = [struct.unpack_from(sec, data, shoff + i * shentsize) for i in range(shnum)]
    step = struct.calcsize(sym)
    for s in sections:
        if s[1] != _SHT_DYNSYM:
            continue
        strtab = sections[s[6]]
        for off in range(s[4], s[4] + s[5] - step + 1, step):
            f = struct.unpack_from(sym, data, off)
            st_name, st_value, st_size, st_shndx = (f[0], f[4], f[5], f[3]) if data[4] == 2 else (f[0], f[1], f[2], f[5])
            start = strtab[4] + st_name
            if data[start : start + len(name) + 1] != name + b"\0" or start >= strtab[4] + strtab[5]:
                continue
            home = sections[st_shndx]
            begin = home[4] + st_value - home[3]
            if home[1] == _SHT_NOBITS or begin < 0 or begin + st_size > len(data):
                raise ValueError("symbol outside the file")
            return data[begin : begin + st_size]
    return None


# ---- verify -------------------------------------------------------------------------------------------------


def verify(artifacts: Path, manifest: dict | None = None, limits: Limits | None = None) -> list[str]:
    """One problem line per missing or altered file, key that does not match its record,
    graph step that does not match its kernel, and binary whose ABI does not match its kernel."""
    artifacts = Path(artifacts)
    m = manifest if manifest is not None else read_manifest(artifacts, limits)
    problems, intact = [], set()
    for what, f in manifest_files(m):
        problem = _file_problem(artifacts, what, f)
        if problem:
            problems.append(problem)
        else:
            intact.add(id(f))
    problems += record_problems(m)
    for kid, k in m.get("kernels", {}).items():
        problems += [f"kernel {kid}: {p}" for p in abi_problems(artifacts, kid, k, intact)]
    return problems + further_problems(artifacts, m, intact)


def further_problems(artifacts: Path, m: dict, intact: set) -> list[str]:
    """Checks of records against the files they name that live in modules of their own, one call each
    (``intact``: ids of the file records whose bytes matched the manifest; the others are reported)."""
    from .ane_records import ane_plan_problems  # ANE plans against their programs

    return ane_plan_problems(m, intact, lambda rel: safe_path(artifacts, rel))


def _file_problem(artifacts: Path, what: str, f: dict) -> str | None:
    try:
        p = safe_path(artifacts, f["path"])
    except VerifyError as e:
        return f"{what}: {e}"
    rel = f["path"]
    if not p.is_file():
        return f"missing: {rel} ({what})"
    if p.stat().st_size != f["size"] or sha256_file(p) != f["sha256"]:
        return f"altered: {rel} ({what}): sha256/size differ from the manifest"
    return None


def abi_problems(artifacts: Path, kernel_id: str, k: dict, intact: set) -> list[str]:
    """The host binary's embedded ABI and the xdna abi.json against the kernel record
    (for files whose bytes matched the manifest: the others are reported already)."""
    out = []
    host = k["targets"].get("host", {}).get("files", {}).get("binary")
    if host is not None and id(host) in intact:
        try:
            why = abi_mismatch(kernel_id, k, embedded_abi(read_verified(artifacts, host, f"kernel {kernel_id}")), host["path"])
        except (ValueError, VerifyError) as e:
            why = f"{host['path']}: {e}"
        if why:
            out.append(f"[host] {why}")
    xdna = k["targets"].get("xdna", {})
    if xdna.get("compiled") and "abi_file" not in xdna:
        out.append(f"[xdna] the manifest names no {ABI_FILE}; delete manifest.json and run `doit build` to rewrite it")
    elif "abi_file" in xdna and id(xdna["abi_file"]) in intact:
        why = xdna_abi_problem(kernel_id, k, read_verified(artifacts, xdna["abi_file"], f"kernel {kernel_id}"))
        if why:
            out.append(f"[xdna] {why}")
    return out


def xdna_abi_problem(kernel_id: str, k: dict, abi_bytes: bytes) -> str | None:
    """abi.json against the kernel record and the manifest's own copy of the xdna abi."""
    try:
        abi = json.loads(abi_bytes, parse_constant=_no_constant)
    except ValueError:
        return f"its {ABI_FILE} is not JSON"
    why = abi_mismatch(kernel_id, k, abi, ABI_FILE)
    if why:
        return why
    if abi.get("xdna") != k["targets"]["xdna"].get("abi"):
        return f"the manifest's xdna abi differs from {ABI_FILE}"
    return xdna_layout_problem(k, abi["xdna"])
