"""What the NPU toolchain would reject or miscompute, checked on every emitted design.

* No i64 memref crosses a shim DMA: ``aiex.npu.dma_memcpy_nd`` refuses elements
  wider than 32 bits (mlir-aie AIEXDialect.cpp, NpuDmaMemcpyNdOp::verify), so a
  runtime sequence never has one; i64/f16 kernels are refused at spec time.
* The body's scratch (``memref.alloca``) is on the core's stack: every core's
  ``stack_size`` is at least mlir-aie's default 0x400 plus the allocas of the body
  it calls, and the static checker counts that stack in the core's 64 KiB.

The sweep covers every op of the catalog (the same instances the design
simulation runs, plus per-channel quantisation and the GEMM overlay) on both
devices.
"""
from __future__ import annotations

import re
from pathlib import Path
import textwrap

import pytest

from npubuild.engine.targets import design_checks
from npubuild.emitters import aie
from npubuild.emitters.aie.check import design_layout, layout_problems
from npubuild.emitters.aie.design import Design
from npubuild.core.errors import SpecError
from npubuild.specfile.instances import make_instance
from npubuild.engine.plan import restriction_checks
from npubuild.specfile.load import load_specs

from .test_xdna_designs import CASES

PER_CHANNEL = [
    make_instance("quantize", "i8", [(8, 1024)], {"scales": [0.01] * 1024, "axis": 1, "zero_points": [3] * 1024}),
    make_instance("quantize", "i8", [(1, 4096)], {"scales": [0.01] * 4096, "axis": 1}),
    make_instance("dequantize", "i8", [(4, 512)], {"scales": [0.5] * 512, "axis": 1}),
]
GEMM = [make_instance("matmul", "i8", [(64, 256), (256, 256)], {}), make_instance("matmul", "i8", [(1, 4096), (4096, 512)], {})]
SWEEP = CASES + [(i, dev) for i in PER_CHANNEL + GEMM for dev in ("npu1", "npu2")]
IDS = [f"{i.id[:40]}@{d}" for i, d in SWEEP]

_ALLOCA = re.compile(r"memref\.alloca\(\) : memref<([^>]*)>")
_STACK = re.compile(r"\{stack_size = (\d+) : i32\}")
_ELEM = {"f32": 4, "i32": 4, "i8": 1, "i64": 8, "f16": 2}


def alloca_bytes(text: str) -> int:
    total = 0
    for ty in _ALLOCA.findall(text):
        *dims, elem = ty.split("x")
        n = _ELEM[elem]
        for d in dims:
            n *= int(d)
        total += n
    return total


def sequence_text(text: str) -> str:
    start = text.index("runtime_sequence(")
    return text[start : text.index("\n    }\n", start)]


@pytest.mark.parametrize("inst,device", SWEEP, ids=IDS)
def test_no_i64_across_the_shim_and_the_stack_holds_the_scratch(inst, device):
    text = aie.emit(inst, {"device": device})
    seq = sequence_text(text)
    assert "xi64>" not in seq and "xf16>" not in seq, seq
    assert "memref.alloc()" not in text  # no heap on a core
    stacks = [int(n) for n in _STACK.findall(text)]
    if inst.op == "transpose":  # DMA only (npubuild/emitters/aie/dma_transpose.py): no core, no stack
        assert not stacks and "aie.core(" not in text
        return
    assert stacks, "no aie.core with a stack_size"
    assert min(stacks) >= 1024 + alloca_bytes(text)


@pytest.mark.parametrize("inst,device", [c for c in SWEEP if c[0].op != "matmul"], ids=[i for c, i in zip(SWEEP, IDS) if c[0].op != "matmul"])
def test_the_core_budget_counts_the_stack(inst, device):
    d = aie.design_for(inst, {"device": device})
    if inst.op == "transpose":  # DMA only: no core whose budget a stack could break
        assert not d.cores and not layout_problems(design_layout(d))
        return
    assert isinstance(d, Design)
    assert d.stack >= 1024 + d.scratch and d.abi()["stack_size"] == d.stack
    lay = design_layout(d)
    assert lay.stack == d.stack and not layout_problems(lay)
    # the same design with one byte less memory for the stack than it needs is refused
    other = sum(f.depth * f.bytes for f in d.fifos if d.cores[0].tile in f.consumers or f.producer == d.cores[0].tile)
    other += sum(lay.local_bytes[t] for t in lay.local_bytes if t == d.cores[0].tile)
    lay.stack = d.device.core_memory - other + 1
    assert any("needs" in p and "bytes of buffers and stack" in p for p in layout_problems(lay))


def test_scratch_grows_the_stack():
    small = aie.design_for(make_instance("quantize", "i8", [(8, 64)], {"scales": [0.5] * 64, "axis": 1}), {"device": "npu1"})
    big = aie.design_for(PER_CHANNEL[0], {"device": "npu1"})
    assert small.scratch == 64 * 4 and small.stack == 1024 + 256
    assert big.scratch == 1024 * 4 + 1024 * 4  # f32 scales + i32 zero points
    assert big.stack == 1024 + big.scratch


def _project(tmp_path, family: str) -> None:
    (tmp_path / "specs" / "kernels").mkdir(parents=True)
    (tmp_path / "specs" / "kernels" / "k.yaml").write_text(textwrap.dedent(family))


def _errors(tmp_path) -> list[str]:
    with pytest.raises(SpecError) as e:
        load_specs(tmp_path / "specs", tmp_path, design_checks=design_checks(), restriction_checks=restriction_checks())
    return [str(d) for d in e.value.diagnostics]


def test_over_budget_per_channel_quantize_fails_at_spec_time_with_the_numbers(tmp_path):
    scales = ", ".join(["0.01"] * 4096)
    zps = ", ".join(["1"] * 4096)
    _project(tmp_path, f"""\
        kernels:
          q:
            op: quantize
            dtype: i8
            targets: [ref, xdna]
            attrs: {{axis: 1, scales: [{scales}], zero_points: [{zps}]}}
            shapes:
              - [2, 4096, 2]
        """)
    (msg,) = _errors(tmp_path)
    assert msg.startswith("specs/kernels/k.yaml:8: kernel family 'q': not supported on xdna: ")
    # 32768 B of f32 input + 8192 B of i8 output, 16 KiB of scales + 16 KiB of zero points on the stack
    assert "needs 74752 bytes of core data memory" in msg
    assert "33792 bytes of stack, of which 32768 bytes are the body's scratch" in msg
    assert "an AIE core has 65536" in msg


@pytest.mark.parametrize("family,fix", [
    ("op: relu\n    dtype: f16", "no f16 tensors (Peano compiles every 16-bit float as bfloat16"),
    ("op: abs\n    dtype: i64", "no i64 tensors (the NPU's shim DMA moves elements of at most 32 bits): use i32"),
    ("op: argmax", "argmax/argmin/gather: attrs index_dtype: i32"),
])
def test_f16_and_i64_fail_at_spec_time(tmp_path, family, fix):
    _project(tmp_path, f"kernels:\n  k:\n    {family}\n    targets: [ref, host, xdna]\n    shapes:\n      - [4, 64]\n")
    (msg,) = _errors(tmp_path)
    assert "is not supported on xdna" in msg and fix in msg and msg.startswith("specs/kernels/k.yaml:")


def test_argmax_with_i32_indices_builds_for_xdna():
    inst = make_instance("argmax", "f32", [(16, 256)], {"index_dtype": "i32"})
    assert inst.output.dtype == "i32"
    assert "memref<16xi32>" in sequence_text(aie.emit(inst, {"device": "npu2"}))


def test_no_golden_design_moves_i64():
    golden = sorted((Path(__file__).parent / "golden" / "xdna").glob("*.mlir"))
    assert golden
    for path in golden:
        text = path.read_text()
        assert "xi64>" not in sequence_text(text), path.name
        assert min(int(n) for n in _STACK.findall(text)) >= 1024 + alloca_bytes(text), path.name
