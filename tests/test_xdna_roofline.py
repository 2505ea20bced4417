"""The xdna roofline model (npubuild/emitters/aie/roofline.py): its arithmetic on hand-checked cases, the
bound it picks, the bytes per run with weights included, what ``npubuild list`` shows, and the bench's
last line."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from npubuild.emitters.aie import design_for
from npubuild.emitters.aie.devices import DEVICES
from npubuild.emitters.aie.roofline import VECTOR_OP_CYCLES, DISPATCH_US, SOFTFLOAT_CYCLES, count_ops, design_facts, roofline
from npubuild.emitters.aie.summary import one_line, summary
from npubuild.specfile.instances import make_instance

from .conftest import new_project
from .test_xdna_toolchain import clean_env  # noqa: F401  (fixture)

REPO = Path(__file__).resolve().parents[1]
ELTWISE_IDEAL = {"in_bytes": 524288, "out_bytes": 524288, "dtype": "bf16", "elements": 262144}  # 64x4096 bf16 in, out


def facts(device="npu1", shim=131072, core=32768, work=None, ideal=ELTWISE_IDEAL, dispatches=1):
    return {"device": device, "cores": 16, "dispatches_per_run": dispatches,
            "dma": {"shim": {"bytes": shim, "fifo": "x_c0_shim"}, "core": {"bytes": core, "fifo": "x_c0_r0"}},
            "work": work or {"kind": "generated", "vector_ops": 1024, "softfloat_ops": 0, "scalar_ops": 0},
            "ideal": ideal}


# ---- arithmetic -----------------------------------------------------------------------------------------------


def test_a_dma_bound_elementwise_op():
    r = roofline(facts(shim=524288))
    # 512 KiB on the busiest shim channel at 4 B/cycle and 1 GHz: 131072 cycles = 131.072 µs
    assert r["terms_us"]["shim DMA @x_c0_shim"] == 131.072
    assert r["terms_us"]["core DMA @x_c0_r0"] == 8.192 and r["terms_us"]["compute"] == 1.024
    assert r["bound"] == "shim DMA @x_c0_shim"
    assert r["us_per_run"] == 131.072 + DISPATCH_US
    # ideal: 512 KiB over npu1's 4 x 2 shim channels = 16384 cycles; its compute 262144 / (16 cores x 32 lanes) = 512
    assert r["ideal_us"] == 16.384 and r["fraction"] == 0.125
    # the same traffic on npu2: 1.5 GHz
    assert roofline(facts(device="npu2", shim=524288))["terms_us"]["shim DMA @x_c0_shim"] == round(131072 / 1.5e3, 3)
    # below one dispatch's fixed cost, that cost is the bound
    assert roofline(facts())["bound"] == "dispatch overhead"


def test_a_compute_bound_gemm_on_both_devices():
    gemm = {"kind": "matmul", "dtype": "i8", "macs": 1 << 24}
    ideal = {"in_bytes": 2 << 20, "out_bytes": 4 << 20, "dtype": "i8", "macs": 16 * (1 << 24)}
    r1 = roofline(facts(work=gemm, ideal=ideal))
    assert r1["bound"] == "compute" and r1["terms_us"]["compute"] == 65.536  # 2^24 MACs / 256 per cycle at 1 GHz
    # the ideal: 16 cores at 256 MACs/cycle = the same 65536 cycles; its DMA (4 MiB out over 8 channels) 131.072 µs
    assert r1["ideal_us"] == 131.072 and r1["fraction"] == 1.0
    r2 = roofline(facts(device="npu2", work=gemm, ideal=ideal))
    assert r2["terms_us"]["compute"] == round((1 << 24) / 512 / 1.5e3, 3)  # 512 MACs/cycle at 1.5 GHz
    bf16 = roofline(facts(work={**gemm, "dtype": "bf16"}, ideal=ideal))
    assert bf16["terms_us"]["compute"] == 131.072  # 128 bf16 MACs per cycle on AIE2


def test_a_scalar_soft_float_body():
    work = {"kind": "generated", "vector_ops": 0, "softfloat_ops": 10000, "scalar_ops": 500}
    r = roofline(facts(shim=4, core=4, work=work))
    assert r["terms_us"]["soft-float"] == (10000 * SOFTFLOAT_CYCLES + 500) / 1000
    assert r["bound"] == "soft-float"


def test_bound_selection_names_the_largest_term():
    assert roofline(facts(shim=4 << 20))["bound"] == "shim DMA @x_c0_shim"
    assert roofline(facts(shim=4, core=1 << 22))["bound"] == "core DMA @x_c0_r0"
    lib = roofline(facts(shim=4, core=4, work={"kind": "mlir-aie kernel", "vectors": 10**6}))
    assert lib["bound"] == "compute" and lib["terms_us"]["compute"] == 1000.0  # one cycle per vector
    many = roofline(facts(shim=4, core=4, dispatches=100))
    assert many["bound"] == "dispatch overhead" and many["terms_us"]["dispatch overhead"] == 100 * DISPATCH_US
    # every dispatch beyond the first counts against the fraction, the first against neither side
    assert many["design_us"] == pytest.approx(many["array_us"] + 99 * DISPATCH_US, abs=1e-3)


def test_count_ops_runs_each_op_as_often_as_its_loops():
    text = """
    func.func @kernel(%a: memref<4x64xbf16>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %s = arith.mulf %x, %y : f32
        scf.for %j = %c0 to %c64 step %c16 {
          %v = arith.addf %p, %q : vector<16xf32>
          %w = arith.extf %r : vector<16xbf16> to vector<16xf32>
        }
        %k = arith.addi %m, %n : i32
      }
      return
    }
    """
    assert count_ops(text) == {"vector_ops": 4 * 4 * 2, "softfloat_ops": 4, "scalar_ops": 4}


def test_an_f32_vector_multiply_is_its_aie2_emulation_unless_both_operands_are_widened_bf16():
    text = """
      %a = arith.extf %x : vector<16xbf16> to vector<16xf32>
      %b = arith.extf %y : vector<16xbf16> to vector<16xf32>
      %p = arith.mulf %a, %b : vector<16xf32>
      %q = arith.mulf %p, %a : vector<16xf32>
      %r = arith.mulf %x, %y : vector<16xbf16>
    """
    # AIEVecToLLVM's MulElemOpConversion (accuracy-safe): 25 instructions for %q on aie2; %p is one
    # bf16 mul_elem (test_mul_elem.mlir, test_mul_elem_bf16_float); aie2p multiplies f32 natively
    assert count_ops(text, "aie2")["vector_ops"] == 2 + 1 + VECTOR_OP_CYCLES[("aie2", "mulf", "f32")] + 1 == 29
    assert count_ops(text, "aie2p")["vector_ops"] == count_ops(text)["vector_ops"] == 5


# ---- the designs: bytes per run, weights included ---------------------------------------------------------------


def test_a_gemm_counts_its_weight_every_time_the_dma_reads_it():
    inst = make_instance("matmul", "i8", [(512, 512), (512, 512)], {})
    s = summary(inst, {"device": "npu1"})
    w = design_for(inst, {"device": "npu1"})
    mp, kp, np_ = w.padded
    assert s["bytes_per_run"] == mp * kp + mp * np_ * 4  # the resident-weight count, unchanged
    b = s["bytes_by_buffer"]
    assert b["b_codes"] == kp * np_ * w.row_blocks  # B read once per row block of C
    assert b["a_codes"] == mp * kp * w.n_tiles  # A read once per N-tile
    assert b["c_acc"] == mp * np_ * 4
    shim = s["roofline"]["facts"]["shim_channels"]  # one stream per shim channel: A and B in, C out per column
    assert sum(v[2] for v in shim.values()) == s["bytes_per_run_total"]
    assert {v[1] for k, v in shim.items() if k.startswith("C_")} == {"out"} and len(shim) == 3 * w.cols
    assert s["bytes_per_run_total"] == sum(b.values()) > s["bytes_per_run"] + kp * np_ - 1
    assert f"{s['bytes_per_run_total'] / 2**20:.1f} MiB" in one_line(s)


@pytest.mark.parametrize("op, shapes, params", [
    ("rms_norm", [(64, 4096), (4096,)], ("gamma",)),
    ("layer_norm", [(64, 4096), (4096,), (4096,)], ("gamma", "beta")),
])
def test_a_norm_counts_its_parameters(op, shapes, params):
    inst = make_instance(op, "bf16", shapes, {})
    s = summary(inst, {"device": "npu1"})
    d = design_for(inst, {"device": "npu1"})
    got = {k: v for k, v in s["bytes_by_buffer"].items() if any(p in k for p in params)}
    # the parameters' buffer goes to each used column once (a broadcast to its cores), or, riding each group's
    # input stream ahead of the rows, once per core (design.py: the transfer repeated once per core of the group)
    copies = len(d.cores) if any(c.preamble for c in d.cores) else d.columns
    assert sum(got.values()) == 4096 * 2 * len(params) * copies
    assert s["bytes_per_run_total"] == 2 * 64 * 4096 * 2 + sum(got.values())
    r = s["roofline"]
    assert r["bound"] in r["terms_us"] and 0 < r["fraction"] <= 1 and r["us_per_run"] > DISPATCH_US


def test_every_design_kind_is_modelled():
    cases = [("add", "bf16", [(64, 4096)] * 2), ("relu", "f32", [(32, 1024)]), ("softmax", "bf16", [(64, 4096)]),
             ("matmul", "bf16", [(2048, 2048), (2048, 2048)]), ("matmul", "i8", [(1, 4096), (4096, 1024)])]
    for op, dt, shapes in cases:
        for device in ("npu1", "npu2"):
            s = summary(make_instance(op, dt, shapes, {}), {"device": device, "body": "auto"})
            r = s["roofline"]
            assert "error" not in r, (op, device, r)
            assert set(r) >= {"us_per_run", "bound", "fraction", "array_us", "ideal_us", "terms_us", "facts"}
            assert "model " in one_line(s) and "of roofline" in one_line(s)


def test_the_blocked_overlay_counts_every_dispatch():
    inst = make_instance("matmul", "i8", [(64, 64), (64, 1 << 17)], {})  # too many N-tiles for one whole-array dispatch
    s = summary(inst, {"device": "npu1"})
    n = s["dispatches_per_run"]
    assert n > 1 and s["roofline"]["facts"]["dispatches_per_run"] == n
    assert s["bytes_per_run_total"] % n == 0 and s["bytes_per_run_total"] > s["bytes_per_run"]  # B's tiles too
    r = s["roofline"]
    assert r["terms_us"]["dispatch overhead"] == n * DISPATCH_US
    assert r["us_per_run"] == pytest.approx(r["array_us"] + n * DISPATCH_US, abs=1e-2)


# ---- npubuild list ------------------------------------------------------------------------------------------------


SPEC = """\
kernels:
  norm:
    op: rms_norm
    dtype: bf16
    targets: [ref, xdna]
    shapes:
      - {x: [64, 4096], gamma: [4096]}
  gemm:
    op: matmul
    dtype: i8
    targets: [ref, xdna]
    shapes:
      - {a: [512, 512], b: [512, 512]}
"""


def test_list_shows_the_model_and_the_total_bytes(tmp_path, clean_env):  # noqa: F811
    p = new_project(tmp_path / "proj", SPEC, targets=("ref",))
    doc = json.loads(p.npubuild("list", "--json").out)["kernels"]
    assert {"rms_norm_bf16_64x4096_4096", "matmul_i8_512x512_512x512"} <= set(doc), sorted(doc)
    for kid in ("rms_norm_bf16_64x4096_4096", "matmul_i8_512x512_512x512"):
        x = doc[kid]["xdna"]
        assert x["bytes_per_run_total"] >= x["bytes_per_run"]
        assert {"us_per_run", "bound", "fraction"} <= set(x["roofline"])
    gemm = doc["matmul_i8_512x512_512x512"]["xdna"]
    assert gemm["bytes_by_buffer"]["b_codes"] >= 512 * 512  # the weight is in the total
    text = p.npubuild("list").out
    line = next(l for l in text.splitlines() if "rms_norm_bf16_64x4096_4096" in l)
    assert re.search(r"xdna: 16 cores, [^,]+, 1 dispatch, [\d.]+ MiB \(model [\d.]+ (ms|µs)/run, .+-bound, [\d.e-]+ of roofline\)", line), line


# ---- the bench ------------------------------------------------------------------------------------------------------


def test_the_bench_ends_with_its_summary_line():
    r = subprocess.run([sys.executable, str(REPO / "bench" / "xdna_model.py"), "--ops", "add", "softmax",
                        "--gemms", "512x512x512", "--transposes", "bf16"], capture_output=True, text=True, timeout=600,
                       cwd=REPO)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert re.fullmatch(r"xdna model: 9 kernels, min fraction of roofline \d\.\d{4}, min ratio to mlir-aie \d+\.\d{4}",
                        lines[-1]), lines[-1]
    assert sum("ml/eltwise_add/eltwise_add.py" in ln for ln in lines) == 2
    assert sum("whole_array/whole_array.py" in ln for ln in lines) == 4
    # a bf16 transpose is built for npu1 only: npu2's row says why instead of a figure
    assert sum("combined_transpose/combined_transpose.py" in ln for ln in lines) == 1
    assert any(ln.startswith("transpose bf16") and "npu2" in ln and "not built: a bf16 transpose runs on npu1 only" in ln
               for ln in lines)


def test_each_microkernel_call_loads_and_stores_its_c_tile():
    from npubuild.emitters.aie.roofline import FIGURES, compute_cycles

    f1, f2 = FIGURES["npu1"], FIGURES["npu2"]
    # AM020: two 256-bit loads and one 256-bit store per cycle; AM027: 512-bit each
    assert f1.accumulator_cycles(64, 64) == 64 * 64 * 4 * (1 / 64 + 1 / 32) == 768
    assert f2.accumulator_cycles(64, 64) == 384
    work = {"kind": "matmul", "dtype": "bf16", "macs": 64 * 32 * 64 * 10, "calls": 10, "core_tile": [64, 64]}
    assert compute_cycles(work, f1) == (64 * 32 * 64 * 10 / 128 + 10 * 768, 0.0)


def test_the_whole_array_tile_is_the_fastest_modelled_candidate_that_passes_the_checks():
    from npubuild.emitters.aie.gemm import _modelled, overlay_for
    from npubuild.emitters.aie.gemm_whole import candidates, whole_array_problems

    inst = make_instance("matmul", "bf16", [(512, 512), (512, 512)], {})
    dev = DEVICES["npu1"]
    w = overlay_for(inst, dev)
    ok = [c for c in candidates(inst.id, dev, 512, 512, 512, (512, 512), (512, 512), "bf16") if not whole_array_problems(c)]
    best = min(_modelled(inst, c)[0] for c in ok)
    assert _modelled(inst, w)[0] == best
    facts = design_facts(inst, w, w.abi())["work"]
    assert facts["calls"] == w.tiles_per_core * w.k_blocks and facts["core_tile"] == [w.tm, w.tn]
