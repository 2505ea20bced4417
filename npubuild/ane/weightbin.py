"""Core ML ``weight.bin`` blob storage (version 2) and raw blob files.

Layout of a version-2 file (all little-endian)::

    storage_header  (64 B): uint32 count; uint32 version = 2; uint64 reserved[7]
    per blob, starting on a 64-byte boundary:
    blob_metadata   (64 B): uint32 sentinel = 0xDEADBEEF; uint32 mil_dtype;
                            uint64 sizeInBytes; uint64 offset (absolute data offset);
                            uint64 padding_size_in_bits; uint64 reserved[4]
    data            (sizeInBytes B, right after its metadata)

A MIL ``BLOBFILE(path = ..., offset = N)`` names the metadata record, so the
first blob of a file is at offset 64.

Sub-byte dtypes (int4, uint1, uint2, uint3, uint4, uint6; codes 8-13) are
packed least significant bit first, value after value across byte boundaries,
in ``ceil(n * bits / 8)`` bytes; ``padding_size_in_bits`` is the number of
unused high bits of the last byte. That is what coremltools'
``libmilstoragepython`` ``_BlobStorageWriter.write_int4_data`` ... writes (the
dtype -> writer mapping is ``_get_offset_by_writing_data`` in
``coremltools/converters/mil/backend/mil/helper.py``; the packing order is
``pack_elements_into_bits`` in ``coremltools/optimize/_utils.py``). Read
values are held unpacked in NumPy int8 (int4) or uint8 (uint1..6).

:func:`read_blob` also accepts *raw* blob files (plain little-endian element
data, no header), where the BLOBFILE offset is the byte offset of the data.
A file is taken to be a weight file when its header says version 2 (with zero
reserved words) *or* a metadata sentinel sits at byte 64 (where every weight
file has its first record); such a file must then be a sound version-2 file
(version 2, the sentinel at 64, every requested offset a metadata record whose
data lies after it and inside the file), else it is refused, never read as raw
data. Files are read whole with :func:`npubuild.core.fsio.read_regular` under a size
bound: FIFOs, devices and directories are refused before a byte is read.
"""
from __future__ import annotations

import math
import os
import stat
import struct
from pathlib import Path

from ..core.errors import UserError
from ..ops.lazy_numpy import np

#: MIL blob data type codes (MILBlob ``BlobDataType``).
MIL_DTYPES: dict[str, int] = {
    "fp16": 1,
    "fp32": 2,
    "uint8": 3,
    "int8": 4,
    "bf16": 5,
    "int16": 6,
    "uint16": 7,
    "int4": 8,
    "uint1": 9,
    "uint2": 10,
    "uint4": 11,
    "uint3": 12,
    "uint6": 13,
    "int32": 14,
    "uint32": 15,
    "fp8e4m3fn": 16,
    "fp8e5m2": 17,
}
_CODE_NAMES = {code: name for name, code in MIL_DTYPES.items()}

#: MIL dtype name -> little-endian NumPy dtype string, for the byte-sized types
#: that can be read and written (sub-byte, bf16 and fp8 blobs are refused).
NUMPY_DTYPES: dict[str, str] = {
    "fp16": "<f2",
    "fp32": "<f4",
    "uint8": "u1",
    "int8": "i1",
    "int16": "<i2",
    "uint16": "<u2",
    "int32": "<i4",
    "uint32": "<u4",
}

#: sub-byte MIL dtypes -> (bits per value, signed)
SUB_BYTE: dict[str, tuple[int, bool]] = {
    "int4": (4, True), "uint1": (1, False), "uint2": (2, False),
    "uint3": (3, False), "uint4": (4, False), "uint6": (6, False),
}

VERSION = 2
SENTINEL = 0xDEADBEEF
ALIGN = 64
_HEADER = struct.Struct("<II7Q")  # 64 bytes
_META = struct.Struct("<IIQQQ4Q")  # 64 bytes
assert _HEADER.size == ALIGN and _META.size == ALIGN


class WeightBinError(UserError):
    """A blob file is missing, truncated or does not hold what the MIL declares."""


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def packed_size(dtype: str, count: int) -> int:
    """Bytes that ``count`` values of a sub-byte ``dtype`` take when packed."""
    return (count * SUB_BYTE[dtype][0] + 7) // 8


def _group(bits: int) -> tuple[int, int]:
    """(bytes, values) of the smallest run of whole bytes holding whole values:
    1 byte for 1/2/4-bit values, 3 bytes (24 bits) for 3- and 6-bit ones."""
    nbytes = bits // math.gcd(8, bits)  # lcm(8, bits) / 8
    return nbytes, nbytes * 8 // bits


def unpack_bits(data, dtype: str, count: int):
    """``count`` values of sub-byte ``dtype`` from packed bytes (LSB first), as int8 / uint8."""
    bits, signed = SUB_BYTE[dtype]
    gbytes, per = _group(bits)
    raw = np.frombuffer(data, dtype=np.uint8, count=packed_size(dtype, count))
    ngroups = -(-count // per)
    padded = np.zeros(ngroups * gbytes, dtype=np.uint8)
    padded[: raw.size] = raw
    groups = padded.reshape(ngroups, gbytes).astype(np.uint32)
    word = sum(groups[:, i] << np.uint32(8 * i) for i in range(gbytes))  # the group as one little-endian integer
    vals = (word[:, None] >> (np.arange(per, dtype=np.uint32) * bits)) & np.uint32((1 << bits) - 1)
    vals = vals.reshape(-1)[:count]
    if signed:  # two's complement in ``bits`` bits
        return np.where(vals >= 1 << (bits - 1), vals.astype(np.int16) - (1 << bits), vals).astype(np.int8)
    return vals.astype(np.uint8)


def pack_bits(values, dtype: str) -> bytes:
    """Values of sub-byte ``dtype`` packed LSB first (the inverse of :func:`unpack_bits`)."""
    bits, signed = SUB_BYTE[dtype]
    v = np.asarray(values).reshape(-1).astype(np.int64)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if v.size and (v.min() < lo or v.max() > hi):
        raise WeightBinError(f"cannot store values outside [{lo}, {hi}] as {dtype}")
    gbytes, per = _group(bits)
    ngroups = -(-v.size // per)
    u = np.zeros(ngroups * per, dtype=np.uint32)
    u[: v.size] = v & ((1 << bits) - 1)
    word = (u.reshape(ngroups, per) << (np.arange(per, dtype=np.uint32) * bits)).sum(axis=1, dtype=np.uint32)
    out = np.stack([(word >> np.uint32(8 * i)) & np.uint32(0xFF) for i in range(gbytes)], axis=1).astype(np.uint8)
    return out.tobytes()[: packed_size(dtype, v.size)]


def mil_dtype_of(arr) -> str:
    """The MIL dtype name of a NumPy array that can be stored as a blob."""
    dt = np.dtype(arr.dtype)
    for name, code in NUMPY_DTYPES.items():
        if np.dtype(code).kind == dt.kind and np.dtype(code).itemsize == dt.itemsize:
            return name
    raise WeightBinError(
        f"cannot store a {dt} array in weight.bin (supported: {', '.join(NUMPY_DTYPES)})"
    )


def write_weight_bin(blobs) -> tuple[bytes, list[int]]:
    """Serialise arrays as a version-2 weight file.

    A blob is an array (its MIL dtype from the NumPy dtype) or ``(values,
    dtype)`` for a sub-byte dtype (``(q, "int4")``), packed as coremltools packs it.
    Returns the file bytes and, per blob, the offset of its metadata record
    (the value a MIL ``BLOBFILE`` offset names). Each metadata record and each
    data block start on a 64-byte boundary; padding bytes are zero, so equal
    inputs give equal bytes.
    """
    out = bytearray(_HEADER.pack(len(blobs), VERSION, *([0] * 7)))
    offsets: list[int] = []
    for blob in blobs:
        pad_bits = 0
        if isinstance(blob, tuple):
            values, name = blob
            if name not in SUB_BYTE:
                raise WeightBinError(f"(values, dtype) blobs are for sub-byte dtypes ({', '.join(SUB_BYTE)}), not {name!r}")
            count = int(np.size(values))
            data = pack_bits(values, name)
            pad_bits = len(data) * 8 - count * SUB_BYTE[name][0]
        else:
            arr = np.asarray(blob)
            name = mil_dtype_of(arr)
            data = np.ascontiguousarray(arr, dtype=np.dtype(NUMPY_DTYPES[name])).tobytes()
        meta_off = _align(len(out))
        out.extend(b"\0" * (meta_off - len(out)))
        data_off = meta_off + _META.size
        out.extend(_META.pack(SENTINEL, MIL_DTYPES[name], len(data), data_off, pad_bits, 0, 0, 0, 0))
        out.extend(data)
        offsets.append(meta_off)
    return bytes(out), offsets


def write_weight_file(path, blobs) -> list[int]:
    """Write :func:`write_weight_bin` output to ``path``; returns the blob offsets."""
    from ..core.fsio import atomic_write_bytes

    data, offsets = write_weight_bin(blobs)
    atomic_write_bytes(Path(path), data)
    return offsets


#: the largest blob file read when the caller gives no bound (Config.max_artifact_size's default)
DEFAULT_MAX_FILE = 1 << 30


def read_file(path, max_size: int = DEFAULT_MAX_FILE, roots=None, limit_key: str = "") -> bytes:
    """A blob file's bytes: a regular file of at most ``max_size`` bytes inside ``roots`` (when given).

    A FIFO, device, socket or directory is refused before anything is read, so a
    hostile path cannot block the build or stream a device into the artifacts.
    ``limit_key`` names the setting behind ``max_size`` in the message.
    """
    from ..core.fsio import read_regular

    try:
        return read_regular(Path(path), max_size, roots)
    except FileNotFoundError:
        raise WeightBinError(f"weight file not found: {path}") from None
    except ValueError as e:
        hint = f" ({limit_key})" if limit_key and "over the limit" in str(e) else ""
        raise WeightBinError(f"cannot read weight file: {e}{hint}") from None
    except OSError as e:
        if not _regular_or_missing(path):  # a socket cannot even be opened: say what it is, not ENXIO
            raise WeightBinError(f"cannot read weight file: {path} is not a regular file (a directory, FIFO, socket or device)") from None
        raise WeightBinError(f"cannot read weight file {path}: {e.strerror or e}") from None


def _regular_or_missing(path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return True


def _is_v2(data: bytes, path) -> bool:
    """Whether ``data`` is a version-2 weight file; a damaged weight-file header is an error.

    A file looks like a weight file when its header says version 2 with zero
    reserved words, or a metadata sentinel sits at byte 64 (where every weight
    file has its first record); raw blob data is everything else.
    """
    if len(data) < ALIGN:
        return False
    _count, version, *reserved = _HEADER.unpack_from(data, 0)
    has_record = len(data) >= 2 * ALIGN and _META.unpack_from(data, ALIGN)[0] == SENTINEL
    if not has_record and not (version == VERSION and not any(reserved)):
        return False
    if version != VERSION:
        raise WeightBinError(f"weight file {path} has version {version} in its header; only version {VERSION} is read")
    if not has_record:
        found = _META.unpack_from(data, ALIGN)[0] if len(data) >= 2 * ALIGN else None
        what = f"found 0x{found:08X}" if found is not None else f"the file has only {len(data)} bytes"
        raise WeightBinError(
            f"weight file {path} has a version-2 header but no blob metadata sentinel at byte {ALIGN} "
            f"({what}, expected 0x{SENTINEL:08X}): the file is damaged"
        )
    return True


def _byte_count(dtype: str, shape) -> int:
    if dtype not in NUMPY_DTYPES and dtype not in SUB_BYTE:
        raise WeightBinError(
            f"blob dtype {dtype!r} is not supported (supported: {', '.join([*NUMPY_DTYPES, *SUB_BYTE])})"
        )
    count = 1
    for d in shape:
        if d < 0:
            raise WeightBinError(f"blob shape {list(shape)} has an unknown dimension")
        count *= d
    if dtype in SUB_BYTE:
        return packed_size(dtype, count)
    return count * np.dtype(NUMPY_DTYPES[dtype]).itemsize


def _v2_data_start(data: bytes, path, offset: int, dtype: str, shape, want: int) -> int:
    """Where the blob the metadata record at ``offset`` describes starts, after checking the record."""
    size = len(data)
    if offset + _META.size > size:
        raise WeightBinError(f"offset {offset} is past the end of weight file {path} ({size} bytes)")
    sentinel, code, nbytes, data_off, pad, *_ = _META.unpack_from(data, offset)
    if sentinel != SENTINEL:
        raise WeightBinError(
            f"no blob metadata at offset {offset} in version-2 weight file {path} "
            f"(found 0x{sentinel:08X}, expected sentinel 0x{SENTINEL:08X}); "
            f"a BLOBFILE offset names a 64-byte metadata record, the first is at {ALIGN}"
        )
    if code != MIL_DTYPES[dtype]:
        have = _CODE_NAMES.get(code, "unknown")
        raise WeightBinError(
            f"Metadata data type does not match requested type: blob at offset {offset} "
            f"in {path} holds {have} (code {code}), the MIL declares {dtype} "
            f"(code {MIL_DTYPES[dtype]})"
        )
    if nbytes != want:
        raise WeightBinError(
            f"blob at offset {offset} in {path} holds {nbytes} bytes, "
            f"but {dtype} {list(shape)} needs {want}"
        )
    if dtype in SUB_BYTE and pad != nbytes * 8 - _count(shape) * SUB_BYTE[dtype][0]:
        # the padding says how many values the last byte holds (coremltools' reader counts by it)
        bits = nbytes * 8 - pad
        held = f"{bits // SUB_BYTE[dtype][0]} {dtype} values" if 0 <= bits and bits % SUB_BYTE[dtype][0] == 0 else "no whole number of values"
        raise WeightBinError(
            f"blob at offset {offset} in {path} has {pad} padding bits, so it holds {held}, "
            f"but {dtype} {list(shape)} has {_count(shape)}"
        )
    if data_off < offset + _META.size:  # the data would overlap the header or its own record
        raise WeightBinError(
            f"blob at offset {offset} in weight file {path} says its data starts at byte {data_off}, "
            f"inside the header or its own metadata record (the data follows the record, at {offset + _META.size} or later)"
        )
    if data_off + nbytes > size:
        raise WeightBinError(
            f"weight file {path} is truncated: blob at offset {offset} needs bytes "
            f"{data_off}..{data_off + nbytes} but the file has {size}"
        )
    return data_off


def blob_from_bytes(data: bytes, path, offset: int, dtype: str, shape, copy: bool = True):
    """One blob of a weight file's bytes (see :func:`read_blob`); ``copy=False`` returns a
    read-only view of ``data`` where the byte order allows."""
    shape = tuple(int(d) for d in shape)
    want = _byte_count(dtype, shape)
    if offset < 0:
        raise WeightBinError(f"negative blob offset {offset} in {path}")
    if _is_v2(data, path):
        start = _v2_data_start(data, path, offset, dtype, shape, want)
    else:
        if offset + want > len(data):
            raise WeightBinError(
                f"blob file {path} is truncated: {dtype} {list(shape)} needs {want} bytes "
                f"at offset {offset} but the file has {len(data)}"
            )
        start = offset
    if dtype in SUB_BYTE:
        return unpack_bits(memoryview(data)[start:start + want], dtype, _count(shape)).reshape(shape)
    npdt = np.dtype(NUMPY_DTYPES[dtype])
    arr = np.frombuffer(data, dtype=npdt, count=want // npdt.itemsize, offset=start).reshape(shape)
    return arr.astype(npdt.newbyteorder("="), copy=copy)


def _count(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def read_blob(path, offset: int, dtype: str, shape, max_size: int = DEFAULT_MAX_FILE, roots=None):
    """Read one blob as a NumPy array of ``dtype`` (a MIL dtype name) and ``shape``.

    In a version-2 weight file ``offset`` must name a metadata record whose
    dtype code and size match the request; any other file is read as raw
    little-endian data starting at byte ``offset``. The file is read with
    :func:`read_file` (``max_size``, ``roots``).
    """
    _byte_count(dtype, shape)
    return blob_from_bytes(read_file(path, max_size, roots), path, offset, dtype, shape)
