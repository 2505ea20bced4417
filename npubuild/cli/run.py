"""``npubuild run GRAPH``: run a graph from the manifest on the backend asked for (or the best one
that works), with inputs from -i/-p and --example, and its outputs printed, written, or reported as JSON."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..core.errors import UserError
from ..targets import backends
from .common import ARTIFACTS, Command, arg, fmt_tensor


def run_arrays(args, sig: dict, cfg) -> tuple[dict, dict]:
    """(params, inputs) for ``npubuild run``: from -p/-i and --input, the rest from --example; every declared
    one present, so no graph runs on an input nobody gave. ``sig``: the graph's (or kernel's) signature."""
    from ..runner.npzio import read_npz
    from .typed_input import parse_inputs

    params = read_npz(args.params, "params", cfg.limits) if args.params else {}
    inputs = read_npz(args.inputs, "inputs", cfg.limits) if args.inputs else {}
    inputs.update(parse_inputs(args.input or [], args.seed, cfg.limits))
    if args.example:
        from ..runner.examples import example_arrays

        ex_inputs, ex_params = example_arrays(sig, args.seed, cfg.limits)  # sizes checked before any is drawn
        inputs = {**ex_inputs, **inputs}
        params = {**ex_params, **params}
    lacking = {side: [n for n in sig[side] if n not in given] for side, given in (("params", params), ("inputs", inputs))}
    if any(lacking.values()):
        # the runtime's wording ("missing inputs: x"), with each one's shape and dtype
        what = "; ".join(f"missing {side}: " + ", ".join(f"{n} ({fmt_tensor(sig[side][n])})" for n in names)
                         for side, names in lacking.items() if names)
        flags = " and ".join(f for f, side in (("-p PARAMS.npz", "params"), ("-i INPUTS.npz", "inputs")) if lacking[side])
        raise UserError(
            f"graph '{sig['graph']}': {what}; give {flags} "
            f"(`npubuild inputs {sig['graph']} -o INPUTS.npz{' --params PARAMS.npz' if sig['params'] else ''}` writes examples) or use --example"
        )
    return params, inputs


def _kernel_signature(rt, kernel_id: str) -> dict:
    """What run_arrays needs of a kernel run alone: its inputs by name, no params."""
    rec = rt.kernel_record(kernel_id)
    return {"graph": kernel_id, "inputs": {t["name"]: {"shape": t["shape"], "dtype": t["dtype"]} for t in rec["inputs"]},
            "params": {}}


def open_runner(rt, args):
    """(runner, signature) of the graph or, when no graph has that name, the kernel ``args.graph`` names."""
    from ..runner.signature import graph_signature

    graphs, kernels = rt.manifest.get("graphs", {}), rt.manifest.get("kernels", {})
    if args.graph not in graphs and args.graph not in kernels:
        from ..core.errors import did_you_mean

        raise UserError(f"no graph or kernel '{args.graph}' in {rt.path / 'manifest.json'}{did_you_mean(args.graph, [*graphs, *kernels])}; "
                        f"graphs: {', '.join(sorted(graphs)) or 'none'}; kernels: `npubuild list`")
    function = getattr(args, "function", None)  # which function of a multifunction ANE graph (run --function)
    if function is not None:
        g = graphs.get(args.graph)
        if not isinstance(g, dict) or g.get("kind") != "ane":
            raise UserError(f"--function {function}: '{args.graph}' is not an ANE graph; only ANE graphs from a multifunction "
                            ".mil have functions")
        from ..runner.ane_graph import function_record

        view = {**rt.manifest, "graphs": {args.graph: function_record(args.graph, g, function)}}
        return (lambda backend: rt.graph(args.graph, backend=backend, function=function)), graph_signature(view, args.graph)
    if args.graph in graphs:
        return (lambda backend: rt.graph(args.graph, backend=backend)), graph_signature(rt.manifest, args.graph)
    return (lambda backend: rt.kernel(args.graph, backend=backend)), _kernel_signature(rt, args.graph)


def _max_errors(out: dict, want: dict) -> dict:
    """Per output, the largest absolute difference from ``want`` (NaN where one has NaN and the other not)."""
    import numpy as np

    errs = {}
    for name, v in out.items():
        a, b = np.asarray(v, np.float64), np.asarray(want[name], np.float64)
        both_nan = np.isnan(a) & np.isnan(b)
        d = np.where(both_nan, 0.0, np.abs(a - b))
        errs[name] = float(np.nanmax(d)) if not np.isnan(d).any() else float("nan")
    return errs


def run(args) -> int:
    from ..core.config import load_config
    from ..runner.npzio import write_npz
    from ..runner.runtime import load

    cfg = load_config()
    path = Path(args.artifacts) if args.artifacts else cfg.artifacts
    rt = load(path)
    runner, sig = open_runner(rt, args)
    g = runner(args.backend)
    if g.fallback_reason:
        print(f"backend: {g.backend} ({g.fallback_reason})", file=sys.stderr)
    else:
        print(f"backend: {g.backend}", file=sys.stderr)
    params, inputs = run_arrays(args, sig, cfg)  # every declared one, or a message with its shape and dtype
    g.set_params(**params)
    out = g.run(**inputs)
    errors = None
    if args.expect:
        ref = runner(args.expect)
        ref.set_params(**params)
        errors = _max_errors(out, ref.run(**inputs))
        for name, e in errors.items():
            print(f"expect {args.expect}: {name}: max abs error {e:.3g}", file=sys.stderr)
    if args.output:
        write_npz(args.output, out)
        print(f"wrote {', '.join(out)} to {args.output}", file=sys.stderr)
    if args.json:
        report = run_report(args.graph, g.backend, g.fallback_reason, out, args.output)
        isa = {kid: kern.isa for kid, kern in rt.kernels.open_kernels(g.backend).items() if getattr(kern, "isa", None)}
        if isa:
            report["isa"] = isa  # the instruction-set variant each kernel ran (a host library holds several)
        if args.function is not None:
            report["function"] = args.function
        if errors is not None:
            report["expect"] = {"backend": args.expect, "max_abs_error": {n: (e if e == e else None) for n, e in errors.items()}}
        print(json.dumps(report, allow_nan=False))
    elif not args.output:
        import numpy as np

        with np.printoptions(threshold=8, edgeitems=3, precision=5):
            for k, v in out.items():
                print(f"{k}: shape {list(v.shape)} {v.dtype}\n{v}")
    return 0


JSON_VALUES_MAX = 1 << 16  # elements of one output whose values `run --json` lists; larger ones: -o out.npz


def _integer_stats(v) -> dict:
    """min and max of an integer or bool array as exact Python numbers, and the mean from an exact sum:
    float64 has 53 bits, so int64 values above 2**53 would come out rounded (and a plain int64 sum can
    wrap). The sum runs a chunk at a time; int64/uint64 chunks are summed as 32-bit halves, which cannot
    overflow for fewer than 2**31 elements per chunk."""
    import numpy as np

    if v.dtype == np.bool_:
        return {"min": bool(v.min()), "max": bool(v.max()), "mean": int(np.count_nonzero(v)) / v.size}
    flat, total = v.reshape(-1), 0
    for start in range(0, flat.size, 1 << 20):
        c = flat[start:start + (1 << 20)]
        if c.dtype.itemsize < 8:
            total += int(c.sum(dtype=np.int64 if c.dtype.kind == "i" else np.uint64))
        else:
            low = c.dtype.type(0xFFFFFFFF)
            total += (int((c >> c.dtype.type(32)).sum()) << 32) + int((c & low).sum())
    return {"min": int(v.min()), "max": int(v.max()), "mean": total / v.size}


def run_report(graph: str, backend: str, fallback: str | None, out: dict, output_file: str | None) -> dict:
    """What `npubuild run --json` prints: per output its shape, dtype, summary statistics, and its values
    when it has at most JSON_VALUES_MAX elements (integers and booleans as such, min and max of integer
    outputs exact; floats as numbers, non-finite ones as null, which the nan/inf counts account for)."""
    import numpy as np

    outputs = {}
    for name, v in out.items():
        v = np.asarray(v)
        doc = {"shape": list(v.shape), "dtype": str(v.dtype)}
        if v.dtype.kind in "biu":  # never through float64: int64 beyond 2**53 would be rounded
            doc.update(nan=0, inf=0)
            if v.size:
                doc.update(_integer_stats(v))
            if v.size <= JSON_VALUES_MAX:
                doc["values"] = v.tolist()
            outputs[name] = doc
            continue
        f = v.astype(np.float64)
        finite = np.isfinite(f)
        doc.update(nan=int(np.isnan(f).sum()), inf=int(np.isinf(f).sum()))
        if finite.any():
            doc.update(min=float(f[finite].min()), max=float(f[finite].max()), mean=float(f[finite].mean()))
        if v.size <= JSON_VALUES_MAX:
            obj = f.astype(object)
            obj[~finite] = None
            doc["values"] = obj.tolist()
        outputs[name] = doc
    return {"graph": graph, "backend": backend, "fallback_reason": fallback or None, "outputs": outputs, "output_file": output_file}


COMMAND = Command(
    "run",
    help="run a graph (or one kernel) from the manifest",
    run=run,
    options=(
        arg("graph", help="a graph, or a kernel id (`npubuild list`): the kernel runs alone on its inputs"),
        arg("-i", "--inputs", help="inputs as .npz (one array per graph input)"),
        arg("--input", action="append", metavar="NAME=VALUE",
            help="one input: NAME=@x.npy, NAME=4x8xf32=1,2,... (all values, or one to fill it) or NAME=4x8xf32 (seeded "
                 "random values); repeat for each"),
        arg("--expect", metavar="BACKEND", choices=[b for b in backends(kernels_only=True)],
            help="run the same on BACKEND too (ref: the NumPy oracle) and print each output's max abs error"),
        arg("-p", "--params", help="params as .npz"),
        arg("-o", "--output", help="write outputs to this .npz (default: print them)"),
        arg("--function", metavar="NAME", help="an ANE graph from a multifunction .mil: run this function of it "
            "(default: its default function, main; `npubuild show GRAPH` lists them)"),
        arg("--backend", default="auto", choices=["auto", *backends()],
            help="auto: xrt when pyxrt imports, an NPU answers and every kernel has an xdna binary, else host, else ref; "
            "graphs from .mil files run on ane (the fp16 host emulation)"),
        ARTIFACTS,
        arg("--example", action="store_true", help="seeded random values for every input and param -i/-p do not give"),
        arg("--seed", type=int, default=0, help="seed of --example's values (default 0)"),
        arg("--json", action="store_true", help="{graph, backend, outputs: {shape, dtype, min, max, mean, nan, inf, "
            "values}} as JSON on stdout (values of outputs up to 65536 elements)"),
    ),
)
