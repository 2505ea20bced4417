"""Per-target tool options a project adds to npubuild's own: ``[tool.npubuild.flags]``.

    [tool.npubuild.flags]
    llc   = ["-O3"]              # host: llc options; an -O level replaces npubuild's -O2
    cc    = ["-Wl,--build-id=none"]  # host: options of the `cc -shared` link
    aiecc = ["--opt-level=3"]    # xdna: aiecc options, placed before the design file
    peano = ["-O3"]              # xdna: Peano clang++ options for the kernels a design links
                                 # (mm.cc, mlir-aie's aie_kernels); an -O level replaces -O2

Each has an environment form (``NPUBUILD_LLC_FLAGS`` ...: one string, split like a
shell command line) that replaces the table's list. The options are part of the
target's recipe, so they are in every compile key and build record: a change
recompiles and never reuses an artifact built with other options.

The options npubuild itself sets to name inputs, outputs and the target
(``-o``, llc's ``-filetype``/``-relocation-model``/``-mtriple``, aiecc's output
names and tmpdir, Peano's ``--target``) are refused: a project cannot change
them without breaking what the runtime loads. ``-mcpu`` for llc is the
``host_cpu`` setting's.
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

# tool -> (regex of a refused option's name, why / what to use instead)
_RESERVED = {
    "llc": (
        (r"-o", "npubuild names llc's output"),
        (r"--?filetype", "npubuild needs an object file"),
        (r"--?relocation-model", "a shared library needs position-independent code"),
        (r"--?mtriple", "host kernels are for this machine's architecture"),
        (r"--?march", "host kernels are for this machine's architecture"),
        (r"--?mcpu", "set host_cpu in [tool.npubuild] instead"),
    ),
    "cc": ((r"-o.*", "npubuild names the shared library"), (r"-c", "the cc step links")),
    "aiecc": (
        (r"--(xclbin-name|npu-insts-name|output-dir)", "npubuild names the outputs"),
        (r"--tmpdir", "npubuild gives each compile its own directory"),
        (r"--peano", "npubuild passes the detected Peano"),
        (r"--(no-)?compile-host", "npubuild builds no host program"),
        (r"--(get|aie-generate)-.*", "npubuild selects the outputs"),
        (r"--(no-)?(xchesscc|xbridge)", "npubuild compiles and links cores with Peano"),
    ),
    "peano": (
        (r"-o.*", "npubuild names the object"), (r"-c", "npubuild compiles to an object"),
        (r"--?target", "the target is the device's (xdna_device)"),
    ),
}


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
        if not f.startswith("-") or len(f) > MAX_FLAG_CHARS or any(c in f for c in "\0\n\r"):
            raise UserError(
                f"{where}: flags.{tool}: {f!r} is not an option (each entry is one option starting with '-', "
                f"at most {MAX_FLAG_CHARS} characters; inputs and outputs are npubuild's)"
            )
        name = f.split("=", 1)[0]
        for pattern, why in _RESERVED[tool]:
            if re.fullmatch(pattern, name):
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
