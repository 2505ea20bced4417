"""Emitted aie.mlir of a representative kernel per op family, for npu1 and npu2,
against golden files (tests/golden/xdna/). A change to a design shows up here
as a diff to review; regenerate with NPUBUILD_UPDATE_GOLDEN=1 after checking it."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from npubuild.emitters import aie
from npubuild.specfile.instances import make_instance

GOLDEN = Path(__file__).parent / "golden" / "xdna"

REPRESENTATIVES = {
    "unary": ("gelu", "f32", [(8, 1024)], {"approximate": "tanh"}),
    "binary": ("add", "f32", [(4096,), (4096,)], {}),
    "compare": ("lt", "f32", [(1024,), (1024,)], {}),
    "cast": ("cast", "f32", [(1024,)], {"to": "i32"}),
    "select": ("where", "f32", [(8192,), (8192,), (8192,)], {}),
    "normalize": ("layer_norm", "f32", [(32, 256), (256,), (256,)], {}),
    "reduce": ("reduce_max", "f32", [(64, 128)], {}),
    "scan": ("cumsum", "f32", [(16, 256)], {}),
    "arg": ("argmax", "f32", [(16, 256)], {"index_dtype": "i32"}),
    "movement": ("pad", "f32", [(16, 60)], {"pads": [[0, 0], [2, 2]]}),
    "rope": ("rope", "f32", [(16, 128), (16, 16), (16, 16)], {"head_dim": 32}),
    "attention": ("attention", "f32", [(16, 64), (16, 64), (16, 64)], {"num_heads": 1, "head_dim": 64, "mask": "causal"}),
    "im2col": ("im2col", "f32", [(1, 2, 6, 6)], {"kernel_size": [3, 3]}),
    "pool": ("pool", "f32", [(1, 2, 8, 8)], {"mode": "max", "kernel_size": [2, 2]}),
    "quant": ("quantize", "i8", [(32, 64)], {"scales": [0.02]}),
    "matmul": ("matmul", "i8", [(64, 256), (256, 256)], {}),
}
CASES = [(fam, dev) for fam in REPRESENTATIVES for dev in ("npu1", "npu2")]


@pytest.mark.parametrize("family,device", CASES, ids=[f"{f}@{d}" for f, d in CASES])
def test_golden(family, device):
    op, dt, shapes, attrs = REPRESENTATIVES[family]
    text = aie.emit(make_instance(op, dt, shapes, attrs), {"device": device})
    path = GOLDEN / f"{family}@{device}.mlir"
    if os.environ.get("NPUBUILD_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.is_file(), f"{path} missing; run with NPUBUILD_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(), f"{family}@{device}: emitted design differs from {path.name}"


def test_every_family_has_a_representative():
    from npubuild.emitters.aie.devices import NO_XDNA_DESIGN
    from npubuild.ops import REGISTRY

    from npubuild.targets.xdna.rules import NO_DESIGN

    # a family whose ops all lack an NPU design has no design to keep
    assert {o.family for o in REGISTRY.values() if o.name not in NO_DESIGN} <= set(REPRESENTATIVES)
