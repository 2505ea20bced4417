"""Host kernels against NumPy: relu, add, exp, tanh, gelu, softmax, rms_norm at 64x4096 f32.

    python bench/host_kernels.py [--shape 64 4096] [--repeat 20] [--host-cpu portable|native|x86-64-v3]

Each op's kernel is emitted and compiled exactly as `doit build` does it (the
host emitter, the host pipeline, llc with the ``host_cpu`` setting, cc), then
called through the runtime's ctypes wrapper, which runs the ISA variant it picks
for this CPU (``portable``, the default, is a shareable artifact holding every
level of the architecture; ``NPUBUILD_HOST_ISA=x86-64`` forces the baseline): the
``isa`` column says which ran. NumPy computes the same op in
float32 in the same run (gelu: the tanh form, which is what the kernel is built
with here; softmax and rms_norm over the last axis). Printed per op: best
seconds per call of each, the ratio NumPy time / kernel time (>= 1 means the
kernel is at least as fast) and the geometric mean of the ratios.
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


def _gelu_tanh(x):
    c = np.float32(math.sqrt(2.0 / math.pi))
    return np.float32(0.5) * x * (np.float32(1.0) + np.tanh(c * (x + np.float32(0.044715) * x * x * x)))


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _rms_norm(x, g, eps=np.float32(1e-6)):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * g


def cases(rows: int, cols: int):
    """(op, attrs, input shapes, NumPy f32 function)."""
    x2 = [(rows, cols)]
    return [
        ("relu", {}, x2, lambda x: np.maximum(x, np.float32(0))),
        ("add", {}, x2 * 2, np.add),
        ("exp", {}, x2, np.exp),
        ("tanh", {}, x2, np.tanh),
        ("gelu", {"approximate": "tanh"}, x2, _gelu_tanh),
        ("softmax", {"axis": -1}, x2, _softmax),
        ("rms_norm", {"eps": 1e-6}, [(rows, cols), (cols,)], _rms_norm),
    ]


def best(fn, repeat: int) -> float:
    fn()  # warm-up: page faults, caches
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", type=int, nargs=2, default=[64, 4096], metavar=("ROWS", "COLS"))
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--host-cpu", default="portable", help="the host_cpu setting to compile with (default: portable)")
    args = ap.parse_args()
    flags = toolchain.host_flags(args.host_cpu)
    rng = np.random.default_rng(0)
    rows, cols = args.shape
    print(f"{rows}x{cols} f32, host_cpu={args.host_cpu}, best of {args.repeat}")
    print(f"{'op':>9} {'numpy s':>10} {'kernel s':>10} {'ratio':>6}  isa")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for op, attrs, shapes, ref in cases(rows, cols):
            inst = make_instance(op, "f32", shapes, attrs)
            so = Path(tmp) / f"{op}.so"
            toolchain.compile_shared_library(emit(inst), so, so.with_suffix(".log"), flags=flags)
            kernel = HostKernel(so, inst.describe())
            xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
            t_np = best(lambda: ref(*xs), args.repeat)
            t_k = best(lambda: kernel(*xs), args.repeat)
            isa = kernel.isa or "-"
            kernel.close()
            ratios.append(t_np / t_k)
            print(f"{op:>9} {t_np:>10.6f} {t_k:>10.6f} {ratios[-1]:>6.2f}  {isa}")
    print(f"geometric mean ratio (NumPy time / kernel time): {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")


if __name__ == "__main__":
    main()
