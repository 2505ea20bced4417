"""A graph's call plan: what a run does once the first, fully checked run of the graph proved it.

The first run of a :class:`~npubuild.runner.runtime.GraphRunner` goes through every check (the
inputs' names, shapes and dtypes; each kernel's own argument checks; parameters bound). After it, on
a backend without a device (its target's ``traffic`` is None) and when all of the graph's kernels fit
in the runtime's kernel cache at once, the runner builds a :class:`CallPlan`:

* buffers: every step output of a kernel with a direct C entry (``Kernel.direct()``: host kernels)
  is one C-contiguous array, allocated here and reused by every run;
* pointers: the address of every buffer, param and constant is written once into each step's
  argument list; a direct step is then one ctypes call with that list;
* a run checks the graph's inputs only (the names, then each array's type, shape, dtype and layout);
  anything that differs, however slightly, sends that run through the checked path, whose message
  names the graph, the input and the fix. A kernel without a direct entry (the int8 GEMM's blocked
  algorithm, a ref oracle) is called with its arrays, as in the checked path.

The plan is dropped when its graph's params are set again and whenever the kernel cache has closed a
kernel since it was built (an evicted library is unloaded: its addresses are gone).

**What a returned array aliases.** An output written by a direct step is the plan's buffer, handed to
the caller. At the start of each run, an output buffer that is still referenced from outside the plan
(the returned dict, the array itself, a view of it) is replaced by a fresh one, so an array returned by
``run()`` is never written again; one the caller dropped is reused (no allocation).
"""
from __future__ import annotations

import ctypes
import sys

from ..ops.lazy_numpy import np


def address(a) -> int:
    """The address of a C-contiguous array's first byte (the quick way for a writable one)."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except (TypeError, ValueError, BufferError):  # read-only
        return a.ctypes.data


def fits(a, shape: tuple, dtype) -> bool:
    """Whether ``a`` can be handed to a kernel as it is: an ndarray of exactly this shape and dtype, C-contiguous
    and aligned (anything else goes through the checked path, which explains or converts)."""
    if type(a) is not np.ndarray or a.shape != shape or a.dtype != dtype:
        return False
    flags = a.flags
    return flags.c_contiguous and flags.aligned


class CallPlan:
    """The steps of one graph on one runner, resolved once (see the module docstring)."""

    def __init__(self, runner, epoch: int):
        g = runner.graph
        self.epoch = epoch
        self.input_names = set(g.inputs)
        self.inputs = [(n, tuple(s.shape), np.dtype(_numpy_dtype(s.dtype))) for n, s in g.inputs.items()]
        self.outputs = tuple(g.outputs)
        # tensor name -> its current array: the plan's only reference to the buffers it owns
        self.tensors: dict = {}
        for n, a in {**runner._params, **runner._load_constants()}.items():
            self.tensors[n] = np.require(a, requirements=("C_CONTIGUOUS", "ALIGNED"))
        self.slots: dict[str, list] = {}  # tensor name -> [(argument list, position)] that read or write it
        self.owned: dict[str, int] = {}  # an output buffer of the plan -> its refcount when only the plan holds it
        self.steps: list[tuple] = []
        for step in g.steps:
            kern = runner._kernel(step)
            direct = kern.direct()
            if direct is None:
                out = runner.rt.record_of(step.kernel).output
                self.steps.append((None, kern, step.inputs, (step.output, out.shape, np.dtype(_numpy_dtype(out.dtype)))))
                continue
            fn, _, (shape, dtype) = direct
            argv: list = [0] * (len(step.inputs) + 1)
            for pos, name in enumerate((*step.inputs, step.output)):
                self.slots.setdefault(name, []).append((argv, pos))
            self.steps.append((fn, argv, None, None))
            self.tensors[step.output] = np.empty(shape, dtype)
            if step.output in self.outputs:
                self.owned[step.output] = sys.getrefcount(self.tensors[step.output])
        for name, arr in self.tensors.items():
            self._point(name, arr)
        self.python_steps = sum(1 for s in self.steps if s[0] is None)

    def _point(self, name: str, arr) -> None:
        p = address(arr)
        for argv, pos in self.slots.get(name, ()):
            argv[pos] = p

    def run(self, arrays: dict, stats: dict) -> dict | None:
        """The outputs of one run, or None when an input is not exactly what the plan takes (the caller then
        runs the checked path)."""
        if arrays.keys() != self.input_names:
            return None
        t = self.tensors
        for name, shape, dtype in self.inputs:
            if not fits(arrays[name], shape, dtype):
                return None
        for name, alone in self.owned.items():
            if sys.getrefcount(t[name]) > alone:  # the caller kept last run's array: never write it again
                t[name] = np.empty_like(t[name])
                self._point(name, t[name])
        for name, _, _ in self.inputs:
            t[name] = arrays[name]
            self._point(name, t[name])
        tiles = 0
        try:
            for fn, argv, names, made in self.steps:
                if fn is not None:
                    fn(*argv)
                    continue
                kern, (out, shape, dtype) = argv, made
                before = kern.gemm_dispatches
                res = kern(*[t[n] for n in names])
                tiles += kern.gemm_dispatches - before
                if out in self.slots and not fits(res, shape, dtype):  # a direct step reads it: exactly its buffer
                    res = _as_buffer(kern, res, shape, dtype)
                t[out] = res
                self._point(out, res)
            outputs = {o: t[o] for o in self.outputs}
        finally:
            for name, _, _ in self.inputs:
                t[name] = None  # the caller's arrays are not kept past the run
        stats["kernel_calls"] = len(self.steps)
        stats["gemm_tiles"] = tiles
        return outputs


def _as_buffer(kern, res, shape: tuple, dtype):
    """A kernel's result as the C-contiguous buffer of its record's shape and dtype a direct step reads."""
    from ..core.errors import UserError

    if getattr(res, "shape", None) != shape or getattr(res, "dtype", None) != dtype:
        raise UserError(f"kernel {getattr(kern, 'id', '?')} gave {getattr(res, 'dtype', type(res).__name__)} "
                        f"{list(getattr(res, 'shape', ()))}, its record says {dtype} {list(shape)}")
    return np.ascontiguousarray(res)


def _numpy_dtype(name: str):
    from ..core.constants import numpy_dtype

    return numpy_dtype(name)
