"""Weight compression as ``coremltools.optimize.coreml`` computes it (coremltools 9.0), producing the operands of
the iOS18 constexpr ops (``coremltools/converters/mil/mil/ops/defs/iOS18/compression.py``), and their
dequantisation as those ops define it.

* :func:`quantize` — ``linear_quantize_weights`` (``OpLinearQuantizerConfig``): per block of ``block_sizes``
  (0: the whole axis), ``LINEAR_SYMMETRIC`` or ``LINEAR``, into int8/uint8/int4/uint4; transcribed from
  ``optimize/_utils.py`` ``compute_qparams_by_dtype`` / ``quantize_weight_by_dtype`` / ``get_quant_range``
  (the same NumPy operations in the weight's dtype, so the result is coremltools' bit for bit) ->
  ``constexpr_blockwise_shift_scale(data, scale, offset)``;
* :func:`palettize` — ``palettize_weights`` (``OpPalettizerConfig(mode="kmeans")``) per tensor or per grouped
  channel (``grouped_channelwise_compress``: one palette of ``2^nbits`` entries per group of ``group_size``
  output channels) -> ``constexpr_lut_to_dense(indices uint<nbits>, lut [*groups, 2^nbits, 1])``. The
  clustering is a one-dimensional k-means over the group's values (Lloyd's iterations to a fixed point from
  weighted quantiles): coremltools clusters with scikit-learn's KMeans (k-means++ from a seeded random start)
  or kmeans1d, neither a dependency here, so the palette is a k-means palette of the same size and layout,
  not necessarily the same numbers; a group with at most ``2^nbits`` distinct values keeps them exactly;
* :func:`prune` — ``prune_weights`` (``OpMagnitudePrunerConfig(target_sparsity=...)``): the values whose
  magnitude is at most the ``target_sparsity`` percentile become zero (``compress_by_magnitude``), kept as
  ``constexpr_sparse_to_dense(nonzero_data, mask uint1)`` in the iOS18 form
  (``ios16_sparse_params_to_ios18``).

The dequantisations (:func:`blockwise_dense`, :func:`lut_dense`, :func:`sparse_dense`) are what the emulator
computes from the compressed blobs a program's weight.bin holds.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ops.lazy_numpy import np
from .numerics import blockwise_dequantize

QUANT_DTYPES = {"int8": (8, True), "uint8": (8, False), "int4": (4, True), "uint4": (4, False)}
QUANT_MODES = ("linear_symmetric", "linear")
NBITS = (1, 2, 3, 4, 6, 8)  # palettize_weights._SUPPORTED_NBITS
KMEANS_MAX_ITER = 300  # scikit-learn KMeans' default max_iter


@dataclass(frozen=True)
class Compressed:
    """A weight's compressed form: ``op`` is the iOS18 constexpr op, ``parts`` its operands by parameter name
    (NumPy arrays; ``dtypes`` their MIL dtypes), ``dense`` the fp16 values the op computes."""

    op: str
    parts: dict
    dtypes: dict
    dense: object


def quant_range(nbits: int, signed: bool, mode: str) -> tuple[int, int]:
    """optimize/_utils.py get_quant_range."""
    max_q = 2 ** nbits
    if not signed:
        lo, hi = 0, max_q - 1
        if mode == "LINEAR_SYMMETRIC":
            hi -= 1
    else:
        lo, hi = -max_q / 2, max_q / 2 - 1
        if mode == "LINEAR_SYMMETRIC":
            lo += 1
    return int(lo), int(hi)


def quantize(weight, dtype: str, mode: str, block_sizes: list) -> Compressed:
    """``compute_qparams_by_dtype(weight, dtype, mode, block_sizes)`` as a blockwise-shift-scale weight. Every
    block size divides its axis (the caller checks; coremltools skips the weight otherwise)."""
    w = np.asarray(weight)
    mode = mode.upper()
    nbits, signed = QUANT_DTYPES[dtype]
    new_shape, scale_shape, skip = [], [], []
    for dim, block in zip(w.shape, block_sizes):
        if block > 0:
            skip.append(len(new_shape))
            new_shape += [dim // block, block]
            scale_shape.append(dim // block)
        else:
            new_shape.append(dim)
            scale_shape.append(1)
    axes = tuple(a for a in range(len(new_shape)) if a not in skip)
    x = w.reshape(new_shape)
    # optimize/_utils.py quantize_weight_by_dtype, in the weight's own dtype as coremltools computes it
    val_min = np.amin(x, axis=axes, keepdims=True)
    val_max = np.amax(x, axis=axes, keepdims=True)
    q_min, q_max = quant_range(nbits, signed, mode)
    zero_point = None
    if mode == "LINEAR_SYMMETRIC":
        max_abs = np.maximum(np.abs(val_min), np.abs(val_max))
        val_min, val_max = -max_abs, max_abs
    else:
        val_min, val_max = np.minimum(0.0, val_min), np.maximum(0.0, val_max)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = (val_max - val_min) / (q_max - q_min)
        q = np.round(x / scale)
        if mode == "LINEAR_SYMMETRIC" and not signed:
            zero_point = (q_max // 2) * np.ones(val_min.shape)
        elif mode == "LINEAR":
            zero_point = np.clip(np.round((q_min * val_max - q_max * val_min) / (val_max - val_min)), q_min, q_max)
    if zero_point is not None:
        q += zero_point
        zero_point = zero_point.squeeze()
    q = np.clip(q, q_min, q_max)
    scale = scale.astype(x.dtype).squeeze()
    held = np.int8 if signed else np.uint8  # int4/uint4 held unpacked, as the MIL reader holds them
    data = q.reshape(w.shape).astype(held)
    scale = np.asarray(scale).reshape(scale_shape).astype(np.float16)
    parts, dtypes = {"data": data, "scale": scale}, {"data": dtype, "scale": "fp16"}
    if zero_point is not None:
        parts["offset"], dtypes["offset"] = np.asarray(zero_point).reshape(scale_shape).astype(held), dtype
    return Compressed("constexpr_blockwise_shift_scale", parts, dtypes, blockwise_dense(**parts))


def _kmeans_1d(values, k: int):
    """(centroids [k], index of each value): Lloyd's k-means on one-dimensional ``values`` from the weighted
    quantiles of their distinct values, iterated until no value changes cluster (at most KMEANS_MAX_ITER).
    Fewer distinct values than k: each is its own centroid, the rest of the palette zero (as coremltools pads)."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    uniq, inverse, counts = np.unique(v, return_inverse=True, return_counts=True)
    lut = np.zeros(k)
    if uniq.size <= k:
        lut[:uniq.size] = uniq
        return lut, inverse.reshape(-1)
    cum = np.cumsum(counts) - counts / 2.0
    centroids = np.interp((np.arange(k) + 0.5) / k * counts.sum(), cum, uniq)
    assign = None
    for _ in range(KMEANS_MAX_ITER):
        cuts = (centroids[1:] + centroids[:-1]) / 2.0
        new = np.searchsorted(cuts, uniq, side="left")  # the nearest centroid (centroids stay sorted)
        if assign is not None and np.array_equal(new, assign):
            break
        assign = new
        sums = np.bincount(assign, weights=uniq * counts, minlength=k)
        cnt = np.bincount(assign, weights=counts, minlength=k)
        centroids = np.where(cnt > 0, sums / np.maximum(cnt, 1), centroids)  # an empty cluster keeps its centroid
    lut[:] = centroids
    return lut, assign[inverse]


def palettize(weight, nbits: int, channel_axis: int, group_size: int = 0) -> Compressed:
    """``grouped_channelwise_compress(weight, "KMEANS", nbits, channel_axis, group_size)``: one palette per group
    of ``group_size`` channels along ``channel_axis`` (0: the whole tensor), as a lut-to-dense weight."""
    w = np.asarray(weight)
    rank = w.ndim
    channels = w.shape[channel_axis]
    group = group_size or channels
    moved = np.swapaxes(w, 0, channel_axis)
    groups = np.split(moved, channels // group, axis=0)
    luts, idx = [], []
    for g in groups:
        lut, ind = _kmeans_1d(g, 2 ** nbits)
        luts.append(lut.astype(w.dtype))
        idx.append(ind.reshape(g.shape).astype(np.uint8))
    indices = np.concatenate(idx, axis=0)
    lut_shape = [1] * (rank + 2)
    lut_shape[0], lut_shape[-2], lut_shape[-1] = len(groups), 2 ** nbits, 1
    lut = np.stack(luts, axis=0).reshape(lut_shape)
    if channel_axis != 0:
        lut, indices = np.swapaxes(lut, 0, channel_axis), np.swapaxes(indices, 0, channel_axis)
    indices, lut = np.ascontiguousarray(indices), np.ascontiguousarray(lut).astype(np.float16)
    return Compressed("constexpr_lut_to_dense", {"indices": indices, "lut": lut}, {"indices": f"uint{nbits}", "lut": "fp16"},
                      lut_dense(indices, lut))


def prune(weight, target_sparsity: float) -> Compressed:
    """``prune_weights.compress_by_magnitude(weight, target_sparsity)`` in the iOS18 sparse form."""
    w = np.asarray(weight)
    magnitude = np.abs(w)
    q = target_sparsity * 100
    if q == 100:
        w = 0 * w
    elif q != 0:
        w = np.where(magnitude <= np.percentile(magnitude, q), 0, w)
    mask = (w != 0).astype(np.uint8)
    nonzero = np.ascontiguousarray(w.reshape(-1)[mask.reshape(-1) != 0]).astype(np.float16)
    return Compressed("constexpr_sparse_to_dense", {"nonzero_data": nonzero, "mask": mask}, {"nonzero_data": "fp16", "mask": "uint1"},
                      sparse_dense(nonzero, mask))


# ---- the iOS18 definitions, as the emulator computes a weight from its compressed blobs ------------------------------


def blockwise_dense(data, scale, offset=None):
    """constexpr_blockwise_shift_scale: ``scale * (data - offset)``, each scale/offset value over its block."""
    return blockwise_dequantize(data, scale, offset)


def lut_dense(indices, lut):
    """constexpr_lut_to_dense (iOS18, vector size 1): each index reads the palette of its block,
    ``lut[block(i), indices[i], 0]``, the blocks tiling the indices as lut's leading dimensions say."""
    idx = np.asarray(indices).astype(np.intp)
    lut = np.asarray(lut)
    block = np.zeros(idx.shape, dtype=np.intp)
    for ax, (d, b) in enumerate(zip(idx.shape, lut.shape)):
        along = (np.arange(d) // (d // b)).reshape([-1 if i == ax else 1 for i in range(idx.ndim)])
        block = block * b + along
    return lut.reshape(-1, lut.shape[-2], lut.shape[-1])[block, idx, 0]


def sparse_dense(nonzero_data, mask):
    """constexpr_sparse_to_dense (iOS18): zeros, with ``nonzero_data`` in row-major order where ``mask`` is 1."""
    m = np.asarray(mask).astype(bool)
    out = np.zeros(m.shape, dtype=np.asarray(nonzero_data).dtype)
    out[m] = np.asarray(nonzero_data).reshape(-1)
    return out


def dense(packed):
    """The fp16 values of a compressed weight (:class:`.plan_model.Packed`), as its constexpr op computes them."""
    if packed.kind == "lut":
        return np.asarray(lut_dense(packed.data, packed.scale), dtype=np.float16)
    if packed.kind == "sparse":
        return np.asarray(sparse_dense(packed.scale, packed.data), dtype=np.float16)
    return blockwise_dense(packed.data, packed.scale, packed.offset)
