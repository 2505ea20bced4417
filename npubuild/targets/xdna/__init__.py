"""The ``xdna`` target: AIE-dialect MLIR per kernel, compiled by aiecc + Peano to an xclbin and
insts, run on a Ryzen AI NPU with pyxrt (the runtime calls it backend "xrt"). The build half
is :class:`.build.XdnaBuild`; the runtime half is here and in :mod:`.session`."""
from __future__ import annotations

from .build import XdnaBuild
from . import session


class XdnaTarget(XdnaBuild):
    name = "xdna"
    unit = "kernel"
    backend = "xrt"
    variants = ("npu1", "npu2")  # core.config's xdna_device values; one unit may be built for several
    needs_binary = True
    auto_rank = 0  # backend="auto" tries the NPU first
    graph_kind: str | None = None  # runs kernels, not whole graphs

    def open(self, record: dict, files):
        from ...runner import xrt

        kernel_id = record["id"]
        pool = session.session(files).pool  # files: the runtime's OpenContext, whose session() keeps the device
        binaries = session.binaries(files, record)
        if record.get("op") == "matmul":
            from ...runner import xrt_gemm

            if record.get("dtype") == "bf16":
                return xrt_gemm.XrtBf16GemmKernel(kernel_id, record, pool)
            return xrt_gemm.XrtGemmKernel(kernel_id, record, pool)
        return xrt.XrtKernel(kernel_id, record, binaries, pool)

    def auto_problem(self, ctx, lacking: list[str]) -> str | None:
        ok, why = session.status(ctx)
        if not ok:
            return f"xrt: {why}"
        return f"xrt: no xdna binary for {', '.join(lacking)}" if lacking else None

    def traffic(self, ctx):
        return session.session(ctx).traffic


TARGET = XdnaTarget()
