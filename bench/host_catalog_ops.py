"""Host kernels of pow, topk, gather_elements, scatter_elements, einsum, conv_transpose and resize
against NumPy, f32.

    python bench/host_catalog_ops.py [--repeat 10] [--host-cpu portable|native|x86-64-v3]

Each kernel is emitted and compiled as `doit build` does it and called through the runtime's ctypes
wrapper (bench/host_kernels.py's method). NumPy computes the same op in the same run: np.power,
a stable argsort for topk, take_along_axis, np.add.at, np.einsum, and for conv_transpose and resize
the per-tap / per-axis NumPy forms of their definitions. Printed per op: best seconds per call of
each, the ratio NumPy time / kernel time (>= 1: the kernel is at least as fast), then the geometric
mean of the ratios.
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.host_kernels import best  # noqa: E402
from npubuild.emitters.host import emit  # noqa: E402
from npubuild.ops import REGISTRY  # noqa: E402
from npubuild.ops.registry import normalize_attrs  # noqa: E402
from npubuild.runner.host import HostKernel  # noqa: E402
from npubuild.specfile.instances import make_instance  # noqa: E402
from npubuild.toolchain import host as toolchain  # noqa: E402


def _topk(x, k=8):
    return np.take_along_axis(x, np.argsort(-x, axis=-1, kind="stable")[:, :k], -1)


def _scatter_add(data, idx, upd):
    out = data.copy()
    np.add.at(out, (np.arange(data.shape[0])[:, None], idx), upd)
    return out


def _oracle(op, attrs):
    """The op's own NumPy definition (float64 inside), for the ops NumPy has no single call for."""
    o = REGISTRY[op]
    a = normalize_attrs(o, attrs)
    return lambda *xs: o.evaluate(list(xs), a, "f32")


def cases(rng):
    """(op, attrs, [(shape, dtype, maker)], NumPy function)."""
    f32 = lambda s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    pos = lambda s: (np.abs(rng.standard_normal(s)) + 0.1).astype(np.float32)  # noqa: E731
    idx = lambda n: (lambda s: rng.integers(0, n, s).astype(np.int64))  # noqa: E731
    ct = {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]}
    rs = {"scales": [1, 1, 2, 2], "mode": "linear"}
    return [
        ("pow", {}, [((64, 4096), pos), ((64, 4096), f32)], np.power),
        ("topk", {"k": 8}, [((64, 4096), f32)], _topk),
        ("gather_elements", {"axis": 1}, [((64, 4096), f32), ((64, 4096), idx(4096))],
         lambda d, i: np.take_along_axis(d, i, 1)),
        ("scatter_elements", {"axis": 1, "reduction": "add"}, [((64, 4096), f32), ((64, 1024), idx(4096)),
                                                                 ((64, 1024), f32)], _scatter_add),
        ("einsum", {"equation": "bhqd,bhkd->bhqk"}, [((1, 8, 128, 64), f32), ((1, 8, 128, 64), f32)],
         lambda q, k: np.einsum("bhqd,bhkd->bhqk", q, k)),
        ("conv_transpose", ct, [((1, 16, 32, 32), f32), ((16, 16, 3, 3), f32)], _oracle("conv_transpose", ct)),
        ("resize", rs, [((1, 16, 64, 64), f32)], _oracle("resize", rs)),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--host-cpu", default="portable", help="the host_cpu setting to compile with (default: portable)")
    args = ap.parse_args()
    flags = toolchain.host_flags(args.host_cpu)
    rng = np.random.default_rng(0)
    print(f"f32, host_cpu={args.host_cpu}, best of {args.repeat}")
    print(f"{'op':>17} {'numpy s':>10} {'kernel s':>10} {'ratio':>6}")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for op, attrs, inputs, ref in cases(rng):
            xs = [make(shape) for shape, make in inputs]
            inst = make_instance(op, "f32", [x.shape for x in xs], attrs)
            so = Path(tmp) / f"{op}.so"
            toolchain.compile_shared_library(emit(inst), so, so.with_suffix(".log"), flags=flags)
            kernel = HostKernel(so, inst.describe())
            t_np = best(lambda: ref(*xs), args.repeat)
            t_k = best(lambda: kernel(*xs), args.repeat)
            kernel.close()
            ratios.append(t_np / t_k)
            print(f"{op:>17} {t_np:>10.6f} {t_k:>10.6f} {ratios[-1]:>6.2f}")
    print(f"geometric mean ratio (NumPy time / kernel time): {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")


if __name__ == "__main__":
    main()
