"""Drive the XDNA toolchain: aiecc (design -> ``final.xclbin`` + ``insts.bin``)
and Peano ``clang++`` (AIE microkernel -> object).

Thin like :mod:`npubuild.toolchain.xdna`: no heavy imports, and every command
line is a pure function of its arguments (:func:`aiecc_argv`,
:func:`peano_argv`). The compile functions follow
:func:`npubuild.toolchain.host.compile_shared_library`: each compile works in
its own temporary directory inside the output directory (named with
:data:`npubuild.core.fsio.TMP_PREFIX`, so a stale one left by a crash can be swept),
the full log (commands, environment overrides, output, exit status) is written
atomically whatever happens, outputs appear with fsync + ``os.replace``, and a
failure raises :class:`UserError` with the last :data:`LOG_TAIL_LINES` lines of
the log while the previous outputs stay as they were.

Flags, env vars and silent failures follow the project's research notes on
mlir-aie (``/work/shared/research/xdna.md`` §1a, §1b); see docs/toolchain.md.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from pathlib import Path

from ..core.errors import UserError
from ..core.fsio import atomic_write_text, sha256_file, tmp_prefix
from .core_elf import RESOURCES_NAME, measure_design
from .kernel_sources import ARCHES, INCLUDE_ENV, locate_kernel_sources  # noqa: F401  (re-exported: aiecc.* names)
from .kernel_sources import check_arch as _check_arch
from .tool_run import (
    DEFAULT_TIMEOUT,
    CompileFailed,
    check_output,
    failure,
    fsync_dir,
    fsync_file,
    preflight_error,
    run_logged,
    tool_timeout,
    write_log,
)

DIALECTS = ("legacy", "new")

# File names inside a compile's temporary directory (and, for the outputs, in
# out_dir). aiecc's own defaults ({device}_{seq}.bin, {device}.xclbin, and
# insts_{0}.bin / aie.xclbin in the declarative driver) are never relied on.
DESIGN_NAME = "aie.mlir"
XCLBIN_NAME = "final.xclbin"
INSTS_NAME = "insts.bin"
PRJ_NAME = "prj"
_RESERVED = frozenset({DESIGN_NAME, XCLBIN_NAME, INSTS_NAME, PRJ_NAME, RESOURCES_NAME})

# The flag sets a compile uses, recorded in every xdna compile key and build
# record (aiecc's own argv also depends on the detected CLI dialect, which is
# part of the toolchain fingerprint).
AIECC_FLAGS = {
    "aiecc": "explicit --xclbin-name/--npu-insts-name, per-compile --tmpdir, Peano backend",
    "peano": ["-O2", "-std=c++20", "-DNDEBUG", "-fstack-size-section"],
    # what resources.json holds (npubuild.toolchain.core_elf); a change re-measures
    "resources": "core ELF stack (.stack_sizes) and program memory, resources.json v1",
}

# PEANOWRAP2_FLAGS / PEANOWRAP2P_FLAGS of mlir-aie programming_examples/makefile-common
# at MA@1e40030 (xdna.md §1b), without the -I, which the caller passes.
PEANO_WARNING_FLAGS = (
    "-Wno-parentheses",
    "-Wno-attributes",
    "-Wno-macro-redefined",
    "-Wno-empty-body",
    "-Wno-missing-template-arg-list-after-template-kw",
)


# ---- command lines ----------------------------------------------------------------------------


def aiecc_argv(
    aiecc: str,
    cli_dialect: str,
    mlir: str,
    *,
    tmpdir: str,
    xclbin: str,
    insts: str,
    peano_dir: str | None,
    opt_level: int | None = None,
    extra: list[str] = (),
) -> list[str]:
    """The aiecc command line producing ``xclbin`` and ``insts`` from ``mlir``.

    ``cli_dialect`` is what :func:`npubuild.toolchain.xdna.detect_aiecc_dialect`
    returns. Output names are always explicit. Values are attached with ``=``
    (accepted by both argparse and LLVM's cl parser). The input comes last: the
    Python aiecc.py takes everything after its positional file as host-compiler
    arguments (``host_args``, argparse.REMAINDER, ``cl_arguments.py``).
    ``extra``: the project's aiecc options (``[tool.npubuild.flags] aiecc``), before
    the input; one of them setting ``--opt-level`` replaces the detected level.
    """
    from ..core.tool_flags import aiecc_sets_opt_level

    extra = list(extra)
    if aiecc_sets_opt_level(extra):
        opt_level = None
    peano = [f"--peano={peano_dir}"] if peano_dir else []
    if cli_dialect == "legacy":
        # opt_level: npubuild.toolchain.xdna.detect_opt_level (drivers whose opt runs uncapped O2)
        opt = [f"--opt-level={int(opt_level)}"] if opt_level is not None else []
        # 2025-03 .. mid-2026, Python aiecc.py and the C++ aiecc (xdna.md §1a; mlir-aie
        # #2075; IRON's compile_mlir_module at MA@1e40030 passes the same options).
        # --xchesscc/--xbridge default to on in the C++ driver (cl::init(true)), so the
        # --no-* forms are required for Peano; --no-compile-host is accepted by all.
        return [
            aiecc,
            "--no-compile-host",
            "--no-xchesscc",
            "--no-xbridge",
            *peano,
            *opt,
            "--aie-generate-xclbin",
            f"--xclbin-name={xclbin}",
            "--aie-generate-npu-insts",
            f"--npu-insts-name={insts}",
            f"--tmpdir={tmpdir}",
            *extra,
            mlir,
        ]
    if cli_dialect == "new":
        # Declarative aiecc with --get-<artifact> selectors (mlir-aie #3271/#3501).
        # Options checked in Xilinx/mlir-aie tools/aiecc/CommandLineOptions.h @
        # 08c791150ea62803920cd79f4c0360e7512dc59a (the newest stored version, code
        # index): "peano" (Peano install dir), "tmpdir" (default <input>.prj in cwd),
        # "xclbin-name" (default aie.xclbin), "npu-insts-name" (default insts_{0}.bin)
        # and the --get-xclbin / --get-npu-insts selectors exist; there is no
        # --no-compile-host (host compile only with --get-host) and no
        # --no-xchesscc/--no-xbridge (Peano is the default, Chess is opt-in with
        # --xchesscc/--xbridge), and unknown options are rejected, so neither is passed.
        # Output names are resolved against --output-dir (default ".", i.e. the cwd).
        return [
            aiecc,
            *peano,
            "--get-xclbin",
            f"--xclbin-name={xclbin}",
            "--get-npu-insts",
            f"--npu-insts-name={insts}",
            f"--tmpdir={tmpdir}",
            *extra,
            mlir,
        ]
    raise UserError(f"unknown aiecc CLI dialect {cli_dialect!r} (expected one of {', '.join(DIALECTS)})")


def peano_argv(
    clangxx: str, arch: str, src: str, out: str, include_dirs: list[str], defines: list[str], extra: list[str] = ()
) -> list[str]:
    """Peano ``clang++`` compiling one microkernel source to an object.

    PEANOWRAP2(P)_FLAGS of mlir-aie ``programming_examples/makefile-common``
    (xdna.md §1b): ``-O2 -std=c++20 --target=<arch>-none-unknown-elf``, the
    warning flags, ``-DNDEBUG``, ``-fstack-size-section``, then ``-I<dir>`` per
    include dir (the first one normally ``<mlir_aie>/include``) and ``-D<define>``
    per define (``NAME`` or ``NAME=VALUE``), then the project's Peano options
    (``extra``, ``[tool.npubuild.flags] peano``; an -O level there replaces -O2),
    then ``-c src -o out``.
    """
    from ..core.tool_flags import sets_opt_level

    _check_arch(arch)
    for d in defines:
        if not d or d.startswith("-"):
            raise UserError(f"bad define {d!r}: expected NAME or NAME=VALUE")
    opt = [] if sets_opt_level(extra) else ["-O2"]
    return [
        clangxx,
        *opt,
        "-std=c++20",
        f"--target={arch}-none-unknown-elf",
        *PEANO_WARNING_FLAGS,
        "-DNDEBUG",
        # a .stack_sizes record per function, read from the core ELF after the link
        # (toolchain.core_elf); IRON's JIT adds it too: mlir-aie python/utils/compile/
        # utils.py compile_cxx_core_function (code index file id 60233883999)
        "-fstack-size-section",
        *(f"-I{d}" for d in include_dirs),
        *(f"-D{d}" for d in defines),
        *extra,
        "-c",
        src,
        "-o",
        out,
    ]


def _tool_problem(tools: dict, names: tuple[str, ...]) -> str | None:
    labels = {"aiecc": "aiecc", "peano": "Peano", "xclbinutil": "xclbinutil"}
    for name in names:
        t = tools.get(name) or {}
        if not t.get("path") or t.get("missing"):
            reason = t.get("missing") or f"not found: {labels[name]}"
            return f"cannot compile for xdna: {reason} (see `npubuild doctor`)"
    return None


def _objects_by_basename(objects) -> dict[str, Path]:
    """Linked objects keyed by basename; aiecc copies them into its work dir by
    basename (xdna.md §1a, aiecc.cpp ~l.2451), so two different files with one
    basename would silently link the wrong code."""
    by_name: dict[str, Path] = {}
    digests: dict[str, str] = {}
    for obj in objects:
        obj = Path(obj)
        name = obj.name
        if not obj.is_file():
            raise UserError(f"linked object {obj} does not exist")
        if name in _RESERVED or name.startswith("."):
            raise UserError(f"linked object {obj}: the name {name!r} is reserved in the compile directory; rename it")
        digest = sha256_file(obj)
        if name in by_name:
            if digests[name] != digest:
                raise UserError(
                    f"linked objects {by_name[name]} and {obj} share the basename {name!r} but differ; "
                    "aiecc resolves link_with by basename, so give them distinct names"
                )
            continue
        by_name[name] = obj
        digests[name] = digest
    return by_name


# ---- xdna design compile ----------------------------------------------------------------------


class _OverLimit(CompileFailed):
    pass  # a core over its stack or program memory; the message has the numbers


def compile_design(
    mlir_text: str,
    out_dir: Path,
    log_path: Path,
    *,
    tools: dict,
    cli_dialect: str,
    objects: list[Path] = (),
    timeout: float = DEFAULT_TIMEOUT,
    arch: str | None = None,
    opt_level: int | None = None,
    extra_options: list[str] = (),
) -> None:
    """Compile the AIE design ``mlir_text`` to ``out_dir/final.xclbin`` and
    ``out_dir/insts.bin`` with aiecc (Peano backend), with the measured stack
    and program memory of every core in ``out_dir/resources.json``.

    ``tools`` is :func:`npubuild.toolchain.xdna.find_xdna_tools`'s result and
    ``cli_dialect`` the aiecc CLI dialect (``"legacy"`` or ``"new"``). Each
    file in ``objects`` is copied into the compile directory under its basename,
    which is how the design's ``link_with`` names it.

    aiecc runs in a fresh ``out_dir/.npb-tmp-xdna-*`` directory (its ``--tmpdir``
    is the ``prj`` subdirectory there) with ``PEANO_INSTALL_DIR`` set and
    xclbinutil's directory first on ``PATH``. An exit 0 that leaves either
    output missing or empty, or an ``insts.bin`` that is not whole 32-bit
    words, is a failure (aiecc skips the xclbin without an error when it
    cannot find xclbinutil), as are a non-zero exit and a run longer than
    ``timeout`` seconds (limits.aiecc_timeout; ``$NPUBUILD_AIECC_TIMEOUT`` wins).
    Then every core ELF in aiecc's tmpdir is measured (:mod:`.core_elf`; ``arch``
    ``aie2``/``aie2p``, else from ``aie.device``): a frame over the core's
    ``stack_size`` or code over its program memory fails the compile with the
    numbers; what cannot be measured is said in the log and resources.json. The full log goes to
    ``log_path`` in every case; on failure the previous outputs are untouched
    and :class:`UserError` carries the log's tail.
    """
    out_dir, log_path = Path(out_dir), Path(log_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    log: list[str] = [f"# npubuild xdna compile -> {out_dir}"]
    timeout, linked = _design_preflight(tools, cli_dialect, objects, timeout, log, log_path)
    peano_dir, env = _aiecc_env(tools, cli_dialect, log)

    tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix("xdna"), dir=out_dir))
    ok = False
    over_limit = None
    try:
        try:
            _stage_inputs(tmp, mlir_text, linked, log)
            run_logged(design_command(tools["aiecc"]["path"], cli_dialect, tmp, peano_dir, opt_level, extra_options), tmp, env, timeout, log)
            _check_design_outputs(tmp, log)
            # before the outputs replace the previous ones: an over-the-limit core keeps them
            _write_resources(mlir_text, tmp, arch, peano_dir, log)
            _install_outputs(tmp, out_dir, (XCLBIN_NAME, INSTS_NAME, RESOURCES_NAME))
            ok = True
            log.append("# ok")
        except _OverLimit as e:
            over_limit = str(e)
        except CompileFailed:
            pass
        except OSError as e:  # writing the compile directory
            log.append(f"error: {e}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        write_log(log, log_path, ok)
    if over_limit is not None:
        raise UserError(f"xdna compile of {out_dir} failed: {over_limit}; the previous outputs were kept (full log: {log_path})")
    if not ok:
        raise failure(log, log_path, f"xdna compile of {out_dir}")


def _design_preflight(tools: dict, cli_dialect: str, objects, timeout: float, log: list[str], log_path: Path):
    """(timeout, linked objects by basename) when the tools, the dialect, the timeout and the
    objects are usable; else the problem, logged, as a one-line UserError before anything runs."""
    problem = _tool_problem(tools, ("aiecc", "peano", "xclbinutil"))
    if problem is None and cli_dialect not in DIALECTS:
        problem = (
            f"cannot compile for xdna: aiecc at {tools['aiecc']['path']} has an unknown CLI dialect "
            f"({cli_dialect!r}; its --help lists neither --aie-generate-xclbin nor --get-xclbin)"
        )
    if problem is None:
        try:
            return tool_timeout(timeout), _objects_by_basename(objects)
        except UserError as e:
            problem = str(e)
    raise preflight_error(log, log_path, problem)


def aiecc_env_lines(tools: dict) -> list[str]:
    """aiecc's environment overrides as shell assignments (``PATH=<xclbinutil dir>:$PATH``): what the
    compile's log records and ``npubuild commands`` notes."""
    env = _aiecc_overrides(tools, "")  # PATH: xclbinutil's directory alone, then the caller's
    return [f"{k}={shlex.quote(v)}" + (":$PATH" if k == "PATH" else "") for k, v in env.items()]


def _aiecc_overrides(tools: dict, path: str) -> dict[str, str]:
    """PEANO_INSTALL_DIR set and xclbinutil's directory first on ``path`` (the current PATH)."""
    xclbinutil_dir = str(Path(tools["xclbinutil"]["path"]).parent)
    return {
        "PEANO_INSTALL_DIR": peano_install_dir(tools),
        # Honoured by the declarative aiecc (CommandLineOptions.h @08c79115: an
        # unusable one fails loudly); older drivers ignore it and search PATH.
        "AIE_XCLBINUTIL": tools["xclbinutil"]["path"],
        "PATH": os.pathsep.join([xclbinutil_dir, *(d for d in path.split(os.pathsep) if d)]),
    }


def _aiecc_env(tools: dict, cli_dialect: str, log: list[str]) -> tuple[str, dict[str, str]]:
    """(Peano's install dir, aiecc's environment): PEANO_INSTALL_DIR set and xclbinutil's
    directory first on PATH; the overrides are logged."""
    overrides = _aiecc_overrides(tools, os.environ.get("PATH", ""))
    log.append(f"# aiecc CLI dialect: {cli_dialect}")
    log.extend(f"# env {line}" for line in aiecc_env_lines(tools))
    return overrides["PEANO_INSTALL_DIR"], dict(os.environ, **overrides)


def peano_install_dir(tools: dict) -> str | None:
    """Peano's install directory (what aiecc's --peano and PEANO_INSTALL_DIR name), None when Peano is not found."""
    peano = tools.get("peano") or {}
    return peano.get("install_dir") or (str(Path(peano["path"]).parent.parent) if peano.get("path") else None)


def design_command(aiecc: str, cli_dialect: str, workdir: Path, peano_dir: str | None, opt_level: int | None,
                   extra_options) -> list[str]:
    """aiecc's argv for the design staged in ``workdir``, its work in ``workdir/prj`` (the opt level only
    where the legacy driver takes one): what :func:`compile_design` runs and ``npubuild commands`` prints."""
    return aiecc_argv(
        aiecc,
        cli_dialect,
        DESIGN_NAME,
        tmpdir=str(Path(workdir) / PRJ_NAME),
        xclbin=XCLBIN_NAME,
        insts=INSTS_NAME,
        peano_dir=peano_dir,
        opt_level=opt_level if cli_dialect == "legacy" else None,
        extra=extra_options,
    )


def _stage_inputs(tmp: Path, mlir_text: str, linked: dict[str, Path], log: list[str]) -> None:
    """The design and the linked objects (under the basenames its link_with names) in the compile directory."""
    (tmp / DESIGN_NAME).write_text(mlir_text, encoding="utf-8")
    for name, src in sorted(linked.items()):
        shutil.copyfile(src, tmp / name)
        log.append(f"# linked object {name} <- {src}")


def _check_design_outputs(tmp: Path, log: list[str]) -> None:
    """aiecc exits 0 without an xclbin when it cannot run xclbinutil: both outputs must be there,
    non-empty, and insts.bin whole 32-bit instruction words."""
    check_output(
        tmp / XCLBIN_NAME,
        "aiecc",
        log,
        why_missing=" (aiecc skips the xclbin without an error when it cannot run xclbinutil)",
    )
    check_output(tmp / INSTS_NAME, "aiecc", log, word_aligned=True)


def _write_resources(mlir_text: str, tmp: Path, arch: str | None, peano_dir: str, log: list[str]) -> None:
    """Every core ELF in aiecc's tmpdir measured into resources.json; a core over its stack or
    program memory raises :class:`_OverLimit` (the numbers logged)."""
    resources, over = measure_design(mlir_text, tmp / PRJ_NAME, arch, peano_dir, log)
    log.extend(f"error: {p}" for p in over)
    if over:
        raise _OverLimit("; ".join(over))
    atomic_write_text(tmp / RESOURCES_NAME, json.dumps(resources, indent=1, sort_keys=True) + "\n")


def _install_outputs(tmp: Path, out_dir: Path, names: tuple[str, ...]) -> None:
    """The outputs take their names in ``out_dir`` only once all are durable, then the directory entry is."""
    for name in names:
        fsync_file(tmp / name)
    for name in names:
        os.replace(tmp / name, out_dir / name)
    fsync_dir(out_dir)


# ---- Peano microkernel compile ----------------------------------------------------------------


def object_command(clangxx: str, src: Path, out: Path, arch: str, include_dirs, defines, extra_flags=()) -> list[str]:
    """Peano's argv compiling ``src`` to ``out``, run in a directory beside ``out`` (it names ``out`` by its
    basename): what :func:`compile_object` runs and ``npubuild commands`` prints. The caller passes absolute
    paths (clang runs in a temporary directory)."""
    return peano_argv(clangxx, arch, str(src), Path(out).name, list(include_dirs), list(defines), list(extra_flags))


def compile_object(
    src: Path,
    out: Path,
    log_path: Path,
    *,
    tools: dict,
    arch: str,
    include_dirs,
    defines,
    timeout: float = DEFAULT_TIMEOUT,
    extra_flags: list[str] = (),
) -> None:
    """Compile the microkernel ``src`` to the object ``out`` with Peano
    ``clang++`` (:func:`peano_argv`) for ``arch`` (``aie2`` = npu1, ``aie2p``
    = npu2).

    The source is passed by absolute path, so its relative includes (mm.cc's
    ``"../aie_kernel_utils.h"`` and ``"zero.cc"``) resolve next to it. Same
    rules as :func:`compile_design`: a temporary directory beside ``out``, the
    full log in ``log_path``, ``out`` replaced atomically only on success, a
    missing or empty object after exit 0 is a failure, the same timeout.
    """
    src, out, log_path = Path(src).absolute(), Path(out), Path(log_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    log: list[str] = [f"# npubuild Peano compile {src} -> {out}"]
    peano = tools.get("peano") or {}
    problem = None
    try:
        _check_arch(arch)
        if not peano.get("path"):
            raise UserError(f"cannot compile {src.name}: {peano.get('missing') or 'not found: Peano clang++'}")
        if not src.is_file():
            raise UserError(f"cannot compile {src}: no such file")
        timeout = tool_timeout(timeout)
        tmp_out_name = out.name
        # Absolute include dirs: clang runs in the temporary directory.
        incs = [os.path.abspath(d) for d in include_dirs]
        cmd = object_command(peano["path"], src, out, arch, incs, defines, extra_flags)
    except UserError as e:
        problem = str(e)
    if problem is not None:
        raise preflight_error(log, log_path, problem)

    tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix("peano"), dir=out.parent))
    tmp_out = tmp / tmp_out_name  # cmd writes it: cwd is tmp
    ok = False
    try:
        try:
            run_logged(cmd, tmp, dict(os.environ), timeout, log)
            check_output(tmp_out, Path(peano["path"]).name, log)
            fsync_file(tmp_out)
            os.replace(tmp_out, out)
            fsync_dir(out.parent)
            ok = True
            log.append("# ok")
        except CompileFailed:
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        write_log(log, log_path, ok)
    if not ok:
        raise failure(log, log_path, f"Peano compile of {src.name}")
