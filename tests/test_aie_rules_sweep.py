"""Every op x dtype x device (npu1, npu2) the xdna emitter takes, the GEMMs of the issue's acceptance
(512^3, 1x4096x1000, 100x300x200, int8 and bf16) and the designs of specs/, emitted and run through
mlir-aie's rules (npubuild/emitters/aie/rules.py): emit itself refuses a violation, and the text is
checked again here. A fast subset runs unmarked; the whole sweep is marked slow."""
from __future__ import annotations

import pytest

from npubuild.core.errors import UnsupportedOnTarget
from npubuild.emitters import aie
from npubuild.emitters.aie.rules_check import text_problems
from npubuild.ops import REGISTRY
from npubuild.specfile.instances import make_instance

from .test_xdna_designs import BIG, SPECIAL

DEVICES = ("npu1", "npu2")
GEMMS = [((512, 512), (512, 512)), ((1, 4096), (4096, 1000)), ((100, 300), (300, 200))]


def _op_cases():
    out = []
    for name, op in sorted(REGISTRY.items()):
        if name == "matmul":
            continue
        for dt in op.dtypes:
            specs = [(s, a) for d, s, a in SPECIAL.get(name, []) if d == dt] or [
                (s, a) for _, s, a in SPECIAL.get(name, [])] or [([BIG] * len(op.inputs), {})]
            shapes, attrs = specs[0]
            if op.attr("index_dtype"):
                attrs = {**attrs, "index_dtype": "i32"}
            out += [(name, dt, shapes, attrs, dev) for dev in DEVICES]
    for a, b in GEMMS:
        for dt in ("i8", "bf16"):
            out += [("matmul", dt, [a, b], {}, dev) for dev in DEVICES]
    return out


CASES = _op_cases()
FAST = [c for c in CASES if c[0] in ("relu", "add", "softmax", "rms_norm", "reduce_max", "transpose")
        or (c[0] == "matmul" and c[2][0] == (100, 300))]


def _emit_and_check(name, dt, shapes, attrs, dev) -> list[str] | None:
    try:
        inst = make_instance(name, dt, shapes, attrs)
    except Exception:  # the spec layer refuses the combination (shape rules of the op): nothing to emit
        return None
    try:
        text = aie.emit(inst, {"device": dev})
    except UnsupportedOnTarget as e:
        assert "breaks mlir-aie's rules" not in str(e), str(e)
        return None  # refused before any text (f16, i64, does not fit ...): nothing reaches aiecc
    return text_problems(text)


def _run(cases):
    emitted = 0
    for case in cases:
        problems = _emit_and_check(*case)
        if problems is None:
            continue
        emitted += 1
        assert problems == [], (case, problems)
    return emitted


def test_fast_subset_passes_the_rules():
    assert _run(FAST) >= len(FAST) // 2


@pytest.mark.slow
def test_every_op_dtype_device_and_the_acceptance_gemms_pass_the_rules():
    emitted = _run(CASES)
    gemms = [c for c in CASES if c[0] == "matmul"]
    assert _run(gemms) == len(gemms)  # every acceptance GEMM is emitted, on both devices
    assert emitted >= len(CASES) // 2


def _spec_instances():
    from pathlib import Path

    from npubuild.specfile.load import load_specs

    root = Path(__file__).resolve().parent.parent
    spec = load_specs(root / "specs", root)
    fams = spec.families if isinstance(spec.families, list) else list(spec.families.values())
    graphs = spec.graphs if isinstance(spec.graphs, list) else list(spec.graphs.values())
    out = [(inst, dev) for f in fams if "xdna" in f.targets for inst in f.instances for dev in DEVICES]
    for g in graphs:
        if "xdna" in g.targets:
            out += [(s.instance, dev) for s in g.steps if getattr(s, "instance", None) is not None for dev in DEVICES]
    return out


def test_the_designs_of_specs_pass_the_rules():
    emitted = 0
    for inst, dev in _spec_instances():
        try:
            text = aie.emit(inst, {"device": dev})
        except UnsupportedOnTarget as e:
            assert "breaks mlir-aie's rules" not in str(e), str(e)
            continue
        emitted += 1
        assert text_problems(text) == [], (inst.id, dev)
    assert emitted > 0
