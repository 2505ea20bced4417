"""Where a streamed design's chunks run: the packing, columns and core rows it uses.

:mod:`.design` says what a design is and how a chunk is sized; this module
tries the packings a kernel allows (today's two streams per core, then every
streamed input in one packed stream), spreads each packing's chunks over
``columns x rows`` cores (most cores first, then most columns: every column
brings its own shim DMA bandwidth), builds the design of each candidate, keeps
each packing's first one the static checker accepts, and of those the one
:mod:`.roofline` models fastest (most cores on a tie): a binary op's two
streams on separate channels over 2 core rows beat one packed stream over 4
where the DMA bounds it, not where a soft-float body does. The layout of one column is
described in :mod:`.design`'s docstring; every construct is cited there.
"""
from __future__ import annotations

import dataclasses

from ...core.errors import UnsupportedOnTarget
from ...specfile.instances import KernelInstance
from .check import design_layout, layout_problems
from .design import (
    CoreProgram,
    Design,
    HostBuffer,
    Operand,
    Transfer,
    body_scratch,
    choose_chunk,
    natural_streams,
    pack_buffers,
    stack_bytes,
)
from .devices import Device
from .fifos import Fifo, Link
from .placer import COLUMNS, Placer
from .split import Split, chunk_instance, split_for


def max_rows(device: Device, streams: int) -> int:
    """Core rows one column can feed with ``streams`` distributed input buffers.

    The mem tile sends ``streams`` FIFOs to every row plus the joined output
    to the shim (MM2S), and receives the ``streams`` inputs plus one output
    per row (S2MM).
    """
    by_out = (device.mem_out_channels - 1) // streams
    by_in = device.mem_in_channels - streams
    return max(1, min(device.core_rows, by_out, by_in))


def placements(n_chunks: int, device: Device, row_cap: int, placer: Placer = COLUMNS) -> list[tuple[int, int]]:
    """(columns, rows) to try, in the placer's order."""
    return placer.shapes(n_chunks, device, row_cap)


def plan_design(inst: KernelInstance, device: Device, body: str = "generated", unavailable: tuple = (),
                placer: Placer = COLUMNS) -> Design:
    """The design of ``inst``. ``body`` "mlir-aie": one whose cores call mlir-aie's kernel for the op
    when the catalog has one and its chunk fits (else the generated body's, ``body_note`` saying why);
    "auto": the same, but only where the generated body would be scalar on the device and the
    installed mlir-aie has the kernel (``unavailable``: the catalog sources it lacks). ``placer``:
    where columns and core rows go (:mod:`.placer`)."""
    note = ""
    if body == "auto":
        from .kernel_library import chunk_rule

        rule = chunk_rule(inst, device.name)
        if rule is None:
            return _plan(inst, device, placer=placer)[0]  # no library kernel: nothing to decide, nothing to say
        generated = _plan(inst, device, placer=placer)[0]
        if _lanes(generated) != "scalar":
            return generated  # npubuild's vector body computes the oracle's arithmetic: keep it
        if rule.kernel.source in unavailable:
            generated.body_note = f"mlir-aie's kernel is not used: the installed mlir-aie has no aie_kernels/{rule.kernel.source}"
            return generated
        body = "mlir-aie"
    if body == "mlir-aie":
        from .kernel_library import chunk_problem, chunk_rule, why_not

        rule = chunk_rule(inst, device.name)
        if rule is None:
            note = chunk_problem(inst, device.name) or ""
        else:
            rows = rule.rows or rule.elements
            try:
                d, ok, problem = _plan(inst, device, rows, placer)
            except UnsupportedOnTarget as e:
                note = _reason(inst, e)
            else:
                attach_call(d)
                if ok and d.call is not None:
                    return d
                note = problem if not ok else why_not(d.body, device.name) or ""
        note = f"mlir-aie's kernel is not used: {note}" if note else ""
    d, _, _ = _plan(inst, device, placer=placer)
    d.body_note = note
    return d


def attach_call(d: Design) -> None:
    """Make ``d``'s cores call mlir-aie's kernel for the chunk (``d.call``; None when none computes it). A kernel
    with a prologue also gets, on every core, the local buffer of the chunk's output shape the prologue fills
    and the kernel reads (counted in the core's memory by the checker like any local)."""
    from .kernel_library import kernel_call
    from .prologue import prologue_local

    d.call = kernel_call(d.body, d.device.name)
    if d.call is not None and d.call.kernel.prologue:
        out = d.body.output
        d.locals.extend((core.tile, prologue_local(core.tile), tuple(out.shape), out.dtype) for core in d.cores)


def _lanes(d: Design):
    """The generated body's vector width on the design's device, or "scalar"."""
    from ..host import emit as host_emit
    from ..host.vector import decision, profile

    with profile(d.device.arch):
        host_emit(d.body)
        return decision(d.body, d.device.arch)["lanes"]


def _plan(inst: KernelInstance, device: Device, only: int | None = None, placer: Placer = COLUMNS) -> tuple[Design, bool, str]:
    """(design, whether the checker accepts it, its first problem). ``only``: chunks of exactly that
    many rows, cores without the generated body's scratch (a library kernel's design)."""
    split = split_for(inst)
    scratch_of: dict[int, int] = {}

    def stack_of(r: int) -> int:
        if r not in scratch_of:
            scratch_of[r] = 0 if only is not None else body_scratch(chunk_instance(inst, split, r))
        return stack_bytes(scratch_of[r])

    natural = natural_streams(split)
    best: Design | None = None
    best_ok = False  # the static checker accepts ``best``
    best_rank: tuple = ()
    ranked: list[tuple] = []  # (rank, streams, columns, rows) of every candidate the checker accepts
    notes: list[str] = []
    for streams in range(natural, 0, -1):
        try:
            buffers = pack_buffers(inst, split, streams)
            r, depth, padded = choose_chunk(inst, split, buffers, device, stack_of, only, device.columns * max_rows(device, streams))
        except UnsupportedOnTarget as e:
            if streams == natural:
                raise  # today's packing does not fit: that is the kernel's error
            notes.append(f"one packed input stream per core is not possible ({_reason(inst, e)})")
            continue
        if padded != split.rows:
            buffers = [
                b if not b.streamed else dataclasses.replace(b, slots=tuple(padded * (n // split.rows) for _, n in b.parts))
                for b in buffers
            ]
        cap = max_rows(device, streams)
        n_chunks = padded // r
        options = placements(n_chunks, device, cap, placer)
        for cols, rows in options:
            taken = False
            for groups, inline in _variants(device, buffers, rows, r, split):
                d = _place(inst, split, device, buffers, r, depth, padded, cols, rows, stack_of(r), scratch_of[r],
                           placer, groups, inline)
                if only is not None:  # a library kernel's design: its cores' time is the kernel's
                    attach_call(d)
                problems = layout_problems(design_layout(d))
                fallback = streams == natural and rows == 1
                if problems and not fallback:
                    how = (" on both shim channels" if groups > 1 else "") + (" with the parameters in the stream" if inline else "")
                    notes.append(f"{cols} column(s) x {rows} row(s){how} do not fit ({problems[0]})")
                    continue
                # a one-row design of the kernel's own packing is kept even when it does not fit:
                # the checker then refuses it with the reason, as for any design
                ok = not problems
                # the modelled time ranks the candidates (a library kernel's too: its cores' time is modelled);
                # on a tie, the most cores, then one shim channel each way per column (the simpler design)
                rank = (ok, -modelled_us(inst, d) if ok else 0.0, len(d.cores), -groups, -inline)
                if ok and only is None:
                    ranked.append((rank, streams, cols, rows))
                if best is None or rank > best_rank:
                    best, best_rank, best_ok, why, first = d, rank, ok, (n_chunks, streams, cap), (problems or [""])[0]
                taken = True
            if taken:
                break
    assert best is not None
    for rank, streams, cols, rows in ranked:
        if rank != best_rank and rank[2] > len(best.cores):
            notes.append(f"{streams} input stream(s) per core on {cols} column(s) x {rows} row(s) model "
                         f"{-rank[1]:.3f} µs/run, this design {-best_rank[1]:.3f}")
    best.rows_note = _rows_note(device, best, *why, notes)
    return best, best_ok, first


def _variants(device: Device, buffers: list[HostBuffer], rows: int, r: int, split: Split) -> list[tuple[int, bool]]:
    """(groups per column, parameters in the stream) of the candidates for one placement, simplest first."""
    stream = next((b for b in buffers if b.streamed and not b.output), None)
    obj = r * sum(n // split.rows for _, n in stream.parts) if stream else 0
    out = [(1, False)]
    if split_channels(device, buffers, rows):
        out.append((2, False))
    elif obj and split_channels(device, buffers, rows, inline=True) and params_ride(buffers, obj, rows // 2):
        out.append((2, True))  # the parameter's own shim channel is what stood in the way
    return out


def modelled_us(inst: KernelInstance, d: Design) -> float:
    """Design ``d``'s modelled time per run (µs) under :mod:`.roofline`'s model: how the packings of one
    kernel are ranked. Two streams per core on separate channels (mlir-aie's ``ml/eltwise_add`` sends A and
    B on separate shim channels) halve the bytes per channel against one packed stream on twice the core
    rows; the packed design wins only where compute bounds it (a soft-float body)."""
    from .roofline import design_facts, roofline

    return roofline(design_facts(inst, d, {"cores": len(d.cores)}))["us_per_run"]


def _reason(inst: KernelInstance, e: UnsupportedOnTarget) -> str:
    msg = str(e)
    return msg[len(inst.id) + 2 :] if msg.startswith(inst.id + ": ") else msg


def _rows_note(device: Device, d: Design, n_chunks: int, streams: int, cap: int, notes: list[str]) -> str:
    if d.core_rows == device.core_rows:
        return ""
    why = []
    if cap < device.core_rows:
        why.append(
            f"{streams} input streams per core need {streams} mem-tile output channels per row plus one for the output, "
            f"a mem tile has {device.mem_out_channels}: at most {cap} row(s)"
        )
    if len(d.cores) < device.columns * cap:
        why.append(f"{n_chunks} chunk(s) of {d.chunk_rows} row(s) divide over at most {len(d.cores)} core(s)")
    return "; ".join(why + notes)


def params_ride(buffers: list[HostBuffer], obj: int, cores_per_stream: int) -> bool:
    """Whether the parameter buffer can ride the single input stream ahead of the chunks, freeing the shim
    channel a broadcast FIFO of its own takes: one streamed input of one part, one parameter buffer of its
    dtype, and objects that tile it (the parameter fills ``P / obj`` whole objects, or one object holds it
    ``obj / P`` times), so no part straddles two objects. Each core then copies the parts out of its first
    objects into local buffers once per run (:class:`.design.CoreProgram` ``preamble``)."""
    ins = [b for b in buffers if not b.output and b.streamed]
    prm = [b for b in buffers if not b.output and not b.streamed]
    if len(ins) != 1 or len(ins[0].parts) != 1 or len(prm) != 1 or prm[0].dtype != ins[0].dtype:
        return False
    p = prm[0].elems
    if not (obj % p == 0 or p % obj == 0):
        return False
    if cores_per_stream * max(1, obj // p) > 64:  # the repeat dimension of one transfer (npu-repeat)
        return False
    off = 0
    for i in range(len(prm[0].parts)):
        n = prm[0].slot(i)
        if off // obj != (off + n - 1) // obj:
            return False
        off += n
    return True


def split_channels(device: Device, buffers: list[HostBuffer], rows: int, inline: bool = False) -> bool:
    """Whether a column can stream through both of its shim's channels each way: two groups of ``rows / 2``
    cores, each fed and drained by its own shim -> mem tile -> cores FIFOs (mlir-aie's
    ``ml/eltwise_unary`` runs two input and two output FIFOs per column). Only a design with one streamed
    input, one output and no parameter buffer of its own (``inline``: it rides the stream) leaves both shim
    channels free; the mem tile then carries 2
    inputs + ``rows`` core outputs in, and ``rows`` core inputs + 2 outputs out. A packed buffer (a‖b) is
    left out: its inputs go on separate channels instead (the packing's cores copy the parts apart)."""
    ins = [b for b in buffers if not b.output and (b.streamed or not inline)]
    outs = [b for b in buffers if b.output]
    return (rows >= 2 and rows % 2 == 0 and len(ins) == 1 and ins[0].streamed and len(ins[0].parts) == 1 and len(outs) == 1
            and device.shim_in_channels >= 2 and device.shim_out_channels >= 2
            and rows + 2 <= min(device.mem_in_channels, device.mem_out_channels))


def _place(inst, split: Split, device: Device, buffers: list[HostBuffer], r: int, depth: int, padded: int,
           cols: int, rows: int, stack: int, scratch: int, placer: Placer = COLUMNS, groups: int = 1,
           inline: bool = False) -> Design:
    """The design of ``inst`` on ``cols`` columns x ``rows`` core rows (chunks of ``r`` rows). ``groups``: 2
    splits each column's rows into two halves, each with its own shim channel each way and its own
    contiguous half of the column's chunks (:func:`split_channels`). ``inline``: the parameter buffer rides
    the input stream ahead of the chunks (:func:`params_ride`)."""
    n_chunks = padded // r
    per_col = n_chunks // (cols * groups)  # chunks per column (per group) per run
    per_row_group = rows // groups
    per_core = per_col // per_row_group
    body = chunk_instance(inst, split, r)
    d = Design(inst.id, device, cols, split.rows, r, split, body, buffers, stack=stack, padded_rows=padded,
               scratch=scratch, core_rows=rows)
    position = {name: k for k, name in enumerate(inst.input_names)}
    # the mem tile holds two of its objects when a column gets more than one round of them
    outer = 2 if per_core > 1 else 1

    def child(base: str, c: int, j: int) -> str:
        return f"{base}_c{c}" if rows == 1 else f"{base}_c{c}_r{j}"

    def offsets(obj: int) -> tuple[int, ...]:
        return () if per_row_group == 1 else tuple(j * obj for j in range(per_row_group))

    for c, g in ((c, g) for c in range(cols) for g in range(groups)):
        shim, mem = placer.shim(c), placer.mem(c)
        first = g * per_row_group
        cores = [placer.core(c, first + j) for j in range(per_row_group)]
        group = f"_g{g}" if groups > 1 else ""
        v = c * groups + g  # the contiguous range of chunks this group streams
        bd = 0 if g == 0 else bd  # buffer descriptor ids count per shim tile
        preamble = 0
        stream: list[str] = []
        streamed_in: list[list[str]] = [[] for _ in cores]
        params: list[str] = []
        operand_of: list[dict[int, Operand]] = [{} for _ in cores]
        out_fifo = [""] * per_row_group
        for bi, b in enumerate(buffers):
            eb_rows = sum(n // split.rows for _, n in b.parts) if not b.output else split.out_row_elems(inst)
            if b.output:
                obj = r * eb_rows
                shape = body.output.shape
                names = [child(b.name, c, first + j) for j in range(per_row_group)]
                for j, core in enumerate(cores):
                    d.fifos.append(Fifo(names[j], core, (mem,), depth, shape, b.dtype))
                parent = f"{b.name}_c{c}{group}_shim"
                d.fifos.append(Fifo(parent, mem, (shim,), outer, shape if per_row_group == 1 else (per_row_group * obj,), b.dtype))
                d.links.append(Link(tuple(names), parent, offsets(obj)))
                out_fifo = names
                d.transfers.append(Transfer(bi, parent, c, v * per_col * obj, (1, 1, 1, per_col * obj), (0, 0, 0, 1), bd, True))
                bd += 1
                continue
            if b.streamed:
                obj = r * eb_rows
                shape = _object_shape(b, body, position, obj)
                parent = f"{b.name}_c{c}{group}_shim"
                names = [child(b.name, c, first + j) for j in range(per_row_group)]
                d.fifos.append(Fifo(parent, shim, (mem,), outer, shape if per_row_group == 1 else (per_row_group * obj,), b.dtype))
                for j, core in enumerate(cores):
                    d.fifos.append(Fifo(names[j], mem, (core,), depth, shape, b.dtype))
                    streamed_in[j].append(names[j])
                d.links.append(Link(parent, tuple(names), offsets(obj)))
                part = r * (eb_rows // len(b.parts))
                stream = names
                if inline:
                    # the parameter ahead of the chunks: object i of every core is the parameter's elements
                    # [i obj, (i + 1) obj), or the whole parameter obj / P times (a repeat of stride 0)
                    pi, pb = next((i, x) for i, x in enumerate(buffers) if not x.output and not x.streamed)
                    p = pb.elems
                    preamble = max(1, p // obj)
                    for i in range(preamble):
                        d.transfers.append(Transfer(pi, parent, c, i * obj if p > obj else 0,
                                                    (per_row_group * max(1, obj // p), 1, 1, min(obj, p)), (0, 0, 0, 1), bd, False))
                        bd += 1
                if len(b.parts) == 1:
                    d.transfers.append(Transfer(bi, parent, c, v * per_col * obj, (1, 1, 1, per_col * obj), (0, 0, 0, 1), bd, False))
                else:
                    # chunk k of column c = [part 0 rows | part 1 rows | ...], each part a separate tensor in the buffer
                    plen = b.slot(0)
                    d.transfers.append(
                        Transfer(bi, parent, c, v * per_col * part, (1, per_col, len(b.parts), part), (0, part, plen, 1), bd, False)
                    )
            elif inline:  # carried by the stream (above): each core copies its parts out of the preamble
                for j, core in enumerate(cores):
                    off = 0
                    for i, (tensor, n) in enumerate(b.parts):
                        local = f"{tensor}_c{c}_local" if rows == 1 else f"{tensor}_c{c}_r{first + j}_local"
                        d.locals.append((core, local, body.inputs[position[tensor]].shape, b.dtype))
                        operand_of[j][position[tensor]] = Operand(stream[j], off, local, n, preamble=True)
                        off += b.slot(i)
                continue
            else:
                obj = b.elems
                names = [f"{b.name}_c{c}"] * rows  # one FIFO broadcast to the column's cores
                d.fifos.append(Fifo(names[0], shim, tuple(cores), 1, _object_shape(b, body, position, obj), b.dtype))
                params.append(names[0])
                d.transfers.append(Transfer(bi, names[0], c, 0, (1, 1, 1, obj), (0, 0, 0, 1), bd, False))
            bd += 1
            for j, core in enumerate(cores):
                off = 0
                for tensor, n in b.parts:
                    elems = (r * (n // split.rows)) if b.streamed else n
                    local = None
                    if len(b.parts) > 1:
                        local = f"{tensor}_c{c}_local" if rows == 1 else f"{tensor}_c{c}_r{first + j}_local"
                        d.locals.append((core, local, body.inputs[position[tensor]].shape, b.dtype))
                    operand_of[j][position[tensor]] = Operand(names[j], off, local, elems)
                    off += elems
        for j, core in enumerate(cores):
            operands = tuple(operand_of[j][k] for k in range(len(inst.inputs)))
            d.cores.append(CoreProgram(core, per_core, tuple(streamed_in[j]), tuple(params), out_fifo[j], operands,
                                       preamble))
    return d


def _object_shape(b: HostBuffer, body: KernelInstance, position: dict, elems: int) -> tuple[int, ...]:
    """A FIFO object has the body argument's shape; a packed one is flat."""
    if len(b.parts) == 1:
        return body.inputs[position[b.parts[0][0]]].shape
    return (elems,)
