"""matmul_nbits (onnxruntime MatMulNBits): the catalog entry and its shape errors,
the packing checked against plain Python, host kernels against the oracle (the
dequantized weight bit for bit, the sums within the f32 bound), xdna's refusal,
and the acceptance case: a 4-bit 1x4096x4096 matmul with block size 32 built and
run on ref and host.

The oracle's hand case is in test_oracles.py."""
from __future__ import annotations

import numpy as np
import pytest

import npubuild
from npubuild import targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError
from npubuild.ops import REGISTRY, normalize_attrs
from npubuild.ops.matmul_nbits import dequantized_weight
from npubuild.ops.registry import AttrError
from npubuild.specfile.instances import make_instance

from .conftest import new_project
from .hostkit import compile_kernels
from .test_host_nn_quant import U32, _oracle, _rng, assert_exact, assert_within

CASES = [  # (dtype, shapes: a, b, scales[, zero_points], attrs)
    ("f32", [(3, 64), (8, 2, 16), (8, 2)], {}),
    ("f32", [(2, 3, 64), (8, 2, 16), (8, 2), (8, 1)], {}),
    ("f32", [(5, 96), (7, 3, 16), (7, 3), (7, 2)], {}),  # an odd number of blocks: the last zero-point byte half used
    ("f32", [(2, 96), (5, 3, 32), (5, 3), (5, 3)], {"bits": 8}),
    ("f32", [(4, 256), (3, 2, 128), (3, 2)], {"bits": 8, "block_size": 128}),
    ("f32", [(1, 128), (16, 4, 16), (16, 4), (16, 2)], {"block_size": 32}),
    ("f32", [(64,), (4, 1, 32), (4, 1), (4, 1)], {"block_size": 64}),
    ("bf16", [(2, 128), (6, 2, 32), (6, 2), (6, 1)], {"block_size": 64}),
    ("bf16", [(3, 64), (5, 2, 32), (5, 2)], {"bits": 8}),
]
INSTANCES = [make_instance("matmul_nbits", dt, shapes, at) for dt, shapes, at in CASES]
IDENTITY = [make_instance("matmul_nbits", dt, [(s[0][-1], s[0][-1])] + s[1:], at) for dt, s, at in CASES]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    ks = compile_kernels(INSTANCES + IDENTITY, tmp_path_factory.mktemp("matmul_nbits"))
    yield ks
    for k in ks.values():
        k.close()


def _inputs(inst, rng, a=None):
    xs = []
    for name, t in zip(inst.input_names, inst.inputs):
        if t.dtype == "u8":
            xs.append(rng.integers(0, 256, t.shape).astype(np.uint8))
        elif name == "scales":
            xs.append((rng.uniform(0.5, 2.0, t.shape) * 2.0 ** rng.integers(-12, 2, t.shape)).astype(numpy_dtype(t.dtype)))
        else:
            xs.append(rng.normal(size=t.shape).astype(numpy_dtype(t.dtype)))
    if a is not None:
        xs[0] = a
    return xs


def _plain_codes(byte_rows, bits):
    """Plain-Python unpacking: for each byte, its low nibble's code then its high one's (bits 4)."""
    out = []
    for row in byte_rows:
        codes = []
        for byte in row:
            codes += [byte % 16, byte // 16] if bits == 4 else [byte]
        out.append(codes)
    return out


def test_the_entry():
    op = REGISTRY["matmul_nbits"]
    assert op.inputs == ("a", "b", "scales") and op.optional == (("zero_points",),)
    assert op.dtypes == ("f32", "bf16")
    assert normalize_attrs(op, {}) == {"bits": 4, "block_size": 32}
    inst = INSTANCES[1]
    assert [t.dtype for t in inst.inputs] == ["f32", "u8", "f32", "u8"] and inst.output.shape == (2, 3, 8)
    with pytest.raises(AttrError, match="attr 'bits' of 'matmul_nbits' must be one of 4, 8; got 3"):
        normalize_attrs(op, {"bits": 3})
    with pytest.raises(AttrError, match="block_size"):
        normalize_attrs(op, {"block_size": 48})


@pytest.mark.parametrize("shapes, attrs, said", [
    ([(2, 60), (8, 2, 16), (8, 2)], {}, r"K = 60 .* must be a multiple of block_size 32: pad a and the weights with zeros to 64"),
    ([(2, 64), (8, 2, 32), (8, 2)], {}, r"b must be \[N, K/block_size, block_size\*bits/8\] = \[N, 2, 16\]"),
    ([(2, 64), (8, 2, 16), (8, 1)], {}, r"scales must be \[N, K/block_size\] = \[8, 2\], got \[8, 1\]"),
    ([(2, 64), (8, 2, 16), (8, 2), (8, 2)], {}, r"zero_points must be \[N, ceil\(K/block_size\*bits/8\)\] = \[8, 1\]"),
    ([(2, 64), (8, 2, 32), (8, 2), (8, 1)], {"bits": 8}, r"zero_points must be .* = \[8, 2\]"),
])
def test_shape_errors_say_the_shape_wanted(shapes, attrs, said):
    with pytest.raises(OpError, match=said):
        make_instance("matmul_nbits", "f32", shapes, attrs)


@pytest.mark.parametrize("bits", (4, 8))
def test_dequantized_weight_follows_the_packing(bits):
    """w[n, k] = (code - zp) * scale with codes unpacked low nibble first and the zero points packed
    the same way, checked against plain Python."""
    rng = np.random.default_rng(bits)
    n, blocks, bs = 3, 3, 16
    b = rng.integers(0, 256, (n, blocks, bs * bits // 8)).astype(np.uint8)
    scales = rng.uniform(0.1, 1.0, (n, blocks)).astype(np.float32)
    zps = rng.integers(0, 256, (n, -(-blocks * bits // 8))).astype(np.uint8)
    attrs = {"bits": bits, "block_size": bs}
    codes = _plain_codes(b.reshape(n, -1).tolist(), bits)
    zp_codes = _plain_codes(zps.tolist(), bits)
    for with_zp in (True, False):
        w = dequantized_weight(b, scales, zps if with_zp else None, attrs)
        for r in range(n):
            for k in range(blocks * bs):
                zp = zp_codes[r][k // bs] if with_zp else 2 ** (bits - 1)
                want = np.float32(codes[r][k] - zp) * scales[r, k // bs]
                assert w[r, k] == want, (with_zp, r, k)


@pytest.mark.parametrize("inst", INSTANCES, ids=[i.id for i in INSTANCES])
def test_host_kernel_within_the_f32_dot_bound(inst, kernels):
    xs = _inputs(inst, _rng(inst))
    got = kernels[inst.key](*xs)
    want = _oracle(inst, xs)
    a = np.asarray(xs[0]).astype(np.float64)
    w = dequantized_weight(*xs[1:3], xs[3] if len(xs) == 4 else None, inst.attrs).astype(np.float64)
    kk = a.shape[-1]
    # K products and K - 1 additions in f32 (the dequantized weight itself is exact: test below)
    assert_within(inst, got, want, kk * U32 * (np.abs(a) @ np.abs(w).T))


@pytest.mark.parametrize("inst", IDENTITY, ids=[i.id for i in IDENTITY])
def test_host_kernel_dequantizes_bit_for_bit(inst, kernels):
    """With a = I (K x K) every output is one weight: y = w^T exactly, for f32 and (rounded once) bf16."""
    kk = inst.inputs[0].shape[0]
    a = np.eye(kk, dtype=np.float32).astype(numpy_dtype(inst.dtype))
    xs = _inputs(inst, _rng(inst), a)
    got = kernels[inst.key](*xs)
    assert_exact(inst, got, _oracle(inst, xs))
    w = dequantized_weight(*xs[1:3], xs[3] if len(xs) == 4 else None, inst.attrs)
    assert np.array_equal(got.astype(np.float32), w.T.astype(numpy_dtype(inst.dtype)).astype(np.float32))


def test_xdna_refuses_it_saying_what_is_missing():
    why = targets.get("xdna").supports("matmul_nbits", [(1, 4096), (4096, 128, 16), (4096, 128)], "bf16",
                                       normalize_attrs(REGISTRY["matmul_nbits"], {}))
    assert why and "unpacks" in why and "mm.cc" in why and "matmul bf16" in why, why


GRAPH = """\
graphs:
  int4_linear:
    inputs:
      x: {shape: [1, 4096], dtype: f32}
    params:
      w: {shape: [4096, 128, 16], dtype: u8}
      s: {shape: [4096, 128], dtype: f32}
    nodes:
      y: {op: matmul_nbits, inputs: [x, w, s], attrs: {bits: 4, block_size: 32}}
    outputs: [y]
"""


@pytest.mark.slow
def test_4bit_1x4096x4096_block_32_builds_and_runs_on_ref_and_host(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    r = p.doit("build")
    assert r.rc == 0, r.out + r.err
    rng = np.random.default_rng(11)
    x = rng.normal(size=(1, 4096)).astype(np.float32)
    w = rng.integers(0, 256, (4096, 128, 16)).astype(np.uint8)
    s = (rng.uniform(0.5, 1.5, (4096, 128)) * 2.0**-6).astype(np.float32)
    rt = npubuild.load(p.artifacts)
    out = {}
    for backend in ("ref", "host"):
        g = rt.graph("int4_linear", backend=backend)
        g.set_params(w=w, s=s)
        out[backend] = g.run(x=x)["y"]
    inst = make_instance("matmul_nbits", "f32", [(1, 4096), (4096, 128, 16), (4096, 128)], {})
    want = _oracle(inst, [x, w, s])
    np.testing.assert_array_equal(out["ref"], want)
    wd = dequantized_weight(w, s, None, inst.attrs).astype(np.float64)
    assert_within(inst, out["host"], want, 4096 * U32 * (np.abs(x.astype(np.float64)) @ np.abs(wd).T))


DEQUANTIZE = [make_instance("dequantize_nbits", dt, s[1:], at) for dt, s, at in CASES]


@pytest.fixture(scope="module")
def dequantize_kernels(tmp_path_factory):
    ks = compile_kernels(DEQUANTIZE, tmp_path_factory.mktemp("dequantize_nbits"))
    yield ks
    for k in ks.values():
        k.close()


@pytest.mark.parametrize("inst", DEQUANTIZE, ids=[i.id for i in DEQUANTIZE])
def test_dequantize_nbits_is_matmul_nbits_weight_as_matmul_b(inst, dequantize_kernels):
    """dequantize_nbits gives w^T [K, N], bit for bit on the host (bf16: rounded once), and a @ it is
    matmul_nbits' product (the oracles: the same float64 sum)."""
    xs = _inputs(make_instance("matmul_nbits", inst.dtype, [(1, inst.output.shape[0])] + list(inst.shapes), inst.attrs),
                 _rng(inst))
    got = dequantize_kernels[inst.key](*xs[1:])
    want = _oracle(inst, xs[1:])
    assert want.shape == inst.output.shape
    assert_exact(inst, got, want)
    if inst.dtype == "f32":
        mm = make_instance("matmul_nbits", "f32", [xs[0].shape] + list(inst.shapes), inst.attrs)
        np.testing.assert_array_equal(_oracle(mm, xs), (xs[0].astype(np.float64) @ want.astype(np.float64)).astype(np.float32))
