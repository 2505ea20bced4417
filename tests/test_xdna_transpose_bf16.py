"""xdna transpose of bf16 (npubuild/emitters/aie/shuffle_transpose.py): each mem tile cuts its tiles into 4x8
blocks (dimensionsFromStream), one core per lane transposes every block with one shuffle (``vector.transpose``
of ``vector<4x8xbf16>``, which convert-vector-to-aievec lowers to ``aievec.shuffle [t16_4x8]``: mlir-aie
test/Conversion/VectorToAIEVec/vector-transpose.mlir), and the mem tile puts the 8x4 blocks back together
(dimensionsToStream). Every design passes the static checker and mlir-aie's rules; tests/design_sim.py moves
the data as the FIFOs, links and transfers say, with ``@body`` taken out of the emitted text and compiled on
the host: the result must be NumPy's transpose bit for bit (every 16-bit pattern, NaNs included)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from npubuild.core.errors import UnsupportedOnTarget
from npubuild.emitters import aie
from npubuild.emitters.aie.check import design_layout, layout_problems
from npubuild.emitters.aie.roofline import fifo_bytes, shim_bytes
from npubuild.emitters.aie.rules_check import text_problems
from npubuild.emitters.aie.shuffle_transpose import AIE2_ONLY, ShuffleTransposeDesign, block_dims, render
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance

from .design_sim import SimError, body_module, run_design
from .hostkit import compiled_library

SHAPES = [(64, 4096), (4, 8), (64, 64), (128, 40), (1024, 96), (8, 4096), (2048, 16), (12, 24)]


def _inst(shape):
    return make_instance("transpose", "bf16", [shape], {"perm": [1, 0]})


def _body(text: str, elems: int) -> HostKernel:
    """``@body`` as emitted, compiled by the host toolchain (upstream MLIR)."""
    so = compiled_library(body_module(text), f"shuffle_body_{elems}")
    t = {"shape": [elems], "dtype": "bf16"}
    return HostKernel(so, {"id": "shuffle_body", "inputs": [{"name": "x", **t}], "outputs": [{"name": "y", **t}]})


def _bits(shape, seed):
    """Every 16-bit pattern is possible (bf16 NaNs, infinities, negative zeros)."""
    import ml_dtypes

    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**16, size=shape, dtype=np.uint32).astype(np.uint16).view(ml_dtypes.bfloat16)


@pytest.mark.parametrize("shape", SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_bf16_transpose_is_numpy_transpose_bit_for_bit(shape):
    inst = _inst(shape)
    d = aie.design_for(inst, {"device": "npu1"})
    text = aie.emit(inst, {"device": "npu1"})
    assert isinstance(d, ShuffleTransposeDesign) and d.cores
    assert layout_problems(design_layout(d)) == [] and text_problems(text) == []
    x = _bits(shape, sum(shape))
    got = run_design(d, {"x": x}, _body(text, d.tile_elems))
    np.testing.assert_array_equal(got.view(np.uint16), np.ascontiguousarray(x.T).ravel().view(np.uint16))


def test_the_body_transposes_each_block():
    """The compiled ``@body`` alone: every 32 elements are a 4x8 block, row-major, and come out as its 8x4
    transpose (the NumPy model of one aievec.shuffle t16_4x8 per block)."""
    inst = _inst((64, 64))
    d = aie.design_for(inst, {"device": "npu1"})
    body = _body(aie.emit(inst, {"device": "npu1"}), d.tile_elems)
    x = _bits((d.tile_elems,), 7)
    want = x.reshape(-1, 4, 8).transpose(0, 2, 1).ravel()
    np.testing.assert_array_equal(body(x).view(np.uint16), want.view(np.uint16))


def test_wrong_block_order_is_caught():
    """Blocks of 8x4 cut where the core transposes 4x8 ones: the text still passes the rules, the data is wrong."""
    inst = _inst((64, 64))
    d = aie.design_for(inst, {"device": "npu1"})
    th, tw = d.tile
    bad = dataclasses.replace(d.fifos[0], from_dims=((th // 8, 32 * (tw // 4)), (8, 4), (tw // 4, 32), (4, 1)))
    assert d.fifos[0].from_dims == block_dims(th, tw) != bad.from_dims
    d.fifos[0] = bad
    text = render(inst, d, {})
    x = _bits((64, 64), 3)
    got = run_design(d, {"x": x}, _body(text, d.tile_elems))
    assert not np.array_equal(got.view(np.uint16), np.ascontiguousarray(x.T).ravel().view(np.uint16))


def test_every_lane_moves_its_tiles_once():
    inst = _inst((64, 4096))
    d = aie.design_for(inst, {"device": "npu1"})
    per = shim_bytes(d, fifo_bytes(d))
    assert per == {"x": 64 * 4096 * 2, "y": 64 * 4096 * 2}
    # both shim channels of all 4 columns, one core each
    assert len(d.cores) == 8 and {c.tile[0] for c in d.cores} == {0, 1, 2, 3}


def test_npu2_and_odd_shapes_are_refused_with_the_reason():
    with pytest.raises(UnsupportedOnTarget, match="npu1 only: its core shuffle"):
        aie.design_for(_inst((64, 64)), {"device": "npu2"})
    assert "xllvm.intr.aie2.vshuffle" in AIE2_ONLY
    for shape in [(6, 8), (4, 12), (5, 3)]:
        with pytest.raises(UnsupportedOnTarget, match="multiple of 4 and the columns of 8"):
            aie.design_for(_inst(shape), {"device": "npu1"})


def test_sim_refuses_a_body_that_loses_data():
    inst = _inst((8, 16))
    d = aie.design_for(inst, {"device": "npu1"})

    def short(obj):
        return obj[:-1]

    with pytest.raises((SimError, AssertionError, ValueError)):
        run_design(d, {"x": _bits((8, 16), 1)}, short)
