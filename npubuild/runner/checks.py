"""What the runtime checks before a kernel runs that needs the op catalog or the
GEMM overlay's geometry (npubuild.artifacts.manifest checks the rest and has
neither): a kernel record is an instance its op accepts, with the output the op
infers; an xdna GEMM's ABI is the overlay the runner will drive; the arrays a
caller gives are rectangular arrays of the declared shape and dtype.
"""
from __future__ import annotations

from ..artifacts.manifest import key_problem
from ..errors import UserError
from ..ops import REGISTRY
from ..ops.lazy_numpy import np
from ..ops.registry import NUMPY_DTYPE, normalize_attrs


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


def check_gemm_abi(kernel_id: str, k: dict, abi: dict) -> None:
    """The overlay the xdna GEMM was built for must be the one GemmKernel drives: same geometry and buffers."""
    from ..emitters.gemm_layout import overlay_geometry

    d, kt, cols = overlay_geometry(k["inputs"][0]["shape"][-1], k["inputs"][1]["shape"][1])
    kk, nn = kt * d, cols * d
    want = {"kind": "gemm_overlay", "d": d, "kt": kt, "cols": cols}
    bufs = abi.get("buffers")
    mmul = abi.get("mmul")
    ok = (
        all(abi.get(f) == v for f, v in want.items())
        and isinstance(bufs, list)
        and [(b.get("shape"), b.get("dtype")) if isinstance(b, dict) else None for b in bufs]
        == [([d, kk], "i8"), ([kk, nn], "i8"), ([d, nn], "i32")]
        and isinstance(mmul, list)
        and len(mmul) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) and x > 0 and d % x == 0 for x in mmul)
    )
    if not ok:
        raise UserError(
            f"kernel '{kernel_id}': its xdna abi is not the GEMM overlay this npubuild drives "
            f"(d {d}, kt {kt}, cols {cols}: buffers i8 [{d}, {kk}], i8 [{kk}, {nn}], i32 [{d}, {nn}]); rebuild with `doit build`"
        )


def as_checked_array(kind: str, name: str, value, sig: dict, graph: str):
    """``value`` as an ndarray of exactly the declared shape and dtype; one UserError otherwise (no casts)."""
    want_dtype = np.dtype(NUMPY_DTYPE[sig["dtype"]])
    arr = value
    if not isinstance(arr, np.ndarray):
        if isinstance(arr, (str, bytes)) or not isinstance(arr, (list, tuple, int, float, np.generic)):
            raise UserError(f"graph '{graph}': {kind} '{name}' must be a NumPy array, got {type(value).__name__}")
        try:
            arr = np.asarray(arr)
        except (ValueError, TypeError):
            raise UserError(f"graph '{graph}': {kind} '{name}' is not a rectangular array (nested lists of unequal lengths?)") from None
    if tuple(arr.shape) != tuple(sig["shape"]):
        raise UserError(f"graph '{graph}': {kind} '{name}' must have shape {list(sig['shape'])}, got {list(arr.shape)}")
    if arr.dtype != want_dtype:
        raise UserError(
            f"graph '{graph}': {kind} '{name}' must be {want_dtype} ({sig['dtype']}), got {arr.dtype}; convert with .astype(np.{want_dtype})"
        )
    return arr
