"""Instruction-set levels of host kernels: which variants a ``portable`` build compiles into one
kernel.so, and which of them this CPU runs.

A portable host library holds every public function once per level of the build machine's
architecture (:data:`LEVELS`): the first (the architecture's baseline, which every machine of it
runs) under its own name (``kernel``), each wider one under ``<name>__<suffix>``
(``kernel__x86_64_v4``), compiled by the same llc run with the function attributes
``"target-cpu"`` / ``"target-features"`` of the level. The library names its variants, in that
order, in the exported string ``npubuild_isa`` (space-separated). A build for one CPU
(``host_cpu = "native"`` or a CPU name) has one variant, named after that CPU.

At load the runtime takes the widest level the CPU has (:func:`pick`), read from the kernel's
``/proc/cpuinfo`` flags (x86: the psABI's level definitions; aarch64: the ``Features`` line);
``NPUBUILD_HOST_ISA`` forces one. The vector bodies are the same MLIR for every level (16 f32
lanes): llc splits them into 4-lane SSE, 8-lane AVX or one 16-lane AVX-512 register, and no level
fuses a multiply and an add the text does not ask for, so every variant computes bit-identical
results.
"""
from __future__ import annotations

import functools
import os
import platform
import re
from dataclasses import dataclass

from .errors import UserError

ENV = "NPUBUILD_HOST_ISA"
ISA_SYMBOL = "npubuild_isa"
MAX_VARIANTS = 8
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")


@dataclass(frozen=True)
class IsaLevel:
    name: str
    cpu: str | None  # the function's "target-cpu" (None: llc's default CPU of the triple)
    features: tuple[str, ...]  # the function's "target-features"
    needs: frozenset  # CPU flags it requires (/proc/cpuinfo names)
    f32_lanes: int  # f32 lanes of its widest vector register
    what: str


_X86_V2 = {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"}
# x86-64 psABI micro-architecture levels (what llc's x86-64-v3 / -v4 CPUs enable); cpuinfo spells
# SSE3 "pni" and LZCNT "abm"; Linux lists avx/avx512 only when the OS saves their registers (XCR0)
_X86_V3 = _X86_V2 | {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"}
_X86_V4 = _X86_V3 | {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}

LEVELS: dict[str, tuple[IsaLevel, ...]] = {
    "x86_64": (
        IsaLevel("x86-64", None, (), frozenset(), 4, "SSE2, every x86-64 machine"),
        IsaLevel("x86-64-v3", "x86-64-v3", (), frozenset(_X86_V3), 8, "AVX2 + FMA (Haswell, Zen 1 and later)"),
        IsaLevel("x86-64-v4", "x86-64-v4", (), frozenset(_X86_V4), 16, "AVX-512 F/BW/CD/DQ/VL (Skylake-X, Zen 4 and later)"),
    ),
    # NEON is 128 bits on every aarch64 core; SVE's registers are scalable, and llc lowers fixed-length
    # vectors to NEON unless told the length, so the wider level adds instructions, not lanes
    "aarch64": (
        IsaLevel("armv8-a", None, (), frozenset(), 4, "NEON, every aarch64 machine"),
        IsaLevel("armv8.2-a", None, ("+v8.2a", "+fullfp16", "+dotprod"), frozenset({"fphp", "asimdhp", "asimddp"}), 4,
                 "Armv8.2-A with fp16 arithmetic and dot products (Cortex-A76, Neoverse N1, Apple M1 and later)"),
    ),
}


def arch(machine: str | None = None) -> str:
    """The architecture's name in :data:`LEVELS` (``platform.machine()`` spelled as Linux does)."""
    m = (machine or platform.machine()).lower()
    return {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64"}.get(m, m)


def levels(machine: str | None = None) -> tuple[IsaLevel, ...]:
    """The levels a portable build of ``machine``'s architecture compiles, baseline first; an architecture
    without a table gets its baseline alone (llc's default CPU)."""
    a = arch(machine)
    return LEVELS.get(a) or (IsaLevel(a, None, (), frozenset(), 1, "the architecture's baseline"),)


def level_named(name: str) -> IsaLevel | None:
    return next((lv for table in LEVELS.values() for lv in table if lv.name == name), None)


def symbol(function: str, index: int, variant: str) -> str:
    """The exported name of ``function``'s variant number ``index`` (0: the function's own name)."""
    return function if index == 0 else f"{function}__{re.sub(r'[^A-Za-z0-9]', '_', variant)}"


@functools.lru_cache(maxsize=1)
def _proc_cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return f.read(1 << 20)
    except OSError:
        return ""


def cpu_flags(cpuinfo: str | None = None) -> frozenset:
    """This CPU's feature flags, from ``/proc/cpuinfo`` (x86 ``flags``, aarch64 ``Features``); empty where
    there is no such file (then only the baseline is taken)."""
    cpuinfo = _proc_cpuinfo() if cpuinfo is None else cpuinfo
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() in ("flags", "features"):
            return frozenset(value.split())
    return frozenset()


def is_name(name: str) -> bool:
    """Whether ``name`` may name a variant (a level or an llc CPU name: no quotes, spaces or slashes)."""
    return bool(_NAME.fullmatch(name))


def parse_variants(raw: bytes, where: str) -> list[str]:
    """The variant names of a library's ``npubuild_isa`` bytes; UserError when they are not a short list of names."""
    text, nul, _ = raw.partition(b"\0")
    names = text.decode("ascii", errors="replace").split() if nul else []
    if not names or len(names) > MAX_VARIANTS or not all(map(is_name, names)):
        raise UserError(f"{where}: its '{ISA_SYMBOL}' is not a NUL-terminated list of at most {MAX_VARIANTS} ISA names; "
                        "rebuild with `doit build`")
    return names


def widest_here(machine: str | None = None) -> str:
    """The widest level of this machine's architecture its CPU has (what a portable kernel runs here)."""
    names = [lv.name for lv in levels(machine)]
    return names[pick(names, "this machine", forced="")]


def pick(variants: list[str], where: str, flags: frozenset | None = None, forced: str | None = None) -> int:
    """The index in ``variants`` (a library's, baseline first) of the one to run here: ``forced`` (default:
    ``NPUBUILD_HOST_ISA``) when set, else the widest level whose flags this CPU has. A single variant (a build
    for one CPU, or an architecture without levels) is taken as it is."""
    forced = (os.environ.get(ENV, "").strip() if forced is None else forced)[:64]
    flags = cpu_flags() if flags is None else flags
    if forced:
        level = level_named(forced)
        if level is None:
            known = ", ".join(lv.name for table in LEVELS.values() for lv in table)
            raise UserError(f"{ENV}={forced!r} is not an ISA level npubuild knows ({known})")
        if forced not in variants:
            raise UserError(f"{ENV}={forced}: {where} has no {forced} variant (it has {', '.join(variants)}); "
                            "unset it, or rebuild with host_cpu = \"portable\"")
        lacking = sorted(level.needs - flags)
        if lacking:
            raise UserError(f"{ENV}={forced}: this CPU lacks {', '.join(lacking)} (/proc/cpuinfo flags); "
                            f"its code would fault here. Unset it to take the widest level this CPU has")
        return variants.index(forced)
    best = 0
    for i, name in enumerate(variants[1:], 1):
        level = level_named(name)
        if level is not None and level.needs <= flags:
            best = i
    only = level_named(variants[0]) if best == 0 else None
    if only is not None and flags and not only.needs <= flags:  # a library built for one level (host_cpu = "x86-64-v4")
        raise UserError(f"{where} was compiled for {only.name} only and this CPU lacks "
                        f"{', '.join(sorted(only.needs - flags))}; rebuild with host_cpu = \"portable\"")
    return best
