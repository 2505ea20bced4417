"""Graph-run overhead: the host backend's ``g.run`` against NumPy doing the same ops.

    python bench/runtime_overhead.py [--repeat 2000] [--keep DIR]

Builds the repository's ``elementwise_chain`` and ``mlp_block`` graphs
(specs/graphs/) for ``ref`` and ``host`` in a temporary project with this
checkout's ``dodo.py`` (``doit build``, as a user would), loads them with
``npubuild.load`` and times, in the same run:

* ``host``: ``g.run(x=x)`` on the host backend (params set once);
* ``numpy``: NumPy float32 doing the graph's ops one by one on the same arrays
  (elementwise_chain: mul, add, relu, abs, sub, max; mlp_block: ``x @ w1`` in
  float32, the tanh GELU and the RMS norm with its gain, each as NumPy
  expressions).

Each figure is the median of ``--repeat`` calls, after a warm-up run. Printed
per graph: µs per run of each, the ratio host / NumPy and the host's µs per
step beyond NumPy's per-op cost. The last line is the ratio for
``elementwise_chain``: ``host graph run / numpy: R`` (lower is better; 1 means
a graph run costs what NumPy's ops cost).
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import npubuild  # noqa: E402

GRAPHS = ("elementwise_chain", "mlp_block")


def build(root: Path) -> Path:
    """A project of the repository's two graphs, built for ref and host; its artifact directory."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "dodo.py", root / "dodo.py")
    (root / "pyproject.toml").write_text('[tool.npubuild]\ntargets = ["ref", "host"]\n')
    (root / "specs" / "graphs").mkdir(parents=True, exist_ok=True)
    for g in GRAPHS:
        text = (REPO / "specs" / "graphs" / f"{g}.yaml").read_text()
        (root / "specs" / "graphs" / f"{g}.yaml").write_text(text.replace("targets: [ref, host, xdna]", "targets: [ref, host]"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-m", "doit", "build"], cwd=root, env=env, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        sys.exit(f"doit build failed:\n{r.stdout}\n{r.stderr}")
    return root / "artifacts"


def median_us(fn, repeat: int) -> float:
    fn()  # warm-up: kernels opened, buffers made
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2] * 1e6


def elementwise_chain_numpy(x, scale, bias):
    scaled = x * scale
    shifted = scaled + bias
    act = np.maximum(shifted, np.float32(0))
    mag = np.abs(x)
    diff = act - mag
    return np.maximum(diff, shifted)


_GELU_C = np.float32(math.sqrt(2.0 / math.pi))


def mlp_block_numpy(x, w1, gamma):
    h = x @ w1
    a = np.float32(0.5) * h * (np.float32(1.0) + np.tanh(_GELU_C * (h + np.float32(0.044715) * h * h * h)))
    return a / np.sqrt(np.mean(a * a, axis=-1, keepdims=True) + np.float32(1e-6)) * gamma


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--keep", type=Path, help="build the project here and keep it (default: a temporary directory)")
    args = ap.parse_args()
    tmp = None
    root = args.keep
    if root is None:
        tmp = tempfile.TemporaryDirectory(prefix="npubuild-overhead-")
        root = Path(tmp.name) / "proj"
    try:
        artifacts = build(root)  # a kept project is brought up to date (nothing to do when it is)
        rt = npubuild.load(artifacts)
        rng = np.random.default_rng(0)
        ratios = {}
        print(f"{'graph':>18} {'steps':>5} {'numpy us':>9} {'host us':>9} {'ratio':>6} {'overhead us/step':>16}")
        for name in GRAPHS:
            rec = rt.graph(name, backend="host")
            spec = rec.graph
            x = rng.standard_normal(spec.inputs["x"].shape).astype(np.float32)
            params = {n: rng.standard_normal(s.shape).astype(np.float32) for n, s in spec.params.items()}
            rec.set_params(**params)
            if name == "elementwise_chain":
                bias = np.float32(0.5)
                np_fn = lambda: elementwise_chain_numpy(x, params["scale"], bias)  # noqa: E731
            else:
                np_fn = lambda: mlp_block_numpy(x, params["w1"], params["gamma"])  # noqa: E731
            t_np = median_us(np_fn, args.repeat)
            t_host = median_us(lambda: rec.run(x=x), args.repeat)
            steps = len(spec.steps)
            ratios[name] = t_host / t_np
            print(f"{name:>18} {steps:>5} {t_np:>9.1f} {t_host:>9.1f} {t_host / t_np:>6.2f} {(t_host - t_np) / steps:>16.2f}")
        rt.close()
        print(f"host graph run / numpy: {ratios['elementwise_chain']:.2f}")
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    main()
