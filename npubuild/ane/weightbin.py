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

:func:`read_blob` also accepts *raw* blob files (plain little-endian element
data, no header), where the BLOBFILE offset is the byte offset of the data.
A file is taken to be version 2 when its header says version 2 *and* a
metadata sentinel sits at byte 64 (where every version-2 file has its first
record); in such a file every requested offset must hold a metadata record.
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

from ..errors import UserError
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

    Returns the file bytes and, per blob, the offset of its metadata record
    (the value a MIL ``BLOBFILE`` offset names). Each metadata record and each
    data block start on a 64-byte boundary; padding bytes are zero, so equal
    inputs give equal bytes.
    """
    out = bytearray(_HEADER.pack(len(blobs), VERSION, *([0] * 7)))
    offsets: list[int] = []
    for arr in blobs:
        arr = np.asarray(arr)
        name = mil_dtype_of(arr)
        data = np.ascontiguousarray(arr, dtype=np.dtype(NUMPY_DTYPES[name])).tobytes()
        meta_off = _align(len(out))
        out.extend(b"\0" * (meta_off - len(out)))
        data_off = meta_off + _META.size
        out.extend(_META.pack(SENTINEL, MIL_DTYPES[name], len(data), data_off, 0, 0, 0, 0, 0))
        out.extend(data)
        offsets.append(meta_off)
    return bytes(out), offsets


def write_weight_file(path, blobs) -> list[int]:
    """Write :func:`write_weight_bin` output to ``path``; returns the blob offsets."""
    from ..fsio import atomic_write_bytes

    data, offsets = write_weight_bin(blobs)
    atomic_write_bytes(Path(path), data)
    return offsets


def _read_at(f, offset: int, n: int) -> bytes:
    f.seek(offset)
    return f.read(n)


def _is_v2(f, size: int) -> bool:
    if size < 2 * ALIGN:
        return False
    head = _read_at(f, 0, ALIGN)
    if _HEADER.unpack(head)[1] != VERSION:
        return False
    return _META.unpack(_read_at(f, ALIGN, ALIGN))[0] == SENTINEL


def read_blob(path, offset: int, dtype: str, shape):
    """Read one blob as a NumPy array of ``dtype`` (a MIL dtype name) and ``shape``.

    In a version-2 weight file ``offset`` must name a metadata record whose
    dtype code and size match the request; any other file is read as raw
    little-endian data starting at byte ``offset``.
    """
    path = Path(path)
    shape = tuple(int(d) for d in shape)
    if dtype not in NUMPY_DTYPES:
        raise WeightBinError(
            f"blob dtype {dtype!r} is not supported (supported: {', '.join(NUMPY_DTYPES)})"
        )
    if offset < 0:
        raise WeightBinError(f"negative blob offset {offset} in {path}")
    npdt = np.dtype(NUMPY_DTYPES[dtype])
    count = 1
    for d in shape:
        if d < 0:
            raise WeightBinError(f"blob shape {list(shape)} has an unknown dimension")
        count *= d
    want = count * npdt.itemsize
    try:
        size = os.path.getsize(path)
        f = open(path, "rb")
    except FileNotFoundError:
        raise WeightBinError(f"weight file not found: {path}") from None
    except OSError as e:
        raise WeightBinError(f"cannot read weight file {path}: {e.strerror or e}") from None
    with f:
        if _is_v2(f, size):
            if offset + _META.size > size:
                raise WeightBinError(
                    f"offset {offset} is past the end of weight file {path} ({size} bytes)"
                )
            sentinel, code, nbytes, data_off, _pad, *_ = _META.unpack(_read_at(f, offset, _META.size))
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
            if data_off + nbytes > size:
                raise WeightBinError(
                    f"weight file {path} is truncated: blob at offset {offset} needs bytes "
                    f"{data_off}..{data_off + nbytes} but the file has {size}"
                )
            start = data_off
        else:
            if offset + want > size:
                raise WeightBinError(
                    f"blob file {path} is truncated: {dtype} {list(shape)} needs {want} bytes "
                    f"at offset {offset} but the file has {size}"
                )
            start = offset
        raw = _read_at(f, start, want)
    if len(raw) != want:  # the file shrank under us
        raise WeightBinError(f"short read from {path} at offset {start}")
    arr = np.frombuffer(raw, dtype=npdt).reshape(shape)
    return arr.astype(npdt.newbyteorder("="), copy=True)
