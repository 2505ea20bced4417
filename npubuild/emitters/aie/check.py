"""Static checks of a design before anything goes to aiecc.

They enforce what aiecc's verifier or the hardware would reject, and what
would make the NPU hang rather than fail (a DMA that moves fewer words than a
core consumes): DMA size/stride/repeat limits and 4-byte granularity, host
buffer bounds, DMA channels per tile, buffers that fit tile memory, every FIFO
with a producer and a consumer, buffer-descriptor ids in range and not reused
within a column, every output awaited, at most five host buffers. A failure is
an UnsupportedOnTarget naming the kernel, the limit and what to change.
"""
from __future__ import annotations

from collections import Counter

from ...errors import UnsupportedOnTarget
from .design import ELEMENT_BYTES, Design
from .devices import DMA_GRANULE, DMA_REPEAT_MAX, DMA_STRIDE_MAX, DMA_WRAP_MAX

MAX_HOST_BUFFERS = 5  # XRT maps at most five inout buffers per kernel (research notes §1d)
FIX = "use smaller shapes or split the op into several kernels"


def check_design(d: Design) -> None:
    problems = _problems(d)
    if problems:
        raise UnsupportedOnTarget(f"{d.kernel}: the {d.partition} design is not valid: " + "; ".join(problems) + f" ({FIX})")


def _problems(d: Design) -> list[str]:
    p: list[str] = []
    fifos = {f.name: f for f in d.fifos}
    dev = d.device
    if len(d.buffers) > MAX_HOST_BUFFERS:
        p.append(f"{len(d.buffers)} host buffers, XRT passes at most {MAX_HOST_BUFFERS}")
    if d.columns > dev.columns:
        p.append(f"uses {d.columns} columns, {dev.name} has {dev.columns}")

    # every FIFO produced and consumed
    consumed = {n for c in d.cores for n in (*c.streamed_in, *c.params)} | {ln.src for ln in d.links}
    consumed |= {t.fifo for t in d.transfers if t.wait}
    produced = {c.out for c in d.cores} | {ln.dst for ln in d.links} | {t.fifo for t in d.transfers if not t.wait}
    for name in fifos:
        if name not in consumed:
            p.append(f"object FIFO @{name} has no consumer")
        if name not in produced:
            p.append(f"object FIFO @{name} has no producer")
    for name in (consumed | produced) - set(fifos):
        p.append(f"@{name} is used but not declared")

    # DMA channels per tile
    ins, outs = Counter(), Counter()
    for f in d.fifos:
        outs[f.producer] += 1
        ins[f.consumer] += 1
    for tile in set(ins) | set(outs):
        row = tile[1]
        cap_in, cap_out, kind = {
            0: (dev.shim_out_channels, dev.shim_in_channels, "shim"),
            1: (dev.mem_in_channels, dev.mem_out_channels, "mem"),
        }.get(row, (dev.core_in_channels, dev.core_out_channels, "core"))
        if ins[tile] > cap_in:
            p.append(f"{kind} tile {tile} receives {ins[tile]} streams, it has {cap_in} input DMA channels")
        if outs[tile] > cap_out:
            p.append(f"{kind} tile {tile} sends {outs[tile]} streams, it has {cap_out} output DMA channels")

    # memory: FIFO buffers live in the tiles that touch them (not the shim);
    # a link shares one mem-tile buffer between its two FIFOs
    linked = {ln.dst: ln.src for ln in d.links}
    use = Counter()
    for f in d.fifos:
        for tile in (f.producer, f.consumer):
            if tile[1] == 0 or (tile[1] == 1 and f.name in linked):
                continue
            use[tile] += f.depth * f.bytes
    for tile, _, shape, dtype in d.locals:
        n = 1
        for s in shape:
            n *= s
        use[tile] += n * ELEMENT_BYTES[dtype]
    for c in d.cores:
        use[c.tile] += d.stack
    for tile, n in sorted(use.items()):
        cap = dev.mem_tile_memory if tile[1] == 1 else dev.core_memory
        if n > cap:
            kind = "mem tile" if tile[1] == 1 else "core"
            p.append(f"{kind} {tile} needs {n} bytes of buffers, it has {cap}")

    # DMA transfers
    seen_bd = set()
    moved = Counter()
    for t in d.transfers:
        b = d.buffers[t.buffer]
        eb = ELEMENT_BYTES[b.dtype]
        where = f"transfer of {b.name} to @{t.fifo}"
        if (t.offset * eb) % DMA_GRANULE:
            p.append(f"{where}: offset {t.offset * eb} bytes is not 4-byte aligned")
        if (t.sizes[3] * eb) % DMA_GRANULE:
            p.append(f"{where}: inner size {t.sizes[3] * eb} bytes is not a multiple of 4")
        for k in range(3):
            if (t.strides[k] * eb) % DMA_GRANULE:
                p.append(f"{where}: stride {t.strides[k] * eb} bytes is not a multiple of 4")
        words = [t.sizes[3] * eb // DMA_GRANULE, t.sizes[2], t.sizes[1], t.sizes[0]]  # hardware order d0..d3
        stride_words = [t.strides[3] * eb // DMA_GRANULE, t.strides[2] * eb // DMA_GRANULE, t.strides[1] * eb // DMA_GRANULE]
        linear = t.sizes[:3] == (1, 1, 1) and t.strides[3] == 1
        if not linear:
            for k in (0, 1):
                if words[k] > DMA_WRAP_MAX:
                    p.append(f"{where}: dimension {k} wraps {words[k]} words, the shim DMA allows {DMA_WRAP_MAX}")
        if words[3] > DMA_REPEAT_MAX:
            p.append(f"{where}: repeat count {words[3]} exceeds {DMA_REPEAT_MAX}")
        for k, s in enumerate(stride_words):
            if s > DMA_STRIDE_MAX:
                p.append(f"{where}: stride {k} of {s} words exceeds {DMA_STRIDE_MAX}")
        last = t.offset + sum((n - 1) * s for n, s in zip(t.sizes, t.strides))
        if t.offset < 0 or last >= b.elems:
            p.append(f"{where}: reads elements up to {last}, the buffer has {b.elems}")
        if not 0 <= t.bd_id < dev.shim_bds:
            p.append(f"{where}: buffer descriptor id {t.bd_id} is outside 0..{dev.shim_bds - 1}")
        if (t.column, t.bd_id) in seen_bd:
            p.append(f"{where}: buffer descriptor {t.bd_id} of column {t.column} is used twice")
        seen_bd.add((t.column, t.bd_id))
        n = 1
        for s in t.sizes:
            n *= s
        moved[t.fifo] += n

    # what the DMAs move equals what the cores consume/produce per run
    expect = Counter()
    for c in d.cores:
        for name in c.streamed_in:
            expect[linked_src(d, name)] += c.chunks * fifos[name].elems
        for name in c.params:
            expect[name] += fifos[name].elems
        out = next(ln.dst for ln in d.links if ln.src == c.out)
        expect[out] += c.chunks * fifos[c.out].elems
    for name in sorted(set(expect) | set(moved)):
        if expect[name] != moved[name]:
            p.append(f"@{name}: the runtime sequence moves {moved[name]} elements per run, the core uses {expect[name]} (the NPU would hang)")
    outs_waited = {t.fifo for t in d.transfers if t.wait}
    for c in d.cores:
        out = next(ln.dst for ln in d.links if ln.src == c.out)
        if out not in outs_waited:
            p.append(f"output @{out} is never awaited")
    return p


def linked_src(d: Design, dst: str) -> str:
    """The shim-side FIFO feeding a core FIFO through the mem tile (itself when not linked)."""
    return next((ln.src for ln in d.links if ln.dst == dst), dst)
