"""The one-dispatch int8 GEMM (npubuild.emitters.aie.gemm_whole): the design chosen per
shape, its static checks, its text, and its emitted aie.mlir run by the host model of
tests/design_sim_gemm.py, which must give NumPy's int32 product bit for bit, and must
not when an offset, stride, link or wait of the text is wrong."""
from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest

from npubuild.emitters.aie import design_for, emit
from npubuild.emitters.aie.devices import DEVICES
from npubuild.emitters.aie.gemm import overlay_for, render_overlay
from npubuild.emitters.aie.gemm_whole import WholeArray, whole_array_problems
from npubuild.ops.gemm_layout import subtile, unsubtile
from npubuild.core.errors import UserError
from npubuild.ops.quant import (
    int8_matmul,
    int8_matmul_accumulate,
    quantize_per_col,
    quantize_per_row,
)
from npubuild.runner.gemm import (
    BlockedGemm,
    RefDispatch,
    WholeGemm,
    check_whole_array_abi,
)
from npubuild.specfile.instances import make_instance

from . import design_sim_gemm as sim

NPU1, NPU2 = DEVICES["npu1"], DEVICES["npu2"]
OPTS = {"runtime_sequence": "aie.runtime_sequence", "link_with": "func"}


def mm(a, b):
    return make_instance("matmul", "i8", [a, b], {})


def codes(w, m, k, n, seed=0):
    """Random int8 codes in the zero-padded row-major buffers the runtime fills."""
    rng = np.random.default_rng(seed)
    mp, kp, np_ = w.padded
    a = np.zeros((mp, kp), np.int8)
    b = np.zeros((kp, np_), np.int8)
    a[:m, :k] = rng.integers(-128, 128, (m, k))
    b[:k, :n] = rng.integers(-128, 128, (k, n))
    return a, b


def simulate(w, text, a, b):
    mp, _, np_ = w.padded
    return sim.run(text, a, b, w.mmul).reshape(mp, np_)


def product(a, b, m, k, n):
    return a[:m, :k].astype(np.int32) @ b[:k, :n].astype(np.int32)


# ---- acceptance: one dispatch ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "m, k, n, dev",
    [(512, 512, 512, NPU1), (1, 4096, 1024, NPU1),
     pytest.param(512, 512, 512, NPU2, marks=pytest.mark.slow), pytest.param(1, 4096, 1024, NPU2, marks=pytest.mark.slow)],
)
def test_acceptance_shapes_are_one_dispatch_on_every_core(m, k, n, dev):
    inst = mm((m, k), (k, n))
    w = design_for(inst, {"device": dev.name})
    abi = json.loads(json.dumps(w.abi()))
    assert abi["kind"] == "gemm_whole_array" and abi["dispatches_per_run"] == 1 and abi["fallback"] is None
    assert abi["cores"] == 4 * dev.columns and abi["core_rows"] == 4 and abi["partition"] == dev.name
    mp, kp, np_ = w.padded
    if m == 1:  # the GEMV design (docs/xdna-gemm.md): the one row padded once to one mm.cc tile, not to 4 * tm
        assert abi["variant"] == "gemv" and mp == w.tm and (kp, np_) == (k, n)
    else:
        assert mp % (4 * w.tm) == 0 and mp >= m and (kp, np_) == (k, n)
    assert abi["bytes_detail"] == {"to_device": mp * kp, "from_device": mp * np_ * 4, "weight_once": kp * np_}
    assert abi["bytes_per_run"] == mp * kp + mp * np_ * 4
    text = emit(inst, {"device": dev.name})
    a, b = codes(w, m, k, n, seed=m + n)
    c = simulate(w, text, a, b)
    np.testing.assert_array_equal(c[:m, :n], product(a, b, m, k, n))


# ---- bit-identical on the host model -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "m, k, n, dev",
    [(1, 1, 1, NPU1), (65, 130, 70, NPU1), (65, 130, 70, NPU2), (3, 600, 300, NPU1), (2048, 64, 64, NPU1), (17, 40, 300, NPU2)],
)
def test_simulated_design_equals_numpy(m, k, n, dev):
    inst = mm((m, k), (k, n))
    w = overlay_for(inst, dev)
    assert w.kind == "gemm_whole_array"
    a, b = codes(w, m, k, n, seed=m * 3 + k)
    c = simulate(w, emit(inst, {"device": dev.name}), a, b)
    np.testing.assert_array_equal(c[:m, :n], product(a, b, m, k, n))


@pytest.mark.parametrize("cols, dev", [(1, NPU1), (2, NPU1), (2, NPU2), (8, NPU2)])
def test_every_width_simulates_exactly(cols, dev):
    """1 and 2 columns distribute A's row tiles from one mem tile (link offsets); 8 use alternate A columns."""
    m, k, n = 130, 72, 100
    w = WholeArray("mm", dev, m, k, n, 32, 32, 16, cols, (m, k), (k, n))
    assert whole_array_problems(w) == []
    a, b = codes(w, m, k, n, seed=cols)
    c = simulate(w, render_overlay(w, OPTS), a, b)
    np.testing.assert_array_equal(c[:m, :n], product(a, b, m, k, n))


def test_batched_a_flattens_into_m():
    w = overlay_for(mm((2, 3, 70), (70, 9)), NPU1)
    assert (w.m, w.k, w.n) == (6, 70, 9)
    a, b = codes(w, 6, 70, 9, seed=5)
    c = simulate(w, render_overlay(w, OPTS), a, b)
    np.testing.assert_array_equal(c[:6, :9], product(a, b, 6, 70, 9))


# ---- a wrong offset, stride, link or wait must fail ------------------------------------------------------------------


MULTI = (600, 128, 512)  # npu1: 3 transfer blocks (BDs reused after waits), 2 N-tiles per column


def _first(text: str, marker: str, edit) -> str:
    """``text`` with ``edit`` applied to the first line holding ``marker``."""
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if marker in ln)
    lines[i] = edit(lines[i])
    assert lines[i] != text.splitlines()[i], marker
    return "\n".join(lines)


def _nth_list(line: str, which: int, fn) -> str:
    """Rewrite the ``which``-th bracketed integer list of a line."""
    spans = [m.span() for m in re.finditer(r"\[[\d, ]+\]", line)]
    lo, hi = spans[which]
    vals = [int(v) for v in line[lo + 1 : hi - 1].split(",")]
    return line[:lo] + "[" + ", ".join(map(str, fn(vals))) + "]" + line[hi:]


TAMPER = {
    # A's row-tile offset moved by one word
    "A offset": ("metadata = @A_L3L2_1}", lambda ln: _nth_list(ln, 0, lambda v: v[:3] + [v[3] + 4])),
    # B's row stride one word short
    "B stride": ("metadata = @B_L3L2_0}", lambda ln: _nth_list(ln, 2, lambda v: [v[0], v[1], v[2] - 4, v[3]])),
    # B's stride between a column's N-tiles (n * cols) as if one column
    "B tile stride": ("metadata = @B_L3L2_1}", lambda ln: _nth_list(ln, 2, lambda v: [v[0] // 4, *v[1:]])),
    # C's column offset
    "C offset": ("metadata = @C_L2L3_1}", lambda ln: _nth_list(ln, 0, lambda v: v[:3] + [v[3] + 16])),
    # the mem tile's re-tiling of A: the inner stride
    "A dims": ("aie.objectfifo @A_L2L1_0(", lambda ln: ln.replace("<size = 8, stride = 1>", "<size = 8, stride = 2>")),
    # B's sub-tile walk with two dimensions' strides swapped
    "B dims": ("aie.objectfifo @B_L2L1_0(", lambda ln: re.sub(r"<size = (\d+), stride = (\d+)>, <size = (\d+), stride = (\d+)>, <size = (\d+), stride = (\d+)>",
                                                           lambda g: f"<size = {g[1]}, stride = {g[2]}>, <size = {g[3]}, stride = {g[6]}>, <size = {g[5]}, stride = {g[4]}>", ln, count=1)),
    # C's join with two cores' offsets swapped
    "join offsets": ("-> [@C_L2L3_0]", lambda ln: _nth_list(ln, 0, lambda v: [v[1], v[0], *v[2:]])),
    # A's distribute-free link fed from the wrong shim FIFO
    "A link": ("aie.objectfifo.link [@A_L3L2_0]", lambda ln: ln.replace("@A_L3L2_0]", "@A_L3L2_1]").replace("@A_L2L1_0]", "@A_L2L1_0]")),
}


@pytest.mark.parametrize("case", sorted(TAMPER))
def test_a_wrong_pattern_fails_the_simulation(case):
    marker, edit = TAMPER[case]
    m, k, n = MULTI
    inst = mm((m, k), (k, n))
    w = overlay_for(inst, NPU1)
    text = emit(inst)
    a, b = codes(w, m, k, n, seed=1)
    np.testing.assert_array_equal(simulate(w, text, a, b)[:m, :n], product(a, b, m, k, n))
    bad = _first(text, marker, edit)
    try:
        c = simulate(w, bad, a, b)
    except (sim.SimError, ValueError):
        return
    assert not np.array_equal(c[:m, :n], product(a, b, m, k, n))


def test_design_geometry_used_by_the_tamper_cases():
    w = overlay_for(mm(MULTI[:2], MULTI[1:]), NPU1)
    assert (w.cols, w.n_tiles, len(w.groups())) == (4, 2, 3)


def test_reusing_a_buffer_descriptor_before_its_wait_fails():
    m, k, n = MULTI
    inst = mm((m, k), (k, n))
    w = overlay_for(inst, NPU1)
    text = emit(inst)
    lines = text.splitlines()
    first_wait = next(i for i, ln in enumerate(lines) if "dma_wait" in ln)
    bad = "\n".join(lines[:first_wait] + lines[first_wait + w.cols :])  # block 0's wait dropped, block 2 reuses its BDs
    a, b = codes(w, m, k, n)
    with pytest.raises(sim.SimError, match="reprogrammed"):
        simulate(w, bad, a, b)
    last = "\n".join(lines[: -4 - 1] + lines[-4:])  # drop the final wait on the last column's C
    with pytest.raises(sim.SimError, match="never awaited"):
        simulate(w, last, a, b)


def test_the_planner_checks_its_own_sequence():
    w = overlay_for(mm(MULTI[:2], MULTI[1:]), NPU1)
    seq = [op for op in w.sequence]
    first_wait = next(i for i, op in enumerate(seq) if not hasattr(op, "sizes"))
    broken = seq[:first_wait] + seq[first_wait + w.cols :]

    class Broken(WholeArray):
        @property
        def sequence(self):
            return broken

    probs = whole_array_problems(Broken(**{f.name: getattr(w, f.name) for f in dataclasses.fields(w)}))
    assert any("reused by block 2 before block 0 retired" in p for p in probs)


# ---- choice, fallback, text ------------------------------------------------------------------------------------------


def test_fallback_to_the_blocked_overlay_states_why():
    inst = mm((64, 64), (64, 20000))  # 79 N-tiles per column: the shim's repeat count is at most 64
    ov = overlay_for(inst, NPU1)
    assert ov.kind == "gemm_overlay"
    abi = ov.abi()
    assert re.search(r"N-tiles of \d+ per column: the shim DMA's repeat count \((\d+)\) exceeds 64", abi["fallback"])
    assert abi["dispatches_per_run"] == ov.blocks[0] * ov.blocks[1] * ov.blocks[2]
    assert f"// blocked overlay, not the one-dispatch design: {abi['fallback']}" in emit(inst)
    assert overlay_for(inst, NPU2).kind == "gemm_whole_array"  # 8 columns: 40 N-tiles each


def test_text_uses_the_whole_array_constructs():
    text = emit(mm((130, 72), (72, 100)))
    assert re.search(r"aie\.objectfifo @A_L2L1_0\(%mem_0_1 dimensionsToStream \[<size = \d+, stride = \d+>(, <size = \d+, stride = \d+>){3}\], "
                     r"\{%core_0_2, %core_1_2, %core_2_2, %core_3_2\}, 2 : i32\)", text)
    assert re.search(r"aie\.objectfifo @B_L2L1_0\(%mem_0_1 dimensionsToStream .*\{%core_0_2, %core_0_3, %core_0_4, %core_0_5\}", text)
    assert re.search(r"aie\.objectfifo\.link \[@C_L1L2_0_0, @C_L1L2_0_1, @C_L1L2_0_2, @C_L1L2_0_3\] -> \[@C_L2L3_0\] \(\[0, \d+, \d+, \d+\] \[\]\)", text)
    assert text.count("aie.core(") == 16 and text.count("func.call @zero_i32") == 16
    assert ("scf.for %kb = " in text) == (overlay_for(mm((130, 72), (72, 100)), NPU1).k_blocks > 1)
    assert "stack_size = 3328 : i32" in text
    w = WholeArray("mm", NPU1, 130, 72, 100, 32, 32, 16, 2, (130, 72), (72, 100))
    two = render_overlay(w, OPTS)
    assert w.k_blocks == 3 and "scf.for %kb = " in two  # K-blocks: the core loops over them
    assert "aie.objectfifo.link [@A_L3L2_0] -> [@A_L2L1_0, @A_L2L1_1] ([] [0, 1024])" in two
    assert "aie.device(npu1_2col)" in two


def test_static_checks_refuse_what_mm_cc_or_the_core_cannot_take():
    bad_tile = WholeArray("mm", NPU1, 64, 64, 64, 8, 64, 64, 4)
    assert any("mm.cc" in p for p in whole_array_problems(bad_tile))
    too_big = WholeArray("mm", NPU1, 512, 512, 512, 64, 256, 64, 4)
    assert any("needs" in p and "bytes" in p for p in whole_array_problems(too_big))
    too_wide = WholeArray("mm", NPU1, 64, 64, 64, 16, 64, 64, 8)
    assert any("columns" in p for p in whole_array_problems(too_wide))


def test_subtile_round_trip_and_layout():
    x = np.arange(8 * 16).reshape(8, 16)
    f = subtile(x, 4, 8)
    np.testing.assert_array_equal(f[:32].reshape(4, 8), x[:4, :8])  # the first sub-tile is row-major
    np.testing.assert_array_equal(f[32:64].reshape(4, 8), x[:4, 8:])  # sub-tiles row-major
    np.testing.assert_array_equal(unsubtile(f, 8, 16, 4, 8), x)
    with pytest.raises(ValueError):
        subtile(np.zeros((6, 8)), 4, 8)


# ---- the runtime side ------------------------------------------------------------------------------------------------


class SimDispatch:
    """WholeGemm's dispatch contract served by the simulated design: pad, run the text, return C."""

    def __init__(self, w, text):
        self.w, self.text, self.calls = w, text, 0

    def prepare_b(self, qw):
        _, kp, np_ = self.w.padded
        b = np.zeros((kp, np_), np.int8)
        b[: qw.shape[0], : qw.shape[1]] = qw
        return b

    def run(self, qa, b):
        mp, kp, _ = self.w.padded
        a = np.zeros((mp, kp), np.int8)
        a[: qa.shape[0], : qa.shape[1]] = qa
        self.calls += 1
        return simulate(self.w, self.text, a, b)


def test_whole_gemm_runtime_matches_the_reference_gemm():
    m, k, n = 37, 300, 90
    inst = mm((m, k), (k, n))
    w = overlay_for(inst, NPU1)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((m, k)).astype(np.float32)
    wt = rng.standard_normal((k, n)).astype(np.float32)
    x[4, 7] = np.nan
    disp = SimDispatch(w, emit(inst))
    g = WholeGemm(k, n, disp, w.padded)
    g.set_weight(wt)
    y = g(x)
    ref = BlockedGemm(k, n, RefDispatch(64 * 4), 64, 4, 1)
    ref.set_weight(wt)
    want = ref(x)
    np.testing.assert_array_equal(g.last_accumulator, ref.last_accumulator)
    np.testing.assert_array_equal(y, want)
    assert disp.calls == 1 and g.dispatches == 1
    assert np.isnan(y[4]).all() and not np.isnan(np.delete(y, 4, axis=0)).any()  # the NaN row, as BlockedGemm gives
    x[4, 7] = 0.5
    qa, _ = quantize_per_row(x)
    qb, _ = quantize_per_col(wt)
    g(x)
    np.testing.assert_array_equal(g.last_accumulator, int8_matmul_accumulate(qa, qb))
    np.testing.assert_array_equal(g(x), int8_matmul(x, wt))


def test_whole_array_abi_is_checked_by_the_runner():
    inst = mm((8, 256), (256, 512))
    w = overlay_for(inst, NPU1)
    abi = json.loads(json.dumps(w.abi()))
    rec = {"inputs": [{"shape": [8, 256]}, {"shape": [256, 512]}]}
    assert check_whole_array_abi("k", rec, abi) == w.padded
    small = json.loads(json.dumps(abi))
    small["padded"]["n"] = 256
    with pytest.raises(UserError, match="smaller than the kernel's 8 x 256 x 512"):
        check_whole_array_abi("k", rec, small)
    bufs = json.loads(json.dumps(abi))
    bufs["buffers"][2]["dtype"] = "i8"
    with pytest.raises(UserError, match="buffers are not those of its padding"):
        check_whole_array_abi("k", rec, bufs)
    gone = {k: v for k, v in abi.items() if k != "padded"}
    with pytest.raises(UserError, match="records no padded"):
        check_whole_array_abi("k", rec, gone)
