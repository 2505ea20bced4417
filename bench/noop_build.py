#!/usr/bin/env python3
"""No-op build benchmark: npubuild (`doit build`) vs ninja, N kernel instances.

    python3 bench/noop_build.py [--n 1000] [--reps 3] [--keep DIR]

Generates a throw-away project (pyproject.toml with [tool.npubuild], this
checkout's dodo.py, specs/kernels/*.yaml with N distinct `relu` f32 shapes
split over a few spec files) and measures, in one run:

  full build        `doit build` from clean (empty artifacts, store and doit DB); 1 run
  no-op             `doit build` again: must compile 0, everything up to date, and take the
                    nothing-changed fast path (npubuild/engine/noop.py)
  no-op, doit only  the same with NPUBUILD_FAST_NOOP=0: every task through doit's own checks
  touch specs       os.utime() on every spec file (same content), then `doit build`: compiles 0
  edit 1 spec       one shape in one spec file changed, then `doit build`: compiles exactly 1
  touch sources     os.utime() on every emitted kernel.mlir (the compile tasks' file_dep), then
                    `doit build`: compiles 0 (the fast path is off since the files changed; doit's
                    MD5 checker re-hashes them); then a plain no-op after it (fast path again);
                    the original mtimes are restored afterwards
  no-op, again      `doit build` once more at the end (same state as "no-op", later in the run;
                    the official "npubuild no-op" figure is the first one, right after the full build)
  doit list         `doit list` (loads the plan and creates the tasks; no up-to-date checks)
  startup floor     `python -m doit --version` (imports doit, loads no dodo.py)
  ninja no-op       `ninja` over N `build out/i.txt: cp src/i.txt` edges, already built
  ninja touch all   os.utime() on all N sources, then `ninja -j1` (rebuilds all N; counted)

Every timed scenario except the full build is the median of --reps runs (the
"touch"/"edit" scenarios re-touch / re-edit before each run). Wall clock is
time.perf_counter() around subprocess.run(); "cpu" is the children's user+sys
time. Build output is captured and printed only if a build fails or a check
(parsed from npubuild's summary line) does not hold; then the script exits 1.

The last line printed is ``noop ratio npubuild/ninja: X.Xx``.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DODO = REPO / "dodo.py"
DEP_FILE = ".npubuild.doit.db"  # npubuild.engine.tasks.DEP_FILE (not imported: keep this script light)
SUMMARY = re.compile(
    r"^npubuild: (\d+) kernels; compiled (\d+), from store (\d+)(?: \(\d+ from shared stores\))?, up to date (\d+)( \(nothing changed since the last build\))?(?: in \d+\.\ds)?$",
    re.M,
)
FAMILY_SIZE = 50  # shapes per kernel family
MAX_FILES = 4  # spec files
TOUCH_SETTLE = 0.05  # s; not timed: step past the filesystem timestamp tick of the last build


class BenchError(RuntimeError):
    pass


# ---- running and timing -----------------------------------------------------------------------


class Run:
    def __init__(self, seconds: float, cpu: float, out: str):
        self.seconds, self.cpu, self.out = seconds, cpu, out


def run(cmd: list[str], cwd: Path, env: dict, what: str) -> Run:
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise BenchError(f"{what}: `{' '.join(cmd)}` in {cwd} failed with exit code {p.returncode}; its output:\n{p.stdout}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return Run(t1 - t0, cpu, p.stdout)


def summary(r: Run, what: str) -> dict:
    m = SUMMARY.findall(r.out)
    if not m:
        raise BenchError(f"{what}: no 'npubuild: N kernels; ...' summary line in the output:\n{r.out}")
    kernels, compiled, store, uptodate = map(int, m[-1][:4])
    executed = [ln[3:] for ln in r.out.splitlines() if ln.startswith(".  ")]
    return {"kernels": kernels, "compiled": compiled, "store": store, "uptodate": uptodate, "executed": executed,
            "fast": bool(m[-1][4])}


def check(s: dict, r: Run, what: str, **want) -> None:
    bad = {k: (s[k], v) for k, v in want.items() if s[k] != v}
    if bad:
        detail = ", ".join(f"{k} = {got} (expected {exp})" for k, (got, exp) in bad.items())
        raise BenchError(f"{what}: {detail}; the build's output:\n{r.out}")


class Row:
    def __init__(self, name: str, runs: list[Run], result: str):
        self.name, self.runs, self.result = name, runs, result

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    def cells(self) -> list[str]:
        ts = [r.seconds for r in self.runs]
        return [
            self.name,
            str(len(ts)),
            f"{statistics.median(ts):.3f}",
            f"{min(ts):.3f}",
            f"{max(ts):.3f}",
            f"{statistics.median(r.cpu for r in self.runs):.3f}",
            self.result,
        ]


def print_table(rows: list[Row]) -> None:
    head = ["scenario", "runs", "median s", "min s", "max s", "cpu s", "result"]
    body = [r.cells() for r in rows]
    w = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    fmt = lambda cells: "  ".join(c.ljust(w[i]) if i in (0, 6) else c.rjust(w[i]) for i, c in enumerate(cells)).rstrip()
    print(fmt(head))
    print("  ".join("-" * x for x in w))
    for b in body:
        print(fmt(b))


# ---- the generated npubuild project -----------------------------------------------------------


def shape_of(i: int) -> list[int]:
    """N distinct shapes, a third each 1-D, 2-D and 3-D."""
    a, b = 1 + i // 64, 8 * (1 + i % 64)
    return [[16 * (i + 1)], [a, b], [2, a, b]][i % 3]


SPEC_FILE_NAMES = ("vision_blocks", "text_encoder", "audio_frontend", "misc_activations")


class Project:
    """specs/kernels/<file>.yaml: families of FAMILY_SIZE relu f32 shapes each."""

    def __init__(self, root: Path, n: int):
        self.root, self.n = root, n
        shapes = [shape_of(i) for i in range(n)]
        fams = [shapes[i : i + FAMILY_SIZE] for i in range(0, n, FAMILY_SIZE)]
        nfiles = max(1, min(MAX_FILES, len(fams)))
        # file index -> list of [family name, shapes]
        self.files: list[list[list]] = [[] for _ in range(nfiles)]
        for k, fam in enumerate(fams):
            self.files[k % nfiles].append([f"relu_block{k:03d}", fam])
        self.edits = 0

    def spec_path(self, f: int) -> Path:
        return self.root / "specs" / "kernels" / f"{SPEC_FILE_NAMES[f % len(SPEC_FILE_NAMES)]}{'' if f < len(SPEC_FILE_NAMES) else f}.yaml"

    def write_spec(self, f: int) -> None:
        lines = [f"# Generated by bench/noop_build.py: relu f32 kernels ({self.spec_path(f).stem}).", "kernels:"]
        for name, shapes in self.files[f]:
            lines += [f"  {name}:", "    op: relu", "    dtype: f32", "    shapes:"]
            lines += [f"      - [{', '.join(map(str, s))}]" for s in shapes]
        self.spec_path(f).write_text("\n".join(lines) + "\n")

    def generate(self) -> None:
        (self.root / "specs" / "kernels").mkdir(parents=True)
        (self.root / "pyproject.toml").write_text(
            "# Generated by bench/noop_build.py\n[tool.npubuild]\nartifacts = \"artifacts\"\ntargets = [\"ref\", \"host\"]\n"
        )
        shutil.copyfile(DODO, self.root / "dodo.py")
        for f in range(len(self.files)):
            self.write_spec(f)

    def spec_files(self) -> list[Path]:
        return [self.spec_path(f) for f in range(len(self.files))]

    def edit_one_shape(self) -> None:
        """Replace the first shape of the first family with a shape not built before."""
        self.edits += 1
        self.files[0][0][1][0] = [3, 100_000 + self.edits]
        self.write_spec(0)

    def sources(self) -> list[Path]:
        return sorted((self.root / "artifacts" / "kernels").glob("*/host/kernel.mlir"))


def touch(paths) -> None:
    time.sleep(TOUCH_SETTLE)
    for p in paths:
        os.utime(p)  # mtime := now, content unchanged


# ---- ninja ----------------------------------------------------------------------------------


def ensure_ninja() -> str:
    found = shutil.which("ninja")
    if found:
        return found
    print("ninja not found: installing the Debian package ninja-build (apt-get install -y ninja-build) ...", file=sys.stderr)
    for cmd in (["apt-get", "install", "-y", "ninja-build"], ["apt-get", "update"], ["apt-get", "install", "-y", "ninja-build"]):
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        except OSError as e:
            raise BenchError(f"cannot run {' '.join(cmd)} ({e}); install ninja (Debian: apt-get install -y ninja-build) and rerun")
        if cmd[1] == "install" and p.returncode == 0 and shutil.which("ninja"):
            return shutil.which("ninja")
        last = p.stdout
    raise BenchError(
        "ninja is not installed and `apt-get install -y ninja-build` failed (needs root and a reachable Debian mirror); "
        f"install ninja yourself and rerun. apt-get said:\n{last[-2000:]}"
    )


def ninja_project(root: Path, n: int) -> None:
    (root / "src").mkdir(parents=True)
    for i in range(n):
        (root / "src" / f"{i}.txt").write_text(f"source {i}\n")
    with open(root / "build.ninja", "w") as f:
        f.write("rule cp\n  command = cp $in $out\n\n")
        for i in range(n):
            f.write(f"build out/{i}.txt: cp src/{i}.txt\n")


def ninja_rebuilt(out: str) -> int:
    return sum(1 for ln in out.splitlines() if re.match(r"^\[\d+/\d+\] ", ln))


# ---- main -------------------------------------------------------------------------------------


def bench(n: int, reps: int, work: Path) -> int:
    ninja = ensure_ninja()
    env = dict(os.environ)
    for k in ("NPUBUILD_STORE", "NPUBUILD_ARTIFACTS"):  # the project's own artifacts/ and store only
        env.pop(k, None)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])  # this checkout
    doit = [sys.executable, "-m", "doit"]
    proj = Project(work / "npubuild_project", n)
    proj.generate()
    nd = proj.root
    rows: list[Row] = []

    def doit_build(what: str, extra_env: dict | None = None) -> tuple[Run, dict]:
        r = run([*doit, "build"], nd, dict(env, **(extra_env or {})), what)
        return r, summary(r, what)

    def res(s: dict) -> str:
        how = "fast path" if s["fast"] else "doit checks"
        return f"compiled {s['compiled']}, from store {s['store']}, up to date {s['uptodate']}; {len(s['executed'])} tasks ran; {how}"

    print(f"npubuild project: {nd} ({len(proj.files)} spec file(s), {n} relu f32 kernels on host)", flush=True)
    print(f"full build of {n} kernels (one run) ...", flush=True)
    r, s = doit_build("full build")
    check(s, r, "full build", kernels=n, compiled=n, store=0, uptodate=0)
    full = Row("npubuild full build (clean)", [r], res(s))
    rows.append(full)

    print("no-op builds ...", flush=True)
    runs = []
    for i in range(reps):
        r, s = doit_build(f"no-op build #{i + 1}")
        check(s, r, f"no-op build #{i + 1}", kernels=n, compiled=0, store=0, uptodate=n, executed=[])
        runs.append(r)
    noop = Row("npubuild no-op", runs, res(s))
    rows.append(noop)
    if not s["fast"]:
        raise BenchError("the no-op after a complete build did not take the nothing-changed fast path")

    runs = []
    for i in range(reps):
        r, s = doit_build(f"no-op build without the fast path #{i + 1}", {"NPUBUILD_FAST_NOOP": "0"})
        check(s, r, f"no-op build without the fast path #{i + 1}", kernels=n, compiled=0, store=0, uptodate=n, executed=[])
        runs.append(r)
    doit_noop = Row("npubuild no-op, doit checks only", runs, res(s) + " (NPUBUILD_FAST_NOOP=0)")
    rows.append(doit_noop)

    runs = []
    for i in range(reps):
        touch(proj.spec_files())
        r, s = doit_build(f"build after touching every spec file #{i + 1}")
        check(s, r, f"build after touching every spec file #{i + 1}", kernels=n, compiled=0, store=0, uptodate=n, executed=[])
        runs.append(r)
    rows.append(Row(f"npubuild touch {len(proj.files)} spec file{'s' if len(proj.files) > 1 else ''}", runs, res(s)))

    runs = []
    for i in range(reps):
        proj.edit_one_shape()
        r, s = doit_build(f"build after editing one shape #{i + 1}")
        check(s, r, f"build after editing one shape #{i + 1}", kernels=n, compiled=1, store=0, uptodate=n - 1)
        runs.append(r)
    rows.append(Row("npubuild 1 shape edited", runs, res(s)))

    # touch the compile tasks' file_dep (same content), then a plain no-op; restore mtimes after
    srcs = proj.sources()
    if len(srcs) < n:
        raise BenchError(f"expected at least {n} emitted kernel.mlir files, found {len(srcs)}")
    saved = {p: (p.stat().st_atime_ns, p.stat().st_mtime_ns) for p in srcs}
    runs, after = [], []
    for i in range(reps):
        touch(srcs)
        r, s = doit_build(f"build after touching every kernel.mlir #{i + 1}")
        check(s, r, f"build after touching every kernel.mlir #{i + 1}", kernels=n, compiled=0, store=0, uptodate=n, executed=[])
        runs.append(r)
        r2, s2 = doit_build(f"no-op after touching every kernel.mlir #{i + 1}")
        check(s2, r2, f"no-op after touching every kernel.mlir #{i + 1}", kernels=n, compiled=0, store=0, uptodate=n, executed=[])
        after.append(r2)
    rows.append(Row(f"npubuild touch {len(srcs)} kernel.mlir", runs, res(s)))
    rows.append(Row("npubuild no-op after that touch", after, res(s2) + ("" if s2["fast"] else " (sources re-hashed)")))
    for p, (at, mt) in saved.items():
        os.utime(p, ns=(at, mt))
    runs = []
    for i in range(reps):
        r, s = doit_build(f"no-op after restoring the kernel.mlir mtimes #{i + 1}")
        check(s, r, f"no-op after restoring the kernel.mlir mtimes #{i + 1}", kernels=n, compiled=0, store=0, uptodate=n, executed=[])
        runs.append(r)
    rows.append(Row("npubuild no-op, again at the end", runs, res(s)))

    runs = [run([*doit, "list"], nd, env, "doit list") for _ in range(reps)]
    rows.append(Row("npubuild `doit list`", runs, "plan + task creation, no up-to-date checks"))
    runs = [run([*doit, "--version"], nd, env, "doit --version") for _ in range(reps)]
    rows.append(Row("startup floor `doit --version`", runs, "imports doit; no dodo.py"))

    # ninja
    print("ninja ...", flush=True)
    nj = work / "ninja_project"
    ninja_project(nj, n)
    r = run([ninja], nj, env, "ninja initial build")
    if ninja_rebuilt(r.out) != n:
        raise BenchError(f"ninja initial build ran {ninja_rebuilt(r.out)} edges, expected {n}:\n{r.out}")
    runs = []
    for i in range(reps):
        r = run([ninja], nj, env, f"ninja no-op #{i + 1}")
        if "no work to do" not in r.out:
            raise BenchError(f"ninja no-op #{i + 1} did work:\n{r.out}")
        runs.append(r)
    ninja_noop = Row(f"ninja no-op ({n} edges)", runs, "no work to do")
    rows.append(ninja_noop)
    runs, counts = [], []
    for i in range(reps):
        touch([nj / "src" / f"{k}.txt" for k in range(n)])
        r = run([ninja, "-j1"], nj, env, f"ninja after touching all sources #{i + 1}")
        counts.append(ninja_rebuilt(r.out))
        runs.append(r)
    rows.append(Row(f"ninja -j1 touch {n} sources", runs, f"rebuilt {'/'.join(map(str, counts))} of {n}"))

    # report
    print()
    print(f"npubuild no-op benchmark: N={n} kernels, python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    print_table(rows)
    print()
    print(f"npubuild full build: {full.median:.1f} s for {n} kernels = {full.median / n * 1000:.1f} ms per kernel")
    print(f"npubuild no-op: {noop.median:.3f} s (target < 0.5 s)")
    print(f"npubuild no-op through doit's own checks (NPUBUILD_FAST_NOOP=0): {doit_noop.median:.3f} s, "
          f"{doit_noop.median / ninja_noop.median:.1f}x ninja")
    ratio = noop.median / ninja_noop.median if ninja_noop.median > 0 else float("inf")
    print(f"noop ratio npubuild/ninja: {ratio:.1f}x")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="kernel instances (default 1000)")
    ap.add_argument("--reps", type=int, default=3, help="runs per timed scenario, the median is reported (default 3)")
    ap.add_argument("--keep", metavar="DIR", type=Path,
                    help="generate the projects in DIR (must not exist or be empty) and keep them; default: a temp dir, removed")
    a = ap.parse_args(argv)
    if a.n < 2 or a.reps < 1:
        ap.error("--n must be at least 2 and --reps at least 1")
    if a.keep is not None:
        if a.keep.exists() and any(a.keep.iterdir()):
            ap.error(f"--keep {a.keep}: directory exists and is not empty")
        a.keep.mkdir(parents=True, exist_ok=True)
        work, tmp = a.keep.resolve(), None
        print(f"projects are kept in {work}", flush=True)
    else:
        tmp = tempfile.mkdtemp(prefix="npubuild-noop-")
        work = Path(tmp)
    # Byte-compile npubuild once: with PYTHONDONTWRITEBYTECODE set (as on some CI
    # images) every doit run would otherwise recompile our sources, which a normal
    # installation never does.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "npubuild")], check=True)
    try:
        return bench(a.n, a.reps, work)
    except BenchError as e:
        print(f"\nbench/noop_build.py: FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
