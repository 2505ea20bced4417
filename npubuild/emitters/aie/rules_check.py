"""Apply the rules of :mod:`.rules` to an emitted ``aie.mlir`` (read by :mod:`.rules_parse`).

:func:`text_problems` returns one line per violation, naming the rule, the place and the
mlir-aie function; :func:`check_text` raises them as an UnsupportedOnTarget (emit calls it on
every design it writes). Per tile kind, after mlir-aie's objectFifo lowering
(AIEObjectFifoStatefulTransform.cpp): a FIFO end at a core or mem tile gets ``depth`` buffers,
a producer/consumer lock pair and ``depth`` buffer descriptors on its DMA channel; a linked
pair's buffers live once, in the larger FIFO (a join's output, a distribute's input), with
``k`` lock pairs (``joinDistribFactor``) and one BD per child per buffer on its own channel
(``createMemTileDMA``); a shim end has no buffers (the runtime sequence's BDs).
"""
from __future__ import annotations

from collections import Counter

from ...core.errors import UnsupportedOnTarget
from . import buffer_layout
from .rules import violation
from .rules_parse import BITS, Module, memref, parse

# AIETargetModel (AIE2 / AIE2P): buffer descriptors and locks per tile kind, data memory of a core
NUM_BDS = {"shim": 16, "mem": 48, "core": 16}
NUM_LOCKS = {"shim": 16, "mem": 64, "core": 16}
CORE_MEMORY = 64 * 1024
BD_MAX_DIMS = {"shim": 3, "mem": 4, "core": 3}  # AIETargetModel::getBDMaxDims; DMABDOp::verify
STACK_ALIGN = {"npu1": 32, "npu2": 64}  # CoreOp::verify stack ABI (test/dialect/AIE/bad_stack_alignment.mlir)
GRANULE_BITS = 32  # AIETargetModel::getAddressGenGranularity (AIE2)


def text_problems(text: str) -> list[str]:
    mod = parse(text)
    p: list[str] = []
    p += fifo_problems(mod)
    p += link_problems(mod)
    p += access_problems(mod)
    p += resource_problems(mod)
    p += core_problems(mod)
    p += memory_problems(mod)
    p += sequence_problems(mod)
    return list(dict.fromkeys(p))


def check_text(kernel: str, text: str) -> None:
    """Raise when the emitted text breaks one of mlir-aie's rules (see :mod:`.rules`)."""
    p = text_problems(text)
    if p:
        raise UnsupportedOnTarget(f"{kernel}: the emitted aie.mlir breaks mlir-aie's rules: " + "; ".join(p))


# ---- ObjectFifoCreateOp and the BDs its dimensions become ----------------------------------------------------------


def fifo_problems(mod: Module) -> list[str]:
    p: list[str] = []
    for f in mod.fifos.values():
        at = f"@{f.name}"
        ty = f.type
        if not ty.startswith("memref<"):
            p.append(violation("fifo-element-type", at, type=ty))
            continue
        if memref(ty) is None:
            p.append(violation("fifo-static-shape", at, type=ty))
            continue
        if len(f.depth) > 1 and len(f.depth) != len(f.consumers) + 1:
            p.append(violation("fifo-depths", at))
        if f.dims and mod.kind(f.producer) == "shim":
            p.append(violation("fifo-shim-to-stream", at))
        for tile, dims in f.from_dims.items():
            if mod.kind(tile) == "shim":
                p.append(violation("fifo-shim-from-stream", f"{at} at {tile}"))
        buf = _buffer_elems(mod, f)
        if f.dims and mod.kind(f.producer) != "shim":
            p += bd_dims_problems(f"{at} dimensionsToStream at {f.producer}", f.dims, mod.kind(f.producer), buf, f.dtype)
        for tile, dims in f.from_dims.items():
            if mod.kind(tile) != "shim":
                p += bd_dims_problems(f"{at} dimensionsFromStream at {tile}", dims, mod.kind(tile), buf, f.dtype)
        if f.bytes % 4 and any(mod.kind(t) != "shim" for t in (f.producer, *f.consumers)):
            p.append(violation("bd-length-4-bytes", f"{at}: objects of {f.bytes} bytes"))
        if f.pads:
            p += pad_problems(f"{at} padDimensions at {f.producer}", f, mod.kind(f.producer), _bd_length(mod, f))
    return p


def _plain_target(fin, fout):
    """The FIFO whose buffers a plain link's mem tile keeps (AIEObjectFifoStatefulTransform.cpp,
    createObjectFifoElements): the input when it is at least as large, or when the output is padded
    (padding is added by the output's MM2S BD as it streams); otherwise the output."""
    return fin if fin.elems >= fout.elems or fout.pads else fout


def _buffer_elems(mod: Module, f) -> int:
    """Elements of the buffer a FIFO's mem-tile BDs walk: a linked pair's target object."""
    for ins, outs, _, _ in mod.links:
        if f.name in (*ins, *outs) and all(n in mod.fifos for n in (*ins, *outs)):
            if len(ins) > 1:
                return mod.fifos[outs[0]].elems
            if len(outs) > 1:
                return mod.fifos[ins[0]].elems
            return _plain_target(mod.fifos[ins[0]], mod.fifos[outs[0]]).elems
    return f.elems


def _bd_length(mod: Module, f) -> int:
    """The ``len`` of a FIFO's mem-tile BD (createMemTileDMA: its own object size, or a plain link's target's
    when that is larger)."""
    for ins, outs, _, _ in mod.links:
        if len(ins) == 1 and len(outs) == 1 and f.name in (*ins, *outs) and all(n in mod.fifos for n in (*ins, *outs)):
            return max(f.elems, _plain_target(mod.fifos[ins[0]], mod.fifos[outs[0]]).elems)
    return f.elems


# AIE-ML mem-tile BD zero-padding fields, innermost dimension first (d0 counts 32-bit words)
PAD_FIELD_BITS = (6, 5, 4)


def pad_problems(where: str, f, kind: str, length: int) -> list[str]:
    """``DMABDOp::verify``'s padding rules on the BD a padded FIFO becomes, and the register fields the
    counts are written to (AIERT.cpp passes them to aie-rt, which masks them into the BD)."""
    if not f.dims:
        return [violation("bd-pad-needs-dims", where)]
    p = []
    if kind != "mem":
        p.append(violation("bd-pad-memtile", where))
    if len(f.pads) != len(f.dims):
        return p + [violation("bd-pad-dims-count", where)]
    actual = 1
    for (size, _), (before, after) in zip(f.dims, f.pads):
        actual *= before + after + size
        if actual > length:
            p.append(violation("bd-pad-exceeds-len", where))
            break
    width = BITS.get(f.dtype or "i32", 32) // 8
    before, after = f.pads[-1]
    if before * width % 4:
        p.append(violation("bd-pad-inner-before", where))
    if after * width % 4:
        p.append(violation("bd-pad-inner-after", where))
    for dim, pad in enumerate(reversed(f.pads)):  # d0 = the innermost
        for side, count in zip(("before", "after"), pad):
            count = count * width // 4 if dim == 0 else count
            bits = PAD_FIELD_BITS[dim] if dim < len(PAD_FIELD_BITS) else 0
            if count >= 1 << bits:
                p.append(violation("bd-pad-field", where, count=count, dim=dim, bits=bits, side=side))
    return p


def bd_dims_problems(where: str, dims, kind: str, elems: int, dtype: str | None) -> list[str]:
    """``DMABDOp::verify`` on the BD a FIFO's dimensions become (buffer: ``elems`` elements)."""
    p = []
    if len(dims) > BD_MAX_DIMS[kind]:
        p.append(violation("bd-max-dims", where, max=BD_MAX_DIMS[kind], got=len(dims)))
    for size, stride in dims:
        if stride == 0:
            p.append(violation("bd-step-positive", where))
        if stride > elems:
            p.append(violation("bd-step-memref", where, stride=stride, elems=elems))
        if size >= (1 << 9) + 1:
            p.append(violation("bd-size-max", f"{where}: size {size}"))
        if stride >= (1 << 19):
            p.append(violation("bd-stride-max", f"{where}: stride {stride}"))
    max_idx = sum(st * (sz - 1) for sz, st in dims)
    if elems <= max_idx:
        p.append(violation("bd-out-of-bounds", where, index=max_idx, elems=elems))
    if dims and BITS.get(dtype or "i32", 32) < 32 and dims[-1][1] != 1:
        p.append(violation("bd-sub32-inner-stride", where))
    return p


# ---- ObjectFifoLinkOp ---------------------------------------------------------------------------------------------


def transfer_lengths(offsets, parent_elems: int) -> list[int]:
    """``getJoinTransferLengths`` / ``getDistributeTransferLengths``: the next offset minus this one, in the
    link's order; the last child's runs to the end of the parent's object."""
    offs = list(offsets)
    return [(offs[i + 1] if i + 1 < len(offs) else parent_elems) - offs[i] for i in range(len(offs))]


def _least(lengths) -> int:
    least = -1  # ObjectFifoLinkOp::verify's own loop
    for n in lengths:
        if n <= least or least < 0:
            least = n
    return least


def link_problems(mod: Module) -> list[str]:
    p: list[str] = []
    seen: set[str] = set()
    for ins, outs, src, dst in mod.links:
        at = f"link [{', '.join(ins)}] -> [{', '.join(outs)}]"
        join, distribute = len(ins) > 1, len(outs) > 1
        if join and distribute:
            p.append(violation("link-join-and-distribute", at))
            continue
        for n in (*ins, *outs):
            if n in seen:
                p.append(violation("link-one-link", f"{at}: @{n}"))
            seen.add(n)
        if any(n not in mod.fifos for n in (*ins, *outs)):
            p.append(violation("access-fifo", at))
            continue
        fi = [mod.fifos[n] for n in ins]
        fo = [mod.fifos[n] for n in outs]
        if join:
            shared = fo[0].producer if all(f.consumers[0] == fo[0].producer for f in fi) else None
        elif distribute:
            shared = fi[0].consumers[0] if all(fi[0].consumers[0] == f.producer for f in fo) else None
        else:
            shared = fo[0].producer if fo[0].producer in fi[0].consumers else None
        if shared is None:
            p.append(violation("link-point", at))
            continue
        if join or distribute:
            if mod.kind(shared) == "shim":
                p.append(violation("link-shim", at))
            if mod.kind(shared) != "mem":
                p.append(violation("link-memtile", at))
        if join:
            if len(src) != len(ins):
                p.append(violation("link-src-offsets", at))
                continue
            if dst:
                p.append(violation("link-join-dst-offsets", at))
            parent, children, offsets, dims = fo[0], fi, src, fo[0].dims
            bound = "link-join-bounds"
        elif distribute:
            if len(dst) != len(outs):
                p.append(violation("link-dst-offsets", at))
                continue
            if src:
                p.append(violation("link-distribute-src-offsets", at))
            parent, children, offsets, dims = fi[0], fo, dst, fi[0].from_dims.get(shared, ())
            bound = "link-distribute-bounds"
        else:
            if src and dst:
                p.append(violation("link-plain-offsets", at))
            continue
        lengths = transfer_lengths(offsets, parent.elems)
        if dims:
            max_idx = sum(st * (sz - 1) for sz, st in dims)
            least = _least(lengths)
            if least <= max_idx:
                p.append(violation(bound, at, index=max_idx, length=least))
        for ch, off, n in zip(children, offsets, lengths):
            if n != ch.elems:
                p.append(violation("link-transfer-length", at, child=ch.name, length=n, offset=off, elems=ch.elems))
            elif n * BITS.get(ch.dtype or "i32", 32) // 8 % 4:
                p.append(violation("bd-length-4-bytes", f"{at}: @{ch.name}'s transfer of {n} elements"))
    return p


# ---- acquire / release / subview.access ---------------------------------------------------------------------------


def access_problems(mod: Module) -> list[str]:
    p: list[str] = []
    if mod.stray_accesses:
        p.append(violation("access-in-core", f"{mod.stray_accesses} op(s)", op="acquire"))
    for core in mod.cores:
        for op, name, port, n in core.accesses:
            at = f"{op} @{name} at {core.tile}"
            f = mod.fifos.get(name)
            if f is None:
                p.append(violation("access-fifo", at))
                continue
            if port == "Produce" and core.tile != f.producer:
                p.append(violation("access-producer-tile", at))
            if port == "Consume" and core.tile not in f.consumers:
                p.append(violation("access-consumer-tile", at))
            if op == "acquire":
                i = 0 if port == "Produce" or len(f.depth) == 1 else 1 + f.consumers.index(core.tile)
                depth = f.depth[i] if i < len(f.depth) else f.depth[0]
                if n > depth:
                    p.append(violation("acquire-depth", at, n=n, depth=depth))
        for name, n, index in core.subviews:
            if index >= n:
                p.append(violation("subview-index", f"@{name} at {core.tile}"))
    return p


# ---- buffer descriptors and locks per tile ------------------------------------------------------------------------


def _link_buffers(mod: Module) -> tuple[set[str], list]:
    """The linked FIFOs and, per link, (mem tile, the FIFO whose buffers it keeps, children)."""
    linked: set[str] = set()
    out = []
    for ins, outs, _, _ in mod.links:
        if any(n not in mod.fifos for n in (*ins, *outs)):
            continue
        linked.update((*ins, *outs))
        target = mod.fifos[outs[0]] if len(ins) > 1 else mod.fifos[ins[0]] if len(outs) > 1 else _plain_target(
            mod.fifos[ins[0]], mod.fifos[outs[0]])
        out.append((ins and mod.fifos[ins[0]].consumers[0], target, max(len(ins), len(outs))))
    return linked, out


def _fifo_ends(mod: Module, linked: set[str]):
    """(tile, FIFO, depth) for every FIFO end that gets its own buffers, BDs and locks."""
    for f in mod.fifos.values():
        ends = [(f.producer, f.depth[0])] + [(t, f.depth[min(i + 1, len(f.depth) - 1)]) for i, t in enumerate(f.consumers)]
        for tile, depth in ends:
            if mod.kind(tile) == "shim" or (f.name in linked and mod.kind(tile) == "mem"):
                continue
            yield tile, f, depth


def tile_buffers(mod: Module) -> dict[str, list[tuple[str, int]]]:
    """Per core or mem tile, the (what, bytes) of every buffer the lowering gives it:
    ``depth`` objects per FIFO end, a link's objects once, and the text's ``aie.buffer`` locals."""
    out: dict[str, list[tuple[str, int]]] = {}
    linked, links = _link_buffers(mod)
    for tile, target, _ in links:
        out.setdefault(tile, []).extend([(f"@{target.name}'s objects", target.bytes)] * target.depth[0])
    for tile, f, depth in _fifo_ends(mod, linked):
        out.setdefault(tile, []).extend([(f"@{f.name}'s objects", f.bytes)] * depth)
    for tile, shape, dt in mod.buffers:
        out.setdefault(tile, []).append((f"a local {'x'.join(map(str, shape))}x{dt} buffer", _nbytes(shape, dt)))
    return out


def resource_problems(mod: Module) -> list[str]:
    bds, locks = Counter(), Counter()
    linked, links = _link_buffers(mod)
    for tile, target, k in links:
        bds[tile] += 2 * k * target.depth[0]  # one BD per child per buffer on the child's channel, the same on the target's
        locks[tile] += 2 * k
    for tile, _, depth in _fifo_ends(mod, linked):
        bds[tile] += depth
        locks[tile] += 2
    p: list[str] = []
    for tile in sorted(set(bds) | set(locks)):
        kind = mod.kind(tile)
        op = {"core": "aie.mem", "mem": "aie.memtile_dma"}.get(kind, "aie.shim_dma")
        if bds[tile] > NUM_BDS[kind]:
            p.append(violation("bd-count", f"{tile}: {bds[tile]} BDs", op=op, max=NUM_BDS[kind]))
        if locks[tile] > NUM_LOCKS[kind]:
            p.append(violation("lock-count", f"{tile}: {locks[tile]} locks", max=NUM_LOCKS[kind] - 1))
    return p


# ---- cores: stack and alignment -----------------------------------------------------------------------------------


def core_problems(mod: Module) -> list[str]:
    p: list[str] = []
    stack_align = STACK_ALIGN.get(mod.device.split("_")[0], 32)
    buffers = tile_buffers(mod)
    for core in mod.cores:
        stack = core.stack if core.stack is not None else 0x400
        if stack >= CORE_MEMORY:
            p.append(violation("core-stack", core.tile, stack=stack, mem=CORE_MEMORY))
        if stack % stack_align:
            p.append(violation("stack-alignment", f"{core.tile}: stack_size {stack} puts the buffers after it off "
                                                  f"the {stack_align}-byte stack alignment", align=stack_align))
        width = max((mod.vectors.get(c, 0) for c in core.calls), default=0)
        if width:
            p += _misaligned(core.tile, stack, buffers.get(core.tile, []), width, stack_align)
    return p


def _misaligned(tile: str, stack: int, buffers: list[tuple[str, int]], width: int, device_align: int) -> list[str]:
    """The first buffer of ``tile`` that an unpadding buffer assignment leaves off the alignment
    its size needs (:func:`.buffer_layout.required_alignment`), per scheme."""
    ordered = sorted(buffers, key=lambda b: -b[1])
    p = []
    for scheme, addresses in buffer_layout.layouts(stack, [s for _, s in ordered], "core").items():
        for (what, size), at in zip(ordered, addresses):
            align = buffer_layout.required_alignment(size, width, device_align)
            if at % align:
                p.append(violation("vector-alignment", f"{tile}, {scheme}", width=width, align=align, what=what,
                                   size=size, address=at))
                break
    return p


def memory_problems(mod: Module) -> list[str]:
    """A tile whose buffers do not fit its data memory once placed as the newest basic-sequential
    assignment pads them (the largest layout of any version: vector_alignment.mlir)."""
    p: list[str] = []
    device_align = STACK_ALIGN.get(mod.device.split("_")[0], 32)
    stacks = {c.tile: (c.stack if c.stack is not None else 0x400) for c in mod.cores}
    for tile, buffers in sorted(tile_buffers(mod).items()):
        kind = mod.kind(tile)
        if kind == "shim":
            continue
        at = stacks.get(tile, 0)
        for size in sorted((s for _, s in buffers), reverse=True):
            align = (device_align if size >= device_align else 32) if kind == "core" else 4
            at = -(-at // align) * align + size
        if at > buffer_layout.MEMORY[kind]:
            p.append(violation("tile-memory", f"{tile}: {len(buffers)} buffers and the stack end at byte {at}",
                               memory=buffer_layout.MEMORY[kind]))
    return p


def _nbytes(shape, dtype) -> int:
    n = BITS[dtype] // 8
    for s in shape:
        n *= s
    return n


# ---- the runtime sequence -----------------------------------------------------------------------------------------


def sequence_problems(mod: Module) -> list[str]:
    p: list[str] = []
    for arg, offsets, sizes, strides, attrs in mod.dmas:
        elems, dtype = mod.args.get(arg, (0, "i32"))
        at = f"dma_memcpy_nd of %{arg} ({attrs.split('metadata = ')[-1]})"
        bits = BITS.get(dtype, 32)
        if bits > GRANULE_BITS:
            p.append(violation("npu-element-width", at))
            continue
        if elems * bits < GRANULE_BITS:
            p.append(violation("npu-min-size", at))
        p += npu_pattern_problems(at, offsets, sizes, strides, bits)
        bd = int(attrs.split("id = ")[1].split(" ")[0]) if "id = " in attrs else 0
        if not 0 <= bd < NUM_BDS["shim"]:
            p.append(violation("shim-bd-id", f"{at}: id {bd}", max=NUM_BDS["shim"] - 1))
    for sym in mod.waits:
        if sym not in mod.fifos:
            p.append(violation("npu-wait-symbol", f"@{sym}"))
    return p


def npu_pattern_problems(at: str, offsets, sizes, strides, bits: int) -> list[str]:
    """``NpuDmaMemcpyNdOp::verify`` and ``verifyStridesWraps`` for a shim NOC tile (sizes and strides as
    written, outermost first; mlir-aie indexes them innermost first)."""
    p: list[str] = []
    s_in = list(reversed(sizes))  # inputSizes[0] is the innermost
    t_in = list(reversed(strides))
    o_in = list(reversed(offsets))
    eb = bits // 8
    if sum(o * t for o, t in zip(o_in, t_in)) * eb % 4:
        p.append(violation("npu-offset", at))
    for i in range(4):
        if s_in[i] <= 0:
            p.append(violation("npu-size-positive", at, i=i))
            return p
    if s_in[0] * bits % GRANULE_BITS:
        p.append(violation("npu-size-granule", at, n=s_in[0], eb=eb, bytes=s_in[0] * eb))
    for i in range(3):
        if s_in[i] > 1 and t_in[i] < 1:
            p.append(violation("npu-stride-positive", at, i=i))
    for i in range(4):
        if i == 0 and t_in[i] == 1:
            continue
        if t_in[i] * bits % GRANULE_BITS:
            p.append(violation("npu-stride-granule", at, i=i, s=t_in[i], eb=eb, bytes=t_in[i] * eb))
    # getHardwareStridesWraps: d0 counted in 32-bit words, strides in words minus one, the repeat minus one
    hw_sizes = [s_in[0] * bits // GRANULE_BITS, s_in[1], s_in[2], s_in[3] - 1 if s_in[3] > 1 else 0]
    hw_strides = [t_in[i] * bits // GRANULE_BITS - 1 if (i == 0 or s_in[i] > 1) and t_in[i] > 0 else 0 for i in range(4)]
    linear = s_in[1] == 1 and s_in[2] == 1 and t_in[0] == 1 and t_in[1] == 0 and t_in[2] == 0
    if not linear and hw_sizes[0] > 1023:
        p.append(violation("npu-wrap", at, i=0))
    if hw_sizes[1] > 1023:
        p.append(violation("npu-wrap", at, i=1))
    if hw_sizes[3] > 64:
        p.append(violation("npu-repeat", at))
    for i in range(3):
        if hw_strides[i] > 1 << 20:
            p.append(violation("npu-stride-max", at, i=i))
    if hw_strides[3] > 1 << 20 and hw_sizes[3] > 0:
        p.append(violation("npu-stride-max", at, i=3))
    return p
