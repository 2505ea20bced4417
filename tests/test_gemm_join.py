"""The whole-array GEMM's C join as mlir-aie takes it (issue 25, items 1 and 3).

``C_L2L3_col`` joins the four cores' ``tm x tn`` tiles of a column; its
``dimensionsToStream`` is applied by mlir-aie to EACH join input, with one mem-tile
buffer descriptor per input (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp,
``createMemTileDMA``), and ``ObjectFifoLinkOp::verify`` (lib/Dialect/AIE/IR/AIEDialect.cpp;
negative test test/dialect/AIE/objectfifo_bad_link.mlir) refuses a pattern reaching past a
join input. The old pattern, ``(4 * tm / r, r * tn)`` outermost, walked all four tiles and
reached element ``4 * tm * tn - 1``: refused by aie-opt, and now by the text model
(tests/design_sim_gemm.py) and the static checker with verify's message. The fixed
pattern, whole_array.py's ``(m / r, r * n), (r, t), (n / t, r * t), (t, 1)``, must give
NumPy's product bit for bit, for int8 and bf16 on npu1 and npu2.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from npubuild.core.constants import numpy_dtype
from npubuild.emitters.aie import design_for, emit
from npubuild.emitters.aie.check import join_bounds_problem
from npubuild.emitters.aie.devices import DEVICES
from npubuild.emitters.aie.fifos import Fifo
from npubuild.emitters.aie.gemm import render_overlay
from npubuild.emitters.aie.gemm_whole import ROWS, WholeArray, whole_array_problems
from npubuild.specfile.instances import make_instance

from . import design_sim as dsim
from . import design_sim_gemm as sim

OPTS = {"runtime_sequence": "aie.runtime_sequence", "link_with": "func"}
BF16 = numpy_dtype("bf16")

SHAPES = [
    pytest.param("i8", 512, 512, 512, "npu1"),
    pytest.param("bf16", 512, 512, 512, "npu1"),
    pytest.param("i8", 512, 512, 512, "npu2", marks=pytest.mark.slow),
    pytest.param("bf16", 512, 512, 512, "npu2", marks=pytest.mark.slow),
    *(pytest.param(dt, m, k, n, dev) for dt in ("i8", "bf16") for dev in ("npu1", "npu2")
      for m, k, n in ((100, 300, 200), (1, 4096, 1000))),
]


def _inputs(w, dtype, m, k, n, seed):
    """Random values in the zeroed padded row-major buffers the runtime fills: int8 codes, or
    bf16 integers of magnitude <= 8 (every f32 partial sum then exact, whatever the order)."""
    rng = np.random.default_rng(seed)
    mp, kp, np_ = w.padded
    if dtype == "i8":
        a, b = np.zeros((mp, kp), np.int8), np.zeros((kp, np_), np.int8)
        a[:m, :k] = rng.integers(-128, 128, (m, k))
        b[:k, :n] = rng.integers(-128, 128, (k, n))
        return a, b, (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    a, b = np.zeros((mp, kp), BF16), np.zeros((kp, np_), BF16)
    a[:m, :k] = rng.integers(-8, 9, (m, k)).astype(np.float32).astype(BF16)
    b[:k, :n] = rng.integers(-8, 9, (k, n)).astype(np.float32).astype(BF16)
    return a, b, (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def _c_line(text: str, col: int = 0) -> str:
    return next(ln for ln in text.splitlines() if f"aie.objectfifo @C_L2L3_{col}(" in ln)


def _old_c_dims(w) -> tuple:
    """The pattern npubuild emitted before: whole_array.py's with the outermost size over all ROWS tiles."""
    r, _, t = w.mmul
    m, n = w.tm, w.tn
    return (((ROWS * m) // r, r * n), (r, t), (n // t, r * t), (t, 1))


def _with_c_dims(text: str, dims) -> str:
    """``text`` with every C_L2L3 FIFO's dimensionsToStream replaced by ``dims``."""
    pat = "[" + ", ".join(f"<size = {s}, stride = {st}>" for s, st in dims) + "]"
    out, count = re.subn(r"(aie\.objectfifo @C_L2L3_\d+\(%mem_\d+_1 dimensionsToStream )\[[^\]]*\]", lambda g: g[1] + pat, text)
    assert count >= 1
    return out


@pytest.mark.parametrize("dtype, m, k, n, device", SHAPES)
def test_join_pattern_is_whole_arrays_and_old_one_is_refused(dtype, m, k, n, device):
    inst = make_instance("matmul", dtype, [(m, k), (k, n)], {})
    w = design_for(inst, {"device": device})
    assert w.kind == "gemm_whole_array"
    r, _, t = w.mmul
    tm, tn = w.tm, w.tn
    text = emit(inst, {**OPTS, "device": device})
    mp, _, np_ = w.padded
    a, b, want = _inputs(w, dtype, m, k, n, seed=m + k + n)

    # whole_array.py C_L2L3_col: [(m // r, r * n), (r, t), (n // t, r * t), (t, 1)] for each column
    fixed = ((tm // r, r * tn), (r, t), (tn // t, r * t), (t, 1))
    for col in range(w.cols):
        line = _c_line(text, col)
        assert "dimensionsToStream [" + ", ".join(f"<size = {s}, stride = {st}>" for s, st in fixed) + "]" in line, line
    assert f"-> [@C_L2L3_0] ([0, {tm * tn}, {2 * tm * tn}, {3 * tm * tn}] [])" in text
    assert dsim.dims_max_index(fixed) == tm * tn - 1  # the last element of one join input, no further

    got = sim.run(text, a, b, w.mmul).reshape(mp, np_)
    np.testing.assert_array_equal(got, want)

    # the old pattern: refused per join input, with ObjectFifoLinkOp::verify's message
    old = _old_c_dims(w)
    msg = (f"specified output stride(s) and size(s) result in out of bounds access in join input, "
           f"for index {ROWS * tm * tn - 1} in transfer of length {tm * tn}.")
    with pytest.raises(sim.SimError, match=re.escape(msg)):
        sim.run(_with_c_dims(text, old), a, b, w.mmul)


def test_the_static_checker_refuses_the_old_pattern_per_join_input():
    """check.py, link_problems / join_bounds_problem: the planner would not choose such a design."""
    w = design_for(make_instance("matmul", "i8", [(512, 512), (512, 512)], {}), {"device": "npu1"})
    assert whole_array_problems(w) == []
    old = _old_c_dims(w)

    class OldJoin(WholeArray):
        @property
        def fifos(self):
            return [dataclasses.replace(f, dims=old) if f.name.startswith("C_L2L3_") else f for f in super().fifos]

    bad = OldJoin(**{f.name: getattr(w, f.name) for f in dataclasses.fields(w)})
    probs = whole_array_problems(bad)
    tile = w.tm * w.tn  # each join input's transfer; the old pattern walks the whole joined object
    want = ("link [C_L1L2_0_0, C_L1L2_0_1, C_L1L2_0_2, C_L1L2_0_3] -> [C_L2L3_0]: @C_L2L3_0: specified output "
            f"stride(s) and size(s) result in out of bounds access in join input, for index {4 * tile - 1} in transfer of "
            f"length {tile} (mlir-aie ObjectFifoLinkOp::verify)")
    assert want in probs, probs
    assert sum("out of bounds access in join input" in p for p in probs) == w.cols


def test_join_bound_follows_verify_on_mlir_aies_negative_test():
    """test/dialect/AIE/objectfifo_bad_link.mlir: of_out (24 x i32, dims [<8, 1>, <3, 8>]) joined from
    two 12-element inputs at [0, 12]: 'for index 23 in transfer of length 12'; [<4, 1>, <3, 4>] fits."""
    from npubuild.emitters.aie.fifos import Link

    ln = Link(("of_in1", "of_in2"), "of_out", (0, 12))
    bad = Fifo("of_out", (1, 1), ((1, 0),), 2, (24,), "i32", ((8, 1), (3, 8)))
    assert "for index 23 in transfer of length 12" in join_bounds_problem(ln, bad)
    assert "for index 23 in transfer of length 12." in dsim.link_bounds_error("join", bad.dims, ln.offsets, 24)
    good = dataclasses.replace(bad, dims=((4, 1), (3, 4)))
    assert join_bounds_problem(ln, good) is None and dsim.link_bounds_error("join", good.dims, ln.offsets, 24) is None


def test_the_join_pattern_is_applied_per_join_input():
    """A pattern that fits one join input but reorders it (each tm x tn tile read column by column, a
    transpose) is lowered per input: the host buffer gets each core's tile transposed in place, which a
    walk over the whole joined object could not give (it would run past the object)."""
    m, k, n = 64, 64, 64
    inst = make_instance("matmul", "i8", [(m, k), (k, n)], {})
    w = design_for(inst, {"device": "npu1"})
    text = emit(inst, {**OPTS, "device": "npu1"})
    a, b, want = _inputs(w, "i8", m, k, n, seed=3)
    mp, _, np_ = w.padded
    r, _, t = w.mmul
    tm, tn = w.tm, w.tn
    assert tm == tn  # a square tile transposes into the same shape
    # the fixed pattern, then (columns of the un-subtiled tile) = its transpose, over r x t sub-tiles
    good = ((tm // r, r * tn), (r, t), (tn // t, r * t), (t, 1))
    np.testing.assert_array_equal(sim.run(_with_c_dims(text, good), a, b, w.mmul).reshape(mp, np_), want)
    transposed = ((tn // t, r * t), (t, 1), (tm // r, r * tn), (r, t))
    got = sim.run(_with_c_dims(text, transposed), a, b, w.mmul).reshape(mp, np_)
    rows = mp // (ROWS * tm)
    # what per-input BDs give: core tile (row block, core row, column tile) transposed where it lands
    expect = want.copy()
    for rb in range(rows):
        for cr in range(ROWS):
            for ct in range(np_ // tn):
                y, x = (rb * ROWS + cr) * tm, ct * tn
                expect[y : y + tm, x : x + tn] = want[y : y + tm, x : x + tn].T
    np.testing.assert_array_equal(got, expect)
    assert not np.array_equal(got, want)


def _distributed(text: str, fifo: str, dims) -> str:
    """``text`` with ``dimensionsFromStream`` on ``fifo``'s mem-tile consumer."""
    pat = ", ".join(f"<size = {s}, stride = {st}>" for s, st in dims)
    out, count = re.subn(rf"(aie\.objectfifo @{fifo}\(%shim_\d+_0, \{{)(%mem_\d+_1)\}}", rf"\g<1>\g<2> dimensionsFromStream [{pat}]}}", text)
    assert count == 1
    return out


def test_a_distributes_input_pattern_is_applied_per_distribute_output():
    """Two columns: A_L3L2_0 distributes two row tiles (tm x tk each, offsets [0, tm*tk]) to core rows
    0 and 1. A dimensionsFromStream on its mem-tile end is lowered per distribute output (one S2MM
    buffer descriptor each); one spanning both outputs is refused with verify's distribute message."""
    m, k, n = 130, 72, 100
    w = WholeArray("mm", DEVICES["npu1"], m, k, n, 32, 32, 16, 2, (m, k), (k, n))
    assert whole_array_problems(w) == []
    text = render_overlay(w, OPTS)
    assert "aie.objectfifo.link [@A_L3L2_0] -> [@A_L2L1_0, @A_L2L1_1] ([] [0, 1024])" in text
    a, b, want = _inputs(w, "i8", m, k, n, seed=7)
    mp, _, np_ = w.padded
    tm, tk = w.tm, w.tk
    identity = ((tm, tk), (tk, 1))  # row by row within one output: the same data
    np.testing.assert_array_equal(sim.run(_distributed(text, "A_L3L2_0", identity), a, b, w.mmul).reshape(mp, np_), want)
    both = ((2 * tm, tk), (tk, 1))  # row by row over both outputs: past the first
    with pytest.raises(sim.SimError, match=re.escape(
            f"specified input stride(s) and size(s) result in out of bounds access in distribute output, "
            f"for index {2 * tm * tk - 1} in transfer of length {tm * tk}.")):
        sim.run(_distributed(text, "A_L3L2_0", both), a, b, w.mmul)
    # a reordering that fits one output (the tile's columns first) lands in each output's own slice:
    # rows 0 and 1 of each A row block then see their tile transposed (square 32 x 32) and C changes
    swap = ((tk, 1), (tm, tk))
    got = sim.run(_distributed(text, "A_L3L2_0", swap), a, b, w.mmul).reshape(mp, np_)
    a_t = a.copy()
    for blk in range(mp // (ROWS * tm)):
        for row in range(2):  # A_L3L2_0 feeds core rows 0 and 1
            y = (blk * ROWS + row) * tm
            for kb in range(a.shape[1] // tk):
                a_t[y : y + tm, kb * tk : (kb + 1) * tk] = a[y : y + tm, kb * tk : (kb + 1) * tk].T
    np.testing.assert_array_equal(got, (a_t.astype(np.int64) @ b.astype(np.int64)).astype(np.int32))


def test_join_transfer_lengths_follow_the_offsets_order():
    """mlir-aie derives each join input's transfer length from the next offset
    (getJoinTransferLengths): swapped offsets give a negative length, which the lowering cannot move."""
    assert dsim.link_transfer_lengths([0, 4096, 8192, 12288], 16384) == [4096] * 4
    assert dsim.link_transfer_lengths([4096, 0, 8192, 12288], 16384) == [-4096, 8192, 4096, 4096]
    inst = make_instance("matmul", "i8", [(128, 64), (64, 256)], {})
    w = design_for(inst, {"device": "npu1"})
    text = emit(inst, {**OPTS, "device": "npu1"})
    mn = w.tm * w.tn
    good = f"-> [@C_L2L3_0] ([0, {mn}, {2 * mn}, {3 * mn}] [])"
    assert good in text
    bad = text.replace(good, f"-> [@C_L2L3_0] ([{mn}, 0, {2 * mn}, {3 * mn}] [])")
    a, b, _ = _inputs(w, "i8", 128, 64, 256, seed=1)
    with pytest.raises(sim.SimError, match=rf"moves -{mn} elements at offset {mn}"):
        sim.run(bad, a, b, w.mmul)
