"""Every catalog op's xdna design computes what the host kernel computes.

For one or more instances per op, the emitted aie.mlir's body function is
compiled on the host and the design's data movement (DMA patterns, FIFOs,
links with their distribute/join offsets, broadcasts, packing, chunks, columns
and core rows) is run by tests/design_sim.py; the result must equal the full
host kernel's output bit for bit (same arithmetic per row: the full kernel is
emitted for the same device profile as the design's body), and the host
kernels are proven against the oracle by the test_host_* files.
"""
from __future__ import annotations

import dataclasses
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from npubuild import targets
from npubuild.emitters import aie
from npubuild.emitters import host as host_emitters
from npubuild.emitters.aie.check import (
    check_design,
    design_layout,
    layout_problems,
    mem_tile_problems,
)
from npubuild.emitters.aie.design import Design, Link
from npubuild.emitters.aie.devices import DEVICES
from npubuild.emitters.aie.placement import _place
from npubuild.emitters.host.vector import profile
from npubuild.core.errors import UnsupportedOnTarget
from npubuild import targets
from npubuild.emitters.aie.devices import NO_XDNA_DESIGN
from npubuild.ops import REGISTRY
from npubuild.ops.registry import NUMPY_DTYPE
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance
from npubuild.targets.xdna.rules import NO_DESIGN

from .design_sim import (
    compile_body,
    declared_fifos,
    declared_links,
    dma_lines,
    run_design,
)
from .hostkit import assert_standard_dialects, compiled_library

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


# issue 14's acceptance shapes: all four core rows of every column (npu1 16 cores, npu2 32)
ACCEPTANCE = [
    ("softmax", [(64, 4096)], {}),
    ("gelu", [(64, 4096)], {"approximate": "tanh"}),
    ("rms_norm", [(64, 4096), (4096,)], {}),
]  # add: two streams on 2 rows, ranked faster by the model (test_binary_ops_take_the_placement_the_model_ranks_faster)
ACCEPTANCE_DTYPES = ("f32", "bf16")


def _cases():
    out = []
    for name, op in sorted(REGISTRY.items()):
        if name == "matmul":
            continue  # the GEMM overlay has its own tests (test_xdna_gemm.py)
        if name in NO_DESIGN:
            continue  # refused at spec time (test_no_design_ops_are_refused_whatever_the_instance)
        specs = SPECIAL.get(name)
        if specs is None:
            dt = "f32" if "f32" in op.dtypes else op.dtypes[0]
            specs = [(dt, [BIG] * len(op.inputs), {})]
        if op.attr("index_dtype"):  # i64 indices cannot cross the shim DMA
            specs = [(dt, shapes, {**attrs, "index_dtype": "i32"}) for dt, shapes, attrs in specs]
        for dt, shapes, attrs in specs:
            for device in ("npu1", "npu2"):
                out.append((make_instance(name, dt, shapes, attrs), device))
    for name, shapes, attrs in ACCEPTANCE:
        for dt in ACCEPTANCE_DTYPES:
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
        elif dt in ("f32", "f16", "bf16"):
            a = rng.standard_normal(t.shape) * 3
        else:
            a = rng.integers(-100, 100, size=t.shape)
        arrays[n] = np.asarray(a).astype(NUMPY_DTYPE[dt])
    return arrays


def device_kernels(cases, out_dir: Path) -> dict:
    """(instance key, device) -> the full instance's host kernel, its body emitted for the device's
    cores (the same vector profile as the design's body), or the exception that building it raised
    (so one op that does not build fails its own cases only)."""
    texts: dict = {}
    failed: dict = {}
    for inst, dev in cases:
        try:
            with profile(DEVICES[dev].arch):
                texts[(inst.key, dev)] = (inst, host_emitters.emit(inst))
        except Exception as e:  # noqa: BLE001 - re-raised by the case that needs it
            failed[(inst.key, dev)] = e
    unique = {text: inst for inst, text in texts.values()}

    def build(item):
        text, inst = item
        try:
            return text, HostKernel(compiled_library(text, inst.id), inst.describe())
        except Exception as e:  # noqa: BLE001 - re-raised by the case that needs it
            return text, e

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        built = dict(pool.map(build, unique.items()))
    return {**failed, **{k: built[text] for k, (_, text) in texts.items()}}


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    return device_kernels(CASES, tmp_path_factory.mktemp("full"))


def _same(got, want):
    """Bit-identical (bf16 compared as its 16-bit patterns, which NaNs included must match)."""
    got = np.asarray(got).reshape(np.shape(want))
    want = np.asarray(want)
    assert got.dtype == want.dtype
    if want.dtype.kind not in "biuf":  # ml_dtypes' bfloat16
        got, want = got.view(np.uint16), want.view(np.uint16)
    np.testing.assert_array_equal(got, want)


def _simulates_like_the_host(inst, d, text: str, arch: str, seed: int, tmp_path) -> None:
    """Design ``d``'s text, its body compiled on the host and its data movement simulated, equals the full
    instance's host kernel emitted under the device's profile ``arch``, bit for bit."""
    body = compile_body(text, d.body, tmp_path)
    inputs = _inputs(inst, np.random.default_rng(seed))
    with profile(arch):
        host_text = host_emitters.emit(inst)
    kernel = HostKernel(compiled_library(host_text, inst.id), inst.describe())
    _same(run_design(d, inputs, body), kernel(*[inputs[n] for n in inst.input_names]))


@pytest.mark.parametrize("inst,device", CASES, ids=[f"{i.id}@{d}" for i, d in CASES])
def test_design_matches_host_kernel(inst, device, host_kernels, tmp_path):
    options = {"device": device}
    text = aie.emit(inst, options)
    design = aie.design_for(inst, options)
    if inst.op == "transpose":  # DMA only, no core and no body (tests/test_xdna_transpose.py)
        assert not design.cores and "aie.core(" not in text
        body = None
    else:
        assert isinstance(design, Design)
        body = compile_body(text, design.body, tmp_path)
    rng = np.random.default_rng(7)
    inputs = _inputs(inst, rng)
    got = run_design(design, inputs, body)
    kernel = host_kernels[(inst.key, device)]
    if isinstance(kernel, Exception):
        raise kernel
    _same(got, kernel(*[inputs[n] for n in inst.input_names]))


@pytest.mark.parametrize("name", sorted(NO_DESIGN))
def test_no_design_ops_are_refused_whatever_the_instance(name):
    """An op without an NPU design has a restriction no instance passes, so the spec loader refuses it with the
    reason (the design the generic emitter would make is never simulated for it)."""
    restriction = NO_DESIGN[name]
    assert restriction in targets.get("xdna").restrictions(name)
    assert not restriction.check([(4, 4)] * 3, {}, "f32")
    assert restriction.text.startswith("no NPU design for this op yet (")


def test_every_op_has_an_xdna_emitter_or_says_what_is_missing():
    assert all(aie.has_emitter(name) != (name in NO_XDNA_DESIGN) for name in REGISTRY)
    for name, why in NO_XDNA_DESIGN.items():
        assert targets.get("xdna").supports(name) == why


def test_bodies_are_standard_dialects_without_calls():
    for inst, device in CASES[::2]:
        text = aie.emit(inst, {"device": device})
        if inst.op == "transpose":  # DMA only: no body
            assert "func.func" not in text
            continue
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
    # two streams per core: 2 x rows + 1 mem-tile output channels allow 2 rows; cond (bool) cannot join a‖b
    assert (d.columns, d.core_rows, len(d.cores)) == (4, 2, 8) and "aie.device(npu1)" in text
    assert "at most 2 row(s)" in d.rows_note and "dtypes bool, f32" in d.rows_note
    assert d.abi()["cores"] == 8 and d.abi()["core_rows_note"] == d.rows_note
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
    assert text.count("aie.core(") == 8 and text.count("stack_size = 1024 : i32") == 8
    assert declared_links(text) == [_text_link(ln) for ln in d.links]


def test_npu2_spreads_over_eight_columns():
    inst = make_instance("relu", "f32", [BIG], {})
    d = aie.design_for(inst, {"device": "npu2"})
    # 32768 elements: 8 KiB chunks would fill 16 of the 32 cores, so 4 KiB ones fill all 8 x 4
    assert (d.columns, d.partition, d.chunk_rows, d.core_rows) == (8, "npu2", 1024, 4)
    assert d.rows_note == ""
    few = aie.design_for(make_instance("relu", "f32", [(8192,)], {}), {"device": "npu2"})
    assert (few.chunk_rows, len(few.cores)) == (256, 32)  # 1 KiB per buffer: the smallest chunk taken
    fewer = aie.design_for(make_instance("relu", "f32", [(4096,)], {}), {"device": "npu2"})
    assert (fewer.chunk_rows, len(fewer.cores)) == (256, 16)
    assert fewer.rows_note == "16 chunk(s) of 256 row(s) divide over at most 16 core(s)"
    small = aie.design_for(make_instance("relu", "f32", [(1024,)], {}), {"device": "npu2"})
    assert (small.columns, small.partition, small.chunk_rows) == (4, "npu2_4col", 256)  # 4 chunks of 1 KiB
    one = aie.design_for(make_instance("relu", "f32", [(256,)], {}), {"device": "npu2"})
    assert (one.columns, one.partition) == (1, "npu2_1col")


def test_dialect_options_change_the_sequence_op():
    inst = make_instance("relu", "f32", [(1024,)], {})
    assert "    aie.runtime_sequence(%x: memref<1024xf32>, %y: memref<1024xf32>) {" in aie.emit(inst)
    old = aie.emit(inst, {"runtime_sequence": "aiex.runtime_sequence"})
    assert "    aiex.runtime_sequence(%x: memref<1024xf32>, %y: memref<1024xf32>) {" in old


def test_prime_sizes_are_padded_to_whole_chunks():
    d = aie.design_for(make_instance("relu", "f32", [(4099,)], {}), {"device": "npu1"})
    assert (d.chunk_rows, d.padded_rows, d.columns) == (384, 6144, 4)  # padded to 3 x 2048, then spread over 16 cores
    assert d.abi()["buffers"][0]["parts"] == [{"tensor": "x", "elements": 4099, "slot": 6144}]
    exact = aie.design_for(make_instance("relu", "f32", [(1000,)], {}), {"device": "npu1"})
    assert (exact.chunk_rows, exact.padded_rows) == (500, 1000)  # divisors: no padding, two cores


def _text_link(ln: Link):
    src, dst = (ln.offsets, ()) if ln.kind == "join" else ((), ln.offsets)
    return (ln.ins, ln.outs, src, dst)


@pytest.mark.parametrize("dtype", ACCEPTANCE_DTYPES)
@pytest.mark.parametrize("name,shapes,attrs", ACCEPTANCE, ids=[a[0] for a in ACCEPTANCE])
def test_acceptance_shapes_use_every_core(name, shapes, attrs, dtype):
    for device, cores in (("npu1", 16), ("npu2", 32)):
        d = aie.design_for(make_instance(name, dtype, shapes, attrs), {"device": device})
        abi = d.abi()
        assert (abi["cores"], abi["core_rows"], abi["columns"], d.partition) == (cores, 4, cores // 4, device)
        assert "core_rows_note" not in abi and not layout_problems(design_layout(d))
        assert sorted(c.tile for c in d.cores) == [(c, r) for c in range(cores // 4) for r in range(2, 6)]
        streamed = [b for b in d.buffers if b.streamed and not b.output]
        assert len(streamed) == 1  # 4 rows: one stream per core


def test_text_declares_distribute_join_and_broadcast():
    inst = make_instance("rms_norm", "f32", [(64, 4096), (4096,)], {})
    d = aie.design_for(inst, {"device": "npu1"})
    text = aie.emit(inst, {"device": "npu1"})
    assert declared_links(text) == [_text_link(ln) for ln in d.links]
    assert "aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1, @x_c0_r2, @x_c0_r3] ([] [0, 4096, 8192, 12288])" in text
    assert "aie.objectfifo.link [@y_c0_r0, @y_c0_r1, @y_c0_r2, @y_c0_r3] -> [@y_c0_shim] ([0, 4096, 8192, 12288] [])" in text
    fifos = declared_fifos(text)
    assert fifos["gamma_c2"][:3] == ("%shim_2_0", "%core_2_2, %core_2_3, %core_2_4, %core_2_5", 1)  # broadcast
    assert fifos["x_c0_shim"] == ("%shim_0_0", "%mem_0_1", 2, "16384xf32")  # 4 chunks of one row each
    assert fifos["x_c0_r3"] == ("%mem_0_1", "%core_0_5", 1, "1x4096xf32")
    # every core takes 4 chunks per run, the gamma FIFO is moved once per column
    assert {c.chunks for c in d.cores} == {4} and d.transfers[1].sizes == (1, 1, 1, 4096)


# ---- a wrong link offset must fail the simulation ----------------------------------------------------------------

def _mutate_link(d: Design, kind: str, how: str) -> Design:
    links = list(d.links)
    k = next(i for i, ln in enumerate(links) if ln.kind == kind)
    offs = list(links[k].offsets)
    if how == "swap":
        offs[0], offs[1] = offs[1], offs[0]
    else:  # "overlap": the second child starts one element early
        offs[1] -= 1
    links[k] = dataclasses.replace(links[k], offsets=tuple(offs))
    return dataclasses.replace(d, links=links)


@pytest.fixture(scope="module")
def relu_16(tmp_path_factory):
    inst = make_instance("relu", "f32", [BIG], {})
    d = aie.design_for(inst, {"device": "npu1"})
    assert len(d.cores) == 16
    body = compile_body(aie.emit(inst, {"device": "npu1"}), d.body, tmp_path_factory.mktemp("relu16"))
    x = _inputs(inst, np.random.default_rng(3))
    return d, body, x


@pytest.mark.parametrize("kind", ["distribute", "join"])
def test_swapped_link_offsets_are_refused_as_mlir_aie_lowers_them(relu_16, kind):
    """mlir-aie's createMemTileDMA moves each child with one BD of length next offset minus its own, in the
    link's order (getJoinTransferLengths / getDistributeTransferLengths): swapped offsets give the first child
    a negative length and the second twice its object, so the checker and the simulator refuse them with
    rule link-transfer-length (npubuild/emitters/aie/rules.py)."""
    d, body, x = relu_16
    want = np.maximum(x["x"].ravel(), 0)  # relu is exact: the design's output must equal it
    np.testing.assert_array_equal(run_design(d, x, body), want)
    bad = _mutate_link(d, kind, "swap")
    problems = layout_problems(design_layout(bad))
    assert any(p.startswith("[link-transfer-length]") and "moves -" in p for p in problems), problems
    with pytest.raises(AssertionError, match=r"\[link-transfer-length\] the mem tile's buffer descriptor for @\w+ moves -\d+ elements"):
        run_design(bad, x, body)
    with pytest.raises(UnsupportedOnTarget, match=r"link-transfer-length"):
        check_design(bad)


@pytest.mark.parametrize("kind", ["distribute", "join"])
def test_overlapping_link_offsets_fail_the_simulation_and_the_checker(relu_16, kind):
    d, body, x = relu_16
    bad = _mutate_link(d, kind, "overlap")
    problems = layout_problems(design_layout(bad))
    assert any("overlaps element" in p for p in problems), problems
    assert any(p.startswith("[link-transfer-length]") for p in problems), problems
    # the lowering's first BD moves one element less than its child's object, the second one more
    with pytest.raises(AssertionError, match=r"\[link-transfer-length\] .* moves \d+ elements .* its objects hold"):
        run_design(bad, x, body)
    with pytest.raises(UnsupportedOnTarget, match=r"^relu_f32_32x1024: the npu1 design is not valid: .*overlaps"):
        check_design(bad)


# ---- the mem tile's budgets ---------------------------------------------------------------------------------------

def test_two_streams_on_four_rows_exceed_the_mem_tile_channels():
    inst = make_instance("where", "f32", [BIG, BIG, BIG], {})
    d = aie.design_for(inst, {"device": "npu1"})
    four = _place(inst, d.split, d.device, d.buffers, d.chunk_rows, 2, d.padded_rows, 4, 4, d.stack, d.scratch)
    problems = layout_problems(design_layout(four))
    assert "mem tile (0, 1) sends 9 streams, it has 6 output DMA channels" in problems


def test_mem_tile_buffer_descriptors_locks_and_memory_are_counted():
    inst = make_instance("softmax", "f32", [(64, 4096)], {})
    d = aie.design_for(inst, {"device": "npu1"})
    lay = design_layout(d)
    # per column: x distributed to 4 cores and y joined from 4, mem-tile objects 2 deep:
    # 2 x 4 x 2 BDs and 2 x 4 locks each; 2 x 64 KiB buffers each
    assert not mem_tile_problems(lay, {f.name: f for f in lay.fifos})
    lay.device = dataclasses.replace(d.device, mem_bds=31, mem_locks=15, mem_tile_memory=256 * 1024 - 1)
    problems = layout_problems(lay)
    for tile in [(c, 1) for c in range(4)]:
        assert f"mem tile {tile} needs 32 buffer descriptors, it has 31" in problems
        assert f"mem tile {tile} needs 16 locks, it has 15" in problems
        assert f"mem tile {tile} needs 262144 bytes of buffers and stack, it has 262143" in problems


def test_a_mem_tile_too_small_for_four_rows_falls_back_and_says_why():
    from npubuild.emitters.aie.placement import plan_design

    inst = make_instance("softmax", "f32", [(64, 4096)], {})
    small = dataclasses.replace(DEVICES["npu1"], mem_tile_memory=256 * 1024 - 1)
    d = plan_design(inst, small)
    assert (d.columns, d.core_rows) == (4, 2) and not layout_problems(design_layout(d))
    assert "4 column(s) x 4 row(s) do not fit (mem tile (0, 1) needs 262144 bytes" in d.rows_note


# ---- binary ops: the placement the roofline model ranks faster ------------------------------------------------------

def _by_cores(monkeypatch, inst, device):
    """The design the planner chose before the model ranked placements: the most cores."""
    from npubuild.emitters.aie import placement

    with monkeypatch.context() as m:
        m.setattr(placement, "modelled_us", lambda inst, d: -float(len(d.cores)))
        return aie.design_for(inst, {"device": device})


@pytest.mark.parametrize("op,dtype,device,separate", [
    ("add", "bf16", "npu1", True), ("add", "f32", "npu2", True), ("mul", "bf16", "npu1", True),
    ("max", "bf16", "npu1", True),
    ("max", "bf16", "npu2", True),  # aie2p compares bf16 lanes (vector.PROFILE)
    ("div", "bf16", "npu1", False),  # a soft-float body: compute bounds it, 4 rows stay faster
])
def test_binary_ops_take_the_placement_the_model_ranks_faster(op, dtype, device, separate, monkeypatch, tmp_path):
    from npubuild.emitters.aie.placement import modelled_us

    inst = make_instance(op, dtype, [(64, 4096), (64, 4096)], {})
    d = aie.design_for(inst, {"device": device})
    packed = _by_cores(monkeypatch, inst, device)
    assert [b.name for b in packed.buffers] == ["a_b", "y"] and packed.core_rows == 4
    assert modelled_us(inst, d) <= modelled_us(inst, packed)
    assert not layout_problems(design_layout(d))
    if separate:  # a and b on their own shim channels (mlir-aie's ml/eltwise_add), 2 rows per column
        assert [b.name for b in d.buffers] == ["a", "b", "y"] and d.core_rows == 2
        assert modelled_us(inst, d) < modelled_us(inst, packed)
        assert "1 input stream(s) per core on" in d.rows_note and "µs/run, this design" in d.rows_note
        shim_in = {(t.column, t.fifo) for t in d.transfers if not t.wait}
        assert len(shim_in) == 2 * d.columns  # two input channels per column
    else:
        assert d.core_rows == 4 and [b.name for b in d.buffers] == ["a_b", "y"]
    # the chosen design simulates bit-exactly against the host kernel
    text = aie.emit(inst, {"device": device})
    _simulates_like_the_host(inst, d, text, DEVICES[device].arch, 11, tmp_path)


@pytest.mark.parametrize("op,dtype,device", [("relu", "bf16", "npu1"), ("relu", "bf16", "npu2"), ("sigmoid", "f32", "npu1")])
def test_a_one_stream_op_uses_both_shim_channels_each_way_where_the_model_ranks_it_faster(op, dtype, device, tmp_path):
    """Two groups of 2 cores per column, each with its own shim channel in and out and a contiguous half of
    the column's rows (mlir-aie's ml/eltwise_unary runs two FIFOs each way per column). A soft-float body
    (sigmoid f32) is compute-bound: the simpler one-channel design models as fast and is kept."""
    from npubuild.emitters.aie.placement import modelled_us, split_channels

    inst = make_instance(op, dtype, [(64, 4096)], {})
    d = aie.design_for(inst, {"device": device})
    assert d.core_rows == 4 and split_channels(d.device, d.buffers, d.core_rows)
    assert not layout_problems(design_layout(d))
    shim_in = {(t.column, t.fifo) for t in d.transfers if not t.wait}
    shim_out = {(t.column, t.fifo) for t in d.transfers if t.wait}
    both = op == "relu"
    assert len(shim_in) == len(shim_out) == (2 if both else 1) * d.columns
    if both:
        one = _place(inst, d.split, d.device, d.buffers, d.chunk_rows, 2, d.padded_rows, d.columns, 4, d.stack, d.scratch)
        assert modelled_us(inst, d) < modelled_us(inst, one)
        # the halves of a column are contiguous and together cover it
        spans = sorted((t.offset, t.offset + t.sizes[-1]) for t in d.transfers if not t.wait)
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])) and spans[0][0] == 0
    text = aie.emit(inst, {"device": device})
    _simulates_like_the_host(inst, d, text, DEVICES[device].arch, 5, tmp_path)


@pytest.mark.parametrize("op,preamble", [("rms_norm", 1), ("layer_norm", 2)])
def test_the_parameters_ride_the_input_stream_so_both_shim_channels_carry_rows(op, preamble, tmp_path):
    """npu2 norms: gamma (layer_norm: gamma‖beta) goes ahead of the rows on each group's input FIFO instead of a
    broadcast FIFO of its own, each core copies it out of its first objects once per run, and both shim channels
    of every column stream rows each way."""
    from npubuild.emitters.aie.placement import modelled_us
    from npubuild.emitters.aie.rules_check import text_problems

    p = (4096,)
    inst = make_instance(op, "bf16", [(64, 4096), p] + ([p] if op == "layer_norm" else []), {})
    d = aie.design_for(inst, {"device": "npu2"})
    one = _place(inst, d.split, d.device, d.buffers, d.chunk_rows, 2, d.padded_rows, d.columns, 4, d.stack, d.scratch)
    if op == "rms_norm":  # the model ranks it first: DMA bounds the one-channel design
        assert modelled_us(inst, d) < modelled_us(inst, one)
    else:  # compute bounds layer_norm's body: the modelled times tie and the simpler design is kept; build it anyway
        assert modelled_us(inst, d) == modelled_us(inst, one) and not any(c.preamble for c in d.cores)
        d = _place(inst, d.split, d.device, d.buffers, d.chunk_rows, 2, d.padded_rows, d.columns, 4, d.stack,
                   d.scratch, groups=2, inline=True)
    assert not layout_problems(design_layout(d))
    param = next(i for i, b in enumerate(d.buffers) if not b.streamed)
    assert not [f for f in d.fifos if f.name.startswith(d.buffers[param].name)]  # no parameter FIFO
    assert all(c.preamble == preamble and not c.params for c in d.cores)
    for c in range(d.columns):
        for g in range(2):
            fifo = f"x_c{c}_g{g}_shim"
            seq = [t for t in d.transfers if t.fifo == fifo]
            assert [t.buffer for t in seq] == [param] * preamble + [0]  # the parameter first, then the rows
            assert all(t.sizes[1:3] == (1, 1) and t.strides == (0, 0, 0, 1) for t in seq[:-1])  # linear, repeated
    from npubuild.emitters.aie.text import render

    with profile("aie2p"):
        text = render(d, {**aie.DEFAULT_OPTIONS, "device": "npu2"}, ["test"])
    assert text_problems(text) == []
    core = text.split("aie.core(")[1]
    assert core.count("aie.objectfifo.acquire @x_c0_r0(Consume, 1)") == preamble + 1
    _simulates_like_the_host(inst, d, text, "aie2p", 9, tmp_path)


def _core_as_function(text: str, locals_: dict) -> str:
    """Core (0, 2)'s code as a func.func upstream MLIR parses: each FIFO object access becomes a memref.alloc
    of its type, the acquires and releases and aie.end go, the body call goes (its signature is checked
    where the body is compiled), and the core's local buffers are allocated up front."""
    import re

    core = text.split("aie.core(%core_0_2) {\n", 1)[1].split("\n    } {", 1)[0]
    out = [f"    %{sym} = memref.alloc() : {ty}" for sym, ty in locals_.items()]
    for ln in core.splitlines():
        s = ln.strip()
        if "aie.objectfifo.acquire" in s or "aie.objectfifo.release" in s or s == "aie.end" or s.startswith("func.call @"):
            continue
        m = re.match(r"(%[\w.]+) = aie\.objectfifo\.subview\.access .* -> (memref<[^>]+>)$", s)
        out.append(f"{ln[: len(ln) - len(s)]}{m.group(1)} = memref.alloc() : {m.group(2)}" if m else ln)
    return "func.func @core() {\n" + "\n".join(out) + "\n  return\n}"


def test_a_core_with_a_preamble_is_standard_mlir_around_its_fifo_ops():
    """The preamble's copy out of a 2-D stream object (row and column from the flat index) parses and verifies."""
    from npubuild.emitters.host.mlir_text import memref_type
    from npubuild.toolchain import mlir_env

    inst = make_instance("rms_norm", "bf16", [(64, 4096), (4096,)], {})
    d = aie.design_for(inst, {"device": "npu2"})
    assert d.cores[0].preamble == 1
    text = aie.emit(inst, {"device": "npu2"})
    locals_ = {sym: memref_type(shape, dt) for tile, sym, shape, dt in d.locals if tile == (0, 2)}
    src = _core_as_function(text, locals_)
    assert "arith.remui" in src and "%pre0" in src
    env = mlir_env.load()
    with env.ir.Context():
        module = env.ir.Module.parse(src)
        assert module.operation.verify()
