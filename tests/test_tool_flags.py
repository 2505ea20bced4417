"""[tool.npubuild.flags]: the project's llc, cc, aiecc and Peano options, checked, in the build key."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from npubuild.build.targets import COMPILED
from npubuild.config import load_config
from npubuild.errors import UserError
from npubuild.tool_flags import ToolFlags, tool_flags_from, with_extra
from npubuild.toolchain import aiecc
from npubuild.toolchain.aiecc import AIECC_FLAGS

from .conftest import new_project

KERNELS = """
kernels:
  relu:
    op: relu
    dtype: f32
    shapes: [[64], [128]]
"""


def _config(tmp_path, body: str):
    (tmp_path / "pyproject.toml").write_text("[tool.npubuild]\n" + body)
    return load_config(tmp_path)


def test_flags_table_is_read_and_checked(tmp_path, monkeypatch):
    cfg = _config(tmp_path, '[tool.npubuild.flags]\nllc = ["-O3"]\ncc = ["-Wl,--build-id=none"]\naiecc = ["--opt-level=3"]\npeano = ["-O3"]\n')
    assert cfg.flags == ToolFlags(llc=("-O3",), cc=("-Wl,--build-id=none",), aiecc=("--opt-level=3",), peano=("-O3",))
    with pytest.raises(UserError, match=r"unknown tool 'peano_flags'.*did you mean 'peano'"):
        _config(tmp_path, '[tool.npubuild.flags]\npeano_flags = ["-O3"]\n')
    bad = {
        'llc = "-O3"': "must be a list of option strings",
        'llc = ["kernel.ll"]': "is not an option",
        'llc = ["-o", "x.o"]': "npubuild names llc's output",
        'llc = ["-mcpu=znver4"]': "set host_cpu",
        'llc = ["-filetype=asm"]': "object file",
        'cc = ["-o/tmp/x.so"]': "names the shared library",
        'aiecc = ["--xclbin-name=x.xclbin"]': "names the outputs",
        'aiecc = ["--tmpdir=/tmp"]': "its own directory",
        'aiecc = ["--xchesscc"]': "Peano",
        'peano = ["--target=aie2p-none-unknown-elf"]': "xdna_device",
    }
    for line, why in bad.items():
        with pytest.raises(UserError, match=why):
            _config(tmp_path, f"[tool.npubuild.flags]\n{line}\n")
    with pytest.raises(UserError, match="flags must be a table"):
        _config(tmp_path, 'flags = "-O3"\n')
    # the environment's form replaces the table's list, split like a shell command line
    monkeypatch.setenv("NPUBUILD_LLC_FLAGS", "-O1 '-x86-asm-syntax=intel'")
    assert _config(tmp_path, '[tool.npubuild.flags]\nllc = ["-O3"]\n').flags.llc == ("-O1", "-x86-asm-syntax=intel")
    monkeypatch.setenv("NPUBUILD_LLC_FLAGS", "-o out.o")
    with pytest.raises(UserError, match="NPUBUILD_LLC_FLAGS"):
        _config(tmp_path, "")


def test_an_opt_level_replaces_npubuilds():
    assert with_extra(["-O2", "-relocation-model=pic"], ["-O3", "-x"]) == ["-relocation-model=pic", "-O3", "-x"]
    assert with_extra(["-O2", "-std=c++20"], ["-g"]) == ["-O2", "-std=c++20", "-g"]
    cfg = SimpleNamespace(host_cpu="portable", flags=ToolFlags(llc=("-O3",), cc=("-s",)))
    recipe = COMPILED["host"].flags(cfg)
    assert recipe["llc"].count("-O3") == 1 and "-O2" not in recipe["llc"] and recipe["cc"][-1] == "-s"
    # no project options: the recipe (and so every key) is what it was
    none = SimpleNamespace(host_cpu="portable", flags=ToolFlags())
    assert COMPILED["host"].flags(none) == COMPILED["host"].flags(None)
    assert COMPILED["xdna"].flags(none) is AIECC_FLAGS


def test_aiecc_and_peano_command_lines_take_the_options():
    argv = aiecc.aiecc_argv("aiecc", "legacy", "d.mlir", tmpdir="t", xclbin="x", insts="i", peano_dir=None, opt_level=1,
                            extra=["--verbose"])
    assert argv[-2:] == ["--verbose", "d.mlir"] and "--opt-level=1" in argv  # before the input: after it is host args
    argv = aiecc.aiecc_argv("aiecc", "legacy", "d.mlir", tmpdir="t", xclbin="x", insts="i", peano_dir=None, opt_level=1,
                            extra=["--opt-level=3"])
    assert [a for a in argv if a.startswith("--opt-level")] == ["--opt-level=3"]
    new = aiecc.aiecc_argv("aiecc", "new", "d.mlir", tmpdir="t", xclbin="x", insts="i", peano_dir=None, extra=["--verbose"])
    assert new[-2:] == ["--verbose", "d.mlir"]
    p = aiecc.peano_argv("clang++", "aie2", "k.cc", "k.o", [], ["N=1"], ["-O3", "-ffast-math"])
    assert "-O2" not in p and p[p.index("-DN=1") + 1:] == ["-O3", "-ffast-math", "-c", "k.cc", "-o", "k.o"]
    assert aiecc.peano_argv("clang++", "aie2", "k.cc", "k.o", [], [])[1] == "-O2"


def test_xdna_recipe_carries_the_options():
    cfg = SimpleNamespace(flags=ToolFlags(aiecc=("--verbose",), peano=("-O3",)))
    flags = COMPILED["xdna"].flags(cfg)
    assert flags["aiecc_options"] == ["--verbose"] and flags["peano_options"] == ["-O3"]
    assert {k: flags[k] for k in AIECC_FLAGS} == AIECC_FLAGS


def test_host_flags_are_in_the_key_the_log_and_explain(tmp_path):
    p = new_project(tmp_path / "proj", KERNELS)
    assert p.doit("build").summary["compiled"] == 2
    pp = p.root / "pyproject.toml"
    pp.write_text(pp.read_text() + '\n[tool.npubuild.flags]\nllc = ["-O3"]\n')
    why = p.npubuild("explain", "relu_f32_64").out
    assert "flag llc" in why and "-O3" in why, why
    r = p.doit("build")
    assert r.summary["compiled"] == 2 and r.executed("emit:") == [], r.out  # the source does not depend on flags
    kdir = p.artifacts / "kernels" / "relu_f32_64" / "host"
    llc_line = next(ln for ln in (kdir / "build.log").read_text().splitlines() if "llc" in ln and "kernel.ll" in ln)
    assert " -O3 " in f" {llc_line} " and " -O2 " not in f" {llc_line} ", llc_line
    assert "-O3" in json.loads((kdir / "build.json").read_text())["flags"]["llc"]
    p.npubuild("verify")
    # back to npubuild's own flags: the store still has those binaries
    pp.write_text(pp.read_text().split("\n[tool.npubuild.flags]")[0])
    assert p.doit("build").summary == {"kernels": 2, "compiled": 0, "store": 2, "uptodate": 0}
    # a bad option is one message naming the file, not a traceback
    pp.write_text(pp.read_text() + '\n[tool.npubuild.flags]\ncc = ["-o", "elsewhere.so"]\n')
    r = p.doit("build", check=False)
    assert r.rc != 0 and "flags.cc" in r.out + r.err and "Traceback" not in r.out + r.err
