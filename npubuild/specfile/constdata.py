"""The data of a graph constant: an inline value or a ``.npy`` file, checked
before the build ever loads it.

A .npy file may come from someone else, so it is read only from inside the
project (or a configured data_dirs), only if it is a regular file, and its
header must describe exactly the bytes the file holds: a 16-byte header that
claims 4 GiB is refused here, not discovered by NumPy's allocator. Inline
values must fit their dtype (i8 1000 or i64 2**70 would wrap or overflow).
"""
from __future__ import annotations

import ast
import math
from pathlib import Path

from ..core.constants import DTYPE_BYTES
from ..core.fsio import read_regular, within_roots
from ..core.limits import Limits

# .npy dtype descriptors the specs accept (little-endian, as NumPy writes them here)
NPY_DTYPES = {"<f4": "f32", "<f2": "f16", "|i1": "i8", "|u1": "u8", "<i4": "i32", "<i8": "i64", "|b1": "bool"}
_INT_RANGE = {"i8": (-(2**7), 2**7 - 1), "u8": (0, 2**8 - 1), "i32": (-(2**31), 2**31 - 1), "i64": (-(2**63), 2**63 - 1)}
_FLOAT_MAX = {"f16": 65504.0, "f32": 3.4028234663852886e38}
_MAX_HEADER = 1 << 16  # NumPy itself refuses longer headers unless asked not to


def nested_shape(v, depth: int = 0, max_depth: int = 64):
    """The shape of a rectangular nested list of numbers, () for a number, None otherwise."""
    if isinstance(v, bool) or not isinstance(v, (int, float, list)) or depth > max_depth:
        return None
    if not isinstance(v, list):
        return ()
    if not v:
        return None
    subs = [nested_shape(x, depth + 1, max_depth) for x in v]
    if any(s is None for s in subs) or any(s != subs[0] for s in subs):
        return None
    return (len(v),) + subs[0]


def _flat(v):
    if isinstance(v, list):
        for x in v:
            yield from _flat(x)
    else:
        yield v


def value_problem(value, dtype: str) -> str | None:
    """Why an inline value does not fit ``dtype``, or None."""
    if dtype == "bf16":  # the build writes constants with NumPy's .npy, which has no bf16
        return "graph constants cannot be bf16; declare it f32 and convert it with a cast node (op: cast, to: bf16)"
    for x in _flat(value):
        if dtype == "bool":
            if x not in (0, 1) or isinstance(x, float):
                return f"{x!r} is not a bool (write true/false or 0/1)"
        elif dtype in _INT_RANGE:
            lo, hi = _INT_RANGE[dtype]
            if isinstance(x, float):
                return f"{x!r} is not an integer; {dtype} constants take integers"
            if not lo <= x <= hi:
                return f"{x} is outside the range of {dtype} ({lo} .. {hi})"
        elif isinstance(x, float) and math.isfinite(x) and abs(x) > _FLOAT_MAX[dtype]:
            return f"{x!r} overflows {dtype} (largest finite value {_FLOAT_MAX[dtype]:g})"
        elif isinstance(x, int) and abs(x) > _FLOAT_MAX[dtype]:
            return f"{x} overflows {dtype} (largest finite value {_FLOAT_MAX[dtype]:g})"
    return None


def size_problem(shape, dtype: str, limits: Limits) -> str | None:
    n = math.prod(shape)
    nbytes = n * DTYPE_BYTES[dtype]
    if len(shape) > limits.max_rank:
        return f"it has {len(shape)} dimensions, over the limit of {limits.max_rank} (limits.max_rank)"
    if nbytes > limits.max_constant_bytes:
        return f"it is {nbytes} bytes, over the limit of {limits.max_constant_bytes} (limits.max_constant_bytes)"
    return None


def npy_header(path: Path, roots, limits: Limits):
    """(shape, dtype) of a .npy constant, or a string saying why it cannot be used.

    Only the header is parsed here (without NumPy, which the no-op path avoids);
    its claimed size must equal the file's, so the build's later np.load reads
    exactly what was checked.
    """
    if not within_roots(path, roots):
        return "it is outside the project (and any data_dirs); copy it in or list its directory in data_dirs"
    try:
        head = read_regular(path, limits.max_constant_bytes + _MAX_HEADER + 16, prefix=_MAX_HEADER + 16)
        size = path.stat().st_size
    except (OSError, ValueError) as e:
        return str(e)
    if head[:6] != b"\x93NUMPY" or len(head) < 10 or head[6] not in (1, 2, 3):
        return "it is not a .npy file (no NumPy magic)"
    width = 2 if head[6] == 1 else 4
    n = int.from_bytes(head[8 : 8 + width], "little")
    start = 8 + width
    if n > _MAX_HEADER or start + n > len(head):
        return "its header is truncated or too long"
    try:
        header = ast.literal_eval(head[start : start + n].decode("latin1"))
        descr, fortran, shape = header["descr"], header["fortran_order"], tuple(header["shape"])
    except (ValueError, SyntaxError, KeyError, TypeError, MemoryError, RecursionError):
        return "its header is not a valid .npy header"
    if descr not in NPY_DTYPES or fortran is not False:
        return f"its dtype {descr!r} is not one of {', '.join(NPY_DTYPES)} in C order"
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        return f"its header's shape {shape!r} is not a list of sizes"
    dtype = NPY_DTYPES[descr]
    shape = shape or (1,)
    problem = size_problem(shape, dtype, limits)
    if problem:
        return problem
    want = start + n + math.prod(shape) * DTYPE_BYTES[dtype]
    if size != want:
        return f"its header says {want} bytes in all but the file has {size}"
    return shape, dtype
