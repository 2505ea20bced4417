"""int8 GEMM: the ref backend's blocked GEMM and the host backend's, against
NumPy's float32 matmul measured in the same run.

    python bench/gemm.py [--sizes 256 1024 2048] [--host-sizes 256 512] [--repeat 5]

Prints seconds per call (best of --repeat, after one warm-up call) and the ratio speed(ref int8) /
speed(NumPy float32) (>= 1 means the int8 path is as fast), and the NPU
dispatches one call of that shape takes on npu1 / npu2 (the xdna design the
build would emit: 1 for the one-dispatch design, docs/xdna-gemm.md). The weight is
quantised and tiled once (a graph parameter); each call quantises the
activation, runs the blocked product and dequantises, as a graph run does.
The host backend's tile kernel is compiled here (the build would do it once).
For the same --host-sizes it also times the host's f32 and bf16 matmul kernels
(vector bodies, one call each) against the same NumPy product. The last line
is the lowest host int8 ratio: `host int8 / numpy f32: R`.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from npubuild.ops.gemm_layout import overlay_geometry
from npubuild.runner.gemm import BlockedGemm, RefDispatch
from npubuild.targets.host import tile_dispatch


def best(fn, repeat: int) -> float:
    fn()  # warm-up: first-touch page faults, the library's symbols resolved
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def gemm(k: int, n: int, dispatch_for):
    d, kt, cols = overlay_geometry(k, n)
    g = BlockedGemm(k, n, None, d, kt, cols)
    g.dispatch = dispatch_for(g)
    return g


def npu_dispatches(s: int, device: str) -> int:
    """NPU dispatches per call of an s x s x s int8 matmul on ``device`` (from the design's ABI)."""
    from npubuild.emitters.aie import design_for
    from npubuild.specfile.instances import make_instance

    return design_for(make_instance("matmul", "i8", [(s, s), (s, s)], {}), {"device": device}).abi()["dispatches_per_run"]


def host_kernel(dtype: str, shapes, tmp: Path):
    """The host matmul kernel of ``dtype`` and input ``shapes``, compiled as the build does (portable recipe)."""
    from npubuild.emitters.host import emit
    from npubuild.runner.host import HostKernel
    from npubuild.specfile.instances import make_instance
    from npubuild.toolchain.host import compile_shared_library

    inst = make_instance("matmul", dtype, shapes, {})
    so = tmp / f"{inst.id}.so"
    compile_shared_library(emit(inst), so, tmp / "build.log")
    return HostKernel(so, inst.describe())


def host_float_matmuls(sizes, repeat: int, tmp: Path, rng) -> None:
    """The f32 and bf16 host matmul kernels (vector bodies) against NumPy's float32 product."""
    from npubuild.core.constants import numpy_dtype

    print(f"\n{'size':>6} {'numpy f32 s':>12} {'host f32 s':>11} {'ratio':>6} {'host bf16 s':>12} {'ratio':>6}")
    for s in sizes:
        a = rng.standard_normal((s, s)).astype(np.float32)
        w = rng.standard_normal((s, s)).astype(np.float32)
        t_np = best(lambda: a @ w, repeat)
        row = f"{s:>6} {t_np:>12.4f}"
        for dt, width in (("f32", 11), ("bf16", 12)):
            k = host_kernel(dt, [(s, s), (s, s)], tmp)
            x, y = a.astype(numpy_dtype(dt)), w.astype(numpy_dtype(dt))
            t = best(lambda: k(x, y), repeat)
            row += f" {t:>{width}.4f} {t_np / t:>6.3f}"
            k.close()
        print(row)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[256, 1024, 2048])
    ap.add_argument("--host-sizes", type=int, nargs="+", default=[256, 512])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'size':>6} {'numpy f32 s':>12} {'ref int8 s':>11} {'ratio':>6} {'npu1 disp':>9} {'npu2 disp':>9}")
    for s in args.sizes:
        a = rng.standard_normal((s, s)).astype(np.float32)
        w = rng.standard_normal((s, s)).astype(np.float32)
        g = gemm(s, s, lambda g: RefDispatch(g.kk))
        g.set_weight(w)
        t_np = best(lambda: a @ w, args.repeat)
        t_ref = best(lambda: g(a), args.repeat)
        d1, d2 = (npu_dispatches(s, dev) for dev in ("npu1", "npu2"))
        print(f"{s:>6} {t_np:>12.4f} {t_ref:>11.4f} {t_np / t_ref:>6.2f} {d1:>9} {d2:>9}")
    host_ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"\n{'size':>6} {'numpy f32 s':>12} {'host int8 s':>12} {'ratio':>6}  (host: the vector gemm_tile, portable build)")
        for s in args.host_sizes:
            a = rng.standard_normal((s, s)).astype(np.float32)
            w = rng.standard_normal((s, s)).astype(np.float32)
            hk = host_kernel("i8", [(1, s), (s, s)], Path(tmp))

            g = gemm(s, s, lambda g, hk=hk: tile_dispatch(hk, g))
            g.set_weight(w)
            t_np = best(lambda: a @ w, args.repeat)
            t_host = best(lambda: g(a), args.repeat)
            print(f"{s:>6} {t_np:>12.4f} {t_host:>12.4f} {t_np / t_host:>6.3f}")
            host_ratios.append(t_np / t_host)
            hk.close()
        host_float_matmuls(args.host_sizes, args.repeat, Path(tmp), rng)
    if host_ratios:
        sizes = ", ".join(map(str, args.host_sizes))
        print(f"host int8 / numpy f32: {min(host_ratios):.3f} (the lowest of sizes {sizes})")


if __name__ == "__main__":
    main()
