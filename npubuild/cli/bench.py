"""``npubuild bench GRAPH|KERNEL_ID``: per-call time of a graph or one kernel on a backend, against the
NumPy oracle (ref) timed in the same run, on seeded example inputs (as ``npubuild run --example``)."""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from ..core.errors import UserError
from ..targets import backends
from .common import ARTIFACTS, Command, arg


def _time(runner, inputs: dict, repeat: int) -> list[float]:
    runner.run(**inputs)  # the first call opens kernels, uploads params, warms caches: not timed
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        runner.run(**inputs)
        out.append(time.perf_counter() - t0)
    return out


def _work(rt, name: str) -> tuple[int, int]:
    """(output elements, arithmetic operations) of one call: matmul kernels count 2*M*N*K each."""
    import math

    kernels = rt.manifest["kernels"]
    g = rt.manifest.get("graphs", {}).get(name)
    steps = [s["kernel"] for s in g["steps"]] if g and "steps" in g else [name] if name in kernels else []
    elements = sum(math.prod(kernels[k]["outputs"][0]["shape"]) for k in steps)
    ops = 0
    for k in steps:
        rec = kernels[k]
        if rec["op"] == "matmul":
            a, b = rec["inputs"][0]["shape"], rec["inputs"][1]["shape"]
            ops += 2 * math.prod(a[:-1]) * a[-1] * b[-1] * (math.prod(b[:-2]) if len(b) > 2 and len(a) == 2 else 1)
    return elements, ops


def run(args) -> int:
    from ..core.config import load_config
    from ..runner.examples import example_arrays
    from ..runner.runtime import load
    from .run import open_runner

    if args.repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {args.repeat}")
    cfg = load_config()
    rt = load(Path(args.artifacts) if args.artifacts else cfg.artifacts)
    runner_of, sig = open_runner(rt, args)
    inputs, params = example_arrays(sig, args.seed, cfg.limits)
    # a graph its target runs whole (ane) has no oracle backend to time beside it
    whole = (rt.manifest.get("graphs", {}).get(args.graph) or {}).get("kind")
    rows = {}
    for backend in dict.fromkeys([args.backend] if whole else [args.backend, "ref"]):
        g = runner_of(backend)
        g.set_params(**params)
        times = _time(g, inputs, args.repeat)
        rows[g.backend] = {"min_s": min(times), "median_s": statistics.median(times), "calls": len(times)}
        isa = sorted({k.isa for k in rt.kernels.open_kernels(g.backend).values() if getattr(k, "isa", None)})
        if isa:
            rows[g.backend]["isa"] = isa  # the instruction-set variants the kernels ran (host: the widest this CPU has)
    elements, ops = _work(rt, args.graph)
    for r in rows.values():
        r["elements_per_s"] = elements / r["median_s"] if r["median_s"] > 0 and elements else None
        if ops:
            r["gop_per_s"] = ops / r["median_s"] / 1e9 if r["median_s"] > 0 else None
    backend = next(iter(rows))
    ratio = rows["ref"]["median_s"] / rows[backend]["median_s"] if "ref" in rows and rows[backend]["median_s"] > 0 else None
    if args.json:
        print(json.dumps({"name": args.graph, "backend": backend, "repeat": args.repeat, "results": rows,
                          "speedup_over_ref": ratio}, allow_nan=False))
        return 0
    for b, r in rows.items():
        extra = f", {r['gop_per_s']:.2f} GOP/s" if r.get("gop_per_s") is not None else ""
        rate = f", {r['elements_per_s'] / 1e6:.1f} M elements/s" if elements else ""
        isa = f", isa {' '.join(r['isa'])}" if r.get("isa") else ""
        print(f"{b:>5}: min {r['min_s'] * 1e3:.3f} ms, median {r['median_s'] * 1e3:.3f} ms over {r['calls']} calls{rate}{extra}{isa}")
    if ratio is not None and backend != "ref":
        print(f"{args.graph}: {backend} {ratio:.2f}x the NumPy oracle (median; on {sys.platform}, this machine's CPU)")
    elif whole:
        print(f"{args.graph}: runs whole on {backend} (a graph of kind {whole}): no oracle timed beside it")
    return 0


COMMAND = Command(
    "bench",
    help="time a graph or one kernel on a backend against the NumPy oracle",
    run=run,
    options=(
        arg("graph", help="a graph, or a kernel id (`npubuild list`)"),
        arg("--backend", default="auto", choices=["auto", *backends()],
            help="what to time (auto: as `npubuild run` picks); ref is timed too, in the same run"),
        arg("--repeat", type=int, default=20, help="timed calls after one untimed warm-up call (default 20)"),
        arg("--seed", type=int, default=0, help="seed of the example inputs (default 0)"),
        ARTIFACTS,
        arg("--json", action="store_true", help="{name, backend, results: {backend: {min_s, median_s, calls, elements_per_s, "
            "gop_per_s}}, speedup_over_ref} on stdout"),
    ),
)
