#!/usr/bin/env python3
"""Full-build parallelism: the default `doit build` (every core) against the same build serial
(`NPUBUILD_JOBS=0`), N host kernels, in one run.

    python3 bench/parallel_build.py [--n 100] [--reps 3]

Generates a throw-away project (this checkout's dodo.py, one spec file with N distinct `exp` f32
shapes) and times `doit build` from clean (artifacts with their store, and the doit database
removed before each run), serial and default, --reps times each, alternating. Wall clock is
time.perf_counter() around subprocess.run(); "cpu" is the children's user+sys time. Both builds
must report "compiled N".

The last line printed is ``parallel build: default/serial wall X.XXx, cpu/wall X.XX on C cores``.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from npubuild.engine.jobs import cores  # noqa: E402


def project(root: Path, n: int) -> None:
    shutil.copy(REPO / "dodo.py", root / "dodo.py")
    (root / "pyproject.toml").write_text("[tool.npubuild]\n")  # the store: artifacts/.cache, removed with them
    (root / "specs" / "kernels").mkdir(parents=True)
    shapes = "".join(f"      - [{16 * (i + 1)}]\n" for i in range(n))
    (root / "specs" / "kernels" / "k.yaml").write_text("kernels:\n  e:\n    op: exp\n    targets: [host]\n    shapes:\n" + shapes)


def clean(root: Path) -> None:
    for name in ("artifacts", "build"):
        shutil.rmtree(root / name, ignore_errors=True)
    for p in root.glob(".npubuild.doit.db*"):
        p.unlink()


def timed_build(root: Path, jobs: str | None, n: int) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if k != "NPUBUILD_JOBS"}
    env["NPUBUILD_PROGRESS"] = "0"
    if jobs is not None:
        env["NPUBUILD_JOBS"] = jobs
    clean(root)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "doit", "build"], cwd=root, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0 or f"compiled {n}," not in p.stdout:
        sys.exit(f"the build (NPUBUILD_JOBS={jobs}) failed or did not compile {n}:\n{p.stdout}\n{p.stderr}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100, help="kernel instances (default 100)")
    ap.add_argument("--reps", type=int, default=3, help="builds of each kind (default 3)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="npubuild-par-") as tmp:
        root = Path(tmp)
        project(root, a.n)
        serial, default = [], []
        for _ in range(a.reps):
            serial.append(timed_build(root, "0", a.n))
            default.append(timed_build(root, None, a.n))
    print(f"{'build':<10} {'median wall s':>14} {'min s':>7} {'max s':>7} {'cpu s':>7}")
    for name, runs in (("serial", serial), ("default", default)):
        walls = [w for w, _ in runs]
        print(f"{name:<10} {statistics.median(walls):>14.2f} {min(walls):>7.2f} {max(walls):>7.2f} "
              f"{statistics.median(c for _, c in runs):>7.2f}")
    s_wall = statistics.median(w for w, _ in serial)
    d_wall = statistics.median(w for w, _ in default)
    d_cpu = statistics.median(c for _, c in default)
    print(f"parallel build: default/serial wall {d_wall / s_wall:.2f}x, cpu/wall {d_cpu / d_wall:.2f} on {cores()} cores")


if __name__ == "__main__":
    main()
