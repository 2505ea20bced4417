"""Host emitter of attention (npubuild/ops/attention.py): multi-head, grouped-query,
an optional mask input (bool or additive), a KV cache and softcap.

A three-pass softmax per (batch, head h, query i), all in f32 (f16 and bf16 are
widened on load and rounded once on the store):

1. ``s_j = dot(q_i, k_j)`` (f32, in d order) times the scale (one f32 product);
   with softcap ``c * tanh(s_j / c)`` (``mathfns.tanh_f32``); then the mask
   (bool: ``s_j`` or -inf; additive: ``s_j + m``); the running max;
2. ``e_j = exp(s_j - max)`` (``mathfns.exp``) and their f32 sum;
3. ``y_d = (sum_j e_j v_jd) / sum`` (one division per output).

Keys the query cannot see are loop bounds, not -inf scores: causal hides
``j > i + T - S`` and a mask shorter than T hides the keys past its end. The
keys are the cache's (rows of past_key / past_value) followed by the new ones
(rows of k / v): every pass runs one loop over each, chained through its
``iter_args``. The kv head of query head h is ``h // (H / Hkv)``.

A query whose every key is masked has max = -inf, so ``s_j - max`` is NaN and
the output is NaN, as the oracle (and ONNX's reference) says.
"""
from __future__ import annotations

from typing import Callable

from ...ops.attention import attention_dims, attention_scale, input_index
from ...specfile.instances import KernelInstance
from . import mathfns
from .mlir_text import KernelBuilder
from .nn import f32, free_scratch, idx_add, idx_add_const, idx_mul, load_f32, scf_for, scratch, store_f32, to_f32


def _title(inst: KernelInstance, dims) -> str:
    a = inst.attrs
    parts = [f"attention {dims.heads} heads x {dims.head_dim}"]
    if dims.kv_heads != dims.heads:
        parts.append(f"{dims.kv_heads} kv heads")
    parts.append(f"mask {a['mask']}")
    if dims.mask is not None:
        parts.append(f"{a['mask_kind']} mask input")
    if dims.past:
        parts.append(f"KV cache of {dims.past}")
    if a["softcap"]:
        parts.append(f"softcap {a['softcap']}")
    return ", ".join(parts) + "; f32 three-pass softmax"


def emit_attention(inst: KernelInstance) -> str:
    a = inst.attrs
    dims = attention_dims(inst.shapes, a)
    at = input_index(len(inst.inputs))
    dt = inst.dtype
    hd, s_len, t_len, past = dims.head_dim, dims.s, dims.total, dims.past
    b = KernelBuilder(inst, _title(inst, dims))
    arg = {name: b.in_args[i] for name, i in at.items()}
    shape = {name: inst.inputs[i].shape for name, i in at.items()}
    out = b.out_arg
    frees: list = []
    sc = scratch(b, [t_len], "f32", frees)
    zero = b.float_const(0.0, "f32")
    ninf = b.float_const(float("-inf"), "f32")
    scale_c = b.float_const(to_f32(attention_scale(a)), "f32")
    cap = b.float_const(to_f32(a["softcap"]), "f32") if a["softcap"] else None

    def over_keys(limit: str, init: str, body: Callable) -> str:
        """One f32 ``iter_arg`` threaded over the keys ``[0, limit)``: ``body(loop, j, src, row)`` with
        ``src`` "past" (row j of the cache) or "new" (row j - P of k / v) sets ``loop.next``."""
        if not past:
            with scf_for(b, b.index(0), limit, [init], ["f32"]) as lp:
                body(lp, lp.iv, "new", lp.iv)
            return lp.result
        p = b.index(past)
        with scf_for(b, b.index(0), b.op(f"arith.minsi {limit}, {p} : index"), [init], ["f32"]) as l1:
            body(l1, l1.iv, "past", l1.iv)
        with scf_for(b, p, b.op(f"arith.maxsi {limit}, {p} : index"), [l1.result], ["f32"]) as l2:
            body(l2, l2.iv, "new", idx_add_const(b, l2.iv, -past))
        return l2.result

    def key_tensor(src: str, which: str) -> tuple[str, tuple]:  # which: "k" or "v"
        name = which if src == "new" else f"past_{'key' if which == 'k' else 'value'}"
        return arg[name], shape[name]

    batch = [dims.batch] if dims.batched else []
    with b.loop_nest(batch + [dims.heads, s_len]) as ivs:
        bi, (h, i) = ivs[:-2], ivs[-2:]
        qbase = idx_mul(b, h, hd)
        if dims.group == 1:
            kbase = qbase
        else:
            kbase = idx_mul(b, b.op(f"arith.divui {h}, {b.index(dims.group)} : index"), hd)
        limit = idx_add_const(b, i, t_len - s_len + 1) if a["mask"] == "causal" else b.index(t_len)
        if dims.mask is not None and dims.mask[3] < t_len:  # the keys past a short mask are masked
            limit = b.op(f"arith.minsi {limit}, {b.index(dims.mask[3])} : index")

        def score(lp, j, src, row):
            kt, ks = key_tensor(src, "k")
            with scf_for(b, b.index(0), b.index(hd), [zero], ["f32"]) as ld:
                qcol = idx_add(b, qbase, ld.iv)
                kcol = qcol if kbase is qbase else idx_add(b, kbase, ld.iv)
                qv = load_f32(b, arg["q"], shape["q"], dt, bi + [i, qcol])
                kv = load_f32(b, kt, ks, dt, bi + [row, kcol])
                ld.next = [f32(b, "addf", ld.args[0], f32(b, "mulf", qv, kv))]
            s = f32(b, "mulf", ld.result, scale_c)
            if cap is not None:
                s = f32(b, "mulf", cap, mathfns.tanh_f32(b, f32(b, "divf", s, cap)))
            if dims.mask is not None:
                s = _apply_mask(b, inst, at["mask"], dims, [bi[0] if bi else b.index(0), h, i, j], s, ninf)
            b.store(s, sc, [t_len], "f32", [j])
            lp.next = [f32(b, "maximumf", lp.args[0], s)]

        mx = over_keys(limit, ninf, score)
        # pass 2: e_j = exp(s_j - max) and their sum (the scores are in the scratch, by global j)
        with scf_for(b, b.index(0), limit, [zero], ["f32"]) as le:
            e = mathfns.exp(b, f32(b, "subf", b.load(sc, [t_len], "f32", [le.iv]), mx), "f32")
            b.store(e, sc, [t_len], "f32", [le.iv])
            le.next = [f32(b, "addf", le.args[0], e)]
        total = le.result
        # pass 3: y_d = (sum_j e_j v_jd) / sum
        with b.loop_nest([hd]) as (d,):
            vcol = idx_add(b, kbase, d)

            def weigh(lp, j, src, row):
                vt, vs = key_tensor(src, "v")
                ej = b.load(sc, [t_len], "f32", [j])
                vv = load_f32(b, vt, vs, dt, bi + [row, vcol])
                lp.next = [f32(b, "addf", lp.args[0], f32(b, "mulf", ej, vv))]

            acc = over_keys(limit, zero, weigh)
            ycol = vcol if kbase is qbase else idx_add(b, qbase, d)
            store_f32(b, f32(b, "divf", acc, total), out, shape["q"], dt, bi + [i, ycol])
    free_scratch(b, frees)
    return b.finish()


def _apply_mask(b: KernelBuilder, inst: KernelInstance, pos: int, dims, bhij: list[str], s: str, ninf: str) -> str:
    """The score ``s`` of (batch, head, query, key) ``bhij`` after the mask input (broadcast: a size-1 axis
    reads index 0)."""
    t = inst.inputs[pos]
    idx = [iv if n > 1 else b.index(0) for iv, n in zip(bhij, dims.mask)][4 - len(t.shape):]
    memref = b.in_args[pos]
    if t.dtype == "bool":
        keep = b.load(memref, t.shape, "bool", idx)
        return b.op(f"arith.select {keep}, {s}, {ninf} : f32")
    return f32(b, "addf", s, load_f32(b, memref, t.shape, t.dtype, idx))


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"attention": emit_attention}
