"""What the runtime checks before a kernel runs that needs the op catalog or the
GEMM overlay's geometry (npubuild.artifacts.manifest checks the rest and has
neither): a kernel record is an instance its op accepts, with the output the op
infers; an xdna GEMM's ABI records a geometry the runner can drive and buffers
that agree with it; the arrays a caller gives are rectangular arrays of the
declared shape and dtype.
"""
from __future__ import annotations

from ..artifacts.manifest_records import key_problem
from ..core.errors import UserError
from ..ops import REGISTRY
from ..ops.lazy_numpy import np
from ..core.constants import numpy_dtype
from ..ops.registry import normalize_attrs


def check_kernel_record(kernel_id: str, k: dict) -> None:
    """UserError unless the record's op takes its inputs and attrs and gives its output (and its key is theirs)."""
    op = REGISTRY.get(k["op"])
    if op is None:
        raise UserError(f"kernel '{kernel_id}': op '{k['op']}' is unknown to this npubuild (built by a newer version?)")
    shapes = [tuple(t["shape"]) for t in k["inputs"]]
    try:
        if k["dtype"] not in op.dtypes or not op.arity_ok(len(shapes)):
            raise UserError(f"op '{op.name}' does not take dtype {k['dtype']} with {len(shapes)} inputs")
        attrs = normalize_attrs(op, k["attrs"])
        in_dtypes, out_dtype = op.signature(k["dtype"], len(shapes), attrs)
        out_shape = list(op.infer(shapes, attrs))
        names = list(op.input_names(len(shapes)))
    except (UserError, ValueError, TypeError, IndexError, KeyError) as e:  # a shape rule given what no spec could give
        raise UserError(f"kernel '{kernel_id}': its record is not an instance of op '{k['op']}': {e}") from None
    want = {
        "inputs": [{"name": n, "shape": list(s), "dtype": d} for n, s, d in zip(names, shapes, in_dtypes)],
        "outputs": [{"name": op.output, "shape": out_shape, "dtype": out_dtype}],
    }
    for side, tensors in want.items():
        for i, (got, w) in enumerate(zip(k[side], tensors)):
            for f in ("name", "shape", "dtype"):
                if got[f] != w[f]:
                    raise UserError(
                        f"kernel '{kernel_id}': {side}[{i}].{f} is {got[f]} in the manifest, but op '{op.name}' "
                        f"of its inputs and attrs gives {w[f]}; rebuild with `doit build`"
                    )
    problem = key_problem(kernel_id, k)
    if problem:
        raise UserError(problem)


# the overlay's int32 accumulators must not overflow inside one dispatch: kt*d terms of at most 128*128
MAX_GEMM_DEPTH = (2**31 - 1) // (128 * 128)


def gemm_geometry(kernel_id: str, abi: dict) -> tuple[int, int, int, tuple[int, int, int]]:
    """(d, kt, cols, mmul) of the GEMM overlay the xdna kernel was built for, read from its ABI.

    The build chose them for its device (``cols`` is at most the device's columns:
    npubuild.emitters.aie.gemm.overlay_for), so the runner takes them from here and
    never recomputes them: recomputing without the device got them wrong."""
    fields = ("d", "kt", "cols", "mmul")
    abi = abi if isinstance(abi, dict) else {}
    missing = [f for f in ("kind", *fields) if f not in abi]
    if missing or abi["kind"] != "gemm_overlay":
        why = f"missing: {', '.join(missing)}" if missing else f"kind is {abi['kind']!r}"
        raise UserError(
            f"kernel '{kernel_id}': its xdna abi does not record the GEMM overlay's geometry ({why}): "
            f"it was built by an older npubuild; rebuild with `doit build`"
        )
    d, kt, cols, mmul = (abi[f] for f in fields)
    ok = (
        all(_positive_int(x) for x in (d, kt, cols))
        and isinstance(mmul, list)
        and len(mmul) == 3
        and all(_positive_int(x) and d % x == 0 for x in mmul)  # tile_a/tile_b/untile_c cut d by r, s, t
        and kt * d <= MAX_GEMM_DEPTH
    )
    if not ok:
        raise UserError(
            f"kernel '{kernel_id}': its xdna abi's GEMM geometry is not one the overlay can have (d {d!r}, kt {kt!r}, "
            f"cols {cols!r}, mmul {mmul!r}: positive integers, mmul dividing d, kt*d at most {MAX_GEMM_DEPTH}); rebuild with `doit build`"
        )
    return d, kt, cols, tuple(mmul)


def _positive_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x > 0


def check_gemm_abi(kernel_id: str, _record: dict, abi: dict) -> None:
    """The xdna GEMM's ABI is an overlay GemmKernel can drive: its geometry (read, not recomputed:
    :func:`gemm_geometry`) and the three host buffers that geometry gives, in order; a one-dispatch
    design's ABI is checked by npubuild.runner.gemm.check_whole_array_abi."""
    if isinstance(abi, dict) and abi.get("kind") == "gemm_whole_array":
        from .gemm import check_whole_array_abi

        check_whole_array_abi(kernel_id, _record, abi)
        return
    d, kt, cols, _ = gemm_geometry(kernel_id, abi)
    kk, nn = kt * d, cols * d
    bufs = abi.get("buffers")
    want = [([d, kk], "i8"), ([kk, nn], "i8"), ([d, nn], "i32")]
    got = [(b.get("shape"), b.get("dtype")) if isinstance(b, dict) else None for b in bufs] if isinstance(bufs, list) else None
    if got != want:
        raise UserError(
            f"kernel '{kernel_id}': its xdna abi's buffers are not those of its GEMM geometry "
            f"(d {d}, kt {kt}, cols {cols} takes buffers i8 [{d}, {kk}], i8 [{kk}, {nn}], i32 [{d}, {nn}]); rebuild with `doit build`"
        )


def as_checked_array(kind: str, name: str, value, sig, graph: str):
    """``value`` as an ndarray of exactly the declared shape and dtype; one UserError otherwise (no casts).
    ``sig``: its :class:`~npubuild.runner.records.TensorSpec` (or ConstantSpec)."""
    want_dtype = numpy_dtype(sig.dtype)
    arr = value
    if not isinstance(arr, np.ndarray):
        if isinstance(arr, (str, bytes)) or not isinstance(arr, (list, tuple, int, float, np.generic)):
            raise UserError(f"graph '{graph}': {kind} '{name}' must be a NumPy array, got {type(value).__name__}")
        try:
            arr = np.asarray(arr)
        except (ValueError, TypeError):
            raise UserError(f"graph '{graph}': {kind} '{name}' is not a rectangular array (nested lists of unequal lengths?)") from None
    if tuple(arr.shape) != tuple(sig.shape):
        raise UserError(f"graph '{graph}': {kind} '{name}' must have shape {list(sig.shape)}, got {list(arr.shape)}")
    if arr.dtype != want_dtype:
        to = "ml_dtypes.bfloat16" if sig.dtype == "bf16" else f"np.{want_dtype}"
        raise UserError(
            f"graph '{graph}': {kind} '{name}' must be {want_dtype} ({sig.dtype}), got {arr.dtype}; convert with .astype({to})"
        )
    return arr
