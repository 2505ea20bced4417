"""ANE plan records against their programs: what `npubuild verify` and the runtime check before running one.

A ``kind: ane`` graph in the manifest is a plan (npubuild.ane.programs.plan_record): nodes with the
currencies of their inputs and output, the bindings between them, an evaluation order, the weights'
places in each program's weight.bin, and externals. The runtime allocates buffers and reads weights from
those fields, so an edited record (an ``order`` of ``[99]``, a weight shape of ``[46340, 46340]``) would be
an IndexError or a 4 GiB allocation at run time. Here every such field is checked — indices in range, the
order a permutation that runs each node after the nodes it reads, each program's declared inputs and
output (its model.mil signature) the record's currencies, each weight inside its weight.bin and of the
shape the program declares — and a problem is one line naming the graph and the field.

This module reads artifacts only (the layer rule: no import of npubuild.ane), so it parses the two text
forms it needs itself: a currency (``strided[64]``, ``contig[8]``, ``packed[4x16]``, ``...:fp32``) as
npubuild.ane.plan_model.Cur writes it, and the lines of a program that npubuild.ane.programs.render writes.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from ..core.errors import VerifyError
from ..core.limits import Limits

HOST_ROUTE = "host_rsqrt_broadcast"
PLANE = 32  # fp16 values of one 64-byte plane: a strided value takes a whole plane (plan_model.PLANE)
_CUR = re.compile(r"(strided|contig)\[(\d{1,12})\]|packed\[(\d{1,12})x(\d{1,12})\]")
# bits per value of each dtype weight.bin holds (npubuild.ane.weightbin: NUMPY_DTYPES and SUB_BYTE)
_DTYPE_BITS = {"fp16": 16, "fp32": 32, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32, "uint32": 32,
               "int4": 4, "uint1": 1, "uint2": 2, "uint3": 3, "uint4": 4, "uint6": 6}
_SIG = re.compile(r"^\s*func main<\w+>\((.*)\) \{$", re.M)
_OUT = re.compile(r"^\s*\} -> \((\w+)\);$", re.M)
_BLOB = re.compile(r"^\s*(tensor<\w+, \[[\d, ]*\]>) (\w+) = const\(\)\[.*BLOBFILE\(path = string\(\"@model_path/weights/weight\.bin\"\), "
                   r"offset = uint64\((\d+)\)\)\)\];$", re.M)


def parse_currency(text) -> tuple[str, int, int, str] | None:
    """(kind, a, b, dtype) of a currency's text, or None when it is not one."""
    if not isinstance(text, str):
        return None
    body, _, dtype = text.partition(":")
    m = _CUR.fullmatch(body)
    if m is None or (dtype or "fp16") not in ("fp16", "fp32"):
        return None
    if m.group(1):
        return m.group(1), int(m.group(2)), 0, dtype or "fp16"
    return "packed", int(m.group(3)), int(m.group(4)), dtype or "fp16"


def mil_type(cur: tuple) -> str:
    """The 4-D type a program declares for a value in this currency (plan_model.Cur.mil_type)."""
    kind, a, b, dtype = cur
    shape = [1, a, 1, 1] if kind == "strided" else [1, 1, 1, a] if kind == "contig" else [1, a, 1, b]
    return f"tensor<{dtype}, [{', '.join(map(str, shape))}]>"


def buffer_elems(cur: tuple) -> int:
    kind, a, b, dtype = cur
    if kind == "strided":
        return a * (PLANE if dtype == "fp16" else PLANE // 2)
    return a * b if kind == "packed" else a


def _shape_type(dtype: str, shape: list) -> str:
    return f"tensor<{dtype}, [{', '.join(map(str, shape))}]>"


def _list(v) -> list:
    return v if isinstance(v, list) else []


def _is_index(v, n: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n


def _is_shape(v, limits: Limits) -> bool:
    return (isinstance(v, list) and len(v) <= limits.max_rank and all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in v)
            and math.prod(v) <= limits.max_elements)


class _Check:
    def __init__(self, graph: str, rec: dict, limits: Limits):
        self.graph, self.rec, self.limits = graph, rec, limits
        self.problems: list[str] = []

    def bad(self, field: str, why: str) -> None:
        self.problems.append(f"graph {self.graph}: {field} {why}")

    def currency(self, text, field: str):
        cur = parse_currency(text)
        if cur is None or min(cur[1], cur[2] or 1) <= 0:
            self.bad(field, f"is {str(text)[:40]!r}, not a currency such as strided[64], contig[64] or packed[4x16]")
            return None
        if buffer_elems(cur) > self.limits.max_elements:
            self.bad(field, f"{text} takes {buffer_elems(cur)} values, over max_elements ({self.limits.max_elements})")
            return None
        return cur

    def run(self, read_program, file_size) -> list[str]:
        rec = self.rec
        nodes = rec.get("nodes") if isinstance(rec.get("nodes"), list) else []
        n = len(nodes)
        ext_curs = {k: self.currency(v, f"ext_currencies.{k}") for k, v in (rec.get("ext_currencies") or {}).items()} \
            if isinstance(rec.get("ext_currencies"), dict) else {}
        outs = [None] * n  # each node's output currency, where it parses
        for i, node in enumerate(nodes):
            if isinstance(node, dict) and node.get("route") != HOST_ROUTE:
                outs[i] = self.currency(node.get("out"), f"nodes[{i}].out")
        self.order(nodes)
        for i, node in enumerate(nodes):
            if not isinstance(node, dict):
                self.bad(f"nodes[{i}]", "is not an object")
            elif node.get("route") == HOST_ROUTE:
                self.host_node(i, node, n, ext_curs, file_size)
            else:
                self.program_node(i, node, n, ext_curs, read_program, file_size)
        externals = rec.get("externals")
        for name, uses in (externals.items() if isinstance(externals, dict) else []):
            if name not in ext_curs:
                self.bad(f"externals.{name}", "has no currency in ext_currencies")
            for use in uses if isinstance(uses, list) else [None]:
                if not (isinstance(use, list) and len(use) == 2 and _is_index(use[0], n) and isinstance(nodes[use[0]], dict)
                        and _is_index(use[1], len(_list(nodes[use[0]].get("ins"))))):
                    self.bad(f"externals.{name}", f"names {str(use)[:40]}, not a [node, input] of this plan")
        for name, i in (rec.get("outputs") or {}).items() if isinstance(rec.get("outputs"), dict) else []:
            if not _is_index(i, n) or not isinstance(nodes[i], dict) or nodes[i].get("route") == HOST_ROUTE:
                self.bad(f"outputs.{name}", f"is {str(i)[:20]}, not a program node of this plan ({n} nodes)")
        fills = rec.get("fills")
        for name, off in (rec.get("const_fills") or {}).items() if isinstance(rec.get("const_fills"), dict) else []:
            cur = ext_curs.get(name)
            if cur is not None:
                self.in_file(f"const_fills.{name}", fills, off, cur[1] * (cur[2] or 1) * 2, file_size)
        for name, t in (rec.get("inputs") or {}).items() if isinstance(rec.get("inputs"), dict) else []:
            if not (isinstance(t, dict) and _is_shape(t.get("shape"), self.limits)):
                self.bad(f"inputs.{name}.shape", f"must be at most {self.limits.max_rank} positive dimensions of at most "
                                                 f"{self.limits.max_elements} elements in all")
        return self.problems

    def order(self, nodes: list) -> None:
        order, n = self.rec.get("order"), len(nodes)
        if not isinstance(order, list) or not all(_is_index(i, n) for i in order):
            self.bad("order", f"must list node indices below {n}, got {str(order)[:40]}")
            return
        if sorted(order) != list(range(n)):
            self.bad("order", f"must name each of the {n} nodes once, got {str(order)[:40]}")
            return
        seen = set()
        for i in order:
            node = nodes[i]
            reads = [node.get("src")] if isinstance(node, dict) and node.get("route") == HOST_ROUTE else \
                (node.get("binds") if isinstance(node, dict) and isinstance(node.get("binds"), list) else [])
            for b in reads:
                j = b.get("node") if isinstance(b, dict) else None
                if _is_index(j, n) and j not in seen:
                    self.bad("order", f"runs node {i} before node {j}, whose output it reads")
                    return
            seen.add(i)

    def bind(self, b, field: str, n: int, ext_curs: dict) -> None:
        if isinstance(b, dict) and set(b) == {"node"} and _is_index(b["node"], n):
            if not isinstance(self.rec["nodes"][b["node"]], dict) or self.rec["nodes"][b["node"]].get("route") == HOST_ROUTE:
                self.bad(field, f"reads node {b['node']}, which has no output buffer")
            return
        if isinstance(b, dict) and set(b) == {"ext"} and isinstance(b["ext"], str) and b["ext"] in ext_curs:
            return
        self.bad(field, f"is {str(b)[:40]}, not {{\"node\": <index below {n}>}} or {{\"ext\": <an external>}}")

    def in_file(self, field: str, frec, offset, nbytes: int, file_size) -> None:
        size = file_size(frec) if isinstance(frec, dict) else None
        if not isinstance(frec, dict):
            self.bad(field, "is read from a file the record does not name")
        elif not (isinstance(offset, int) and not isinstance(offset, bool) and offset >= 0):
            self.bad(field, f"offset {str(offset)[:20]} is not a byte offset")
        elif isinstance(size, int) and offset + nbytes > size:
            self.bad(field, f"needs bytes {offset}..{offset + nbytes} of a {size}-byte file")

    def host_node(self, i: int, node: dict, n: int, ext_curs: dict, file_size) -> None:
        w = f"nodes[{i}]"
        self.bind(node.get("src"), f"{w}.src", n, ext_curs)
        count = node.get("n")
        if not (isinstance(count, int) and not isinstance(count, bool) and 0 < count <= self.limits.max_elements):
            self.bad(f"{w}.n", f"is {str(count)[:20]}, not a positive count of at most {self.limits.max_elements}")
            return
        cur = ext_curs.get(node.get("ext")) if isinstance(node.get("ext"), str) else None
        if cur is None:
            self.bad(f"{w}.ext", f"is {str(node.get('ext'))[:40]}, not an external of this plan")
        elif cur[1] * (cur[2] or 1) != count:
            self.bad(f"{w}.n", f"is {count} but its external '{node['ext']}' holds {cur[1] * (cur[2] or 1)} values")
        if not isinstance(node.get("eps"), (int, float)) or isinstance(node.get("eps"), bool):
            self.bad(f"{w}.eps", "is not a number")
        if "gamma" in node:
            self.in_file(f"{w}.gamma", self.rec.get("fills"), node["gamma"], 2 * count, file_size)

    def program_node(self, i: int, node: dict, n: int, ext_curs: dict, read_program, file_size) -> None:
        w = f"nodes[{i}]"
        ins = node.get("ins") if isinstance(node.get("ins"), list) else []
        curs = [self.currency(c, f"{w}.ins[{p}]") for p, c in enumerate(ins)]
        out = parse_currency(node.get("out"))
        binds = node.get("binds")
        if not isinstance(binds, list) or len(binds) != len(ins):
            self.bad(f"{w}.binds", f"must bind each of its {len(ins)} inputs")
        else:
            for p, b in enumerate(binds):
                self.bind(b, f"{w}.binds[{p}]", n, ext_curs)
        for key, ports in (("alias", 2), ("zero", 1)):
            for v in node.get(key) if isinstance(node.get(key), list) else [None]:
                vals = v if ports == 2 and isinstance(v, list) and len(v) == 2 else [v] if ports == 1 else [None]
                if not all(_is_index(x, max(len(ins), 1)) for x in vals):
                    self.bad(f"{w}.{key}", f"holds {str(v)[:30]}, not a port of this node")
        blobs = node.get("blobs") if isinstance(node.get("blobs"), dict) else {}
        for name, blob in blobs.items():
            f = f"{w}.blobs.{name}"
            if not (isinstance(blob, dict) and blob.get("dtype") in _DTYPE_BITS and _is_shape(blob.get("shape"), self.limits)):
                self.bad(f, "must give a dtype and a bounded shape")
                continue
            self.in_file(f, node.get("weights"), blob.get("offset"), (math.prod(blob["shape"]) * _DTYPE_BITS[blob["dtype"]] + 7) // 8, file_size)
        packed = node.get("packed") if isinstance(node.get("packed"), dict) else {}
        for name, pk in packed.items():  # each compressed weight: its kind and the blobs it is made of
            parts = {"lut": ("data", "lut"), "sparse": ("data", "nonzero")}.get(pk.get("kind"), ("data", "scale")) \
                if isinstance(pk, dict) else ()
            if not isinstance(pk, dict) or pk.get("kind", "blockwise") not in ("blockwise", "lut", "sparse") or \
                    any(not isinstance(pk.get(p), str) or pk[p] not in blobs for p in parts) or \
                    (pk.get("offset") is not None and pk.get("offset") not in blobs):
                self.bad(f"{w}.packed.{name}", "must name its kind (blockwise, lut, sparse) and blobs of the program's weight.bin")
        for name, shape in (node.get("shapes") or {}).items() if isinstance(node.get("shapes"), dict) else []:
            if not _is_shape(shape, self.limits):
                self.bad(f"{w}.shapes.{name}", f"is {str(shape)[:40]}, not a bounded shape")
                continue
            data = packed[name].get("data") if isinstance(packed.get(name), dict) else None
            src = blobs.get(name) if name not in packed else blobs.get(data) if isinstance(data, str) else None
            if not isinstance(src, dict) or not _is_shape(src.get("shape"), self.limits):
                self.bad(f"{w}.shapes.{name}", "names a weight with no blob in the program's weight.bin")
            elif math.prod(shape) != math.prod(src["shape"]):
                self.bad(f"{w}.shapes.{name}", f"is {shape} ({math.prod(shape)} values) but its blob holds {math.prod(src['shape'])}")
        text = read_program(node.get("mil"))
        if text is None or None in curs or out is None:
            return  # the file is missing or altered (reported with the files), or a currency is already reported
        self.against_program(w, text, curs, out, blobs)

    def against_program(self, w: str, text: str, curs: list, out: tuple, blobs: dict) -> None:
        """The record's currencies and weights are the program's: its signature, its output's type, its BLOBFILEs."""
        sig = _SIG.search(text)
        want = ", ".join(f"{mil_type(c)} in{p}" for p, c in enumerate(curs))
        if sig is None or sig.group(1) != want:
            self.bad(f"{w}.ins", f"say the program reads ({want}); its model.mil declares "
                                 f"({sig.group(1)[:120] if sig else 'no main function'})")
        res = _OUT.search(text)
        decl = re.search(rf"^\s*(tensor<\w+, \[[\d, ]*\]>) {re.escape(res.group(1))} = ", text, re.M) if res else None
        if decl is None or decl.group(1) != mil_type(out):
            self.bad(f"{w}.out", f"says the program writes {mil_type(out)}; its model.mil declares {decl.group(1) if decl else 'no output'}")
        declared = {m.group(2): (m.group(1), int(m.group(3))) for m in _BLOB.finditer(text)}
        for name, blob in blobs.items():
            if not isinstance(blob, dict) or not _is_shape(blob.get("shape"), self.limits) or blob.get("dtype") not in _DTYPE_BITS:
                continue  # reported above
            if declared.get(name) != (_shape_type(blob["dtype"], blob["shape"]), blob.get("offset")):
                got = f"{declared[name][0]} at offset {declared[name][1]}" if name in declared else "no such weight"
                self.bad(f"{w}.blobs.{name}", f"is {_shape_type(blob['dtype'], blob['shape'])} at offset {blob.get('offset')}; "
                                              f"its model.mil declares {got}")
        for name in sorted(set(declared) - set(blobs)):
            self.bad(f"{w}.blobs", f"lack the weight '{name}' its model.mil reads")


def graph_problems(graph: str, rec: dict, read_program, file_size, limits: Limits | None = None) -> list[str]:
    """Problems of one ANE graph record. ``read_program(file_record)``: a program's MIL text, or None when it
    cannot be trusted (missing, altered); ``file_size(file_record)``: the size a file record vouches for, or None."""
    return _Check(graph, rec, limits or Limits()).run(read_program, file_size)


def ane_plan_problems(m: dict, intact: set, path_of, limits: Limits | None = None) -> list[str]:
    """Every ANE graph of manifest ``m`` checked against its programs (``intact``: ids of the file records
    whose bytes matched the manifest; only those programs are read; ``path_of(rel)``: a manifest path's file,
    manifest.safe_path)."""

    def read_program(f):
        if not isinstance(f, dict) or id(f) not in intact:
            return None
        try:
            return Path(path_of(f["path"])).read_text(encoding="utf-8")
        except (OSError, UnicodeError, VerifyError, TypeError, ValueError):  # reported with the files
            return None

    problems = []
    for name, g in (m.get("graphs") or {}).items():
        if isinstance(g, dict) and g.get("kind") == "ane":
            problems += graph_problems(name, g, read_program, _record_size, limits)
    return problems


def _record_size(f) -> int | None:
    size = f.get("size") if isinstance(f, dict) else None
    return size if isinstance(size, int) and not isinstance(size, bool) else None
