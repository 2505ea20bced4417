"""The int8 GEMM microkernel object (mlir-aie's ``aie_kernels/<arch>/mm.cc``
compiled with Peano ``clang++``), built once per configuration and cached in
the content-addressed store like every compile.

Its key covers the source file's bytes, the defines (DIM_M/K/N, dtype, the bfp16
emulation of xdna_bf16_mmul = "bfp16"), the
target arch, Peano's flags and the toolchain fingerprint; the object is named per
configuration (aiecc copies linked objects by basename, so two configurations
must never share a name).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..core.canonical import canonical_json
from ..core.errors import UserError
from ..core.fsio import sha256_file

LINK_DIR = "link"  # under the kernel's xdna directory


def _overlay(instance, device_name: str, bf16_mmul: str = "native"):
    from ..emitters.aie.devices import device
    from ..emitters.aie.gemm import overlay_for

    return overlay_for(instance, device({"device": device_name}), bf16_mmul or "native")


def _sources(tools: dict, arch: str) -> dict:
    from .aiecc import locate_kernel_sources

    src = locate_kernel_sources(tools, arch)
    if src.get("missing"):
        raise UserError(f"GEMM microkernel: {src['missing']}")
    return src


def microkernel_recipe(instance, toolchain: dict, device_name: str, peano_extra=(), bf16_mmul: str = "native") -> dict:
    """What the linked microkernel is made from (for the kernel's compile key); ``peano_extra``:
    the project's Peano options; ``bf16_mmul``: the emit options' (its define is in ``defines``)."""
    from ..core.tool_flags import with_extra
    from .aiecc import AIECC_FLAGS
    from .xdna import find_xdna_tools

    ov = _overlay(instance, device_name, bf16_mmul)
    src = _sources(find_xdna_tools(probe_versions=False), ov.arch)
    return {
        "microkernel": ov.microkernel,
        "source_sha256": sha256_file(Path(src["mm_cc"])),
        "defines": list(ov.defines),
        "arch": ov.arch,
        # Peano's flags: an object cached from before -fstack-size-section has no
        # .stack_sizes records and must not be linked again
        "flags": with_extra(list(AIECC_FLAGS["peano"]), list(peano_extra)),
        "toolchain": toolchain.get("id"),
    }


def build_microkernel(instance, tools: dict, toolchain: dict, store_root: Path, out_dir: Path, device_name: str,
                      timeout: float = 600.0, peano_extra=(), bf16_mmul: str = "native") -> Path:
    """The microkernel object for ``instance``'s overlay in ``out_dir/link/`` (from the stores when cached)."""
    from ..artifacts.stores import open_stores
    from .aiecc import compile_object

    ov = _overlay(instance, device_name, bf16_mmul)
    src = _sources(tools, ov.arch)
    recipe = microkernel_recipe(instance, toolchain, ov.device.name, peano_extra, bf16_mmul)
    key = hashlib.sha256(canonical_json({"microkernel": recipe}).encode()).hexdigest()
    link = Path(out_dir) / LINK_DIR
    obj = link / ov.microkernel
    store = open_stores(store_root)  # with the further stores of the compile that called us
    if store.materialize(key, link) is None:
        link.mkdir(parents=True, exist_ok=True)
        compile_object(
            Path(src["mm_cc"]), obj, link / f"{ov.microkernel}.log",
            tools=tools, arch=ov.arch, include_dirs=[src["include"]], defines=list(ov.define_names), timeout=timeout,
            extra_flags=list(peano_extra),
        )
        store.put(key, {ov.microkernel: obj}, {"microkernel": ov.microkernel})
    return obj
