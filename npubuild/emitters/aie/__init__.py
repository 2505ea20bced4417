"""xdna emitters: KernelInstance -> AIE-dialect MLIR (``aie.mlir``).

Every catalog op gets a streamed design (:mod:`.design`) whose core calls the
host emitter's compute body per chunk; ``matmul`` (int8) gets the GEMM
microkernel overlay (:mod:`.gemm`); ``transpose`` a DMA-only design with no core
(:mod:`.dma_transpose`). :func:`design_for` plans and statically
checks a design (:mod:`.check`), so a shape the NPU cannot take fails at spec
time with the reason.

``options`` carries what depends on the installed mlir-aie and the project:
``device`` (npu1 / npu2), ``runtime_sequence`` (``aie.runtime_sequence`` or
``aiex.runtime_sequence``), ``link_with`` (``func`` or ``core``), ``body``
(``generated``, the default here; ``auto`` or ``mlir-aie``: mlir-aie's kernels,
:mod:`.kernel_library`), ``bf16_mmul`` (``native``, the default, or ``bfp16``: a bf16
matmul on npu2 runs mm.cc's 8x8x8 mmul emulated with bfp16, :mod:`.gemm_bfp16`) and ``unavailable_kernels`` (kernel sources the
installed mlir-aie lacks, which ``auto`` then does not pick). Without a
toolchain the newest dialect is emitted. ``EMITTER_VERSION`` covers this
package and the host emitters (the bodies are theirs).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ...core.errors import UnsupportedOnTarget
from ...specfile.instances import KernelInstance
from .devices import DEFAULT_DEVICE, device

DEFAULT_OPTIONS = {"device": DEFAULT_DEVICE, "runtime_sequence": "aie.runtime_sequence", "link_with": "func", "body": "generated"}


def _source_hash() -> str:
    from ..host import EMITTER_VERSION as HOST_VERSION

    h = hashlib.sha256(HOST_VERSION.encode())
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


EMITTER_VERSION: str = _source_hash()


def has_emitter(op_name: str) -> bool:
    from ..host import has_emitter as host_has

    from .devices import NO_XDNA_DESIGN

    return op_name == "matmul" or (host_has(op_name) and op_name not in NO_XDNA_DESIGN)


def design_for(inst: KernelInstance, options: dict | None = None):
    """The checked design of ``inst`` (UnsupportedOnTarget when the NPU cannot take it)."""
    from ..host.vector import profile

    with profile(device(options).arch):  # the body is the one the device's aievec lowering takes
        return _design_for(inst, options)


def _design_for(inst: KernelInstance, options: dict | None):
    from .check import check_design

    _check_element_types(inst)
    from .devices import NO_XDNA_DESIGN

    if inst.op in NO_XDNA_DESIGN:
        raise UnsupportedOnTarget(f"{inst.id}: {NO_XDNA_DESIGN[inst.op]}")

    if inst.op == "matmul":
        from .gemm import overlay_for

        return overlay_for(inst, device(options), (options or {}).get("bf16_mmul") or "native")
    if inst.op == "transpose":
        from .dma_transpose import transpose_design
        from .shuffle_transpose import transpose16_design

        # 16-bit elements need a core shuffle besides the DMAs
        d = (transpose16_design if inst.inputs[0].dtype == "bf16" else transpose_design)(inst, device(options))
        check_design(d)
        return d
    from .placement import plan_design

    opts = options or {}
    d = plan_design(inst, device(options), opts.get("body") or "generated", tuple(opts.get("unavailable_kernels", ())))
    check_design(d)
    return d


def _check_element_types(inst: KernelInstance) -> None:
    """No i64, f16, u8, i4 or u4 tensor reaches a design (the catalog's xdna rules say so at spec time;
    this keeps the emitter from ever writing one, whoever calls it)."""
    from .devices import XDNA_F16_TEXT, XDNA_I64_TEXT, XDNA_SUB_BYTE_TEXT, XDNA_U8_TEXT

    used = {t.dtype for t in (*inst.inputs, inst.output)}
    for banned, text in (("i64", XDNA_I64_TEXT), ("f16", XDNA_F16_TEXT), ("u8", XDNA_U8_TEXT),
                         ("i4", XDNA_SUB_BYTE_TEXT), ("u4", XDNA_SUB_BYTE_TEXT)):
        if banned in used:
            raise UnsupportedOnTarget(f"{inst.id}: {text}")


def check_instance(inst: KernelInstance, options: dict | None = None) -> str | None:
    """Why ``inst`` cannot be built for xdna, or None (an instance without output elements is built for no
    target: nothing to check)."""
    if inst.empty:
        return None
    try:
        design_for(inst, options)
    except UnsupportedOnTarget as e:
        return str(e)
    return None


def emit(inst: KernelInstance, options: dict | None = None) -> str:
    from ..host.vector import profile

    options = {**DEFAULT_OPTIONS, **(options or {})}
    d = design_for(inst, options)
    if inst.op == "matmul":
        from .gemm import render_overlay

        return render_overlay(d, options)
    if inst.op == "transpose":
        from .dma_transpose import render as render_transpose
        from .shuffle_transpose import ShuffleTransposeDesign, render as render_shuffled

        return (render_shuffled if isinstance(d, ShuffleTransposeDesign) else render_transpose)(inst, d, options)
    from .text import render

    with profile(d.device.arch):
        return render(d, options, _header(inst, d))


def body_info(inst: KernelInstance, options: dict | None = None) -> dict:
    """What the cores run per chunk: {"source": "generated vector" | "scalar" | "mlir-aie kernel",
    "lanes": n | "scalar", "why": ...}; an mlir-aie kernel adds its source, symbol, object and tolerance, a
    generated body with other numerics than the host's (gelu's erf polynomial) its numerics and tolerance, and
    ``not_used`` says why a requested one is not used."""
    from ..host import emit as host_emit
    from ..host.vector import decision, profile

    d = design_for(inst, options)
    if inst.op == "transpose":
        if d.cores:  # bf16 (.shuffle_transpose)
            return {"source": "generated vector", "lanes": 32, "why": "each mem tile cuts its tiles into 4x8 blocks, "
                    "one core per lane transposes each block with one shuffle (vector.transpose -> aievec.shuffle)"}
        return {"source": "none", "lanes": "none", "why": "DMA only: each mem tile transposes its tiles with "
                "dimensionsToStream, no core runs"}
    if d.call is not None:
        k = d.call.kernel
        info = {"source": "mlir-aie kernel", "lanes": k.lanes, "why": "", "kernel": f"aie_kernels/{k.source}",
                "symbol": k.symbol, "object": k.object_name, "chunk": k.chunk_rule,
                "tolerance": k.describe()["tolerance"]}
        if k.prologue:  # the generated function each core runs before the kernel
            from .prologue import PROLOGUE

            info["prologue"] = {"function": PROLOGUE, "computes": k.prologue}
        return info
    from ..host.gelu_lanes import numerics

    with profile(d.device.arch):
        host_emit(d.body)
        got = decision(d.body, d.device.arch)
        # a vector body that computes other arithmetic than the host's says what, with its tolerance
        other = numerics(d.body) if got["lanes"] != "scalar" else None
    info = {"source": "scalar" if got["lanes"] == "scalar" else "generated vector", **got, **(other or {})}
    return {**info, "not_used": d.body_note} if d.body_note else info


def _header(inst: KernelInstance, d) -> list[str]:
    sig = ", ".join(f"{n}: {'x'.join(map(str, t.shape)) or 'scalar'} {t.dtype}" for n, t in zip(inst.input_names, inst.inputs))
    bufs = "; ".join(
        f"{3 + k}: {b.name} ({' | '.join(f'{t} {n}' for t, n in b.parts)} x {b.dtype})" for k, b in enumerate(d.buffers)
    )
    return [
        f"npubuild xdna kernel {inst.id}",
        f"op: {inst.op}, dtype: {inst.dtype}, attrs: {inst.attrs_json}",
        f"inputs: {sig}; output: {inst.opdef.output}: {'x'.join(map(str, inst.output.shape)) or 'scalar'} {inst.output.dtype}",
        f"device {d.device.name}, partition {d.partition}: {d.split.kind} split, {d.rows} rows in chunks of {d.chunk_rows}, "
        f"{d.columns} column(s){f' x {d.core_rows} core rows' if d.core_rows > 1 else ''}, {d.cores[0].chunks} chunk(s) per core per run",
        f"host buffers (XRT group id: name (parts x dtype)): {bufs}",
    ]
