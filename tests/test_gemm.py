"""The blocked int8 GEMM shared by every backend (npubuild.runner.gemm)."""
from __future__ import annotations

import numpy as np
import pytest

from npubuild.ops.gemm_layout import overlay_geometry
from npubuild.ops.quant import (
    int8_matmul,
    int8_matmul_accumulate,
    quantize_per_col,
    quantize_per_row,
)
from npubuild.emitters.host.vector_gemm import gemm_tile_shapes
from npubuild.targets.host import tile_dispatch
from npubuild.runner.gemm import F32_EXACT_TERMS, BlockedGemm, RefDispatch, TileDispatch
from npubuild.specfile.instances import make_instance

from .hostkit import compile_kernels

# M, K, N: 1x1x1, not multiples of 64, K > 8*64, N > 4*64, tall and skinny, wide
SHAPES = [(1, 1, 1), (65, 130, 70), (3, 600, 300), (130, 1100, 520), (1000, 3, 2), (2, 4100, 7), (64, 512, 256), (5, 64, 1030)]


def _data(m, k, n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)


def _ref_gemm(k, n):
    d, kt, cols = overlay_geometry(k, n)
    g = BlockedGemm(k, n, None, d, kt, cols)
    g.dispatch = RefDispatch(g.kk)
    return g


# ---- exactness of the arithmetic the ref dispatch uses ----------------------------------------------------------------


def test_float32_is_exact_for_an_overlay_k_block_at_its_limit():
    """Every partial sum of kt*d = 512 int8 products is an integer below 2**23: float32 holds it."""
    kk = overlay_geometry(10**6, 1)[1] * 64
    assert kk == 512 <= F32_EXACT_TERMS
    for a_val, b_val in ((-128, -128), (127, -128), (127, 127)):
        a = np.full((3, kk), a_val, np.int8)
        b = np.full((kk, 2), b_val, np.int8)
        got = RefDispatch(kk).run(a, RefDispatch(kk).prepare_b(b))
        assert (got == kk * a_val * b_val).all()
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (64, kk)).astype(np.int8)
    b = rng.integers(-128, 128, (kk, 256)).astype(np.int8)
    want = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(RefDispatch(kk).run(a, b.astype(np.float32)), want)


def test_float32_stops_being_exact_past_the_bound():
    """Why K-blocks are bounded: 1041 products of 127*127 sum to an odd number above 2**24."""
    k = 1041
    exact = k * 127 * 127
    assert exact > 2**24 and exact % 2 == 1
    s = np.ones(k, np.float32) @ np.full(k, 127.0 * 127.0, np.float32)
    assert int(s) != exact
    with pytest.raises(ValueError):
        RefDispatch(2048)


def test_float64_is_exact_far_beyond_the_k_in_use():
    """int8 x int8 accumulated in float64: |sum| <= K * 2**14 < 2**53 for K < 2**39; checked at K = 2**20."""
    k = 1 << 20
    a = np.full(k, -128, np.int8).astype(np.float64)
    b = np.full(k, -128, np.int8).astype(np.float64)
    assert a @ b == k * 16384
    rng = np.random.default_rng(2)
    x = rng.integers(-128, 128, k)
    y = rng.integers(-128, 128, k)
    assert int(x.astype(np.float64) @ y.astype(np.float64)) == int(x @ y)
    qa = rng.integers(-127, 128, (4, 5000)).astype(np.int8)
    qb = rng.integers(-127, 128, (5000, 3)).astype(np.int8)
    np.testing.assert_array_equal(int8_matmul_accumulate(qa, qb), qa.astype(np.int64) @ qb.astype(np.int64))


# ---- the tiler ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("m,k,n", SHAPES, ids=[f"{m}x{k}x{n}" for m, k, n in SHAPES])
def test_blocked_gemm_is_the_reference_gemm(m, k, n):
    a, w = _data(m, k, n, seed=m + k + n)
    g = _ref_gemm(k, n)
    g.set_weight(w)
    y = g(a)
    np.testing.assert_array_equal(y, int8_matmul(a, w))  # bit for bit, outputs
    qa, _ = quantize_per_row(a)
    qw, _ = quantize_per_col(w)
    np.testing.assert_array_equal(g.last_accumulator, int8_matmul_accumulate(qa, qw))  # and accumulators


def test_resident_and_dynamic_weights():
    m, k, n = 9, 700, 300
    a, w = _data(m, k, n, seed=3)
    prepared = []

    class Counting(RefDispatch):
        def prepare_b(self, b_blk):
            prepared.append(1)
            return super().prepare_b(b_blk)

    d, kt, cols = overlay_geometry(k, n)
    g = BlockedGemm(k, n, Counting(kt * d), d, kt, cols)
    g.set_weight(w)
    tiles = len(prepared)
    assert tiles == 1  # ref: both K-blocks of 512 and both N-blocks of 256 in one exact float32 product
    y1, y2 = g(a), g(a * 2)
    assert len(prepared) == tiles  # resident: tiled once
    dyn = g(a, w)  # dynamic: tiled for this call
    assert len(prepared) == 2 * tiles
    np.testing.assert_array_equal(y1, dyn)
    np.testing.assert_array_equal(y2, int8_matmul(a * 2, w))


def test_batched_activation():
    a, w = _data(12, 70, 9, seed=4)
    g = _ref_gemm(70, 9)
    g.set_weight(w)
    y = g(a.reshape(3, 4, 70))
    assert y.shape == (3, 4, 9)
    np.testing.assert_array_equal(y.reshape(12, 9), int8_matmul(a, w))


# ---- host tile kernel: the same accumulators --------------------------------------------------------------------------


HOST_SHAPES = [(1, 1, 1), (65, 130, 70), (3, 600, 300), (70, 64, 257)]


def _host_gemm(hk, k: int, n: int) -> BlockedGemm:
    """The host backend's blocked GEMM over the compiled library ``hk`` (as the host target opens it)."""
    g = BlockedGemm(k, n, None, *overlay_geometry(k, n))
    g.dispatch = tile_dispatch(hk, g)
    return g


def _tile_spec(d: int, kt: int, cols: int):
    """gemm_tile's arguments as the host target opens it: int16 pairs of a and b in int32 words, c."""
    return [(shape, "int32") for shape, _ in gemm_tile_shapes(d, kt * d, cols * d)]


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    insts = [make_instance("matmul", "i8", [(m, k), (k, n)], {}) for m, k, n in HOST_SHAPES]
    return compile_kernels(insts, tmp_path_factory.mktemp("gemm")), insts


@pytest.mark.parametrize("case", range(len(HOST_SHAPES)), ids=[f"{m}x{k}x{n}" for m, k, n in HOST_SHAPES])
def test_host_tile_kernel_gives_identical_accumulators(host_kernels, case):
    kernels, insts = host_kernels
    m, k, n = HOST_SHAPES[case]
    hk = kernels[insts[case].key]
    a, w = _data(m, k, n, seed=case)
    host = _host_gemm(hk, k, n)
    ref = _ref_gemm(k, n)
    for g in (host, ref):
        g.set_weight(w)
    y_host, y_ref = host(a), ref(a)
    np.testing.assert_array_equal(host.last_accumulator, ref.last_accumulator)
    np.testing.assert_array_equal(y_host, y_ref)
    np.testing.assert_array_equal(y_host, hk(a, w))  # and the whole-op host kernel


def test_quantisation_codes_match_round_half_away_over_float32_bit_patterns():
    """The fast rounding in ops.quant equals trunc + (|frac| >= 0.5) * sign, clamped, NaN -> 0 (a sample
    here; all 2**32 float32 bit patterns were compared once: 0 mismatches, about 2 minutes)."""
    from npubuild.ops.quant import _codes

    bits = np.arange(0, 2**32, 997, dtype=np.uint64).astype(np.uint32)
    halves = np.arange(-300, 301, dtype=np.float32) / 2
    near = np.concatenate([np.nextafter(halves, np.float32(np.inf)), np.nextafter(halves, np.float32(-np.inf))])
    for v in (bits.view(np.float32), halves, near):
        with np.errstate(all="ignore"):
            t = np.trunc(v)
            want = t + np.where(np.abs(v - t) >= 0.5, np.sign(v), 0).astype(np.float32)
            want = np.where(np.isnan(want), 0, np.clip(want, -127, 127)).astype(np.int8)
            np.testing.assert_array_equal(_codes(v), want)


def test_grouping_of_blocks_does_not_change_the_sums():
    """One overlay tile per call (host, xrt) or whole K/N groups per call (ref): same accumulators."""
    m, k, n = 70, 1100, 520
    a, w = _data(m, k, n, seed=9)
    d, kt, cols = overlay_geometry(k, n)
    calls = []

    def fake_tile(a_pairs, b_pairs, out):
        calls.append(1)
        a_blk = a_pairs.view(np.int16)  # the pairs in k order again
        kp, nn = b_pairs.shape
        b_blk = b_pairs.view(np.int16).reshape(kp, nn, 2).transpose(0, 2, 1).reshape(2 * kp, nn)
        out[...] = a_blk.astype(np.int32) @ b_blk.astype(np.int32)

    per_tile = BlockedGemm(k, n, TileDispatch(fake_tile, d), d, kt, cols)
    per_tile.set_weight(w)
    grouped = _ref_gemm(k, n)
    grouped.set_weight(w)
    np.testing.assert_array_equal(per_tile(a), grouped(a))
    np.testing.assert_array_equal(per_tile.last_accumulator, grouped.last_accumulator)
    blocks = (2 * 3 * 3)  # M-blocks of 64, K-blocks of 512, N-blocks of 256
    assert len(calls) == blocks and per_tile.dispatches == grouped.dispatches == blocks


# ---- NaN: int8 has none, so the rows and columns holding one give NaN -------------------------------------------


@pytest.mark.parametrize("case", range(len(HOST_SHAPES)), ids=[f"{m}x{k}x{n}" for m, k, n in HOST_SHAPES])
def test_nan_rows_and_columns_give_nan_on_ref_and_host_alike(host_kernels, case):
    kernels, insts = host_kernels
    m, k, n = HOST_SHAPES[case]
    a, w = _data(m, k, n, seed=20 + case)
    a[m // 2, k - 1] = np.nan
    w[0, n - 1] = np.nan
    host, ref = _host_gemm(kernels[insts[case].key], k, n), _ref_gemm(k, n)
    for g in (host, ref):
        g.set_weight(w)
    y_host, y_ref = host(a), ref(a)
    np.testing.assert_array_equal(y_host, y_ref)  # NaN in the same places, the same bits elsewhere
    np.testing.assert_array_equal(host.last_accumulator, ref.last_accumulator)
    want = np.zeros((m, n), bool)
    want[m // 2, :] = True
    want[:, n - 1] = True
    np.testing.assert_array_equal(np.isnan(y_ref), want)
    # elsewhere: the reference GEMM, whose codes of a NaN are 0
    np.testing.assert_array_equal(y_ref[~want], int8_matmul(a, w)[~want])


def test_an_all_nan_weight_gives_nan_not_zeros():
    a, w = _data(5, 70, 9, seed=11)
    g = _ref_gemm(70, 9)
    g.set_weight(np.full_like(w, np.nan))
    assert np.isnan(g(a)).all()
    assert not np.isnan(int8_matmul(a, np.full_like(w, np.nan))).any()  # the reference rule alone: all zeros
    g.set_weight(w)  # a finite weight afterwards: no NaN left over
    np.testing.assert_array_equal(g(a), int8_matmul(a, w))


def test_gemm_tile_of_another_geometry_is_refused(host_kernels):
    from npubuild.core.errors import UserError

    kernels, insts = host_kernels
    hk = kernels[insts[1].key]  # 65x130x70: d 64, kt 3, cols 2
    tile = hk.function("gemm_tile", _tile_spec(64, 1, 2))
    args = [np.zeros(shape, np.int32) for shape, _ in _tile_spec(64, 1, 2)]
    with pytest.raises(UserError) as e:
        tile(*args)
    assert str(e.value) == (
        f"kernel {insts[1].id}: gemm_tile in {hk.so_path} was compiled for (int32[64, 96], int32[96, 128], int32[64, 128]), "
        "not what this npubuild passes; rebuild with `doit build`"
    )
