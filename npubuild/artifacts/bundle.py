"""Bundles: a reproducible ``.tar.zst`` of an artifact directory, verified on unpack.

A bundle holds ``manifest.json``, optionally ``signature.json`` (an Ed25519
signature over the manifest's exact bytes, see :mod:`npubuild.artifacts.trust`), then
every file the manifest names, and nothing else: not the store, not doit's
state, no directories, links or special files.

Archive format (fixed, so two packs of the same artifacts are byte-identical):

* tar in POSIX.1-2001 (PAX) format as written by Python's ``tarfile``; entry
  order: ``manifest.json``, ``signature.json`` (if signed), then the named files
  sorted by path; every entry is a regular file with mtime 0, uid/gid 0, empty
  uname/gname and mode 0644; no directory entries.
* one zstd frame (``zstandard``): level 3 unless ``--level`` says otherwise,
  single-threaded (``threads=0``), frame checksum on, no content size, no
  dictionary id.

Unpacking streams the archive (nothing is read whole into memory) through a
scan of every tar header and the bundle limits of :class:`~npubuild.core.limits.Limits`
(:mod:`.bundle_stream`), extracts into a temporary directory beside the
destination, checks every entry against the manifest (names, types, sizes,
sha256) and the signature, and only then puts the new tree in place by renames,
so that the destination is the old complete tree or the new one at every
instant, even for a process killed with SIGKILL. Temporary names carry the
writer's pid (:func:`npubuild.core.fsio.tmp_prefix`): each pack and unpack first
removes what killed ones left beside its output.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..core.fsio import atomic_writer, read_regular, tmp_prefix
from ..core.limits import Limits, over
from ..core.nospace import disk_full_message, is_disk_full
from .bundle_install import check_targets, carry_over, empty_dir, install, set_dir_modes, sweep_beside
from .bundle_stream import BundleError, HeaderScan, ZstdReader, check_entries, check_ratio, check_total, header_class, zstd
from .manifest import MANIFEST, SCHEMA, manifest_files
from .manifest_schema import schema_problems

SIGNATURE = "signature.json"
RESERVED = (MANIFEST, SIGNATURE)
TAR_FORMAT = tarfile.PAX_FORMAT
ZSTD_LEVEL = 3
ZSTD_LEVELS = range(1, 20)
FILE_MODE = 0o644
SIGNATURE_LIMIT = 64 << 10  # largest signature.json accepted
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 20


# ---------------------------------------------------------------- the manifest


def _too_deep(value, limit: int) -> bool:
    """Whether JSON ``value`` nests lists and objects more than ``limit`` deep (walked without recursion)."""
    if not isinstance(value, (dict, list)):
        return False
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if depth > limit:
            return True
        for x in v.values() if isinstance(v, dict) else v:
            if isinstance(x, (dict, list)):
                stack.append((x, depth + 1))
    return False


def _parse_manifest(data: bytes, where: str, limits: Limits = Limits()) -> dict:
    deep = f"{where}: manifest.json is nested more than {limits.manifest_max_depth} levels deep (limits.manifest_max_depth in [tool.npubuild.limits])"
    try:
        m = json.loads(data, parse_constant=_not_a_number)
    except RecursionError:
        raise BundleError(deep) from None
    except (UnicodeDecodeError, ValueError) as e:
        raise BundleError(f"{where}: manifest.json is not valid JSON ({e})") from None
    if _too_deep(m, limits.manifest_max_depth):
        raise BundleError(deep)
    if not isinstance(m, dict) or m.get("schema") != SCHEMA:
        got = m.get("schema") if isinstance(m, dict) else "?"
        raise BundleError(f"{where}: manifest.json has unsupported schema {got!r} (this npubuild reads schema {SCHEMA})")
    # the structure `npubuild verify` and the runtime require (npubuild.artifacts.manifest.read_manifest): a
    # bundle nothing could load is refused before a file of it is installed
    problems = schema_problems(m, limits)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BundleError(f"{where}: malformed manifest.json: {problems[0]}{more}")
    return m


def _not_a_number(name: str):
    raise ValueError(f"{name} is not a JSON number (the build writes strict JSON)")


def _canonical(rel) -> str | None:
    """The reason ``rel`` is not a clean relative path inside the directory, or None."""
    if not isinstance(rel, str) or not rel:
        return "not a non-empty path"
    if "\0" in rel:
        return "a path with a NUL byte"
    if rel.startswith("/"):
        return "an absolute path"
    parts = rel.split("/")
    if ".." in parts:
        return "a path with a '..' component"
    if any(p in ("", ".") for p in parts):
        return "a path that is not canonical (empty or '.' component)"
    return None


def named_files(m: dict, where: str, max_size: int | None = None) -> dict[str, dict]:
    """path -> {"sha256", "size", "what"} for every file ``m`` names, validated.

    Refuses records without a sha256 or size, paths that leave the directory
    or are not canonical, a path named twice with different contents, a path
    that is also another's directory, the reserved names, and (with
    ``max_size``) files larger than it.
    """
    try:
        records = list(manifest_files(m))
    except (AttributeError, TypeError) as e:
        raise BundleError(f"{where}: manifest.json is malformed ({e})") from None
    files: dict[str, dict] = {}
    for what, f in records:
        rel = f.get("path") if isinstance(f, dict) else None
        reason = _canonical(rel)
        if reason:
            raise BundleError(f"{where}: manifest path {rel!r} ({what}) refused: {reason}; manifest paths must stay inside the directory")
        sha, size = f.get("sha256"), f.get("size")
        if not isinstance(sha, str) or not _HEX64.fullmatch(sha) or not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise BundleError(f"{where}: manifest entry {rel!r} ({what}) lacks a valid sha256 and size")
        if rel in RESERVED:
            raise BundleError(f"{where}: manifest names {rel!r} ({what}), a name reserved for the bundle itself")
        if max_size is not None and size > max_size:
            raise BundleError(f"{where}: entry {rel!r} ({what}) is {size} bytes, over max_artifact_size ({max_size} bytes)")
        old = files.get(rel)
        if old is not None and (old["sha256"], old["size"]) != (sha, size):
            raise BundleError(f"{where}: manifest names {rel!r} twice with different contents ({old['what']}; {what})")
        files.setdefault(rel, {"sha256": sha, "size": size, "what": what})
    names = set(files) | set(RESERVED)
    for rel in files:
        parts = rel.split("/")
        for i in range(1, len(parts)):
            if "/".join(parts[:i]) in names:
                raise BundleError(f"{where}: manifest path {rel!r} lies under {'/'.join(parts[:i])!r}, which is a file")
    return files


# ---------------------------------------------------------------------- packing


@dataclass
class PackResult:
    path: Path
    entries: int
    files: int
    size: int
    signed_by: str | None  # public key hex


class _HashingReader:
    def __init__(self, f):
        self.f, self.h, self.n = f, hashlib.sha256(), 0

    def read(self, size=-1):
        b = self.f.read(size)
        self.h.update(b)
        self.n += len(b)
        return b


class _CountingWriter:
    """Counts the uncompressed tar bytes, to refuse packing what unpack's bundle_max_ratio would refuse."""

    def __init__(self, f):
        self.f, self.n = f, 0

    def write(self, b) -> int:
        self.n += len(b)
        return self.f.write(b)


def _entry(name: str, size: int) -> tarfile.TarInfo:
    ti = tarfile.TarInfo(name)
    ti.size, ti.mtime, ti.mode, ti.type = size, 0, FILE_MODE, tarfile.REGTYPE
    ti.uid = ti.gid = 0
    ti.uname = ti.gname = ""
    return ti


def _read_manifest(mpath: Path, limits: Limits) -> bytes:
    try:
        size = mpath.stat().st_size
        if size > limits.manifest_max_size:
            raise BundleError(str(over(f"{mpath}", f"{size} bytes", "manifest_max_size", f"{limits.manifest_max_size} bytes")))
        return read_regular(mpath, limits.manifest_max_size)
    except FileNotFoundError:
        raise BundleError(f"{mpath} not found; run `doit build` (or point at a built artifact directory)") from None
    except (OSError, ValueError) as e:
        raise BundleError(f"{mpath}: {e}") from None


def _sources(src: Path, files: dict) -> dict[str, Path]:
    root = src.resolve()
    sources = {}
    for rel, f in sorted(files.items()):
        p = (root / rel).resolve()
        if not p.is_relative_to(root):
            raise BundleError(f"{src}: {rel} resolves outside the artifact directory; refusing to pack it")
        try:
            st = p.stat()
        except FileNotFoundError:
            raise BundleError(f"{src}: {rel} ({f['what']}) is missing; run `doit build`") from None
        if not p.is_file() or st.st_size != f["size"]:
            raise BundleError(f"{src}: {rel} ({f['what']}) does not match the manifest (size); run `doit build` or `npubuild verify`")
        sources[rel] = p
    return sources


def pack(src: Path, out: Path, signing_key: Path | None = None, level: int = ZSTD_LEVEL, *, limits: Limits = Limits()) -> PackResult:
    """Write the bundle of artifact directory ``src`` to ``out`` (atomically).

    A bundle that unpack would refuse under ``limits`` is not written.
    """
    zstandard = zstd()
    if level not in ZSTD_LEVELS:
        raise BundleError(f"zstd level must be between {ZSTD_LEVELS.start} and {ZSTD_LEVELS.stop - 1}, got {level}")
    src, out = Path(src), Path(out)
    mpath = src / MANIFEST
    mbytes = _read_manifest(mpath, limits)
    files = named_files(_parse_manifest(mbytes, str(mpath), limits), str(mpath))
    sources = _sources(src, files)
    signature = None
    if signing_key is not None:
        from . import trust

        sig = trust.sign(mbytes, Path(signing_key))
        signature = (json.dumps(sig, sort_keys=True, indent=1) + "\n").encode()
    refused = f"{out}: unpack would refuse this bundle"
    check_entries(refused, 1 + (signature is not None) + len(sources), limits)
    check_total(refused, len(mbytes) + len(signature or b"") + sum(f["size"] for f in files.values()), limits)

    out.parent.mkdir(parents=True, exist_ok=True)
    for beside in {out.parent, src.parent}:  # a killed pack to this place, a killed unpack into the source
        sweep_beside(beside)
    try:
        with atomic_writer(out, kind="pack") as fh:
            cctx = zstandard.ZstdCompressor(level=level, threads=0, write_checksum=True, write_content_size=False, write_dict_id=False)
            with cctx.stream_writer(fh, closefd=False) as zw:
                counted = _CountingWriter(zw)
                with tarfile.open(fileobj=counted, mode="w|", format=TAR_FORMAT, encoding="utf-8") as tf:
                    tf.addfile(_entry(MANIFEST, len(mbytes)), io.BytesIO(mbytes))
                    if signature is not None:
                        tf.addfile(_entry(SIGNATURE, len(signature)), io.BytesIO(signature))
                    for rel, p in sources.items():
                        with open(p, "rb") as f:
                            r = _HashingReader(f)
                            tf.addfile(_entry(rel, files[rel]["size"]), r)
                        if r.h.hexdigest() != files[rel]["sha256"]:
                            raise BundleError(
                                f"{src}: {rel} ({files[rel]['what']}) does not match the manifest (sha256); run `doit build` or `npubuild verify`"
                            )
            check_ratio(refused, counted.n, fh.tell(), limits)
    except OSError as e:
        raise BundleError(disk_full_message(e, out, advice="make room on that disk or write the bundle elsewhere (-o)") if is_disk_full(e) else f"cannot write {out}: {e}") from None
    return PackResult(out, 1 + (signature is not None) + len(sources), len(sources), out.stat().st_size, sig["key"] if signature else None)


# -------------------------------------------------------------------- unpacking


@dataclass
class UnpackResult:
    dest: Path
    files: int
    signed: bool
    signer: str | None  # the trusted key file that verified the signature


_TYPE_NAMES = {
    tarfile.SYMTYPE: "a symbolic link",
    tarfile.LNKTYPE: "a hard link",
    tarfile.CHRTYPE: "a character device",
    tarfile.BLKTYPE: "a block device",
    tarfile.FIFOTYPE: "a FIFO",
    tarfile.DIRTYPE: "a directory",
    tarfile.CONTTYPE: "a contiguous file",
    tarfile.GNUTYPE_SPARSE: "a sparse file",
}


def _entry_problem(member: tarfile.TarInfo) -> str | None:
    reason = _canonical(member.name)
    if reason:
        return reason
    if member.type not in (tarfile.REGTYPE, tarfile.AREGTYPE):
        kind = _TYPE_NAMES.get(member.type, f"an entry of tar type {member.type!r}")
        link = f" to {member.linkname!r}" if member.issym() or member.islnk() else ""
        return f"{kind}{link}; bundles hold regular files only"
    return None


def unpack(
    bundle: Path, dest: Path, *, max_size: int, trusted: dict, required: bool, force: bool = False, limits: Limits = Limits()
) -> UnpackResult:
    """Verify bundle ``bundle`` and extract it into ``dest``.

    ``dest`` must be absent or empty unless ``force``: then the files the
    bundle names are replaced and everything else in ``dest`` is kept, and the
    new tree takes the old one's place in one rename. On any refusal nothing
    in ``dest`` changes.
    """
    bundle, dest = Path(bundle), Path(os.path.abspath(dest))
    was_link = dest.is_symlink()
    if was_link or dest.exists():
        dest = dest.resolve()
    for beside in {dest.parent, bundle.parent}:  # a killed unpack to this place, a killed pack of this bundle
        sweep_beside(beside)
    if was_link or dest.exists():
        if not dest.is_dir():
            raise BundleError(f"{dest} exists and is not a directory")
        if not force and not empty_dir(dest):
            raise BundleError(f"{dest} is not empty; use --force to replace the files the bundle names")
    if not bundle.is_file():
        raise BundleError(f"{bundle}: no such bundle file")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix("unpack"), dir=dest.parent))
    from .trust import TrustError

    try:
        try:
            files, signed, signer = _extract(bundle, tmp, max_size, trusted, required, limits)
            check_targets(dest, files, force)
            set_dir_modes(tmp)
            if dest.is_dir() and not empty_dir(dest):
                carry_over(dest, tmp, files)
        except (BundleError, TrustError) as e:
            raise type(e)(f"{e}; {dest} was left untouched") from None
        except OSError as e:
            why = disk_full_message(e, dest.parent, f"cannot extract it into {dest.parent}", _UNPACK_ROOM) if is_disk_full(e) else f"cannot extract it ({e})"
            raise BundleError(f"bundle {bundle}: {why}; {dest} was left untouched") from None
        try:
            install(tmp, dest, files, force)
        except OSError as e:
            why = disk_full_message(e, dest, f"cannot move the files into {dest}", _UNPACK_ROOM) if is_disk_full(e) else f"cannot move the files into {dest} ({e})"
            raise BundleError(f"bundle {bundle}: {why}; {dest} was left untouched") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # after a swap: the old tree
    return UnpackResult(dest, len(files), signed, signer)


_UNPACK_ROOM = "make room on that disk or unpack elsewhere (-C)"


def _extract(bundle: Path, tmp: Path, max_size: int, trusted: dict, required: bool, limits: Limits):
    from . import trust

    where = f"bundle {bundle}"
    manifest_bytes = None
    files: dict[str, dict] | None = None
    signature = None
    sig_checked = False
    signer = None
    seen: set[str] = set()
    index = 0

    def check_signature():
        nonlocal sig_checked, signer
        if not sig_checked:
            signer = trust.check(manifest_bytes, signature, trusted, required, where)
            sig_checked = True

    with open(bundle, "rb") as fh:
        stream = ZstdReader(fh, where, limits.manifest_max_size + (64 << 20), limits)
        scan = HeaderScan(stream, where, limits, stream.compressed)
        try:
            with tarfile.open(fileobj=scan, mode="r|", tarinfo=header_class(where), encoding="utf-8") as tf:
                for member in tf:
                    scan.agrees(member)
                    name = member.name
                    problem = _entry_problem(member)
                    if problem:
                        raise BundleError(f"{where}: entry {name!r} refused: {problem}")
                    try:
                        tarfile.data_filter(member, str(tmp))  # the stdlib's own check, as a second opinion
                    except tarfile.FilterError as e:
                        raise BundleError(f"{where}: entry {name!r} refused ({e})") from None
                    if name in seen:
                        raise BundleError(f"{where}: entry {name!r} appears twice")
                    seen.add(name)
                    index += 1
                    if index == 1:
                        manifest_bytes, files = _manifest_entry(tf, member, where, max_size, limits, stream.compressed)
                        # from here on the archive may only hold what the manifest names
                        stream.limit = stream.total + sum(f["size"] for f in files.values()) + (len(files) + 8) * 16384 + SIGNATURE_LIMIT + (1 << 20)
                        continue
                    if index == 2 and name == SIGNATURE:
                        signature = _signature_entry(tf, member, where)
                        continue
                    check_signature()
                    f = files.get(name)
                    if f is None:
                        raise BundleError(f"{where}: entry {name!r} is not named by the manifest")
                    if member.size > max_size:
                        raise BundleError(f"{where}: entry {name!r} is {member.size} bytes, over max_artifact_size ({max_size} bytes)")
                    if member.size != f["size"]:
                        raise BundleError(f"{where}: entry {name!r} is {member.size} bytes; the manifest says {f['size']}")
                    _write_member(tf, member, tmp / name, f, where)
                if manifest_bytes is None:
                    raise BundleError(f"{where}: the archive is empty (no {MANIFEST})")
                check_signature()
                missing = sorted(set(files) - seen)
                if missing:
                    raise BundleError(
                        f"{where}: entry {missing[0]!r} ({files[missing[0]]['what']}) is named by the manifest but not in the bundle"
                        + (f" ({len(missing) - 1} more missing)" if len(missing) > 1 else "")
                    )
                # the rest must be the end-of-archive padding; reading it to the end checks the frame
                while True:
                    rest = tf.fileobj.read(_CHUNK)
                    if not rest:
                        break
                    if rest.count(0) != len(rest):
                        raise BundleError(f"{where}: unexpected data after the end of the tar archive")
        except tarfile.TarError as e:
            raise BundleError(f"{where}: the archive is corrupt or truncated ({e})") from None
        except EOFError as e:
            raise BundleError(f"{where}: the archive is truncated ({e})") from None
        except (ValueError, UnicodeError, OverflowError) as e:
            raise BundleError(f"{where}: the archive is corrupt ({e})") from None
    (tmp / MANIFEST).write_bytes(manifest_bytes)
    os.chmod(tmp / MANIFEST, FILE_MODE)
    return files, signature is not None, signer


def _manifest_entry(tf: tarfile.TarFile, member: tarfile.TarInfo, where: str, max_size: int, limits: Limits, compressed: int):
    """The manifest's bytes and the files it names, refused before anything else is read if the bundle it
    describes is over a limit."""
    if member.name != MANIFEST:
        raise BundleError(f"{where}: entry {member.name!r} comes first; a bundle starts with {MANIFEST}")
    if member.size > limits.manifest_max_size:
        raise BundleError(str(over(f"{where}: entry {MANIFEST!r}", f"{member.size} bytes", "manifest_max_size", f"{limits.manifest_max_size} bytes")))
    if member.size > max_size:
        raise BundleError(f"{where}: entry {MANIFEST!r} is {member.size} bytes, over max_artifact_size ({max_size} bytes)")
    data = tf.extractfile(member).read()
    files = named_files(_parse_manifest(data, where, limits), where, max_size)
    check_entries(where, 1 + len(files), limits)
    total = len(data) + sum(f["size"] for f in files.values())
    check_total(where, total, limits)
    check_ratio(where, total, compressed, limits)
    return data, files


def _signature_entry(tf: tarfile.TarFile, member: tarfile.TarInfo, where: str) -> dict:
    if member.size > SIGNATURE_LIMIT:
        raise BundleError(f"{where}: entry {member.name!r} is {member.size} bytes, too large for a signature")
    try:
        signature = json.loads(tf.extractfile(member).read())
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BundleError(f"{where}: entry {member.name!r} is not valid JSON") from None
    if not isinstance(signature, dict) or not signature:
        raise BundleError(f"{where}: entry {member.name!r} is not a signature")
    return signature


def _write_member(tf: tarfile.TarFile, member: tarfile.TarInfo, target: Path, f: dict, where: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    src = tf.extractfile(member)
    h, n = hashlib.sha256(), 0
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
    with os.fdopen(fd, "wb") as out:
        while True:
            block = src.read(_CHUNK)
            if not block:
                break
            h.update(block)
            n += len(block)
            out.write(block)
        out.flush()
        os.fsync(out.fileno())
    if n != f["size"]:
        raise BundleError(f"{where}: entry {member.name!r} is truncated ({n} of {f['size']} bytes)")
    if h.hexdigest() != f["sha256"]:
        raise BundleError(
            f"{where}: entry {member.name!r} ({f['what']}) does not match the manifest: sha256 {h.hexdigest()[:16]}..., expected {f['sha256'][:16]}..."
        )
