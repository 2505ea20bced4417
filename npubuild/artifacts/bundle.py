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

Unpacking streams the archive (nothing is read whole into memory), extracts into
a temporary directory beside the destination, checks every entry against the
manifest (names, types, sizes, sha256) and the signature, and only then moves
the files into place.
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

from ..errors import VerifyError
from ..fsio import TMP_PREFIX
from .manifest import MANIFEST, SCHEMA, manifest_files

SIGNATURE = "signature.json"
RESERVED = (MANIFEST, SIGNATURE)
TAR_FORMAT = tarfile.PAX_FORMAT
ZSTD_LEVEL = 3
ZSTD_LEVELS = range(1, 20)
FILE_MODE = 0o644
MANIFEST_LIMIT = 64 << 20  # largest manifest.json accepted
SIGNATURE_LIMIT = 64 << 10  # largest signature.json accepted
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 20
_ZSTD_INPUT = 1 << 10  # compressed bytes fed per step: bounds the output of one step (~32 MiB at most)


def _tmp_prefix(kind: str) -> str:
    """Temporary names carry the writer's process id (``.npb-tmp-<pid>-<kind>-``) so cleaners can tell abandoned ones."""
    return f"{TMP_PREFIX}{os.getpid()}-{kind}-"


class BundleError(VerifyError):
    """A bundle that cannot be packed or is refused on unpack."""


def _zstd():
    try:
        import zstandard
    except ImportError:
        raise BundleError("bundles need zstandard: pip install zstandard") from None
    return zstandard


# ---------------------------------------------------------------- the manifest


def _parse_manifest(data: bytes, where: str) -> dict:
    try:
        m = json.loads(data)
    except (UnicodeDecodeError, ValueError) as e:
        raise BundleError(f"{where}: manifest.json is not valid JSON ({e})") from None
    if not isinstance(m, dict) or m.get("schema") != SCHEMA:
        got = m.get("schema") if isinstance(m, dict) else "?"
        raise BundleError(f"{where}: manifest.json has unsupported schema {got!r} (this npubuild reads schema {SCHEMA})")
    return m


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


def _entry(name: str, size: int) -> tarfile.TarInfo:
    ti = tarfile.TarInfo(name)
    ti.size, ti.mtime, ti.mode, ti.type = size, 0, FILE_MODE, tarfile.REGTYPE
    ti.uid = ti.gid = 0
    ti.uname = ti.gname = ""
    return ti


def pack(src: Path, out: Path, signing_key: Path | None = None, level: int = ZSTD_LEVEL) -> PackResult:
    """Write the bundle of artifact directory ``src`` to ``out`` (atomically)."""
    zstd = _zstd()
    if level not in ZSTD_LEVELS:
        raise BundleError(f"zstd level must be between {ZSTD_LEVELS.start} and {ZSTD_LEVELS.stop - 1}, got {level}")
    src = Path(src)
    mpath = src / MANIFEST
    try:
        mbytes = mpath.read_bytes()
    except FileNotFoundError:
        raise BundleError(f"{mpath} not found; run `doit build` (or point at a built artifact directory)") from None
    except OSError as e:
        raise BundleError(f"{mpath}: {e}") from None
    files = named_files(_parse_manifest(mbytes, str(mpath)), str(mpath))
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
    signature = None
    if signing_key is not None:
        from . import trust

        sig = trust.sign(mbytes, Path(signing_key))
        signature = (json.dumps(sig, sort_keys=True, indent=1) + "\n").encode()

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix("pack"), dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            cctx = zstd.ZstdCompressor(level=level, threads=0, write_checksum=True, write_content_size=False, write_dict_id=False)
            with cctx.stream_writer(fh, closefd=False) as zw:
                with tarfile.open(fileobj=zw, mode="w|", format=TAR_FORMAT, encoding="utf-8") as tf:
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
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise BundleError(f"cannot write {out}: {e}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return PackResult(out, 1 + (signature is not None) + len(sources), len(sources), out.stat().st_size, sig["key"] if signature else None)


# -------------------------------------------------------------------- unpacking


class _ZstdReader:
    """A bounded, streaming reader over one zstd frame that notices truncation.

    Compressed input is fed in small steps so a highly compressible frame
    cannot expand into memory all at once; ``limit`` caps the total
    decompressed bytes; a frame that ends early, a bad checksum and data
    after the frame are errors.
    """

    def __init__(self, fh, where: str, limit: int):
        self.fh, self.where, self.limit = fh, where, limit
        self.obj = _zstd().ZstdDecompressor().decompressobj()
        self.buf = b""
        self.pos = 0
        self.total = 0
        self.done = False

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = _CHUNK
        while self.pos >= len(self.buf) and not self.done:
            self._fill()
        out = self.buf[self.pos : self.pos + size]
        self.pos += len(out)
        return out

    def _fill(self) -> None:
        zstd = _zstd()
        chunk = self.fh.read(_ZSTD_INPUT)
        if not chunk:
            if not self.obj.eof:
                raise BundleError(f"{self.where}: the archive is truncated (the compressed stream ends early)")
            self.done = True
            self.buf, self.pos = b"", 0
            return
        if self.obj.eof:
            raise BundleError(f"{self.where}: unexpected data after the end of the compressed archive")
        try:
            self.buf = self.obj.decompress(chunk)
        except zstd.ZstdError as e:
            raise BundleError(f"{self.where}: the archive is corrupt ({e})") from None
        self.pos = 0
        self.total += len(self.buf)
        if self.total > self.limit:
            raise BundleError(f"{self.where}: the archive expands to more data than its manifest names; refusing it")
        if self.obj.eof and (self.obj.unused_data or self.fh.read(1)):
            raise BundleError(f"{self.where}: unexpected data after the end of the compressed archive")


def _header_class(where: str):
    class Header(tarfile.TarInfo):
        @classmethod
        def frombuf(cls, buf, encoding, errors):
            try:
                return super().frombuf(buf, encoding, errors)
            except tarfile.EOFHeaderError:
                raise  # a zero block: the end-of-archive marker
            except tarfile.EmptyHeaderError:
                raise BundleError(f"{where}: the archive is truncated (no end-of-archive marker)") from None
            except tarfile.HeaderError as e:
                raise BundleError(f"{where}: the archive is corrupt (bad tar header: {e})") from None

    return Header


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


def _empty_dir(d: Path) -> bool:
    with os.scandir(d) as it:
        return next(it, None) is None


def unpack(bundle: Path, dest: Path, *, max_size: int, trusted: dict, required: bool, force: bool = False) -> UnpackResult:
    """Verify bundle ``bundle`` and extract it into ``dest``.

    ``dest`` must be absent or empty unless ``force`` (then only the files the
    bundle names are replaced). On any refusal nothing in ``dest`` changes.
    """
    bundle, dest = Path(bundle), Path(os.path.abspath(dest))
    if dest.is_symlink() or dest.exists():
        dest = dest.resolve()
        if not dest.is_dir():
            raise BundleError(f"{dest} exists and is not a directory")
        if not force and not _empty_dir(dest):
            raise BundleError(f"{dest} is not empty; use --force to replace the files the bundle names")
    if not bundle.is_file():
        raise BundleError(f"{bundle}: no such bundle file")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=_tmp_prefix("unpack"), dir=dest.parent))
    from .trust import TrustError

    try:
        try:
            files, signed, signer = _extract(bundle, tmp, max_size, trusted, required)
            _check_targets(dest, files, force)
        except (BundleError, TrustError) as e:
            raise type(e)(f"{e}; {dest} was left untouched") from None
        except OSError as e:
            raise BundleError(f"bundle {bundle}: cannot extract it ({e}); {dest} was left untouched") from None
        try:
            _install(tmp, dest, files, force)
        except OSError as e:
            raise BundleError(f"bundle {bundle}: cannot move the files into {dest} ({e})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return UnpackResult(dest, len(files), signed, signer)


def _extract(bundle: Path, tmp: Path, max_size: int, trusted: dict, required: bool):
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
        stream = _ZstdReader(fh, where, limit=min(max_size, MANIFEST_LIMIT) + (64 << 20))
        try:
            with tarfile.open(fileobj=stream, mode="r|", tarinfo=_header_class(where), encoding="utf-8") as tf:
                for member in tf:
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
                        if name != MANIFEST:
                            raise BundleError(f"{where}: entry {name!r} comes first; a bundle starts with {MANIFEST}")
                        if member.size > min(max_size, MANIFEST_LIMIT):
                            raise BundleError(f"{where}: entry {name!r} is {member.size} bytes, over the {min(max_size, MANIFEST_LIMIT)} bytes a manifest may have")
                        manifest_bytes = tf.extractfile(member).read()
                        files = named_files(_parse_manifest(manifest_bytes, where), where, max_size)
                        # from here on the archive may only hold what the manifest names
                        stream.limit = stream.total + sum(f["size"] for f in files.values()) + (len(files) + 8) * 16384 + SIGNATURE_LIMIT + (1 << 20)
                        continue
                    if index == 2 and name == SIGNATURE:
                        if member.size > SIGNATURE_LIMIT:
                            raise BundleError(f"{where}: entry {name!r} is {member.size} bytes, too large for a signature")
                        try:
                            signature = json.loads(tf.extractfile(member).read())
                        except (UnicodeDecodeError, ValueError):
                            raise BundleError(f"{where}: entry {name!r} is not valid JSON") from None
                        if not isinstance(signature, dict) or not signature:
                            raise BundleError(f"{where}: entry {name!r} is not a signature")
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


def _check_targets(dest: Path, files: dict, force: bool) -> None:
    """With --force into a non-empty ``dest``: every target can be written without following a link."""
    if not dest.exists() or _empty_dir(dest):
        return
    if not force:
        raise BundleError(f"{dest} is not empty; use --force to replace the files the bundle names")
    for rel in [*sorted(files), MANIFEST]:
        parts = rel.split("/")
        p = dest
        for i, part in enumerate(parts):
            p = p / part
            last = i == len(parts) - 1
            if p.is_symlink():
                if last:
                    continue  # the link itself is replaced by the new file, never written through
                raise BundleError(f"{p} is a symbolic link; refusing to write {rel} through it")
            if p.exists() and (p.is_dir() if last else not p.is_dir()):
                raise BundleError(f"{p} is {'a directory' if last else 'not a directory'}; cannot place {rel} there")


def _install(tmp: Path, dest: Path, files: dict, force: bool) -> None:
    mode = 0o777 & ~_umask()
    os.chmod(tmp, mode)
    for d, subdirs, _ in os.walk(tmp):
        for s in subdirs:
            os.chmod(os.path.join(d, s), mode)
    if not dest.exists() or _empty_dir(dest):
        try:
            os.rename(tmp, dest)  # a new or empty directory: one atomic rename
            return
        except OSError:
            if not dest.is_dir() or _empty_dir(dest):
                raise
            _check_targets(dest, files, force)  # it filled up meanwhile
    # --force into a non-empty directory: file by file, the manifest last
    for rel in [*sorted(files), MANIFEST]:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp / rel, target)


def _umask() -> int:
    m = os.umask(0o022)
    os.umask(m)
    return m
