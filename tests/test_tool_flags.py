"""[tool.npubuild.flags]: the project's llc, cc, aiecc and Peano options, checked, in the build key."""
from __future__ import annotations

import json
import shlex
from types import SimpleNamespace

import numpy as np
import pytest

import npubuild
from npubuild.engine.targets import kernel_targets
from npubuild.core.config import load_config
from npubuild.core.errors import UserError
from npubuild.runner.host import HostKernel
from npubuild.core.tool_flags import ALLOWED, ENV, ToolFlags, tool_flags_from, with_extra
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
    cfg = _config(tmp_path, '[tool.npubuild.flags]\nllc = ["-O3"]\ncc = ["-s"]\naiecc = ["--opt-level=3"]\npeano = ["-O3"]\n')
    assert cfg.flags == ToolFlags(llc=("-O3",), cc=("-s",), aiecc=("--opt-level=3",), peano=("-O3",))
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
    monkeypatch.setenv("NPUBUILD_LLC_FLAGS", "-O1 '-mattr=+sse4.2,-avx'")
    assert _config(tmp_path, '[tool.npubuild.flags]\nllc = ["-O3"]\n').flags.llc == ("-O1", "-mattr=+sse4.2,-avx")
    monkeypatch.setenv("NPUBUILD_LLC_FLAGS", "-o out.o")
    with pytest.raises(UserError, match="NPUBUILD_LLC_FLAGS"):
        _config(tmp_path, "")


# Every flag set of the hostile-input round that loaded code, wrote or read files outside the
# project or built a library that crashes, plus the same kinds of option for aiecc and Peano.
HOSTILE = {
    "llc": ["--load=plug.so", "-load=plug.so", "--load-pass-plugin=plug.so", "--info-output-file=/tmp/stats",
            "--pass-remarks-output=/tmp/remarks.yaml", "--time-trace-file=/tmp/trace.json", "-mllvm", "@/etc/shadow",
            "--attributor-dump-dep-graph", "-mattr=help", "-x86-lvi-load-opt-plugin=plug.so"],
    "cc": ["-B/dir/", "-Wl,-plugin,x.so", "-Wl,-o,/tmp/out.so", "-Wl,--output=/tmp/out.so", "-Wl,-Map=/tmp/map",
           "-Wl,--dependency-file=/tmp/deps", "-specs=evil.specs", "-Wl,@/etc/shadow", "@/etc/shadow",
           "-Wl,--defsym=kernel=0", "-Xlinker", "-z", "-fuse-ld=lld", "-flto", "-save-temps", "-Wl,--build-id=none",
           "-print-prog-name=ld", "-T/tmp/script.ld", "-L/tmp", "-lfoo", "-nostdlib", "-static"],
    "aiecc": ["--tmpdir=/tmp", "--xclbinutil-path=/tmp/xclbinutil", "--aietools=/tmp/aietools", "--dump-intermediates",
              "--emit-dot", "@/etc/shadow", "--xclbin-input=/tmp/other.xclbin", "--device-name=other", "-O3", "-j4"],
    "peano": ["-mllvm", "-mllvm=-load=plug.so", "-fplugin=plug.so", "-fpass-plugin=plug.so", "-B/dir/", "-Wl,-plugin,x.so",
              "-Wp,-MD,/tmp/deps", "-Wa,-o,/tmp/x", "-Xclang", "@/etc/shadow", "-I/etc", "-include/etc/passwd",
              "-fprofile-generate=/tmp/p", "-ftime-trace", "-fno-stack-size-section", "-DDIM_M=64", "-DNDEBUG=0",
              "-UNDEBUG", "-D__AIE_ARCH__=20", "-Dfloat=int", "-gsplit-dwarf", "-fsyntax-only", "-mcpu=other"],
}

# Options each tool accepts (docs/toolchain.md#extra-tool-options lists the patterns and why).
ACCEPTED = {
    "llc": ["-O0", "-O3", "-mattr=+avx2,-fma", "--mattr=+sse4.2", "-fast-isel", "-global-isel=false",
            "-enable-misched=0", "-enable-post-misched", "-frame-pointer=all", "-align-loops=32", "-fp-contract=fast",
            "-time-passes"],
    "cc": ["-s", "-v"],
    "aiecc": ["--opt-level=0", "--opt-level=3", "-v", "--verbose", "--alloc-scheme=basic-sequential",
              "--alloc-scheme=bank-aware", "--unified", "--no-unified"],
    "peano": ["-O0", "-O3", "-Os", "-Oz", "-DMY_TILE=4", "-DUSE_FAST", "-UMY_TILE", "-Wall", "-Wno-unused-variable",
              "-Werror", "-Werror=uninitialized", "-w", "-ffast-math", "-fno-unroll-loops", "-fno-vectorize",
              "-ffp-contract=off", "-ffp-model=precise", "-ftemplate-depth=2048", "-g", "-g0"],
}


@pytest.mark.parametrize("tool", list(HOSTILE))
def test_every_hostile_option_is_refused_with_its_name(tmp_path, monkeypatch, tool):
    for flag in HOSTILE[tool]:
        with pytest.raises(UserError) as e:
            _config(tmp_path, f"[tool.npubuild.flags]\n{tool} = [{json.dumps(flag)}]\n")
        msg = str(e.value)
        assert f"flags.{tool}: {flag!r} is not accepted: " in msg and "pyproject.toml" in msg, msg
        # the environment's form is checked the same way (it replaces the table's list)
        monkeypatch.setenv(ENV[tool], f"-v {shlex.quote(flag)}" if tool in ("cc", "aiecc") else shlex.quote(flag))
        with pytest.raises(UserError) as e:
            _config(tmp_path, "")
        assert str(e.value).startswith(f"{ENV[tool]}: flags.{tool}: {flag!r} is not accepted: "), str(e.value)
        monkeypatch.delenv(ENV[tool])


def test_refusals_say_why():
    def why(tool, flag):
        with pytest.raises(UserError) as e:
            tool_flags_from({tool: [flag]}, "pyproject.toml")
        return str(e.value).split(" is not accepted: ", 1)[1]

    assert "loads code" in why("llc", "--load=plug.so") and "loads code" in why("cc", "-B/dir/")
    assert "names a file" in why("llc", "--time-trace-file=/tmp/t") and "names a file" in why("peano", "-I/etc")
    assert "another program" in why("cc", "-Wl,--defsym=kernel=0") and "another program" in why("peano", "-mllvm")
    assert "response file" in why("cc", "@/etc/shadow")
    assert "cc only links kernel.o" in why("cc", "-O3") and "host_cpu" in why("cc", "-march=native")
    assert "npubuild sets this macro" in why("peano", "-DDIM_K=8")
    generic = why("llc", "--attributor-dump-dep-graph")  # one of llc's ~2000 options nobody vetted
    assert "-O0..-O3" in generic and "docs/toolchain.md#extra-tool-options" in generic


@pytest.mark.parametrize("tool", list(ACCEPTED))
def test_the_allowlist_takes_these(tool):
    flags = tool_flags_from({tool: ACCEPTED[tool]}, "pyproject.toml")
    assert flags.of(tool) == ACCEPTED[tool]
    assert all(why for _, why in ALLOWED[tool])  # every allowed pattern says why it is safe


@pytest.mark.parametrize("tool", list(ACCEPTED))
def test_no_allowed_option_carries_a_path_or_a_second_option(tool):
    for flag in ACCEPTED[tool]:
        stem = flag if "=" in flag else flag + "="
        for tail in ("/etc/passwd", "~/x", "@/etc/shadow", "a,-load=x.so", "1 -load=x.so", "x\\y"):
            bad = stem.rsplit("=", 1)[0] + "=" + tail if "=" in flag else stem + tail
            with pytest.raises(UserError, match="is not accepted"):
                tool_flags_from({tool: [bad]}, "pyproject.toml")
        with pytest.raises(UserError):
            tool_flags_from({tool: [flag + "/x"]}, "pyproject.toml")


def test_an_opt_level_replaces_npubuilds():
    assert with_extra(["-O2", "-relocation-model=pic"], ["-O3", "-x"]) == ["-relocation-model=pic", "-O3", "-x"]
    assert with_extra(["-O2", "-std=c++20"], ["-g"]) == ["-O2", "-std=c++20", "-g"]
    cfg = SimpleNamespace(host_cpu="portable", flags=ToolFlags(llc=("-O3",), cc=("-s",)))
    recipe = kernel_targets()["host"].flags(cfg)
    assert recipe["llc"].count("-O3") == 1 and "-O2" not in recipe["llc"] and recipe["cc"][-1] == "-s"
    # no project options: the recipe (and so every key) is what it was
    none = SimpleNamespace(host_cpu="portable", flags=ToolFlags())
    assert kernel_targets()["host"].flags(none) == kernel_targets()["host"].flags(None)
    assert kernel_targets()["xdna"].flags(none) is AIECC_FLAGS


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
    flags = kernel_targets()["xdna"].flags(cfg)
    assert flags["aiecc_options"] == ["--verbose"] and flags["peano_options"] == ["-O3"]
    assert {k: flags[k] for k in AIECC_FLAGS} == AIECC_FLAGS


def test_host_flags_are_in_the_key_the_log_and_explain(tmp_path):
    p = new_project(tmp_path / "proj", KERNELS)
    assert p.doit("build").summary["compiled"] == 2
    pp = p.root / "pyproject.toml"
    pp.write_text(pp.read_text() + '\n[tool.npubuild.flags]\nllc = ["-O3", "-mattr=+sse2"]\ncc = ["-s"]\n')
    why = p.npubuild("explain", "relu_f32_64").out
    assert "flag llc" in why and "-O3" in why, why
    r = p.doit("build")
    assert r.summary["compiled"] == 2 and r.executed("emit:") == [], r.out  # the source does not depend on flags
    kdir = p.artifacts / "kernels" / "relu_f32_64" / "host"
    llc_line = next(ln for ln in (kdir / "build.log").read_text().splitlines() if "llc" in ln and "kernel.ll" in ln)
    assert " -O3 " in f" {llc_line} " and " -O2 " not in f" {llc_line} ", llc_line
    cc_line = next(ln for ln in (kdir / "build.log").read_text().splitlines() if "kernel.so" in ln and "kernel.o" in ln)
    assert cc_line.split()[-4:] == ["-s", "-o", "kernel.so", "kernel.o"], cc_line
    assert "-O3" in json.loads((kdir / "build.json").read_text())["flags"]["llc"]
    p.npubuild("verify")
    # a stripped library still exports kernel and npubuild_abi (the runtime reads the dynamic symbols)
    rt = npubuild.load(p.artifacts)
    k = HostKernel(kdir / "kernel.so", dict(rt.checked_record("relu_f32_64"), id="relu_f32_64"), require_abi=True)
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    np.testing.assert_array_equal(k(x), np.maximum(x, 0))
    k.close()
    rt.close()
    # back to npubuild's own flags: the store still has those binaries
    pp.write_text(pp.read_text().split("\n[tool.npubuild.flags]")[0])
    assert p.doit("build").summary == {"kernels": 2, "compiled": 0, "store": 2, "uptodate": 0}
    # a bad option is one message naming the file, not a traceback
    pp.write_text(pp.read_text() + '\n[tool.npubuild.flags]\ncc = ["-o", "elsewhere.so"]\n')
    r = p.doit("build", check=False)
    assert r.rc != 0 and "flags.cc" in r.out + r.err and "Traceback" not in r.out + r.err
    # so is one from the environment, before anything runs: no build.log gets the file's lines
    pp.write_text(pp.read_text().split("\n[tool.npubuild.flags]")[0])
    r = p.doit("build", check=False, env={"NPUBUILD_CC_FLAGS": "-Wl,@/etc/hostname"})
    assert r.rc != 0 and "NPUBUILD_CC_FLAGS: flags.cc: '-Wl,@/etc/hostname' is not accepted" in r.out + r.err, r.out + r.err
    assert "Traceback" not in r.out + r.err
