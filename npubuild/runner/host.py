"""Run a host kernel (``kernel.so`` built by npubuild.toolchain.host) via ctypes.

ABI: ``void kernel(T0 *in0, ..., Tout *out)`` over contiguous row-major buffers
whose shapes and dtypes are fixed by the kernel description
(``KernelInstance.describe()`` / the manifest entry). The library also exports
``npubuild_abi`` (the shapes it was compiled for); before the library is loaded
it is read from the file and compared with the description, so a description
that disagrees with the code never reaches a call (the runtime requires it;
a library without one, e.g. a test's hand-made module, is allowed only when
``require_abi`` is false).

A portable library holds each function once per ISA level (``npubuild_isa`` lists them,
npubuild.core.host_isa); the kernel calls the widest this CPU has, or the one
``NPUBUILD_HOST_ISA`` names, and says which in :attr:`HostKernel.isa`.
"""
from __future__ import annotations

import ctypes
import struct
import threading
from pathlib import Path

import numpy as np

from ..artifacts.abi import abi_mismatch, embedded_abi
from ..artifacts.elf import elf_symbol
from ..core import host_isa
from ..core.errors import UserError
from ..core.constants import numpy_dtype
from .kernel_base import KernelBase


def _shape_text(shape) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


class HostKernel(KernelBase):
    """One compiled host kernel; the library is loaded on first call. It has no params to prepare
    (``bind_param`` is KernelBase's no-op).

    ``close()`` unloads it (a runtime keeps at most N kernels open); a closed
    kernel reloads on its next call.
    """

    def __init__(self, so_path, instance_description: dict, *, origin: str | None = None, require_abi: bool = False):
        """``origin``: what to call the file in messages (the runtime loads a private copy of it)."""
        self.so_path = Path(so_path)
        self.description = instance_description
        self.id = str(instance_description.get("id", self.so_path.name))
        self.origin = origin or str(self.so_path)
        self.require_abi = require_abi
        self.abi: dict | None = None
        self._abi_checked = False
        self._variants: list[str] | None = None  # the library's npubuild_isa, baseline first (None: it has none)
        self._variant = 0
        self.isa: str | None = None  # the variant called, once loaded
        try:
            self._inputs = [
                (str(t["name"]), tuple(int(d) for d in t["shape"]), numpy_dtype(t["dtype"]))
                for t in instance_description["inputs"]
            ]
            (out,) = instance_description["outputs"]
            self._output = (str(out["name"]), tuple(int(d) for d in out["shape"]), numpy_dtype(out["dtype"]))
        except (KeyError, TypeError, ValueError) as e:
            raise UserError(f"kernel {self.id}: malformed kernel description ({e!r})") from None
        self._lib: ctypes.CDLL | None = None
        self._fn = None
        self._symbols: dict = {}  # further entry points resolved since the library was loaded
        self._lock = threading.Lock()

    @property
    def input_names(self) -> list[str]:
        return [n for n, _, _ in self._inputs]

    @property
    def is_open(self) -> bool:
        return self._lib is not None

    def _check_abi(self) -> None:
        """Compare the library's embedded ABI with the description, from the file, before dlopen."""
        if self._abi_checked:
            return
        try:
            data = self.so_path.read_bytes()
        except OSError as e:
            raise UserError(f"kernel {self.id}: cannot load {self.origin}: {e}") from None
        try:
            abi = embedded_abi(data)
        except ValueError as e:
            if self.require_abi:
                raise UserError(f"kernel {self.id}: {self.origin}: {e}; rebuild with `doit build`") from None
            abi = None  # dlopen reports a file that is no library at all
        self._variants = self._read_variants(data)
        if abi is not None:
            d = self.description
            record = {f: d.get(f) for f in ("key", "op", "dtype")}
            for side in ("inputs", "outputs"):
                record[side] = [{"name": t["name"], "shape": list(t["shape"]), "dtype": t["dtype"]} for t in d[side]]
            why = abi_mismatch(self.id, record, abi, self.origin)
            if why:
                raise UserError(
                    f"kernel {self.id}: the manifest does not match the ABI compiled into {self.origin}: {why}; "
                    "refusing to call it (rebuild with `doit build`)"
                )
        self.abi, self._abi_checked = abi, True

    def _read_variants(self, data: bytes) -> list[str] | None:
        try:
            raw = elf_symbol(data, host_isa.ISA_SYMBOL.encode())
        except (ValueError, IndexError, KeyError, OverflowError, struct.error):
            return None  # not a readable ELF: dlopen says so
        return None if raw is None else host_isa.parse_variants(raw, f"kernel {self.id}: {self.origin}")

    def _symbol_name(self, name: str) -> str:
        """The library's symbol of entry point ``name`` for the ISA level picked at load."""
        return name if self._variants is None else host_isa.symbol(name, self._variant, self._variants[self._variant])

    def _function_abi(self, name: str, want: list) -> None:
        """A further entry point must be in the ABI with exactly these argument shapes (none to check without an ABI)."""
        if self.abi is None:
            return
        specs = (self.abi.get("functions") or {}).get(name)
        try:
            compiled = [(tuple(a["shape"]), numpy_dtype(a["dtype"])) for a in specs]
        except (KeyError, TypeError, ValueError):
            raise UserError(f"kernel {self.id}: {self.origin} lists no '{name}' in its ABI; rebuild with `doit build`") from None
        if compiled != want:
            shown = ", ".join(f"{dt}{list(s)}" for s, dt in compiled)
            raise UserError(
                f"kernel {self.id}: {name} in {self.origin} was compiled for ({shown}), not what this npubuild passes; "
                "rebuild with `doit build`"
            )

    def _open(self):
        if self._fn is None:
            self._check_abi()
            if self._variants is not None:
                self._variant = host_isa.pick(self._variants, f"kernel {self.id}: {self.origin}")
            try:
                lib = ctypes.CDLL(str(self.so_path))
            except OSError as e:
                raise UserError(f"kernel {self.id}: cannot load {self.origin}: {e}") from None
            name = self._symbol_name("kernel")
            try:
                fn = lib[name]
            except AttributeError:
                raise UserError(f"kernel {self.id}: {self.origin} has no symbol '{name}'; rebuild with `doit build`") from None
            self.isa = None if self._variants is None else self._variants[self._variant]
            fn.restype = None
            fn.argtypes = [ctypes.c_void_p] * (len(self._inputs) + 1)
            self._lib, self._fn = lib, fn
        return self._fn

    def _check(self, arrays) -> list[np.ndarray]:
        if len(arrays) != len(self._inputs):
            names = ", ".join(self.input_names)
            raise UserError(f"kernel {self.id} takes {len(self._inputs)} inputs ({names}), got {len(arrays)}")
        out = []
        for (name, shape, dtype), a in zip(self._inputs, arrays):
            arr = np.asarray(a)
            if arr.dtype != dtype:
                raise UserError(
                    f"kernel {self.id}: input '{name}' has dtype {arr.dtype}, expected {dtype} (no implicit casts)"
                )
            if arr.shape != shape:
                raise UserError(
                    f"kernel {self.id}: input '{name}' has shape {_shape_text(arr.shape)}, expected {_shape_text(shape)}"
                )
            out.append(np.require(arr, requirements=("C_CONTIGUOUS", "ALIGNED")))
        return out

    def __call__(self, *arrays) -> np.ndarray:
        inputs = self._check(arrays)
        _, shape, dtype = self._output
        result = np.empty(shape, dtype=dtype)
        with self._lock:  # close() from another thread must not unload mid-call
            fn = self._open()
            fn(*[a.ctypes.data for a in inputs], result.ctypes.data)
        return result

    def direct(self):
        """The loaded ``kernel`` function and its (shape, dtype) signature (KernelBase.direct): the ABI was
        checked when it was loaded, and a call plan hands it only buffers of exactly these shapes and dtypes."""
        with self._lock:
            fn = self._open()
        return fn, [(s, d) for _, s, d in self._inputs], self._output[1:]

    def function(self, name: str, specs: list[tuple[tuple[int, ...], str]]):
        """Another exported function of the library, ``void name(T0 *, ...)`` over
        arrays of the given (shape, NumPy dtype); the returned callable checks them,
        and that the library's ABI lists ``name`` with exactly these shapes (once per load)."""
        want = [(tuple(s), np.dtype(t)) for s, t in specs]

        def call(*arrays):
            if len(arrays) != len(want):
                raise UserError(f"kernel {self.id}: {name} takes {len(want)} arrays, got {len(arrays)}")
            for i, (arr, (shape, dt)) in enumerate(zip(arrays, want)):
                if arr.shape != shape or arr.dtype != dt or not arr.flags.c_contiguous:
                    raise UserError(f"kernel {self.id}: {name} argument {i} must be a contiguous {dt} array of shape {list(shape)}")
            with self._lock:
                fn = self._symbol(name, want)
                fn(*[a.ctypes.data for a in arrays])

        return call

    def _symbol(self, name: str, want: list):
        """The loaded library's function ``name``, resolved and checked against the ABI once per load and
        argument list."""
        key = (name, tuple(want))
        fn = self._symbols.get(key)
        if fn is None:
            self._open()
            self._function_abi(name, want)
            symbol = self._symbol_name(name)
            try:
                fn = self._lib[symbol]
            except AttributeError:
                raise UserError(f"kernel {self.id}: {self.origin} has no symbol '{symbol}'; rebuild with `doit build`") from None
            fn.restype = None
            fn.argtypes = [ctypes.c_void_p] * len(want)
            self._symbols[key] = fn
        return fn

    def close(self) -> None:
        """Unload the library (no-op if not loaded)."""
        with self._lock:
            lib, self._lib, self._fn = self._lib, None, None
            self._symbols = {}
            if lib is not None:
                import _ctypes

                _ctypes.dlclose(lib._handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"HostKernel({self.id!r}, {str(self.so_path)!r}, {'open' if self.is_open else 'closed'})"
