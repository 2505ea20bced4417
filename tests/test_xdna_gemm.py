"""The int8 GEMM overlay of the xdna target: parameters, MLIR text, host layouts,
and a NumPy emulation of the NPU that must reproduce the reference int8 GEMM."""
from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest

from npubuild.emitters.aie import check_instance, emit
from npubuild.emitters.aie.devices import DEVICES, GEMM_STACK, Device
from npubuild.emitters.aie.gemm import blocked_overlay_for, overlay_for, render_overlay
from npubuild.ops.gemm_layout import mmul_shape, tile_a, tile_b, untile_c
from npubuild.core.errors import UnsupportedOnTarget
from npubuild.ops.quant import (
    int8_matmul,
    int8_matmul_accumulate,
    quantize_per_col,
    quantize_per_row,
)
from npubuild.runner.gemm import BlockedGemm, OverlayDispatch
from npubuild.specfile.instances import make_instance

NPU1, NPU2 = DEVICES["npu1"], DEVICES["npu2"]
OPTS = {"runtime_sequence": "aie.runtime_sequence", "link_with": "func"}


def mm(a, b, dtype="i8"):
    return make_instance("matmul", dtype, [a, b], {})


# ---- parameters ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, dev, kt, cols, partition, blocks",
    [
        ((1, 1), (1, 1), NPU1, 1, 1, "npu1_1col", (1, 1, 1)),
        ((64, 64), (64, 64), NPU1, 1, 1, "npu1_1col", (1, 1, 1)),
        ((2, 65), (65, 64), NPU1, 2, 1, "npu1_1col", (1, 1, 1)),
        ((64, 128), (128, 256), NPU1, 2, 4, "npu1", (1, 1, 1)),
        ((3, 600), (600, 300), NPU1, 8, 4, "npu1", (1, 2, 2)),
        ((3, 600), (600, 300), NPU2, 8, 4, "npu2_4col", (1, 2, 2)),
        ((65, 130), (130, 70), NPU2, 3, 2, "npu2_2col", (2, 1, 1)),
        ((2, 5, 130), (130, 70), NPU1, 3, 2, "npu1_2col", (1, 1, 1)),
        ((200, 4096), (4096, 1000), NPU2, 8, 4, "npu2_4col", (4, 8, 4)),
    ],
)
def test_overlay_parameters(a, b, dev, kt, cols, partition, blocks):
    ov = blocked_overlay_for(mm(a, b), dev)
    m = int(np.prod(a[:-1]))
    assert (ov.d, ov.kt, ov.cols) == (64, kt, cols)
    assert (ov.m, ov.k, ov.n) == (m, a[-1], b[1])
    assert ov.partition == partition
    assert ov.arch == dev.arch
    assert ov.tile == (64, kt * 64, cols * 64)
    assert ov.blocks == blocks
    # aie2's mm.cc builds its scalar variants too unless VECTORIZED_ONLY (whole_array/Makefile adds it)
    only = ["VECTORIZED_ONLY"] if dev.arch == "aie2" else []
    assert ov.define_names == ["i8_i32_ONLY", "DIM_M=64", "DIM_K=64", "DIM_N=64", *only]
    assert ov.defines == [f"-D{d}" for d in ov.define_names]
    assert ov.stack == GEMM_STACK == 3328


def test_columns_limited_by_the_device():
    two = Device("npu1", 2, "aie2")
    ov = blocked_overlay_for(mm((4, 64), (64, 1024)), two)
    assert ov.cols == 2 and ov.partition == "npu1"


def test_f32_matmul_is_unsupported():
    inst = mm((4, 8), (8, 16), dtype="f32")
    with pytest.raises(UnsupportedOnTarget, match="computes in i8 or bf16"):
        overlay_for(inst, NPU1)
    with pytest.raises(UnsupportedOnTarget, match=r"computes in i8 \("):
        blocked_overlay_for(mm((4, 8), (8, 16), dtype="bf16"), NPU1)  # the blocked overlay is int8 only
    with pytest.raises(UnsupportedOnTarget):
        emit(inst)
    assert "i8" in check_instance(inst)
    assert check_instance(mm((4, 8), (8, 16))) is None


def test_mmul_shapes():
    assert mmul_shape("aie2") == (4, 8, 8)
    assert mmul_shape("aie2p") == (8, 8, 8)
    with pytest.raises(UnsupportedOnTarget):
        mmul_shape("aie1")


def test_microkernel_name_is_per_arch_and_config():
    inst = mm((64, 128), (128, 256))
    o1, o2 = blocked_overlay_for(inst, NPU1), blocked_overlay_for(inst, NPU2)
    assert o1.microkernel == "mm_aie2_i8_i32_64x64x64.o"
    assert o2.microkernel == "mm_aie2p_i8_i32_64x64x64.o"
    small = dataclasses.replace(o1, d=32)
    assert small.microkernel not in (o1.microkernel, o2.microkernel)
    assert "-DDIM_K=32" in small.defines
    assert o1.microkernel_source == "aie_kernels/aie2/mm.cc" and o2.microkernel_source == "aie_kernels/aie2p/mm.cc"
    # the name lands in the design text
    assert f'link_with = "{o2.microkernel}"' in render_overlay(o2, OPTS)


def test_abi_is_json_and_describes_the_dispatch():
    ov = blocked_overlay_for(mm((3, 600), (600, 300)), NPU2)
    abi = json.loads(json.dumps(ov.abi()))
    assert abi["device"] == "npu2" and abi["partition"] == "npu2_4col"
    assert (abi["d"], abi["kt"], abi["cols"], abi["columns"]) == (64, 8, 4, 4)
    assert abi["mmul"] == [8, 8, 8]
    assert abi["tile"] == {"m": 64, "k": 512, "n": 256}
    names = [b["name"] for b in abi["buffers"]]
    assert names == ["a_tile", "b_tiles", "c_tile"]
    assert [b["dtype"] for b in abi["buffers"]] == ["i8", "i8", "i32"]
    assert [b["shape"] for b in abi["buffers"]] == [[64, 512], [512, 256], [64, 256]]
    assert [b["layout"] for b in abi["buffers"]] == ["tile_a", "tile_b", "untile_c"]
    assert abi["layouts"] == "npubuild.ops.gemm_layout"
    blk = abi["blocking"]
    assert (blk["m"], blk["k"], blk["n"]) == (3, 600, 300)
    assert (blk["m_blocks"], blk["k_blocks"], blk["n_blocks"], blk["dispatches"]) == (1, 2, 2, 4)
    assert abi["microkernel"]["object"] == ov.microkernel
    assert abi["microkernel"]["symbols"] == ["matmul_i8_i32", "zero_i32"]


# ---- static checks -----------------------------------------------------------------------------------------------------


def test_core_memory_is_checked_with_the_gemm_stack():
    # 2x4 KiB A + 2x4 KiB B + 16 KiB C + 3328 stack = 36096 bytes
    ok = Device("npu1", 4, "aie2", core_memory=36096)
    blocked_overlay_for(mm((64, 128), (128, 64)), ok)
    tight = Device("npu1", 4, "aie2", core_memory=36095)
    with pytest.raises(UnsupportedOnTarget, match=r"core \(0, 2\) needs 36096 bytes"):
        blocked_overlay_for(mm((64, 128), (128, 64)), tight)


def test_dma_limits_are_checked():
    with pytest.raises(UnsupportedOnTarget, match="buffer descriptor id 2"):
        blocked_overlay_for(mm((4, 64), (64, 64)), Device("npu1", 4, "aie2", shim_bds=2))
    with pytest.raises(UnsupportedOnTarget, match="input DMA channels"):
        blocked_overlay_for(mm((4, 64), (64, 64)), Device("npu1", 4, "aie2", core_in_channels=1))
    with pytest.raises(UnsupportedOnTarget, match=r"shim tile \(0, 0\) sends 2 streams"):
        blocked_overlay_for(mm((4, 64), (64, 64)), Device("npu1", 4, "aie2", shim_in_channels=1))


# ---- the MLIR text -----------------------------------------------------------------------------------------------------


def _cores(text: str) -> list[str]:
    return re.findall(r"= aie\.core\(.*?\n    \} \{[^}]*\}", text, re.S)


@pytest.mark.parametrize("dev", [NPU1, NPU2])
@pytest.mark.parametrize("a, b", [((1, 1), (1, 1)), ((65, 130), (130, 70)), ((3, 600), (600, 300))])
def test_text_structure(a, b, dev):
    ov = blocked_overlay_for(mm(a, b), dev)
    text = render_overlay(ov, OPTS)
    assert text.startswith(f"// npubuild xdna kernel {ov.kernel}\n")
    assert f"aie.device({ov.partition}) {{" in text
    cores = _cores(text)
    assert len(cores) == ov.cols
    for c in range(ov.cols):
        assert f"%core_{c}_2 = aie.tile({c}, 2)" in text
        assert f"%shim_{c}_0 = aie.tile({c}, 0)" in text and f"%mem_{c}_1 = aie.tile({c}, 1)" in text
        assert f"aie.core(%core_{c}_2)" in cores[c]
        assert f"aie.objectfifo.acquire @b_c{c}(Consume, 1)" in cores[c]
        assert f"aie.objectfifo.acquire @c_c{c}(Produce, 1)" in cores[c]
        assert cores[c].index("func.call @zero_i32") < cores[c].index("func.call @matmul_i8_i32")
        assert cores[c].rstrip().endswith("{stack_size = 3328 : i32}")
        assert ("scf.for %kb" in cores[c]) == (ov.kt > 1)
        if ov.kt > 1:
            assert f"%c{ov.kt} = arith.constant {ov.kt} : index" in cores[c]
        assert "%c9223372036854775807" in cores[c]
    assert "aie.core(%core_{}_2)".format(ov.cols) not in text
    consumers = ", ".join(f"%core_{c}_2" for c in range(ov.cols))
    assert f"aie.objectfifo @a(%mem_0_1, {{{consumers}}}" in text
    assert "func.func private @matmul_i8_i32(memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>)" in text
    assert "func.func private @zero_i32(memref<64x64xi32>)" in text
    seq = text[text.index("aie.runtime_sequence(") :]
    assert seq.startswith(
        f"aie.runtime_sequence(%a_tile: memref<{64 * 64 * ov.kt}xi8>, %b_tiles: memref<{64 * 64 * ov.kt * ov.cols}xi8>, "
        f"%c_tile: memref<{64 * 64 * ov.cols}xi32>)"
    )
    assert seq.count("aiex.npu.dma_memcpy_nd(") == 1 + 2 * ov.cols
    assert seq.count("issue_token = true") == seq.count("aiex.npu.dma_wait") == ov.cols
    assert text == render_overlay(ov, OPTS)  # deterministic


def test_link_with_placement():
    ov = blocked_overlay_for(mm((64, 128), (128, 128)), NPU1)
    lw = f'link_with = "{ov.microkernel}"'
    func = render_overlay(ov, {**OPTS, "link_with": "func"})
    funcs = [ln for ln in func.splitlines() if "func.func private" in ln]
    assert len(funcs) == 2 and all(ln.endswith(f"attributes {{{lw}}}") for ln in funcs)
    assert all(c.rstrip().endswith("} {stack_size = 3328 : i32}") for c in _cores(func))
    assert func.count(lw) == 2

    core = render_overlay(ov, {**OPTS, "link_with": "core"})
    funcs = [ln for ln in core.splitlines() if "func.func private" in ln]
    assert len(funcs) == 2 and not any("attributes" in ln for ln in funcs)
    cores = _cores(core)
    assert len(cores) == 2
    assert all(c.rstrip().endswith(f"}} {{{lw}, stack_size = 3328 : i32}}") for c in cores)
    with pytest.raises(UnsupportedOnTarget):
        render_overlay(ov, {**OPTS, "link_with": "elf"})


@pytest.mark.parametrize("op", ["aie.runtime_sequence", "aiex.runtime_sequence"])
def test_runtime_sequence_spelling(op):
    inst = mm((64, 128), (128, 128))
    text = emit(inst, {"runtime_sequence": op})
    other = ({"aie.runtime_sequence", "aiex.runtime_sequence"} - {op}).pop()
    assert f"    {op}(%a_codes: memref<" in text
    assert f"{other}(" not in text


def test_emit_uses_the_device_option():
    inst = mm((64, 128), (128, 256))
    w2 = overlay_for(inst, NPU2)  # the one-dispatch design on all 8 columns of npu2
    assert w2.kind == "gemm_whole_array" and w2.cols == 8
    assert "aie.device(npu2)" in emit(inst, {"device": "npu2"})
    assert f"{w2.microkernel}" in emit(inst, {"device": "npu2"}) and w2.microkernel.startswith("mm_aie2p_i8_i32_")
    assert "aie.device(npu1)" in emit(inst)


# ---- host layouts ----------------------------------------------------------------------------------------------------


def test_tile_a_matches_the_kernel_layout():
    d, kt, r, s = 16, 3, 4, 8
    a = np.arange(d * kt * d).reshape(d, kt * d)
    got = tile_a(a, d, kt, r, s)
    assert got.shape == (kt * d * d,)
    want = np.empty_like(got)
    for i in range(d):
        for j in range(kt * d):
            kb, jj = divmod(j, d)
            off = kb * d * d + ((i // r) * (d // s) + jj // s) * r * s + (i % r) * s + jj % s
            want[off] = a[i, j]
    np.testing.assert_array_equal(got, want)
    # mm.cc's own example: in a block, row 1 col 0 sits at offset s, row 0 col s at r*s
    assert got[s] == a[1, 0] and got[r * s] == a[0, s]


def test_tile_b_matches_the_kernel_layout():
    d, kt, cols, s, t = 16, 2, 3, 8, 8
    b = np.arange(kt * d * cols * d).reshape(kt * d, cols * d)
    got = tile_b(b, d, kt, cols, s, t)
    want = np.empty_like(got)
    for i in range(kt * d):
        for j in range(cols * d):
            kb, ii = divmod(i, d)
            c, jj = divmod(j, d)
            off = (c * kt + kb) * d * d + ((ii // s) * (d // t) + jj // t) * s * t + (ii % s) * t + jj % t
            want[off] = b[i, j]
    np.testing.assert_array_equal(got, want)


def test_untile_c_matches_the_kernel_layout():
    d, cols, r, t = 16, 3, 8, 8
    stream = np.arange(cols * d * d, dtype=np.int32)
    got = untile_c(stream, d, cols, r, t)
    assert got.shape == (d, cols * d)
    for i in range(d):
        for j in range(cols * d):
            c, jj = divmod(j, d)
            off = c * d * d + ((i // r) * (d // t) + jj // t) * r * t + (i % r) * t + jj % t
            assert got[i, j] == stream[off]


def test_layout_shape_errors():
    with pytest.raises(ValueError):
        tile_a(np.zeros((64, 64), np.int8), 64, 2, 4, 8)
    with pytest.raises(ValueError):
        tile_b(np.zeros((64, 100), np.int8), 64, 1, 2, 8, 8)
    with pytest.raises(ValueError):
        untile_c(np.zeros(10, np.int32), 64, 1, 4, 8)
    with pytest.raises(ValueError):
        tile_a(np.zeros((12, 12), np.int8), 12, 1, 8, 8)


# ---- NumPy emulation of the NPU ------------------------------------------------------------------------------------


def emulated_npu(ov):
    """What the NPU computes from the design's host buffers: for the one-dispatch design the
    emitted text run by tests/design_sim_gemm.py, for the overlay :func:`emulated_overlay`."""
    if ov.kind == "gemm_whole_array":
        from npubuild.emitters.aie.gemm import render_overlay as render

        from . import design_sim_gemm

        text = render(ov, OPTS)

        def run(a_buf, b_buf):
            return design_sim_gemm.run(text, a_buf, b_buf, ov.mmul)

        return run
    return emulated_overlay(ov)


def emulated_overlay(ov):
    """One overlay dispatch as the hardware would run it: the runtime sequence's
    transfers fill the shim-side FIFOs, the links forward them, and each core
    runs its program (zero C, then per K-block C += A . B over the r x s / s x t
    sub-tiles the vectorised kernel reads), written back through the C transfers."""
    d, kt, cols = ov.d, ov.kt, ov.cols
    r, s, t = ov.mmul
    src = {ln.dst: ln.src for ln in ov.links}
    dst = {ln.src: ln.dst for ln in ov.links}
    tm, _, tn = ov.tile

    def run(a_stream, b_stream):
        host = [np.asarray(a_stream), np.asarray(b_stream), np.full(tm * tn, -7, dtype=np.int32)]
        assert host[0].dtype == np.int8 and host[1].dtype == np.int8
        assert [h.size for h in host] == [b.elems for b in ov.buffers]
        fed = {}
        for tr in ov.transfers:
            assert tr.sizes[:3] == (1, 1, 1) and tr.strides[3] == 1  # linear
            if not tr.wait:
                fed[tr.fifo] = host[tr.buffer][tr.offset : tr.offset + tr.sizes[3]]
        for c in range(cols):
            fa, fb, fc = ov.core_streams(c)
            a_objs = fed[src[fa]].reshape(kt, d * d)
            b_objs = fed[src[fb]].reshape(kt, d * d)
            acc = np.zeros((d // r, d // t, r, t), dtype=np.int32)  # zero_i32
            for kb in range(kt):  # matmul_i8_i32 per acquired (A, B) pair
                blk_a = a_objs[kb].reshape(d // r, d // s, r, s).astype(np.int32)
                blk_b = b_objs[kb].reshape(d // s, d // t, s, t).astype(np.int32)
                acc += np.einsum("ikxy,kjyz->ijxz", blk_a, blk_b)
            out = next(tr for tr in ov.transfers if tr.fifo == dst[fc])
            assert out.wait and out.sizes[3] == d * d
            host[2][out.offset : out.offset + d * d] = acc.reshape(-1)
        return host[2]

    return run


def blocked_gemm(qa, qb, *, d, kt, cols, mmul, dispatch):
    """The runtime's blocked GEMM (npubuild.runner.gemm) driving the emulated overlay."""
    g = BlockedGemm(qa.shape[1], qb.shape[1], OverlayDispatch(dispatch, d, kt, cols, mmul), d, kt, cols)
    g.set_weight_codes(qb, np.ones(qb.shape[1], np.float32))
    return g.accumulate(qa)


def _quantised(m, k, n, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    return a, b


@pytest.mark.parametrize("dev", [NPU1, NPU2])
@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (65, 130, 70), (3, 600, 300), (64, 64, 64), (130, 1100, 520)])
def test_emulated_overlay_equals_the_reference_gemm(m, k, n, dev):
    ov = blocked_overlay_for(mm((m, k), (k, n)), dev)
    a, b = _quantised(m, k, n, seed=m * 7 + k * 3 + n)
    qa, sx = quantize_per_row(a)
    qb, sw = quantize_per_col(b)
    calls = []
    npu = emulated_npu(ov)

    def dispatch(a_stream, b_stream):
        calls.append(1)
        return npu(a_stream, b_stream)

    acc = blocked_gemm(qa, qb, d=ov.d, kt=ov.kt, cols=ov.cols, mmul=ov.mmul, dispatch=dispatch)
    assert acc.dtype == np.int32 and acc.shape == (m, n)
    np.testing.assert_array_equal(acc, int8_matmul_accumulate(qa, qb))
    assert len(calls) == ov.abi()["blocking"]["dispatches"]
    out = (acc.astype(np.float32) * sx[:, None]) * sw[None, :]
    np.testing.assert_array_equal(out, int8_matmul(a, b))


def test_emulation_depends_on_the_layout():
    """Tiling with the other architecture's mmul shape must give wrong results."""
    m, k, n = 64, 128, 128
    ov2 = blocked_overlay_for(mm((m, k), (k, n)), NPU2)  # mmul 8x8x8
    a, b = _quantised(m, k, n, seed=1)
    qa, _ = quantize_per_row(a)
    qb, _ = quantize_per_col(b)
    wrong = blocked_gemm(qa, qb, d=ov2.d, kt=ov2.kt, cols=ov2.cols, mmul=mmul_shape("aie2"), dispatch=emulated_npu(ov2))
    assert not np.array_equal(wrong, int8_matmul_accumulate(qa, qb))


def test_batched_a_flattens_into_m():
    ov = blocked_overlay_for(mm((2, 3, 70), (70, 9)), NPU1)
    assert (ov.m, ov.k, ov.n) == (6, 70, 9)
    a, b = _quantised(6, 70, 9, seed=5)
    qa, _ = quantize_per_row(a)
    qb, _ = quantize_per_col(b)
    acc = blocked_gemm(qa, qb, d=ov.d, kt=ov.kt, cols=ov.cols, mmul=ov.mmul, dispatch=emulated_npu(ov))
    np.testing.assert_array_equal(acc, int8_matmul_accumulate(qa, qb))
