"""attention's ONNX forms: a mask input (bool / additive, broadcast, shorter than T),
grouped- and multi-query heads, a KV cache, softcap; spec syntax, host kernels
against the oracle within the kernel's error bound, a fully masked query (NaN, as
ONNX's reference), xdna's refusal of what its design does not cover, and a GQA
decode step built and run on ref and host.

The oracle's own hand cases are in test_oracles.py (attention_full_ref)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import npubuild
from npubuild import targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError
from npubuild.ops.attention import attention_dims, attention_scale, input_index
from npubuild.ops.registry import AttrError
from npubuild.specfile.instances import make_instance

from .conftest import new_project
from .hostkit import compile_kernels
from .test_host_nn_quant import EXP_REL, U32, _oracle, _rng, assert_within

GQA = {"num_heads": 8, "head_dim": 16, "kv_num_heads": 2}
CASES = [  # (dtype, shapes in input order, attrs)
    # decode: one query per batch, a 37-token cache, a bool mask over [B, 1, 1, T]
    ("f32", [(2, 1, 128), (2, 1, 32), (2, 1, 32), (2, 1, 1, 38), (2, 37, 32), (2, 37, 32)], GQA),
    # prefill after a cache: causal, an additive [S, T] mask, softcap
    ("f32", [(4, 32), (4, 16), (4, 16), (4, 9), (5, 16), (5, 16)],
     {"num_heads": 4, "head_dim": 8, "kv_num_heads": 2, "mask": "causal", "mask_kind": "additive", "softcap": 3.0}),
    # a mask shorter than T (5 of 7 keys), per head: [1, H, S, 5]
    ("f32", [(1, 3, 32), (1, 7, 32), (1, 7, 32), (1, 2, 3, 5)], {"num_heads": 2, "head_dim": 16}),
    # multi-query, no batch, softcap and scale, no mask
    ("f32", [(5, 64), (6, 16), (6, 16)], {"num_heads": 4, "head_dim": 16, "kv_num_heads": 1, "softcap": 2.0, "scale": 0.5}),
    # a cache without a mask
    ("f32", [(1, 2, 16), (1, 2, 16), (1, 2, 16), (1, 6, 16), (1, 6, 16)], {"num_heads": 2, "head_dim": 8, "mask": "causal"}),
    ("f16", [(3, 32), (3, 16), (3, 16), (3, 7), (4, 16), (4, 16)],
     {"num_heads": 4, "head_dim": 8, "kv_num_heads": 2, "mask_kind": "additive", "softcap": 5.0}),
    ("bf16", [(2, 1, 64), (2, 1, 16), (2, 1, 16), (2, 1, 1, 9), (2, 8, 16), (2, 8, 16)],
     {"num_heads": 4, "head_dim": 16, "kv_num_heads": 1}),
]
INSTANCES = [make_instance("attention", dt, shapes, at) for dt, shapes, at in CASES]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    ks = compile_kernels(INSTANCES, tmp_path_factory.mktemp("attention_forms"))
    yield ks
    for k in ks.values():
        k.close()


def _inputs(inst, rng, blocked_row=False):
    """Normal q, k, v, caches; a bool mask mostly True; an additive mask of small values and some -inf.
    ``blocked_row``: the first query of the first batch and head sees no key."""
    at = input_index(len(inst.inputs))
    xs = []
    for name, t in zip(inst.input_names, inst.inputs):
        if t.dtype == "bool":
            xs.append(rng.random(t.shape) < 0.7)
        elif name == "mask":
            m = rng.normal(0.0, 1.0, t.shape)
            m[rng.random(t.shape) < 0.2] = -np.inf
            xs.append(m.astype(numpy_dtype(t.dtype)))
        else:
            xs.append(rng.normal(0.0, 1.0, t.shape).astype(numpy_dtype(t.dtype)))
    if "mask" in at:
        m = xs[at["mask"]]
        m[..., 0, :] = True if m.dtype == np.bool_ else 0.0  # every query but the blocked one sees its first key
        if blocked_row:
            m.reshape((1,) * (4 - m.ndim) + m.shape)[0, 0, 0, :] = False if m.dtype == np.bool_ else -np.inf
    return xs


def _bound(inst, xs):
    """The kernel's first-order error bound (docs/kernels.md, attention), with T keys: every score is
    within δ·(relative) of its f32 value, δ = (D+4)·U32·A + EXP_REL (+ 6·U32·softcap for tanh's 1.5 ULP
    and its division and product); A bounds |score| (the scaled |q|·|k| plus the largest finite |mask|);
    the sums over T keys add (T-1)·U32 each: |y - exact| <= M·(2δ + (2T + 1)·U32), M = Σ p_j |v_j|."""
    a, dims = inst.attrs, attention_dims(inst.shapes, inst.attrs)
    at = input_index(len(xs))
    wide = [np.asarray(x).astype(np.float64) if x.dtype != np.bool_ else x for x in xs]
    absq = [np.abs(x) if x.dtype != np.bool_ else x for x in wide]
    k_all = np.abs(wide[1]) if "past_key" not in at else np.concatenate([absq[at["past_key"]], absq[1]], axis=-2)
    q = absq[0].reshape(dims.batch, dims.s, dims.heads, dims.head_dim)
    k = k_all.reshape(dims.batch, dims.total, dims.kv_heads, dims.head_dim)
    k = np.repeat(k, dims.group, axis=2)
    big_a = np.einsum("bshd,bthd->bhst", q, k).max(axis=-1) * attention_scale(a)  # over every key, masked too
    if "mask" in at and xs[at["mask"]].dtype != np.bool_:
        m = np.abs(wide[at["mask"]])
        big_a = big_a + np.max(m[np.isfinite(m)], initial=0.0)
    delta = (dims.head_dim + 4) * U32 * big_a + EXP_REL + 6 * U32 * a["softcap"]
    rel = 2 * delta + (2 * dims.total + 1) * U32  # [B, H, S]
    rel = np.repeat(rel.transpose(0, 2, 1), dims.head_dim, axis=-1).reshape(xs[0].shape)
    mags = list(wide)
    for name in ("v", "past_value"):
        if name in at:
            mags[at[name]] = np.abs(wide[at[name]])
    return rel * _oracle(inst, mags)


@pytest.mark.parametrize("inst", INSTANCES, ids=[i.id for i in INSTANCES])
def test_host_kernel_within_its_bound(inst, kernels):
    xs = _inputs(inst, _rng(inst))
    got = kernels[inst.key](*xs)
    want = _oracle(inst, xs)
    assert not np.isnan(want).any()
    assert_within(inst, got, want, _bound(inst, xs))


@pytest.mark.parametrize("inst", [i for i in INSTANCES if "mask" in i.input_names], ids=lambda i: i.id)
def test_a_query_that_sees_no_key_is_nan_as_in_onnx(inst, kernels):
    """ONNX's reference: softmax over all -inf is exp(NaN) / NaN; the row is NaN, the others are not."""
    xs = _inputs(inst, _rng(inst), blocked_row=True)
    got, want = kernels[inst.key](*xs), _oracle(inst, xs)
    dims = attention_dims(inst.shapes, inst.attrs)
    nan = np.isnan(want.astype(np.float32)).reshape(dims.batch, dims.s, dims.heads, dims.head_dim)
    # the blocked (batch 0, query 0) row: every head when the mask broadcasts over heads, else head 0
    assert nan[0, 0, 0].all()
    assert np.array_equal(np.isnan(got.astype(np.float32)), np.isnan(want.astype(np.float32)))
    assert nan.sum() < nan.size


def test_grouped_query_heads_read_their_kv_head(kernels):
    """Query heads 0-3 read kv head 0, heads 4-7 kv head 1: changing kv head 1 moves only heads 4-7."""
    inst = INSTANCES[0]
    rng = _rng(inst)
    xs = _inputs(inst, rng)
    base = kernels[inst.key](*xs)
    moved = [x.copy() for x in xs]
    moved[1][..., 16:] += 1.0  # k's kv head 1
    out = kernels[inst.key](*moved).reshape(2, 1, 8, 16)
    base = base.reshape(2, 1, 8, 16)
    assert np.array_equal(out[:, :, :4], base[:, :, :4])
    assert not np.array_equal(out[:, :, 4:], base[:, :, 4:])


def test_the_cache_comes_before_the_new_keys():
    """A KV-cache instance equals the same instance with k = concat(past_key, k) (and v alike): the
    new cache is the concat of a graph node."""
    inst = INSTANCES[1]
    rng = _rng(inst)
    q, k, v, m, pk, pv = _inputs(inst, rng)
    with_cache = _oracle(inst, [q, k, v, m, pk, pv])
    whole = make_instance("attention", "f32", [q.shape, (9, 16), (9, 16), m.shape], inst.attrs)
    assert np.array_equal(with_cache, _oracle(whole, [q, np.concatenate([pk, k]), np.concatenate([pv, v]), m]))


def test_spec_errors_name_the_input_and_the_fix():
    f32 = "f32"
    with pytest.raises(OpError, match=r"kv_num_heads \(3\) must divide num_heads \(8\)"):
        make_instance("attention", f32, [(1, 128), (1, 48), (1, 48)], {"num_heads": 8, "head_dim": 16, "kv_num_heads": 3})
    with pytest.raises(OpError, match="k must be rank 2 with last dim kv_num_heads\\*head_dim = 2\\*16 = 32"):
        make_instance("attention", f32, [(1, 128), (1, 128), (1, 128)], GQA)
    with pytest.raises(OpError, match=r"mask \[1, 3, 1, 5\] does not broadcast to \[B, H, S, T\] = \[1, 8, 1, 5\]"):
        make_instance("attention", f32, [(1, 128), (1, 32), (1, 32), (1, 3, 1, 5), (4, 32), (4, 32)], GQA)
    with pytest.raises(OpError, match="past_key and past_value must hold as many tokens"):
        make_instance("attention", f32, [(1, 128), (1, 32), (1, 32), (4, 32), (3, 32)], GQA)
    with pytest.raises(OpError, match=r"takes 3 inputs \(q, k, v\), then optionally mask, then optionally past_key and past_value"):
        make_instance("attention", f32, [(1, 128)] * 7, GQA)
    with pytest.raises(AttrError, match="softcap"):
        make_instance("attention", f32, [(1, 128), (1, 32), (1, 32)], {**GQA, "softcap": -1.0})
    # the mask input's dtype follows mask_kind
    with pytest.raises(OpError, match="input 'mask' of 'attention' must be bool, got f32"):
        make_instance("attention", f32, [(1, 128), (1, 32), (1, 32), (1, 1)], GQA, input_dtypes=["f32"] * 4)


def test_spec_names_the_optional_inputs(tmp_path):
    """A spec entry names its optional inputs; half a group is one error at the entry's line."""
    from npubuild.core.errors import SpecError
    from npubuild.specfile.load import load_specs

    k = tmp_path / "specs" / "kernels" / "k.yaml"
    k.parent.mkdir(parents=True)
    k.write_text(
        "kernels:\n"
        "  dec:\n"
        "    op: attention\n"
        "    attrs: {num_heads: 8, head_dim: 16, kv_num_heads: 2}\n"
        "    shapes:\n"
        "      - {q: [1, 128], k: [1, 32], v: [1, 32], mask: [1, 5], past_key: [4, 32], past_value: [4, 32]}\n"
        "      - {q: [1, 128], k: [1, 32], v: [1, 32], past_key: [4, 32]}\n"
    )
    with pytest.raises(SpecError) as e:
        load_specs(tmp_path / "specs", tmp_path)
    assert [str(d) for d in e.value.diagnostics] == [
        "specs/kernels/k.yaml:7: kernel family 'dec': missing shape for input 'past_value' of 'attention'; add "
        "past_value: [..] (inputs: q, k, v, past_key, past_value)"
    ]
    k.write_text(k.read_text().replace("past_key: [4, 32]}", "past_key: [4, 32], past_valeu: [4, 32]}"))
    with pytest.raises(SpecError) as e:
        load_specs(tmp_path / "specs", tmp_path)
    assert [str(d) for d in e.value.diagnostics] == [
        "specs/kernels/k.yaml:7: kernel family 'dec': op 'attention' has no input 'past_valeu' (did you mean "
        "'past_value'?); inputs: 3 inputs (q, k, v), then optionally mask, then optionally past_key and past_value"
    ]
    k.write_text(k.read_text().rsplit("\n", 2)[0] + "\n")
    spec = load_specs(tmp_path / "specs", tmp_path)
    (inst,) = spec.families["dec"].instances
    assert inst.input_names == ("q", "k", "v", "mask", "past_key", "past_value")


def test_xdna_refuses_the_forms_its_design_does_not_cover():
    from npubuild.ops import REGISTRY, normalize_attrs

    xdna = targets.get("xdna")
    base = [(16, 64), (16, 64), (16, 64)]
    causal = normalize_attrs(REGISTRY["attention"], {"num_heads": 2, "head_dim": 32, "mask": "causal"})
    assert xdna.supports("attention", base, "bf16", causal) is None
    for shapes, attrs, said in [
        (base + [(16, 16)], {"num_heads": 2, "head_dim": 32}, "mask input"),
        ([(16, 64), (16, 32), (16, 32)], {"num_heads": 2, "head_dim": 32, "kv_num_heads": 1}, "kv_num_heads"),
        (base + [(4, 64), (4, 64)], {"num_heads": 2, "head_dim": 32}, "past_key"),
        (base, {"num_heads": 2, "head_dim": 32, "softcap": 30.0}, "softcap"),
    ]:
        attrs = normalize_attrs(REGISTRY["attention"], attrs)
        why = xdna.supports("attention", shapes, "bf16", attrs)
        assert why and said in why, (shapes, attrs, why)


DECODE = """\
graphs:
  decode_step:
    inputs:
      x: {shape: [1, 1, 128], dtype: f32}
      k_new: {shape: [1, 1, 32], dtype: f32}
      v_new: {shape: [1, 1, 32], dtype: f32}
      mask: {shape: [1, 1, 1, 38], dtype: bool}
      past_k: {shape: [1, 37, 32], dtype: f32}
      past_v: {shape: [1, 37, 32], dtype: f32}
    nodes:
      y: {op: attention, inputs: [x, k_new, v_new, mask, past_k, past_v], attrs: {num_heads: 8, head_dim: 16, kv_num_heads: 2}}
      present_k: {op: concat, inputs: [past_k, k_new], attrs: {axis: 1}}
      present_v: {op: concat, inputs: [past_v, v_new], attrs: {axis: 1}}
    outputs: [y, present_k, present_v]
"""


@pytest.mark.slow
def test_gqa_decode_step_with_a_kv_cache_and_a_bool_mask_builds_and_runs_on_ref_and_host(tmp_path):
    p = new_project(tmp_path / "proj", graphs=DECODE)
    r = p.doit("build")
    assert r.rc == 0, r.out + r.err
    rng = np.random.default_rng(3)
    feeds = {
        "x": rng.normal(size=(1, 1, 128)).astype(np.float32),
        "k_new": rng.normal(size=(1, 1, 32)).astype(np.float32),
        "v_new": rng.normal(size=(1, 1, 32)).astype(np.float32),
        "mask": rng.random((1, 1, 1, 38)) < 0.8,
        "past_k": rng.normal(size=(1, 37, 32)).astype(np.float32),
        "past_v": rng.normal(size=(1, 37, 32)).astype(np.float32),
    }
    feeds["mask"][..., -1] = True
    rt = npubuild.load(p.artifacts)
    outs = {b: rt.graph("decode_step", backend=b).run(**feeds) for b in ("ref", "host")}
    want = make_instance("attention", "f32", [v.shape for v in feeds.values()], GQA)
    y_ref = _oracle(want, list(feeds.values()))
    np.testing.assert_array_equal(outs["ref"]["y"], y_ref)
    np.testing.assert_allclose(outs["host"]["y"], y_ref, rtol=0, atol=1e-5)  # f32 sums of 38 terms vs float64
    for b in ("ref", "host"):
        np.testing.assert_array_equal(outs[b]["present_k"], np.concatenate([feeds["past_k"], feeds["k_new"]], axis=1))
        np.testing.assert_array_equal(outs[b]["present_v"], np.concatenate([feeds["past_v"], feeds["v_new"]], axis=1))
    assert math.isfinite(float(np.abs(outs["host"]["y"]).max()))
