"""The xdna roofline model's figures for a fixed set of kernels, beside mlir-aie's own example designs.

    python bench/xdna_model.py [--ops softmax add ...] [--gemms 512x512x512 ...] [--devices npu1 npu2]

Nothing runs on an NPU: every figure is the analytic model of npubuild/emitters/aie/roofline.py
(docs/performance.md, "The xdna roofline"), applied to the design npubuild emits today (xdna_bodies
"auto", as a project gets by default) and to a model of the mlir-aie example design for the same op on
the same device. Measured per kernel and device: modelled time per run, its bound, bytes the shim DMAs
move per run (weights included), the fraction of the device's roofline, the same time and fraction
for mlir-aie's example, and the ratio mlir-aie time / npubuild time (> 1: npubuild's design is modelled
faster). The mlir-aie examples (structure read from their sources, see REFERENCES) are modelled with
the same figures: their shim and core DMA channel loads, their cores at the floor of one vector
instruction per ``lanes`` elements (their kernels' instruction counts are not modelled), a GEMM as
npubuild's own whole-array planner builds whole_array.py's structure at whole_array's tile.

The last line: ``xdna model: N kernels, min fraction of roofline F, min ratio to mlir-aie R``.
"""
from __future__ import annotations

import argparse
import sys
from math import prod
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from npubuild.core.constants import DTYPE_BYTES  # noqa: E402
from npubuild.core.errors import UnsupportedOnTarget  # noqa: E402
from npubuild.emitters.aie import design_for  # noqa: E402
from npubuild.emitters.aie.devices import DEVICES  # noqa: E402
from npubuild.emitters.aie.kernel_library import entries  # noqa: E402
from npubuild.emitters.aie.roofline import VECTOR_BYTES, design_facts, ideal_facts, roofline  # noqa: E402
from npubuild.emitters.aie.summary import summary  # noqa: E402
from npubuild.specfile.instances import make_instance  # noqa: E402

OPS = ["softmax", "rms_norm", "layer_norm", "gelu", "silu", "relu", "sigmoid", "tanh", "exp", "abs", "neg",
       "add", "mul", "max"]
GEMMS = ["64x4096x4096", "512x512x512", "2048x2048x2048", "1x4096x1024"]
# 2-D transposes: f32 by the DMAs alone, bf16 with a core shuffle (npu1 only: refused on npu2, and said so)
TRANSPOSES = ["f32", "bf16"]
SHAPE = (64, 4096)
EX = "Xilinx/mlir-aie programming_examples/"
# op -> (example file, structure): cols None = every column of the device; in_ch / out_ch: shim channels
# per used column for the streamed tensor(s) in / out; cores per used column
REFERENCES = {
    "softmax": (EX + "ml/softmax/softmax_whole_array_placed.py", dict(cols=4, cores=4, in_ch=1, out_ch=1)),
    "rms_norm": (EX + "ml/rmsnorm/rmsnorm.py", dict(cols=4, cores=2, in_ch=2, out_ch=2)),
    "layer_norm": (EX + "ml/layernorm/layernorm.py", dict(cols=1, cores=1, in_ch=1, out_ch=1)),
    "unary": (EX + "ml/eltwise_unary/eltwise_unary.py", dict(cols=None, cores=2, in_ch=2, out_ch=2)),
    "binary": (EX + "ml/eltwise_add/eltwise_add.py", dict(cols=1, cores=2, in_ch=2, out_ch=1)),
    "gemm": (EX + "basic/matrix_multiplication/whole_array/whole_array.py", None),
    "gemv": (EX + "basic/matrix_multiplication/matrix_vector/matrix_vector.py", None),
    # dma_transpose.py: one column, the shim's transposing read on one channel, no core;
    # combined_transpose.py: one column, one core (transpose.cc's shuffles), one channel each way
    "transpose f32": (EX + "basic/dma_transpose/dma_transpose.py", dict(cols=1, cores=0, in_ch=1, out_ch=1)),
    "transpose bf16": (EX + "basic/combined_transpose/combined_transpose.py", dict(cols=1, cores=1, in_ch=1, out_ch=1)),
}
# gelu in the form mlir-aie's only gelu kernels compute (aie_kernels/aie2/gelu.cc, aie2p/gelu.cc: the tanh
# approximation), so both columns compute the same function. The erf form (approximate=none) runs npubuild's bf16
# polynomial (emitters/host/gelu_lanes.py) with no mlir-aie example to compare; its npu1 body models at 0.19 of the
# roofline (npu2: 0.62), under the set's 0.5 bar, so it is left out (docs/performance.md gives its figures).
ATTRS = {"gelu": {"approximate": "tanh"}}
REF_TILE = (64, 64, 32)  # whole_array's default m x k x n tile (research notes xdna-review-2.md, item 7)


def instance(op: str, dtype: str = "bf16", gemm: str | None = None):
    if gemm:
        m, k, n = map(int, gemm.split("x"))
        return make_instance("matmul", dtype, [(m, k), (k, n)], {})
    if op == "transpose":
        return make_instance(op, dtype, [SHAPE], {"perm": [1, 0]})
    shapes = {"rms_norm": [SHAPE, SHAPE[-1:]], "layer_norm": [SHAPE, SHAPE[-1:], SHAPE[-1:]],
              "add": [SHAPE, SHAPE], "mul": [SHAPE, SHAPE], "max": [SHAPE, SHAPE]}.get(op, [SHAPE])
    return make_instance(op, dtype, shapes, ATTRS.get(op, {}))


def reference(inst, device: str) -> tuple[str, dict]:
    """(the example's file, its roofline) for ``inst`` on ``device``."""
    dev = DEVICES[device]
    if inst.op == "matmul":
        m, k = inst.inputs[0].shape
        n = inst.inputs[1].shape[1]
        if m == 1:  # matrix_vector.py: one core; the matrix on one shim channel, the vector re-sent per m-row block
            path = REFERENCES["gemv"][0]
            eb = DTYPE_BYTES[inst.dtype]
            facts = {"device": device, "cores": 1, "dispatches_per_run": 1,
                     "dma": {"shim": {"bytes": k * n * eb, "fifo": "memA0"}, "core": {"bytes": k * n * eb, "fifo": "memA0"}},
                     "work": {"kind": "matmul", "dtype": inst.dtype, "macs": k * n}, "ideal": ideal_facts(inst)}
            return path, roofline(facts)
        from npubuild.emitters.aie.gemm_whole import WholeArray

        tm, tk, tn = REF_TILE
        w = WholeArray(inst.id, dev, m, k, n, tm, tk, tn, dev.columns, in_dtype=inst.dtype)
        return REFERENCES["gemm"][0], roofline(design_facts(inst, w, w.abi()))
    if inst.op == "transpose":
        path, s = REFERENCES[f"transpose {inst.dtype}"]
        nbytes = prod(inst.output.shape) * DTYPE_BYTES[inst.dtype]
        facts = {"device": device, "cores": s["cores"], "dispatches_per_run": 1,
                 "dma": {"shim": {"bytes": nbytes, "fifo": "in"}}, "work": {"kind": "dma only"}, "ideal": ideal_facts(inst)}
        if s["cores"]:
            facts["dma"]["core"] = {"bytes": nbytes, "fifo": "core in"}
            facts["work"] = {"kind": "mlir-aie kernel", "vectors": -(-prod(inst.output.shape) // (VECTOR_BYTES // 2))}
        return path, roofline(facts)
    key = inst.op if inst.op in REFERENCES else ("binary" if len(inst.inputs) == 2 else "unary")
    path, s = REFERENCES[key]
    cols = s["cols"] or dev.columns
    eb = DTYPE_BYTES[inst.dtype]
    elems = prod(inst.output.shape)
    streamed_in = elems * eb * (2 if key == "binary" else 1)
    cores = cols * s["cores"]
    lib = next((e for e in entries(inst.op, dev.arch) if e.dtype == inst.dtype), None)
    lanes = lib.lanes if lib else VECTOR_BYTES // eb
    facts = {"device": device, "cores": cores, "dispatches_per_run": 1,
             "dma": {"shim": {"bytes": max(streamed_in // (cols * s["in_ch"]), elems * eb // (cols * s["out_ch"])),
                              "fifo": "in"},
                     "core": {"bytes": elems * eb // cores, "fifo": "core in"}},
             "work": {"kind": "mlir-aie kernel", "vectors": -(-elems // cores // lanes)},
             "ideal": ideal_facts(inst)}
    return path, roofline(facts)


def ms(us: float) -> str:
    return f"{us / 1000:9.3f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", nargs="*", default=OPS)
    ap.add_argument("--gemms", nargs="*", default=GEMMS)
    ap.add_argument("--transposes", nargs="*", default=TRANSPOSES)
    ap.add_argument("--devices", nargs="*", default=list(DEVICES))
    args = ap.parse_args(argv)
    cases = ([(op, "bf16", None) for op in args.ops] + [("matmul", dt, g) for g in args.gemms for dt in ("i8", "bf16")]
             + [("transpose", dt, None) for dt in args.transposes])
    print("xdna roofline model (no NPU: analytic; figures and sources in docs/performance.md)")
    print(f"{'kernel':<26} {'dev':<5} {'ms/run':>9} {'MiB':>7} {'fraction':>9} {'bound':<26} "
          f"{'mlir-aie ms':>11} {'fraction':>9} {'ratio':>7}  mlir-aie example")
    fractions, ratios, examples = [], [], {}
    for op, dt, g in cases:
        inst = instance(op, dt, g)
        form = "".join(f"({v})" for v in ATTRS.get(op, {}).values()) if not g else ""
        name = f"{op}{form} {dt} {g or 'x'.join(map(str, SHAPE))}"
        for device in args.devices:
            opts = {"device": device, "body": "auto"}
            try:
                d = design_for(inst, opts)
            except UnsupportedOnTarget as e:  # not built on this device (bf16 transpose on npu2): say so, no row
                print(f"{name:<26} {device:<5} not built: {str(e).split(': ', 1)[-1][:110]}")
                continue
            s = summary(inst, opts, d.abi())
            r = s["roofline"]
            path, ref = reference(inst, device)
            examples[path] = True
            ratio = ref["design_us"] / r["design_us"]
            fractions.append(r["fraction"])
            ratios.append(ratio)
            print(f"{name:<26} {device:<5} {ms(r['us_per_run'])} {s['bytes_per_run_total'] / 2**20:7.2f} "
                  f"{r['fraction']:9.4f} {r['bound'][:26]:<26} {ms(ref['us_per_run']):>11} {ref['fraction']:9.4f} "
                  f"{ratio:7.3f}  {path.rsplit('programming_examples/', 1)[-1]}")
    print("(ms/run includes one dispatch's fixed cost; fraction = ideal / design array time, the first dispatch "
          "excluded; ratio = mlir-aie's modelled time / npubuild's)")
    print(f"xdna model: {len(fractions)} kernels, min fraction of roofline {min(fractions):.4f}, "
          f"min ratio to mlir-aie {min(ratios):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
