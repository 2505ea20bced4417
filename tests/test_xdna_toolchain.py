"""XDNA toolchain detection and `npubuild doctor`.

No real aiecc/Peano/xclbinutil is needed: the "missing" tests hide any that
exist, and the detection tests use small shell-script test doubles (written
into tmp_path by fake_aiecc / fake_clang / fake_xclbinutil below) that log
every invocation, so caching can be checked by counting calls.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from npubuild import cli
from npubuild.toolchain import fpcache, xdna

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


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No XDNA tool visible: env vars unset, PATH without them, no wheels found."""
    for v in ("MLIR_AIE_INSTALL_DIR", "PEANO_INSTALL_DIR", "XILINX_XRT", "AIE_XCLBINUTIL"):
        monkeypatch.delenv(v, raising=False)
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not any(os.path.exists(os.path.join(d, n)) for n in ("aiecc", "aiecc.py", "xclbinutil"))]
    monkeypatch.setenv("PATH", os.pathsep.join(keep))
    monkeypatch.setattr(xdna, "_package_dirs", lambda module: [])
    log = tmp_path / "calls.log"
    log.write_text("")
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.chdir(tmp_path)  # outside any project: doctor writes no cache into the checkout
    return log


@pytest.fixture
def fakes(clean_env, monkeypatch, tmp_path):
    """legacy aiecc.py via MLIR_AIE_INSTALL_DIR, Peano via PEANO_INSTALL_DIR, xclbinutil on PATH."""
    mlir_aie = tmp_path / "mlir_aie"
    peano = tmp_path / "llvm-aie"
    path_bin = tmp_path / "pathbin"
    fake_aiecc(mlir_aie / "bin", "legacy", name="aiecc.py")
    fake_clang(peano)
    fake_xclbinutil(path_bin)
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(mlir_aie))
    monkeypatch.setenv("PEANO_INSTALL_DIR", str(peano))
    monkeypatch.setenv("PATH", str(path_bin) + os.pathsep + os.environ["PATH"])
    return {"mlir_aie": mlir_aie, "peano": peano, "path_bin": path_bin, "log": clean_env}


def _calls(log: Path) -> int:
    return len(log.read_text().splitlines())


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


def test_mlir_dialect_boundary():
    assert xdna.detect_mlir_dialect("0.0.1.2025111700+gabc") == "aiex.runtime_sequence"
    assert xdna.detect_mlir_dialect("0.0.1.2025111800+gabc") == "aie.runtime_sequence"
    assert xdna.detect_mlir_dialect("1.2.0.2026080400") == "aie.runtime_sequence"
    assert xdna.detect_mlir_dialect("1.0") is None
    assert xdna.detect_mlir_dialect(None) is None
    assert xdna.detect_mlir_dialect("1.0", "new") == "aie.runtime_sequence"


def test_doctor_with_fakes(fakes, capsys):
    assert cli.main(["doctor", "--strict"]) == 0
    out = capsys.readouterr().out
    (aiecc,) = [l for l in out.splitlines() if l.startswith("aiecc:")]
    assert "aiecc.py" in aiecc and "version 0.0.1.2025060100+g1234abc" in aiecc
    assert "CLI legacy" in aiecc and "MLIR aiex.runtime_sequence" in aiecc
    assert "not found" not in "\n".join(l for l in out.splitlines() if not l.startswith("pyxrt:"))
    assert cli.main(["doctor", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["xdna"]["aiecc"]["cli_dialect"] == "legacy" and len(doc["xdna_fingerprint"]) == 64


# ---- fingerprint ------------------------------------------------------------------------------


def test_fingerprint_cached_and_content_sensitive(fakes, tmp_path, monkeypatch):
    log, cache = fakes["log"], tmp_path / "cache"
    tools = xdna.find_xdna_tools(probe_versions=False)
    assert _calls(log) == 0
    fp1 = xdna.xdna_fingerprint(tools, cache)
    assert fp1["versions"] == {"aiecc": "0.0.1.2025060100+g1234abc", "peano": "19.0.0git", "xclbinutil": "2.19.0"}
    assert set(fp1["sha256"]) == {"aiecc", "peano_clang++", "peano_opt", "peano_llc", "xclbinutil"}
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
