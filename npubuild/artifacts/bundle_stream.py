"""The stream a bundle is read from: bounded zstd decompression, then a scan of
every tar header before :mod:`tarfile` parses it.

CPython 3.11's ``tarfile`` believes what it reads: it reads a PAX or GNU
long-name header of any size whole and parses PAX records with regular
expressions that take quadratic time on long runs of digits (CVE-2024-6232:
a 173-byte bundle keeps it busy for minutes), and it takes a member's size on
trust. So the decompressed bytes pass through :class:`HeaderScan` on their way
to ``tarfile``: each 512-byte header block is parsed with ``tarfile``'s own
``frombuf`` and each extended header with a strict parser of our own, and
whatever ``tarfile`` should not see is refused before it reads it. The scan
follows the archive exactly as ``tarfile`` 3.11 does (which header starts
where); anything where the two could disagree (two PAX headers for one
entry, a global PAX header setting ``size``, a malformed record, non-zero
padding) is refused rather than interpreted.
"""
from __future__ import annotations

import os
import re
import tarfile
from collections import deque

from ..core.errors import VerifyError
from ..core.limits import Limits, over

BLOCK = tarfile.BLOCKSIZE
_CHUNK = 1 << 20
_ZSTD_INPUT = 1 << 10  # compressed bytes fed per step: bounds the output of one step (~32 MiB at most)
_EXTENDED = {
    tarfile.XHDTYPE: "PAX",
    tarfile.SOLARIS_XHDTYPE: "PAX",
    tarfile.XGLTYPE: "global PAX",
    tarfile.GNUTYPE_LONGNAME: "GNU long-name",
    tarfile.GNUTYPE_LONGLINK: "GNU long-link",
}
# tarfile's hdrcharset search costs the square of the longest run of digits in a PAX header;
# no field needs more than 64 (a sha256 in hex is 64 characters long)
_MAX_DIGITS = 64
_DIGIT_RUN = re.compile(rb"[0-9]{%d}" % (_MAX_DIGITS + 1))
# tarfile parses each record in Python (microseconds each): a header of thousands of tiny records per entry adds
# up to minutes; writers put a handful in one (path, size, times, ids, names)
_MAX_RECORDS = 64
# a restriction of tarfile's own record pattern (r"(\d+) ([^=]+)="), so every record we accept it reads the same way
_RECORD = re.compile(rb"([0-9]{1,20}) ([^=\n]+)=")
_NUMBER = re.compile(rb"[0-9]{1,20}")
_SPARSE_KEY = b"GNU.sparse."


class BundleError(VerifyError):
    """A bundle that cannot be packed or is refused on unpack."""


def zstd():
    try:
        import zstandard
    except ImportError:
        raise BundleError("bundles need zstandard: pip install zstandard") from None
    return zstandard


def _over(what: str, value, key: str, limit) -> BundleError:
    return BundleError(str(over(what, value, key, limit)))


def check_entries(where: str, entries: int, limits: Limits) -> None:
    if entries > limits.bundle_max_entries:
        raise _over(f"{where}: the entry count", entries, "bundle_max_entries", limits.bundle_max_entries)


def check_total(where: str, total: int, limits: Limits) -> None:
    if total > limits.bundle_max_total_size:
        raise _over(f"{where}: the unpacked size", f"{total} bytes", "bundle_max_total_size", f"{limits.bundle_max_total_size} bytes")


def check_ratio(where: str, unpacked: int, compressed: int, limits: Limits) -> None:
    if unpacked > limits.bundle_max_ratio * compressed:
        raise _over(
            f"{where}: the ratio of unpacked to compressed bytes ({unpacked} to {compressed})",
            unpacked // max(compressed, 1), "bundle_max_ratio", limits.bundle_max_ratio,
        )


def _corrupt(where: str, why: str) -> BundleError:
    return BundleError(f"{where}: the archive is corrupt ({why})")


class ZstdReader:
    """A bounded, streaming reader over one zstd frame that notices truncation.

    Compressed input is fed in small steps so a highly compressible frame
    cannot expand into memory all at once; ``limit`` caps the total
    decompressed bytes, and so does ``bundle_max_ratio`` times the size of the
    file; a frame that ends early, a bad checksum and data after the frame are
    errors.
    """

    def __init__(self, fh, where: str, limit: int, limits: Limits):
        self.fh, self.where, self.limit, self.limits = fh, where, limit, limits
        self.compressed = os.fstat(fh.fileno()).st_size
        self.obj = zstd().ZstdDecompressor().decompressobj()
        self.buf = b""
        self.pos = 0
        self.total = 0  # bytes decompressed
        self.delivered = 0  # bytes handed on
        self.done = False

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = _CHUNK
        while self.pos >= len(self.buf) and not self.done:
            self._fill()
        out = self.buf[self.pos : self.pos + size]
        self.pos += len(out)
        # counted as handed on rather than as decompressed, so that the header scan, whose message is more
        # precise, sees a bundle's first headers before a highly compressed one is refused for its ratio
        self.delivered += len(out)
        check_ratio(self.where, self.delivered, self.compressed, self.limits)
        return out

    def _fill(self) -> None:
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
        except zstd().ZstdError as e:
            raise BundleError(f"{self.where}: the archive is corrupt ({e})") from None
        self.pos = 0
        self.total += len(self.buf)
        if self.total > self.limit:
            raise BundleError(f"{self.where}: the archive expands to more data than its manifest names; refusing it")
        if self.obj.eof and (self.obj.unused_data or self.fh.read(1)):
            raise BundleError(f"{self.where}: unexpected data after the end of the compressed archive")


def header_class(where: str):
    """tarfile's TarInfo with its header errors turned into one message naming the bundle."""

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
                raise _corrupt(where, f"bad tar header: {e}") from None

    return Header


def _padded(size: int) -> int:
    return -(-size // BLOCK) * BLOCK


def pax_records(body: bytes, where: str) -> dict[bytes, bytes]:
    """The keyword -> value records of one PAX header, parsed strictly (tarfile 3.11 reads them the same way)."""
    if _DIGIT_RUN.search(body):
        raise BundleError(f"{where}: a PAX header holds a number of more than {_MAX_DIGITS} digits; refusing it")
    records, pos, count = {}, 0, 0
    while pos < len(body):
        m = _RECORD.match(body, pos)
        end = pos + int(m.group(1)) if m else 0
        if not m or end > len(body) or m.end() >= end or body[end - 1] != 0x0A:
            raise _corrupt(where, f"malformed PAX record at byte {pos} of its header")
        records[m.group(2)] = body[m.end() : end - 1]
        pos = end
        count += 1
        if count > _MAX_RECORDS:
            raise BundleError(f"{where}: a PAX header holds more than {_MAX_RECORDS} records; refusing it")
    return records


class HeaderScan:
    """A reader that checks every tar header of the stream it passes on, before its reader (tarfile) gets it.

    Member data is passed on unread; header blocks and extended-header data
    are gathered (at most ``bundle_max_header_size`` bytes) and checked: sizes
    against the limits, no sparse members, well-formed PAX records. It counts
    the entries and the bytes they declare against ``bundle_max_entries``,
    ``bundle_max_total_size`` and ``bundle_max_ratio`` as each header goes by,
    before any data is extracted.
    """

    def __init__(self, raw, where: str, limits: Limits, compressed: int):
        self.raw, self.where, self.limits, self.compressed = raw, where, limits, compressed
        self.pos = 0  # offset in the tar stream of the next byte read
        self.skip_to = 0  # member data runs up to here
        self.want = BLOCK  # bytes to gather next: a header block, or an extended header's data
        self.gathered = bytearray()
        self.extended: tarfile.TarInfo | None = None  # the extended header whose data is being gathered
        self.pending: dict[bytes, object] = {}  # extended headers read for the entry to come
        self.entries = self.total = 0
        self.data_at: deque[int] = deque()  # where each entry's data starts, to check tarfile agrees
        self.ended = False

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self._scan(memoryview(data))
        return data

    def agrees(self, member: tarfile.TarInfo) -> None:
        """Refuse the archive if tarfile found ``member``'s data elsewhere than this scan did."""
        if not self.data_at or self.data_at.popleft() != member.offset_data:
            raise _corrupt(self.where, "its tar headers could not be followed")

    def _scan(self, data: memoryview) -> None:
        i = 0
        while i < len(data) and not self.ended:
            if self.pos < self.skip_to:
                step = min(self.skip_to - self.pos, len(data) - i)
            else:
                step = min(self.want - len(self.gathered), len(data) - i)
                self.gathered += data[i : i + step]
            i += step
            self.pos += step
            if self.pos >= self.skip_to and len(self.gathered) == self.want:
                done, self.gathered = bytes(self.gathered), bytearray()
                if self.extended is not None:
                    self._extended_data(done)
                else:
                    self._header(done)

    def _header(self, block: bytes) -> None:
        try:
            ti = tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
        except tarfile.EOFHeaderError:
            self.ended = True  # tarfile stops at the first zero block; the rest is checked as padding
            return
        except tarfile.HeaderError as e:
            raise _corrupt(self.where, f"bad tar header: {e}") from None
        if ti.size < 0:
            raise _corrupt(self.where, f"negative size in the tar header of {ti.name!r}")
        if ti.type in _EXTENDED:
            self._extended_header(ti)
        else:
            self._member(ti)

    def _extended_header(self, ti: tarfile.TarInfo) -> None:
        limit = self.limits.bundle_max_header_size
        if ti.size > limit:
            raise _over(f"{self.where}: a {_EXTENDED[ti.type]} header", f"{ti.size} bytes", "bundle_max_header_size", f"{limit} bytes")
        key = tarfile.XHDTYPE if ti.type == tarfile.SOLARIS_XHDTYPE else ti.type
        if key != tarfile.XGLTYPE and key in self.pending:
            raise _corrupt(self.where, f"two {_EXTENDED[ti.type]} headers for one entry")
        self.extended, self.want = ti, _padded(ti.size)
        if self.want == 0:
            self._extended_data(b"")

    def _extended_data(self, data: bytes) -> None:
        ti, self.extended, self.want = self.extended, None, BLOCK
        body = data[: ti.size]
        if ti.type in (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK):
            self.pending[ti.type] = body.split(b"\0", 1)[0]
            return
        if data[ti.size :].count(0) != len(data) - ti.size:
            raise _corrupt(self.where, "bytes after the records of a PAX header")  # tarfile would read them as records
        records = pax_records(body, self.where)
        if ti.type == tarfile.XGLTYPE:
            if b"size" in records or any(k.startswith(_SPARSE_KEY) for k in records):
                raise _corrupt(self.where, "a global PAX header sets sizes or sparse maps")
        else:
            self.pending[tarfile.XHDTYPE] = records

    def _member(self, ti: tarfile.TarInfo) -> None:
        pax = self.pending.get(tarfile.XHDTYPE, {})
        name = os.fsdecode(pax.get(b"path") or self.pending.get(tarfile.GNUTYPE_LONGNAME) or os.fsencode(ti.name))
        self.pending = {}
        if ti.type == tarfile.GNUTYPE_SPARSE or any(k.startswith(_SPARSE_KEY) for k in pax):
            raise BundleError(f"{self.where}: entry {name!r} refused: a sparse file; bundles hold regular files only")
        size = ti.size
        if b"size" in pax:
            if not _NUMBER.fullmatch(pax[b"size"]):
                raise _corrupt(self.where, f"the PAX size of {name!r} is not a number")
            size = int(pax[b"size"])
        self.entries += 1
        check_entries(self.where, self.entries, self.limits)
        self.data_at.append(self.pos)
        if ti.type in tarfile.REGULAR_TYPES or ti.type not in tarfile.SUPPORTED_TYPES:  # tarfile skips data only for these
            self.total += size
            check_total(self.where, self.total, self.limits)
            check_ratio(self.where, self.total, self.compressed, self.limits)
            self.skip_to = self.pos + _padded(size)
