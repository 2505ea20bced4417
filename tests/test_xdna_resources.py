"""Stack and program memory measured on each core ELF after an xdna compile.

No NPU toolchain is here, so two test doubles stand in for the real tools:

* ``fake_core_aiecc``: the aiecc double of test_xdna_driver (same options, same
  outputs) that first writes one stand-in core ELF per ``aie.core`` of the design
  into its ``--tmpdir``, named as mlir-aie's C++ aiecc names them
  (``<device>_core_<col>_<row>.elf``, tools/aiecc/aiecc.cpp:2252 @1e400306). A
  stand-in is ``\\x7fELF`` followed by JSON saying what the ELF holds.
* ``fake_readelf``: Peano's ``llvm-readelf``, printing those contents in the real
  tool's GNU formats, copied from llvm/llvm-project's llvm-readobj tests:
  ``ELF/gnu-sections.test`` @2c47c28f (section headers, ELF32), ``ELF/symbols.test``
  @2811a388 (symbol table, GNU32), ``ELF/stack-sizes.test`` @7b3c1006 (the
  ``Stack Sizes:`` table of an executable: printed only when the ELF has a
  ``.stack_sizes`` section). It refuses options the real one would not be given.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from npubuild.artifacts.manifest_schema import schema_problems
from npubuild.core.errors import UserError
from npubuild.toolchain import aiecc, core_elf, tool_run, xdna

from .test_xdna_driver import _FAKE_CLANG_COMPILE, fake_aiecc_compiler
from .test_xdna_toolchain import clean_env, fake_aie_opt, fake_clang, fake_xclbinutil  # noqa: F401  (clean_env is a fixture)

GOLDEN = Path(__file__).parent / "golden" / "xdna"

_FAKE_READELF = r'''#!@PYTHON@
import json, sys
WANT = ["--wide", "--sections", "--symbols", "--stack-sizes"]
args = sys.argv[1:]
if args[:-1] != WANT:
    print(f"llvm-readelf: error: unknown argument '{args}'", file=sys.stderr)
    sys.exit(1)
data = open(args[-1], "rb").read()
if data[:4] != b"\x7fELF":
    print(f"llvm-readelf: error: '{args[-1]}': The file was not recognized as a valid object file", file=sys.stderr)
    sys.exit(1)
spec = json.loads(data[4:])
secs = [("", "NULL", 0, 0, "", 0), (".text", "PROGBITS", 0, spec["text"], "AX", 16)]
if spec.get("text2"):
    secs.append((".text.extra", "PROGBITS", spec["text"], spec["text2"], "AX", 16))
secs.append((".data", "PROGBITS", 0x70400, 64, "WA", 16))
if spec.get("stack_sizes", True):
    secs.append((".stack_sizes", "PROGBITS", 0, 5 * len(spec["frames"]), "", 1))
secs += [(".comment", "PROGBITS", 0, 19, "MS", 1), (".symtab", "SYMTAB", 0, 160, "", 4),
         (".shstrtab", "STRTAB", 0, 60, "", 1), (".strtab", "STRTAB", 0, 90, "", 1)]
print(f"There are {len(secs)} section headers, starting at offset 0x1f4:")
print()
print("Section Headers:")
print("  [Nr] Name              Type            Address  Off    Size   ES Flg Lk Inf Al")
off = 0x34
for i, (name, typ, addr, size, flg, al) in enumerate(secs):
    o = 0 if i == 0 else off
    off += size
    print(f"  [{i:2}] {name:<17} {typ:<15} {addr:08x} {o:06x} {size:06x} {0:02x} {flg:>3} {0:2} {0:3} {al:2}")
print("Key to Flags:")
print("  W (write), A (alloc), X (execute), M (merge), S (strings), I (info),")
print("  L (link order), O (extra OS processing required), G (group), T (TLS),")
print("  C (compressed), x (unknown), o (OS specific), E (exclude),")
print("  R (retain), p (processor specific)")
syms = [("", "NOTYPE", "LOCAL", "UND", 0), ("_sp_start_value_DM_stack", "NOTYPE", "GLOBAL", "ABS", 0)]
syms += [(f, "FUNC", "GLOBAL", "1", 64) for f in spec["functions"]]
syms.append(("__mulsf3_undefined", "FUNC", "GLOBAL", "UND", 0))
print()
print(f"Symbol table '.symtab' contains {len(syms)} entries:")
print("   Num:    Value  Size Type    Bind   Vis       Ndx Name")
for i, (name, typ, bind, ndx, size) in enumerate(syms):
    print(f"{i:6}: {16 * i:08x} {size:5} {typ:<7} {bind:<6} {'DEFAULT':<7} {ndx:>5} {name}")
if spec.get("stack_sizes", True):
    print()
    print("Stack Sizes:")
    print("         Size     Functions")
    for size, names in spec["frames"]:
        print(f"{size:>13}     {names}")
'''

_FAKE_CORE_AIECC = r'''#!@PYTHON@
import json, os, re, sys
args = sys.argv[1:]
tmpdir = next((a.split("=", 1)[1] for a in args if a.startswith("--tmpdir=")), None)
if tmpdir is not None:
    text = open(args[-1]).read()
    tiles = dict((n, (int(c), int(r))) for n, c, r in re.findall(r"(%\w+) = aie\.tile\((\d+), (\d+)\)", text))
    specs = json.loads(os.environ.get("FAKE_CORE_ELF", "{}"))
    os.makedirs(tmpdir, exist_ok=True)
    for name in re.findall(r"aie\.core\((%\w+)\)", text):
        c, r = tiles[name]
        key = f"core_{c}_{r}"
        spec = {"text": 4096, "functions": ["__start", key], "frames": [[96, key]], **specs.get("default", {}),
                **specs.get(key, {})}
        with open(os.path.join(tmpdir, f"main_{key}.elf"), "wb") as f:
            f.write(b"\x7fELF" + json.dumps(spec).encode())
        with open(os.path.join(tmpdir, f"main_{key}.ld.script"), "w") as f:
            f.write("MEMORY { program (RX) : ORIGIN = 0, LENGTH = 0x0020000 }\n")
os.execv("@INNER@", ["@INNER@", *args])
'''


def fake_readelf(peano: Path) -> Path:
    p = peano / "bin" / "llvm-readelf"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(_FAKE_READELF.replace("@PYTHON@", sys.executable))
    p.chmod(0o755)
    return p


def fake_core_aiecc(bin_dir: Path, dialect: str = "legacy") -> Path:
    inner = fake_aiecc_compiler(bin_dir / "inner", dialect)
    p = bin_dir / "aiecc"
    p.write_text(_FAKE_CORE_AIECC.replace("@PYTHON@", sys.executable).replace("@INNER@", str(inner)))
    p.chmod(0o755)
    return p


def _design(cores: dict) -> str:
    """A small design: one tile + core per (col, row) -> stack_size (None: no attribute)."""
    lines = ["module {", "  aie.device(npu1) {"]
    for (c, r) in cores:
        lines.append(f"    %core_{c}_{r} = aie.tile({c}, {r})")
    for (c, r), size in cores.items():
        lines += [f"    %run_{c}_{r} = aie.core(%core_{c}_{r}) {{", "      aie.end",
                  "    }" + (f" {{stack_size = {size} : i32}}" if size is not None else "")]
    return "\n".join(lines + ["  }", "}", ""])


@pytest.fixture
def tools(clean_env, monkeypatch, tmp_path):
    """aiecc (with core ELFs), Peano with llvm-readelf, xclbinutil; FAKE_AIECC_RECORD set."""
    for v in (tool_run.TIMEOUT_ENV, aiecc.INCLUDE_ENV):
        monkeypatch.delenv(v, raising=False)
    prefix, peano = tmp_path / "mlir_aie", tmp_path / "llvm-aie"
    fake_core_aiecc(prefix / "bin")
    fake_clang(peano, extra=_FAKE_CLANG_COMPILE)
    fake_readelf(peano)
    fake_xclbinutil(tmp_path / "xrt" / "bin")
    monkeypatch.setenv("MLIR_AIE_INSTALL_DIR", str(prefix))
    monkeypatch.setenv("PEANO_INSTALL_DIR", str(peano))
    monkeypatch.setenv("XILINX_XRT", str(tmp_path / "xrt"))
    monkeypatch.setenv("FAKE_AIECC_RECORD", str(tmp_path / "aiecc.jsonl"))
    t = xdna.find_xdna_tools(probe_versions=False)
    assert all(x["missing"] is None for x in t.values()), t
    return t


def _previous(out: Path) -> dict:
    out.mkdir(parents=True)
    files = {"final.xclbin": b"OLD-XCLBIN", "insts.bin": b"OLD!", "resources.json": b'{"old": 1}\n'}
    for n, b in files.items():
        (out / n).write_bytes(b)
    return files


# ---- the design and llvm-readelf's output ---------------------------------------------------------


def test_design_cores_from_emitted_designs():
    gemm = (GOLDEN / "matmul@npu1.mlir").read_text()
    assert core_elf.design_cores(gemm) == {(c, r): 3328 for c in range(4) for r in range(2, 6)}  # the 16-core GEMM
    assert core_elf.design_arch(gemm) == "aie2"
    assert core_elf.design_arch((GOLDEN / "matmul@npu2.mlir").read_text()) == "aie2p"
    binary = core_elf.design_cores((GOLDEN / "binary@npu1.mlir").read_text())
    assert binary and set(binary.values()) == {1024}
    # no attribute: the dialect's default 0x400 (AIEOps.td:400); a "}" inside a string does not end the region
    text = _design({(0, 2): None, (1, 3): 4096}).replace("aie.end", 'aie.end // "}" {stack_size = 9 : i32}')
    assert core_elf.design_cores(text) == {(0, 2): 0x400, (1, 3): 4096}


def test_parse_readelf_reads_the_real_formats():
    # rows verbatim from llvm-readobj's tests (see the module docstring)
    text = "\n".join([
        "There are 9 section headers, starting at offset 0x9c:", "", "Section Headers:",
        "  [Nr] Name              Type            Address  Off    Size   ES Flg Lk Inf Al",
        "  [ 0]                   NULL            00000000 000000 000000 00      0   0  0",
        "  [ 1] .text             PROGBITS        00000000 000034 000001 00  AX  0   0  4",
        "  [ 2] .rel.text         REL             00000000 000038 000000 08      6   1  4",
        "  [ 4] .data             PROGBITS        00000000 000038 000000 00  WA  0   0  4",
        "  [ 9] .text.core_0_2_long_name PROGBITS 00000040 000074 0001a0 00  AX  0   0 16",
        "Key to Flags:", "  W (write), A (alloc), X (execute), M (merge), S (strings), I (info),", "",
        "Symbol table '.symtab' contains 3 entries:", "   Num:    Value  Size Type    Bind   Vis       Ndx Name",
        "     0: 00000000     0 NOTYPE  LOCAL  DEFAULT   UND ",
        "     1: 00000001     0 NOTYPE  LOCAL  DEFAULT   UND foo",
        "     2: 00000040   416 FUNC    GLOBAL DEFAULT     9 core_0_2",
        "     3: 00000000     0 FUNC    GLOBAL DEFAULT   UND memcpy", "",
        "Stack Sizes:", "         Size     Functions", "           16     other",
        "           32     other_end", "           48     bar, baz",
    ])
    r = core_elf.parse_readelf(text)
    assert [(s["name"], s["type"], s["size"], s["flags"]) for s in r["sections"]] == [
        ("", "NULL", 0, ""), (".text", "PROGBITS", 1, "AX"), (".rel.text", "REL", 0, ""), (".data", "PROGBITS", 0, "WA"),
        (".text.core_0_2_long_name", "PROGBITS", 0x1a0, "AX"),
    ]
    assert r["functions"] == {"core_0_2"}
    assert r["frames"] == [(16, ["other"]), (32, ["other_end"]), (48, ["bar", "baz"])]


# ---- compile_design ---------------------------------------------------------------------------------


def test_within_limits_resources_json_among_the_outputs(tools, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_CORE_ELF", json.dumps({
        "core_0_2": {"text": 5000, "text2": 120, "functions": ["__start", "core_0_2", "matmul_i8_i32"],
                     "frames": [[64, "core_0_2"], [2048, "matmul_i8_i32"]]},
    }))
    out, log = tmp_path / "k" / "xdna", tmp_path / "k" / "xdna" / "build.log"
    aiecc.compile_design(_design({(0, 2): 3328, (1, 2): None}), out, log, tools=tools, cli_dialect="legacy", arch="aie2")
    doc = json.loads((out / "resources.json").read_text())
    assert doc["arch"] == "aie2" and doc["tool"] == "llvm-readelf"
    c02, c12 = doc["cores"]["core_0_2"], doc["cores"]["core_1_2"]
    assert (c02["stack_bytes"], c02["stack_limit"], c02["text_bytes"], c02["program_memory"]) == (2048, 3328, 5120, 16384)
    assert c02["stack_deepest"] == "matmul_i8_i32" and c02["stack_frames_total"] == 2112
    # __start has a symbol but no frame record (crt0 is not compiled with -fstack-size-section)
    assert c02["stack_measured"] == "partial" and c02["stack_unmeasured"] == ["__start"]
    assert (c12["stack_bytes"], c12["stack_limit"], c12["text_bytes"]) == (96, 1024, 4096)
    assert c02["elf"] == "main_core_0_2.elf" and c02["not_measured"] is None
    text = log.read_text()
    assert "# core (0, 2): stack: largest frame 2048 bytes (matmul_i8_i32), frames total 2112, stack_size 3328" in text
    assert "# core (0, 2): code 5120 bytes, program memory 16384 bytes" in text
    assert text.rstrip().endswith("# ok")


def test_stack_overflow_fails_with_both_numbers_and_keeps_the_previous_outputs(tools, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_CORE_ELF", json.dumps({"core_1_2": {"frames": [[64, "core_1_2"], [4352, "matmul_i8_i32"]]}}))
    out = tmp_path / "kernels" / "matmul_x" / "xdna"
    before = _previous(out)
    with pytest.raises(UserError) as ei:
        aiecc.compile_design(_design({(0, 2): 3328, (1, 2): 3328}), out, out / "build.log", tools=tools, cli_dialect="legacy")
    msg = str(ei.value)
    assert str(out) in msg and "core (1, 2): stack overflow" in msg and "4352 bytes" in msg and "stack_size of 3328" in msg
    assert "core (0, 2)" not in msg and "previous outputs were kept" in msg
    assert {n: (out / n).read_bytes() for n in before} == before
    assert "error: core (1, 2): stack overflow" in (out / "build.log").read_text()
    assert (out / "build.log").read_text().rstrip().endswith("# FAILED")


def test_program_memory_overflow_fails_with_the_numbers(tools, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_CORE_ELF", json.dumps({"default": {"text": 16000, "text2": 1000}}))
    out = tmp_path / "k" / "xdna"
    before = _previous(out)
    with pytest.raises(UserError) as ei:
        aiecc.compile_design(_design({(0, 2): 1024}), out, out / "build.log", tools=tools, cli_dialect="legacy", arch="aie2p")
    msg = str(ei.value)
    assert "core (0, 2): program memory overflow" in msg and "17000 bytes of code" in msg and "holds 16384 bytes (aie2p)" in msg
    assert {n: (out / n).read_bytes() for n in before} == before
    # exactly at the limit fits
    monkeypatch.setenv("FAKE_CORE_ELF", json.dumps({"default": {"text": 16384}}))
    aiecc.compile_design(_design({(0, 2): 1024}), out, out / "build.log", tools=tools, cli_dialect="legacy", arch="aie2p")
    assert json.loads((out / "resources.json").read_text())["cores"]["core_0_2"]["text_bytes"] == 16384


def test_no_stack_sizes_section_is_not_measured_never_zero(tools, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_CORE_ELF", json.dumps({"default": {"stack_sizes": False, "frames": []}}))
    out = tmp_path / "k" / "xdna"
    aiecc.compile_design(_design({(0, 2): 1024}), out, out / "build.log", tools=tools, cli_dialect="legacy")
    core = json.loads((out / "resources.json").read_text())["cores"]["core_0_2"]
    assert core["stack_bytes"] is None and core["stack_measured"] == "none"
    assert "no .stack_sizes section" in core["not_measured"]
    assert core["text_bytes"] == 4096  # the code is still measured
    assert "# core (0, 2): stack: not measured (main_core_0_2.elf has no .stack_sizes section" in (out / "build.log").read_text()


def test_without_llvm_readelf_or_core_elfs_nothing_is_measured(tools, tmp_path, monkeypatch):
    (Path(tools["peano"]["install_dir"]) / "bin" / "llvm-readelf").unlink()
    out = tmp_path / "k" / "xdna"
    aiecc.compile_design(_design({(0, 2): 1024}), out, out / "build.log", tools=tools, cli_dialect="legacy")
    core = json.loads((out / "resources.json").read_text())["cores"]["core_0_2"]
    assert core["stack_bytes"] is None and core["text_bytes"] is None and "llvm-readelf" in core["not_measured"]
    assert "# not measured: no llvm-readelf or llvm-readobj in" in (out / "build.log").read_text()
    # an ELF that is not one (no magic) is not taken for a core ELF
    fake_readelf(Path(tools["peano"]["install_dir"]))
    prj = tmp_path / "prj"
    prj.mkdir()
    (prj / "main_core_0_2.elf").write_bytes(b"not an ELF")
    assert core_elf.find_core_elfs(prj) == {}


def test_peano_flag_and_microkernel_defines():
    argv = aiecc.peano_argv("clang++", "aie2", "mm.cc", "mm.o", [], [])
    assert "-fstack-size-section" in argv and "-fstack-size-section" in aiecc.AIECC_FLAGS["peano"]
    from npubuild.emitters.aie.devices import DEVICES
    from npubuild.emitters.aie.gemm import overlay_for
    from npubuild.specfile.instances import make_instance

    inst = make_instance("matmul", "i8", [[64, 64], [64, 64]], {})
    assert "-DVECTORIZED_ONLY" in overlay_for(inst, DEVICES["npu1"]).defines
    assert "-DVECTORIZED_ONLY" not in overlay_for(inst, DEVICES["npu2"]).defines


def test_manifest_schema_checks_resources():
    def manifest(core):
        return {"schema": 1, "graphs": {}, "kernels": {"k": {
            "op": "relu", "dtype": "f32", "key": "0" * 64, "attrs": {}, "inputs": [{"name": "x", "shape": [4], "dtype": "f32"}],
            "outputs": [{"name": "y", "shape": [4], "dtype": "f32"}], "targets": {"xdna": {"resources": {"core_0_2": core}}}}}}

    good = {"col": 0, "row": 2, "stack_bytes": None, "stack_limit": 1024, "text_bytes": 4096, "program_memory": 16384,
            "stack_measured": "none", "not_measured": "no .stack_sizes"}
    assert schema_problems(manifest(good)) == []
    bad = schema_problems(manifest({**good, "stack_bytes": "a lot"}))
    assert bad == ['kernels.k.targets.xdna.resources.core_0_2.stack_bytes must be a non-negative integer, got "a lot"']


# ---- doit build: manifest, list --json, store -------------------------------------------------------


@pytest.fixture
def build_env(tools, tmp_path):
    fake_aie_opt(tmp_path / "mlir_aie" / "bin", 20251201)
    return dict(os.environ)


RELU = "kernels:\n  act:\n    op: relu\n    targets: [ref, xdna]\n    shapes:\n      - [32, 1024]\n"
RELU_ID = "relu_f32_32x1024"


def test_build_puts_the_figures_in_the_manifest_list_and_the_store(project, build_env):
    p = project(RELU)
    env = {**build_env, "FAKE_CORE_ELF": json.dumps({"default": {"text": 3000, "functions": ["x"], "frames": [[160, "x"]]}})}
    assert p.doit("build", env=env).summary["compiled"] == 1
    m = json.loads((p.artifacts / "manifest.json").read_text())
    x = m["kernels"][RELU_ID]["targets"]["xdna"]
    assert x["files"]["resources"]["path"] == f"kernels/{RELU_ID}/xdna/resources.json"
    cores = x["resources"]
    assert cores and all((c["stack_bytes"], c["text_bytes"], c["program_memory"]) == (160, 3000, 16384) for c in cores.values())
    assert all(c["stack_limit"] >= 1024 and c["stack_measured"] == "complete" for c in cores.values())
    listed = json.loads(p.npubuild("list", "--json", env=env).out)["kernels"][RELU_ID]
    assert listed["resources"]["xdna"] == cores
    assert p.npubuild("verify", env=env).rc == 0

    # a cold machine: the outputs come from the store, resources.json with them
    (p.root / ".npubuild.doit.db").unlink()
    (p.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
    res = p.artifacts / "kernels" / RELU_ID / "xdna" / "resources.json"
    kept = res.read_bytes()
    for n in ("final.xclbin", "insts.bin", "resources.json"):
        (res.parent / n).unlink()
    again = p.doit("build", env=env)
    assert again.summary["store"] == 1 and res.read_bytes() == kept


@pytest.mark.slow  # a full doit build (or two); the fast run keeps a lighter case of the same check
def test_build_over_the_stack_fails_and_keeps_the_previous_artifact(project, build_env, tools):
    p = project(RELU)
    assert p.doit("build", env=build_env).summary["compiled"] == 1
    d = p.artifacts / "kernels" / RELU_ID / "xdna"
    before = {n: (d / n).read_bytes() for n in ("final.xclbin", "insts.bin", "resources.json")}
    # a new aiecc (its fingerprint changes: everything recompiles) whose cores need more stack
    wrapper = Path(tools["aiecc"]["path"])
    wrapper.write_text(wrapper.read_text() + "# v2\n")
    env = {**build_env, "FAKE_CORE_ELF": json.dumps({"default": {"frames": [[96, "core"], [5000, "big_frame"]]}})}
    r = p.doit("build", env=env, check=False)
    out = r.out + r.err
    assert r.rc != 0 and f"kernel {RELU_ID}: xdna compile of" in out
    assert "stack overflow: big_frame alone needs 5000 bytes of stack, more than the core's stack_size of" in out
    assert {n: (d / n).read_bytes() for n in before} == before
