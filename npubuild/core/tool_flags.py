"""Per-target tool options a project adds to npubuild's own: ``[tool.npubuild.flags]``.

    [tool.npubuild.flags]
    llc   = ["-O3", "-mattr=+avx2"]  # host: llc options; an -O level replaces npubuild's -O2
    cc    = ["-s"]                   # host: options of the `cc -shared` link
    aiecc = ["--opt-level=3"]        # xdna: aiecc options, placed before the design file
    peano = ["-O3", "-ffast-math"]   # xdna: Peano clang++ options for the kernels a design links
                                     # (mm.cc, mlir-aie's aie_kernels); an -O level replaces -O2

Each has an environment form (``NPUBUILD_LLC_FLAGS`` ...: one string, split like a
shell command line) that replaces the table's list. The options are part of the
target's recipe, so they are in every compile key and build record: a change
recompiles and never reuses an artifact built with other options.

The table may come from someone else (a shared pyproject.toml, a CI
environment), and these tools take options that load code (llc ``-load=``,
cc ``-B``, ``-fplugin=``, linker plugins), write files anywhere (``-Wl,-Map=``,
llc ``-time-trace-file=``), read files into the log (``@file``, ``-Wl,@file``) or
make a library that loads and crashes (``-Wl,--defsym=kernel=0``). So each tool
accepts an ALLOWLIST (:data:`ALLOWED`): options that cannot load code, name a
file or change what kind of output is built -- optimisation levels, target
attributes that are not paths, warnings, defines -- each with the reason it is
safe. Everything else is refused when the configuration is loaded, naming the
option and why (:data:`_REFUSED` words the common cases: passthrough to another
program, code loading, file names, npubuild's own options).
"""
from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

from .errors import UserError

TOOLS = ("llc", "cc", "aiecc", "peano")
ENV = {tool: f"NPUBUILD_{tool.upper()}_FLAGS" for tool in TOOLS}
MAX_FLAGS = 64
MAX_FLAG_CHARS = 512

_BOOL = r"(=(true|false|1|0))?"  # LLVM's cl::opt<bool> spellings
_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"  # a feature / warning name: no '/', '@', '=' or ','
# the macros npubuild defines to select the kernel a design calls (emitters.aie.gemm_micro.mm_defines, NDEBUG
# of toolchain.aiecc.peano_argv): a later -D would win silently (Peano runs with -Wno-macro-redefined)
_OWN_MACROS = r"NDEBUG|DIM_[MKN]|VECTORIZED_ONLY|[A-Za-z0-9]+_[A-Za-z0-9]+_ONLY"
_NOT_OURS = rf"(?!({_OWN_MACROS})(=|$))"

# tool -> ((regex of the whole option, what it does and why it is safe), ...). The regexes
# match the whole entry (re.fullmatch), values included, so a value can never carry a path.
ALLOWED = {
    # llc compiles npubuild's kernel.ll to kernel.o; LLVM's option parser takes -x and --x alike.
    "llc": (
        (r"-O[0-3]", "optimisation level (llc takes -O0..-O3); replaces npubuild's -O2"),
        (rf"--?mattr=[+-]{_NAME}(,[+-]{_NAME})*",
         "CPU features by name (+avx2,-fma); a kernel using a feature a machine lacks faults there, as host_cpu = native"),
        (rf"--?(fast-isel|global-isel){_BOOL}", "which instruction selector runs"),
        (rf"--?enable-(post-)?misched{_BOOL}", "machine instruction scheduling on or off"),
        (r"--?frame-pointer=(all|non-leaf|none)", "keep frame pointers for profilers"),
        (r"--?align-loops=[0-9]{1,4}", "loop alignment in bytes"),
        (r"--?fp-contract=(fast|on|off)", "whether a*b+c may become one fused multiply-add"),
        (r"--?time-passes", "pass timings, printed into build.log (never to a file)"),
    ),
    # cc only links kernel.o into kernel.so: compile options do nothing here, and every linker option
    # (-Wl,, -Xlinker, -z, -T, -L/-l) can load code, write files or change what the library exports.
    "cc": (
        (r"-s", "strip the static symbol table (the runtime reads kernel and npubuild_abi from the dynamic one)"),
        (r"-v", "print the commands the compiler driver runs into build.log"),
    ),
    # aiecc (Python aiecc.py and the C++/declarative drivers; mlir-aie python/compiler/aiecc/cl_arguments.py,
    # tools/aiecc/CommandLineOptions.h): only options that every driver spells the same way (not -j: argparse
    # takes -j4, LLVM's parser -j=4 unless the option is a prefix one, as only the declarative driver's is).
    "aiecc": (
        (r"--opt-level=[0-3]", "optimisation level of the core compiles; replaces the level npubuild detects"),
        (r"-v|--verbose", "trace the commands aiecc runs into build.log"),
        (r"--alloc-scheme=(basic-sequential|bank-aware)", "how buffers are placed in a tile's memory banks"),
        (r"--(no-)?unified", "lower all cores together or each on its own"),
    ),
    # Peano clang++ compiles mm.cc and mlir-aie's aie_kernels to objects the design links.
    "peano": (
        (r"-O([0-3]|s|z)", "optimisation level; replaces npubuild's -O2"),
        (rf"-D{_NOT_OURS}[A-Z][A-Z0-9_]*(=[A-Za-z0-9_.+-]*)?",
         "define an upper-case macro (keywords and library names are lower case); not one npubuild sets"),
        (rf"-U{_NOT_OURS}[A-Z][A-Z0-9_]*", "undefine an upper-case macro; not one npubuild sets"),
        (r"-W(no-)?(error=)?[a-z][a-z0-9+-]*(=[0-9]{1,9})?|-Werror|-w",
         "warnings on, off or as errors (-Wl,/-Wa,/-Wp, are passthrough and refused)"),
        (r"-f(no-)?(fast-math|finite-math-only|math-errno|signed-zeros|reciprocal-math|associative-math|approx-func"
         r"|honor-infinities|honor-nans|trapping-math|unroll-loops|vectorize|slp-vectorize|inline|inline-functions"
         r"|inline-hint-functions|strict-aliasing|omit-frame-pointer|merge-all-constants|function-sections"
         r"|data-sections|builtin)", "a code-generation choice: floating-point model, loops, inlining, layout"),
        (r"-ffp-contract=(fast|on|off|fast-honor-pragmas)|-ffp-model=(precise|strict|fast)", "floating-point model"),
        (r"-f(template-depth|constexpr-depth|constexpr-steps|bracket-depth)=[0-9]{1,9}", "compiler recursion limits"),
        (r"-g[0-3]?", "debug information in the object (not loaded onto the core)"),
    ),
}

_PASSTHROUGH = "passes its arguments to another program (linker, assembler, preprocessor or LLVM itself), which can load plugins and read or write files"
_LOADS = "loads code into the compiler or runs another program"
_FILE = "names a file or directory; inputs, outputs and tool locations are npubuild's"

# (tools, regex of the option, why): the refusals worth their own words, looked up once the allowlist
# has said no (what is not allowed is refused whether or not it is named here).
_REFUSED = (
    (TOOLS, r"@.*", "is a response file: its lines would become options (and land in build.log)"),
    (("cc", "peano"), r"-Wl,.*|-Xlinker.*|--?linker-option.*|-z.*|-Wa,.*|-Xassembler.*|-Wp,.*|-Xpreprocessor.*|-Xclang.*"
            r"|-mllvm.*|-X.*", _PASSTHROUGH),
    (TOOLS, r"--?load(=.*)?|--?load-pass-plugin.*|.*plugin.*|-B.*|--?prefix.*|-fuse-ld.*|--?ld-path.*"
            r"|-no-integrated-as|-fno-integrated-as|--?xclbinutil-path.*|--?aietools.*", _LOADS),
    (TOOLS, r"--?specs.*|-specs.*", "a specs file rewrites the commands the compiler driver runs"),
    (("llc",), r"-o.*", "npubuild names llc's output"),
    (("llc",), r"--?filetype.*", "npubuild needs an object file"),
    (("llc",), r"--?relocation-model.*", "a shared library needs position-independent code"),
    (("llc",), r"--?(mtriple|march).*", "host kernels are for this machine's architecture"),
    (("llc",), r"--?mcpu.*", "set host_cpu in [tool.npubuild] instead"),
    (("llc",), r"-O.*", "llc takes -O0, -O1, -O2 or -O3"),
    (("cc",), r"-o.*", "npubuild names the shared library"),
    (("cc",), r"-c|-S|-E|-M.*|-shared|-static.*|-r|-nostdlib.*|-nostartfiles|-nodefaultlibs|-pie|-no-pie|-e.*|-u.*|-T.*|-L.*|-l.*",
     "the link's inputs and the kind of output (a shared library of kernel.o) are npubuild's"),
    (("cc",), r"-O.*|-march.*|-mtune.*|-mcpu.*|-g.*|-f.*|-m.*|-std.*|-D.*|-U.*|-I.*",
     "cc only links kernel.o, which llc compiled: compile options change nothing here (optimisation: flags.llc; CPU: host_cpu)"),
    (("aiecc",), r"--(xclbin-name|npu-insts-name|output-dir|elf-name|full-elf-name|pdi-name|txn-name|ctrlpkt.*-name).*",
     "npubuild names the outputs"),
    (("aiecc",), r"--tmpdir.*", "npubuild gives each compile its own directory"),
    (("aiecc",), r"--peano.*", "npubuild passes the detected Peano"),
    (("aiecc",), r"--(no-)?compile-host.*|--host-target.*|--sysroot.*|-[ILlo].*", "npubuild builds no host program"),
    (("aiecc",), r"--(get|aie-generate)-.*|--get=.*|--generate-full-elf", "npubuild selects the outputs"),
    (("aiecc",), r"--(no-)?(xchesscc|xbridge)", "npubuild compiles and links cores with Peano"),
    (("aiecc",), r"--(xclbin-(kernel-name|instance-name|kernel-id|input)|device-name|sequence-name).*",
     "the runtime loads the kernel, instance and sequence npubuild names"),
    (("aiecc",), r"-O.*|--opt-level.*", "aiecc takes --opt-level=0..3"),
    (("peano",), r"-o.*", "npubuild names the object"),
    (("peano",), r"-c|-S|-E|-M.*|-emit-.*|-fsyntax-only|-###", "npubuild compiles to an object"),
    (("peano",), r"--?target.*|-m.*", "the target is the device's (xdna_device)"),
    (("peano",), rf"-[DU]({_OWN_MACROS})(=.*)?",
     "npubuild sets this macro (NDEBUG; the dimensions and dtypes that select the kernel a design calls)"),
    (("peano",), r"-[DU]_.*", "names starting with '_' are the compiler's and the library's"),
    (("peano",), r"-fno-stack-size-section|-fstack-size-section", "npubuild reads each core's stack from these records"),
    (("peano",), r"-I.*|-i.*|-include.*|--?sysroot.*|-isystem.*|-iquote.*|-L.*|-l.*", _FILE),
)


def _refusal(tool: str, flag: str) -> str | None:
    """Why ``flag`` is not accepted for ``tool``, or None when the allowlist takes it."""
    # the allowlist decides; _REFUSED only words the refusal (none of its patterns is allowed anyway)
    if any(re.fullmatch(pattern, flag) for pattern, _ in ALLOWED[tool]):
        return None
    for tools, pattern, why in _REFUSED:
        if tool in tools and re.fullmatch(pattern, flag, re.S):
            return why
    value = flag.partition("=")[2]
    if any(c in value for c in "/\\~") or re.search(r"(file|path|dir|output|out)$", flag.partition("=")[0]):
        return _FILE
    return (f"it is not one of the {tool} options npubuild accepts ({allowed_summary(tool)}): only options that "
            "cannot load code, name a file or change the kind of output are (docs/toolchain.md#extra-tool-options)")


def allowed_summary(tool: str) -> str:
    """The allowlist of ``tool`` in short, for messages."""
    return {
        "llc": "-O0..-O3, -mattr=+feature,-feature, -fast-isel, -global-isel, -enable-misched, -enable-post-misched, "
               "-frame-pointer=, -align-loops=N, -fp-contract=, -time-passes",
        "cc": "-s, -v",
        "aiecc": "--opt-level=0..3, -v/--verbose, --alloc-scheme=basic-sequential|bank-aware, --[no-]unified",
        "peano": "-O0..-O3/-Os/-Oz, -DMACRO[=value], -UMACRO, -W warnings, -w, floating-point, loop, inlining "
                 "and layout -f options, -ffp-contract=, -ffp-model=, -g",
    }[tool]


@dataclass(frozen=True)
class ToolFlags:
    """The extra options per tool, as validated lists (tuples)."""

    llc: tuple = ()
    cc: tuple = ()
    aiecc: tuple = ()
    peano: tuple = ()

    def of(self, tool: str) -> list[str]:
        return list(getattr(self, tool))


def _is_opt_level(flag: str) -> bool:
    return re.fullmatch(r"-O[0-3sz]?", flag) is not None


def sets_opt_level(extra) -> bool:
    return any(_is_opt_level(f) for f in extra)


def with_extra(base: list[str], extra: list[str]) -> list[str]:
    """``base`` then ``extra``; an optimisation level in ``extra`` replaces ``base``'s (llc and clang
    take the last of two, so the command line and the build record say the level that applies)."""
    if sets_opt_level(extra):
        base = [f for f in base if not _is_opt_level(f)]
    return [*base, *extra]


def aiecc_sets_opt_level(extra) -> bool:
    return any(f == "--opt-level" or f.startswith("--opt-level=") for f in extra)


def _check(tool: str, flags, where: str) -> tuple:
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise UserError(f"{where}: flags.{tool} must be a list of option strings such as [\"-O3\"], got {flags!r}")
    if len(flags) > MAX_FLAGS:
        raise UserError(f"{where}: flags.{tool} has {len(flags)} options; at most {MAX_FLAGS}")
    for f in flags:
        if f.startswith("@"):
            raise UserError(f"{where}: flags.{tool}: {f!r} is not accepted: {_refusal(tool, f)}")
        if not f.startswith("-") or len(f) > MAX_FLAG_CHARS or any(c in f for c in "\0\n\r"):
            raise UserError(
                f"{where}: flags.{tool}: {f!r} is not an option (each entry is one option starting with '-', "
                f"at most {MAX_FLAG_CHARS} characters, its value attached with '='; inputs and outputs are npubuild's)"
            )
        why = _refusal(tool, f)
        if why is not None:
            raise UserError(f"{where}: flags.{tool}: {f!r} is not accepted: {why}")
    return tuple(flags)


def tool_flags_from(table, where: str) -> ToolFlags:
    """The validated flags of ``[tool.npubuild.flags]`` (``table``; None: none) with the environment's."""
    from .errors import did_you_mean

    if table is None:
        table = {}
    if not isinstance(table, dict):
        raise UserError(f"{where}: [tool.npubuild] flags must be a table: [tool.npubuild.flags] with {', '.join(TOOLS)}")
    for k in table:
        if k not in TOOLS:
            raise UserError(f"{where}: unknown tool '{k}' in [tool.npubuild.flags]{did_you_mean(k, TOOLS)}; known: {', '.join(TOOLS)}")
    values = {}
    for tool in TOOLS:
        env = os.environ.get(ENV[tool])
        if env is not None:
            try:
                values[tool] = _check(tool, shlex.split(env), ENV[tool])
            except ValueError as e:
                raise UserError(f"{ENV[tool]}: {e}") from None
        else:
            values[tool] = _check(tool, table.get(tool, []), where)
    return ToolFlags(**values)
