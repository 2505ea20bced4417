"""Designs whose cores call mlir-aie's kernels (xdna_bodies = "mlir-aie").

The data movement is proven as for the generated bodies (tests/design_sim.py:
DMA patterns, distribute/join offsets, packing, chunks, columns and rows),
with the kernel's NumPy model (npubuild.emitters.aie.kernel_numerics, read from
the kernel sources and tested against them in test_xdna_kernel_library.py) as
the body: the design's output must equal the model applied to the whole
tensor bit for bit. The emitted text is checked for what mlir-aie accepts: the
kernel declared once with its object (func- or core-level link_with), one call
per chunk on exactly the FIFO objects or local copies the design says, and no
generated body.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from npubuild.core.constants import numpy_dtype
from npubuild.emitters import aie
from npubuild.emitters.aie import kernel_library as kl
from npubuild.emitters.aie.check import design_layout, layout_problems
from npubuild.specfile.instances import make_instance

from npubuild.runner.host import HostKernel

from .design_sim import run_design

BF16 = numpy_dtype("bf16")
MLIR_AIE = {"body": "mlir-aie"}

# (op, device, input shapes, attrs): every catalog kernel a design calls, at the issue's 64 x 4096 and at
# a shape that needs padding to whole 1024-element chunks
CASES = [
    ("relu", "npu1", [(64, 4096)], {}),
    ("relu", "npu1", [(3, 1000)], {}),
    ("add", "npu1", [(64, 4096)] * 2, {}),
    ("mul", "npu1", [(5, 700)] * 2, {}),
    ("gelu", "npu1", [(64, 4096)], {"approximate": "tanh"}),
    ("silu", "npu1", [(16, 1024)], {}),
    ("exp", "npu1", [(2, 3000)], {}),
    ("gelu", "npu2", [(64, 4096)], {"approximate": "tanh"}),
    ("silu", "npu2", [(64, 4096)], {}),
    ("exp", "npu2", [(1000,)], {}),
    ("softmax", "npu2", [(64, 4096)], {"axis": -1}),
    ("softmax", "npu2", [(3, 5, 96)], {"axis": -1}),
    ("relu", "npu2", [(64, 4096)], {}),
    ("add", "npu2", [(3, 1000)] * 2, {}),
    ("mul", "npu2", [(64, 4096)] * 2, {}),
    ("tanh", "npu1", [(64, 4096)], {}),
    ("sigmoid", "npu1", [(64, 4096)], {}),
    ("tanh", "npu2", [(64, 4096)], {}),
    ("sigmoid", "npu2", [(64, 4096)], {}),
    ("sigmoid", "npu1", [(3, 1000)], {}),
    ("tanh", "npu2", [(5, 700)], {}),
    ("softmax", "npu1", [(64, 4096)], {"axis": -1}),
    ("softmax", "npu1", [(3, 5, 96)], {"axis": -1}),
]


def _inst(op, shapes, attrs):
    return make_instance(op, "bf16", [list(s) for s in shapes], attrs)


def _inputs(inst, rng):
    lo, hi = (-4.0, 4.0)
    return {n: rng.uniform(lo, hi, t.shape).astype(np.float32).astype(BF16) for n, t in zip(inst.input_names, inst.inputs)}


def _bits(a):
    return np.asarray(a).view(np.uint16)


@pytest.mark.parametrize("op,device,shapes,attrs", CASES, ids=[f"{c[0]}-{c[1]}-{'x'.join(map(str, c[2][0]))}" for c in CASES])
def test_library_design_moves_the_data_of_the_model(op, device, shapes, attrs):
    inst = _inst(op, shapes, attrs)
    opts = {"device": device, **MLIR_AIE}
    d = aie.design_for(inst, opts)
    assert d.call is not None, d.body_note
    entry = d.call.kernel
    assert (entry.op, entry.arch) == (op, {"npu1": "aie2", "npu2": "aie2p"}[device])
    if entry.kind == "fixed":
        assert d.chunk_rows == 1024 and d.padded_rows % 1024 == 0  # flat: a row is an element
    else:
        assert d.chunk_rows == 1
    inputs = _inputs(inst, np.random.default_rng(3))

    def body(*xs):
        return kl.model(entry, list(xs))

    got = run_design(d, inputs, body)
    want = kl.model(entry, [inputs[n] for n in inst.input_names])
    np.testing.assert_array_equal(_bits(got), _bits(want).ravel())


@pytest.mark.parametrize("op,device,shapes,attrs", CASES[:1] + CASES[2:3] + CASES[10:11],
                         ids=["relu-npu1", "add-npu1", "softmax-npu2"])
def test_a_wrong_offset_fails_the_simulation(op, device, shapes, attrs):
    inst = _inst(op, shapes, attrs)
    d = aie.design_for(inst, {"device": device, **MLIR_AIE})
    inputs = _inputs(inst, np.random.default_rng(5))
    want = kl.model(d.call.kernel, [inputs[n] for n in inst.input_names])
    k = next(i for i, ln in enumerate(d.links) if ln.kind == "distribute")
    ln = d.links[k]
    bad = dataclasses.replace(d, links=[*d.links[:k], dataclasses.replace(ln, offsets=tuple(reversed(ln.offsets))), *d.links[k + 1:]])

    def body(*xs):
        return kl.model(d.call.kernel, list(xs))

    assert np.array_equal(_bits(run_design(d, inputs, body)), _bits(want).ravel())
    # mlir-aie's lowering (createMemTileDMA) moves each distribute output with one BD of the next offset
    # minus its own: reversed offsets give negative lengths, which the simulator refuses as mlir-aie would
    with pytest.raises(AssertionError, match="link-transfer-length"):
        run_design(bad, inputs, body)


def _cores(text: str) -> list[str]:
    return re.findall(r"= aie\.core\(%core_\d+_\d+\) \{\n(.*?)\n    \} \{([^}]*)\}", text, re.S)


@pytest.mark.parametrize("link_with", ["func", "core"])
def test_text_declares_the_kernel_once_and_calls_it_per_chunk(link_with):
    inst = _inst("gelu", [(64, 4096)], {"approximate": "tanh"})
    opts = {"device": "npu1", "link_with": link_with, **MLIR_AIE}
    text = aie.emit(inst, opts)
    d = aie.design_for(inst, opts)
    assert "func.func @body(" not in text and "@body" not in text
    decl = 'func.func private @gelu_bf16(memref<1024xbf16>, memref<1024xbf16>)'
    if link_with == "func":
        assert text.count(decl + ' attributes {link_with = "aiek_aie2_gelu_bf16.a"}') == 1
    else:
        assert text.count(decl + "\n") == 1 and "attributes {link_with" not in text
    cores = _cores(text)
    assert len(cores) == len(d.cores) == 16
    for (body, attrs), core in zip(cores, d.cores):
        assert body.count("func.call @gelu_bf16(%s0, %o) : (memref<1024xbf16>, memref<1024xbf16>) -> ()") == 1
        assert f"scf.for %chunk = %c0 to %c{core.chunks} step %c1" in body
        want_attr = ('link_with = "aiek_aie2_gelu_bf16.a", ' if link_with == "core" else "") + "stack_size = 1024 : i32"
        assert attrs == want_attr


def test_packed_inputs_are_copied_to_locals_and_passed_in_the_ops_order(monkeypatch):
    from npubuild.emitters.aie import placement

    inst = _inst("add", [(64, 4096)] * 2, {})
    d = aie.design_for(inst, {"device": "npu1", **MLIR_AIE})
    # by default a and b take separate shim channels, 2 rows (the model ranks it faster, as mlir-aie's eltwise_add)
    assert [b.name for b in d.buffers] == ["a", "b", "y"] and d.core_rows == 2
    # the packed a‖b design (one stream, 4 rows), taken where it ranks first: its cores copy the parts apart
    monkeypatch.setattr(placement, "modelled_us", lambda inst, d: -float(len(d.cores)))
    d = aie.design_for(inst, {"device": "npu1", **MLIR_AIE})
    assert len(d.cores) == 16 and [b.name for b in d.buffers] == ["a_b", "y"]  # a‖b: one stream, 4 rows
    text = aie.emit(inst, {"device": "npu1", **MLIR_AIE})
    body = _cores(text)[0][0]
    assert "func.call @eltwise_add_bf16_vector(%a_c0_r0_local, %b_c0_r0_local, %o)" in body
    assert all(n % 64 == 0 for n in design_layout(d).local_sizes)


def test_a_row_kernel_gets_the_row_length_as_i32():
    inst = _inst("softmax", [(64, 4096)], {"axis": -1})
    text = aie.emit(inst, {"device": "npu2", **MLIR_AIE})
    body = _cores(text)[0][0]
    assert "%kn = arith.constant 4096 : i32" in body
    assert "func.call @softmax_bf16(%s0, %o, %kn) : (memref<1x4096xbf16>, memref<1x4096xbf16>, i32) -> ()" in body
    assert len(_cores(text)) == 32


@pytest.mark.parametrize("op", ["tanh", "sigmoid"])
@pytest.mark.parametrize("device", ["npu1", "npu2"])
def test_tanh_and_sigmoid_cores_pass_the_chunk_as_i32(op, device):
    """tanh_bf16 / sigmoid_bf16 take (in, out, int): every core calls them on its 1024-element chunk with 1024."""
    from npubuild.emitters.aie.rules_check import text_problems

    inst = _inst(op, [(64, 4096)], {})
    arch = {"npu1": "aie2", "npu2": "aie2p"}[device]
    for body in ("mlir-aie", "auto"):  # the generated body is scalar on both devices: auto takes the kernel too
        opts = {"device": device, "body": body}
        d = aie.design_for(inst, opts)
        assert d.call is not None and d.call.kernel.source == f"{arch}/{op}.cc", d.body_note
        assert not layout_problems(design_layout(d))
        text = aie.emit(inst, opts)
        assert "@body" not in text and text_problems(text) == []
        obj = d.call.object_name
        assert text.count(f'func.func private @{op}_bf16(memref<1024xbf16>, memref<1024xbf16>, i32) '
                          f'attributes {{link_with = "{obj}"}}') == 1
        cores = _cores(text)
        assert len(cores) == len(d.cores) > 1
        for core_body, _ in cores:
            assert core_body.count("%kn = arith.constant 1024 : i32") == 1
            assert core_body.count(f"func.call @{op}_bf16(%s0, %o, %kn) : (memref<1024xbf16>, memref<1024xbf16>, i32) -> ()") == 1
        info = aie.body_info(inst, opts)
        assert info["source"] == "mlir-aie kernel" and info["kernel"] == f"aie_kernels/{arch}/{op}.cc"


def test_misaligned_buffers_are_refused_by_the_checker():
    inst = _inst("relu", [(64, 4096)], {})
    d = aie.design_for(inst, {"device": "npu1", **MLIR_AIE})
    assert not layout_problems(design_layout(d))
    bad = dataclasses.replace(d, stack=1024 + 32)  # relu.cc loads v32bfloat16: 64-byte alignment
    assert any("not a multiple of the kernel's 64-byte" in p for p in layout_problems(design_layout(bad)))


@pytest.mark.parametrize(
    "op,device,shapes,attrs,why",
    [
        ("gelu", "npu1", [(64, 4096)], {}, "computes approximate=tanh, the instance has approximate=none"),
        ("reduce_max", "npu2", [(64, 4096)], {}, "no mlir-aie kernel for reduce_max on aie2p (only aie2)"),
        ("reduce_max", "npu1", [(64, 4096)], {"axes": [-1]}, "a chunk of y is 2 bytes and the DMA moves 4-byte words"),
        ("softmax", "npu2", [(4, 100)], {"axis": -1}, "rows of a multiple of 32 elements, not 100"),
        ("erf", "npu1", [(64, 4096)], {}, "no mlir-aie kernel for erf"),
    ],
)
def test_without_a_fitting_kernel_the_generated_body_stays_and_says_why(op, device, shapes, attrs, why):
    inst = _inst(op, shapes, attrs)
    opts = {"device": device, **MLIR_AIE}
    d = aie.design_for(inst, opts)
    assert d.call is None
    info = aie.body_info(inst, opts)
    assert info["source"] in ("generated vector", "scalar")
    assert why in info["not_used"], info
    assert "func.func @body(" in aie.emit(inst, opts)
    # the same design as without the setting
    assert aie.emit(inst, opts) == aie.emit(inst, {"device": device})


def test_body_info_of_a_library_design():
    inst = _inst("softmax", [(64, 4096)], {"axis": -1})
    info = aie.body_info(inst, {"device": "npu2", **MLIR_AIE})
    assert info["source"] == "mlir-aie kernel" and info["lanes"] == 32
    assert info["kernel"] == "aie_kernels/aie2p/softmax.cc" and info["symbol"] == "softmax_bf16"
    assert info["tolerance"]["rtol"] == 2.0**-5
    gen = aie.body_info(inst, {"device": "npu2"})
    assert gen["source"] == "scalar" and "not_used" not in gen


@pytest.mark.parametrize(
    "dtype,src_elems,shape,offset",
    [
        ("bf16", 2048, (1024,), 1024),  # add's b of a‖b: whole vectors
        ("f32", 3 * 16 * 16, (16, 16), 256),  # rope's sin of cos‖sin, per row
        ("i32", 2 * 4100, (4100,), 4100),  # not a whole number of vectors: element by element
        ("i8", 256, (2, 64), 128),
        ("bool", 64, (32,), 32),  # i1 in memory as i8: element by element
    ],
)
def test_packed_part_copies_run_on_the_host(dtype, src_elems, shape, offset):
    """The copy a core runs before its body, compiled by the host toolchain and run on a flat buffer."""
    from npubuild.emitters.aie.text import IndexConsts, _copy_part
    from npubuild.emitters.host.mlir_text import memref_type
    from npubuild.runner.host import HostKernel

    from .hostkit import compiled_library

    class Src:
        pass

    src = Src()
    src.shape = (src_elems,)
    c = IndexConsts()
    lines = _copy_part(c, "%in_x", src, "%out_y", shape, offset, dtype, "u0")
    vector = any("vector.transfer_read" in ln for ln in lines)
    assert vector == (dtype in ("bf16", "f32", "i8"))
    text = "\n".join([
        "module {",
        f"  func.func @kernel(%in_x: {memref_type((src_elems,), dtype)}, %out_y: {memref_type(shape, dtype)}) {{",
        *c.lines, *("    " + ln for ln in lines), "    return", "  }", "}", ""])
    desc = {"id": f"copy_{dtype}", "inputs": [{"name": "x", "shape": [src_elems], "dtype": dtype}],
            "outputs": [{"name": "y", "shape": list(shape), "dtype": dtype}]}
    kernel = HostKernel(compiled_library(text, f"copy_{dtype}_{src_elems}_{offset}"), desc)
    rng = np.random.default_rng(1)
    x = (rng.integers(0, 2, src_elems).astype(bool) if dtype == "bool"
         else rng.uniform(-100, 100, src_elems).astype(numpy_dtype(dtype)))
    y = kernel(x)
    n = int(np.prod(shape))
    np.testing.assert_array_equal(np.asarray(y).reshape(-1).view(np.uint8), x[offset:offset + n].view(np.uint8))


@pytest.mark.parametrize(
    "op,device,shapes,attrs,library",
    [
        ("gelu", "npu1", [(64, 4096)], {"approximate": "tanh"}, True),  # generated: scalar (bit casts) -> gelu.cc
        ("softmax", "npu2", [(64, 4096)], {"axis": -1}, True),  # generated: scalar on aie2p -> softmax.cc
        ("relu", "npu1", [(64, 4096)], {}, False),  # generated: vector<16>, the oracle's arithmetic: kept
        ("add", "npu1", [(64, 4096)] * 2, {}, False),
        ("erf", "npu1", [(64, 4096)], {}, False),  # no library kernel: scalar, nothing else to do
        ("tanh", "npu1", [(64, 4096)], {}, True),  # generated: scalar (bit casts) -> aie2/tanh.cc
        ("sigmoid", "npu2", [(64, 4096)], {}, True),  # generated: scalar -> aie2p/sigmoid.cc
        ("relu", "npu2", [(64, 4096)], {}, False),  # generated: vector<16> on bf16 lanes (aievec.max on aie2p): kept
        ("add", "npu2", [(64, 4096)] * 2, {}, False),  # generated: vector<16> on aie2p: kept
    ],
)
def test_auto_takes_the_library_kernel_only_where_the_generated_body_is_scalar(op, device, shapes, attrs, library):
    inst = _inst(op, shapes, attrs)
    d = aie.design_for(inst, {"device": device, "body": "auto"})
    assert (d.call is not None) == library
    info = aie.body_info(inst, {"device": device, "body": "auto"})
    assert info["source"] == ("mlir-aie kernel" if library else aie.body_info(inst, {"device": device})["source"])
    assert "not_used" not in info


def test_npu1_softmax_cores_subtract_the_row_max_before_mlir_aies_kernel(tmp_path):
    """aie2/softmax.cc subtracts no maximum: every core first writes its row minus the row's maximum (bf16) into
    a local buffer with npubuild's generated @shift, then calls the kernel on that buffer. The @shift in the
    emitted text, compiled on the host, is the model's prologue bit for bit; with the kernel's own model after it,
    it is the model the design simulations above run as the body."""
    from npubuild.emitters.aie import kernel_numerics as kn
    from npubuild.emitters.aie.rules_check import text_problems
    from npubuild.emitters.host.vector import profile

    from .hostkit import compiled_library

    inst = _inst("softmax", [(64, 4096)], {"axis": -1})
    for body in ("mlir-aie", "auto"):  # the generated softmax body is scalar on npu1: auto takes the kernel
        opts = {"device": "npu1", "body": body}
        d = aie.design_for(inst, opts)
        assert d.call is not None and d.call.kernel.source == "aie2/softmax.cc", d.body_note
        text = aie.emit(inst, opts)
        assert text_problems(text) == [] and not layout_problems(design_layout(d))
    assert aie.body_info(inst, opts)["source"] == "mlir-aie kernel"
    cores = _cores(text)
    assert len(cores) == len(d.cores) == 16
    for (core_body, _), core in zip(cores, d.cores):
        t = f"%shift_{core.tile[0]}_{core.tile[1]}"
        assert core_body.index(f"func.call @shift(%s0, {t})") < core_body.index(f"func.call @softmax_bf16({t}, %o, %kn)")
        assert f'{t} = aie.buffer(%core_{core.tile[0]}_{core.tile[1]}) {{sym_name = "{t[1:]}"}} : memref<1x4096xbf16>' in text
    # the prologue's text, compiled on the host
    start = text.index("    func.func @shift(")
    func = text[start:text.index("\n    }\n", start) + 6].replace("func.func @shift(", "func.func @kernel(", 1)
    with profile("aie2"):
        assert "vector.reduction <maximumf>" in func and "vector.broadcast" in func
    kern = HostKernel(compiled_library("module {\n" + func + "\n}\n", "softmax_shift"), d.body.describe())
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(d.body.inputs[0].shape) * 6).astype(BF16)
    x[0, :3] = np.array([np.inf, -np.inf, 3e38], np.float32).astype(BF16)
    shifted = kern(x)
    want = kn.row_shift(x).astype(BF16)
    nan = np.isnan(want.astype(np.float32))  # inf - inf: a NaN, whose sign the two CPUs' code may differ in
    assert nan[0, 0] and np.array_equal(np.isnan(shifted.astype(np.float32)), nan)
    assert _bits(shifted)[~nan].tobytes() == _bits(want)[~nan].tobytes()
    x = (rng.standard_normal(x.shape) * 6).astype(BF16)
    chained = kn.softmax_kernel_aie2(kern(x)).astype(BF16)
    np.testing.assert_array_equal(_bits(chained), _bits(kl.model(d.call.kernel, [x])))
