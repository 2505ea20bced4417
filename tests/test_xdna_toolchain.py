"""XDNA toolchain detection and `npubuild doctor`.

No real aiecc/Peano/xclbinutil/aie-opt is needed: the "missing" tests hide
any that exist, and the detection tests use small script test doubles
(written into tmp_path by fake_aiecc / fake_clang / fake_xclbinutil /
fake_aie_opt below) that log every invocation, so caching can be checked by
counting calls. fake_aie_opt stands for the aie-opt of one mlir-aie build
date and accepts or refuses MLIR as that era's aie-opt does (see its rules).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from npubuild import cli
from npubuild.targets.xdna import XdnaTarget
from npubuild.core.errors import UserError
from npubuild.toolchain import aie_features, fpcache, xdna

LEGACY_HELP = """OVERVIEW: aiecc
  --aie-generate-xclbin      Generate xclbin
  --aie-generate-npu-insts   Generate NPU instructions
  --no-xchesscc              Do not use xchesscc
  --no-xbridge               Do not use xbridge
  --peano=<string>           Peano install dir"""
NEW_HELP = """OVERVIEW: aiecc (declarative)
  --get-xclbin               Produce aie.xclbin
  --get-npu-insts            Produce insts_<device>_<seq>.bin
  --xchesscc                 Use xchesscc"""


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('#!/bin/sh\necho "$(basename "$0") $*" >> "$FAKE_LOG"\n' + body)
    path.chmod(0o755)
    return path


def fake_aiecc(bin_dir: Path, style: str, name: str = "aiecc") -> Path:
    """An aiecc double; `legacy` has no --aie-version (falls back to --version)."""
    help_text = LEGACY_HELP if style == "legacy" else NEW_HELP
    if style == "legacy":
        version = '  --version) echo "aiecc.py 0.0.1.2025060100+g1234abc" ;;\n  --aie-version) exit 1 ;;\n'
    else:
        version = '  --aie-version) echo "aiecc version 1.2.0.2026080400" ;;\n'
    return _script(
        bin_dir / name,
        f'case "$1" in\n{version}  --help) cat <<"EOF"\n{help_text}\nEOF\n  ;;\n  *) exit 2 ;;\nesac\n',
    )


def fake_clang(install_dir: Path, extra: str = "") -> Path:
    """Peano clang++ (+ opt, llc) doubles under install_dir/bin."""
    b = install_dir / "bin"
    for tool in ("opt", "llc"):
        _script(b / tool, 'echo "LLVM (http://llvm.org/):"\necho "  LLVM version 19.0.0git"\n')
    return _script(
        b / "clang++",
        f'echo "clang version 19.0.0git (https://github.com/Xilinx/llvm-aie 0abc123)"\necho "Target: x86_64-unknown-linux-gnu"\n{extra}',
    )


def fake_xclbinutil(bin_dir: Path) -> Path:
    return _script(
        bin_dir / "xclbinutil",
        'echo "****************************************************"\necho "XRT Build Version: 2.19.0 (master)"\n'
        'echo "       Build Date: 2025-05-01 00:00:00"\n',
    )


# What each era's aie-opt accepts, from mlir-aie's sources (see aie_features.py for
# the files and commits): #2397 (2025-06-18) made npu1 the 4-column model with a
# ShimNOC tile in every column and removed npu1_4col; before, npu1 had 5 columns and
# (0, 0) was ShimPL, which aie.shim_dma refuses. #2708 (2025-11-18) replaced
# aiex.runtime_sequence by aie.runtime_sequence. #2922 (2026-03-12) added the pass
# --aie-assign-core-link-files and the CoreOp check refusing link_with + link_files.
# Unknown options and unknown ops are errors (exit 1), a tile outside the device too.
_FAKE_AIE_OPT = r'''#!@PYTHON@
import os, re, signal, sys, time
ERA = @ERA@
MODE = "@MODE@"
if os.environ.get("FAKE_LOG"):
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write("aie-opt " + " ".join(sys.argv[1:]) + "\n")
if MODE == "crash":
    print("PLEASE submit a bug report", file=sys.stderr)
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGSEGV)
if MODE == "hang":
    with open(os.environ["FAKE_AIE_OPT_PID"], "w") as f:
        f.write(str(os.getpid()))
    time.sleep(120)
if MODE == "refuse-all":
    sys.exit(1)
if MODE == "accept-all":
    sys.exit(0)
PASSES = {"--aie-assign-core-link-files": 20260312}
files = []
for a in sys.argv[1:]:
    if a.startswith("-"):
        if ERA < PASSES.get(a, 99999999):
            print(f"aie-opt: Unknown command line argument '{a}'.  Try: 'aie-opt --help'", file=sys.stderr)
            sys.exit(1)
    else:
        files.append(a)
text = open(files[0]).read()
def error(msg):
    print(f"{files[0]}:1:1: error: {msg}", file=sys.stderr)
    sys.exit(1)
columns = {"npu1_1col": 1, "npu1_2col": 2, "npu1_3col": 3, "npu2": 8}
columns.update({"npu1": 5, "npu1_4col": 4} if ERA < 20250618 else {"npu1": 4})
tiles = {}
for dev in re.findall(r"aie\.device\((\w+)\)", text):
    if dev not in columns:
        error(f"expected ::xilinx::AIE::AIEDevice to be one of: {', '.join(columns)}")
    for name, c, r in re.findall(r"(%\w+) = aie\.tile\((\d+), (\d+)\)", text):
        if int(c) >= columns[dev]:
            error(f"'aie.tile' op column index ({c}) must be less than the number of columns in the device ({columns[dev]})")
        tiles[name] = (int(c), int(r))
    for t in re.findall(r"aie\.shim_dma\((%\w+)\)", text):
        c, r = tiles[t]
        shim_noc = r == 0 and not (dev == "npu1" and ERA < 20250618 and c == 0)
        if not shim_noc:
            error("'aie.shim_dma' op failed to verify that op exists in a shim tile with NOC connection")
if "aie.runtime_sequence" in text and ERA < 20251118:
    error("custom op 'aie.runtime_sequence' is unknown")
if "aiex.runtime_sequence" in text and ERA >= 20251118:
    error("custom op 'aiex.runtime_sequence' is unknown")
if ERA >= 20260312 and re.search(r"link_with = [^}]*link_files = ", text):
    error("'aie.core' op cannot specify both 'link_with' (deprecated) and 'link_files' on the same core")
print(text)
'''


def fake_aie_opt(bin_dir: Path, era: int, mode: str = "ok") -> Path:
    """aie-opt of the mlir-aie built on ``era`` (YYYYMMDD); ``mode`` crash / hang / refuse-all / accept-all."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    p = bin_dir / "aie-opt"
    before = p.stat().st_mtime_ns if p.exists() else None
    p.write_text(_FAKE_AIE_OPT.replace("@PYTHON@", sys.executable).replace("@ERA@", str(era)).replace("@MODE@", mode))
    p.chmod(0o755)
    if before is not None:  # a replaced binary: its stat must change even within one clock tick
        os.utime(p, ns=(before + 10**9, before + 10**9))
    return p


TOOL_VARS = ("MLIR_AIE_INSTALL_DIR", "PEANO_INSTALL_DIR", "XILINX_XRT", "AIE_XCLBINUTIL", "NPUBUILD_AIE_OPT_TIMEOUT")


def path_without_tools(path: str) -> str:
    """``path`` without the directories that hold a real aiecc, xclbinutil or aie-opt."""
    return os.pathsep.join(d for d in path.split(os.pathsep)
                           if d and not any(os.path.exists(os.path.join(d, n)) for n in ("aiecc", "aiecc.py", "xclbinutil", "aie-opt")))


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No XDNA tool visible: env vars unset, PATH without them, no wheels found."""
    for v in TOOL_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("PATH", path_without_tools(os.environ.get("PATH", "")))
    monkeypatch.setattr(xdna, "_package_dirs", lambda module: [])
    log = tmp_path / "calls.log"
    log.write_text("")
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.chdir(tmp_path)  # outside any project: doctor writes no cache into the checkout
    return log


@pytest.fixture
def fakes(clean_env, monkeypatch, tmp_path):
    """legacy aiecc.py + aie-opt of 2025-09 via MLIR_AIE_INSTALL_DIR, Peano via PEANO_INSTALL_DIR, xclbinutil on PATH."""
    mlir_aie = tmp_path / "mlir_aie"
    peano = tmp_path / "llvm-aie"
    path_bin = tmp_path / "pathbin"
    fake_aiecc(mlir_aie / "bin", "legacy", name="aiecc.py")
    fake_aie_opt(mlir_aie / "bin", 20250901)
    fake_clang(peano)
    fake_xclbinutil(path_bin)
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(mlir_aie))
    monkeypatch.setenv("PEANO_INSTALL_DIR", str(peano))
    monkeypatch.setenv("PATH", str(path_bin) + os.pathsep + os.environ["PATH"])
    return {"mlir_aie": mlir_aie, "peano": peano, "path_bin": path_bin, "log": clean_env}


def _calls(log: Path, tool: str = "") -> int:
    return len([ln for ln in log.read_text().splitlines() if ln.startswith(tool)])


# ---- no tools ---------------------------------------------------------------------------------


def test_doctor_without_tools(clean_env, capsys):
    assert cli.main(["doctor"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("host llc:") and "LLVM version" in lines[0]
    assert any(l.startswith("host cc:") for l in lines) and any(l.startswith("host MLIR:") for l in lines)
    for label in ("aiecc:", "Peano:", "xclbinutil:"):
        (line,) = [l for l in lines if l.startswith(label)]
        assert "not found:" in line and "install" in line
    assert any(l.startswith("pyxrt:") for l in lines)


def test_doctor_strict_fails_without_tools(clean_env, capsys):
    assert cli.main(["doctor", "--strict"]) == 1
    assert "not found: aiecc" in capsys.readouterr().out


def test_doctor_json_without_tools(clean_env, capsys):
    assert cli.main(["doctor", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is True and doc["host"]["ok"] is True
    for name in ("aiecc", "peano", "xclbinutil"):
        assert doc["xdna"][name]["path"] is None
        assert doc["xdna"][name]["missing"].startswith("not found:")
    assert set(doc["pyxrt"]) == {"path", "missing"}
    assert cli.main(["doctor", "--json", "--strict"]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_doctor_subprocess_exit_code(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "npubuild.cli", "doctor", "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["host"]["ok"] is True


# ---- detection with test doubles --------------------------------------------------------------


def test_find_tools_with_fakes(fakes):
    t = xdna.find_xdna_tools()
    assert t["aiecc"]["path"] == str(fakes["mlir_aie"] / "bin" / "aiecc.py")
    assert t["aiecc"]["found_via"] == "MLIR_AIE_INSTALL_DIR"
    assert t["aiecc"]["version"] == "0.0.1.2025060100+g1234abc"  # --aie-version failed, --version used
    assert t["aiecc"]["aie_opt"] == str(fakes["mlir_aie"] / "bin" / "aie-opt") and t["aiecc"]["aie_opt_found_via"] == "next to aiecc"
    assert t["peano"]["path"] == str(fakes["peano"] / "bin" / "clang++")
    assert t["peano"]["opt"] and t["peano"]["llc"] and t["peano"]["missing"] is None
    assert t["peano"]["version"] == "19.0.0git"
    assert t["xclbinutil"]["path"] == str(fakes["path_bin"] / "xclbinutil")
    assert t["xclbinutil"]["version"] == "2.19.0"
    assert all(v["missing"] is None for v in t.values())


def test_aiecc_on_path_new_dialect(clean_env, monkeypatch, tmp_path):
    b = tmp_path / "bin"
    fake_aiecc(b, "new")
    monkeypatch.setenv("PATH", str(b) + os.pathsep + os.environ["PATH"])
    t = xdna.find_xdna_tools()
    assert t["aiecc"]["path"] == str(b / "aiecc") and t["aiecc"]["found_via"] == "PATH"
    assert t["aiecc"]["version"] == "1.2.0.2026080400"
    assert xdna.detect_aiecc_dialect(t["aiecc"]["path"]) == "new"
    assert t["peano"]["path"] is None and "PEANO_INSTALL_DIR" in t["peano"]["missing"]


def test_xclbinutil_from_xilinx_xrt(clean_env, monkeypatch, tmp_path):
    fake_xclbinutil(tmp_path / "xrt" / "bin")
    monkeypatch.setenv("XILINX_XRT", str(tmp_path / "xrt"))
    t = xdna.find_xdna_tools()
    assert t["xclbinutil"]["found_via"] == "XILINX_XRT" and t["xclbinutil"]["version"] == "2.19.0"


def test_incomplete_peano_is_reported(clean_env, monkeypatch, tmp_path):
    fake_clang(tmp_path / "peano")
    (tmp_path / "peano" / "bin" / "opt").unlink()
    monkeypatch.setenv("PEANO_INSTALL_DIR", str(tmp_path / "peano"))
    p = xdna.find_xdna_tools()["peano"]
    assert p["path"] and p["missing"].startswith("incomplete:") and "bin/opt" in p["missing"]


def test_aiecc_dialect_detection(clean_env, tmp_path):
    assert xdna.detect_aiecc_dialect(str(fake_aiecc(tmp_path / "a", "legacy"))) == "legacy"
    assert xdna.detect_aiecc_dialect(str(fake_aiecc(tmp_path / "b", "new"))) == "new"
    assert xdna.detect_aiecc_dialect(str(_script(tmp_path / "c" / "aiecc", "echo nothing useful\n"))) is None
    assert xdna.detect_aiecc_dialect(str(tmp_path / "does-not-exist")) is None


def test_doctor_with_fakes(fakes, capsys):
    assert cli.main(["doctor", "--strict"]) == 0
    out = capsys.readouterr().out
    (aiecc,) = [l for l in out.splitlines() if l.startswith("aiecc:")]
    assert "aiecc.py" in aiecc and "version 0.0.1.2025060100+g1234abc" in aiecc and "CLI legacy" in aiecc
    (opt,) = [l for l in out.splitlines() if l.startswith("aie-opt:")]
    assert str(fakes["mlir_aie"] / "bin" / "aie-opt") in opt and "via next to aiecc" in opt
    assert "npu1 = 4 columns, aiex.runtime_sequence, link_with on aie.core, binary insts.bin" in opt
    assert "not found" not in "\n".join(l for l in out.splitlines() if not l.startswith("pyxrt:"))
    assert not [l for l in out.splitlines() if l.startswith("warning:")]
    assert cli.main(["doctor", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["xdna"]["aiecc"]["cli_dialect"] == "legacy" and len(doc["xdna_fingerprint"]) == 64
    f = doc["xdna_features"]
    assert (f["npu1"], f["runtime_sequence"], f["link_with"], f["binary_insts"], f["problem"]) == ("4col", "aiex.runtime_sequence", "core", True, None)
    assert f["probes"]["aiex.runtime_sequence"] == "accepted" and f["probes"]["aie.runtime_sequence"].startswith("refused: ")


def test_doctor_strict_fails_on_a_too_old_mlir_aie(fakes, capsys):
    fake_aie_opt(fakes["mlir_aie"] / "bin", 20250601)
    assert cli.main(["doctor"]) == 0  # not strict: reported, not an error
    (opt,) = [l for l in capsys.readouterr().out.splitlines() if l.startswith("aie-opt:")]
    assert "npu1 = 5-column Phoenix (too old)" in opt and "CANNOT COMPILE:" in opt and "older than 2025-06-18" in opt
    assert cli.main(["doctor", "--strict"]) == 1


# ---- fingerprint ------------------------------------------------------------------------------


def test_fingerprint_cached_and_content_sensitive(fakes, tmp_path, monkeypatch):
    log, cache = fakes["log"], tmp_path / "cache"
    tools = xdna.find_xdna_tools(probe_versions=False)
    assert _calls(log) == 0
    fp1 = xdna.xdna_fingerprint(tools, cache)
    assert fp1["versions"] == {"aiecc": "0.0.1.2025060100+g1234abc", "peano": "19.0.0git", "xclbinutil": "2.19.0"}
    assert set(fp1["sha256"]) == {"aiecc", "peano_clang++", "peano_opt", "peano_llc", "xclbinutil", "aie_opt"}
    assert (cache / xdna.XDNA_FINGERPRINT_FILE).is_file()
    n = _calls(log)
    assert n > 0
    # warm: memo, then the disk cache; no tool runs
    assert xdna.xdna_fingerprint(tools, cache) == fp1
    fpcache._memo.clear()
    assert xdna.xdna_fingerprint(xdna.find_xdna_tools(probe_versions=False), cache) == fp1
    assert _calls(log) == n
    # same content elsewhere: same id (paths are not part of it)
    moved = tmp_path / "moved-peano"
    shutil.copytree(fakes["peano"], moved)
    monkeypatch.setenv("PEANO_INSTALL_DIR", str(moved))
    fp_moved = xdna.xdna_fingerprint(xdna.find_xdna_tools(probe_versions=False), cache)
    assert fp_moved["id"] == fp1["id"] and fp_moved["paths"] != fp1["paths"]
    # a binary's content changes (same version output): new hash, new id, recomputed
    fake_clang(moved, extra="# rebuilt\n")
    fp2 = xdna.xdna_fingerprint(xdna.find_xdna_tools(probe_versions=False), cache)
    assert _calls(log) > n
    assert fp2["versions"] == fp1["versions"]
    assert fp2["sha256"]["peano_clang++"] != fp1["sha256"]["peano_clang++"]
    assert fp2["sha256"]["aiecc"] == fp1["sha256"]["aiecc"]
    assert fp2["id"] != fp1["id"]


# ---- mlir-aie features probed with aie-opt -----------------------------------------------------


def _probe(bin_dir: Path, era: int, mode: str = "ok", timeout: float = 20) -> dict:
    opt = fake_aie_opt(bin_dir, era, mode)
    return aie_features.probe_features({"path": str(opt)}, timeout=timeout)


@pytest.mark.parametrize(
    "era,npu1,seq,link",
    [
        (20250617, "5col", "aiex.runtime_sequence", "core"),  # the day before #2397
        (20250618, "4col", "aiex.runtime_sequence", "core"),  # #2397
        (20251117, "4col", "aiex.runtime_sequence", "core"),
        (20251118, "4col", "aie.runtime_sequence", "core"),  # #2708
        (20260311, "4col", "aie.runtime_sequence", "core"),
        (20260312, "4col", "aie.runtime_sequence", "func"),  # #2922
        (20260901, "4col", "aie.runtime_sequence", "func"),
    ],
)
def test_probes_decide_each_era(clean_env, tmp_path, era, npu1, seq, link):
    f = _probe(tmp_path / "bin", era)
    assert (f["npu1"], f["runtime_sequence"], f["link_with"]) == (npu1, seq, link)
    assert f["probes"]["control"].startswith("refused: ") and "column index (50)" in f["probes"]["control"]
    if npu1 == "4col":
        assert f["problem"] is None and f["binary_insts"] is True
    else:
        assert f["binary_insts"] is None
        assert f["problem"].startswith(f"the installed mlir-aie ({tmp_path / 'bin' / 'aie-opt'}) is older than 2025-06-18")
        assert "#2397" in f["problem"] and "install mlir-aie >= 2025-06-18" in f["problem"] and "\n" not in f["problem"]


def test_probe_modules_reach_aie_opt_as_files_with_their_pass(clean_env, tmp_path):
    _probe(tmp_path / "bin", 20260401)
    calls = [ln.split() for ln in clean_env.read_text().splitlines()]
    assert [c[1:-1] for c in calls] == [[], [], [], ["--aie-assign-core-link-files"]]  # newest: no old-era probe needed
    assert [Path(c[-1]).name for c in calls] == ["control.mlir", "npu1_4col_model.mlir", "aie.runtime_sequence.mlir", "func_link_with.mlir"]
    assert not Path(calls[0][-1]).exists()  # the temporary directory is gone


def _target_env(fakes, era: int, mode: str = "ok") -> Path:
    return fake_aie_opt(fakes["mlir_aie"] / "bin", era, mode)


@pytest.mark.parametrize(
    "era,seq,link",
    [(20250901, "aiex.runtime_sequence", "core"), (20251201, "aie.runtime_sequence", "core"), (20260401, "aie.runtime_sequence", "func")],
)
def test_emit_options_and_text_follow_the_probes(fakes, tmp_path, era, seq, link):
    from npubuild.specfile.instances import make_instance

    _target_env(fakes, era)
    t = XdnaTarget()
    opts = t.emit_options(SimpleNamespace(xdna_device="npu1"), tmp_path / "cache")
    assert (opts["runtime_sequence"], opts["link_with"], opts["device"]) == (seq, link, "npu1")
    gemm = t.emit(make_instance("matmul", "i8", [(64, 256), (256, 256)], {}), opts)
    assert f"    {seq}(" in gemm and "aie.device(npu1" in gemm
    other = "aiex.runtime_sequence" if seq == "aie.runtime_sequence" else "aie.runtime_sequence"
    assert f" {other}(" not in gemm
    declared = [ln for ln in gemm.splitlines() if ln.strip().startswith("func.func private")]
    assert declared and all(("link_with" in ln) == (link == "func") for ln in declared)
    assert any("link_with" in ln for ln in gemm.splitlines() if "aie.core(" in ln or ln.strip().startswith("} {")) == (link == "core")
    fp = t.fingerprint(tmp_path / "cache")  # complete and decided: no refusal
    assert fp["dialect"] == {"aiecc_cli": "legacy", "aiecc_opt_level": None, "runtime_sequence": seq, "link_with": link}  # the fake help has no --opt-level
    assert t._aiecc_cli(fp) == "legacy"


def test_too_old_mlir_aie_is_refused_at_compile_with_the_minimum(fakes, tmp_path):
    opt = _target_env(fakes, 20250601)
    t = XdnaTarget()
    with pytest.raises(UserError) as e:
        t.fingerprint(tmp_path / "cache")
    msg = str(e.value)
    assert "\n" not in msg and str(opt) in msg and "older than 2025-06-18" in msg and "5-column" in msg and "#2397" in msg
    assert "pip install mlir_aie" in msg
    fp = t._fingerprint(tmp_path / "cache")  # emission still works (the compile refuses)
    with pytest.raises(UserError, match="older than 2025-06-18"):
        t._aiecc_cli(fp)


@pytest.mark.parametrize("mode,says", [("crash", "crashed on the 'control' probe (killed by SIGSEGV"),
                                       ("refuse-all", "refused both the 'npu1_4col_model' and the 'npu1_5col_model' probe"),
                                       ("accept-all", "accepted a module every mlir-aie refuses")])
def test_undecidable_aie_opt_is_refused_in_one_line(fakes, tmp_path, mode, says):
    opt = _target_env(fakes, 20260401, mode)
    t = XdnaTarget()
    with pytest.raises(UserError) as e:
        t.fingerprint(tmp_path / "cache")
    msg = str(e.value)
    assert says in msg and str(opt) in msg and "\n" not in msg
    assert msg.endswith(f"install mlir-aie >= 2025-06-18 with its aie-opt: {aie_features.MLIR_AIE_INSTALL}")
    # emission does not need the answer: the newest forms
    opts = t.emit_options(SimpleNamespace(xdna_device="npu1"), tmp_path / "cache")
    assert (opts["runtime_sequence"], opts["link_with"]) == ("aie.runtime_sequence", "func")


def test_hanging_aie_opt_times_out_is_killed_and_not_cached(fakes, tmp_path, monkeypatch):
    pid_file = tmp_path / "aie-opt.pid"
    monkeypatch.setenv("FAKE_AIE_OPT_PID", str(pid_file))
    monkeypatch.setenv("NPUBUILD_AIE_OPT_TIMEOUT", "1")
    opt = _target_env(fakes, 20260401, "hang")
    cache = tmp_path / "cache"
    start = time.monotonic()
    with pytest.raises(UserError) as e:
        XdnaTarget().fingerprint(cache)
    assert time.monotonic() - start < 15
    msg = str(e.value)
    assert f"{opt} timed out on the 'control' probe (no answer within 1 s)" in msg and "2025-06-18" in msg
    assert _calls(fakes["log"], "aie-opt") == 1  # stopped at the first hang
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(50):
            os.kill(pid, 0)
            time.sleep(0.1)
    assert not (cache / xdna.XDNA_FINGERPRINT_FILE).exists()  # a hang is not remembered across builds
    fpcache._memo.clear()
    _target_env(fakes, 20260401)  # fixed: the next build probes again and compiles
    assert XdnaTarget().fingerprint(cache)["features"]["link_with"] == "func"


def test_missing_aie_opt_is_refused_but_emission_stays_newest(fakes, tmp_path):
    fakes_bin = fakes["mlir_aie"] / "bin"
    (fakes_bin / "aie-opt").unlink()
    t = XdnaTarget()
    with pytest.raises(UserError) as e:
        t.fingerprint(tmp_path / "cache")
    msg = str(e.value)
    assert msg.startswith(f"cannot tell which MLIR the installed mlir-aie accepts: no aie-opt (looked next to aiecc ({fakes_bin})")
    assert "$MLIR_AIE_INSTALL_DIR/bin" in msg and "PATH" in msg and "install mlir-aie >= 2025-06-18" in msg
    opts = t.emit_options(SimpleNamespace(xdna_device="npu2"), tmp_path / "cache")
    assert (opts["runtime_sequence"], opts["link_with"], opts["device"]) == ("aie.runtime_sequence", "func", "npu2")


def test_aie_opt_on_path_is_found(fakes, monkeypatch, tmp_path):
    (fakes["mlir_aie"] / "bin" / "aie-opt").unlink()
    fake_aie_opt(tmp_path / "elsewhere", 20251201)
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere") + os.pathsep + os.environ["PATH"])
    a = xdna.find_xdna_tools(probe_versions=False)["aiecc"]
    assert a["aie_opt"] == str(tmp_path / "elsewhere" / "aie-opt") and a["aie_opt_found_via"] == "PATH"


def test_without_aiecc_nothing_is_probed_and_the_newest_is_emitted(clean_env, tmp_path, monkeypatch):
    fake_aie_opt(tmp_path / "bin", 20250901)
    monkeypatch.setenv("PATH", str(tmp_path / "bin") + os.pathsep + os.environ["PATH"])
    t = XdnaTarget()
    opts = t.emit_options(SimpleNamespace(xdna_device="npu1"), None)
    assert (opts["runtime_sequence"], opts["link_with"]) == ("aie.runtime_sequence", "func")
    fp = t.fingerprint(None)  # tools missing: not compiled, not refused
    assert fp["features"] == {} and fp["dialect"] == {} and _calls(clean_env, "aie-opt") == 0


def test_probes_run_once_then_come_from_the_cache(fakes, tmp_path):
    log, cache = fakes["log"], tmp_path / "cache"
    fp1 = XdnaTarget().fingerprint(cache)
    n = _calls(log, "aie-opt")
    assert n == 6  # control; 4-column (old npu1 not needed); aie (refused) + aiex; func (refused) + core
    assert XdnaTarget().fingerprint(cache) == fp1  # memo
    fpcache._memo.clear()
    assert XdnaTarget().fingerprint(cache) == fp1  # disk
    XdnaTarget().emit_options(SimpleNamespace(xdna_device="npu1"), cache)
    assert _calls(log, "aie-opt") == n
    # a new aie-opt (same paths): probed again, new decisions, new id
    fake_aie_opt(fakes["mlir_aie"] / "bin", 20260401)
    fp2 = XdnaTarget().fingerprint(cache)
    assert _calls(log, "aie-opt") > n
    assert fp2["dialect"]["link_with"] == "func" and fp2["id"] != fp1["id"]


@pytest.mark.parametrize(
    "version,says",
    [
        ("20.0.0.2025082201+9d58a205", "older than 2025-09-11"),
        ("22.0.0.2026082101+f3081197", "known-bad nightly for aie2p"),
        ("21.0.0.2026062401+fdf257de", "llvm-aie #1056"),
        ("21.0.0.2026080301+c9c5ecb7", None),
        ("19.0.0git", None),
        (None, None),
    ],
)
def test_peano_warnings(version, says):
    w = aie_features.peano_warnings(version)
    if says is None:
        assert w == []
    else:
        (line,) = w
        assert says in line and version in line and "\n" not in line and "pip install --upgrade llvm-aie" in line


def test_known_bad_peano_warns_in_doctor_and_once_at_build(fakes, monkeypatch, capsys, tmp_path):
    bad = "22.0.0.2026082101+f3081197"
    monkeypatch.setattr(xdna, "_package_dirs", lambda m: [str(fakes["peano"])] if m == xdna.PEANO_PACKAGE else [])
    monkeypatch.setattr(xdna, "_package_version", lambda dist: bad if dist == xdna.PEANO_DIST else None)
    monkeypatch.setattr(aie_features, "_warned", set())
    assert cli.main(["doctor", "--strict"]) == 0  # a warning, not an error
    (w,) = [l for l in capsys.readouterr().out.splitlines() if l.startswith("warning:")]
    assert f"Peano (llvm-aie {bad}) is a known-bad nightly for aie2p" in w and "#1262" in w
    XdnaTarget().fingerprint(tmp_path / "cache")
    XdnaTarget().fingerprint(tmp_path / "cache")
    err = [l for l in capsys.readouterr().err.splitlines() if l.startswith("xdna: warning:")]
    assert len(err) == 1 and "#1262" in err[0]


@pytest.mark.slow  # two doit builds; test_too_old_mlir_aie_is_refused_at_compile_with_the_minimum is the fast case
@pytest.mark.parametrize("era,mode,says", [
    (20250601, "ok", "is older than 2025-06-18: its npu1 is the 5-column Phoenix model"),
    (20260401, "hang", "timed out on the 'control' probe (no answer within 1 s)"),
])
def test_doit_build_refuses_in_one_line(project, clean_env, tmp_path, era, mode, says):
    from .test_xdna_driver import _FAKE_CLANG_COMPILE, fake_aiecc_compiler

    prefix = tmp_path / "mlir_aie"
    fake_aiecc_compiler(prefix / "bin", "legacy")
    opt = fake_aie_opt(prefix / "bin", era, mode)
    fake_clang(tmp_path / "llvm-aie", extra=_FAKE_CLANG_COMPILE)
    fake_xclbinutil(tmp_path / "xrt" / "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("NPUBUILD_AIE_INCLUDE",)}
    env.update(MLIR_AIE_INSTALL_DIR=str(prefix), PEANO_INSTALL_DIR=str(tmp_path / "llvm-aie"), XILINX_XRT=str(tmp_path / "xrt"),
               FAKE_AIECC_RECORD=str(tmp_path / "aiecc.jsonl"), FAKE_AIE_OPT_PID=str(tmp_path / "pid"), NPUBUILD_AIE_OPT_TIMEOUT="1")
    p = project("kernels:\n  act:\n    op: relu\n    targets: [ref, xdna]\n    shapes:\n      - [1024]\n")
    r = p.doit("build", env=env, check=False)
    assert r.rc != 0
    (line,) = [ln for ln in (r.out + r.err).splitlines() if ln.startswith("xdna toolchain:")]
    assert says in line and str(opt) in line and "install mlir-aie >= 2025-06-18" in line
    calls = [json.loads(ln)["argv"] for ln in (tmp_path / "aiecc.jsonl").read_text().splitlines()]
    assert calls and not [a for a in calls if a[-1:] == ["aie.mlir"]]  # asked for --help, never compiled
