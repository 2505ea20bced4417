"""Every catalog op's xdna design computes what the host kernel computes.

For one or more instances per op, the emitted aie.mlir's body function is
compiled on the host and the design's data movement (DMA patterns, FIFOs,
links, packing, chunks, columns) is run by tests/design_sim.py; the result must
equal the full host kernel's output bit for bit (same arithmetic per row), and
the host kernels are proven against the oracle by the test_host_* files.
"""
from __future__ import annotations

import numpy as np
import pytest

from npubuild.emitters import aie
from npubuild.emitters.aie.design import Design
from npubuild.ops import REGISTRY
from npubuild.ops.registry import NUMPY_DTYPE
from npubuild.spec.instances import make_instance

from .design_sim import compile_body, declared_fifos, dma_lines, run_design
from .hostkit import assert_standard_dialects

BIG = (32, 1024)  # 32768 elements: 16 chunks of 2048 over 4 columns (npu1) / 8 (npu2)

SPECIAL = {
    "softmax": [("f32", [(64, 256)], {})],
    "layer_norm": [("f32", [(4, 16, 96), (96,), (96,)], {})],  # gamma‖beta packed
    "group_norm": [("f32", [(1, 8, 8, 8), (8,), (8,)], {"num_groups": 2})],
    "rope": [("f32", [(16, 128), (16, 16), (16, 16)], {"head_dim": 32})],  # cos‖sin streamed together
    "attention": [("f32", [(16, 64), (16, 64), (16, 64)], {"num_heads": 2, "head_dim": 32, "mask": "causal"})],
    "where": [("f32", [BIG, BIG, BIG], {}), ("i32", [(4099,)] * 3, {})],  # a‖b streamed together; padded
    "fma": [("f32", [(4096,)] * 3, {})],
    "clamp": [("f32", [BIG], {"min": -0.5, "max": 0.5})],
    "cast": [("f32", [BIG], {"to": "i32"}), ("i32", [(1000,)], {"to": "f32"})],
    "concat": [("f32", [(8, 64), (8, 32)], {"axis": 1})],
    "gather": [("f32", [(8, 64), (4,)], {"axis": 1}), ("i32", [(10, 8), (3, 2)], {"axis": 0})],
    "narrow": [("f32", [(8, 64)], {"axis": 1, "start": 2, "length": 8})],
    "slice": [("f32", [(8, 64)], {"axis": 1, "start": 1, "end": 64, "step": 2})],
    "pad": [("f32", [(8, 64)], {"pads": [[0, 0], [1, 3]], "value": 7.0})],
    "reverse": [("i32", [(8, 64)], {"axes": [1]})],
    "tile": [("f32", [(8, 64)], {"reps": [1, 2]})],
    "expand": [("f32", [(8, 1)], {"shape": [8, 64]})],
    "transpose": [("f32", [(64, 32)], {"perm": [1, 0]})],
    "trilu": [("f32", [(64, 64)], {"diagonal": 1})],
    "reshape": [("f32", [(64, 32)], {"shape": [32, 64]})],
    "im2col": [("f32", [(1, 4, 8, 8)], {"kernel_size": [3, 3]})],
    "pool": [("f32", [(1, 4, 8, 8)], {"mode": "avg", "kernel_size": [2, 2]})],
    "quantize": [("i8", [(16, 64)], {"scales": [0.05]}), ("i8", [(2, 4, 32)], {"scales": [0.1, 0.2, 0.3, 0.4], "axis": 1})],
    "dequantize": [("i8", [(16, 64)], {"scales": [0.5] * 16, "axis": 0})],
    "reduce_sum": [("f32", [(64, 256)], {"keepdims": True})],
    "argmax": [("f32", [(64, 256)], {})],
    "cumsum": [("f32", [(64, 256)], {"exclusive": True})],
    "relu": [("f32", [(1024,)], {}), ("f32", [BIG], {}), ("f32", [(4099,)], {})],  # 4099: padded to 3 chunks
    "exp": [("f32", [(13, 1000)], {})],
    "rms_norm": [("f32", [(64, 256), (256,)], {}), ("f32", [(67, 128), (128,)], {})],  # 67 rows: padded
}


def _cases():
    out = []
    for name, op in sorted(REGISTRY.items()):
        if name == "matmul":
            continue  # the GEMM overlay has its own tests (test_xdna_gemm.py)
        specs = SPECIAL.get(name)
        if specs is None:
            dt = "f32" if "f32" in op.dtypes else op.dtypes[0]
            specs = [(dt, [BIG] * len(op.inputs), {})]
        if op.attr("index_dtype"):  # i64 indices cannot cross the shim DMA
            specs = [(dt, shapes, {**attrs, "index_dtype": "i32"}) for dt, shapes, attrs in specs]
        for dt, shapes, attrs in specs:
            for device in ("npu1", "npu2"):
                out.append((make_instance(name, dt, shapes, attrs), device))
    return out


CASES = _cases()


def _inputs(inst, rng):
    arrays = {}
    for n, t in zip(inst.input_names, inst.inputs):
        dt = t.dtype
        if inst.op == "gather" and n == "indices":
            axis = inst.attrs["axis"] % len(inst.inputs[0].shape)
            size = inst.inputs[0].shape[axis]
            a = rng.integers(-size, size, size=t.shape)
        elif dt == "bool":
            a = rng.random(t.shape) < 0.5
        elif dt in ("f32", "f16"):
            a = rng.standard_normal(t.shape) * 3
        else:
            a = rng.integers(-100, 100, size=t.shape)
        arrays[n] = np.asarray(a).astype(NUMPY_DTYPE[dt])
    return arrays


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    """(kernel key, device) -> the full host kernel emitted for the device's profile, so that it has the
    same body (vector or scalar) as the design's cores and the results can be compared bit for bit."""
    from npubuild.emitters import host as host_emitters
    from npubuild.emitters.aie.devices import DEVICES
    from npubuild.emitters.host.vector import profile
    from npubuild.runner.host import HostKernel
    from npubuild.toolchain import host as toolchain

    out_dir = tmp_path_factory.mktemp("full")
    kernels = {}
    for inst, device in CASES:
        if (inst.key, device) in kernels:
            continue
        with profile(DEVICES[device].arch):
            text = host_emitters.emit(inst)
        so = out_dir / f"{inst.id}_{device}.so"
        toolchain.compile_shared_library(text, so, so.with_suffix(".log"))
        kernels[(inst.key, device)] = HostKernel(so, inst.describe())
    return kernels


@pytest.mark.parametrize("inst,device", CASES, ids=[f"{i.id}@{d}" for i, d in CASES])
def test_design_matches_host_kernel(inst, device, host_kernels, tmp_path):
    options = {"device": device}
    text = aie.emit(inst, options)
    design = aie.design_for(inst, options)
    assert isinstance(design, Design)
    body = compile_body(text, design.body, tmp_path)
    rng = np.random.default_rng(7)
    inputs = _inputs(inst, rng)
    got = run_design(design, inputs, body)
    want = host_kernels[(inst.key, device)](*[inputs[n] for n in inst.input_names])
    np.testing.assert_array_equal(got.reshape(want.shape), want)


def test_every_op_has_an_xdna_emitter():
    assert all(aie.has_emitter(name) for name in REGISTRY)


def test_bodies_are_standard_dialects_without_calls():
    for inst, device in CASES[::2]:
        text = aie.emit(inst, {"device": device})
        start = text.index("func.func @body(")
        end = text.index("\n    }\n", start)
        assert_standard_dialects(text[start:end], inst.id)
        assert "math." not in text and "llvm." not in text


def test_structure_matches_the_design():
    inst = make_instance("where", "f32", [BIG, BIG, BIG], {})
    d = aie.design_for(inst, {"device": "npu1"})
    text = aie.emit(inst, {"device": "npu1"})
    fifos = declared_fifos(text)
    assert set(fifos) == {f.name for f in d.fifos}
    assert [b.name for b in d.buffers] == ["cond", "a_b", "y"]  # b‖c packing, as the reference design
    assert d.columns == 4 and "aie.device(npu1)" in text
    lines = dma_lines(text)
    assert len(lines) == 3 * 4
    # the packed stream: per column, chunks of [a rows | b rows] read with a 3-D pattern
    packed = [ln for ln in lines if "metadata = @a_b_c1_shim" in ln]
    r = d.chunk_rows
    assert r == 512  # a packed part is the inner DMA wrap: at most 1023 words
    assert packed == [
        f"aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, {16 * r}][1, 16, 2, {r}][0, {r}, 32768, 1]) "
        f"{{id = 1 : i64, metadata = @a_b_c1_shim}} : memref<65536xf32>"
    ]
    assert text.count("aiex.npu.dma_wait") == 4
    assert text.count("aie.core(") == 4 and text.count("stack_size = 1024 : i32") == 4


def test_npu2_spreads_over_eight_columns():
    inst = make_instance("relu", "f32", [BIG], {})
    d = aie.design_for(inst, {"device": "npu2"})
    assert (d.columns, d.partition, d.chunk_rows) == (8, "npu2", 2048)
    small = aie.design_for(make_instance("relu", "f32", [(1024,)], {}), {"device": "npu2"})
    assert (small.columns, small.partition) == (1, "npu2_1col")


def test_dialect_options_change_the_sequence_op():
    inst = make_instance("relu", "f32", [(1024,)], {})
    assert "    aie.runtime_sequence(%x: memref<1024xf32>, %y: memref<1024xf32>) {" in aie.emit(inst)
    old = aie.emit(inst, {"runtime_sequence": "aiex.runtime_sequence"})
    assert "    aiex.runtime_sequence(%x: memref<1024xf32>, %y: memref<1024xf32>) {" in old


def test_prime_sizes_are_padded_to_whole_chunks():
    d = aie.design_for(make_instance("relu", "f32", [(4099,)], {}), {"device": "npu1"})
    assert (d.chunk_rows, d.padded_rows, d.columns) == (2048, 6144, 3)
    assert d.abi()["buffers"][0]["parts"] == [{"tensor": "x", "elements": 4099, "slot": 6144}]
    exact = aie.design_for(make_instance("relu", "f32", [(1000,)], {}), {"device": "npu1"})
    assert (exact.chunk_rows, exact.padded_rows) == (1000, 1000)  # a good divisor: no padding
