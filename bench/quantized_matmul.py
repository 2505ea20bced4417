"""matmul_nbits (4-bit weights, block 32) and a GQA decode step on the host against NumPy.

    python bench/quantized_matmul.py [--n 4096] [--k 4096] [--repeat 5] [--host-cpu portable|native|x86-64-v3]

Each kernel is emitted and compiled as `doit build` does it, then called through
the runtime's ctypes wrapper. The NumPy baseline, in the same run, is what a
user without the kernel would write: unpack the codes, dequantize the weight in
float32 and multiply (the dequantization counted every call, as the kernel does
it every call; and, separately, with the float32 weight prepared once, i.e. a
plain f32 GEMV on 4x the memory). The decode step is one query of 8 heads
(2 kv heads) of 64 over a 1024-token cache with a bool mask, against NumPy's
batched matmuls and softmax. Printed per case: best seconds of each, the ratio
NumPy time / kernel time (>= 1: the kernel is at least as fast), and the
geometric mean of the ratios.
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from npubuild.emitters.host import emit  # noqa: E402
from npubuild.runner.host import HostKernel  # noqa: E402
from npubuild.specfile.instances import make_instance  # noqa: E402
from npubuild.toolchain import host as toolchain  # noqa: E402


def best(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def numpy_nbits(a, b, scales):
    codes = np.stack([b & 15, b >> 4], axis=-1).reshape(b.shape[0], -1).astype(np.float32)
    w = (codes.reshape(scales.shape + (-1,)) - np.float32(8)) * scales[:, :, None]
    return a @ w.reshape(b.shape[0], -1).T


def numpy_decode(q, k, v, mask, heads, kv_heads, d):
    t = k.shape[0]
    qh = q.reshape(heads, 1, d)
    kh = np.repeat(k.reshape(t, kv_heads, d).transpose(1, 0, 2), heads // kv_heads, axis=0)
    vh = np.repeat(v.reshape(t, kv_heads, d).transpose(1, 0, 2), heads // kv_heads, axis=0)
    s = qh @ kh.transpose(0, 2, 1) * np.float32(1 / math.sqrt(d))
    s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return ((e / e.sum(axis=-1, keepdims=True)) @ vh).reshape(1, heads * d)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--k", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--host-cpu", default="portable")
    args = ap.parse_args()
    flags = toolchain.host_flags(args.host_cpu)
    rng = np.random.default_rng(0)
    n, k = args.n, args.k
    a = rng.standard_normal((1, k)).astype(np.float32)
    b = rng.integers(0, 256, (n, k // 32, 16)).astype(np.uint8)
    scales = (rng.uniform(0.5, 1.5, (n, k // 32)) * 2.0**-6).astype(np.float32)
    w_once = None
    heads, kv_heads, d, t = 8, 2, 64, 1024
    q = rng.standard_normal((1, heads * d)).astype(np.float32)
    kc = rng.standard_normal((t, kv_heads * d)).astype(np.float32)
    vc = rng.standard_normal((t, kv_heads * d)).astype(np.float32)
    mask = rng.random((1, t)) < 0.9
    cases = [
        ("matmul_nbits (dequantize each call)", make_instance("matmul_nbits", "f32", [a.shape, b.shape, scales.shape], {}),
         [a, b, scales], lambda: numpy_nbits(a, b, scales)),
        ("matmul_nbits (f32 weight made once)", None, None, lambda: a @ w_once),
        ("attention decode, GQA, bool mask", make_instance("attention", "f32", [q.shape, kc.shape, kc.shape, mask.shape],
                                                           {"num_heads": heads, "head_dim": d, "kv_num_heads": kv_heads}),
         [q, kc, vc, mask], lambda: numpy_decode(q, kc, vc, mask, heads, kv_heads, d)),
    ]
    print(f"1x{k} @ 4-bit {k}x{n} block 32; decode: {heads} heads ({kv_heads} kv) x {d}, {t} keys; "
          f"host_cpu={args.host_cpu}, best of {args.repeat}")
    print(f"{'case':>38} {'numpy s':>10} {'kernel s':>10} {'ratio':>6}")
    ratios = []
    kernel_times = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, inst, xs, ref) in enumerate(cases):
            if inst is None:  # the same kernel against NumPy's GEMV on a prepared f32 weight
                w_once = numpy_nbits(np.eye(k, dtype=np.float32), b, scales)
                t_k = kernel_times[cases[0][0]]
            else:
                so = Path(tmp) / f"k{i}.so"
                toolchain.compile_shared_library(emit(inst), so, so.with_suffix(".log"), flags=flags)
                kernel = HostKernel(so, inst.describe())
                t_k = kernel_times[name] = best(lambda: kernel(*xs), args.repeat)
                kernel.close()
            t_np = best(ref, args.repeat)
            ratios.append(t_np / t_k)
            print(f"{name:>38} {t_np:>10.6f} {t_k:>10.6f} {ratios[-1]:>6.2f}")
    print(f"geometric mean ratio (NumPy time / kernel time): {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")


if __name__ == "__main__":
    main()
