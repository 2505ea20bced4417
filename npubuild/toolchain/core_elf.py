"""Stack and program memory of every AIE core, measured on the ELFs aiecc links.

After a successful aiecc run, and before its outputs replace the previous ones,
:func:`measure_design` finds each core's ELF in aiecc's ``--tmpdir`` and reads
it with the installed Peano ``llvm-readelf``: the frames in ``.stack_sizes``
against the core's ``stack_size``, the executable sections against the core's
program memory. The figures become ``resources.json`` among the compile's
outputs; a core over either limit fails the compile (see
:func:`npubuild.toolchain.aiecc.compile_design`).

Why this is needed (research: /work/shared/research/xdna-review.md items 2, 5, 11):

* Xilinx/mlir-aie @1e400306 (2026-03-13) ``include/aie/Dialect/AIE/IR/AIEOps.td:400``
  defaults ``stack_size`` to 0x400, and ``lib/Targets/AIETargetLdScript.cpp:156-166``
  puts the stack right below the core's buffers: an overrun corrupts them with no
  error. ``tools/aiecc/aiecc.cpp:2191-2226`` (same commit) runs Peano's ``llc``
  without ``-stack-size-section``, so the core's own function has no frame record;
  only objects compiled with ``-fstack-size-section`` (our microkernels) do.
* The same ld script gives ``program (RX)`` 0x20000 bytes (``AIETargetLdScript.cpp:99``),
  eight times the real program memory, so an oversized core links and fails late;
  the newest AIETargetLdScript.cpp (code index, file id 68859653520) says so and
  uses ``targetModel.getProgramMemorySize()`` (0x4000).
* The newest declarative aiecc measures by itself: ``tools/aiecc/StackSizeAnalysis.h``
  (@07a6d645) walks the call graph from the ELF entry over ``.stack_sizes`` and the
  relocations (``-Wl,--emit-relocs``) and fails the run (non-zero exit, which
  compile_design already reports). Functions without a ``.stack_sizes`` entry count
  as 0 there ("A kernel compiled without -fstack-size-section lands here").

Without relocations there is no call graph here, so the figures are bounds:
``stack_bytes`` is the largest single frame (the core needs at least that: over
the limit is a certain overflow and fails), ``stack_frames_total`` the sum of all
measured frames (at most that, when every function is measured and nothing
recurses: over the limit is only a warning). Functions the symbol table defines
but ``.stack_sizes`` does not list are named in ``stack_unmeasured``. An ELF
without ``.stack_sizes`` is "not measured", never 0.
"""
from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import tempfile
from pathlib import Path

RESOURCES_NAME = "resources.json"
RESOURCES_SCHEMA = 1

# Program memory per core. AIE-ML (aie2, npu1): "Each AI Engine-ML has 16 KB of program
# memory" (AMD UG1603, AI Engine-ML Memory). AIE-ML v2 (aie2p, npu2): "The AIE-ML v2 tile
# has a local 16 KB of program memory" (AMD AM027 rev 1.1, AIE-ML v2 Tile Program Memory).
# The newest mlir-aie ld script uses 0x4000 from the target model (see the module docstring).
PROGRAM_MEMORY = {"aie2": 0x4000, "aie2p": 0x4000}
# mlir-aie AIEOps.td:400 @1e400306: DefaultValuedAttr<AIEI32Attr, "0x400">:$stack_size
DEFAULT_STACK_SIZE = 0x400
DEVICE_ARCH = {"npu1": "aie2", "npu2": "aie2p"}

READELF_TIMEOUT = 120.0
MAX_READELF_OUTPUT = 8 << 20  # a core ELF's tables are a few KiB; more is not a core ELF
MAX_WALK = 20000  # entries of the prj tree looked at
MAX_UNMEASURED = 16  # names kept per core

# Core ELF names in aiecc's tmpdir: "<device>_core_<col>_<row>.elf" (C++ aiecc @1e400306
# aiecc.cpp:2252-2254; Python aiecc corefile() @dde51cb0^ main.py:640-642), the declarative
# driver's "elfs_<device>_core_<col>_<row>.elf" (key format of coreKey(), code index file
# id 60243108325: "<devName>_core_<col>_<row>"), and a bare "core_<col>_<row>.elf".
_CORE_ELF = re.compile(r"(?:^|_)core_(\d+)_(\d+)\.elf$")
_TILE = re.compile(r"(%[\w.$-]+)\s*=\s*aie\.tile\(\s*(\d+)\s*,\s*(\d+)\s*\)")
_CORE = re.compile(r"aie\.core\(\s*(%[\w.$-]+)\s*\)")
_STACK_ATTR = re.compile(r"\bstack_size\s*=\s*(0x[0-9a-fA-F]+|\d+)")
_DEVICE = re.compile(r"aie\.device\(\s*(npu\d)")


# ---- the design ---------------------------------------------------------------------------------


def _skip_block(text: str, i: int) -> int:
    """Index after the ``}`` matching the ``{`` at ``text[i]``; strings and // comments skipped."""
    depth, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def design_cores(mlir_text: str) -> dict[tuple[int, int], int]:
    """(col, row) -> stack_size of every ``aie.core`` in the design text.

    The attribute dictionary follows the core's region (``} {stack_size = 3328 : i32}``);
    a core without one has the dialect's default 0x400.
    """
    tiles = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in _TILE.finditer(mlir_text)}
    cores: dict[tuple[int, int], int] = {}
    for m in _CORE.finditer(mlir_text):
        tile = tiles.get(m.group(1))
        if tile is None:
            continue
        i = m.end()
        while i < len(mlir_text) and mlir_text[i].isspace():
            i += 1
        if i >= len(mlir_text) or mlir_text[i] != "{":
            continue
        i = _skip_block(mlir_text, i)
        while i < len(mlir_text) and mlir_text[i] in " \t":
            i += 1
        size = DEFAULT_STACK_SIZE
        if i < len(mlir_text) and mlir_text[i] == "{":
            attrs = mlir_text[i:_skip_block(mlir_text, i)]
            a = _STACK_ATTR.search(attrs)
            if a:
                size = int(a.group(1), 0)
        cores[tile] = size
    return cores


def design_arch(mlir_text: str) -> str | None:
    """``aie2`` / ``aie2p`` from the design's ``aie.device(npu1...)`` / ``(npu2...)``."""
    m = _DEVICE.search(mlir_text)
    return DEVICE_ARCH.get(m.group(1)) if m else None


# ---- finding the ELFs and the reader --------------------------------------------------------------


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def find_core_elfs(prj: Path) -> dict[tuple[int, int], Path]:
    """(col, row) -> the core's linked ELF under ``prj`` (regular ELF files only).

    A directory with a core ELF name (the declarative driver's ``Directory`` outputs)
    counts through the ELF file inside it. When several files name one core, the one
    closest to ``prj`` wins, then the first by name: the choice does not depend on
    the order the directory lists them in.
    """
    found: dict[tuple[int, int], list[tuple[int, str]]] = {}
    seen = 0
    for root, dirs, files in os.walk(prj):
        dirs.sort()
        seen += len(dirs) + len(files)
        if seen > MAX_WALK:
            break
        rel_depth = len(Path(root).relative_to(prj).parts)
        parent = _CORE_ELF.search(os.path.basename(root)) if rel_depth else None
        for name in sorted(files):
            path = os.path.join(root, name)
            m = _CORE_ELF.search(name) or parent
            try:
                regular = stat.S_ISREG(os.lstat(path).st_mode)
            except OSError:
                continue
            if m and regular and _is_elf(path):
                found.setdefault((int(m.group(1)), int(m.group(2))), []).append((rel_depth, path))
    return {tile: Path(min(paths)[1]) for tile, paths in found.items()}


def find_readelf(peano_dir: str | None) -> list[str] | None:
    """The command prefix of Peano's GNU-style ELF reader, or None.

    ``llvm-readelf`` in Peano's ``bin``, else ``llvm-readobj --elf-output-style=GNU``
    (the same dumper; llvm-readobj's tests run both styles, e.g.
    llvm/test/tools/llvm-readobj/ELF/gnu-sections.test). Only Peano's own: a system
    LLVM may not be the one that wrote the AIE objects.
    """
    if not peano_dir:
        return None
    for name, style in (("llvm-readelf", []), ("llvm-readobj", ["--elf-output-style=GNU"])):
        p = os.path.join(peano_dir, "bin", name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return [p, *style]
    return None


# ---- reading llvm-readelf's output ----------------------------------------------------------------
#
# Formats from llvm/llvm-project @7b3c1006 llvm/test/tools/llvm-readobj/ELF/stack-sizes.test
# ("Stack Sizes:", "Size     Functions", "16     other"; names joined by ", "; "?" when the
# symbol is unknown), @2c47c28f gnu-sections.test ("Section Headers:", "[Nr] Name Type Address
# Off Size ES Flg Lk Inf Al", hex fields, flag letters) and @2811a388 symbols.test
# ("Symbol table '.symtab' contains 3 entries:", "Num: Value Size Type Bind Vis Ndx Name").

_HEX = re.compile(r"[0-9a-f]+")
_ES = re.compile(r"[0-9a-f]{2,}")
_SECTION_ROW = re.compile(r"^\s*\[\s*\d+\]\s?(.*)$")
_SYMBOL_ROW = re.compile(
    r"^\s*\d+:\s+([0-9a-fA-F]+)\s+(0x[0-9a-fA-F]+|\d+)\s+(\S+)\s+(\S+)\s+(\S+(?:\s+\[[^\]]*\])?)\s+(\S+)\s*(.*?)\s*$"
)
_STACK_ROW = re.compile(r"^\s*(\d+)\s+(\S.*?)\s*$")


def _section(rest: str) -> dict | None:
    """One "[Nr] Name Type Address Off Size ES Flg Lk Inf Al" row (Flg may be empty)."""
    t = rest.split()
    if len(t) < 8 or not all(x.isdigit() for x in t[-3:]):
        return None
    es = len(t) - 4 if _ES.fullmatch(t[-4]) else len(t) - 5
    flags = "" if es == len(t) - 4 else t[-4]
    if es < 4 or not _ES.fullmatch(t[es]) or not all(_HEX.fullmatch(x) for x in t[es - 3:es]):
        return None
    return {"name": " ".join(t[: es - 4]), "type": t[es - 4], "size": int(t[es - 1], 16), "flags": flags}


def parse_readelf(text: str) -> dict:
    """Sections, defined function symbols and stack-size entries of ``llvm-readelf --wide
    --sections --symbols --stack-sizes`` output, whatever order the tables come in."""
    sections: list[dict] = []
    functions: set[str] = set()
    frames: list[tuple[int, list[str]]] = []
    mode = None
    for line in text.splitlines():
        s = line.strip()
        if s == "Section Headers:":
            mode = "sections"
            continue
        if s.startswith("Symbol table '") and "entries" in s:
            mode = "symbols"
            continue
        if s == "Stack Sizes:":
            mode = "stack"
            continue
        if not s or s.startswith(("Key to Flags:", "There are ", "File: ")):
            mode = None if s.startswith("Key to Flags:") or not s else mode
            continue
        if mode == "sections":
            m = _SECTION_ROW.match(line)
            sec = _section(m.group(1)) if m else None
            if sec:
                sections.append(sec)
        elif mode == "symbols":
            m = _SYMBOL_ROW.match(line)
            # a defined function: Type FUNC, Ndx a section number (not UND / ABS / COM)
            if m and m.group(3) == "FUNC" and m.group(6).isdigit() and m.group(7):
                functions.add(m.group(7).split("@", 1)[0])
        elif mode == "stack":
            m = _STACK_ROW.match(line)
            if m and m.group(2) != "Functions":
                frames.append((int(m.group(1)), [n.strip() for n in m.group(2).split(",") if n.strip()]))
    return {"sections": sections, "functions": functions, "frames": frames}


def _run_readelf(cmd: list[str], log: list[str]) -> str | None:
    """stdout of ``cmd`` (bounded) or None, with the reason logged."""
    log.append(f"$ {shlex.join(cmd)}")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, timeout=READELF_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            log.append(f"# not measured: {Path(cmd[0]).name} timed out after {READELF_TIMEOUT:g} s")
            return None
        except OSError as e:
            log.append(f"# not measured: cannot run {cmd[0]}: {e}")
            return None
        err.seek(0)
        for ln in err.read(16384).decode("utf-8", "replace").splitlines()[:20]:
            log.append(f"  {ln}")
        if p.returncode != 0:
            log.append(f"# not measured: {Path(cmd[0]).name} exited {p.returncode}")
            return None
        out.seek(0)
        data = out.read(MAX_READELF_OUTPUT + 1)
    if len(data) > MAX_READELF_OUTPUT:
        log.append(f"# not measured: {Path(cmd[0]).name} printed more than {MAX_READELF_OUTPUT} bytes")
        return None
    return data.decode("utf-8", "replace")


# ---- measuring --------------------------------------------------------------------------------------


def _measure_elf(readelf: list[str], elf: Path, rec: dict, log: list[str]) -> None:
    """Fill ``rec``'s measured fields from one core ELF."""
    text = _run_readelf([*readelf, "--wide", "--sections", "--symbols", "--stack-sizes", str(elf)], log)
    if text is None:
        rec["not_measured"] = f"{Path(readelf[0]).name} could not read {elf.name} (see the log)"
        return
    r = parse_readelf(text)
    if not r["sections"]:
        rec["not_measured"] = f"no section headers in {Path(readelf[0]).name}'s output for {elf.name}"
        return
    # Program memory holds the executable sections (the ld script maps *(.text*) to
    # `program`); data and stack live in data memory.
    exe = [s for s in r["sections"] if "A" in s["flags"] and "X" in s["flags"]]
    rec["text_bytes"] = sum(s["size"] for s in exe) if exe else None
    if not any(s["name"] == ".stack_sizes" for s in r["sections"]):
        rec["not_measured"] = (
            f"{elf.name} has no .stack_sizes section (this aiecc runs Peano's llc without "
            "-stack-size-section and no linked object was compiled with -fstack-size-section)"
        )
        return
    if not r["frames"]:
        rec["not_measured"] = f"the .stack_sizes section of {elf.name} lists no frame"
        return
    sizes: dict[str, int] = {}
    for size, names in r["frames"]:
        for n in names or ["?"]:
            sizes[n] = max(size, sizes.get(n, 0))
    deepest = max(r["frames"], key=lambda f: f[0])
    rec["stack_bytes"] = deepest[0]
    rec["stack_deepest"] = ", ".join(deepest[1]) or "?"
    rec["stack_frames_total"] = sum(size for size, _ in r["frames"])
    unmeasured = sorted(r["functions"] - set(sizes))
    rec["stack_measured"] = "partial" if unmeasured else "complete"
    rec["stack_unmeasured"] = unmeasured[:MAX_UNMEASURED]
    rec["stack_unmeasured_count"] = len(unmeasured)


def measure_design(mlir_text: str, prj: Path, arch: str | None, peano_dir: str | None, log: list[str]) -> tuple[dict, list[str]]:
    """(the ``resources.json`` document, the over-the-limit problems) for the ELFs in ``prj``.

    Everything that cannot be measured is said in the log and in the document
    (``not_measured``); only a measured figure over its limit is a problem.
    """
    arch = arch or design_arch(mlir_text)
    pm = PROGRAM_MEMORY.get(arch or "")
    cores = design_cores(mlir_text)
    elfs = find_core_elfs(prj) if cores and Path(prj).is_dir() else {}
    readelf = find_readelf(peano_dir) if cores else None
    log.append(f"# stack and program memory of {len(cores)} core(s) ({arch or 'unknown arch'})")
    if cores and readelf is None:
        log.append(f"# not measured: no llvm-readelf or llvm-readobj in {peano_dir or '(no Peano)'}/bin")
    doc: dict = {"schema": RESOURCES_SCHEMA, "arch": arch, "tool": Path(readelf[0]).name if readelf else None, "cores": {}}
    problems: list[str] = []
    for (col, row), limit in sorted(cores.items()):
        elf = elfs.get((col, row))
        rec = {"col": col, "row": row, "elf": elf.name if elf else None, "stack_bytes": None, "stack_limit": limit,
               "stack_measured": "none", "stack_deepest": None, "stack_frames_total": None, "stack_unmeasured": None,
               "stack_unmeasured_count": None, "text_bytes": None, "program_memory": pm, "not_measured": None}
        if elf is None:
            rec["not_measured"] = f"no core ELF for tile ({col}, {row}) under aiecc's tmpdir"
        elif readelf is None:
            rec["not_measured"] = "no llvm-readelf in the Peano install"
        else:
            _measure_elf(readelf, elf, rec, log)
        problems += _judge(f"core ({col}, {row})", rec, arch, log)
        doc["cores"][f"core_{col}_{row}"] = rec
    return doc, problems


def _judge(where: str, rec: dict, arch: str | None, log: list[str]) -> list[str]:
    """Log one core's figures; the limits it exceeds."""
    problems = []
    limit, pm = rec["stack_limit"], rec["program_memory"]
    if rec["stack_bytes"] is None:
        log.append(f"# {where}: stack: not measured ({rec['not_measured']})")
    else:
        missing = rec["stack_unmeasured_count"]
        log.append(
            f"# {where}: stack: largest frame {rec['stack_bytes']} bytes ({rec['stack_deepest']}), frames total "
            f"{rec['stack_frames_total']}, stack_size {limit}; {rec['stack_measured']}"
            + (f" (no frame record for {missing}: {', '.join(rec['stack_unmeasured'])})" if missing else "")
        )
        if rec["stack_bytes"] > limit:
            problems.append(
                f"{where}: stack overflow: {rec['stack_deepest']} alone needs {rec['stack_bytes']} bytes of stack, "
                f"more than the core's stack_size of {limit} bytes ({rec['elf']} .stack_sizes)"
            )
        elif rec["stack_frames_total"] > limit:
            log.append(f"# warning: {where}: the frames sum to {rec['stack_frames_total']} bytes, over stack_size "
                       f"{limit}: a deep enough call chain would overflow (no call graph here to tell)")
    if rec["text_bytes"] is None:
        log.append(f"# {where}: program memory: not measured")
    else:
        log.append(f"# {where}: code {rec['text_bytes']} bytes, program memory {pm if pm is not None else '?'} bytes")
        if pm is not None and rec["text_bytes"] > pm:
            problems.append(
                f"{where}: program memory overflow: {rec['elf']} has {rec['text_bytes']} bytes of code, "
                f"the core's program memory holds {pm} bytes ({arch})"
            )
    return problems
