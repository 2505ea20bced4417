"""Attention: multi-head, grouped-query and multi-query softmax attention with an
optional mask input and a KV cache, after ONNX Attention (opset 23).

Layout: q is ``[B?, S, H*D]``, k and v ``[B?, Skv, Hkv*D]`` (ONNX's 3-D form;
no batch axis means B = 1). The optional inputs come in two groups, each given
whole or not at all, in this order:

* ``mask``: broadcastable to ``[B, H, S, T]`` (``T = P + Skv``), a bool (True
  takes part) or an additive float of the op's dtype (``mask_kind``). As ONNX
  says, its last axis may be shorter than T and is then padded with False /
  -inf (never broadcast: ONNX's reference pads first).
* ``past_key``, ``past_value``: the cache, ``[B?, P, Hkv*D]`` in k's layout, so
  that the new cache is ``concat([past_key, k], axis=-2)`` (one concat node;
  ONNX's ``present_key`` is the same tensor in ``[B, Hkv, T, D]`` order). The
  keys a query sees are the past ones followed by k.

Per (batch, head h, query i), with kv head ``h // (H / Hkv)`` (ONNX repeats each
kv head for consecutive query heads):

    s_j = (q_i * sqrt(scale)) . (k_j * sqrt(scale))    scale 0: 1/sqrt(D)
    s_j = softcap * tanh(s_j / softcap)                 only when softcap > 0
    s_j = s_j + bias_j      bias: the mask (bool: 0 or -inf; additive: its value),
                            -inf where causal hides key j (j > i + T - S)
    y_i = sum_j softmax(s)_j v_j

As in ONNX's reference, softcap is applied before the mask so that a masked key
stays at -inf. A query whose every key is masked has softmax(all -inf) = NaN:
ONNX's reference computes exp(-inf - max) / sum with max = -inf and gives NaN,
and so do the oracle and the kernels (no hidden zero fill).

``mask: causal`` is bottom-right aligned (query i sees keys j <= i + T - S). With
a KV cache and as many new keys as queries (Skv = S, the decode and prefill
steps), that is ONNX's ``is_causal`` with ``past_key`` (offset P); without a
cache ONNX aligns top-left (offset 0), which differs only when Skv > S.

The oracle computes in float64 and rounds once to the op's dtype.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import FLOAT_DTYPES, Attr, OpDef, fmt_shape, register

_F32_MAX = 3.4028234663852886e38


@dataclass(frozen=True)
class AttentionDims:
    """The sizes of one attention instance (shared by the oracle and the kernels)."""

    batch: int  # B (1 without a batch axis)
    batched: bool  # q has a batch axis
    s: int  # queries S
    skv: int  # new keys Skv
    past: int  # cached keys P (0 without a cache)
    heads: int  # H
    kv_heads: int  # Hkv
    head_dim: int  # D
    mask: tuple[int, ...] | None  # the mask's shape padded to rank 4, or None

    @property
    def total(self) -> int:
        """T: the keys a query can see (past, then new)."""
        return self.past + self.skv

    @property
    def group(self) -> int:
        """Query heads per kv head."""
        return self.heads // self.kv_heads


def input_index(n_inputs: int) -> dict[str, int]:
    """Input name -> position for an instance with ``n_inputs`` inputs (3: q, k, v; 4: + mask;
    5: + past_key, past_value; 6: + mask, past_key, past_value)."""
    names = ["q", "k", "v"] + (["mask"] if n_inputs in (4, 6) else []) + (["past_key", "past_value"] if n_inputs >= 5 else [])
    return {n: i for i, n in enumerate(names)}


def has_mask(n_inputs: int) -> bool:
    return "mask" in input_index(n_inputs)


def has_past(n_inputs: int) -> bool:
    return "past_key" in input_index(n_inputs)


def attention_dims(shapes, attrs) -> AttentionDims:
    """Validate the shapes of an instance; raise OpError naming the tensor and the fix."""
    shapes = [tuple(s) for s in shapes]
    q, k, v = shapes[:3]
    nh, hd = attrs["num_heads"], attrs["head_dim"]
    kvh = attrs["kv_num_heads"] or nh
    if nh <= 0 or hd <= 0 or kvh < 0:
        raise OpError(f"attention: num_heads and head_dim must be positive, got {nh} and {hd}")
    if nh % kvh:
        raise OpError(f"attention: kv_num_heads ({kvh}) must divide num_heads ({nh}) (grouped-query attention)")
    if len(q) not in (2, 3):
        raise OpError(f"attention: q must be [S, H*D] or [B, S, H*D], got {fmt_shape(q)}")
    if q[-1] != nh * hd:
        raise OpError(f"attention: q must have last dim num_heads*head_dim = {nh}*{hd} = {nh * hd}, got {fmt_shape(q)}")
    hidden = kvh * hd
    at = input_index(len(shapes))
    past = [shapes[at["past_key"]], shapes[at["past_value"]]] if "past_key" in at else []
    for name, s in (("k", k), ("v", v), *zip(("past_key", "past_value"), past)):
        if len(s) != len(q) or s[-1] != hidden:
            what = "num_heads*head_dim" if kvh == nh else "kv_num_heads*head_dim"
            raise OpError(
                f"attention: {name} must be rank {len(q)} with last dim {what} = {kvh}*{hd} = {hidden}, got {fmt_shape(s)}"
            )
    batched = len(q) == 3
    if batched and len({s[0] for s in (q, k, v, *past)}) != 1:
        raise OpError("attention: q, k, v (and past_key, past_value) must have the same batch, got "
                      + ", ".join(fmt_shape(s) for s in (q, k, v, *past)))
    if k[-2] != v[-2]:
        raise OpError(f"attention: k and v must have the same sequence length, got {fmt_shape(k)} and {fmt_shape(v)}")
    if past and past[0][-2] != past[1][-2]:
        raise OpError(f"attention: past_key and past_value must hold as many tokens, got {fmt_shape(past[0])} "
                      f"and {fmt_shape(past[1])}")
    n_past = past[0][-2] if past else 0
    batch = q[0] if batched else 1
    s_len, total = q[-2], n_past + k[-2]
    if attrs["mask"] == "causal" and total < s_len:
        raise OpError(
            f"attention: a causal mask needs at least as many keys as queries (got {s_len} queries, {total} keys): "
            "the first queries would see no key"
        )
    mask = None
    if "mask" in at:
        m = shapes[at["mask"]]
        full = (batch, nh, s_len, total)
        if not 1 <= len(m) <= 4:
            raise OpError(f"attention: mask must have rank 1 to 4 (broadcastable to [B, H, S, T] = {fmt_shape(full)}), "
                          f"got {fmt_shape(m)}")
        mask = (1,) * (4 - len(m)) + m
        bad = [i for i in range(3) if mask[i] not in (1, full[i])]
        if bad or not 1 <= mask[3] <= total:
            raise OpError(
                f"attention: mask {fmt_shape(m)} does not broadcast to [B, H, S, T] = {fmt_shape(full)} "
                "(each of B, H, S: 1 or the size; the last axis at most T, a shorter one is padded as masked)"
            )
    return AttentionDims(batch, batched, s_len, k[-2], n_past, nh, kvh, hd, mask)


def _infer(shapes, attrs):
    attention_dims(shapes, attrs)
    return tuple(shapes[0])


def attention_scale(attrs) -> float:
    return attrs["scale"] or 1.0 / math.sqrt(attrs["head_dim"])


def _attention(xs, attrs):
    dims = attention_dims([x.shape for x in xs], attrs)
    b, h, hk, d, s_len, t = dims.batch, dims.heads, dims.kv_heads, dims.head_dim, dims.s, dims.total

    def heads(a, n):  # [B?, S, n*D] -> [B, n, S, D] in float64
        a = np.asarray(a).astype("float64")
        return a.reshape(b, a.shape[-2], n, d).transpose(0, 2, 1, 3)

    q = heads(xs[0], h)
    k, v = heads(xs[1], hk), heads(xs[2], hk)
    at = input_index(len(xs))
    if "past_key" in at:
        k = np.concatenate([heads(xs[at["past_key"]], hk), k], axis=2)
        v = np.concatenate([heads(xs[at["past_value"]], hk), v], axis=2)
    k, v = np.repeat(k, dims.group, axis=1), np.repeat(v, dims.group, axis=1)  # [h0, h0, h1, h1, ...]
    root = math.sqrt(attention_scale(attrs))
    scores = (q * root) @ (k * root).transpose(0, 1, 3, 2)  # [B, H, S, T]
    cap = attrs["softcap"]
    if cap > 0:
        scores = cap * np.tanh(scores / cap)
    bias = np.zeros((1, 1, s_len, t))
    if dims.mask is not None:
        m = np.asarray(xs[at["mask"]]).reshape(dims.mask)
        if m.dtype == np.bool_:
            m = np.where(m, 0.0, -np.inf)
        m = np.pad(m.astype("float64"), [(0, 0)] * 3 + [(0, t - m.shape[-1])], constant_values=-np.inf)
        bias = bias + m
    if attrs["mask"] == "causal":
        hidden = np.arange(t)[None, :] > np.arange(s_len)[:, None] + (t - s_len)
        bias = np.where(hidden, -np.inf, bias)
    with np.errstate(invalid="ignore"):  # a fully masked row: -inf - -inf = NaN, as in ONNX
        scores = scores + bias
        scores = scores - np.max(scores, axis=-1, keepdims=True)
        p = np.exp(scores)
        p = p / np.sum(p, axis=-1, keepdims=True)
    out = (p @ v).transpose(0, 2, 1, 3)  # [B, S, H, D]
    return out.reshape(xs[0].shape).astype(xs[0].dtype)


def _signature(dtype, n, attrs):
    ins = [dtype] * n
    if has_mask(n) and attrs["mask_kind"] == "bool":
        ins[3] = "bool"
    return ins, dtype


def _non_negative_f32(v: float) -> str | None:
    if not 0 <= v <= _F32_MAX:
        return f"must be a finite number >= 0 (an f32), got {v}"
    return None


register(
    OpDef(
        name="attention",
        family="attention",
        doc="multi-head / grouped-query softmax(q k^T * scale [softcapped] + mask) v on [B?, S, heads*head_dim] "
        "(ONNX Attention, 3-D form); optional mask input (bool or additive) and KV cache (past_key, past_value)",
        inputs=("q", "k", "v"),
        optional=(("mask",), ("past_key", "past_value")),
        infer=_infer,
        oracle=_attention,
        attrs=(
            Attr("num_heads", "int", doc="number of query heads H (ONNX q_num_heads)"),
            Attr("head_dim", "int", doc="size D of one head; the last dim of q is H * D"),
            Attr("kv_num_heads", "int", 0,
                 doc="heads of k and v (ONNX kv_num_heads); must divide num_heads: query head h reads kv head "
                     "h // (num_heads / kv_num_heads) (grouped-query; 1: multi-query); 0 means num_heads"),
            Attr(
                "mask",
                "str",
                "none",
                ("none", "causal"),
                "none: every query sees every key (but what the mask input hides); causal: query i sees keys "
                "j <= i + (T - S) (bottom-right aligned; ONNX is_causal with a KV cache, PyTorch is_causal when S == T)",
            ),
            Attr("mask_kind", "str", "bool", ("bool", "additive"),
                 "what the optional mask input is: bool (True takes part, False is -inf) or additive (a float "
                 "of the op's dtype added to the scores)"),
            Attr("scale", "float", 0.0, doc="multiplies q k^T (ONNX scale); 0 means 1/sqrt(head_dim); a finite f32 >= 0",
                 check=_non_negative_f32),
            Attr("softcap", "float", 0.0,
                 doc="ONNX softcap: scores become softcap * tanh(scores / softcap) before the mask; 0: off",
                 check=_non_negative_f32),
        ),
        dtypes=FLOAT_DTYPES,
        signature=_signature,
        dtype_doc="q, k, v, past_key, past_value and the output have the op's dtype; the mask input is bool "
        "(mask_kind: bool) or the op's dtype (mask_kind: additive)",
    ),
)
