"""The ``xdna`` target: AIE-dialect MLIR per kernel, compiled by aiecc + Peano to an xclbin and
insts, run on a Ryzen AI NPU with pyxrt (the runtime calls it backend "xrt"). The build half
is :class:`.build.XdnaBuild`; the runtime half is here and in :mod:`.session`."""
from __future__ import annotations

from ...artifacts.abi import design_entries
from ...core.errors import UserError
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

    # -- the NPU session, for the runtime's helpers (Runtime.xrt_status, xrt_session ...) ----------------
    @staticmethod
    def status(ctx) -> tuple[bool, str | None]:
        return session.status(ctx)

    @staticmethod
    def device_session(ctx):
        return session.session(ctx)

    @staticmethod
    def open_session(ctx):
        """The pyxrt session this runtime has open, or None."""
        return session.state(ctx).xrt

    def kernel_binaries(self, ctx, record: dict) -> dict:
        """Checked private copies of the xclbin and insts of ``record``'s design for the NPU that answers."""
        return session.binaries(ctx, self.design_record(record, session.session(ctx).info.get("family")))

    def open(self, record: dict, files):
        from ...runner import xrt

        record = self.design_record(record, session.session(files).info.get("family"))
        kernel_id = record["id"]
        pool = session.session(files).pool  # files: the runtime's OpenContext, whose session() keeps the device
        binaries = session.binaries(files, record)
        if record.get("op") == "matmul":
            from ...runner import xrt_gemm

            if record.get("dtype") == "bf16":
                return xrt_gemm.XrtBf16GemmKernel(kernel_id, record, pool)
            return xrt_gemm.XrtGemmKernel(kernel_id, record, pool)
        return xrt.XrtKernel(kernel_id, record, binaries, pool)

    @staticmethod
    def design_record(record: dict, family: str | None) -> dict:
        """The record with, as its ``xdna`` entry, the design built for the NPU that answered (its ABI names the
        device): the kernel's one ``xdna`` design, or its ``xdna.<device>`` one (built for several devices:
        ``device: [npu1, npu2]``). A design for another NPU generation is refused: its xclbin would not load."""
        designs = [(entry.get("abi", {}).get("device") or label.partition(".")[2], label, entry)
                   for label, entry in design_entries(record, "xdna")]
        for device, label, entry in designs:
            if family is None or device == family:
                return record if label == "xdna" else {**record, "targets": {**record["targets"], "xdna": entry}}
        built = ", ".join(device for device, _, _ in designs) or "none"
        raise UserError(f"kernel '{record['id']}' has xdna designs for {built}, and this NPU is {family or 'of an unknown family'}: "
                        f"add {family or 'its device'} to the family's device list (device: [..., {family or 'npu2'}]) and build again")

    def auto_problem(self, ctx, lacking: list[str]) -> str | None:
        ok, why = session.status(ctx)
        if not ok:
            from ...runner.xrt import PYXRT_MISSING

            # said on every run that falls back: the short form (`--backend xrt` and `npubuild doctor` give the long one)
            return "xrt: pyxrt is not importable (`npubuild doctor` says how to install it)" if why == PYXRT_MISSING else f"xrt: {why}"
        return f"xrt: no xdna binary for {', '.join(lacking)}" if lacking else None

    def traffic(self, ctx):
        return session.session(ctx).traffic


TARGET = XdnaTarget()
