"""What an xdna design costs and computes with, in one small JSON-safe record.

Shown by ``npubuild list`` (and ``--json``) and written into the manifest with
the ABI, so that a user sees per kernel, without an NPU: the cores it occupies,
the body each core runs (a generated vector body and its lanes, an mlir-aie
kernel, or the scalar body and why), dispatches per run, the bytes moved
between host memory and the NPU per run, and the roofline model's time per run,
bound and fraction of the device's limit (:mod:`.roofline`).

Two byte counts: ``bytes_per_run`` is the host buffers' size per run with a
GEMM's weight left out (it is uploaded once and stays resident in its host
buffer); ``bytes_per_run_total`` is every byte the shim DMAs move between DDR
and the array in one run, counted from the runtime sequence's transfers:
weights and parameters included, a buffer read twice counted twice (a
whole-array GEMM re-reads A once per N-tile and B once per row block),
padding included. ``bytes_by_buffer`` splits the total per host buffer.
"""
from __future__ import annotations

from ...core.constants import DTYPE_BYTES
from ...specfile.instances import KernelInstance


def summary(inst: KernelInstance, options: dict | None = None, abi: dict | None = None) -> dict:
    """The record for ``inst`` on the device of ``options`` (``abi``: the design's, if already made)."""
    from . import body_info, design_for

    d = design_for(inst, options)
    abi = abi if abi is not None else d.abi()
    if inst.op == "matmul":
        micro = (abi.get("microkernel") or {}).get("source", "mm.cc")
        body = {"source": "mlir-aie kernel", "kernel": micro, "lanes": "mm.cc's vector code", "why": ""}
    else:
        body = abi.get("body") or body_info(inst, options)
    # a blocked overlay runs once per block, its buffers moved each time
    dispatches = int(abi.get("dispatches_per_run") or (abi.get("blocking") or {}).get("dispatches") or 1)
    rec = {
        "device": abi.get("device"),
        "cores": int(abi["cores"]) if "cores" in abi else int(len(getattr(d, "cores", ())) or abi.get("columns") or 1),
        "body": body,
        "dispatches_per_run": dispatches,
        "bytes_per_run": int(abi.get("bytes_per_run") or bytes_moved(abi) * dispatches),
    }
    return {**rec, **modelled(inst, d, abi, dispatches)}


def modelled(inst: KernelInstance, d, abi: dict, dispatches: int) -> dict:
    """``bytes_per_run_total``, ``bytes_by_buffer`` and ``roofline`` (with the facts it was computed from)."""
    from .roofline import design_facts, fifo_bytes, roofline, shim_bytes

    per = shim_bytes(d, fifo_bytes(d))
    out: dict = {"bytes_per_run_total": sum(per.values()) * dispatches,
                 "bytes_by_buffer": {k: v * dispatches for k, v in per.items()}}
    try:
        facts = design_facts(inst, d, abi)
        if inst.op == "matmul":
            from .gemm_whole import with_mac_rate

            facts = with_mac_rate(facts, abi)  # the emulated bf16 mmul's rate (xdna_bf16_mmul = "bfp16")
        out["roofline"] = {**roofline(facts), "facts": facts}
    except (AttributeError, KeyError, ValueError, ZeroDivisionError, TypeError) as e:  # a design the model cannot read: say so
        out["roofline"] = {"error": f"not modelled: {e!r}"}
    return out


def bytes_moved(abi: dict) -> int:
    """Host <-> NPU bytes of one run: every host buffer once (padding slots included)."""
    total = 0
    for b in abi.get("buffers", []):
        elems = sum(int(p.get("slot", p.get("elements", 0))) for p in b.get("parts", [])) or int(b.get("elements", 0))
        total += elems * DTYPE_BYTES.get(b.get("dtype"), 0)
    return total


def one_line(s: dict) -> str:
    """``16 cores, vector<16>, 1 dispatch, 2.0 MiB (model 77.8 µs/run, shim DMA @x_c0_shim-bound, 0.5 of
    roofline)`` for the text listing (the bytes: ``bytes_per_run_total``, weights included)."""
    if "error" in s:
        return f"not buildable: {s['error']}"
    body = s["body"]
    if body["source"] == "generated vector":
        what = f"vector<{body['lanes']}>"
    elif body["source"] == "mlir-aie kernel":
        what = body.get("kernel", "mlir-aie kernel").rsplit("/", 1)[-1]
    elif body["source"] == "none":
        what = "DMA only"
    else:
        what = "scalar"
    n = s["dispatches_per_run"]
    cores = s["cores"]
    where = f"{cores} core{'s' if cores != 1 else ''}, {what}" if cores else what
    line = f"{where}, {n} dispatch{'es' if n != 1 else ''}, " \
           f"{_size(s.get('bytes_per_run_total', s['bytes_per_run']))}"
    r = s.get("roofline") or {}
    if "us_per_run" in r:
        from .roofline import short

        line += f" ({short(r)})"
    return line


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB"):
        if n < 1024 or unit == "MiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


# ---- per op: which body the xdna cores get ---------------------------------------------------------------------

# a shape whose last axis is a whole number of vectors at every lane count
_PROBE_SHAPE = (64, 256)


def op_bodies(op_name: str, dtypes) -> dict:
    """device -> dtype -> {"lanes": n | "scalar", "why": ...}: the body an xdna core gets for ``op_name``
    at a shape that divides into vectors (64 x 256, every input that shape), for each of ``dtypes``."""
    from ...core.errors import OpError, UnsupportedOnTarget
    from ...ops import REGISTRY
    from ..host import emit as host_emit
    from ..host.vector import decision, profile
    from .devices import DEVICES

    op = REGISTRY[op_name]
    out: dict = {}
    for dev in DEVICES.values():
        per = out.setdefault(dev.name, {})
        for dt in dtypes:
            if op_name == "matmul":
                per[dt] = ({"lanes": "mm.cc's vector code", "why": "", "source": "mlir-aie kernel"} if dt in ("i8", "bf16") else
                           {"lanes": "scalar", "why": "not built on xdna: the NPU GEMM is int8 or bf16", "source": "none"})
                continue
            if op_name == "transpose":
                per[dt] = _transpose_body(dt, dev.name)
                continue
            def probe(attrs: dict) -> dict:
                try:
                    inst = _probe(op_name, dt, max(1, len(op.inputs)), attrs)
                    with profile(dev.arch):
                        host_emit(inst)
                    return decision(inst, dev.arch)
                except (OpError, UnsupportedOnTarget, ValueError, KeyError) as e:
                    return {"lanes": "scalar", "why": f"not probed at {'x'.join(map(str, _PROBE_SHAPE))}: {e}"}

            got = probe({})
            lib = library_alternative(op_name, dt, dev.arch)
            # what the default xdna_bodies = "auto" takes at the op's default attrs; a kernel computing other attrs
            # (gelu.cc: approximate=tanh) is taken only where an instance has them ("auto_when"), and only where the
            # generated body of such an instance is scalar
            wants = {k: v for k, v in (lib.get("attrs") or {}).items() if _default_attr(op, k) != v}
            takes = bool(lib["kernel"]) and (probe(wants) if wants else got)["lanes"] == "scalar"
            per[dt] = {**got, "source": "scalar" if got["lanes"] == "scalar" else "generated vector", "mlir_aie": lib,
                       "auto": "mlir-aie kernel" if takes and not wants else "generated",
                       **({"auto_when": {"mlir-aie kernel": wants}} if takes and wants else {})}
    return out


def _transpose_body(dtype: str, device: str) -> dict:
    """The transpose design's body at the probe shape: none (DMA only), the bf16 block shuffle, or why not built."""
    from ...core.errors import UnsupportedOnTarget
    from ...specfile.instances import make_instance
    from . import body_info

    try:
        info = body_info(make_instance("transpose", dtype, [_PROBE_SHAPE], {"perm": [1, 0]}), {"device": device})
    except (UnsupportedOnTarget, ValueError, KeyError) as e:
        return {"lanes": "none", "why": f"not built: {e}", "source": "none"}
    return {"lanes": info["lanes"], "why": info["why"], "source": info["source"]}


def _default_attr(op, name: str):
    return next((a.default for a in op.attrs if a.name == name), None)


def library_alternative(op_name: str, dtype: str, arch: str) -> dict:
    """What ``xdna_bodies = "mlir-aie"`` gives ``op_name`` on ``arch``: the kernel and what it needs, or why none."""
    from .kernel_library import entries

    found = entries(op_name, arch)
    e = next((k for k in found if k.dtype == dtype), None)
    if e is None:
        if found:
            return {"kernel": None, "why": f"mlir-aie's {found[0].symbol} takes {found[0].dtype}, not {dtype}"}
        others = sorted({k.arch for k in entries(op_name)})
        return {"kernel": None, "why": f"no mlir-aie kernel for {op_name} on {arch}" + (f" (only {', '.join(others)})" if others else "")}
    return {"kernel": f"aie_kernels/{e.source}", "symbol": e.symbol, "lanes": e.lanes, "chunk": e.chunk_rule,
            "attrs": dict(e.attrs)}


def _probe(op_name: str, dtype: str, n_inputs: int, attrs: dict | None = None):
    """An instance of ``op_name`` at the probe shape: every input that shape, or (norms, rope ...) the
    first one with the rest along its last axis."""
    from ...core.errors import OpError
    from ...specfile.instances import make_instance

    try:
        return make_instance(op_name, dtype, [_PROBE_SHAPE] * n_inputs, attrs or {})
    except OpError:
        return make_instance(op_name, dtype, [_PROBE_SHAPE] + [_PROBE_SHAPE[-1:]] * (n_inputs - 1), attrs or {})
