"""The host's vector GEMM bodies (npubuild.emitters.host.vector_gemm): the f32 / bf16 matmul kernel
is bit-identical to the scalar body (the same sums in the same order), and the int8 ``gemm_tile``
gives the exact integer product over the whole int8 range."""
from __future__ import annotations

import numpy as np
import pytest

from npubuild.core.constants import numpy_dtype
from npubuild.emitters import host as emitters
from npubuild.emitters.host import vector
from npubuild.emitters.host.vector_gemm import gemm_tile_function, gemm_tile_shapes
from npubuild.runner.gemm import pack_pairs
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance
from tests.hostkit import assert_standard_dialects, compiled_library

MATMULS = [  # dtype, a shape, b shape
    ("f32", (2, 6, 40), (40, 32)),  # batch, a 2-row remainder, 2 vectors per panel
    ("f32", (5, 130), (130, 48)),  # one vector per panel
    ("bf16", (7, 33), (33, 16)),
    ("bf16", (4, 64), (64, 64)),
    ("f32", (6, 700), (700, 32)),  # the packed panel of b (700 x 32 f32) is heap scratch
]


def _kernel(inst, text: str, tag: str) -> HostKernel:
    return HostKernel(compiled_library(text, f"{tag}_{inst.id}"), inst.describe())


def _scalar_text(inst) -> str:
    with vector.profile("scalar"):
        return emitters.emit(inst)


@pytest.mark.parametrize("case", MATMULS, ids=[f"{dt}-{a}x{b}" for dt, a, b in MATMULS])
def test_vector_matmul_is_bit_identical_to_the_scalar_body(case):
    dt, a_shape, b_shape = case
    inst = make_instance("matmul", dt, [a_shape, b_shape], {})
    text = emitters.emit(inst)
    assert "vector.transfer_read" in text and vector.decision(inst, "host")["lanes"] == 16
    assert_standard_dialects(text, inst.id)
    rng = np.random.default_rng(len(a_shape) * 100 + b_shape[1])
    a = (rng.standard_normal(a_shape) * 3).astype(numpy_dtype(dt))
    b = (rng.standard_normal(b_shape) * 3).astype(numpy_dtype(dt))
    a.reshape(-1)[:4] = np.array([np.inf, -0.0, np.nan, 1e30], np.float32).astype(a.dtype)
    got = _kernel(inst, text, "vec")(a, b)
    want = _kernel(inst, _scalar_text(inst), "scalar")(a, b)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_a_matmul_whose_n_is_not_whole_vectors_keeps_the_scalar_body_and_says_why():
    inst = make_instance("matmul", "f32", [(4, 8), (8, 20)], {})
    text = emitters.emit(inst)
    assert "vector." not in text.split("module {", 1)[1]
    assert vector.decision(inst, "host") == {"lanes": "scalar", "why": "N (20) is not a multiple of 16 lanes"}


def test_gemm_tile_is_the_exact_integer_product_over_the_whole_int8_range():
    """Codes from the quantiser stay within +-127; the tile takes any int8, -128 included, at the deepest
    K the overlay has (512 terms of 128 * 128: 2^23, no overflow anywhere)."""
    d, kk, nn = 64, 512, 256
    inst = make_instance("matmul", "i8", [(1, kk), (kk, nn)], {})  # overlay geometry: d 64, kt 8, cols 4
    tile = _kernel(inst, emitters.emit(inst), "i8").function("gemm_tile", [(s, "int32") for s, _ in gemm_tile_shapes(d, kk, nn)])
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (d, kk), dtype=np.int8)
    b = rng.integers(-128, 128, (kk, nn), dtype=np.int8)
    a[0], b[:, 0] = -128, -128  # the largest sum: 512 * 2^14
    a[1], b[:, 1] = 127, -128
    c = np.empty((d, nn), np.int32)
    tile(pack_pairs(a, along_rows=False), pack_pairs(b, along_rows=True), c)
    want = a.astype(np.int64) @ b.astype(np.int64)
    assert want[0, 0] == 512 * 2**14
    np.testing.assert_array_equal(c, want)


def test_gemm_tile_refuses_a_geometry_it_cannot_block():
    with pytest.raises(ValueError, match="nn a multiple of 16"):
        gemm_tile_function(64, 64, 40)
