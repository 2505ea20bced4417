"""Vector GEMM bodies of the host target: the int8 GEMM's tile and the f32 / bf16 matmul kernel.

Both are register-blocked outer products. A block of ``ROWS`` rows of the output
by ``COLS`` vectors of ``L`` columns keeps its ``ROWS * COLS`` accumulators in
the ``iter_args`` of the ``scf.for`` over k; each k step reads ``COLS`` vectors
of one row of b (``vector.transfer_read``, ``in_bounds = [true]``), broadcasts
one element of a per row (``vector.broadcast``) and adds the products. Every
vector of b read is used ``ROWS`` times and every element of a ``COLS * L``
times, with no load or store of the output inside the k loop. For the cache,
column panels are the outer loop and row blocks the inner one, so a panel of b
(K x ``COLS * L``) stays in the L2 cache while every row of a passes it.
The host pipeline lowers the vector ops with ``convert-vector-to-llvm``; llc
splits ``vector<L x T>`` into the registers the CPU variant has.

* ``gemm_tile`` (int8 -> int32, :func:`gemm_tile_function`): the products are
  formed as ``pmaddwd`` forms them, pairs of k: the operands arrive as int16
  *pairs* packed in i32 words (``a`` [d, kk/2]: word p of row m holds a[m, 2p]
  then a[m, 2p+1]; ``b`` [kk/2, nn]: word (p, n) holds b[2p, n] then
  b[2p+1, n]; :func:`npubuild.runner.gemm.pack_pairs` packs them); each k-pair
  step bit-casts a row of words to ``vector<2L x i16>``, splits even and odd
  halves (``vector.shuffle``), widens them (``arith.extsi``) and adds
  ``even * even + odd * odd`` into the i32 accumulators: the shape LLVM's x86
  back end turns into ``pmaddwd`` (``vpdpwssd`` with AVX-512 VNNI). Integer
  sums are exact whatever their order, so the accumulators are the scalar
  tile's bit for bit (int8 x int8 < 2^15 per product, at most 512 terms).
* ``matmul`` f32 and bf16 (:func:`emit_matmul_vector`): f32 accumulators over k
  **in order**, one ``arith.mulf`` and one ``arith.addf`` per term (no FMA:
  the recipe allows no contraction), bf16 elements widened with ``arith.extf``
  and the sum rounded once with ``arith.truncf``: per output element the same
  operations in the same order as the scalar body, so the results are
  bit-identical to it, and within the scalar body's bound of the oracle
  (``K * 2^-24 * (|a| @ |b|)``, docs/kernels.md). Taken when N is a multiple
  of the lanes (16); otherwise the scalar body, and the decision says why.
"""
from __future__ import annotations

from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder, memref_type
from .nn import free_scratch, scratch
from .vector import LANES, take

# int8 tile: L i32 lanes per vector, ROWS x COLS vectors of accumulators (4 x 2 x 8 lanes: 64 i32 values,
# sixteen 128-bit registers on the baseline x86-64, fewer wider ones on AVX2 / AVX-512)
TILE_LANES, TILE_ROWS, TILE_COLS = 8, 4, 2
# f32 / bf16 matmul: ROWS x COLS vectors of 16 f32 lanes
MATMUL_ROWS = 4


def gemm_tile_shapes(d: int, kk: int, nn: int) -> list[tuple[list[int], str]]:
    """The three arguments of ``gemm_tile`` (shape, dtype): a's and b's int16 pairs as i32 words, c."""
    return [([d, kk // 2], "i32"), ([kk // 2, nn], "i32"), ([d, nn], "i32")]


def tile_functions(d: int, kk: int, nn: int) -> dict[str, list[tuple[list[int], str]]]:
    """The int8 matmul library's tile entry points and their arguments: ``gemm_tile`` over d rows and
    ``gemm_tile_rows`` over one register block of rows, for the rows a d-row tile would pad (a run of
    8 rows computes 8, not 64)."""
    return {"gemm_tile": gemm_tile_shapes(d, kk, nn), "gemm_tile_rows": gemm_tile_shapes(TILE_ROWS, kk, nn)}


def tile_fits(d: int, kk: int, nn: int) -> bool:
    return d % TILE_ROWS == 0 and kk % 2 == 0 and nn % (TILE_LANES * TILE_COLS) == 0


def gemm_tile_function(d: int, kk: int, nn: int, name: str = "gemm_tile") -> str:
    """``name(a, b, c)``: int32 c [d, nn] = a [d, kk] @ b [kk, nn] of int8 codes, given as int16 pairs.

    The host's tile of the blocked int8 GEMM (npubuild.runner.gemm), the same
    product the NPU overlay computes per dispatch."""
    if not tile_fits(d, kk, nn):
        raise ValueError(f"gemm_tile takes d a multiple of {TILE_ROWS}, kk even and nn a multiple of "
                         f"{TILE_LANES * TILE_COLS}; got {d}, {kk}, {nn}")
    lanes, rows, cols = TILE_LANES, TILE_ROWS, TILE_COLS
    (sa, _), (sb, _), (sc, _) = gemm_tile_shapes(d, kk, nn)
    ta, tb, tc = memref_type(sa, "i32"), memref_type(sb, "i32"), memref_type(sc, "i32")
    acc_t, pair_t = f"vector<{lanes}xi32>", f"vector<{2 * lanes}xi16>"
    even = ", ".join(str(2 * x) for x in range(lanes))
    odd = ", ".join(str(2 * x + 1) for x in range(lanes))
    consts = sorted({0, 1, d, nn, kk // 2, rows, lanes * cols, *range(rows), *(c * lanes for c in range(cols))})
    out = [f"  func.func @{name}(%a: {ta}, %b: {tb}, %c: {tc}) {{"]
    out += [f"    %c{v} = arith.constant {v} : index" for v in consts]
    out += [f"    %zero = arith.constant dense<0> : {acc_t}", "    %pad = arith.constant 0 : i32"]

    def halves(v: str, name: str) -> list[str]:
        """The even and odd int16 halves of the words of ``v``, widened to i32: %{name}e, %{name}o."""
        lines = [f"        %{name}p = vector.bitcast {v} : {acc_t} to {pair_t}"]
        for half, idx in (("e", even), ("o", odd)):
            lines += [f"        %{name}{half}h = vector.shuffle %{name}p, %{name}p [{idx}] : {pair_t}, {pair_t}",
                      f"        %{name}{half} = arith.extsi %{name}{half}h : vector<{lanes}xi16> to {acc_t}"]
        return lines

    accs = [(r, c) for r in range(rows) for c in range(cols)]
    out += [f"    scf.for %j = %c0 to %c{nn} step %c{lanes * cols} {{",
            f"      scf.for %i = %c0 to %c{d} step %c{rows} {{"]
    out.append(f"      %acc:{len(accs)} = scf.for %p = %c0 to %c{kk // 2} step %c1 iter_args("
               + ", ".join(f"%s{r}_{c} = %zero" for r, c in accs) + ") -> (" + ", ".join([acc_t] * len(accs)) + ") {")
    for c in range(cols):
        out += [f"        %jb{c} = arith.addi %j, %c{c * lanes} : index",
                f"        %bw{c} = vector.transfer_read %b[%p, %jb{c}], %pad {{in_bounds = [true]}} : {tb}, {acc_t}"]
        out += halves(f"%bw{c}", f"b{c}")
    nexts = []
    for r in range(rows):
        out += [f"        %ir{r} = arith.addi %i, %c{r} : index",
                f"        %aw{r} = memref.load %a[%ir{r}, %p] : {ta}",
                f"        %awv{r} = vector.broadcast %aw{r} : i32 to {acc_t}"]
        out += halves(f"%awv{r}", f"a{r}")
        for c in range(cols):
            out += [f"        %pe{r}_{c} = arith.muli %a{r}e, %b{c}e : {acc_t}",
                    f"        %po{r}_{c} = arith.muli %a{r}o, %b{c}o : {acc_t}",
                    f"        %pp{r}_{c} = arith.addi %pe{r}_{c}, %po{r}_{c} : {acc_t}",
                    f"        %n{r}_{c} = arith.addi %s{r}_{c}, %pp{r}_{c} : {acc_t}"]
            nexts.append(f"%n{r}_{c}")
    out += [f"        scf.yield {', '.join(nexts)} : {', '.join([acc_t] * len(accs))}", "      }"]
    for k, (r, c) in enumerate(accs):
        out += [f"      %wi{k} = arith.addi %i, %c{r} : index",
                f"      %wj{k} = arith.addi %j, %c{c * lanes} : index",
                f"      vector.transfer_write %acc#{k}, %c[%wi{k}, %wj{k}] {{in_bounds = [true]}} : {acc_t}, {tc}"]
    out += ["      }", "    }", "    return", "  }", ""]
    return "\n".join(out)


# ---- f32 / bf16 matmul ----------------------------------------------------------------------


def matmul_plan(inst: KernelInstance) -> tuple[int, str]:
    """(columns per panel, "") when the f32 / bf16 matmul gets the vector body, else (0, why not)."""
    lanes = LANES[inst.dtype]
    n = inst.output.shape[-1]
    if n % lanes:
        return 0, f"N ({n}) is not a multiple of {lanes} lanes"
    return (2 if n % (2 * lanes) == 0 else 1), ""


def emit_matmul_vector(inst: KernelInstance) -> str | None:
    """The vector body of an f32 / bf16 ``matmul`` (None: the scalar body; ``vector.decision`` says why)."""
    cols, why = matmul_plan(inst)
    return take(inst, (lambda: _matmul_body(inst, cols)) if cols else None, why)


def _matmul_body(inst: KernelInstance, cols: int) -> tuple[str, set]:
    dt = inst.dtype
    lanes = LANES[dt]
    (as_, bs), ys = inst.shapes, inst.output.shape
    m, kk, n = as_[-2], bs[0], bs[1]
    b = KernelBuilder(inst, f"matmul {dt}: f32 accumulation over k in order, {MATMUL_ROWS} x {cols} x vector<{lanes}xf32> blocks")
    a_in, b_in = b.in_args
    vt = f"vector<{lanes}xf32>"
    elem = "bf16" if dt == "bf16" else "f32"
    zero = b.op(f"arith.constant dense<0.0> : {vt}")
    pad = b.float_const(0.0, dt)
    ops = {(o, "f32", lanes) for o in ("mulf", "addf", "broadcast")}
    if dt == "bf16":
        ops |= {("extf", "bf16", lanes), ("truncf", "f32", lanes)}

    def widen(v: str, ty: str) -> str:
        return b.op(f"arith.extf {v} : {ty} to {ty.replace('bf16', 'f32')}") if dt == "bf16" else v

    def block(lead: list[str], i0: str, rows: int, j: str) -> None:
        accs = [(r, c) for r in range(rows) for c in range(cols)]
        res = b.fresh()
        b.line(f"{res}:{len(accs)} = scf.for %k = {b.index(0)} to {b.index(kk)} step {b.index(1)} iter_args("
               + ", ".join(f"%s{r}_{c} = {zero}" for r, c in accs) + ") -> (" + ", ".join([vt] * len(accs)) + ") {")
        with b.indented():
            bv = [b.op(f"vector.transfer_read {panel}[%k, {b.index(c * lanes)}], {fpad} {{in_bounds = [true]}} : "
                       f"{panel_t}, {vt}") for c in range(cols)]
            nexts = []
            for r in range(rows):
                ir = b.op(f"arith.addi {i0}, {b.index(r)} : index")
                av = widen(b.load(a_in, as_, dt, lead + [ir, "%k"]), elem)
                avv = b.op(f"vector.broadcast {av} : f32 to {vt}")
                for c in range(cols):
                    prod = b.op(f"arith.mulf {avv}, {bv[c]} : {vt}")
                    nexts.append(b.op(f"arith.addf %s{r}_{c}, {prod} : {vt}"))
            b.line(f"scf.yield {', '.join(nexts)} : {', '.join([vt] * len(accs))}")
        b.line("}")
        for idx, (r, c) in enumerate(accs):
            ir = b.op(f"arith.addi {i0}, {b.index(r)} : index")
            jc = b.op(f"arith.addi {j}, {b.index(c * lanes)} : index")
            v = f"{res}#{idx}"
            if dt == "bf16":
                v = b.op(f"arith.truncf {v} : {vt} to vector<{lanes}xbf16>")
            b.line(f"vector.transfer_write {v}, {b.out_arg}[{', '.join(lead + [ir, jc])}] {{in_bounds = [true]}} : "
                   f"vector<{lanes}x{elem}>, {memref_type(ys, dt)}")

    # the column panel of b, widened to f32 and packed contiguously: the k loop then walks one
    # 64- or 128-byte row per k instead of striding N elements (a page per few k at large N)
    frees: list = []
    panel_t = memref_type([kk, cols * lanes], "f32")
    panel = scratch(b, [kk, cols * lanes], "f32", frees)
    fpad = b.float_const(0.0, "f32")
    main = m - m % MATMUL_ROWS
    with b.loop_nest(ys[:-2]) as lead:
        j = b.new_iv()
        b.line(f"scf.for {j} = {b.index(0)} to {b.index(n)} step {b.index(cols * lanes)} {{")
        with b.indented():
            with b.loop_nest([kk]) as (k,):
                for c in range(cols):
                    jc = b.op(f"arith.addi {j}, {b.index(c * lanes)} : index")
                    raw = b.op(f"vector.transfer_read {b_in}[{k}, {jc}], {pad} {{in_bounds = [true]}} : "
                               f"{memref_type(bs, dt)}, vector<{lanes}x{elem}>")
                    b.line(f"vector.transfer_write {widen(raw, f'vector<{lanes}x{elem}>')}, {panel}[{k}, {b.index(c * lanes)}] "
                           f"{{in_bounds = [true]}} : {vt}, {panel_t}")
            if main:
                i0 = b.new_iv()
                b.line(f"scf.for {i0} = {b.index(0)} to {b.index(main)} step {b.index(MATMUL_ROWS)} {{")
                with b.indented():
                    block(lead, i0, MATMUL_ROWS, j)
                b.line("}")
            if m % MATMUL_ROWS:
                i0 = b.new_iv()
                b.line(f"scf.for {i0} = {b.index(main)} to {b.index(m)} step {b.index(1)} {{")
                with b.indented():
                    block(lead, i0, 1, j)
                b.line("}")
        b.line("}")
    free_scratch(b, frees)
    return b.finish(), ops
