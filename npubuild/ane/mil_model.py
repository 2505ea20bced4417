"""What a MIL text is read into: types, values, ops, functions and the program
(:mod:`.mil` reads them), and the MIL dtypes with the NumPy dtypes that hold them."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import UserError
from ..core.limits import Limits
from ..ops.lazy_numpy import np


class MilError(UserError):
    """A problem in MIL text: ``<file>:<line>: <what> (at '<token>')``."""

    def __init__(self, file: str, line: int, what: str, token: str | None = None):
        self.file, self.line, self.what, self.token = file, line, what, token
        where = f"{file}:{line}" if line else file
        msg = f"{where}: {what}"
        if token is not None:
            shown = token if len(token) <= 40 else token[:37] + "..."
            msg += f" (at '{shown}')"
        super().__init__(msg)



@dataclass(frozen=True)
class MilBounds:
    """What reading one MIL program (and planning it) may touch and cost.

    ``roots``: the directories BLOBFILE paths must resolve into (symlinks
    followed): a build passes the project and its data_dirs; None reads anywhere
    (tests, and npubuild's own artifacts). ``max_bytes``: the largest blob file,
    and the budget of bytes all constants of the program and the weights of its
    plan may take together (a hostile program can name one big blob a thousand times).
    """

    roots: tuple | None = None
    limits: Limits = Limits()
    max_bytes: int = 1 << 30

    @classmethod
    def of(cls, config) -> "MilBounds":
        """A project's bounds: its data roots, its limits, its max_artifact_size."""
        return cls(tuple(config.data_roots()), config.limits, config.max_artifact_size)


# ----------------------------------------------------------------------------
# data model


@dataclass(frozen=True)
class MilType:
    """``dtype`` plus shape; ``shape`` None is a scalar, ``()`` a rank-0 tensor,
    a ``?`` dimension is -1. ``state`` marks an iOS18 ``state<tensor<...>>``
    (a function input only :func:`read_state` / ``coreml_update_state`` /
    ``write_state`` may touch; the shape and dtype are the wrapped tensor's)."""

    dtype: str
    shape: tuple[int, ...] | None = None
    state: bool = False

    @property
    def is_scalar(self) -> bool:
        return not self.shape

    def __str__(self) -> str:
        if self.shape is None and not self.state:
            return self.dtype
        dims = ", ".join("?" if d < 0 else str(d) for d in self.shape or ())
        text = f"tensor<{self.dtype}, [{dims}]>"
        return f"state<{text}>" if self.state else text


#: the type of an op that has no result (``write_state``): never a variable's type
NO_RESULT = MilType("none", ())


@dataclass(frozen=True)
class Ref:
    """A reference to a variable (function input, constant or op result)."""

    name: str


@dataclass(eq=False)
class Literal:
    """A typed constant: Python bool/int/float/str for scalars (also rank-0
    tensors, whose type is then the scalar type), a NumPy array for tensors."""

    type: MilType
    value: object

    def __eq__(self, other):
        if not isinstance(other, Literal):
            return NotImplemented
        return self.type == other.type and _values_equal(self.value, other.value)

    __hash__ = None  # type: ignore[assignment]


@dataclass
class MilOp:
    """One non-constant op. ``args`` values are :class:`Ref`, :class:`Literal`
    or, for tuple arguments such as ``values = (a, b)``, a tuple of those.

    ``results`` lists every (name, declared type) the op defines, in order:
    one for most ops, several for ``split`` and other multi-result ops, none for
    ``write_state``. ``result`` / ``type`` are the first of them (``""`` /
    :data:`NO_RESULT` when there is none), what single-result consumers read.
    """

    op: str
    result: str
    type: MilType
    args: dict
    name: str | None
    line: int = field(compare=False)
    results: tuple = ()

    def __post_init__(self):
        if not self.results and self.result:
            self.results = ((self.result, self.type),)


@dataclass(eq=False)
class MilFunction:
    name: str
    opset: str | None
    inputs: list[tuple[str, MilType]]
    ops: list[MilOp]
    consts: dict
    const_types: dict[str, MilType]
    outputs: list[str]
    line: int
    input_lines: dict = field(default_factory=dict)  # input name -> the line declaring it
    # constexpr result name -> the op as written (its arguments as constants), so a Core ML
    # export can keep the compression instead of the materialised values in ``consts``
    constexprs: dict = field(default_factory=dict)

    def __eq__(self, other):
        """Equal content (source lines are ignored; arrays compare by value)."""
        if not isinstance(other, MilFunction):
            return NotImplemented
        return (
            self.name == other.name
            and self.opset == other.opset
            and self.inputs == other.inputs
            and self.ops == other.ops
            and self.outputs == other.outputs
            and self.const_types == other.const_types
            and self.consts.keys() == other.consts.keys()
            and all(_values_equal(v, other.consts[k]) for k, v in self.consts.items())
        )

    __hash__ = None  # type: ignore[assignment]

    def type_of(self, name: str) -> MilType | None:
        """Declared type of an input, constant or op result (None if unknown)."""
        for n, t in self.inputs:
            if n == name:
                return t
        if name in self.const_types:
            return self.const_types[name]
        for o in self.ops:
            for n, t in o.results:
                if n == name:
                    return t
        return None


@dataclass
class MilProgram:
    """A parsed program. ``extensions``: npubuild extension ops it uses (op ->
    the lines using it; today only ``rms_norm``, see :mod:`.mil_types`). A program
    that uses one is not pure MIL: Core ML rejects it until the op is decomposed."""

    version: str
    functions: dict[str, MilFunction]
    file: str
    extensions: dict = field(default_factory=dict)
    default: str | None = None  # the default function when it is not 'main' (a model of YAML graphs: its first)
    function_files: dict = field(default_factory=dict)  # function -> the file it was written in, where not ``file``

    @property
    def uses_extension_ops(self) -> bool:
        return bool(self.extensions)

    @property
    def main(self) -> MilFunction:
        """The default function, else the function named ``main``, else the only function."""
        if self.default in self.functions:
            return self.functions[self.default]
        if "main" in self.functions:
            return self.functions["main"]
        if len(self.functions) == 1:
            return next(iter(self.functions.values()))
        names = ", ".join(self.functions) or "none"
        raise MilError(
            self.file, 0, f"no function named 'main' and not exactly one function (found: {names})"
        )


def _values_equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype.kind in "fc":
            return bool(np.array_equal(a, b, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_values_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return type(a) is type(b) and a == b



# ----------------------------------------------------------------------------
# dtypes

# name -> NumPy dtype name used to hold values; sub-byte ints live in int8/uint8
HOLD = {
    "bool": "bool",
    "fp16": "float16",
    "fp32": "float32",
    "fp64": "float64",
    "int4": "int8",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint1": "uint8",
    "uint2": "uint8",
    "uint3": "uint8",
    "uint4": "uint8",
    "uint6": "uint8",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "string": "object",
}
INT_BITS = {
    "int4": (True, 4), "int8": (True, 8), "int16": (True, 16), "int32": (True, 32),
    "int64": (True, 64), "uint1": (False, 1), "uint2": (False, 2), "uint3": (False, 3),
    "uint4": (False, 4), "uint6": (False, 6), "uint8": (False, 8), "uint16": (False, 16),
    "uint32": (False, 32), "uint64": (False, 64),
}
FLOATS = ("fp16", "fp32", "fp64")
DTYPES = frozenset(HOLD)


# function opsets MIL text names -> the iOS version whose op definitions apply
# (coremltools/__init__.py: CoreML5 is the opset of iOS15 ... CoreML9 of iOS26)
OPSETS = {**{f"ios{v}": v for v in (15, 16, 17, 18, 26)}, **{f"CoreML{v - 10}": v for v in (15, 16, 17, 18)}, "CoreML9": 26}


def opset_version(opset: str | None) -> int | None:
    """The iOS version of a function opset (``ios18``, ``CoreML8`` -> 18); None when not named."""
    return None if opset is None else OPSETS.get(opset)


def numpy_dtype(dtype: str):
    """NumPy dtype that holds values of a MIL dtype."""
    return np.dtype(HOLD[dtype])

