"""``npubuild ane-compare``: the Core ML packages of an ANE graph against npubuild's fp16 emulation: the graph
package (every function of it) and, unless asked not to, each node's.

For every program node of the graph (its record in the manifest names ``mlpackage``, written by
npubuild.ane.coreml), the same seeded random inputs — uniform in [-1, 1), fp16 (fp32 where a cast reads
one), in the shapes of the node's input currencies — go to the package, loaded with ``ct.models.MLModel(path,
compute_units=ct.ComputeUnit.CPU_AND_NE)`` and run with ``MLModel.predict``, and to the ``ane`` backend's
emulation of the node (:func:`npubuild.runner.ane.execute`, the node loaded as the runtime loads it, every
value rounded to fp16 at the node's boundary). Per node it reports the largest absolute difference and the
largest distance in fp16 units in the last place (ULP: how many fp16 values lie between the two answers).

The graph package (the whole program, npubuild.ane.coreml_graph; a multifunction one holds a function per func of
the .mil) gets seeded random inputs of the plan's input shapes under their package names (the record's
``io_names``), loaded with ``MLModel(path, compute_units=CPU_AND_NE, function_name=...)`` for each function, and
is compared with the ``ane`` backend running that function on the same inputs, per output. On a Mac each op of the
graph package is listed with the device Core ML's compute plan prefers for it (``MLComputePlan``:
:func:`coreml_devices`).

Core ML runs on macOS only: elsewhere coremltools has no runtime (its libcoremlpython is not built, so
``MLModel.predict`` raises), and the command says so in one line and exits non-zero.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..artifacts.manifest import safe_path
from ..core.errors import UserError
from ..ops.lazy_numpy import np
from .ane import alloc, decode, encode, execute


def no_runtime_reason(platform: str | None = None) -> str | None:
    """Why Core ML cannot run here, or None on macOS."""
    platform = platform or sys.platform
    if platform == "darwin":
        return None
    return (f"no Core ML runtime on {platform}: MLModel.predict needs macOS (coremltools builds and checks the "
            "packages here, it cannot run them); run `npubuild ane-compare` on a Mac")


def coreml_predictor():
    """``predict(package, inputs, function=None) -> outputs`` running a package on Core ML with the CPU and the
    Neural Engine; ``function``: which function of a multifunction package (``MLModel(function_name=...)``,
    coremltools/models/model.py; None: the package's default)."""
    from ..ane.coreml import coremltools, quiet

    ct = coremltools()[0]

    def predict(path: Path, inputs: dict, function: str | None = None) -> dict:
        with quiet():  # coremltools warns while it loads a model; a failure raises and is reported per node
            model = ct.models.MLModel(str(path), compute_units=ct.ComputeUnit.CPU_AND_NE, function_name=function)
            return model.predict(inputs)

    return predict


# MLComputePlanDeviceUsage.preferred_compute_device's classes (coremltools/models/compute_device.py) -> a short name
DEVICE_NAMES = {"MLCPUComputeDevice": "CPU", "MLGPUComputeDevice": "GPU", "MLNeuralEngineComputeDevice": "ANE"}


def coreml_devices():
    """``devices(package, function) -> [(op type, its outputs' names, device)]``: each non-const op of that function
    of the package with the device Core ML prefers for it, from the package compiled
    (``ct.models.utils.compile_model`` into a scratch .mlmodelc) and its compute plan,
    ``MLComputePlan.load_from_path(compiled, compute_units=CPU_AND_NE)`` (coremltools/models/compute_plan.py):
    ``model_structure.program.functions[function].block.operations``, each through
    ``get_compute_device_usage_for_mlprogram_operation`` (None: Core ML cannot say, shown as ``unknown``)."""
    import tempfile

    from ..ane.coreml import coremltools, quiet

    ct = coremltools()[0]
    from coremltools.models.compute_plan import MLComputePlan

    def devices(path: Path, function: str) -> list[tuple[str, list[str], str]]:
        with tempfile.TemporaryDirectory() as tmp, quiet():
            compiled = ct.models.utils.compile_model(str(path), str(Path(tmp) / "graph.mlmodelc"))
            plan = MLComputePlan.load_from_path(compiled, compute_units=ct.ComputeUnit.CPU_AND_NE)
            rows = []
            for op in plan.model_structure.program.functions[function].block.operations:
                if op.operator_name == "const":
                    continue
                usage = plan.get_compute_device_usage_for_mlprogram_operation(op)
                kind = type(usage.preferred_compute_device).__name__ if usage is not None else None
                rows.append((op.operator_name, [o.name for o in op.outputs], DEVICE_NAMES.get(kind, kind or "unknown")))
        return rows

    return devices


def emulate(node, inputs: list):
    """The node's fp16 output (in its currency's 4-D shape) as the ``ane`` backend computes it from ``inputs``."""
    decoded = []
    for a, cur in zip(inputs, node.ins):
        buf = alloc(cur)
        encode(a, cur, buf)
        decoded.append(decode(buf, cur))
    out = alloc(node.out)
    encode(execute(node, decoded), node.out, out)
    return decode(out, node.out).astype(np.float16).reshape(node.out.shape)


def _ordered(a):
    """fp16 values as integers in the order of the values (-0 and +0 both 0): ULP distance is a difference."""
    i = np.asarray(a, np.float16).view(np.int16).astype(np.int32)
    return np.where(i < 0, -32768 - i, i)


def errors(got, want) -> tuple[float, int | None]:
    """(max |got - want|, max ULP distance) of two fp16 arrays; (nan, None) where one is NaN and the other not."""
    got, want = np.asarray(got, np.float16), np.asarray(want, np.float16)
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    if np.any(nan_g != nan_w):
        return float("nan"), None
    ok = ~nan_g
    if not ok.any():
        return 0.0, 0
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(got[ok].astype(np.float64) - want[ok].astype(np.float64))
    return float(diff.max()), int(np.abs(_ordered(got[ok]) - _ordered(want[ok])).max())


def ane_record(rt, name: str) -> dict:
    """The manifest record of the ANE graph ``name``; a UserError listing the ANE graphs when there is none."""
    record = rt.manifest.get("graphs", {}).get(name)
    if not isinstance(record, dict) or record.get("kind") != "ane":
        graphs = sorted(k for k, g in rt.manifest.get("graphs", {}).items() if isinstance(g, dict) and g.get("kind") == "ane")
        raise UserError(f"no ANE graph '{name}' in {rt.path / 'manifest.json'} (ANE graphs: {', '.join(graphs) or 'none'})")
    return record


def compare_graph(rt, name: str, predict, seed: int = 0, function: str | None = None) -> list[dict]:
    """One row per program node of the ANE graph ``name`` of the loaded artifacts ``rt``: node, name, route,
    package, and max_abs / max_ulp, or error (what the predictor raised); ``function``: the nodes of that function
    of a multifunction graph (rows then name it), else the default function's."""
    from .ane_graph import function_record

    record = function_record(name, ane_record(rt, name), function)
    runner = rt.graph(name, backend="ane", function=function)
    rows = []
    for i, n in enumerate(record["nodes"]):
        if "mil" not in n:
            continue  # a host node: no program
        pkg = n.get("mlpackage")
        if not pkg:
            raise UserError(f"ane graph '{name}': node {i} '{n['name']}' has no Core ML package; rebuild with `doit build`")
        runner.engine.ensure(i)  # the node as the runtime loads it: its weights read from its weight.bin
        node = runner.engine.progs[i]
        rng = np.random.default_rng([seed, i])
        inputs = [rng.uniform(-1, 1, size=cur.shape).astype(np.float32 if cur.dtype == "fp32" else np.float16) for cur in node.ins]
        row = {"node": i, "name": node.name, "route": node.route, "package": pkg["path"]}
        if function is not None:
            row["function"] = function
        try:
            out = predict(safe_path(rt.path, pkg["path"]), {f"in{p}": a for p, a in enumerate(inputs)})
            got = np.asarray(out["y"], dtype=np.float16).reshape(node.out.shape)
        except Exception as e:  # Core ML's errors are plain Exceptions (a model it cannot compile, no ANE, ...)
            row["error"] = " ".join(str(e).split()) or type(e).__name__
        else:
            row["max_abs"], row["max_ulp"] = errors(got, emulate(node, inputs))
        rows.append(row)
    return rows


def graph_functions(record: dict) -> list[tuple[str, str | None, dict]]:
    """(function, the name Core ML knows it by, its package io_names) of the graph package of an ANE graph's
    record, the default function first; the name is None for a one-function package (its only function)."""
    pkg = record["mlpackage"]
    if isinstance(pkg.get("functions"), list):  # a multifunction package (npubuild.ane.coreml_graph.multifunction_package)
        return [(f["name"], f["name"], f["io_names"]) for f in pkg["functions"]]
    from .ane_graph import function_names

    return [(function_names(record)[0], None, pkg["io_names"])]


def compare_package(rt, name: str, predict, seed: int = 0, devices=None) -> list[dict]:
    """One row per function of the graph package of the ANE graph ``name``: function, package, and per output
    (by its name in the plan) max_abs / max_ulp, or error (what the predictor raised), or skipped (why);
    with ``devices`` (:func:`coreml_devices`) also ``devices``, its ops' preferred devices. The same seeded
    inputs (uniform in [-1, 1), of the plan's shapes and dtypes) go to the package and to the ``ane`` backend."""
    from .ane_graph import function_record

    record = ane_record(rt, name)
    pkg = record.get("mlpackage")
    if not isinstance(pkg, dict) or "io_names" not in pkg and "functions" not in pkg:
        raise UserError(f"ane graph '{name}' has no graph package with its feature names; rebuild with `doit build`")
    path = safe_path(rt.path, pkg["path"])
    rows = []
    for k, (function, coreml_name, io_names) in enumerate(graph_functions(record)):
        rec = function_record(name, record, function)
        row = {"function": function, "package": pkg["path"]}
        rows.append(row)
        if rec.get("states"):
            row["skipped"] = (f"it has states ({', '.join(rec['states'])}): a stateful function's comparison needs its "
                              "states set alike on both sides, which this command does not do")
            continue
        rng = np.random.default_rng([seed, 1 << 20, k])
        inputs = {n: rng.uniform(-1, 1, size=t["shape"]).astype(np.float32 if t["dtype"] == "fp32" else np.float16)
                  for n, t in rec["inputs"].items()}
        want = rt.graph(name, backend="ane", function=function).run(**inputs)
        try:
            extra = {"function": coreml_name} if coreml_name is not None else {}
            out = predict(path, {io_names[n]: a for n, a in inputs.items()}, **extra)
            got = {o: np.asarray(out[io_names[o]], dtype=np.float16).reshape(want[o].shape) for o in want}
        except Exception as e:  # Core ML's errors are plain Exceptions (a model it cannot compile, no ANE, ...)
            row["error"] = " ".join(str(e).split()) or type(e).__name__
        else:
            row["outputs"] = {o: errors(got[o], want[o]) for o in want}
        if devices is not None:
            try:
                row["devices"] = devices(path, coreml_name or "main")
            except Exception as e:  # the compute plan is advisory: its failure is shown, not counted
                row["devices_error"] = " ".join(str(e).split()) or type(e).__name__
    return rows


def format_package_row(r: dict) -> list[str]:
    """The lines of one graph-package row: the comparison, then one line per op with its device (when known)."""
    head = f"graph package {r['package']} function {r['function']}"
    if "skipped" in r:
        lines = [f"{head}: not compared: {r['skipped']}"]
    elif "error" in r:
        lines = [f"{head}: Core ML failed: {r['error']}"]
    else:
        parts = []
        for o, (max_abs, max_ulp) in r["outputs"].items():
            ulp = "n/a (NaN in one answer only)" if max_ulp is None else str(max_ulp)
            parts.append(f"{o}: max abs err {max_abs:.6g}, max ULP {ulp}")
        lines = [f"{head}: {'; '.join(parts)}"]
    if "devices_error" in r:
        lines.append(f"  devices: Core ML's compute plan failed: {r['devices_error']}")
    for op, outs, device in r.get("devices", ()):
        lines.append(f"  {op} {', '.join(outs)}: {device}")
    return lines


def format_row(r: dict) -> str:
    head = f"{r['function'] + ' ' if r.get('function') else ''}n{r['node']} {r['name']} ({r['route']})"
    if "error" in r:
        return f"{head}: Core ML failed: {r['error']}"
    ulp = "n/a (NaN in one answer only)" if r["max_ulp"] is None else str(r["max_ulp"])
    return f"{head}: max abs err {r['max_abs']:.6g}, max ULP {ulp}"


def run(name: str, artifacts: str | None, seed: int = 0, predict=None, platform: str | None = None, nodes: bool = True,
        devices=None) -> int:
    """The command: load and verify the artifacts, then compare the graph package (every function) and, with
    ``nodes``, every node's package (``predict`` defaults to Core ML, and then ``devices`` to its compute plan)."""
    from ..core.config import load_config
    from .runtime import load

    rt = load(Path(artifacts) if artifacts else load_config().artifacts)
    ane_record(rt, name)  # a wrong name is reported everywhere, before the platform
    if predict is None:
        reason = no_runtime_reason(platform)
        if reason:
            raise UserError(reason)
        predict = coreml_predictor()
        devices = devices or coreml_devices()
    rows = []
    if nodes:  # every function's nodes: the default function's as a one-function graph's, then each other's, named
        from .ane_graph import function_names

        names = function_names(ane_record(rt, name))
        rows = compare_graph(rt, name, predict, seed)
        for f in names[1:]:
            rows += compare_graph(rt, name, predict, seed, function=f)
    for r in rows:
        print(format_row(r))
    functions = compare_package(rt, name, predict, seed, devices)
    for r in functions:
        print("\n".join(format_package_row(r)))
    failed = sum(1 for r in [*rows, *functions] if "error" in r)
    what = f"{len(rows)} node(s) and " if nodes else ""
    print(f"ane-compare {name}: {what}the graph package ({len(functions)} function(s)), seed {seed}, {failed} failed on Core ML")
    return 1 if failed else 0
