"""Static checks of a design before anything goes to aiecc.

They enforce what aiecc's verifier or the hardware would reject, and what
would make the NPU hang rather than fail (a DMA that moves fewer words than a
core consumes): DMA size/stride/repeat limits and 4-byte granularity, host
buffer bounds, DMA channels per tile, buffers that fit tile memory, every FIFO
with a producer and a consumer, buffer-descriptor ids in range and not reused
within a column, every output awaited, at most five host buffers. Links are
checked as mlir-aie's ``ObjectFifoLinkOp::verify`` does (lib/Dialect/AIE/IR/
AIEDialect.cpp: a shared tile, join/distribute only at a mem tile, one offset
per child, not both at once, a FIFO in at most one link, and a join output's
``dimensionsToStream`` within EACH join input: see :func:`join_bounds_problem`), the
lowering's transfer lengths (each child's BD moves the next offset minus its own, which
must be its object size: rule ``link-transfer-length`` of :mod:`.rules`) and, beyond it, the
children's offsets must tile the mem-tile object exactly (a gap would leave
the shim waiting for data nobody writes, an overlap would overwrite it).

The mem tile's buffer descriptors and locks are counted the way
mlir-aie's objectFifo lowering allocates them
(lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp): a linked
pair's buffers live once, in the larger FIFO (the distribute's input, the
join's output); it gets ``2 * k`` locks (a producer/consumer pair per child,
``createObjectFifoLocks`` with ``joinDistribFactor`` = k) and ``depth * k``
BDs on its own channel plus ``depth`` on each child's channel. A failure is
an UnsupportedOnTarget naming the kernel, the limit and what to change.

Every design (the streamed designs of :mod:`.design`, the GEMM overlay of
:mod:`.gemm`, the one-dispatch GEMM of :mod:`.gemm_whole`) is described to the
checker as a :class:`Layout` holding its own :class:`~.fifos.Fifo` records.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...core.constants import DTYPE_BYTES as ELEMENT_BYTES
from ...core.errors import UnsupportedOnTarget
from .devices import DMA_GRANULE, DMA_REPEAT_MAX, DMA_STRIDE_MAX, DMA_WRAP_MAX, Device
from .fifos import Fifo
from .rules import violation

MAX_HOST_BUFFERS = 5  # XRT maps at most five inout buffers per kernel (research notes §1d)
FIX = "use smaller shapes or split the op into several kernels"


@dataclass
class Layout:
    """What the checker needs to know about a design."""

    device: Device
    columns: int
    buffers: list  # HostBuffer: name, dtype, elems
    fifos: list[Fifo]  # the design's own records: name, tiles, depth, bytes and elements of one object
    links: list  # Link: src, dst
    transfers: list  # Transfer
    cores: list[tuple[int, int]]
    stack: int
    core_acquires: set[str]  # FIFOs the cores consume from or produce into
    expect: Counter  # shim-side FIFO -> elements the cores take or give per run
    outputs: list[str]  # shim-side output FIFOs (each must be awaited)
    local_bytes: Counter = field(default_factory=Counter)  # tile -> bytes of aie.buffer locals
    align: int = 0  # bytes every core buffer and the stack must be a multiple of (0: no such rule)
    local_sizes: tuple[int, ...] = ()  # bytes of each aie.buffer local (checked against ``align``)


def raise_problems(kernel: str, what: str, problems: list[str]) -> None:
    if problems:
        raise UnsupportedOnTarget(f"{kernel}: the {what} is not valid: " + "; ".join(problems) + f" ({FIX})")


def layout_problems(lay: Layout) -> list[str]:
    p: list[str] = []
    dev = lay.device
    fifos = {f.name: f for f in lay.fifos}
    if len(lay.buffers) > MAX_HOST_BUFFERS:
        p.append(f"{len(lay.buffers)} host buffers, XRT passes at most {MAX_HOST_BUFFERS}")
    if lay.columns > dev.columns:
        p.append(f"uses {lay.columns} columns, {dev.name} has {dev.columns}")

    # every FIFO produced and consumed: the shim side by transfers, the rest by links and cores
    consumed = lay.core_acquires | {n for ln in lay.links for n in ln.ins} | {t.fifo for t in lay.transfers if t.wait}
    produced = lay.core_acquires | {n for ln in lay.links for n in ln.outs} | {t.fifo for t in lay.transfers if not t.wait}
    for name, f in fifos.items():
        if name not in consumed:
            p.append(f"object FIFO @{name} has no consumer")
        if name not in produced:
            p.append(f"object FIFO @{name} has no producer")
    for name in sorted((consumed | produced) - set(fifos)):
        p.append(f"@{name} is used but not declared")

    # DMA channels: one output channel at the producer, one input at each consumer
    ins, outs = Counter(), Counter()
    for f in lay.fifos:
        outs[f.producer] += 1
        for tile in f.consumers:
            ins[tile] += 1
    for tile in sorted(set(ins) | set(outs)):
        cap_in, cap_out, kind = {
            0: (dev.shim_out_channels, dev.shim_in_channels, "shim"),
            1: (dev.mem_in_channels, dev.mem_out_channels, "mem"),
        }.get(tile[1], (dev.core_in_channels, dev.core_out_channels, "core"))
        if ins[tile] > cap_in:
            p.append(f"{kind} tile {tile} receives {ins[tile]} streams, it has {cap_in} input DMA channels")
        if outs[tile] > cap_out:
            p.append(f"{kind} tile {tile} sends {outs[tile]} streams, it has {cap_out} output DMA channels")

    p += link_problems(lay.links, fifos)

    # memory: FIFO buffers live in every non-shim tile they touch; a link's mem-tile buffers are its target's
    targets = {link_target(ln, fifos) for ln in lay.links if all(n in fifos for n in (*ln.ins, *ln.outs))}
    linked = {n for ln in lay.links for n in (*ln.ins, *ln.outs)}
    use = Counter(lay.local_bytes)
    for f in lay.fifos:
        for tile in (f.producer, *f.consumers):
            if tile[1] == 0 or (tile[1] == 1 and f.name in linked and f.name not in targets):
                continue
            use[tile] += f.depth * f.bytes
    for tile in lay.cores:
        use[tile] += lay.stack
    for tile, n in sorted(use.items()):
        cap = dev.mem_tile_memory if tile[1] == 1 else dev.core_memory
        if n > cap:
            kind = "mem tile" if tile[1] == 1 else "core"
            p.append(f"{kind} {tile} needs {n} bytes of buffers and stack, it has {cap}")
    p += mem_tile_problems(lay, fifos)
    p += alignment_problems(lay)

    # DMA transfers
    seen_bd = set()
    moved = Counter()
    for t in lay.transfers:
        b = lay.buffers[t.buffer]
        p += transfer_problems(t, b, dev)
        if (t.column, t.bd_id) in seen_bd:
            p.append(f"transfer of {b.name} to @{t.fifo}: buffer descriptor {t.bd_id} of column {t.column} is used twice")
        seen_bd.add((t.column, t.bd_id))
        n = 1
        for s in t.sizes:
            n *= s
        moved[t.fifo] += n

    # what the DMAs move per run equals what the cores take and give (else the NPU hangs)
    for name in sorted(set(lay.expect) | set(moved)):
        if lay.expect[name] != moved[name]:
            p.append(f"@{name}: the runtime sequence moves {moved[name]} elements per run, the cores use {lay.expect[name]} (the NPU would hang)")
    waited = {t.fifo for t in lay.transfers if t.wait}
    for out in lay.outputs:
        if out not in waited:
            p.append(f"output @{out} is never awaited")
    return p


def alignment_problems(lay: Layout) -> list[str]:
    """A core calling a kernel that loads whole vectors: aie-assign-buffer-addresses places buffers back to
    back after the stack without aligning them (lib/Dialect/AIE/Transforms/AIEAssignBuffers.cpp, "Fixme:
    alignment"), so every buffer on such a core, and the stack, must be a multiple of the vector's bytes."""
    a = lay.align
    if not a:
        return []
    p = []
    if lay.stack % a:
        p.append(f"stack_size {lay.stack} is not a multiple of the kernel's {a}-byte vector alignment")
    cores = set(lay.cores)
    for f in lay.fifos:
        if f.bytes % a and (f.producer in cores or any(t in cores for t in f.consumers)):
            p.append(f"object FIFO @{f.name} holds {f.bytes}-byte objects, not a multiple of the kernel's {a}-byte alignment")
    for n in lay.local_sizes:
        if n % a:
            p.append(f"a {n}-byte local buffer is not a multiple of the kernel's {a}-byte alignment")
    return p


def transfer_problems(t, b, dev: Device) -> list[str]:
    """One ``dma_memcpy_nd`` against the shim DMA's limits and its host buffer's bounds."""
    p = []
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
    # AIEX::isLinearTransfer: d1 and d2 of size 1, a unit d0 stride; the repeat (d3) is intentionally excluded
    linear = t.sizes[1:3] == (1, 1) and t.strides[1:] == (0, 0, 1)
    if not linear:
        for k in (0, 1):
            if words[k] > DMA_WRAP_MAX:
                p.append(f"{where}: dimension {k} wraps {words[k]} words, the shim DMA allows {DMA_WRAP_MAX}")
    if words[3] > DMA_REPEAT_MAX:
        p.append(f"{where}: repeat count {words[3]} exceeds {DMA_REPEAT_MAX}")
    for k, s in enumerate((t.strides[3], t.strides[2], t.strides[1])):
        if s * eb // DMA_GRANULE > DMA_STRIDE_MAX:
            p.append(f"{where}: stride {k} of {s * eb // DMA_GRANULE} words exceeds {DMA_STRIDE_MAX}")
    last = t.offset + sum((n - 1) * s for n, s in zip(t.sizes, t.strides))
    if t.offset < 0 or last >= b.elems:
        p.append(f"{where}: reads elements up to {last}, the buffer has {b.elems}")
    if not 0 <= t.bd_id < dev.shim_bds:
        p.append(f"{where}: buffer descriptor id {t.bd_id} is outside 0..{dev.shim_bds - 1}")
    return p


def link_target(ln, fifos: dict) -> str:
    """The FIFO of a link whose buffers the mem tile holds (mlir-aie createObjectFifoElements: the larger one;
    the input of a plain link whose output is padded, the padding being added as the output streams)."""
    if ln.kind == "join":
        return ln.outs[0]
    if ln.kind == "distribute":
        return ln.ins[0]
    src, dst = fifos[ln.ins[0]], fifos[ln.outs[0]]
    return ln.ins[0] if src.bytes >= dst.bytes or dst.pads else ln.outs[0]


def dims_max_index(dims) -> int:
    """The largest index a DMA pattern reaches (AIEDialect.cpp ``getDimsMaxIdx``: sum of stride * (size - 1))."""
    return sum(st * (sz - 1) for sz, st in dims)


def link_transfer_lengths(offsets, parent_elems: int) -> list[int]:
    """Each child's transfer length as mlir-aie derives it from the offsets in the order written
    (AIEDialect.cpp ``ObjectFifoLinkOp::getJoinTransferLengths`` / ``getDistributeTransferLengths``)."""
    offs = list(offsets)
    return [(offs[i + 1] if i + 1 < len(offs) else parent_elems) - offs[i] for i in range(len(offs))]


def join_bounds_problem(ln, parent: Fifo) -> str | None:
    """mlir-aie applies a join output's ``dimensionsToStream`` to each join input, not to the joined
    object: the lowering (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp,
    ``createMemTileDMA``) gives the mem tile one buffer descriptor per join input, at its offset, of its
    transfer length, each walking the pattern; and ``ObjectFifoLinkOp::verify`` (lib/Dialect/AIE/IR/
    AIEDialect.cpp) refuses a pattern whose largest index reaches the shortest input (shortest found
    with verify's own loop). The message is verify's. (A distribute's input-side pattern is bounded the
    same way per distribute output; no :class:`Fifo` carries one.)"""
    if ln.kind != "join" or not parent.dims:
        return None
    max_idx = dims_max_index(parent.dims)
    least = -1
    for n in link_transfer_lengths(ln.offsets, parent.elems):
        if n <= least or least < 0:
            least = n
    if least > max_idx:
        return None
    return (f"@{parent.name}: specified output stride(s) and size(s) result in out of bounds access in join input, "
            f"for index {max_idx} in transfer of length {least} (mlir-aie ObjectFifoLinkOp::verify)")


def link_problems(links, fifos: dict) -> list[str]:
    """``aie.objectfifo.link`` as mlir-aie's verifier and lowering take it (see the module docstring)."""
    p: list[str] = []
    seen: set[str] = set()
    for ln in links:
        names = (*ln.ins, *ln.outs)
        what = f"link [{', '.join(ln.ins)}] -> [{', '.join(ln.outs)}]"
        for n in names:
            if n in seen:
                p.append(f"object FIFO @{n} is in more than one link")
            seen.add(n)
        if any(n not in fifos for n in names):
            continue  # reported as undeclared above
        if len(ln.ins) > 1 and len(ln.outs) > 1:
            p.append(f"{what}: join and distribute at the same time")
            continue
        if ln.kind == "plain":
            shared = fifos[ln.outs[0]].producer if fifos[ln.outs[0]].producer in fifos[ln.ins[0]].consumers else None
            if ln.offsets:
                p.append(f"{what}: a plain link has no offsets")
            if shared is None:
                p.append(f"{what}: the FIFOs share no tile")
            continue
        parent, children = (ln.outs[0], ln.ins) if ln.kind == "join" else (ln.ins[0], ln.outs)
        pf = fifos[parent]
        shared = pf.producer if ln.kind == "join" else pf.consumers[0]
        ends = [fifos[ch].consumers[0] if ln.kind == "join" else fifos[ch].producer for ch in children]
        if any(e != shared for e in ends):
            p.append(f"{what}: the FIFOs share no tile")
            continue
        if shared[1] != 1:
            p.append(f"{what}: {ln.kind} is only available on a mem tile, not tile {shared}")
        if len(ln.offsets) != len(children):
            p.append(f"{what}: {len(ln.offsets)} offsets for {len(children)} {ln.kind} FIFOs")
            continue
        if (bound := join_bounds_problem(ln, pf)) is not None:
            p.append(f"{what}: {bound}")
        # createMemTileDMA moves child i with one BD of the next offset minus its own, in the link's order
        for ch, off, n in zip(children, ln.offsets, link_transfer_lengths(ln.offsets, pf.elems)):
            if n != fifos[ch].elems:
                p.append(violation("link-transfer-length", what, child=ch, length=n, offset=off, elems=fifos[ch].elems))
        spans = sorted((off, off + fifos[ch].elems, ch) for off, ch in zip(ln.offsets, children))
        at = 0
        for lo, hi, ch in spans:
            if lo != at:
                p.append(
                    f"{what}: @{ch} at offset {lo} {'overlaps' if lo < at else 'leaves a gap after'} element {at} of @{parent}"
                )
            at = max(at, hi)
        if at != pf.elems:
            p.append(f"{what}: the {ln.kind} FIFOs cover {at} elements of @{parent}'s {pf.elems}")
    return p


def mem_tile_problems(lay: Layout, fifos: dict) -> list[str]:
    """Buffer descriptors and locks of every mem tile (counted as in the module docstring)."""
    bds, locks = Counter(), Counter()
    linked: set[str] = set()
    for ln in lay.links:
        names = (*ln.ins, *ln.outs)
        if any(n not in fifos for n in names):
            continue
        linked.update(names)
        target = fifos[link_target(ln, fifos)]
        tile = target.producer if target.producer[1] == 1 else target.consumers[0]
        if tile[1] != 1:
            continue
        k = max(len(ln.ins), len(ln.outs))
        bds[tile] += 2 * k * target.depth
        locks[tile] += 2 * k
    for f in lay.fifos:
        if f.name in linked:
            continue
        for tile in {f.producer, *f.consumers}:
            if tile[1] == 1:
                bds[tile] += f.depth
                locks[tile] += 2
    p = []
    dev = lay.device
    for tile in sorted(set(bds) | set(locks)):
        if bds[tile] > dev.mem_bds:
            p.append(f"mem tile {tile} needs {bds[tile]} buffer descriptors, it has {dev.mem_bds}")
        if locks[tile] > dev.mem_locks:
            p.append(f"mem tile {tile} needs {locks[tile]} locks, it has {dev.mem_locks}")
    return p


def linked_src(links, dst: str) -> str:
    """The FIFO feeding ``dst`` through a mem-tile link (``dst`` itself when not linked)."""
    return next((ln.ins[0] for ln in links if dst in ln.outs and len(ln.ins) == 1), dst)


def linked_dst(links, src: str) -> str:
    """The FIFO ``src`` feeds through a mem-tile link (``src`` itself when not linked)."""
    return next((ln.outs[0] for ln in links if src in ln.ins and len(ln.outs) == 1), src)


# ---- the streamed designs ---------------------------------------------------------------------------------------------


def design_layout(d) -> Layout:
    fifos = {f.name: f for f in d.fifos}
    expect = Counter()
    acquires: set[str] = set()
    params: set[str] = set()
    for c in d.cores:
        for k, name in enumerate(c.streamed_in):
            objects = c.chunks + (c.preamble if k == 0 else 0)  # the parameters ride the first stream first
            expect[linked_src(d.links, name)] += objects * fifos[name].elems
        params.update(c.params)  # a broadcast FIFO is moved once for all its cores
        expect[linked_dst(d.links, c.out)] += c.chunks * fifos[c.out].elems
        acquires |= {*c.streamed_in, *c.params, c.out}
    for name in params:
        expect[name] += fifos[name].elems
    # a DMA-only design (.dma_transpose): what each shim-side FIFO carries through its mem tile per run
    for name, n in getattr(d, "passes", ()):
        expect[name] += n
    local = Counter()
    sizes = []
    for tile, _, shape, dtype in d.locals:
        n = ELEMENT_BYTES[dtype]
        for s in shape:
            n *= s
        local[tile] += n
        sizes.append(n)
    return Layout(
        device=d.device,
        columns=d.columns,
        buffers=d.buffers,
        fifos=list(d.fifos),
        links=d.links,
        transfers=d.transfers,
        cores=[c.tile for c in d.cores],
        stack=d.stack,
        core_acquires=acquires,
        expect=expect,
        outputs=sorted({linked_dst(d.links, c.out) for c in d.cores} | set(getattr(d, "outputs", ()))),
        local_bytes=local,
        align=d.call.align if d.call is not None else 0,
        local_sizes=tuple(sizes),
    )


def check_design(d) -> None:
    raise_problems(d.kernel, f"{d.partition} design", layout_problems(design_layout(d)))
