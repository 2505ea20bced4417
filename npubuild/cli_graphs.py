"""The graph commands of the ``npubuild`` command line: ``show``, ``inputs``,
``graph``, and the example inputs of ``run --example``.

They read the built manifest only (artifacts/manifest.json, or ``--artifacts
DIR``), so they work on an artifact folder shared without its specs; only
``graph --tasks`` reads the specs (the build's plan).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import UserError


def _manifest(args) -> tuple[Path, dict]:
    from .artifacts.manifest import read_manifest
    from .config import load_config

    if args.artifacts:
        path = Path(args.artifacts)
        return path, read_manifest(path)
    cfg = load_config()
    return cfg.artifacts, read_manifest(cfg.artifacts, cfg.limits)


def _signature(args) -> dict:
    from .runner.signature import graph_signature

    path, m = _manifest(args)
    return graph_signature(m, args.graph, str(path / "manifest.json"))


def _fmt(t: dict) -> str:
    return f"{t['dtype']} {list(t['shape'])}" if t.get("shape") or not t.get("layout") else f"{t['dtype']} {t['layout']}"


def show_lines(sig: dict) -> list[str]:
    kind = "ANE graph" if sig["kind"] == "ane" else "graph"
    lines = [f"{kind} {sig['graph']}" + (f" ({sig['file']})" if sig.get("file") else "")
             + (f"; targets {', '.join(sig['targets'])}" if sig["targets"] else "")]
    for side in ("inputs", "params", "constants", "outputs"):
        tensors = sig[side]
        if not tensors and side in ("params", "constants"):
            continue
        lines.append(f"{side}:" if tensors else f"{side}: none")
        w = max(len(n) for n in tensors) if tensors else 0
        lines += [f"  {n:<{w}}  {_fmt(t)}" for n, t in tensors.items()]
    lines.append(f"nodes ({len(sig['nodes'])}):")
    w = max((len(n["name"]) for n in sig["nodes"]), default=0)
    for n in sig["nodes"]:
        outs = ", ".join(f"{o} {_fmt(sig['tensors'][o])}" for o in n["outputs"])
        targets = ", ".join(t + (" (not compiled)" if t in n["not_compiled"] else "") for t in n["targets"])
        kernel = f"  kernel {n['kernel']}" if n.get("kernel") else ""
        lines.append(f"  {n['name']:<{w}}  {n['op']} {n['dtype']} ({', '.join(n['inputs'])}) -> {outs}  [{targets}]{kernel}")
    return lines


def cmd_show(args) -> int:
    sig = _signature(args)
    if args.json:
        print(json.dumps(sig, indent=1))
    else:
        print("\n".join(show_lines(sig)))
    return 0


def _check_out_dir(path: str, flag: str) -> None:
    parent = Path(path).parent
    if not parent.is_dir():
        raise UserError(f"cannot write {path} ({flag}): its directory {parent} does not exist")


def cmd_inputs(args) -> int:
    from .runner.examples import example_arrays
    from .runner.npzio import write_npz

    _check_out_dir(args.output, "-o")
    if args.params:
        _check_out_dir(args.params, "--params")
        if Path(args.params).resolve() == Path(args.output).resolve():
            raise UserError(f"-o and --params are the same file ({args.output}): give two names")
    from .config import load_config

    sig = _signature(args)
    # the project's limit on a run's input arrays (as `npubuild run` reads it), checked before drawing any
    inputs, params = example_arrays(sig, args.seed, load_config().limits)
    write_npz(args.output, inputs)
    print(f"wrote inputs {_listing(sig['inputs'])} to {args.output} (seed {args.seed})", file=sys.stderr)
    if args.params:
        write_npz(args.params, params)
        print(f"wrote params {_listing(sig['params'])} to {args.params} (seed {args.seed})", file=sys.stderr)
    elif params:
        print(f"graph '{sig['graph']}' also takes params ({_listing(sig['params'])}): add --params FILE.npz to write them", file=sys.stderr)
    return 0


def _listing(tensors: dict) -> str:
    return ", ".join(f"{n} {_fmt(t)}" for n, t in tensors.items()) or "none"


def run_arrays(args, manifest: dict, cfg) -> tuple[dict, dict]:
    """(params, inputs) for ``npubuild run``: from -p/-i, the rest from --example; every declared one
    present, so no graph runs on an input nobody gave (an ANE graph would read zeros)."""
    from .runner.npzio import read_npz
    from .runner.signature import graph_signature

    sig = graph_signature(manifest, args.graph)
    params = read_npz(args.params, "params", cfg.limits) if args.params else {}
    inputs = read_npz(args.inputs, "inputs", cfg.limits) if args.inputs else {}
    if args.example:
        from .runner.examples import example_arrays

        ex_inputs, ex_params = example_arrays(sig, args.seed, cfg.limits)  # sizes checked before any is drawn
        inputs = {**ex_inputs, **inputs}
        params = {**ex_params, **params}
    lacking = {side: [n for n in sig[side] if n not in given] for side, given in (("params", params), ("inputs", inputs))}
    if any(lacking.values()):
        # the runtime's wording ("missing inputs: x"), with each one's shape and dtype
        what = "; ".join(f"missing {side}: " + ", ".join(f"{n} ({_fmt(sig[side][n])})" for n in names)
                         for side, names in lacking.items() if names)
        flags = " and ".join(f for f, side in (("-p PARAMS.npz", "params"), ("-i INPUTS.npz", "inputs")) if lacking[side])
        raise UserError(
            f"graph '{sig['graph']}': {what}; give {flags} "
            f"(`npubuild inputs {sig['graph']} -o INPUTS.npz{' --params PARAMS.npz' if sig['params'] else ''}` writes examples) or use --example"
        )
    return params, inputs


def cmd_graph(args) -> int:
    from .runner.graph_dot import dag_dot, picture_format, signature_dot, write_picture

    if bool(args.graph) == bool(args.tasks):
        raise UserError("give a graph name or --tasks (the build's task DAG), not both and not neither")
    if args.output:
        picture_format(Path(args.output))  # a wrong suffix is refused before anything is read
        _check_out_dir(args.output, "-o")
    if args.tasks:
        from .build.plan import build_plan
        from .build.task_graph import task_dag
        from .config import load_config

        cfg = load_config()
        nodes, edges = task_dag(build_plan(cfg))
        if len(nodes) <= 2:  # only manifest and build: nothing to draw (run outside a project?)
            raise UserError(f"the specs of {cfg.root} define no kernels or ANE graphs: the build has no tasks to draw")
        text = dag_dot("build tasks", nodes, edges)
        what = f"{len(nodes)} tasks"
    else:
        sig = _signature(args)
        text = signature_dot(sig)
        what = f"graph '{sig['graph']}' ({len(sig['nodes'])} nodes)"
    if not args.output:
        sys.stdout.write(text)
        return 0
    write_picture(text, args.output)
    print(f"wrote {what} to {args.output}", file=sys.stderr)
    return 0


def add_parsers(sub) -> None:
    """The ``show``, ``inputs`` and ``graph`` subcommands."""
    art = {"help": "artifact directory (default: from the project config)"}
    s = sub.add_parser(
        "show",
        help="a graph's inputs, params, constants, outputs and nodes, from the manifest",
        description="Inputs, params, constants and outputs with shape and dtype; each node with its op, kernel id and "
        "targets. Reads the built manifest only (graphs from .mil files included).",
    )
    s.add_argument("graph")
    s.add_argument("--json", action="store_true", help="the same as JSON")
    s.add_argument("--artifacts", **art)
    s.set_defaults(fn=cmd_show)

    i = sub.add_parser(
        "inputs",
        help="write seeded example inputs (and params) of a graph as .npz",
        description="Random arrays of the declared shapes and dtypes (floats of order 1, small integers, bools; bf16 "
        "via ml_dtypes), the same for the same seed; `npubuild run GRAPH -i FILE -p PARAMS` accepts them.",
    )
    i.add_argument("graph")
    i.add_argument("-o", "--output", required=True, metavar="FILE.npz", help="inputs file to write")
    i.add_argument("--params", metavar="FILE.npz", help="also write the graph's params to this file")
    i.add_argument("--seed", type=int, default=0, help="seed of the random values (default 0)")
    i.add_argument("--artifacts", **art)
    i.set_defaults(fn=cmd_inputs)

    g = sub.add_parser(
        "graph",
        help="draw a graph (or the build's task DAG) as DOT, SVG or PNG",
        description="Graphviz DOT of a graph: nodes with op, dtype, targets and kernel id, edges with tensor shapes. "
        "The suffix of -o picks the format: .dot (always), .svg or .png (needs Graphviz's `dot` on PATH). "
        "Without -o the DOT text is printed.",
    )
    g.add_argument("graph", nargs="?")
    g.add_argument("-o", "--output", metavar="FILE", help="picture to write: .svg, .png or .dot")
    g.add_argument("--tasks", action="store_true", help="draw the build's task DAG (emit -> compile -> manifest) instead")
    g.add_argument("--artifacts", **art)
    g.set_defaults(fn=cmd_graph)


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
