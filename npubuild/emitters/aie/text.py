"""Render a :class:`~.design.Design` as AIE-dialect MLIR text.

The compute body is the host emitter's function for the chunk instance,
renamed ``@body`` and placed inside ``aie.device``: the same standard-dialect
text (func/scf/arith/memref, no libm) that the host target compiles and the
tests run. Dialect choices that changed across mlir-aie releases come from
``options`` (see :mod:`npubuild.emitters.aie`): the runtime-sequence op
(``aie.runtime_sequence`` since mlir-aie #2708, ``aiex.runtime_sequence``
before) and where ``link_with`` goes (on the ``func.func`` declaration since
#2922, on ``aie.core`` before).
"""
from __future__ import annotations

from ..host import kernel_function as host_kernel_function
from ..host.mlir_text import MEMREF_ELEMENT, memref_type
from ..host.vector import LANES
from .design import Design
from .fifos import tile_name
from .frame import DeviceModule, Wait, core_lines, sequence_op
from .prologue import PROLOGUE, prologue_function, prologue_local

BODY = "body"
# IRON's "run forever" loop bound (sys.maxsize): cores are loaded once and then
# serve every invocation of the kernel; the runtime sequence paces them.
FOREVER = 9223372036854775807


class IndexConsts:
    """Hoisted ``arith.constant ... : index`` lines of one core, one per value."""

    def __init__(self):
        self.lines: list[str] = []
        self.names: dict[int, str] = {}

    def __call__(self, v: int) -> str:
        if v not in self.names:
            self.names[v] = f"%c{v}"
            self.lines.append(f"      %c{v} = arith.constant {v} : index")
        return self.names[v]


def render(design: Design, options: dict, header: list[str]) -> str:
    d = design
    fifo = {f.name: f for f in d.fifos}
    decls = [f'    %{sym} = aie.buffer({tile_name(tile)}) {{sym_name = "{sym}"}} : {memref_type(shape, dtype)}'
             for tile, sym, shape, dtype in d.locals]
    link_with = options.get("link_with", "func")
    if d.call is not None:
        # mlir-aie's kernel, compiled by Peano and linked (test/npu-xrt/add_one_func_link_with_peano/aie.mlir)
        k = d.call.kernel
        decls += [f"    // compute body: mlir-aie's aie_kernels/{k.source} ({k.symbol}), linked as {k.object_name}",
                  f"    {d.call.declaration(link_with)}"]
        if k.prologue:
            decls += [f"    // before it, per chunk: the {k.prologue}, into the core's local buffer the kernel reads",
                      *prologue_function(d).lines("    ")]
    else:
        body = host_kernel_function(d.body).renamed(BODY)
        decls += ["    // compute body: the host target compiles this same function", *body.lines("    ")]
    cores = [ln for core in d.cores for ln in _core(d, core, fifo, link_with)]
    module = DeviceModule(header, d.partition, d.fifos, d.links, decls, cores, d.buffers, sequence_steps(d))
    return module.render(sequence_op(options))


def access_lines(fifo, name: str, port: str, var: str) -> list[str]:
    ty = memref_type(fifo.shape, fifo.dtype)
    return [
        f"{var}_sv = aie.objectfifo.acquire @{name}({port}, 1) : !aie.objectfifosubview<{ty}>",
        f"{var} = aie.objectfifo.subview.access {var}_sv[0] : !aie.objectfifosubview<{ty}> -> {ty}",
    ]


def _copy_part(c: IndexConsts, src: str, src_fifo, dst: str, shape, offset: int, dtype: str, tag: str) -> list[str]:
    """Copy a packed part (flat, at ``offset``) into a local buffer of the body's shape.

    The innermost axis moves whole vectors (``vector.transfer_read``/``write`` of the body's lane
    count, which convert-vector-to-aievec leaves to the standard lowering, like the vector bodies'
    own loads and stores) when it is a whole number of them, else one element at a time."""
    elem = MEMREF_ELEMENT[dtype]
    lanes = LANES.get(dtype, 0) if elem != "i1" else 0
    vector = bool(shape) and lanes > 0 and shape[-1] % lanes == 0
    lines, ivs = [], []
    if vector:
        lines.append(f"%{tag}_pad = arith.constant {'0.0' if elem.startswith(('f', 'bf')) else '0'} : {elem}")
    depth = 0
    for k, n in enumerate(shape):
        iv = f"%{tag}_i{k}"
        step = lanes if vector and k == len(shape) - 1 else 1
        lines.append("  " * depth + f"scf.for {iv} = {c(0)} to {c(n)} step {c(step)} {{")
        ivs.append(iv)
        depth += 1
    pad = "  " * depth
    lin = c(offset)
    stride = 1
    terms = []
    for iv, n in reversed(list(zip(ivs, shape))):
        terms.append((iv, stride))
        stride *= n
    for j, (iv, s) in enumerate(terms):
        if s == 1:
            v = iv
        else:
            v = f"%{tag}_m{j}"
            lines.append(pad + f"{v} = arith.muli {iv}, {c(s)} : index")
        nxt = f"%{tag}_a{j}"
        lines.append(pad + f"{nxt} = arith.addi {lin}, {v} : index")
        lin = nxt
    src_ty, dst_ty = memref_type(src_fifo.shape, dtype), memref_type(shape, dtype)
    src_idx = [lin]
    if len(src_fifo.shape) > 1:  # an object of the body's shape (a stream's preamble): the flat index per axis
        src_idx, rest = [], lin
        for j, n in enumerate(reversed(src_fifo.shape[1:])):
            lines.append(pad + f"%{tag}_r{j} = arith.remui {rest}, {c(n)} : index")
            lines.append(pad + f"%{tag}_q{j} = arith.divui {rest}, {c(n)} : index")
            src_idx.insert(0, f"%{tag}_r{j}")
            rest = f"%{tag}_q{j}"
        src_idx.insert(0, rest)
    lin = ", ".join(src_idx)
    if vector:
        vty = f"vector<{lanes}x{elem}>"
        lines.append(pad + f"%{tag}_v = vector.transfer_read {src}[{lin}], %{tag}_pad {{in_bounds = [true]}} : {src_ty}, {vty}")
        lines.append(pad + f"vector.transfer_write %{tag}_v, {dst}[{', '.join(ivs)}] {{in_bounds = [true]}} : {vty}, {dst_ty}")
    else:
        lines.append(pad + f"%{tag}_v = memref.load {src}[{lin}] : {src_ty}")
        lines.append(pad + f"memref.store %{tag}_v, {dst}[{', '.join(ivs)}] : {dst_ty}")
    for k in range(len(shape)):
        depth -= 1
        lines.append("  " * depth + "}")
    return lines


def _core(d: Design, core, fifo, link_with: str = "func") -> list[str]:
    c = IndexConsts()
    body: list[str] = []
    var = {}
    for k, name in enumerate(core.params):
        var[name] = f"%p{k}"
        body += access_lines(fifo[name], name, "Consume", var[name])
    chunk: list[str] = []
    for k, name in enumerate(core.streamed_in):
        var[name] = f"%s{k}"
        chunk += access_lines(fifo[name], name, "Consume", var[name])
    args, copies_once, copies_chunk = [], [], []
    preamble: list[list[str]] = [[] for _ in range(core.preamble)]  # per object: the parts copied out of it
    for k, op in enumerate(core.operands):
        if op.local is None:
            args.append(var[op.fifo])
            continue
        shape = d.body.inputs[k].shape
        if op.preamble:
            obj = fifo[op.fifo].elems
            preamble[op.offset // obj] += _copy_part(c, f"%pre{op.offset // obj}", fifo[op.fifo], f"%{op.local}", shape,
                                                     op.offset % obj, fifo[op.fifo].dtype, f"u{k}")
            args.append(f"%{op.local}")
            continue
        lines = _copy_part(c, var[op.fifo], fifo[op.fifo], f"%{op.local}", shape, op.offset, fifo[op.fifo].dtype, f"u{k}")
        (copies_once if op.fifo in core.params else copies_chunk).extend(lines)
        args.append(f"%{op.local}")
    if core.preamble:  # the parameters ride the stream: its first objects, copied out once per run
        stream = core.streamed_in[0]
        for i, lines in enumerate(preamble):
            body += access_lines(fifo[stream], stream, "Consume", f"%pre{i}")
            body += lines
            body.append(f"aie.objectfifo.release @{stream}(Consume, 1)")
    chunk += copies_chunk
    chunk += access_lines(fifo[core.out], core.out, "Produce", "%o")
    args.append("%o")
    if d.call is not None and d.call.kernel.prologue:
        shifted = f"%{prologue_local(core.tile)}"
        types = [memref_type(t.shape, t.dtype) for t in (*d.body.inputs, d.body.output)]
        chunk.append(f"func.call @{PROLOGUE}({', '.join(args[:-1])}, {shifted}) : ({', '.join(types)}) -> ()")
        chunk += d.call.call_lines([shifted], args[-1])
    elif d.call is not None:
        chunk += d.call.call_lines(args[:-1], args[-1])
    else:
        types = [memref_type(t.shape, t.dtype) for t in d.body.inputs] + [memref_type(d.body.output.shape, d.body.output.dtype)]
        chunk.append(f"func.call @{BODY}({', '.join(args)}) : ({', '.join(types)}) -> ()")
    chunk += [f"aie.objectfifo.release @{n}(Consume, 1)" for n in core.streamed_in]
    chunk.append(f"aie.objectfifo.release @{core.out}(Produce, 1)")
    body += copies_once
    if core.chunks > 1:
        body += [f"scf.for %chunk = {c(0)} to {c(core.chunks)} step {c(1)} {{", *("  " + ln for ln in chunk), "}"]
    else:
        body += chunk
    body += [f"aie.objectfifo.release @{n}(Consume, 1)" for n in core.params]
    loop = [f"scf.for %run = {c(0)} to {c(FOREVER)} step {c(1)} {{", *("  " + ln for ln in body), "}"]
    consts = c.lines + ["      " + ln for ln in (d.call.constant_lines() if d.call is not None else [])]
    attrs = f"stack_size = {d.stack} : i32"
    if d.call is not None and d.call.core_attr(link_with):
        attrs = f"{d.call.core_attr(link_with)}, {attrs}"
    return core_lines(core.tile, consts, loop, attrs)


def sequence_steps(d) -> list:
    """The runtime sequence of a design whose transfers all go first and whose outputs are awaited at the end."""
    return [*d.transfers, *(Wait(t.fifo) for t in d.transfers if t.wait)]
