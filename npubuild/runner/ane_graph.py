"""Running an ``ane`` graph from the manifest: :class:`AneGraphRunner`.

The graph's record (``kind: ane``) is turned back into a plan whose programs
load lazily from their artifacts (a program's weights are read from its
``weight.bin`` when the runtime loads it) and executed by
:class:`npubuild.runner.ane.AneRuntime`.
"""
from __future__ import annotations

import copy

from ..artifacts.manifest import safe_path
from ..core.errors import UserError, VerifyError
from ..ops.lazy_numpy import np


# what an input may be given as: every value is rounded to fp16, and these round (ints, bools
# and complex numbers would be reinterpreted or lose their imaginary part)
INPUT_DTYPES = ("float16", "float32", "float64")


def function_names(record: dict) -> list[str]:
    """The functions of an ANE graph's record, the default one first (a graph from a one-function .mil or a
    YAML graph: just its default, ``main``)."""
    others = record.get("functions") if isinstance(record.get("functions"), dict) else {}
    default = record.get("default_function") if isinstance(record.get("default_function"), str) else "main"
    return [default, *others]


def function_record(name: str, record: dict, function: str | None) -> dict:
    """The plan record of function ``function`` of the ANE graph ``name`` (``record``: its manifest record):
    the graph's own for None or its default function, else the one its ``functions`` holds (npubuild.ane.build
    writes it), with the graph's ``file``; a UserError listing the functions when there is no such one."""
    names = function_names(record)
    if function is None or function == names[0]:
        return record
    if not isinstance(function, str) or function not in names:
        raise UserError(f"ANE graph '{name}' has no function {function!r}; its functions: {', '.join(names)}"
                        + (" (a multifunction .mil builds one function per func)" if len(names) == 1 else ""))
    sub = record["functions"][function]
    if not isinstance(sub, dict):
        raise VerifyError(f"ANE graph '{name}': the record of function '{function}' is not a plan; rebuild with `doit build`")
    return {**sub, "file": record.get("file"), "function": function}


def function_files(record: dict):
    """(what, file record) for every file a function's plan record names: each program's model.mil and
    weight.bin, the fills, and each file of the node packages (the graph package is the graph record's)."""
    for i, n in enumerate(record.get("nodes") or []):
        if not isinstance(n, dict):
            continue
        for role in ("mil", "weights"):
            if isinstance(n.get(role), dict):
                yield f"node {i} ({n.get('name')}) [{role}]", n[role]
        pkg = n.get("mlpackage")
        for f in pkg.get("files", []) if isinstance(pkg, dict) else []:
            yield f"node {i} ({n.get('name')}) [mlpackage]", f
    if isinstance(record.get("fills"), dict):
        yield "[fills]", record["fills"]


def check_function_files(artifacts, name: str, function: str, record: dict) -> None:
    """Re-hash every file of function ``function`` of the ANE graph ``name`` against its record, as `npubuild
    verify` does for the files the manifest's graph records name (which do not include a multifunction graph's
    other functions): a VerifyError naming the first that is missing or changed."""
    from ..artifacts.manifest import read_verified

    for what, f in function_files(record):
        if not isinstance(f, dict) or not {"path", "sha256", "size"} <= set(f):
            raise VerifyError(f"ANE graph '{name}' function '{function}' {what}: not a file record; rebuild with `doit build`")
        read_verified(artifacts, f, f"ANE graph '{name}' function '{function}' {what}")


class AneGraphRunner:
    backend = "ane"
    fallback_reason = None

    def __init__(self, rt, name: str, record: dict, resident: int | None, accumulate: str = "fp32"):
        from ..ane.programs import load_weights, plan_from_record
        from ..artifacts.ane_records import graph_problems
        from ..ane.weightbin import read_blob
        from .ane import AneRuntime

        self.rt, self.name, self.record = rt, name, record
        self.function = record.get("function") or function_names(record)[0]  # which function of the graph this runs
        # the record's indices, currencies and weight places, also when the files were not verified
        # (load(verify_files=False)): an edited record is one message here, not an IndexError in a run
        problems = graph_problems(name, record, lambda f: None, lambda f: f.get("size") if isinstance(f, dict) else None)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise VerifyError(f"{rt.path}: {problems[0]}{more}; rebuild with `doit build`")

        def read_weights(file_rec, offset, shape):
            return read_blob(safe_path(rt.path, file_rec["path"]), offset, "fp16", shape)

        self.plan = plan_from_record(record, read_weights)

        def load(i: int):
            node = copy.copy(self.plan.nodes[i])
            prog = node.program
            path = safe_path(rt.path, prog["weights"]["path"]) if prog.get("weights") else None
            node.weights, node.packed = load_weights(prog, lambda off, dtype, shape: read_blob(path, off, dtype, shape))
            return node

        self.engine = AneRuntime(self.plan, resident, load, accumulate)  # accumulate: [tool.npubuild] ane_accumulate
        self.last_stats: dict | None = None
        self._sizes: dict = {}  # a seq graph's other sizes: size -> its runner, opened by the first run at that size

    def set_params(self, **arrays) -> None:
        if arrays:
            raise UserError(f"graph '{self.name}' is an ANE graph: it has no params; pass its inputs to run() or write_ext()")

    def _values(self, name: str, array):
        """``array`` as the values of external ``name``: a float array, of the declared shape for a
        function input, rounded to the dtype the input is declared with (fp16, or fp32 for one a cast
        reads) and within its range; one message naming the graph and input otherwise."""
        where = f"graph '{self.name}': input '{name}'"
        try:
            a = np.asarray(array)
        except (TypeError, ValueError) as e:
            raise UserError(f"{where} is not an array ({e})") from None
        declared = self.record["inputs"].get(name) or self._states().get(name)
        fp32 = declared is not None and declared["dtype"] == "fp32"
        if a.dtype.name not in INPUT_DTYPES:
            raise UserError(f"{where} must be {', '.join(INPUT_DTYPES)} (it is rounded to {'fp32' if fp32 else 'fp16'}), got {a.dtype}")
        if declared is not None and list(a.shape) != list(declared["shape"]):
            raise UserError(f"{where} must have shape {list(declared['shape'])}, got {list(a.shape)}")
        with np.errstate(over="ignore"):
            h = a.astype(np.float32 if fp32 else np.float16)
        if np.any(np.isinf(h) & np.isfinite(a)):  # the rounding would make these inf without a word
            raise UserError(f"{where} holds finite values beyond the {'fp32 range' if fp32 else 'fp16 range (±65504)'}")
        return h.reshape(-1)

    def _states(self) -> dict:
        """The graph's declared states (iOS18 ``state<tensor<...>>`` inputs): name -> {shape, dtype}."""
        return {n: {"shape": shape, "dtype": dtype} for n, shape, dtype in self.plan.states}  # as plan_from_record read them

    def write_ext(self, name: str, array) -> None:
        """Write an external directly: a state's value (as Core ML's MLState holds it), or an input's."""
        self.engine.write_ext(name, self._values(name, array))

    def reset_state(self) -> None:
        """Zero the graph's declared states; its inputs are given to each run."""
        self.engine.reset_state()

    def read_state(self, name: str):
        """The current value of declared state ``name`` in its shape (fp16), as Core ML's ``MLState.read_state``."""
        states = self._states()
        if name not in states:
            raise UserError(f"graph '{self.name}' has no state '{name}' (states: {', '.join(states) or 'none'})")
        return self.engine.read_state(name).astype(np.float16).reshape(states[name]["shape"])

    def _for_shapes(self, arrays: dict) -> "AneGraphRunner":
        """The runner of the seq size whose input shapes ``arrays`` have (a graph with ``seq``: one plan per size,
        :mod:`npubuild.ane.sizes`): this one for the default size, else that size's, opened once (its files checked
        as a function's are); a UserError naming the sizes when no size has these shapes."""
        seq = self.record.get("seq")
        if not isinstance(seq, dict) or not all(n in arrays for n in seq.get("inputs", {})):
            return self  # no seq, or an input missing: the run's own check says which
        got = {n: list(np.shape(arrays[n])) for n in seq["inputs"]}
        if all(got[n] == self.record["inputs"][n]["shape"] for n in got):
            return self
        for size, sub in (seq.get("plans") or {}).items():
            if isinstance(sub, dict) and all(got[n] == (sub.get("inputs") or {}).get(n, {}).get("shape") for n in got):
                if size not in self._sizes:
                    what = f"seq {size}"
                    record = {**sub, "file": self.record.get("file")}
                    check_function_files(self.rt.path, self.name, what, record)
                    self._sizes[size] = AneGraphRunner(self.rt, self.name, record, self.engine.budget, self.engine.accumulate)
                return self._sizes[size]
        shapes = ", ".join(f"{n} {shape}" for n, shape in got.items())
        axes = ", ".join(f"{n} axis {a}" for n, a in seq["inputs"].items())
        raise UserError(f"graph '{self.name}': inputs {shapes} match none of its seq sizes {seq.get('sizes')} ({axes})")

    def run(self, **arrays) -> dict:
        """Run every program once on the inputs given, as Core ML's predict does: every function input
        must be given (a missing one is an error naming it, and so is a name the graph does not take);
        only the declared states carry across runs (set with write_ext, zeroed by reset_state). A graph with
        ``seq`` runs the plan of the size its inputs' shapes say."""
        runner = self._for_shapes(arrays)
        if runner is not self:
            out = runner.run(**arrays)
            self.last_stats = runner.last_stats
            return out
        declared, states = self.record["inputs"], self._states()
        unknown = [n for n in arrays if n not in declared]
        missing = [n for n in declared if n not in arrays]
        if unknown or missing:
            parts = [f"missing inputs: {', '.join(missing)}"] if missing else []
            for n in unknown:
                parts.append(f"'{n}' is a state, not an input (set it with write_ext, zero it with reset_state)" if n in states
                             else f"unknown input '{n}'")
            raise UserError(f"graph '{self.name}': {'; '.join(parts)} (inputs: {', '.join(declared) or 'none'})")
        checked = {}
        for n, a in arrays.items():  # every input checked before any is written: a refused run changes no state
            checked[n] = self._values(n, a)
        for n, values in checked.items():
            self.engine.write_ext(n, values)
        loads, evictions = len(self.engine.loads), len(self.engine.evictions)
        try:
            self.engine.run()
        except (ValueError, IndexError, KeyError, TypeError) as e:
            # what verify cannot check against the programs: a route's own attributes (a reshape's shape); a built
            # record always fits, so this is an edited manifest
            raise VerifyError(f"graph '{self.name}': its plan does not fit its programs ({type(e).__name__}: "
                              f"{' '.join(str(e).split())[:200]}); rebuild with `doit build`") from None
        self.last_stats = {
            "backend": "ane",
            "programs": len(self.plan.programs()),
            "loads": len(self.engine.loads) - loads,
            "evictions": len(self.engine.evictions) - evictions,
            "host_to_device_bytes": 0,
            "device_to_host_bytes": 0,
        }
        shapes = self.record.get("output_shapes", {})
        return {o: self.engine.output(o).reshape(shapes.get(o) or -1) for o in self.record["outputs"]}
