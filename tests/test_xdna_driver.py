"""Driving aiecc and Peano clang++: command lines, temp dirs, logs, failures.

No real toolchain is needed: fake_aiecc_compiler writes a small Python script
that behaves like aiecc as far as npubuild can tell (parses the options of one
CLI dialect and rejects the rest, records its argv/cwd/env, writes or omits
its outputs as FAKE_AIECC_MODE says); fake_clang / fake_xclbinutil come from
test_xdna_toolchain.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from npubuild.core.errors import UserError
from npubuild.core.fsio import TMP_PREFIX
from npubuild.toolchain import aiecc, tool_run, xdna
from npubuild.toolchain.host import LOG_TAIL_LINES

from .test_xdna_toolchain import clean_env, fake_clang, fake_xclbinutil  # noqa: F401  (clean_env is a fixture)

DESIGN = "module {\n  aie.device(npu1_1col) {\n  }\n}\n"

_FAKE_AIECC = r'''#!@PYTHON@
import json, os, shutil, subprocess, sys, time
DIALECT = "@DIALECT@"
FLAGS = {
    "legacy": {"--no-compile-host", "--no-xchesscc", "--no-xbridge", "--aie-generate-xclbin", "--aie-generate-npu-insts"},
    "new": {"--get-xclbin", "--get-npu-insts"},
}[DIALECT]
VALUED = ("--peano=", "--xclbin-name=", "--npu-insts-name=", "--tmpdir=")
args = sys.argv[1:]
files = {n: open(n, "rb").read().decode("latin-1") for n in sorted(os.listdir(".")) if os.path.isfile(n)}
with open(os.environ["FAKE_AIECC_RECORD"], "a") as f:
    f.write(json.dumps({"argv": args, "cwd": os.getcwd(), "files": files,
                        "PEANO_INSTALL_DIR": os.environ.get("PEANO_INSTALL_DIR"),
                        "AIE_XCLBINUTIL": os.environ.get("AIE_XCLBINUTIL"),
                        "xclbinutil": shutil.which("xclbinutil")}) + "\n")
opts = {}
for a in args[:-1]:
    if a in FLAGS:
        continue
    for v in VALUED:
        if a.startswith(v):
            opts[v[2:-1]] = a[len(v):]
            break
    else:
        print(f"aiecc: Unknown command line argument '{a}'.")
        sys.exit(1)
mode = os.environ.get("FAKE_AIECC_MODE", "ok")
print(f"fake aiecc ({DIALECT}) compiling {args[-1]}")
os.makedirs(opts["tmpdir"], exist_ok=True)
with open(os.path.join(opts["tmpdir"], "input_physical.mlir"), "w") as f:
    f.write("// intermediate\n")
if mode == "fail":
    for i in range(1, 41):
        print(f"FAKE-ERR-{i:02d} lowering went wrong")
    sys.exit(3)
if mode == "hang":
    child = subprocess.Popen(["sleep", "60"])
    with open(os.environ["FAKE_AIECC_CHILD"], "w") as f:
        f.write(str(child.pid))
    time.sleep(60)
xclbin = {"ok": b"XCLBIN", "empty-xclbin": b"", "odd-insts": b"XCLBIN", "no-insts": b"XCLBIN"}.get(mode)
if shutil.which("xclbinutil") is None:
    xclbin = None
    if "-v" in args:
        print("Warning: xclbinutil not found, skipping xclbin generation")
if xclbin is not None:
    with open(opts["xclbin-name"], "wb") as f:
        f.write(xclbin + b"".join(v.encode("latin-1") for n, v in files.items() if n.endswith(".o")))
insts = {"ok": b"\x01\x00\x00\x00\x02\x00\x00\x00", "no-xclbin": b"\x01\x00\x00\x00",
         "empty-xclbin": b"\x01\x00\x00\x00", "odd-insts": b"\x01\x00\x00"}.get(mode)
if insts is not None:
    with open(opts["npu-insts-name"], "wb") as f:
        f.write(insts)
sys.exit(0)
'''


def fake_aiecc_compiler(bin_dir: Path, dialect: str) -> Path:
    """An aiecc that compiles nothing but honours the options of ``dialect``."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    p = bin_dir / "aiecc"
    p.write_text(_FAKE_AIECC.replace("@PYTHON@", sys.executable).replace("@DIALECT@", dialect))
    p.chmod(0o755)
    return p


# Peano clang++ double: writes "OBJ:<args>" to the -o file, or fails / writes nothing.
_FAKE_CLANG_COMPILE = r'''out=""; prev=""
for a in "$@"; do
  if [ "$prev" = "-o" ]; then out="$a"; fi
  prev="$a"
done
case "${FAKE_CLANG_MODE:-ok}" in
  fail) i=1; while [ $i -le 30 ]; do echo "FAKE-CLANG-ERR-$i: no matching function"; i=$((i+1)); done; exit 1 ;;
  no-output) exit 0 ;;
  *) [ -n "$out" ] && printf 'OBJ' > "$out" ;;
esac
'''


@pytest.fixture
def driver_env(clean_env, monkeypatch, tmp_path):
    """Peano via PEANO_INSTALL_DIR, xclbinutil only via XILINX_XRT (not on PATH)."""
    for v in (tool_run.TIMEOUT_ENV, aiecc.INCLUDE_ENV):
        monkeypatch.delenv(v, raising=False)
    peano = tmp_path / "llvm-aie"
    fake_clang(peano, extra=_FAKE_CLANG_COMPILE)
    fake_xclbinutil(tmp_path / "xrt" / "bin")
    monkeypatch.setenv("PEANO_INSTALL_DIR", str(peano))
    monkeypatch.setenv("XILINX_XRT", str(tmp_path / "xrt"))
    record = tmp_path / "aiecc-calls.jsonl"
    monkeypatch.setenv("FAKE_AIECC_RECORD", str(record))
    return {"peano": peano, "xrt_bin": tmp_path / "xrt" / "bin", "record": record, "log": clean_env}


def _tools(tmp_path: Path, monkeypatch, dialect: str) -> dict:
    prefix = tmp_path / f"mlir_aie_{dialect}"
    fake_aiecc_compiler(prefix / "bin", dialect)
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(prefix))
    tools = xdna.find_xdna_tools(probe_versions=False)
    assert all(t["missing"] is None for t in tools.values()), tools
    return tools


def _records(path: Path) -> list[dict]:
    return [json.loads(l) for l in path.read_text().splitlines()] if path.exists() else []


def _listing(d: Path) -> list[str]:
    return sorted(os.listdir(d))


# ---- aiecc command lines ----------------------------------------------------------------------


def test_aiecc_argv_legacy():
    argv = aiecc.aiecc_argv(
        "/opt/mlir_aie/bin/aiecc", "legacy", "aie.mlir", tmpdir="/b/prj", xclbin="final.xclbin", insts="insts.bin",
        peano_dir="/opt/llvm-aie",
    )
    assert argv == [
        "/opt/mlir_aie/bin/aiecc",
        "--no-compile-host",
        "--no-xchesscc",
        "--no-xbridge",
        "--peano=/opt/llvm-aie",
        "--aie-generate-xclbin",
        "--xclbin-name=final.xclbin",
        "--aie-generate-npu-insts",
        "--npu-insts-name=insts.bin",
        "--tmpdir=/b/prj",
        "aie.mlir",
    ]
    no_peano = aiecc.aiecc_argv("aiecc", "legacy", "d.mlir", tmpdir="t", xclbin="x.xclbin", insts="i.bin", peano_dir=None)
    assert no_peano == [
        "aiecc", "--no-compile-host", "--no-xchesscc", "--no-xbridge", "--aie-generate-xclbin", "--xclbin-name=x.xclbin",
        "--aie-generate-npu-insts", "--npu-insts-name=i.bin", "--tmpdir=t", "d.mlir",
    ]


def test_aiecc_argv_new():
    argv = aiecc.aiecc_argv(
        "/opt/mlir_aie/bin/aiecc", "new", "aie.mlir", tmpdir="/b/prj", xclbin="final.xclbin", insts="insts.bin",
        peano_dir="/opt/llvm-aie",
    )
    assert argv == [
        "/opt/mlir_aie/bin/aiecc",
        "--peano=/opt/llvm-aie",
        "--get-xclbin",
        "--xclbin-name=final.xclbin",
        "--get-npu-insts",
        "--npu-insts-name=insts.bin",
        "--tmpdir=/b/prj",
        "aie.mlir",
    ]
    assert aiecc.aiecc_argv("aiecc", "new", "d.mlir", tmpdir="t", xclbin="x", insts="i", peano_dir=None) == [
        "aiecc", "--get-xclbin", "--xclbin-name=x", "--get-npu-insts", "--npu-insts-name=i", "--tmpdir=t", "d.mlir",
    ]


def test_aiecc_argv_unknown_dialect():
    with pytest.raises(UserError, match="unknown aiecc CLI dialect"):
        aiecc.aiecc_argv("aiecc", None, "d.mlir", tmpdir="t", xclbin="x", insts="i", peano_dir=None)


# ---- compile_design ---------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["legacy", "new"])
def test_compile_design_success(driver_env, monkeypatch, tmp_path, dialect):
    tools = _tools(tmp_path, monkeypatch, dialect)
    out = tmp_path / "kernels" / "k1" / "xdna"
    log = out / "build.log"
    aiecc.compile_design(DESIGN, out, log, tools=tools, cli_dialect=dialect)
    assert (out / "final.xclbin").read_bytes() == b"XCLBIN"
    assert (out / "insts.bin").read_bytes() == b"\x01\x00\x00\x00\x02\x00\x00\x00"
    assert _listing(out) == ["build.log", "final.xclbin", "insts.bin", "resources.json"]
    (rec,) = _records(driver_env["record"])
    cwd = Path(rec["cwd"])
    assert cwd.parent == out and cwd.name.startswith(TMP_PREFIX) and not cwd.exists()
    assert [tools["aiecc"]["path"], *rec["argv"]] == aiecc.aiecc_argv(
        tools["aiecc"]["path"], dialect, "aie.mlir", tmpdir=str(cwd / "prj"), xclbin="final.xclbin",
        insts="insts.bin", peano_dir=str(driver_env["peano"]),
    )
    assert rec["files"] == {"aie.mlir": DESIGN}
    assert rec["PEANO_INSTALL_DIR"] == str(driver_env["peano"])
    # xclbinutil is not on the caller's PATH (clean_env); the driver puts its directory first
    assert rec["xclbinutil"] == str(driver_env["xrt_bin"] / "xclbinutil")
    assert rec["AIE_XCLBINUTIL"] == str(driver_env["xrt_bin"] / "xclbinutil")
    text = log.read_text()
    assert f"--tmpdir={cwd / 'prj'}" in text and f"fake aiecc ({dialect}) compiling aie.mlir" in text
    assert f"PEANO_INSTALL_DIR={driver_env['peano']}" in text and "[exit 0]" in text
    assert text.rstrip().endswith("# ok")


def test_wrong_dialect_is_rejected_by_the_fake(driver_env, monkeypatch, tmp_path):
    """The legacy options are unknown to the declarative aiecc: the failure surfaces."""
    tools = _tools(tmp_path, monkeypatch, "new")
    out = tmp_path / "out"
    with pytest.raises(UserError, match="Unknown command line argument '--no-compile-host'"):
        aiecc.compile_design(DESIGN, out, out / "build.log", tools=tools, cli_dialect="legacy")
    assert _listing(out) == ["build.log"]


@pytest.fixture
def previous(tmp_path):
    out = tmp_path / "kernels" / "k1" / "xdna"
    out.mkdir(parents=True)
    (out / "final.xclbin").write_bytes(b"OLD-XCLBIN")
    (out / "insts.bin").write_bytes(b"OLDI")
    return out


def _assert_previous_kept(out: Path):
    assert (out / "final.xclbin").read_bytes() == b"OLD-XCLBIN"
    assert (out / "insts.bin").read_bytes() == b"OLDI"
    assert _listing(out) == ["build.log", "final.xclbin", "insts.bin"]


@pytest.mark.parametrize(
    "mode, expect",
    [
        ("no-xclbin", "did not write final.xclbin (aiecc skips the xclbin"),
        ("no-insts", "did not write insts.bin"),
        ("empty-xclbin", "wrote an empty final.xclbin"),
        ("odd-insts", "insts.bin has 3 bytes, not a whole number of 32-bit instruction words"),
    ],
)
def test_exit_zero_without_good_outputs_fails(driver_env, monkeypatch, tmp_path, previous, mode, expect):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    monkeypatch.setenv("FAKE_AIECC_MODE", mode)
    log = previous / "build.log"
    with pytest.raises(UserError) as ei:
        aiecc.compile_design(DESIGN, previous, log, tools=tools, cli_dialect="legacy")
    msg = str(ei.value)
    assert msg.startswith(f"xdna compile of {previous} failed (full log: {log}):\n")
    assert expect in msg and "[exit 0]" in msg
    _assert_previous_kept(previous)
    assert expect in log.read_text() and log.read_text().rstrip().endswith("# FAILED")


def test_nonzero_exit_reports_log_tail(driver_env, monkeypatch, tmp_path, previous):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    monkeypatch.setenv("FAKE_AIECC_MODE", "fail")
    log = previous / "build.log"
    with pytest.raises(UserError) as ei:
        aiecc.compile_design(DESIGN, previous, log, tools=tools, cli_dialect="legacy")
    msg = str(ei.value)
    tail = msg.split("\n", 1)[1].splitlines()
    assert len(tail) == LOG_TAIL_LINES
    assert tail[-2:] == ["[exit 3]", "# FAILED"] and tail[-3] == "FAKE-ERR-40 lowering went wrong"
    assert "FAKE-ERR-01" not in msg
    full = log.read_text()
    assert all(f"FAKE-ERR-{i:02d} lowering went wrong" in full for i in range(1, 41))
    assert "--aie-generate-xclbin" in full and "PEANO_INSTALL_DIR=" in full
    _assert_previous_kept(previous)


def test_timeout_kills_aiecc_and_its_children(driver_env, monkeypatch, tmp_path, previous):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    child_file = tmp_path / "child.pid"
    monkeypatch.setenv("FAKE_AIECC_MODE", "hang")
    monkeypatch.setenv("FAKE_AIECC_CHILD", str(child_file))
    monkeypatch.setenv(tool_run.TIMEOUT_ENV, "1")
    t0 = time.monotonic()
    with pytest.raises(UserError, match=r"timed out after 1 s"):
        aiecc.compile_design(DESIGN, previous, previous / "build.log", tools=tools, cli_dialect="legacy")
    assert time.monotonic() - t0 < 20
    _assert_previous_kept(previous)
    pid = int(child_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            break
        if state in ("Z", "X"):
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"aiecc's child {pid} survived the timeout")


def test_the_aiecc_timeout_limit_applies_without_the_env_var(driver_env, monkeypatch, tmp_path, previous):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    monkeypatch.setenv("FAKE_AIECC_MODE", "hang")
    monkeypatch.delenv(tool_run.TIMEOUT_ENV, raising=False)
    with pytest.raises(UserError, match=r"timed out after 1 s \(killed; limits.aiecc_timeout"):
        aiecc.compile_design(DESIGN, previous, previous / "build.log", tools=tools, cli_dialect="legacy", timeout=1.0)
    _assert_previous_kept(previous)
    monkeypatch.setenv(tool_run.TIMEOUT_ENV, "1")  # the environment wins over the project's limit
    with pytest.raises(UserError, match=r"timed out after 1 s"):
        aiecc.compile_design(DESIGN, previous, previous / "build.log", tools=tools, cli_dialect="legacy", timeout=3600.0)


def test_bad_timeout_value(driver_env, monkeypatch, tmp_path):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    monkeypatch.setenv(tool_run.TIMEOUT_ENV, "soon")
    with pytest.raises(UserError, match="NPUBUILD_AIECC_TIMEOUT='soon'"):
        aiecc.compile_design(DESIGN, tmp_path / "o", tmp_path / "o" / "build.log", tools=tools, cli_dialect="legacy")
    assert _records(driver_env["record"]) == []


def test_each_compile_has_its_own_temp_dir(driver_env, monkeypatch, tmp_path):
    tools = _tools(tmp_path, monkeypatch, "new")
    out = tmp_path / "xdna"
    for _ in range(2):
        aiecc.compile_design(DESIGN, out, out / "build.log", tools=tools, cli_dialect="new")
    r1, r2 = _records(driver_env["record"])
    assert r1["cwd"] != r2["cwd"]
    tmpdirs = [next(a for a in r["argv"] if a.startswith("--tmpdir=")) for r in (r1, r2)]
    assert tmpdirs[0] != tmpdirs[1]
    for r, t in zip((r1, r2), tmpdirs):
        assert t == f"--tmpdir={r['cwd']}/prj" and not Path(r["cwd"]).exists()
    assert _listing(out) == ["build.log", "final.xclbin", "insts.bin", "resources.json"]


def test_linked_objects_copied_by_basename(driver_env, monkeypatch, tmp_path):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    mm = tmp_path / "a" / "mm_32x32x32.o"
    mm.write_bytes(b"<mm>")
    scale = tmp_path / "b" / "scale.o"
    scale.write_bytes(b"<scale>")
    same = tmp_path / "b" / "mm_32x32x32.o"
    same.write_bytes(b"<mm>")  # same basename, same content: one copy
    out = tmp_path / "out"
    aiecc.compile_design(DESIGN, out, out / "build.log", tools=tools, cli_dialect="legacy", objects=[mm, scale, same])
    (rec,) = _records(driver_env["record"])
    assert rec["files"] == {"aie.mlir": DESIGN, "mm_32x32x32.o": "<mm>", "scale.o": "<scale>"}
    assert (out / "final.xclbin").read_bytes() == b"XCLBIN<mm><scale>"


def test_linked_object_basename_clash_refused(driver_env, monkeypatch, tmp_path, previous):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "k.o").write_bytes(b"one")
    (tmp_path / "b" / "k.o").write_bytes(b"two")
    with pytest.raises(UserError) as ei:
        aiecc.compile_design(
            DESIGN, previous, previous / "build.log", tools=tools, cli_dialect="legacy",
            objects=[tmp_path / "a" / "k.o", tmp_path / "b" / "k.o"],
        )
    assert "share the basename 'k.o' but differ" in str(ei.value) and "\n" not in str(ei.value)
    assert _records(driver_env["record"]) == []
    _assert_previous_kept(previous)
    with pytest.raises(UserError, match="does not exist"):
        aiecc.compile_design(DESIGN, previous, previous / "build.log", tools=tools, cli_dialect="legacy",
                             objects=[tmp_path / "nope.o"])
    (tmp_path / "insts.bin").write_bytes(b"x")
    with pytest.raises(UserError, match="reserved"):
        aiecc.compile_design(DESIGN, previous, previous / "build.log", tools=tools, cli_dialect="legacy",
                             objects=[tmp_path / "insts.bin"])


@pytest.mark.parametrize("tool", ["aiecc", "peano", "xclbinutil"])
def test_missing_tool_is_one_clear_line(driver_env, monkeypatch, tmp_path, tool):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    tools[tool] = {"path": None, "missing": f"not found: {tool} (looked in X); install it"}
    out = tmp_path / "out"
    with pytest.raises(UserError) as ei:
        aiecc.compile_design(DESIGN, out, out / "build.log", tools=tools, cli_dialect="legacy")
    msg = str(ei.value)
    assert "\n" not in msg and f"not found: {tool} (looked in X); install it" in msg
    assert _records(driver_env["record"]) == []
    assert msg in (out / "build.log").read_text() and _listing(out) == ["build.log"]


def test_unknown_cli_dialect_refused(driver_env, monkeypatch, tmp_path):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    with pytest.raises(UserError, match="unknown CLI dialect"):
        aiecc.compile_design(DESIGN, tmp_path / "o", tmp_path / "o" / "build.log", tools=tools, cli_dialect=None)


# ---- Peano ------------------------------------------------------------------------------------

_WARN = [
    "-Wno-parentheses",
    "-Wno-attributes",
    "-Wno-macro-redefined",
    "-Wno-empty-body",
    "-Wno-missing-template-arg-list-after-template-kw",
]


def test_peano_argv_aie2():
    argv = aiecc.peano_argv(
        "/p/bin/clang++", "aie2", "/i/aie_kernels/aie2/mm.cc", "mm.o", ["/i"], ["bf16_bf16_ONLY", "DIM_M=32"]
    )
    assert argv == [
        "/p/bin/clang++", "-O2", "-std=c++20", "--target=aie2-none-unknown-elf", *_WARN, "-DNDEBUG", "-fstack-size-section", "-I/i",
        "-Dbf16_bf16_ONLY", "-DDIM_M=32", "-c", "/i/aie_kernels/aie2/mm.cc", "-o", "mm.o",
    ]


def test_peano_argv_aie2p():
    argv = aiecc.peano_argv("clang++", "aie2p", "k.cc", "k.o", ["/i", "/j"], [])
    assert argv == [
        "clang++", "-O2", "-std=c++20", "--target=aie2p-none-unknown-elf", *_WARN, "-DNDEBUG", "-fstack-size-section", "-I/i", "-I/j",
        "-c", "k.cc", "-o", "k.o",
    ]


def test_peano_argv_rejects_bad_input():
    with pytest.raises(UserError, match="unknown AIE architecture 'aie1'"):
        aiecc.peano_argv("clang++", "aie1", "k.cc", "k.o", [], [])
    with pytest.raises(UserError, match="bad define"):
        aiecc.peano_argv("clang++", "aie2", "k.cc", "k.o", [], ["-DX"])


@pytest.fixture
def kernel_src(tmp_path):
    src = tmp_path / "src" / "aie_kernels" / "aie2" / "mm.cc"
    src.parent.mkdir(parents=True)
    src.write_text('#include "zero.cc"\n')
    return src


def test_compile_object_success(driver_env, monkeypatch, tmp_path, kernel_src):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    out = tmp_path / "objs" / "mm_32x32x32.o"
    log = tmp_path / "objs" / "mm.log"
    monkeypatch.chdir(tmp_path)
    aiecc.compile_object(kernel_src, out, log, tools=tools, arch="aie2", include_dirs=["src"], defines=["DIM_M=32"])
    assert out.read_bytes() == b"OBJ"
    assert _listing(out.parent) == ["mm.log", "mm_32x32x32.o"]
    calls = [l for l in driver_env["log"].read_text().splitlines() if l.startswith("clang++ ")]
    assert calls == [
        "clang++ " + " ".join(
            aiecc.peano_argv("x", "aie2", str(kernel_src), "mm_32x32x32.o", [str(tmp_path / "src")], ["DIM_M=32"])[1:]
        )
    ]
    text = log.read_text()
    assert "--target=aie2-none-unknown-elf" in text and "clang version" in text and text.rstrip().endswith("# ok")


def test_compile_object_failure_keeps_previous(driver_env, monkeypatch, tmp_path, kernel_src):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    out = tmp_path / "objs" / "mm.o"
    out.parent.mkdir()
    out.write_bytes(b"OLD")
    log = out.parent / "mm.log"
    monkeypatch.setenv("FAKE_CLANG_MODE", "fail")
    with pytest.raises(UserError) as ei:
        aiecc.compile_object(kernel_src, out, log, tools=tools, arch="aie2p", include_dirs=[], defines=[])
    msg = str(ei.value)
    assert msg.startswith(f"Peano compile of mm.cc failed (full log: {log}):\n")
    assert "FAKE-CLANG-ERR-30: no matching function" in msg and "FAKE-CLANG-ERR-1:" not in msg
    assert "FAKE-CLANG-ERR-1: no matching function" in log.read_text()
    assert out.read_bytes() == b"OLD" and _listing(out.parent) == ["mm.log", "mm.o"]


def test_compile_object_exit_zero_without_output(driver_env, monkeypatch, tmp_path, kernel_src):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    out = tmp_path / "objs" / "mm.o"
    monkeypatch.setenv("FAKE_CLANG_MODE", "no-output")
    with pytest.raises(UserError, match="clang\\+\\+ exited 0 but did not write mm.o"):
        aiecc.compile_object(kernel_src, out, out.parent / "mm.log", tools=tools, arch="aie2", include_dirs=[], defines=[])
    assert _listing(out.parent) == ["mm.log"]


def test_compile_object_preflight(driver_env, monkeypatch, tmp_path, kernel_src):
    tools = _tools(tmp_path, monkeypatch, "legacy")
    out = tmp_path / "objs" / "mm.o"
    with pytest.raises(UserError, match="unknown AIE architecture 'npu1'"):
        aiecc.compile_object(kernel_src, out, out.parent / "mm.log", tools=tools, arch="npu1", include_dirs=[], defines=[])
    tools["peano"] = {"path": None, "missing": "not found: Peano clang++ (looked in Y); install Peano"}
    with pytest.raises(UserError, match=r"^cannot compile mm.cc: not found: Peano clang\+\+ \(looked in Y\); install Peano$"):
        aiecc.compile_object(kernel_src, out, out.parent / "mm.log", tools=tools, arch="aie2", include_dirs=[], defines=[])
    assert "# FAILED" in (out.parent / "mm.log").read_text() and not out.exists()


# ---- kernel sources ---------------------------------------------------------------------------


def _kernel_tree(root: Path, layout: str = "new", arches=("aie2", "aie2p")) -> Path:
    """A fake mlir-aie install at root: include/aie_api plus aie_kernels/<arch>/mm.cc
    under include/ (layout "new", mlir-aie #2596) or beside it ("old")."""
    inc = root / "include"
    (inc / "aie_api").mkdir(parents=True)
    (inc / "aie_api" / "aie.hpp").write_text("")
    kernels = inc / "aie_kernels" if layout == "new" else root / "aie_kernels"
    for arch in arches:
        (kernels / arch).mkdir(parents=True)
        (kernels / arch / "mm.cc").write_text("")
    (kernels / "aie_kernel_utils.h").write_text("")
    return inc


@pytest.fixture
def no_sources(driver_env, monkeypatch):
    monkeypatch.delenv("MLIR_AIE_INSTALL_DIR", raising=False)
    return {"aiecc": {"path": None}}


def test_locate_sources_env_override(no_sources, monkeypatch, tmp_path):
    inc = _kernel_tree(tmp_path / "custom")
    monkeypatch.setenv(aiecc.INCLUDE_ENV, str(inc))
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(tmp_path / "elsewhere"))
    _kernel_tree(tmp_path / "elsewhere")
    assert aiecc.locate_kernel_sources(no_sources, "aie2p") == {
        "mm_cc": str(inc / "aie_kernels" / "aie2p" / "mm.cc"), "include": str(inc), "missing": None,
    }
    old = _kernel_tree(tmp_path / "old", layout="old")
    monkeypatch.setenv(aiecc.INCLUDE_ENV, str(old))
    r = aiecc.locate_kernel_sources(no_sources, "aie2")
    assert r["mm_cc"] == str(tmp_path / "old" / "aie_kernels" / "aie2" / "mm.cc") and r["include"] == str(old)
    # set but wrong: reported, no fallback to MLIR_AIE_INSTALL_DIR
    monkeypatch.setenv(aiecc.INCLUDE_ENV, str(tmp_path / "custom"))
    r = aiecc.locate_kernel_sources(no_sources, "aie2")
    assert r["mm_cc"] is None and r["include"] is None
    assert r["missing"].startswith(f"${aiecc.INCLUDE_ENV}={tmp_path / 'custom'} does not hold aie_api/")


@pytest.mark.parametrize("layout", ["new", "old"])
def test_locate_sources_mlir_aie_install_dir(no_sources, monkeypatch, tmp_path, layout):
    inc = _kernel_tree(tmp_path / "mlir_aie", layout)
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(tmp_path / "mlir_aie"))
    r = aiecc.locate_kernel_sources(no_sources, "aie2")
    kernels = inc / "aie_kernels" if layout == "new" else tmp_path / "mlir_aie" / "aie_kernels"
    assert r == {"mm_cc": str(kernels / "aie2" / "mm.cc"), "include": str(inc), "missing": None}


def test_locate_sources_next_to_aiecc_and_package(no_sources, monkeypatch, tmp_path):
    inc = _kernel_tree(tmp_path / "prefix")
    r = aiecc.locate_kernel_sources({"aiecc": {"path": str(tmp_path / "prefix" / "bin" / "aiecc")}}, "aie2")
    assert r["include"] == str(inc) and r["missing"] is None
    pkg_inc = _kernel_tree(tmp_path / "site" / "mlir_aie")
    monkeypatch.setattr(xdna, "_package_dirs", lambda m: [str(tmp_path / "site" / "mlir_aie" / "python" / "aie")])
    r = aiecc.locate_kernel_sources(no_sources, "aie2p")
    assert r["include"] == str(pkg_inc) and r["mm_cc"].endswith("aie_kernels/aie2p/mm.cc")


def test_locate_sources_missing(no_sources, monkeypatch, tmp_path):
    r = aiecc.locate_kernel_sources(no_sources, "aie2")
    assert r["mm_cc"] is None and r["include"] is None
    assert r["missing"].startswith("not found: aie_api/ and aie_kernels/aie2/mm.cc (looked in nowhere")
    assert aiecc.INCLUDE_ENV in r["missing"] and "\n" not in r["missing"]
    # a tree without aie_api/ or without this arch's mm.cc does not count
    inc = _kernel_tree(tmp_path / "mlir_aie", arches=("aie2",))
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(tmp_path / "mlir_aie"))
    r = aiecc.locate_kernel_sources(no_sources, "aie2p")
    assert r["mm_cc"] is None and f"looked in {inc}" in r["missing"]
    (inc / "aie_api" / "aie.hpp").unlink()
    (inc / "aie_api").rmdir()
    assert aiecc.locate_kernel_sources(no_sources, "aie2")["mm_cc"] is None
    with pytest.raises(UserError):
        aiecc.locate_kernel_sources(no_sources, "aie3")


def test_legacy_aiecc_with_an_opt_level_option_runs_opt_at_o1():
    """mlir-aie #2894: Peano's opt above O1 can crash GlobalISel; legacy drivers that take
    -O/--opt-level (Python aiecc since #2710, the C++ aiecc's alias "opt-level") get 1."""
    from npubuild.toolchain import xdna

    legacy_help = "  --aie-generate-xclbin   Generate xclbin\n  -O=<uint>  - Optimization level (0-3)\n  --opt-level=<uint> - Alias for -O\n"
    assert xdna.detect_opt_level("legacy", legacy_help) == 1
    assert xdna.detect_opt_level("legacy", "  --aie-generate-xclbin   Generate xclbin\n") is None  # hard-coded O2: no option
    assert xdna.detect_opt_level("new", legacy_help) is None  # the declarative driver caps opt itself
    argv = aiecc.aiecc_argv("aiecc", "legacy", "d.mlir", tmpdir="t", xclbin="x.xclbin", insts="i.bin", peano_dir=None, opt_level=1)
    assert argv[argv.index("--no-xbridge") + 1] == "--opt-level=1" and argv[-1] == "d.mlir"
    new = aiecc.aiecc_argv("aiecc", "new", "d.mlir", tmpdir="t", xclbin="x.xclbin", insts="i.bin", peano_dir=None, opt_level=1)
    assert not [a for a in new if a.startswith("--opt-level")]
