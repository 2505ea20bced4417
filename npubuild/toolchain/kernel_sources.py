"""Where mlir-aie's AIE kernel sources are: the ``aie_api`` headers and
``aie_kernels/<arch>/mm.cc`` (for the GEMM microkernel), and the AIE
architectures Peano compiles for.

Split from :mod:`npubuild.toolchain.aiecc`, which re-exports these names.
"""
from __future__ import annotations

import os

from ..core.errors import UserError
from . import xdna

# Peano target per architecture (xdna.md §1b): aie2 = npu1 (Phoenix / Hawk Point),
# aie2p = npu2 (Strix / Strix Halo / Krackan).
ARCHES = {"aie2": "npu1", "aie2p": "npu2"}

INCLUDE_ENV = "NPUBUILD_AIE_INCLUDE"


def check_arch(arch: str) -> None:
    if arch not in ARCHES:
        raise UserError(
            f"unknown AIE architecture {arch!r}: expected "
            + " or ".join(f"{a} ({d})" for a, d in ARCHES.items())
        )


# ---- kernel sources ---------------------------------------------------------------------------


def _kernel_tree(include: str, arch: str) -> str | None:
    """mm.cc for ``arch`` if ``include`` holds ``aie_api/`` and the kernels, else None.

    Since mlir-aie #2596 (2025-10-07) the ``aie_kernels/`` tree is installed as
    ``<mlir_aie>/include/aie_kernels``; older installs have ``<mlir_aie>/aie_kernels``,
    beside ``include``.
    """
    if not os.path.isdir(os.path.join(include, "aie_api")):
        return None
    for kernels in (os.path.join(include, "aie_kernels"), os.path.join(os.path.dirname(include), "aie_kernels")):
        mm = os.path.join(kernels, arch, "mm.cc")
        if os.path.isfile(mm):
            return mm
    return None


def locate_kernel_sources(tools: dict, arch: str) -> dict:
    """Where mlir-aie's ``aie_api`` headers and ``aie_kernels/<arch>/mm.cc`` are.

    Returns ``{"mm_cc": path or None, "include": dir or None, "missing": None or
    one line saying how to fix it}``. ``include`` is the directory to pass as
    ``-I`` (it holds ``aie_api/``). ``$NPUBUILD_AIE_INCLUDE`` overrides the search;
    otherwise tried in order: ``$MLIR_AIE_INSTALL_DIR/include``, the ``include``
    of the prefix aiecc is installed in (``<prefix>/bin/aiecc``), and beside the
    ``aie`` Python package (``<pkg>/../include``, ``<pkg>/../../include``).
    """
    check_arch(arch)
    want = f"aie_api/ and aie_kernels/{arch}/mm.cc"
    override = os.environ.get(INCLUDE_ENV, "").strip()
    if override:
        inc = os.path.abspath(override)
        mm = _kernel_tree(inc, arch)
        if mm:
            return {"mm_cc": mm, "include": inc, "missing": None}
        return {
            "mm_cc": None,
            "include": None,
            "missing": f"${INCLUDE_ENV}={override} does not hold {want} (nor ../aie_kernels/{arch}/mm.cc); "
            f"point it at <mlir_aie>/include or unset it",
        }
    candidates: list[tuple[str, str]] = []
    install = os.environ.get("MLIR_AIE_INSTALL_DIR", "").strip()
    if install:
        candidates.append((os.path.join(install, "include"), "$MLIR_AIE_INSTALL_DIR/include"))
    aiecc_path = ((tools or {}).get("aiecc") or {}).get("path")
    if aiecc_path:
        for p in dict.fromkeys((aiecc_path, os.path.realpath(aiecc_path))):
            candidates.append((os.path.join(os.path.dirname(os.path.dirname(p)), "include"), "next to aiecc"))
    for pkg in xdna._package_dirs(xdna.AIE_PACKAGE):
        parent = os.path.dirname(pkg)
        candidates.append((os.path.join(parent, "include"), f"python package '{xdna.AIE_PACKAGE}'"))
        candidates.append((os.path.join(os.path.dirname(parent), "include"), f"python package '{xdna.AIE_PACKAGE}'"))
    seen: set[str] = set()
    tried: list[str] = []
    for inc, via in candidates:
        inc = os.path.abspath(inc)
        if inc in seen:
            continue
        seen.add(inc)
        tried.append(inc)
        mm = _kernel_tree(inc, arch)
        if mm:
            return {"mm_cc": mm, "include": inc, "missing": None}
    where = ", ".join(tried) if tried else "nowhere: MLIR_AIE_INSTALL_DIR unset, no aiecc, no 'aie' package"
    return {
        "mm_cc": None,
        "include": None,
        "missing": f"not found: {want} (looked in {where}); set {INCLUDE_ENV}=<mlir_aie>/include or "
        f"MLIR_AIE_INSTALL_DIR, or {xdna.AIECC_HINT.split(' (', 1)[0]}",
    }
