"""The one-dispatch GEMV (npubuild/emitters/aie/gemv.py): M within one microkernel tile, N over every core.

Simulated from its emitted text (tests/design_sim_gemm.py: links verified and lowered per distribute output /
join input as mlir-aie's objectFifo pass does, mm.cc's int8 -> int32 and bf16 -> f32 products) bit-exactly
against NumPy on npu1 and npu2; the plan's choice and the bytes it moves; golden texts."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from npubuild.emitters.aie import DEFAULT_OPTIONS, design_for, emit
from npubuild.emitters.aie.devices import DEVICES
from npubuild.emitters.aie.gemm import _modelled
from npubuild.emitters.aie.gemm_whole import WholeArray, plan_whole_array
from npubuild.emitters.aie.gemm import render_overlay
from npubuild.emitters.aie.gemv import Gemv, gemv_problems, plan_gemv
from npubuild.emitters.aie.summary import modelled
from npubuild.specfile.instances import make_instance

from . import design_sim_gemm as sim
from .design_sim import SimError

GOLDEN = Path(__file__).parent / "golden" / "xdna"


def _inputs(w, m, k, n, seed):
    """Zero-padded row-major A and B as the runtime fills them: int8 codes, or bf16 small integers (every
    f32 partial sum exact, so any summation order gives the same f32)."""
    rng = np.random.default_rng(seed)
    mp, kp, np_ = w.padded
    if w.in_dtype == "i8":
        a, b = np.zeros((mp, kp), np.int8), np.zeros((kp, np_), np.int8)
        a[:m, :k], b[:k, :n] = rng.integers(-128, 128, (m, k)), rng.integers(-128, 128, (k, n))
        return a, b, a[:m, :k].astype(np.int32) @ b[:k, :n].astype(np.int32)
    a, b = np.zeros((mp, kp), ml_dtypes.bfloat16), np.zeros((kp, np_), ml_dtypes.bfloat16)
    a[:m, :k], b[:k, :n] = rng.integers(-8, 9, (m, k)), rng.integers(-8, 9, (k, n))
    return a, b, a[:m, :k].astype(np.float32) @ b[:k, :n].astype(np.float32)


def _run(w, text, a, b):
    mp, _, np_ = w.padded
    return sim.run(text, a, b, w.mmul).reshape(mp, np_)


@pytest.mark.parametrize("dtype", ["i8", "bf16"])
@pytest.mark.parametrize("dev", ["npu1", "npu2"])
@pytest.mark.parametrize("m, k, n", [(1, 4096, 1000), (1, 4096, 1024), (3, 600, 300), (16, 256, 200), (1, 40, 5000)])
def test_gemv_simulates_exactly(m, k, n, dev, dtype):
    inst = make_instance("matmul", dtype, [(m, k), (k, n)], {})
    w = plan_gemv(inst.id, DEVICES[dev], m, k, n, (m, k), (k, n), dtype)
    assert isinstance(w, Gemv) and not gemv_problems(w)
    assert w.padded[0] == w.tm and w.tm in (8, 16)  # one tile of rows, not 4 * tm
    if isinstance(design_for(inst, {"device": dev}), Gemv):  # where the plan takes it, emit gives this text
        assert emit(inst, {"device": dev}) == render_overlay(w, {**DEFAULT_OPTIONS})
    a, b, want = _inputs(w, m, k, n, seed=m + k + n)
    c = _run(w, render_overlay(w, dict(DEFAULT_OPTIONS)), a, b)  # rendering runs mlir-aie's verifier rules (rules_check)
    np.testing.assert_array_equal(c[:m, :n], want)


@pytest.mark.parametrize("dev", ["npu1", "npu2"])
def test_gemv_bytes_and_one_dispatch(dev):
    m, k, n = 1, 4096, 1000
    inst = make_instance("matmul", "i8", [(m, k), (k, n)], {})
    w = design_for(inst, {"device": dev})
    abi = w.abi()
    assert abi["kind"] == "gemm_whole_array" and abi["variant"] == "gemv" and abi["dispatches_per_run"] == 1
    own = m * k + k * n + 4 * m * n  # A and B int8 codes, C int32
    total = modelled(inst, w, abi, 1)["bytes_per_run_total"]
    ratio = total / own
    # the one row of A leaves DDR unpadded (the mem tile pads it to 16 rows), once per 2 columns; B padded to
    # whole N-tiles of the columns; C written for the 16 rows of its tile
    a_shims = 2 if dev == "npu1" else 4
    assert total == 1 * 4096 * a_shims + 4096 * 1024 + 16 * 1024 * 4
    assert ratio <= 1.1
    # the whole-array design of the same shape: M padded to 64, A sent to every column
    wa, _ = plan_whole_array(inst.id, DEVICES[dev], m, k, n, (m, k), (k, n), "i8")
    assert modelled(inst, wa, wa.abi(), 1)["bytes_per_run_total"] > 1.2 * own
    assert _modelled(inst, w) <= _modelled(inst, wa)


@pytest.mark.parametrize("dtype", ["i8", "bf16"])
def test_plan_takes_the_gemv_up_to_one_tile_of_rows(dtype):
    for m in (1, 8, 16):
        assert isinstance(design_for(make_instance("matmul", dtype, [(m, 512), (512, 512)], {}), {"device": "npu1"}), Gemv)
    d = design_for(make_instance("matmul", dtype, [(17, 512), (512, 512)], {}), {"device": "npu1"})
    assert type(d) is WholeArray and d.padded[0] == 4 * d.tm


def _variant(w: Gemv, cls):
    return cls(**{f.name: getattr(w, f.name) for f in dataclasses.fields(w)})


def test_wrong_links_or_patterns_are_caught():
    """Swapped B distribute offsets are refused by the rule checker at render (mlir-aie's lowering moves
    next-offset-minus-own elements per child); a B pattern one N-tile off renders but simulates wrong."""
    from npubuild.core.errors import UnsupportedOnTarget
    from npubuild.emitters.aie.design import Transfer

    inst = make_instance("matmul", "i8", [(1, 512), (512, 512)], {})
    w = design_for(inst, {"device": "npu1"})
    a, b, want = _inputs(w, 1, 512, 512, seed=3)
    np.testing.assert_array_equal(_run(w, emit(inst, {"device": "npu1"}), a, b)[:1], want)

    class Swapped(Gemv):
        @property
        def links(self):
            out = list(super().links)
            k = next(i for i, ln in enumerate(out) if ln.outs[0].startswith("B_L2L1_0_"))
            offs = list(out[k].offsets)
            offs[1], offs[2] = offs[2], offs[1]
            out[k] = dataclasses.replace(out[k], offsets=tuple(offs))
            return out

    with pytest.raises(UnsupportedOnTarget, match=r"\[link-transfer-length\] .*@B_L2L1_0_0"):
        render_overlay(_variant(w, Swapped), dict(DEFAULT_OPTIONS))

    class Shifted(Gemv):
        @property
        def sequence(self):
            return [dataclasses.replace(op, offset=op.offset + self.tn) if isinstance(op, Transfer) and op.fifo == "B_L3L2_0"
                    else op for op in super().sequence]

    bad = _variant(w, Shifted)
    got = _run(bad, render_overlay(bad, dict(DEFAULT_OPTIONS)), a, b)[:1]
    assert not np.array_equal(got, want)


@pytest.mark.parametrize("dev", ["npu1", "npu2"])
def test_golden(dev):
    text = emit(make_instance("matmul", "i8", [(1, 512), (512, 1000)], {}), {"device": dev})
    path = GOLDEN / f"gemv@{dev}.mlir"
    if os.environ.get("NPUBUILD_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    assert path.is_file(), f"{path} missing; run with NPUBUILD_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(), f"gemv@{dev}: emitted design differs from {path.name}"


def test_padding_walk_is_mlir_aies_example():
    """memtile_padding_test.mlir: a 61x56 read padded by 2 rows before, 1 after and 4 columns either side
    streams a 64x64 tile with the data at rows 2..62, columns 4..59."""
    from .design_sim import padded_indices

    src = np.arange(61 * 56)
    idx = padded_indices([(61, 56), (56, 1)], [(2, 1), (4, 4)], 64 * 64)
    tile = np.where(idx >= 0, src[np.maximum(idx, 0)], -1).reshape(64, 64)
    assert (tile[2:63, 4:60] == src.reshape(61, 56)).all()
    assert (tile[:2] == -1).all() and (tile[63] == -1).all() and (tile[:, :4] == -1).all() and (tile[:, 60:] == -1).all()
    with pytest.raises(SimError, match="stream"):
        padded_indices([(61, 56), (56, 1)], [(2, 1), (4, 4)], 64 * 63)


@pytest.mark.parametrize("dev", ["npu1", "npu2"])
def test_one_row_of_a_is_padded_by_the_mem_tile(dev):
    """M = 1: A's transfers send one row; the mem tile's padDimensions make the tile. Zero rows put before the
    data instead of after it move row 0 into another row block: the design then computes a zero row 0."""
    inst = make_instance("matmul", "i8", [(1, 512), (512, 512)], {})
    w = design_for(inst, {"device": dev})
    assert isinstance(w, Gemv) and w.a_rows == 1
    a_l2l1 = next(f for f in w.fifos if f.name == "A_L2L1_0")
    r = w.mmul[0]
    assert a_l2l1.pads == ((0, w.tm // r - 1), (0, 0), (0, (r - 1) * w.mmul[1]))
    assert next(f for f in w.fifos if f.name == "A_L3L2_0").elems == w.tk
    a, b, want = _inputs(w, 1, 512, 512, seed=5)
    np.testing.assert_array_equal(_run(w, emit(inst, {"device": dev}), a, b)[:1], want)

    class Before(Gemv):
        @property
        def a_stream(self):
            dims, pads = super().a_stream
            return dims, ((pads[0][1], 0), *pads[1:])

    bad = _variant(w, Before)
    got = _run(bad, render_overlay(bad, dict(DEFAULT_OPTIONS)), a, b)[:1]
    assert not np.array_equal(got, want) and not got.any()
