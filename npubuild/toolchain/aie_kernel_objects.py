"""Objects of mlir-aie's library kernels (:mod:`npubuild.emitters.aie.kernel_library`):
``aie_kernels/<arch>/<kernel>.cc`` compiled with Peano ``clang++`` from the
installed mlir-aie, once per configuration, cached in the content-addressed
store like the GEMM microkernel (:mod:`.microkernel`).

On aie2 the LUT kernels (gelu, silu, exp) also need the tables of
``<mlir_aie>/aie_runtime_lib/AIE2/lut_based_ops.cpp``: it is compiled too and
both objects go into one archive, which is what the design links — exactly
what mlir-aie's examples do (``programming_examples/ml/gelu/Makefile``:
``-I${aie2_runtime_dir}`` for the kernel, ``lut_based_ops.o`` beside it,
``ar rvs kernels.a``, linked as ``Kernel("gelu_bf16", "kernels.a", ...)``).
The archiver is Peano's ``llvm-ar`` (``<peano>/bin/llvm-ar``), else the
system ``ar`` the makefiles use.

The key covers the bytes of every source compiled, the defines, the arch,
Peano's flags and the toolchain fingerprint; the file is named per
configuration (``LibraryKernel.object_name``) because aiecc copies linked
files by basename.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from ..core.canonical import canonical_json
from ..core.errors import UserError
from ..core.fsio import sha256_file, tmp_prefix

LINK_DIR = "link"  # under the kernel's xdna directory, as for the GEMM microkernel
LUT_OBJECT = "lut_based_ops.o"


def kernel_paths(entry, tools: dict) -> dict:
    """Where ``entry``'s sources are: ``{"source", "include", "lut_source", "lut_include"}`` (absolute
    paths; the LUT ones None unless the kernel needs them); UserError saying what is missing."""
    from .kernel_sources import locate_kernel_sources

    src = locate_kernel_sources(tools, entry.arch)
    if src.get("missing"):
        raise UserError(f"mlir-aie kernel {entry.symbol}: {src['missing']}")
    kernels = Path(src["mm_cc"]).parent.parent  # <...>/aie_kernels (next to or inside include)
    source = kernels / entry.source
    if not source.is_file():
        raise UserError(
            f"mlir-aie kernel {entry.symbol}: {source} does not exist (this mlir-aie has no aie_kernels/{entry.source}); "
            f"use xdna_bodies = \"generated\" or a newer mlir-aie"
        )
    out = {"source": str(source), "include": src["include"], "lut_source": None, "lut_include": None}
    if entry.lut:
        from ..emitters.aie.kernel_library import LUT_INCLUDE, LUT_RUNTIME

        prefix = Path(src["include"]).parent  # aie_runtime_lib is installed beside include/ (aie_runtime_lib/CMakeLists.txt)
        lut = prefix / LUT_RUNTIME
        if not lut.is_file():
            raise UserError(
                f"mlir-aie kernel {entry.symbol} needs {LUT_RUNTIME} and {lut} does not exist; "
                f"point {'NPUBUILD_AIE_INCLUDE'} at <mlir_aie>/include of a full mlir-aie install"
            )
        out.update(lut_source=str(lut), lut_include=str(prefix / LUT_INCLUDE))
    return out


def unavailable_sources(tools: dict) -> list[str] | None:
    """The catalog's kernels (``aie2/gelu.cc`` ...) the installed mlir-aie lacks (the source, or the LUT
    runtime it needs), or None when no mlir-aie kernel tree is found at all (nothing to decide here)."""
    from ..emitters.aie.kernel_library import CATALOG
    from .kernel_sources import locate_kernel_sources

    trees = {arch: locate_kernel_sources(tools, arch) for arch in sorted({e.arch for e in CATALOG})}
    if all(t.get("missing") for t in trees.values()):
        return None
    missing = []
    for e in CATALOG:
        if trees[e.arch].get("missing"):
            missing.append(e.source)
            continue
        try:
            kernel_paths(e, tools)
        except UserError:
            missing.append(e.source)
    return sorted(set(missing))


def aie_kernel_recipe(entry, toolchain: dict, tools: dict | None = None, peano_extra=()) -> dict:
    """What ``entry``'s linked file is made from (for the design's compile key); ``peano_extra``:
    the project's Peano options."""
    from ..core.tool_flags import with_extra
    from .aiecc import AIECC_FLAGS

    if tools is None:
        from .xdna import find_xdna_tools

        tools = find_xdna_tools(probe_versions=False)
    p = kernel_paths(entry, tools)
    return {
        "object": entry.object_name,
        "symbol": entry.symbol,
        "source": f"aie_kernels/{entry.source}",
        "source_sha256": sha256_file(Path(p["source"])),
        "lut_sha256": sha256_file(Path(p["lut_source"])) if p["lut_source"] else None,
        "defines": list(entry.defines),
        "arch": entry.arch,
        "flags": with_extra(list(AIECC_FLAGS["peano"]), list(peano_extra)),
        "toolchain": toolchain.get("id"),
    }


def recipe_key(recipe: dict) -> str:
    return hashlib.sha256(canonical_json({"aie_kernel": recipe}).encode()).hexdigest()


def archiver(tools: dict) -> str:
    """Peano's ``llvm-ar``, else the system ``ar`` (mlir-aie's makefiles run ``ar rvs``)."""
    peano = tools.get("peano") or {}
    base = peano.get("install_dir") or (str(Path(peano["path"]).parent.parent) if peano.get("path") else None)
    ar = Path(base) / "bin" / "llvm-ar" if base else None
    if ar is not None and os.access(ar, os.X_OK):
        return str(ar)
    system = shutil.which("ar")
    if system:
        return system
    raise UserError(
        f"cannot archive the LUT kernel objects: no llvm-ar in Peano's bin ({ar}) and no ar on PATH; "
        "reinstall llvm-aie or install binutils"
    )


def _archive(members: list[Path], out: Path, log_path: Path, tools: dict, timeout: float) -> None:
    """``ar rcs out members...`` in a temporary directory beside ``out``, replaced atomically."""
    from .tool_run import CompileFailed, check_output, failure, fsync_dir, fsync_file, run_logged, write_log

    log: list[str] = [f"# npubuild archive -> {out}"]
    ar = archiver(tools)
    tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix("ar"), dir=out.parent))
    ok = False
    try:
        try:
            run_logged(archive_argv(ar, out.name, members), tmp, dict(os.environ), timeout, log)
            check_output(tmp / out.name, Path(ar).name, log)
            fsync_file(tmp / out.name)  # as every tool output: durable before it takes its name
            os.replace(tmp / out.name, out)
            fsync_dir(out.parent)
            ok = True
            log.append("# ok")
        except CompileFailed:
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        write_log(log, log_path, ok)
    if not ok:
        raise failure(log, log_path, f"archiving {out.name}")


def placeholder_paths(entry) -> dict:
    """:func:`kernel_paths` for a machine without mlir-aie: the same places under ``<mlir_aie>``, for
    ``npubuild commands`` to show what the compile would run."""
    from ..emitters.aie.kernel_library import LUT_INCLUDE, LUT_RUNTIME

    root = "<mlir_aie>"
    return {"source": f"{root}/aie_kernels/{entry.source}", "include": f"{root}/include",
            "lut_source": f"{root}/{LUT_RUNTIME}" if entry.lut else None,
            "lut_include": f"{root}/{LUT_INCLUDE}" if entry.lut else None}


def _stem(entry) -> str:
    return entry.object_name.rsplit(".", 1)[0]


def compile_steps(entry, p: dict, link: Path) -> list[tuple[str, Path, Path, list[str], list[str]]]:
    """The Peano compiles that make ``entry``'s linked file, in order: (source, object, log, include dirs,
    defines), from its :func:`kernel_paths` ``p``. A LUT kernel is two objects, archived into
    ``entry.object_name`` (:func:`archive_argv`); any other kernel is that one object."""
    final = Path(link) / entry.object_name
    if not entry.lut:
        return [(p["source"], final, final.with_name(f"{_stem(entry)}.log"), [p["include"]], list(entry.defines))]
    stem = _stem(entry)
    return [(p["source"], final.with_name(f"{stem}.kernel.o"), final.with_name(f"{stem}.log"), [p["include"], p["lut_include"]],
             list(entry.defines)),
            (p["lut_source"], final.with_name(f"{stem}.{LUT_OBJECT}"), final.with_name(f"{stem}.lut.log"), [p["include"]], [])]


def archive_argv(ar: str, out_name: str, members) -> list[str]:
    """``ar rcs`` of the LUT kernel's objects (mlir-aie's makefiles run ``ar rvs``), run beside ``out``."""
    return [ar, "rcs", out_name, *(str(Path(m).absolute()) for m in members)]


def build_aie_kernel(entry, tools: dict, toolchain: dict, store_root: Path, out_dir: Path,
                     timeout: float = 600.0, peano_extra=()) -> Path:
    """``entry``'s linked file in ``out_dir/link/`` (from the stores when cached); returns its path."""
    from ..artifacts.stores import open_stores
    from .aiecc import compile_object

    p = kernel_paths(entry, tools)
    key = recipe_key(aie_kernel_recipe(entry, toolchain, tools, peano_extra))
    link = Path(out_dir) / LINK_DIR
    final = link / entry.object_name
    store = open_stores(store_root)
    if store.materialize(key, link) is not None:
        return final
    link.mkdir(parents=True, exist_ok=True)
    steps = compile_steps(entry, p, link)
    for src, obj, log, includes, defines in steps:
        compile_object(Path(src), obj, log, tools=tools, arch=entry.arch,
                       include_dirs=includes, defines=defines, timeout=timeout, extra_flags=list(peano_extra))
    if entry.lut:
        objs = [step[1] for step in steps]
        _archive(objs, final, link / f"{_stem(entry)}.ar.log", tools, timeout)
        for f in objs:
            f.unlink(missing_ok=True)
    store.put(key, {entry.object_name: final}, {"aie_kernel": entry.object_name})
    return final
