"""xdna transpose (2-D, perm [1, 0]) by DMA access patterns alone (npubuild/emitters/aie/dma_transpose.py).

The constructs, as mlir-aie has them: a shim -> mem tile FIFO forwarded by a plain link at the mem
tile with no core (programming_examples/basic/passthrough_dmas/passthrough_dmas.py:37-38,
``of_in.cons().forward()``; dma_transpose/dma_transpose_iron.py:36 forwards with no Worker), the
mem tile's ``dimensionsToStream [<size = tw, stride = 1>, <size = th, stride = tw>]`` transposing
each tile (test/objectFifo-stateful-transform/dma_transformations/nd_dma_base_AIE2.mlir:131, on
memref<256xi32>), and 4-D ``aiex.npu.dma_memcpy_nd`` patterns within ``verifyStridesWraps``
(lib/Dialect/AIEX/IR/AIEXDialect.cpp:172-262). Every design passes the checker
(``layout_problems``) and mlir-aie's rules (``text_problems``), and tests/design_sim.py moves the
data exactly as the FIFOs, the link's BD pattern and the transfers say: the result must be
NumPy's transpose bit for bit (f32 NaN payloads included).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from npubuild.core.errors import UnsupportedOnTarget
from npubuild.emitters import aie
from npubuild.emitters.aie.check import design_layout, layout_problems
from npubuild.emitters.aie.devices import DEVICES
from npubuild.emitters.aie.roofline import busiest_channels, fifo_bytes, shim_bytes
from npubuild.emitters.aie.rules_check import text_problems
from npubuild.specfile.instances import make_instance
from npubuild.targets.xdna.rules import problems

from .design_sim import declared_fifos, declared_links, dma_lines, run_design

SHAPES = [(64, 32), (32, 64), (5, 3), (1, 16), (67, 40), (131, 250), (1024, 96), (3000, 7), (520, 1040), (1024, 1024)]
CASES = [(s, dt, dev) for s in SHAPES for dt in ("f32", "i32") for dev in ("npu1", "npu2")]


def _inst(shape, dtype="f32"):
    return make_instance("transpose", dtype, [shape], {"perm": [1, 0]})


def _bits(rng, shape, dtype):
    """Every 32-bit pattern is possible (f32 NaNs, infinities and negative zeros included)."""
    x = rng.integers(0, 2**32, size=shape, dtype=np.uint64).astype(np.uint32)
    return x.view(np.float32 if dtype == "f32" else np.int32)


@pytest.mark.parametrize("shape,dtype,device", CASES, ids=[f"{s[0]}x{s[1]}-{dt}@{dev}" for s, dt, dev in CASES])
def test_dma_transpose_is_numpy_transpose_bit_for_bit(shape, dtype, device):
    inst = _inst(shape, dtype)
    opts = {"device": device}
    d = aie.design_for(inst, opts)
    text = aie.emit(inst, opts)
    assert layout_problems(design_layout(d)) == []
    assert text_problems(text) == []
    # no core at all: mlir-aie's dma_transpose_iron.py and passthrough_dmas.py have no Worker either
    assert d.cores == [] and "aie.core(" not in text and "func.func" not in text
    x = _bits(np.random.default_rng(sum(shape)), shape, dtype)
    got = run_design(d, {"x": x}, None)
    want = np.ascontiguousarray(x.T).ravel()
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("device", ["npu1", "npu2"])
def test_every_column_and_both_shim_channels_carry_tiles(device):
    dev = DEVICES[device]
    d = aie.design_for(_inst((1024, 1024)), {"device": device})
    assert d.columns == dev.columns and d.partition == device
    assert len(d.bands) == 2 * dev.columns  # a FIFO pair per shim channel and column
    shims = {f.producer for f in d.fifos if f.producer[1] == 0}
    assert shims == {(c, 0) for c in range(dev.columns)}
    # the same spec on both devices: only the number of columns differs
    th, tw = d.tile
    assert 1024 % th == 0 and 1024 % tw == 0 and th * tw * 4 <= 64 * 1024


def test_the_text_is_mlir_aie_s_forward_with_a_transposing_dimensions_to_stream():
    inst = _inst((64, 32))
    d = aie.design_for(inst, {"device": "npu1"})
    text = aie.emit(inst, {"device": "npu1"})
    th, tw = d.tile
    fifos = declared_fifos(text)  # the FIFOs without dimensions (the regex reads no dimensionsToStream)
    assert set(fifos) == {f.name for f in d.fifos if not f.dims}
    for f in d.fifos:
        c = f.producer[0] if f.producer[1] == 0 else f.consumers[0][0]
        if f.dims:  # mem tile -> shim, each tile streamed column after column
            assert (f"aie.objectfifo @{f.name}(%mem_{c}_1 dimensionsToStream [<size = {tw}, stride = 1>, "
                    f"<size = {th}, stride = {tw}>], {{%shim_{c}_0}}, 2 : i32) : !aie.objectfifo<memref<{th * tw}xf32>>") in text
        else:
            assert fifos[f.name] == (f"%shim_{c}_0", f"%mem_{c}_1", 2, f"{th * tw}xf32")
    # plain links at the mem tiles, no offsets
    assert declared_links(text) == [((ln.ins[0],), (ln.outs[0],), (), ()) for ln in d.links]
    lines = dma_lines(text)
    assert len(lines) == 2 * len(d.bands) and text.count("aiex.npu.dma_wait") == len(d.bands)
    for ln in lines:
        sizes, strides = (tuple(map(int, g.split(", "))) for g in re.search(r"\]\[([^\]]*)\]\[([^\]]*)\]", ln).groups())
        assert strides[-1] == 1  # the shim reads and writes contiguous runs; the mem tile transposes
        assert sizes[-1] in (th, tw) and sizes[0] <= 64


def test_bytes_are_refused_naming_the_verifier_rule():
    """8-bit elements: no DMA pattern transposes them and no core shuffle is written (bf16 has one:
    tests/test_xdna_transpose_bf16.py)."""
    inst = _inst((4, 8), "i8")
    with pytest.raises(UnsupportedOnTarget, match="inner-most dim stride must be 1"):
        aie.design_for(inst, {"device": "npu1"})
    (text,) = problems("transpose", [(4, 8)], {"perm": [1, 0]}, "i8")
    assert "f32, i32, bf16 only" in text
    for dt in ("f32", "i32", "bf16"):
        assert problems("transpose", [(4, 8)], {"perm": [1, 0]}, dt) == []


def test_a_shape_that_does_not_tile_is_refused_naming_the_limit():
    # 1031 and 1033 are primes above the 512-element tile side: 1 x 1 tiles, more than 64 bands per lane
    for device in ("npu1", "npu2"):
        with pytest.raises(UnsupportedOnTarget, match=r"repeat count allows 64 \(verifyStridesWraps\)") as e:
            aie.design_for(_inst((1031, 1033)), {"device": device})
        assert "sides of at most 512" in str(e.value)


@pytest.mark.parametrize("device", ["npu1", "npu2"])
def test_roofline_facts_count_dma_bytes_per_channel(device):
    inst = _inst((1024, 512))
    d = aie.design_for(inst, {"device": device})
    traffic = fifo_bytes(d)
    lanes = len(d.bands)
    # every byte of the tensor goes in once and out once, spread evenly over the lanes
    assert shim_bytes(d, traffic) == {"x": 1024 * 512 * 4, "y": 1024 * 512 * 4}
    assert set(traffic.values()) == {1024 * 512 * 4 // lanes}
    busy = busiest_channels(d, traffic)
    assert set(busy) == {"shim", "mem"}  # no core channel: no core
    assert busy["shim"]["bytes"] == busy["mem"]["bytes"] == 1024 * 512 * 4 // lanes
    abi = d.abi()
    assert abi["cores"] == 0 and abi["dma_only"] and abi["columns"] == DEVICES[device].columns


def test_the_model_and_the_listing_of_a_dma_only_design():
    from npubuild.emitters.aie.summary import one_line, summary

    inst = make_instance("transpose", "f32", [(1024, 1024)], {"perm": [1, 0]})
    d = aie.design_for(inst, {"device": "npu1"})
    s = summary(inst, {"device": "npu1"}, d.abi())
    assert s["cores"] == 0 and s["roofline"]["fraction"] == 1.0 and s["roofline"]["bound"].startswith("shim DMA")
    assert one_line(s).startswith("DMA only, 1 dispatch, 8.0 MiB")
