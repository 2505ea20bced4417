"""`npubuild commands` prints the command lines the compile runs (the ones its build.log records with `$ `),
selects tasks by name or kernel id, shows the xdna lines without a toolchain; `npubuild compdb` writes a
clang compilation database of the C/C++ compiles."""
from __future__ import annotations

import ctypes
import json
import re
import shlex
import subprocess

import pytest

from .test_xdna_build import KERNELS as XDNA_KERNELS
from .test_xdna_build import _env_without_tools, make_fake_toolchain
from .test_xdna_toolchain import clean_env  # noqa: F401  (a fixture)

KERNELS = "kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n      - [128]\n"


def _json(p, *args, env=None):
    return json.loads(p.npubuild("commands", "--json", *args, env=env).out)


def _logged(log_text: str) -> list[str]:
    """The commands a build log records (`$ cmd`, or `$ cd DIR && cmd` for the xdna tools)."""
    return [re.sub(r"^cd \S+ && ", "", ln[2:]) for ln in log_text.splitlines() if ln.startswith("$ ")]


def test_host_lines_are_what_the_compile_ran(project):
    p = project(KERNELS)
    p.doit("build")
    rows = _json(p, "compile:relu_f32_64@host")
    d = p.artifacts / "kernels" / "relu_f32_64" / "host"
    assert [r["task"] for r in rows] == ["compile:relu_f32_64@host"] * 2
    assert {r["directory"] for r in rows} == {str(d)}
    assert [shlex.join(r["arguments"]) for r in rows] == _logged((d / "build.log").read_text())
    text = p.npubuild("commands", "compile:relu_f32_64@host").out.splitlines()
    assert text[1] == f"cd {shlex.quote(str(d))}" and "in process" in text[2] and "--pass-pipeline=" in text[2]
    assert text[3:] == [shlex.join(r["arguments"]) for r in rows]


def test_the_printed_lines_build_a_library(project, tmp_path):
    """Lowered as the compile lowers it, the printed llc and cc lines make a loadable kernel.so."""
    from npubuild.toolchain.host import lower_to_llvm_ir

    p = project(KERNELS)
    p.doit("build")
    work = tmp_path / "work"
    work.mkdir()
    (work / "kernel.ll").write_text(lower_to_llvm_ir((p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.mlir").read_text()))
    for row in _json(p, "relu_f32_64@host"):
        subprocess.run(row["arguments"], cwd=work, check=True)
    ctypes.CDLL(str(work / "kernel.so")).kernel  # noqa: B018 - the symbol the runtime calls


def test_flags_come_from_the_recipe(project):
    p = project(KERNELS)
    p.write("pyproject.toml", (p.root / "pyproject.toml").read_text() + "host_cpu = \"x86-64\"\n")
    llc = _json(p, "compile:relu_f32_64@host")[0]["arguments"]
    assert "-mcpu=x86-64" in llc and llc[1:4] == ["-O2", "-relocation-model=pic", "-filetype=obj"]


def test_project_tool_flags_are_in_the_lines(project, clean_env):  # noqa: F811
    p = project(XDNA_KERNELS, targets=("ref", "host", "xdna"))
    p.write("pyproject.toml", (p.root / "pyproject.toml").read_text()
            + '\n[tool.npubuild.flags]\nllc = ["-O3"]\ncc = ["-s"]\naiecc = ["--verbose"]\npeano = ["-O3"]\n')
    env = _env_without_tools(clean_env)
    rows = _json(p, "relu_f32_32x1024@host", "matmul_i8_64x200_200x300", env=env)
    peano, aiecc, llc, cc = (r["arguments"] for r in rows)  # build order: matmul_i8_... before relu_...
    assert "-O3" in llc and "-O2" not in llc and cc[-4:] == ["-s", "-o", "kernel.so", "kernel.o"]
    assert "-O3" in peano and "-O2" not in peano and aiecc[-2:] == ["--verbose", "aie.mlir"]


def test_a_kernel_id_selects_its_tasks_in_build_order(project, clean_env):  # noqa: F811
    p = project(XDNA_KERNELS, targets=("ref", "host", "xdna"))
    env = _env_without_tools(clean_env)
    tasks = [r["task"] for r in _json(p, "relu_f32_32x1024", env=env)]
    assert list(dict.fromkeys(tasks)) == ["compile:relu_f32_32x1024@host", "compile:relu_f32_32x1024@xdna"]
    every = list(dict.fromkeys(r["task"] for r in _json(p, env=env)))
    # the plan's order (kernel ids sorted), each kernel's targets in the spec's order, as the tasks are made
    assert every == ["compile:layer_norm_f32_64x256_256_256@xdna", "compile:matmul_i8_64x200_200x300@xdna",
                     "compile:relu_f32_32x1024@host", "compile:relu_f32_32x1024@xdna"]
    # nothing built (the toolchain fingerprints are cached in the store, as `npubuild list` and `explain` do)
    assert not (p.artifacts / "kernels").exists() and not (p.artifacts / "manifest.json").exists()


def test_an_unknown_task_is_one_error(project):
    p = project(KERNELS)
    r = p.npubuild("commands", "compile:relu_f32_65@host", check=False)
    assert r.rc == 1 and r.out == ""
    assert r.err.count("\n") == 1 and "no compile task or kernel 'compile:relu_f32_65@host'" in r.err
    assert "`npubuild list`" in r.err and "`doit list" in r.err


def test_emit_tasks_run_no_tool(project):
    p = project(KERNELS)
    out = p.npubuild("commands", "emit:relu_f32_64@host").out
    assert out == "# emit:relu_f32_64@host: runs no tool command (done in process)\n"
    assert _json(p, "emit:relu_f32_64@host") == []


def test_json_shape(project):
    p = project(KERNELS)
    rows = _json(p)
    assert len(rows) == 4 and all(set(r) == {"task", "directory", "arguments"} for r in rows)
    assert all(isinstance(a, str) for r in rows for a in r["arguments"])


def test_xdna_lines_without_a_toolchain(project, clean_env):  # noqa: F811
    p = project(XDNA_KERNELS, targets=("ref", "host", "xdna"))
    env = _env_without_tools(clean_env)
    out = p.npubuild("commands", "matmul_i8_64x200_200x300", env=env).out.splitlines()
    assert "# Peano clang++ (llvm-aie) is not installed here: the build only emits aie.mlir" in out
    assert "# aiecc (mlir-aie) is not installed here: the build only emits aie.mlir" in out
    peano = next(ln for ln in out if ln.startswith("clang++ "))
    assert "--target=aie2-none-unknown-elf" in peano and "-fstack-size-section" in peano and "mm.cc" in peano
    aiecc = next(ln for ln in out if ln.startswith("aiecc "))
    assert aiecc.endswith(" aie.mlir") and "--xclbin-name=final.xclbin" in aiecc
    r = p.npubuild("compdb", env=env)
    assert json.loads(r.out) == []
    assert r.err.count("\n") == 1 and "left out: Peano or mlir-aie is not installed" in r.err


def test_xdna_lines_are_what_the_compile_ran(project, tmp_path, clean_env):  # noqa: F811
    """With the toolchain doubles, the Peano and aiecc lines are the ones the build logs (aiecc's --tmpdir
    is the compile's temporary directory there, the kernel directory here)."""
    tc = make_fake_toolchain(tmp_path, _env_without_tools(clean_env))
    p = project(XDNA_KERNELS, targets=("ref", "host", "xdna"))
    env = tc["env"]
    p.doit("build", env=env)
    d = p.artifacts / "kernels" / "matmul_i8_64x200_200x300" / "xdna"
    rows = _json(p, "compile:matmul_i8_64x200_200x300@xdna", env=env)
    peano, aiecc = rows
    obj = peano["arguments"][-1]
    assert peano["directory"] == str(d / "link") and _logged((d / "link" / f"{obj}.log").read_text()) == [shlex.join(peano["arguments"])]
    log = (d / "build.log").read_text()
    logged = _logged(log)
    assert len(logged) == 1
    assert aiecc["note"] == "runs with " + " ".join(ln[len("# env "):] for ln in log.splitlines() if ln.startswith("# env "))
    assert re.sub(r"--tmpdir=\S+", "--tmpdir=X", logged[0]) == re.sub(r"--tmpdir=\S+", "--tmpdir=X", shlex.join(aiecc["arguments"]))
    db = json.loads(p.npubuild("compdb", env=env).out)
    assert db == [{"directory": str(d / "link"), "file": str(tc["mm"]), "arguments": peano["arguments"],
                   "output": str(d / "link" / obj)}]
    out = tmp_path / "cc.json"
    p.npubuild("compdb", "-o", str(out), env=env)
    assert json.loads(out.read_text()) == db


def test_compdb_without_c_is_empty_with_a_note(project):
    p = project(KERNELS)
    r = p.npubuild("compdb")
    assert json.loads(r.out) == [] and r.err.count("\n") == 1 and "host kernels are MLIR" in r.err


@pytest.mark.parametrize("args", [("compdb", "-o", "/nonexistent/dir/cc.json")])
def test_compdb_refuses_a_missing_directory(project, args):
    r = project(KERNELS).npubuild(*args, check=False)
    assert r.rc == 1 and "does not exist" in r.err
