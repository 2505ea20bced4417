"""The one-dispatch bf16 GEMM: bf16 x bf16 with f32 accumulation (mm.cc's bf16_f32 combo),
the same whole-array design as int8 (tests/test_xdna_gemm_whole.py) with 2-byte A and B,
f32 C and the bf16 mmul shapes; C is rounded to bf16 once, by the runtime.

The emitted text is run by tests/design_sim_gemm.py. Its model of mm.cc adds A @ B into
the f32 accumulator; with integer-valued inputs of magnitude <= 8 every partial sum is an
integer below 2**24, so the f32 sums are exact whatever order the hardware adds in, and
the simulated C must equal NumPy's product bit for bit."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from npubuild.core.constants import numpy_dtype
from npubuild.emitters.aie import design_for, emit
from npubuild.emitters.aie.gemm_whole import TILE_MULTIPLES, whole_array_problems
from npubuild.core.errors import UnsupportedOnTarget
from npubuild.specfile.instances import make_instance

from . import design_sim_gemm as sim

BF16 = numpy_dtype("bf16")
OPTS = {"runtime_sequence": "aie.runtime_sequence", "link_with": "func"}


def mm(a, b):
    return make_instance("matmul", "bf16", [a, b], {})


def padded_inputs(w, m, k, n, seed=0):
    """Small integers as bf16 in the zeroed padded row-major buffers the runtime fills."""
    rng = np.random.default_rng(seed)
    mp, kp, np_ = w.padded
    a = np.zeros((mp, kp), BF16)
    b = np.zeros((kp, np_), BF16)
    a[:m, :k] = rng.integers(-8, 9, (m, k)).astype(np.float32).astype(BF16)
    b[:k, :n] = rng.integers(-8, 9, (k, n)).astype(np.float32).astype(BF16)
    return a, b


def simulate(w, text, a, b):
    mp, _, np_ = w.padded
    return sim.run(text, a, b, w.mmul).reshape(mp, np_)


@pytest.mark.parametrize("m, k, n, device", [(512, 512, 512, "npu1"), (1, 4096, 1024, "npu1"),
                                             pytest.param(512, 512, 512, "npu2", marks=pytest.mark.slow),
                                             (100, 300, 200, "npu2")])
def test_one_dispatch_on_every_core_and_the_product_exactly(m, k, n, device):
    inst = mm((m, k), (k, n))
    w = design_for(inst, {"device": device})
    abi = json.loads(json.dumps(w.abi()))
    cols = {"npu1": 4, "npu2": 8}[device]
    assert abi["kind"] == "gemm_whole_array" and abi["dispatches_per_run"] == 1 and abi["cores"] == 4 * cols
    assert abi["dtype"] == "bf16" and "quantisation" not in abi and "rounds C to bf16 once" in abi["numerics"]
    mp, kp, np_ = w.padded
    assert [(b["dtype"], b["shape"]) for b in abi["buffers"]] == [("bf16", [mp, kp]), ("bf16", [kp, np_]), ("f32", [mp, np_])]
    assert abi["microkernel"]["symbols"] == ["matmul_bf16_f32", "zero_f32"]
    assert abi["microkernel"]["defines"][0] == "-Dbf16_f32_ONLY"
    assert abi["mmul"] == {"npu1": [4, 8, 4], "npu2": [4, 8, 8]}[device]
    text = emit(inst, {**OPTS, "device": device})
    a, b = padded_inputs(w, m, k, n)
    got = simulate(w, text, a, b)
    want = a.astype(np.float64) @ b.astype(np.float64)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want.astype(np.float32))


def test_text_declares_the_bf16_microkernel():
    inst = mm((64, 256), (256, 128))
    w = design_for(inst, {"device": "npu1"})
    text = emit(inst, {**OPTS, "device": "npu1"})
    tm, tk, tn = w.mm_dims
    obj = f"mm_aie2_bf16_f32_{tm}x{tk}x{tn}.o"
    assert w.microkernel == obj
    assert f'func.func private @zero_f32(memref<{tm}x{tn}xf32>) attributes {{link_with = "{obj}"}}' in text
    assert (f"func.func private @matmul_bf16_f32(memref<{tm}x{tk}xbf16>, memref<{tk}x{tn}xbf16>, memref<{tm}x{tn}xf32>) "
            f'attributes {{link_with = "{obj}"}}') in text
    assert re.search(r"runtime_sequence\(%a: memref<\d+xbf16>, %b: memref<\d+xbf16>, %c_acc: memref<\d+xf32>\)", text)
    assert "i8" not in text.split("module {", 1)[1]


def test_a_wrong_stride_breaks_the_simulated_product():
    inst = mm((128, 128), (128, 128))
    w = design_for(inst, {"device": "npu1"})
    text = emit(inst, {**OPTS, "device": "npu1"})
    a, b = padded_inputs(w, 128, 128, 128, seed=2)
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(simulate(w, text, a, b), want)
    r, s, t = w.mmul
    good = f"<size = {w.tk // s}, stride = {s}>"
    assert good in text
    bad = text.replace(good, f"<size = {w.tk // s}, stride = {s + 1}>", 1)
    try:
        got = simulate(w, bad, a, b)
    except sim.SimError:
        return  # the simulation refuses the pattern outright
    assert not np.array_equal(got, want)


@pytest.mark.parametrize("arch,device", [("aie2", "npu1"), ("aie2p", "npu2")])
def test_tiles_keep_mm_cc_static_asserts(arch, device):
    """aie2/mm.cc matmul_vectorized_4x8x4_bf16_f32: m % (4 r), k % s, n % (4 t); aie2p 4x8x8: m % (2 r), n % (2 t)."""
    fm, fk, fn = TILE_MULTIPLES[(arch, "bf16")]
    assert (fm, fk, fn) == {"aie2": (4, 1, 4), "aie2p": (2, 1, 2)}[arch]
    inst = mm((256, 256), (256, 256))
    w = design_for(inst, {"device": device})
    r, s, t = w.mmul
    assert w.tm % (fm * r) == 0 and w.tk % s == 0 and w.tn % (fn * t) == 0
    import dataclasses

    bad = dataclasses.replace(w, tn=r * 2 if arch == "aie2" else 8)  # 8 is not a multiple of 4t (aie2) / 2t (aie2p)
    assert any("does not satisfy mm.cc's" in p for p in whole_array_problems(bad))


def test_f32_matmul_is_refused_on_xdna_pointing_at_bf16():
    with pytest.raises(UnsupportedOnTarget, match="computes in i8 or bf16"):
        design_for(make_instance("matmul", "f32", [(64, 64), (64, 64)], {}), {"device": "npu1"})


def test_a_shape_no_whole_array_design_fits_is_refused_not_overlaid():
    # 40000 N-tiles' worth of columns: the shim DMA cannot address it; the int8 overlay does not take bf16
    with pytest.raises(UnsupportedOnTarget, match="the blocked overlay is int8 only"):
        design_for(mm((64, 64), (64, 70000)), {"device": "npu1"})


class FakeHw:
    """The HwKernel calls XrtBf16GemmKernel makes, over host bytearrays; ``run`` is the emitted
    design run by the simulation (what the NPU would compute from the three buffers)."""

    def __init__(self, w, text):
        self.w, self.text, self.runs, self.uploads = w, text, 0, []

    def buffer(self, nbytes, arg):
        return bytearray(nbytes)

    def mapped(self, bo, nbytes, dtype):
        return np.frombuffer(bo, dtype=np.uint8, count=nbytes).view(np.dtype(dtype))

    def to_device(self, bo, nbytes):
        self.uploads.append(nbytes)

    def run(self, bos, what):
        a = np.frombuffer(bos[0], BF16)
        b = np.frombuffer(bos[1], BF16)
        bos[2][:] = sim.run(self.text, a, b, self.w.mmul).astype(np.float32).tobytes()
        self.runs += 1

    def read(self, bo, nbytes, dtype):
        return np.frombuffer(bytes(bo[:nbytes]), np.float32)


def test_the_xrt_kernel_pads_dispatches_once_and_rounds_once():
    from npubuild.runner.xrt_gemm import XrtBf16GemmKernel

    m, k, n = 3, 100, 70
    inst = mm((1, m, k), (k, n))
    w = design_for(inst, {"device": "npu1"})
    hw = FakeHw(w, emit(inst, {**OPTS, "device": "npu1"}))
    pool = type("Pool", (), {"get": lambda self, kid: hw})()
    desc = {**inst.describe(), "targets": {"xdna": {"abi": json.loads(json.dumps(w.abi()))}}}
    kern = XrtBf16GemmKernel(inst.id, desc, pool)
    rng = np.random.default_rng(4)
    x = (rng.integers(-8, 9, (1, m, k)) * 0.5).astype(np.float32).astype(BF16)
    wt = (rng.integers(-8, 9, (k, n)) * 0.25).astype(np.float32).astype(BF16)
    kern.bind_param(1, wt)
    y = kern(x, wt)
    assert y.dtype == BF16 and y.shape == (1, m, n) and hw.runs == 1
    want = inst.opdef.evaluate([x, wt], {}, "bf16")  # the oracle: f32 sum rounded once to bf16
    np.testing.assert_array_equal(y.view(np.uint16), np.asarray(want).view(np.uint16))
    mp, kp, np_ = w.padded
    assert hw.uploads == [kp * np_ * 2, mp * kp * 2]  # the weight once at bind_param, then A
    kern(x, wt)
    assert hw.runs == 2 and hw.uploads[-1] == mp * kp * 2  # the resident weight is not sent again
