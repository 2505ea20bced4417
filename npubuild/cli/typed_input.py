"""``npubuild run --input``: one array on the command line, as IREE's ``iree-run-module --input`` takes it.

    --input x=@x.npy                 the array in a .npy file
    --input x=4x8xf32=1,2,3,...      shape, dtype and every value (comma- or space-separated; one value fills it)
    --input x=4x8xf32                seeded random values of that shape and dtype (--seed)

The shape and dtype must be the ones the graph or kernel declares for ``x``: the runtime refuses others.
"""
from __future__ import annotations

import re

from ..core.constants import DTYPES
from ..core.errors import UserError

_TYPE = re.compile(r"^((?:\d+x)*)(" + "|".join(sorted(DTYPES, key=len, reverse=True)) + r")$")


def parse_inputs(specs: list[str], seed: int, limits) -> dict:
    """name -> array for every ``--input`` given."""
    out: dict = {}
    for spec in specs:
        name, arr = parse_input(spec, seed + len(out), limits)
        if name in out:
            raise UserError(f"--input {spec}: '{name}' is given twice")
        out[name] = arr
    return out


def parse_input(spec: str, seed: int, limits):
    name, eq, rest = spec.partition("=")
    if not eq or not name or not rest:
        raise UserError(f"--input {spec}: write NAME=@FILE.npy, NAME=SHAPExDTYPE=VALUES (4x8xf32=1,2,...) or NAME=SHAPExDTYPE")
    if rest.startswith("@"):
        from ..runner.npzio import read_npy

        return name, read_npy(rest[1:], f"--input {name}", limits)
    typ, _, values = rest.partition("=")
    m = _TYPE.match(typ)
    if m is None:
        raise UserError(f"--input {spec}: '{typ}' is not SHAPExDTYPE (e.g. 4x8xf32; dtypes: {', '.join(DTYPES)})")
    shape = tuple(int(d) for d in m.group(1).split("x") if d)
    return name, _array(spec, shape, m.group(2), values, seed, limits)


def _array(spec: str, shape: tuple, dtype: str, values: str, seed: int, limits):
    import math

    import numpy as np

    from ..core.constants import numpy_dtype

    count = math.prod(shape)
    dt = numpy_dtype(dtype)
    if count * dt.itemsize > limits.max_input_bytes:
        raise UserError(f"--input {spec}: {count * dt.itemsize} bytes, over the limit of {limits.max_input_bytes} (limits.max_input_bytes)")
    if not values:
        from ..runner.examples import example_array

        return example_array({"shape": list(shape), "dtype": dtype}, np.random.default_rng(seed))
    items = [v for v in re.split(r"[,\s]+", values.strip()) if v]
    if len(items) not in (1, count):
        raise UserError(f"--input {spec}: {len(items)} values for a {'x'.join(map(str, shape)) or 'scalar'} {dtype} "
                        f"({count} elements): give all of them, or one to fill it")
    try:
        if dtype == "bool":
            flat = np.array([v.lower() in ("1", "true") for v in items], dtype=np.bool_)
        elif dt.kind in "iu":
            flat = np.array([int(v, 0) for v in items], dtype=np.int64)
            info = np.iinfo(dt)
            if flat.min() < info.min or flat.max() > info.max:
                raise ValueError(f"a value outside {dtype}'s range [{info.min}, {info.max}]")
            flat = flat.astype(dt)
        else:
            flat = np.array([float(v) for v in items], dtype=np.float64).astype(dt)
    except ValueError as e:
        raise UserError(f"--input {spec}: {e}") from None
    return np.broadcast_to(flat, (count,)).reshape(shape).copy() if len(items) == 1 else flat.reshape(shape)
