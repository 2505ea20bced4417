"""What the installed mlir-aie accepts, decided by running its ``aie-opt`` on probe modules.

mlir-aie's MLIR changes under the same op names every few months, and its
wheel versions do not reliably carry a date, so npubuild does not guess from
versions: it runs the installed ``aie-opt`` (found next to ``aiecc``, in
``$MLIR_AIE_INSTALL_DIR/bin`` or on ``PATH``) once on a few tiny modules and
reads each exit status (0 accepted, otherwise refused). The result is cached in
the XDNA toolchain fingerprint (:mod:`npubuild.toolchain.xdna`), keyed on the
stat of the aie-opt binary, so a warm build runs no tool.

Each feature has two probes, one valid only in the newer form and one valid
only in the older form, both copied from mlir-aie's own tests (the file and the
commit are named next to each probe; "MA@1e40030" is mlir-aie main at
1e400306479e, 2026-03-13, read with ``git show``):

* ``npu1``: the 4-column model with a ShimNOC tile in every column of row 0
  (mlir-aie #2397, 2025-06-18) or the older 5-column Phoenix model (column 0 a
  ShimPL tile; 4 columns were ``npu1_4col``). npubuild's designs need the
  former: an mlir-aie that has the latter is too old and refused.
* ``runtime_sequence``: ``aie.runtime_sequence`` (#2708, 2025-11-18) or
  ``aiex.runtime_sequence`` (before).
* ``link_with``: on the ``func.func`` declaration (#2922, 2026-03-12) or on
  ``aie.core`` (before).
* ``binary_insts``: aie-opt cannot tell: the instruction file's format is
  chosen by the aiecc driver (#2128, 2025-03-20 made it binary; aie-translate
  writes either, and ``aiecc --help`` does not show the default). It is implied:
  every mlir-aie with the 4-column npu1 postdates #2128.

A probe the newer form accepts decides for it; otherwise the older form's probe
must be accepted. A control module every mlir-aie refuses guards against an
aie-opt that accepts anything. When nothing decides (aie-opt missing, crashing,
hanging, or refusing both probes) the result carries ``problem``: one line
naming what could not be decided, which aie-opt, and the minimum mlir-aie to
install; the xdna compile refuses with it.

:func:`peano_warnings` compares the llvm-aie (Peano) wheel version with the
tested floor and the table of known-bad nightlies, :data:`KNOWN_BAD_PEANO`.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass

# The oldest mlir-aie whose MLIR npubuild's designs are valid for: `aie.device(npu1)`
# is emitted as the 4-column model with shim DMAs in every column (mlir-aie #2397).
MLIR_AIE_MINIMUM = "2025-06-18"
MLIR_AIE_INSTALL = "pip install mlir_aie -f https://github.com/Xilinx/mlir-aie/releases/expanded_assets/latest-wheels-3"
PEANO_INSTALL = "pip install --upgrade llvm-aie -f https://github.com/Xilinx/llvm-aie/releases/expanded_assets/nightly"

DEFAULT_PROBE_TIMEOUT = 60  # seconds per aie-opt run; NPUBUILD_AIE_OPT_TIMEOUT overrides
_STDERR_KEEP = 4096  # bytes of a probe's diagnostics kept (the rest is read and dropped)


@dataclass(frozen=True)
class Probe:
    name: str
    module: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Feature:
    key: str
    what: str  # "the npu1 device model", for messages
    new: Probe
    new_value: str
    old: Probe
    old_value: str


# Refused by every mlir-aie: TileOp::verify "column index (50) must be less than the
# number of columns in the device". Modelled on test/dialect/AIE/badtile-ve2802.mlir
# (`RUN: not aie-opt %s`, unchanged since 2023; MA@1e40030), device npu1_1col as in
# test/aiecc/cpp_link_with_both_attrs.mlir.
CONTROL = Probe("control", """module @test {
 aie.device(npu1_1col) {
  %t1 = aie.tile(50, 50)
 }
}
""")

# npu1, 4-column model: tile (0, 0) is a ShimNOC tile, so aie.shim_dma may sit there.
# test/Targets/AIETargetCDODirect/oneshim.mlir after #2397 (3a3076ba, 2025-06-18, which
# changed only `npu1_4col` -> `npu1` in it), first channel only, as the file had it at
# e60b4f83. The 5-column npu1 refuses it: (0, 0) is ShimPL there and shim_dma has the
# IsShimNOCTile trait ("op exists in a shim tile with NOC connection",
# include/aie/Dialect/AIE/IR/AIEInterfaces.td; ShimDMAOp::verify at 3a3076ba^).
_SHIM_DMA = """module {
 aie.device(@DEVICE@) {
  %buffer = aie.external_buffer { sym_name = "buf" } : memref<16 x f32>
  %t00 = aie.tile(0, 0)
  aie.shim_dma(%t00)  {
      aie.dma_start(S2MM, 0, ^bd0, ^end)
    ^bd0:
      aie.dma_bd(%buffer : memref<16 x f32>, 0, 4)  {bd_id = 0 : i32}
      aie.next_bd ^end
    ^end:
      aie.end
  }
 }
}
"""
NPU1_4COL = Probe("npu1_4col_model", _SHIM_DMA.replace("@DEVICE@", "npu1"))
# The same file before #2397 (3a3076ba^): `npu1_4col`, which #2397 removed from the
# AIEDevice enum (include/aie/Dialect/AIE/IR/AIEAttrs.td), so newer aie-opt refuses it.
NPU1_5COL = Probe("npu1_5col_model", _SHIM_DMA.replace("@DEVICE@", "npu1_4col"))

# test/Conversion/DmaToNpu/dma_to_npu_issue_token.mlir, `aie.runtime_sequence(...)` since
# #2708 (a7df6e13, 2025-11-18), `aiex.runtime_sequence(...)` before; the empty body as in
# test/dialect/AIEX/sequence_with_configures.mlir (`RUN: aie-opt %s`). #2708 removed the
# aiex op (AIEX.td: "Use aie.runtime_sequence instead") when it added the aie one, so
# each era refuses the other's spelling.
_SEQUENCE = """module {
  aie.device(npu1) {
    @OP@(%arg0: memref<16xi32>) {
    }
  }
}
"""
SEQ_AIE = Probe("aie.runtime_sequence", _SEQUENCE.replace("@OP@", "aie.runtime_sequence"))
SEQ_AIEX = Probe("aiex.runtime_sequence", _SEQUENCE.replace("@OP@", "aiex.runtime_sequence"))

# func-level link_with: test/aiecc/cpp_link_with_shared_func.mlir (added by #2922,
# 9c1e32d7, 2026-03-12; `RUN: aie-opt --aie-assign-core-link-files %s`), one core, no
# runtime sequence. Older aie-opt has no such pass: "Unknown command line argument".
LINK_FUNC = Probe("func_link_with", """module {
  aie.device(npu1_1col) {
    %tile_0_0 = aie.tile(0, 0)
    %tile_0_2 = aie.tile(0, 2)
    aie.objectfifo @dummy_in(%tile_0_0, {%tile_0_2}, 2 : i32) : !aie.objectfifo<memref<16xi32>>
    func.func private @kernel(memref<16xi32>) attributes {link_with = "k.o"}
    %core_0_2 = aie.core(%tile_0_2) {
      %buf = aie.objectfifo.acquire @dummy_in(Consume, 1) : !aie.objectfifosubview<memref<16xi32>>
      %elem = aie.objectfifo.subview.access %buf[0] : !aie.objectfifosubview<memref<16xi32>> -> memref<16xi32>
      func.call @kernel(%elem) : (memref<16xi32>) -> ()
      aie.objectfifo.release @dummy_in(Consume, 1)
      aie.end
    }
  }
}
""", ("--aie-assign-core-link-files",))
# core-level link_with only: test/aiecc/cpp_link_with_both_attrs.mlir (#2922). From #2922
# on CoreOp::verify refuses "cannot specify both 'link_with' (deprecated) and
# 'link_files'"; before it `link_files` is an unknown, hence free, attribute of aie.core
# (assemblyFormat `(` $tile `)` regions attr-dict at 9c1e32d7^) and `link_with` the
# core's own attribute (e.g. test/aiecc/cpp_link_with.mlir at 9c1e32d7^).
LINK_CORE = Probe("core_link_with", """module {
  aie.device(npu1_1col) {
    %tile_0_2 = aie.tile(0, 2)
    %core_0_2 = aie.core(%tile_0_2) {
      aie.end
    } {link_with = "a.o", link_files = ["b.o"]}
  }
}
""")

FEATURES = (
    Feature("npu1", "the npu1 device model", NPU1_4COL, "4col", NPU1_5COL, "5col"),
    Feature("runtime_sequence", "the runtime sequence op", SEQ_AIE, "aie.runtime_sequence", SEQ_AIEX, "aiex.runtime_sequence"),
    Feature("link_with", "where link_with goes", LINK_FUNC, "func", LINK_CORE, "core"),
)
DECISIONS = ("npu1", "runtime_sequence", "link_with", "binary_insts")


# ---- finding aie-opt --------------------------------------------------------------------------


def _executable(path: str) -> str | None:
    p = os.path.abspath(path)
    return p if os.path.isfile(p) and os.access(p, os.X_OK) else None


def find_aie_opt(aiecc_path: str | None) -> dict:
    """``{"path", "found_via", "missing"}``: aie-opt next to aiecc, in $MLIR_AIE_INSTALL_DIR/bin, on PATH."""
    tried, candidates = [], []
    if aiecc_path:
        d = os.path.dirname(os.path.abspath(aiecc_path))
        candidates.append((_executable(os.path.join(d, "aie-opt")), "next to aiecc"))
        tried.append(f"next to aiecc ({d})")
    install = os.environ.get("MLIR_AIE_INSTALL_DIR", "").strip()
    if install:
        candidates.append((_executable(os.path.join(install, "bin", "aie-opt")), "MLIR_AIE_INSTALL_DIR"))
        tried.append(f"$MLIR_AIE_INSTALL_DIR/bin ({install}/bin)")
    candidates.append((shutil.which("aie-opt"), "PATH"))
    tried.append("PATH")
    for path, via in candidates:
        if path:
            return {"path": os.path.abspath(path), "found_via": via, "missing": None}
    return {"path": None, "found_via": None, "missing": f"no aie-opt (looked {', '.join(tried)})"}


# ---- running the probes -----------------------------------------------------------------------


def probe_timeout() -> float:
    raw = os.environ.get("NPUBUILD_AIE_OPT_TIMEOUT", "").strip()
    try:
        return float(raw) if raw and float(raw) > 0 else DEFAULT_PROBE_TIMEOUT
    except ValueError:
        return DEFAULT_PROBE_TIMEOUT


def _first_error(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    pick = next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "")
    return pick[:200]


def _kill_group(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        p.kill()


def run_probe(aie_opt: str, probe: Probe, work_dir: str, timeout: float) -> tuple[str, str]:
    """(status, detail): status ``accepted`` / ``refused`` / ``crashed`` / ``timed out`` / ``cannot run``.

    The module is written to ``work_dir``; aie-opt runs there with stdin closed,
    its stdout discarded and the first few KiB of stderr kept; on timeout its
    whole process group is killed.
    """
    src = os.path.join(work_dir, f"{probe.name}.mlir")
    with open(src, "w", encoding="utf-8") as f:
        f.write(probe.module)
    try:
        p = subprocess.Popen([aie_opt, *probe.args, src], cwd=work_dir, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return "cannot run", str(e)
    kept = bytearray()

    def drain() -> None:
        while True:
            chunk = p.stderr.read(65536)
            if not chunk:
                return
            if len(kept) < _STDERR_KEEP:
                kept.extend(chunk[: _STDERR_KEEP - len(kept)])

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(p)
        p.wait()
        reader.join(timeout=5)
        if not reader.is_alive():
            p.stderr.close()
        return "timed out", f"no answer within {timeout:g} s"
    reader.join(timeout=5)
    if not reader.is_alive():
        p.stderr.close()
    err = _first_error(kept.decode("utf-8", "replace"))
    if rc == 0:
        return "accepted", ""
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        return "crashed", f"killed by {name}" + (f": {err}" if err else "")
    if rc in (126, 127):
        return "cannot run", f"exit status {rc}" + (f": {err}" if err else "")
    if rc >= 128:
        return "crashed", f"exit status {rc}" + (f": {err}" if err else "")
    return "refused", err


def _minimum_hint() -> str:
    return f"install mlir-aie >= {MLIR_AIE_MINIMUM} with its aie-opt: {MLIR_AIE_INSTALL}"


def probe_features(aie_opt: dict, timeout: float | None = None) -> dict:
    """Decide every feature with ``aie_opt`` (:func:`find_aie_opt`'s result).

    ``{"aie_opt", "probes": {name: "accepted" | "refused: <error>" | ...},
    "npu1", "runtime_sequence", "link_with", "binary_insts", "problem",
    "transient"}``; an undecided feature is None, ``problem`` is None or the one
    line the compile refuses with; ``transient`` marks a crash or timeout (such
    a result is not cached on disk).
    """
    out: dict = {"aie_opt": aie_opt.get("path"), "probes": {}, **{k: None for k in DECISIONS}, "problem": None, "transient": False}
    path = aie_opt.get("path")
    if not path:
        out["problem"] = f"cannot tell which MLIR the installed mlir-aie accepts: {aie_opt.get('missing') or 'no aie-opt'}; {_minimum_hint()}"
        return out
    timeout = probe_timeout() if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="npubuild-aie-probe-") as work:

        def run(probe: Probe) -> tuple[str, str] | None:
            status, detail = run_probe(path, probe, work, timeout)
            out["probes"][probe.name] = status + (f": {detail}" if detail else "")
            if status in ("accepted", "refused"):
                return status, detail
            out["transient"] = True
            out["problem"] = (f"cannot tell which MLIR the installed mlir-aie accepts: {path} {status} on the "
                              f"'{probe.name}' probe ({detail}); {_minimum_hint()}")
            return None

        control = run(CONTROL)
        if control is None:
            return out
        if control[0] == "accepted":
            out["problem"] = (f"cannot tell which MLIR the installed mlir-aie accepts: {path} accepted a module every "
                              f"mlir-aie refuses (a tile outside the device), so its answers mean nothing; {_minimum_hint()}")
            return out
        for feat in FEATURES:
            first_refusal = None
            for probe, value in ((feat.new, feat.new_value), (feat.old, feat.old_value)):  # the newer form first
                result = run(probe)
                if result is None:
                    return out
                if result[0] == "accepted":
                    out[feat.key] = value
                    break
                first_refusal = first_refusal or result[1] or "no message"
            else:
                if out["problem"] is None:
                    out["problem"] = (f"cannot tell {feat.what} of the installed mlir-aie: {path} refused both the "
                                      f"'{feat.new.name}' and the '{feat.old.name}' probe ({first_refusal}); {_minimum_hint()}")
    if out["npu1"] == "4col":
        out["binary_insts"] = True  # #2128 (2025-03-20) precedes #2397 (2025-06-18)
    elif out["npu1"] == "5col":
        out["problem"] = (f"the installed mlir-aie ({path}) is older than {MLIR_AIE_MINIMUM}: its npu1 is the 5-column "
                          f"Phoenix model, npubuild's designs need the 4-column one (mlir-aie #2397); {_minimum_hint()}")
    return out


def describe(features: dict) -> str:
    """One phrase for `npubuild doctor`: what the probes decided."""
    if not features.get("aie_opt"):
        return "not probed"
    npu1 = {"4col": "npu1 = 4 columns", "5col": "npu1 = 5-column Phoenix (too old)"}.get(features.get("npu1"), "npu1 model unknown")
    seq = features.get("runtime_sequence") or "runtime_sequence unknown"
    link = {"func": "link_with on func.func", "core": "link_with on aie.core"}.get(features.get("link_with"), "link_with unknown")
    insts = "binary insts.bin" if features.get("binary_insts") else "insts format unknown"
    return ", ".join((npu1, seq, link, insts))


# ---- Peano (llvm-aie) -------------------------------------------------------------------------

# Oldest llvm-aie nightly without a known miscompile of the scalar float code the
# bodies compile to: llvm-aie #641 (a scalar float multiply, a mulsf3 call, inside a
# hardware loop gave wrong results on aie2), fixed by #647, merged 2025-09-10; the
# 2025-09-11 nightly is the first certain to contain it.
PEANO_FLOOR = 20250911
PEANO_FLOOR_WHY = "before it a scalar float multiply inside a hardware loop is miscompiled on aie2 (llvm-aie #641, fixed by #647)"

# Known-bad llvm-aie nightlies: (wheel version, cores affected, what goes wrong + last good).
KNOWN_BAD_PEANO = (
    ("22.0.0.2026082101+f3081197", "aie2p",
     "miscompiles a kernel combining a MAC-accumulate loop and a LUT-based activation at -O2 (llvm-aie #1262; "
     "last good 21.0.0.2026080301+c9c5ecb7)"),
    ("21.0.0.2026062401+fdf257de", "aie2",
     "miscompiles int->float->int at -O2: an argument load lands in a soft-float call's delay slots (llvm-aie #1056, "
     "mlir-aie #3221; last good 21.0.0.2026062301+cb664e8c)"),
    ("21.0.0.2026051601+55604435", "aie2, aie2p",
     "llc asserts in findPrologueEpilogue on kernels with an outer loop (llvm-aie #1005, mlir-air #1617; "
     "last good 21.0.0.2026051501+f4933ef7)"),
)


def wheel_date(version: str | None) -> int | None:
    """YYYYMMDD of a nightly wheel version such as ``21.0.0.2026062301+cb664e8c``, else None."""
    if not version:
        return None
    for part in version.split("+", 1)[0].split("."):
        if part.isdigit() and 8 <= len(part) <= 10 and part.startswith("20"):
            y, m, d = int(part[:4]), int(part[4:6]), int(part[6:8])
            if 1 <= m <= 12 and 1 <= d <= 31:
                return y * 10000 + m * 100 + d
    return None


def peano_warnings(version: str | None) -> list[str]:
    """One line per reason the installed llvm-aie wheel is suspect (none when its version is unknown)."""
    if not version:
        return []
    public = version.split("+", 1)[0]
    out = []
    for bad, cores, what in KNOWN_BAD_PEANO:
        if version == bad or public == bad.split("+", 1)[0]:
            out.append(f"Peano (llvm-aie {version}) is a known-bad nightly for {cores}: {what}; install another: {PEANO_INSTALL}")
    date = wheel_date(version)
    if date is not None and date < PEANO_FLOOR:
        floor = f"{PEANO_FLOOR // 10000}-{PEANO_FLOOR // 100 % 100:02d}-{PEANO_FLOOR % 100:02d}"
        out.append(f"Peano (llvm-aie {version}) is older than {floor}, the oldest npubuild is meant for: "
                   f"{PEANO_FLOOR_WHY}; install a newer nightly: {PEANO_INSTALL}")
    return out


_warned: set[str] = set()


def warn_once(lines: list[str]) -> None:
    """Print each warning once per process on stderr (a build asks for the fingerprint many times)."""
    for line in lines:
        if line not in _warned:
            _warned.add(line)
            print(f"xdna: warning: {line}", file=sys.stderr)
