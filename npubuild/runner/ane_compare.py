"""``npubuild ane-compare``: each Core ML package of an ANE graph against npubuild's fp16 emulation, per node.

For every program node of the graph (its record in the manifest names ``mlpackage``, written by
npubuild.ane.coreml), the same seeded random inputs — uniform in [-1, 1), fp16 (fp32 where a cast reads
one), in the shapes of the node's input currencies — go to the package, loaded with ``ct.models.MLModel(path,
compute_units=ct.ComputeUnit.CPU_AND_NE)`` and run with ``MLModel.predict``, and to the ``ane`` backend's
emulation of the node (:func:`npubuild.runner.ane.execute`, the node loaded as the runtime loads it, every
value rounded to fp16 at the node's boundary). Per node it reports the largest absolute difference and the
largest distance in fp16 units in the last place (ULP: how many fp16 values lie between the two answers).

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
    """``predict(package, inputs) -> outputs`` running a package on Core ML with the CPU and the Neural Engine."""
    from ..ane.coreml import coremltools, quiet

    ct = coremltools()[0]

    def predict(path: Path, inputs: dict) -> dict:
        with quiet():  # coremltools warns while it loads a model; a failure raises and is reported per node
            model = ct.models.MLModel(str(path), compute_units=ct.ComputeUnit.CPU_AND_NE)
            return model.predict(inputs)

    return predict


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


def compare_graph(rt, name: str, predict, seed: int = 0) -> list[dict]:
    """One row per program node of the ANE graph ``name`` of the loaded artifacts ``rt``: node, name, route,
    package, and max_abs / max_ulp, or error (what the predictor raised)."""
    record = ane_record(rt, name)
    runner = rt.graph(name, backend="ane")
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
        try:
            out = predict(safe_path(rt.path, pkg["path"]), {f"in{p}": a for p, a in enumerate(inputs)})
            got = np.asarray(out["y"], dtype=np.float16).reshape(node.out.shape)
        except Exception as e:  # Core ML's errors are plain Exceptions (a model it cannot compile, no ANE, ...)
            row["error"] = " ".join(str(e).split()) or type(e).__name__
        else:
            row["max_abs"], row["max_ulp"] = errors(got, emulate(node, inputs))
        rows.append(row)
    return rows


def format_row(r: dict) -> str:
    head = f"n{r['node']} {r['name']} ({r['route']})"
    if "error" in r:
        return f"{head}: Core ML failed: {r['error']}"
    ulp = "n/a (NaN in one answer only)" if r["max_ulp"] is None else str(r["max_ulp"])
    return f"{head}: max abs err {r['max_abs']:.6g}, max ULP {ulp}"


def run(name: str, artifacts: str | None, seed: int = 0, predict=None, platform: str | None = None) -> int:
    """The command: load and verify the artifacts, then compare every node (``predict`` defaults to Core ML)."""
    from ..core.config import load_config
    from .runtime import load

    rt = load(Path(artifacts) if artifacts else load_config().artifacts)
    ane_record(rt, name)  # a wrong name is reported everywhere, before the platform
    if predict is None:
        reason = no_runtime_reason(platform)
        if reason:
            raise UserError(reason)
        predict = coreml_predictor()
    rows = compare_graph(rt, name, predict, seed)
    for r in rows:
        print(format_row(r))
    failed = sum(1 for r in rows if "error" in r)
    print(f"ane-compare {name}: {len(rows)} node(s), seed {seed}, {failed} failed on Core ML")
    return 1 if failed else 0
