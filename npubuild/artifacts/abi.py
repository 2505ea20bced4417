"""Kernel ABIs: what a compiled kernel says it takes and gives, against its manifest record.

A host ``kernel.so`` exports the record as the ``npubuild_abi`` symbol (read from its ELF
without loading it: :mod:`.elf`); an xdna kernel has it in ``abi.json`` with the design's
host buffers. The host emitter writes both (constants.ABI_VERSION, ABI_SYMBOL).
"""
from __future__ import annotations

import json
import struct

from ..core.constants import ABI_SYMBOL, ABI_VERSION, DTYPE_BYTES
from .elf import elf_symbol
from .manifest import ABI_FILE, no_constant
from .manifest_schema import is_count, show


def tensor_bytes(t: dict) -> int:
    n = DTYPE_BYTES[t["dtype"]]
    for d in t["shape"]:
        n *= d
    return n


def abi_mismatch(kernel_id: str, k: dict, abi, source: str) -> str | None:
    """How ``abi`` (what the build compiled) differs from the kernel record, or None."""
    if not isinstance(abi, dict) or abi.get("abi") != ABI_VERSION:
        return f"{source} carries ABI version {abi.get('abi') if isinstance(abi, dict) else '?'!r}; this npubuild reads {ABI_VERSION}"
    for field, want in (("id", kernel_id), ("op", k["op"]), ("dtype", k["dtype"])):
        if abi.get(field) != want:
            return f"{field} is {want!r} in the manifest, {show(abi.get(field))} in {source}"
    for side in ("inputs", "outputs"):
        theirs = abi.get(side)
        if not isinstance(theirs, list) or len(theirs) != len(k[side]):
            return f"the manifest lists {len(k[side])} {side}, {source} {len(theirs) if isinstance(theirs, list) else '?'}"
        for i, (a, b) in enumerate(zip(k[side], theirs)):
            b = b if isinstance(b, dict) else {}
            for f in ("name", "shape", "dtype"):
                if a[f] != b.get(f):
                    return f"{side}[{i}].{f} is {json.dumps(a[f])} in the manifest, {show(b.get(f))} in {source}"
            if b.get("bytes") != tensor_bytes(a):
                return f"{side}[{i}] is {tensor_bytes(a)} bytes by the manifest, {show(b.get('bytes'))} in {source}"
    if abi.get("key") != k["key"]:  # last: a changed op, shape or dtype is the better message
        return f"key is {k['key'][:16]}... in the manifest, {str(abi.get('key'))[:16]}... in {source} (the attrs differ)"
    return None


def xdna_layout_problem(k: dict, abi: dict) -> str | None:
    """A streamed design's host buffers must hold each input once, in a slot at least its size, and the output last."""
    if abi.get("kind") in ("gemm_overlay", "gemm_whole_array"):
        return None  # its buffers are codes, not tensors: the runner checks them against the GEMM's geometry
    bufs = abi.get("buffers")
    if not isinstance(bufs, list) or not bufs:
        return "the xdna abi has no buffers"
    ins = {t["name"]: t for t in k["inputs"]}
    out = k["outputs"][0]
    placed = []
    for i, b in enumerate(bufs):
        last = i == len(bufs) - 1
        parts = b.get("parts") if isinstance(b, dict) else None
        if not isinstance(parts, list) or not parts or (last and len(parts) != 1):
            return f"xdna buffer {i} is malformed"
        for p in parts:
            name = p.get("tensor") if isinstance(p, dict) else None
            t = out if last and name == out["name"] else None if last else ins.get(name)
            if t is None:
                return f"xdna buffer {i} holds {show(name)}, which is not {'the output' if last else 'an input'} of the kernel"
            n = tensor_bytes(t) // DTYPE_BYTES[t["dtype"]]
            if b.get("dtype") != t["dtype"] or p.get("elements") != n or not (is_count(p.get("slot")) and p["slot"] >= n):
                return f"xdna buffer {i} part '{name}' does not fit its tensor ({n} {t['dtype']} elements)"
            placed.append(name)
    if sorted(placed[:-1]) != sorted(ins):
        return "the xdna buffers do not hold every input exactly once"
    return None


def embedded_abi(data: bytes) -> dict:
    """The ABI a host kernel.so exports as ``npubuild_abi`` (NUL-terminated JSON), read from
    its ELF dynamic symbol table without loading it; ValueError saying why not."""
    try:
        raw = elf_symbol(data, ABI_SYMBOL.encode())
    except (struct.error, IndexError, KeyError, ValueError, OverflowError):
        raise ValueError("it is not a readable ELF shared library") from None
    if raw is None:
        raise ValueError(f"it exports no '{ABI_SYMBOL}' (built by an older npubuild or not by npubuild)")
    text, nul, _ = raw.partition(b"\0")
    try:
        if not nul:
            raise ValueError
        abi = json.loads(text, parse_constant=no_constant)
    except ValueError:
        raise ValueError(f"its '{ABI_SYMBOL}' is not NUL-terminated JSON") from None
    if not isinstance(abi, dict):
        raise ValueError(f"its '{ABI_SYMBOL}' is not a JSON object")
    return abi


def design_entries(k: dict, target: str) -> list[tuple[str, dict]]:
    """(label, entry) of every design of ``target`` in a kernel record: ``target`` itself, or one
    ``<target>.<variant>`` per variant when the kernel was built for several (xdna.npu1, xdna.npu2)."""
    return [(label, t) for label, t in k["targets"].items()
            if (label == target or label.partition(".")[0] == target) and isinstance(t, dict)]


def xdna_abi_problem(kernel_id: str, k: dict, abi_bytes: bytes, entry: dict | None = None) -> str | None:
    """abi.json against the kernel record and the manifest's own copy of the xdna abi (``entry``: the
    design's manifest entry; the kernel's one ``xdna`` entry by default)."""
    try:
        abi = json.loads(abi_bytes, parse_constant=no_constant)
    except ValueError:
        return f"its {ABI_FILE} is not JSON"
    why = abi_mismatch(kernel_id, k, abi, ABI_FILE)
    if why:
        return why
    entry = k["targets"]["xdna"] if entry is None else entry
    if abi.get("xdna") != entry.get("abi"):
        return f"the manifest's xdna abi differs from {ABI_FILE}"
    return xdna_layout_problem(k, abi["xdna"])
