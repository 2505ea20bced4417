"""Run the one-dispatch GEMM's emitted aie.mlir on the host: a model of what the
NPU does with the text, read from the text itself (not from the planner's objects).

* The runtime sequence's ``dma_memcpy_nd`` patterns (offset, 4-D sizes/strides)
  read the row-major host buffers into each shim FIFO's element stream, in issue
  order; output patterns scatter the mem tile's C stream back.
* Object FIFOs cut streams into objects; a broadcast FIFO hands every object
  to each of its consumers.
* ``aie.objectfifo.link`` is first checked as aie-opt checks it
  (``ObjectFifoLinkOp::verify``, lib/Dialect/AIE/IR/AIEDialect.cpp: one offset
  per child, and the bound rule of design_sim.link_bounds_error with its
  message), then lowered as mlir-aie's objectFifo pass lowers it
  (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp,
  ``createMemTileDMA``, reached through ``createDMA``): the mem tile holds the
  larger object (a distribute's input, a join's output) and moves it with one
  buffer descriptor per child, in the link's order, at the child's offset, of
  the length ``getDistributeTransferLengths`` / ``getJoinTransferLengths``
  compute from the offsets (which must be the child's object size). So a
  distribute's input-side ``dimensionsFromStream`` is applied per distribute
  output (the S2MM BDs) and each output's ``dimensionsToStream`` to its own
  slice (its MM2S BD); a join's inputs land at their offsets (S2MM, with their
  ``dimensionsFromStream``) and the join output's ``dimensionsToStream`` is
  applied per join input (one MM2S BD each), never to the joined object as a
  whole. A pattern's outermost dimension runs until its transfer is used up
  (the AIE-ML DMA's outermost dimension carries no wrap); each walk must visit
  its transfer exactly once.
* Each core runs its loops as the text has them: acquire C, ``zero_i32``, K
  times (acquire A and B, ``matmul_i8_i32``, release), release C, every object
  in the sub-tiled layout mm.cc reads and writes (npubuild.ops.gemm_layout
  subtile / unsubtile).
* Buffer descriptors: a ``dma_memcpy_nd`` that reprograms a BD of its column
  still in flight is an error. An input transfer is known finished once a core
  has acquired an object made of its last elements and a ``dma_wait`` has
  retired a C transfer holding a tile computed after that; a C transfer once a
  ``dma_wait`` on its FIFO retired it (waits retire a FIFO's transfers in issue
  order). The run must end with every C transfer awaited and no data in flight.
"""
from __future__ import annotations

import re
from collections import defaultdict
from math import prod

import numpy as np

from npubuild.ops.gemm_layout import subtile, unsubtile

from .design_sim import SimError, dims_indices, link_bds, link_bounds_error, padded_indices, pattern_indices

_TILE = re.compile(r"%(shim|mem|core)_(\d+)_(\d+)")
_FIFO = re.compile(
    r"aie\.objectfifo @(\w+)\((%\w+)(?: dimensionsToStream \[([^\]]*)\])?, \{([^}]*)\}, (\d+) : i32\)"
    r"(?: \{padDimensions = #aie<bd_pad_layout_array\[([^\]]*)\]>\})? : !aie\.objectfifo<memref<([\dx]+)x(i8|i32|bf16|f32)>>"
)
_PAD = re.compile(r"<const_pad_before = (\d+), const_pad_after = (\d+)>")
_DIM = re.compile(r"<size = (\d+), stride = (\d+)>")
_CONSUMER = re.compile(r"(%\w+)(?: dimensionsFromStream \[([^\]]*)\])?")
_LINK = re.compile(r"aie\.objectfifo\.link \[([^\]]*)\] -> \[([^\]]*)\] \(\[([^\]]*)\] \[([^\]]*)\]\)")
_SEQ = re.compile(r"runtime_sequence\(([^)]*)\)")
_ARG = re.compile(r"%(\w+): memref<(\d+)x(i8|i32|bf16|f32)>")
_DMA = re.compile(
    r"aiex\.npu\.dma_memcpy_nd\(%(\w+)\[0, 0, 0, (\d+)\]\[([\d, ]+)\]\[([\d, ]+)\]\) "
    r"\{id = (\d+) : i64, (issue_token = true, )?metadata = @(\w+)\}"
)
_WAIT = re.compile(r"aiex\.npu\.dma_wait \{symbol = @(\w+)\}")
_FUNC = re.compile(r"func\.func private @matmul_(i8|bf16)_(i32|f32)\(memref<(\d+)x(\d+)x\1>, memref<(\d+)x(\d+)x\1>, memref<(\d+)x(\d+)x\2>\)")


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.replace(" ", "").split(",") if x]


def _tile(name: str) -> tuple[int, int]:
    m = _TILE.fullmatch(name.strip())
    return int(m.group(2)), int(m.group(3))


def parse(text: str) -> dict:
    fifos = {}
    for m in _FIFO.finditer(text):
        dims = [(int(a), int(b)) for a, b in _DIM.findall(m.group(3) or "")]
        consumers = [(_tile(c.group(1)), [(int(a), int(b)) for a, b in _DIM.findall(c.group(2) or "")])
                     for c in _CONSUMER.finditer(m.group(4))]
        fifos[m.group(1)] = {
            "producer": _tile(m.group(2)),
            "consumers": [t for t, _ in consumers],
            "from_dims": {t: fd for t, fd in consumers if fd},  # consumer tile -> its dimensionsFromStream
            "depth": int(m.group(5)),
            "elems": prod(int(x) for x in m.group(7).split("x")),
            "dtype": m.group(8),
            "dims": dims,
            "pads": [(int(a), int(b)) for a, b in _PAD.findall(m.group(6) or "")],
        }
    links = []
    for m in _LINK.finditer(text):
        ins = [s.strip().lstrip("@") for s in m.group(1).split(",")]
        outs = [s.strip().lstrip("@") for s in m.group(2).split(",")]
        links.append((ins, outs, _ints(m.group(3)), _ints(m.group(4))))
    args = _ARG.findall(_SEQ.search(text).group(1))
    seq_text = text[text.index("runtime_sequence(") :]
    seq = []
    for line in seq_text.splitlines():
        if (d := _DMA.search(line)) is not None:
            seq.append(("dma", d.group(1), int(d.group(2)), _ints(d.group(3)), _ints(d.group(4)), int(d.group(5)),
                        bool(d.group(6)), d.group(7)))
        elif (w := _WAIT.search(line)) is not None:
            seq.append(("wait", w.group(1)))
    mk = _FUNC.search(text)
    in_t, acc_t = mk.group(1), mk.group(2)
    m_, k_, k2, n_, m2, n2 = (int(x) for x in mk.groups()[2:])
    assert (m_, k_, n_) == (m2, k2, n2), f"matmul_{in_t}_{acc_t} operand types disagree"
    cores = {}
    for m in re.finditer(r"aie\.core\((%core_\d+_\d+)\) \{(.*?)\n      aie\.end", text, re.DOTALL):
        cores[_tile(m.group(1))] = _core_program(m.group(2), in_t, acc_t)
    return {"fifos": fifos, "links": links, "args": [(n, int(e), t) for n, e, t in args], "seq": seq,
            "tile": (m_, k_, n_), "cores": cores, "types": (in_t, acc_t)}


def _core_program(body: str, in_t: str = "i8", acc_t: str = "i32") -> dict:
    consts = {f"%c{v}": int(v) for v in re.findall(r"%c(\d+) = arith\.constant \d+ : index", body)}
    loops = dict(re.findall(r"scf\.for %(\w+) = %c0 to (%c\d+)", body))
    acq = re.findall(r"aie\.objectfifo\.acquire @(\w+)\((Produce|Consume), 1\)", body)
    (c_fifo,) = [f for f, port in acq if port == "Produce"]
    a_fifo, b_fifo = [f for f, port in acq if port == "Consume"]
    calls = re.findall(r"func\.call @(\w+)\(", body)
    assert calls == [f"zero_{acc_t}", f"matmul_{in_t}_{acc_t}"], calls
    return {"c": c_fifo, "a": a_fifo, "b": b_fifo, "tiles": consts[loops["tile"]] if "tile" in loops else 1,
            "k_blocks": consts[loops["kb"]] if "kb" in loops else 1}


def verify_links(d: dict) -> None:
    """What aie-opt's ``ObjectFifoLinkOp::verify`` (lib/Dialect/AIE/IR/AIEDialect.cpp) refuses, with its
    messages: offsets per child, and the bound of a join's output pattern over each join input (a
    distribute's input pattern over each distribute output)."""
    fifos = d["fifos"]
    for ins, outs, in_offs, out_offs in d["links"]:
        if len(ins) > 1 and len(outs) > 1:
            raise SimError("ObjectFifoLinkOp does not support 'join' and 'distribute' at the same time")
        if len(ins) > 1:
            if len(in_offs) != len(ins):
                raise SimError("'aie.objectfifo.link' op number of provided src offsets must be equal to the number of input objectFifos")
            if out_offs:
                raise SimError("'aie.objectfifo.link' op dst offsets should be empty for join")
            parent = fifos[outs[0]]
            err = link_bounds_error("join", parent["dims"], in_offs, parent["elems"])
        elif len(outs) > 1:
            if len(out_offs) != len(outs):
                raise SimError("'aie.objectfifo.link' op number of provided dst offsets must be equal to the number of output objectFifos")
            if in_offs:
                raise SimError("'aie.objectfifo.link' op src offsets should be empty for distribute")
            parent = fifos[ins[0]]
            shared = fifos[outs[0]]["producer"]
            err = link_bounds_error("distribute", parent["from_dims"].get(shared, []), out_offs, parent["elems"])
        else:
            err = None
            if in_offs and out_offs:
                raise SimError("'aie.objectfifo.link' op all offsets should be empty if there is no join or distribute")
        if err:
            raise SimError(err)


def _link_slices(kind: str, children: list[str], offsets: list[int], parent: str, fifos: dict) -> list[tuple[int, int]]:
    """(offset, length) of each child's buffer descriptor on the parent's mem-tile object: design_sim.link_bds,
    shared with the streamed designs' model."""
    if kind == "plain" and fifos[children[0]]["elems"] != fifos[parent]["elems"] and not fifos[children[0]]["pads"]:
        # the mem tile would keep the larger object and move each side's own size: never what a design means
        raise SimError(f"plain link @{parent} -> @{children[0]} of unequal objects without padDimensions")
    return link_bds(kind, children, offsets, fifos[parent]["elems"], [fifos[c]["elems"] for c in children])


def run(text: str, a_codes, b_codes, mmul: tuple[int, int, int], call=None) -> np.ndarray:
    """C (int32 or f32, flat as the runtime's c buffer) the emitted design computes from the padded
    row-major A and B (int8 codes, or bf16). mm.cc's matmul is modelled as ``C += A @ B`` in the
    accumulator type: exact for int8; for bf16 the f32 sums are the exact ones when the test's
    values keep every partial sum an integer below 2**24 (then any summation order agrees).
    ``call(acc, a, b)``: another model of one matmul call on the tile in row-major form (the f32 C
    tile, the A and B tiles), returning the new C tile (the bfp16-emulated mmul:
    npubuild.emitters.aie.gemm_bfp16.matmul_call)."""
    d = parse(text)
    verify_links(d)  # aie-opt verifies the module before any lowering
    fifos, r, s, t = d["fifos"], *mmul
    tm, tk, tn = d["tile"]
    names = [n for n, _, _ in d["args"]]
    in_t, acc_t = d["types"]
    acc_np = np.int32 if acc_t == "i32" else np.float32
    in_np = np.int8 if in_t == "i8" else np.asarray(a_codes).dtype
    host = [np.asarray(a_codes, in_np).ravel(), np.asarray(b_codes, in_np).ravel(),
            np.full(d["args"][2][1], -7, dtype=acc_np)]
    for h, (n, elems, dt) in zip(host, d["args"]):
        if h.size != elems:
            raise SimError(f"buffer {n} holds {elems} elements, got {h.size}")

    # -- shim -> mem: streams of the input transfers, in issue order --
    streams: dict[str, list] = defaultdict(list)
    spans = []  # (seq index, fifo, first element, end element) of every transfer
    pos: dict[str, int] = defaultdict(int)
    for i, op in enumerate(d["seq"]):
        if op[0] != "dma":
            continue
        _, buf, off, sizes, strides, _bd, token, fifo = op
        idx = pattern_indices(off, sizes, strides)
        b = names.index(buf)
        if idx.min() < 0 or idx.max() >= host[b].size:
            raise SimError(f"transfer to @{fifo} reaches element {idx.max()} of {buf} ({host[b].size})")
        spans.append((i, fifo, pos[fifo], pos[fifo] + idx.size))
        pos[fifo] += idx.size
        if not token:
            streams[fifo].append(host[b][idx])
    objects: dict[str, list[np.ndarray]] = {}

    def cut(fifo: str, flat: np.ndarray) -> list[np.ndarray]:
        n = fifos[fifo]["elems"]
        if flat.size % n:
            raise SimError(f"@{fifo} receives {flat.size} elements, not whole objects of {n} (the NPU would hang)")
        return list(flat.reshape(-1, n))

    for fifo, parts in streams.items():
        objects[fifo] = cut(fifo, np.concatenate(parts))
    # -- mem tile: distributes and plain links, one buffer descriptor per output (createMemTileDMA) --
    parent_of = {}
    for ins, outs, in_offs, out_offs in d["links"]:
        if len(ins) != 1:
            continue
        parent = ins[0]
        pn = fifos[parent]["elems"]
        bds = _link_slices("distribute" if len(outs) > 1 else "plain", outs, out_offs, parent, fifos)
        from_dims = fifos[parent]["from_dims"].get(fifos[outs[0]]["producer"], [])
        for child in outs:
            objects[child] = []
            parent_of[child] = parent
        for obj in objects.get(parent, []):
            buf = np.zeros(pn, obj.dtype)
            written = np.zeros(pn, np.int64)
            at = 0
            for off, n in bds:  # S2MM: the stream's next n elements, the parent's dimensionsFromStream per output
                idx = off + dims_indices(from_dims, n)
                buf[idx] = obj[at : at + n]
                written[idx] += 1
                at += n
            for child, (off, n) in zip(outs, bds):  # MM2S: the child's dimensionsToStream over its slice
                if fifos[child]["pads"]:  # its padDimensions add zeros as it streams (padded_indices: -1)
                    idx = padded_indices(fifos[child]["dims"], fifos[child]["pads"], fifos[child]["elems"])
                    data = idx >= 0
                    if (written[idx[data]] != 1).any():
                        raise SimError(f"@{child} reads elements of @{parent}'s object its input never wrote")
                    out = np.zeros(idx.size, obj.dtype)
                    out[data] = buf[idx[data]]
                    objects[child].append(out)
                    continue
                idx = off + dims_indices(fifos[child]["dims"], n)
                if (written[idx] != 1).any():
                    raise SimError(f"@{child} reads elements of @{parent}'s object written {sorted(set(written[idx]) - {1})} times")
                objects[child].append(buf[idx])

    # -- cores --
    produced: dict[str, list] = defaultdict(list)
    deps: dict[tuple[str, int], dict] = {}  # (C FIFO, object) -> {input L1 FIFO: last object index acquired}
    taken: dict[tuple[tuple[int, int], str], int] = defaultdict(int)
    for tile, prog in sorted(d["cores"].items()):
        for f in (prog["a"], prog["b"]):
            if tile not in fifos[f]["consumers"]:
                raise SimError(f"core {tile} acquires @{f} but is not one of its consumers")
        for ti in range(prog["tiles"]):
            acc = np.zeros(tm * tn, acc_np)  # zero_i32 / zero_f32
            for _ in range(prog["k_blocks"]):
                got = []
                for f in (prog["a"], prog["b"]):
                    q = taken[tile, f]
                    if q >= len(objects.get(f, [])):
                        raise SimError(f"core {tile} waits for object {q} of @{f}, which never comes (the NPU would hang)")
                    got.append(objects[f][q])
                    taken[tile, f] += 1
                wide = np.int64 if acc_t == "i32" else np.float64
                a = unsubtile(got[0], tm, tk, r, s).astype(wide)
                b = unsubtile(got[1], tk, tn, s, t).astype(wide)
                if call is not None:
                    c = np.asarray(call(unsubtile(acc, tm, tn, r, t), a, b))
                else:
                    c = unsubtile(acc, tm, tn, r, t).astype(wide) + a @ b  # matmul_i8_i32 / matmul_bf16_f32
                acc = subtile(c.astype(acc_np), r, t)
            deps[prog["c"], ti] = {prog["a"]: taken[tile, prog["a"]] - 1, prog["b"]: taken[tile, prog["b"]] - 1}
            produced[prog["c"]].append(acc)
    for f in (f for f in objects if fifos[f]["producer"][1] == 1 and f in parent_of):
        for tile in fifos[f]["consumers"]:
            if taken[tile, f] != len(objects[f]):
                raise SimError(f"core {tile} takes {taken[tile, f]} of the {len(objects[f])} objects of @{f} (data left in flight)")

    # -- joins: one buffer descriptor per join input (createMemTileDMA): each input lands at its offset
    #    (S2MM, its dimensionsFromStream), and the join output's dimensionsToStream walks each input's
    #    slice in the link's order (MM2S) --
    out_stream, out_deps = {}, {}
    for ins, outs, in_offs, _ in d["links"]:
        if len(outs) != 1 or not any(i in produced for i in ins):
            continue
        parent = outs[0]
        n = fifos[parent]["elems"]
        bds = _link_slices("join" if len(ins) > 1 else "plain", ins, in_offs, parent, fifos)
        mem = fifos[parent]["producer"]
        count = {len(produced[i]) for i in ins}
        if len(count) != 1:
            raise SimError(f"the cores joined into @{parent} produce {sorted(count)} objects each")
        objs, objdeps = [], []
        for q in range(count.pop()):
            obj = np.full(n, -9, acc_np)
            written = np.zeros(n, np.int64)
            for child, (off, ln) in zip(ins, bds):
                idx = off + dims_indices(fifos[child]["from_dims"].get(mem, []), ln)
                obj[idx] = produced[child][q]
                written[idx] += 1
            parts = []
            for off, ln in bds:
                idx = off + dims_indices(fifos[parent]["dims"], ln)
                if (written[idx] != 1).any():
                    raise SimError(f"join @{parent}: offsets {in_offs} leave elements of its object unwritten or written twice")
                parts.append(obj[idx])
            objs.append(np.concatenate(parts))
            objdeps.append([deps[child, q] for child in ins])
        out_stream[parent] = np.concatenate(objs) if objs else np.zeros(0, acc_np)
        out_deps[parent] = (n, objdeps)

    # -- mem -> shim: the output patterns, and the buffer descriptors' lifetimes --
    for fifo, stream in out_stream.items():
        if pos[fifo] != stream.size:
            raise SimError(f"@{fifo}: the runtime sequence takes {pos[fifo]} elements, the cores give {stream.size}")
    span_of = {i: (f, lo, hi) for i, f, lo, hi in spans}
    owner: dict[tuple[int, int], int] = {}
    outstanding: dict[str, list[int]] = defaultdict(list)
    known: dict[str, int] = defaultdict(lambda: -1)  # L1 input FIFO -> objects surely delivered

    def retired(i: int) -> bool:
        op = d["seq"][i]
        f, _, hi = span_of[i]
        if op[6]:
            return i not in outstanding[f]
        n = fifos[f]["elems"]
        last = (hi - 1) // n
        return any(known[c] >= last for c, p in parent_of.items() if p == f)

    for i, op in enumerate(d["seq"]):
        if op[0] == "wait":
            f = op[1]
            if not outstanding[f]:
                raise SimError(f"dma_wait on @{f} with no transfer outstanding")
            j = outstanding[f].pop(0)
            _, lo, hi = span_of[j]
            n, objdeps = out_deps[f]
            for q in range(lo // n, -(-hi // n)):
                for dep in objdeps[q]:
                    for l1, last in dep.items():
                        known[l1] = max(known[l1], last)
            continue
        _, buf, off, sizes, strides, bd, token, fifo = op
        col = fifos[fifo]["producer"][0] if not token else fifos[fifo]["consumers"][0][0]
        prev = owner.get((col, bd))
        if prev is not None and not retired(prev):
            raise SimError(f"buffer descriptor {bd} of column {col} is reprogrammed (for @{fifo}) while transfer {prev} still uses it")
        owner[col, bd] = i
        if token:
            outstanding[fifo].append(i)
            _, lo, hi = span_of[i]
            idx = pattern_indices(off, sizes, strides)
            host[names.index(buf)][idx] = out_stream[fifo][lo:hi]
    left = [f for f, q in outstanding.items() if q]
    if left:
        raise SimError(f"the runtime sequence ends with transfers on {', '.join('@' + f for f in left)} never awaited")
    return host[2]
