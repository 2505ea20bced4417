"""Names shared by the whole package, importable without loading the op catalog."""
from __future__ import annotations

DTYPES = ("f32", "f16", "i8", "i32", "i64", "bool")
FLOAT_DTYPES = ("f32", "f16")
NUMERIC_DTYPES = ("f32", "f16", "i8", "i32", "i64")
TARGETS = ("ref", "host", "xdna", "ane")
NUMPY_DTYPE = {"f32": "float32", "f16": "float16", "i8": "int8", "i32": "int32", "i64": "int64", "bool": "bool"}

# bytes per element in memory (bool: one byte holding 0/1, as in NumPy)
DTYPE_BYTES = {"f32": 4, "i32": 4, "f16": 2, "i8": 1, "bool": 1, "i64": 8}
