"""Reading the ``.npz`` files ``npubuild run`` is given and writing the one it
produces, for files that may come from someone else.

Reading: the file must be a regular file (a FIFO is refused without blocking),
a zip of ``.npy`` members, each with a plain dtype (never objects: no pickle),
and each member's header must claim exactly the bytes the member holds and no
more than ``limits.max_input_bytes`` before NumPy allocates anything: a member
that claims 4e12 elements is refused from its header.

Writing: only onto a regular file or a new name, through a temporary file in
the same directory and a rename, so a device, FIFO or directory at the path is
never written through and a killed run leaves the old file whole.

bf16 (``ml_dtypes.bfloat16``): NumPy has no bf16 in the .npy format and saves
an ml_dtypes array as 2-byte void (``|V2``), which loses what it was. So a bf16
array ``y`` is written as the member ``y.bf16.npy`` holding its bit patterns as
``uint16`` (``np.load(f)["y.bf16"].view(ml_dtypes.bfloat16)`` gets it back), and
read back from such a member as bf16 named ``y``. A ``|V2`` member (what
``numpy.savez`` writes for a bfloat16 array) is read as bf16 too: it is the only
2-byte void NumPy writes for ml_dtypes.
"""
from __future__ import annotations

import math
import os
import stat
import zipfile
import zlib
from pathlib import Path

from ..core.constants import numpy_dtype
from ..core.errors import UserError
from ..core.fsio import atomic_writer, open_regular
from ..core.limits import Limits
from ..ops.lazy_numpy import np

_MAX_MEMBERS = 4096  # arrays in one inputs/params file
BF16_SUFFIX = ".bf16"  # member name suffix (before .npy) of a bf16 array stored as uint16 bit patterns


def _open_regular(path: Path, what: str):
    try:
        return open_regular(path)
    except ValueError:
        raise UserError(f"{what} file {path} is not a regular file (a directory, FIFO or device); give a .npz file") from None
    except OSError as e:
        raise UserError(f"cannot read {what} file {path}: {e.strerror or e}") from None


def _member(z: zipfile.ZipFile, info: zipfile.ZipInfo, where: str, limits: Limits):
    if info.file_size > limits.max_input_bytes + (1 << 16):
        raise UserError(f"{where} is {info.file_size} bytes, over the limit of {limits.max_input_bytes} (limits.max_input_bytes)")
    with z.open(info) as f:
        return _parse_npy(f, info.file_size, info.filename, where, limits, "member")


def read_npy(path, what: str, limits: Limits = Limits()):
    """One array of a .npy file (``npubuild run --input x=@x.npy``), checked as an .npz member is."""
    path = Path(path)
    with _open_regular(path, what) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limits.max_input_bytes + (1 << 16):
            raise UserError(f"{what} file {path} is {size} bytes, over the limit of {limits.max_input_bytes} (limits.max_input_bytes)")
        return _parse_npy(f, size, path.name, f"{what} file {path}", limits)


def _parse_npy(f, file_size: int, filename: str, where: str, limits: Limits, holder: str = "file"):
    """The array of the .npy bytes ``f`` holds (``file_size`` in all): a numeric or bool dtype (bf16 as
    written by :func:`write_npz`), at most ``limits.max_input_bytes``, exactly as long as its header says."""
    from numpy.lib import format as npy_format

    try:
        version = npy_format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = npy_format.read_array_header_1_0(f)
        else:
            shape, fortran, dtype = npy_format.read_array_header_2_0(f)
    except (ValueError, SyntaxError, EOFError) as e:
        raise UserError(f"{where} is not a .npy array ({e})") from None
    bf16_bits = _bf16_bits(filename, dtype)
    void_bf16 = dtype.kind == "V" and dtype.itemsize == 2 and dtype.fields is None
    if (dtype.hasobject or dtype.kind not in "biufc") and not void_bf16:
        raise UserError(f"{where} has dtype {dtype}; inputs are numeric or bool arrays (object and string arrays are refused)")
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes > limits.max_input_bytes:
        raise UserError(f"{where} claims {nbytes} bytes, over the limit of {limits.max_input_bytes} (limits.max_input_bytes)")
    if file_size - f.tell() != nbytes:
        raise UserError(f"{where}: its header says {nbytes} bytes of data but the {holder} holds {file_size - f.tell()}")
    data = f.read(nbytes)
    arr = np.frombuffer(data, dtype=dtype)
    if bf16_bits or void_bf16:
        arr = arr.view(numpy_dtype("bf16"))
    return arr.reshape(shape, order="F" if fortran else "C").copy()


def read_npz(path, what: str, limits: Limits = Limits()) -> dict:
    """name -> array of an inputs/params file; one UserError for anything else."""
    path = Path(path)
    with _open_regular(path, what) as f:
        if not zipfile.is_zipfile(f):
            f.seek(0)
            if f.read(6) == b"\x93NUMPY":
                raise UserError(f"{what} file {path} is a single .npy array; {what} need a .npz with one array per name (numpy.savez)")
            raise UserError(f"cannot read {what} file {path}: not a .npz (zip) file; write it with numpy.savez")
        f.seek(0)
        try:
            with zipfile.ZipFile(f) as z:
                infos = z.infolist()
                if len(infos) > _MAX_MEMBERS:
                    raise UserError(f"{what} file {path} has {len(infos)} arrays; at most {_MAX_MEMBERS}")
                out = {}
                for info in infos:
                    name = info.filename.removesuffix(".npy")
                    if not info.filename.endswith(".npy") or not name:
                        raise UserError(f"{what} file {path}: member {info.filename!r} is not a .npy array")
                    if name in out:
                        raise UserError(f"{what} file {path} holds '{name}' twice")
                    arr = _member(z, info, f"{what} file {path}: array '{name}'", limits)
                    if str(arr.dtype) == "bfloat16":
                        name = name.removesuffix(BF16_SUFFIX)
                        if name in out:
                            raise UserError(f"{what} file {path} holds '{name}' twice")
                    out[name] = arr
                return out
        # zipfile raises NotImplementedError for a compression method it lacks
        except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as e:
            raise UserError(f"cannot read {what} file {path}: a damaged .npz ({e}); write it again with numpy.savez") from None


def write_npz(path, arrays: dict) -> None:
    """Write ``arrays`` as a .npz at ``path``: a regular file or a new name only."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UserError(f"{path} exists and is not a regular file (a directory, link, FIFO or device); give a file name for -o")
    if not path.parent.is_dir():
        raise UserError(f"cannot write {path}: its directory {path.parent} does not exist")
    try:
        with atomic_writer(path, kind="out") as f:
            np.savez(f, **{_member_name(k, v): _stored(v) for k, v in arrays.items()})
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None


def _bf16_bits(member: str, dtype) -> bool:
    """A ``<name>.bf16.npy`` member of uint16: bf16 bit patterns (no graph tensor is uint16,
    so a tensor whose own name ends in ``.bf16`` is not mistaken for one)."""
    return member.endswith(BF16_SUFFIX + ".npy") and dtype == np.dtype("<u2")


def _is_bf16(arr) -> bool:
    return str(getattr(arr, "dtype", "")) == "bfloat16"


def _member_name(name: str, arr) -> str:
    return name + BF16_SUFFIX if _is_bf16(arr) else name


def _stored(arr):
    """What goes into the .npy: bf16 as its uint16 bit patterns (see the module docstring)."""
    return np.asarray(arr).view(np.uint16) if _is_bf16(arr) else arr
