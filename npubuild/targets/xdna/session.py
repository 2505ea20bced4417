"""What the xdna target keeps open for one runtime: the checked private copies of each kernel's
xclbin and insts, and (once a kernel runs) pyxrt, the NPU device, its hardware-context pool and
the byte counter of host-device transfers."""
from __future__ import annotations

from typing import Any, NamedTuple

from ...artifacts.abi import xdna_abi_problem
from ...core.errors import UserError
from ...runner.checks import check_gemm_abi


class XrtSession(NamedTuple):
    """Named fields: the runtime and the graph runner read ``pool`` and ``traffic`` by name."""

    pyxrt: Any
    device: Any
    pool: Any  # runner.xrt.ContextPool
    traffic: Any  # runner.xrt.Traffic
    info: dict


class XdnaState:
    def __init__(self):
        self.files: dict[str, dict] = {}  # kernel id -> its checked xdna binaries (private copies)
        self.xrt: XrtSession | None = None

    def close(self) -> None:
        if self.xrt is not None:
            self.xrt.pool.close()


def state(ctx) -> XdnaState:
    """``ctx``: the runtime's :class:`npubuild.runner.open_context.OpenContext`."""
    return ctx.session("xdna", XdnaState)


def status(ctx) -> tuple[bool, str | None]:
    """(usable, why not): pyxrt imports and a Ryzen AI NPU answers."""
    from ...runner import xrt

    if state(ctx).xrt is not None:
        return True, None
    info = xrt.probe()
    return (info["missing"] is None), info["missing"]


def session(ctx) -> XrtSession:
    st = state(ctx)
    if st.xrt is None:
        from ...runner import xrt

        pyxrt = xrt.import_pyxrt()
        if pyxrt is None:
            raise UserError(xrt.PYXRT_MISSING)
        info = xrt.probe(pyxrt)
        if info["missing"]:
            raise UserError(f"the xrt backend cannot run: {info['missing']}")
        device = pyxrt.device(0)
        traffic = xrt.Traffic()

        def open_hw(kernel_id: str):
            files = st.files[kernel_id]  # checked by binaries() when the kernel was opened, before any context
            return xrt.HwKernel(pyxrt, device, files["xclbin"], files["insts"], traffic, run_timeout=ctx.limits.xrt_run_timeout)

        pool = xrt.ContextPool(xrt.context_limit(info["family"], ctx.xrt_contexts), open_hw)
        st.xrt = XrtSession(pyxrt, device, pool, traffic, info)
    return st.xrt


def binaries(ctx, rec: dict) -> dict:
    """Private copies of the kernel's xclbin and insts, once its abi.json matches its record
    (``rec``: the kernel's checked manifest record, with ``id``, as ``open`` receives it)."""
    st = state(ctx)
    kernel_id = rec["id"]
    if kernel_id in st.files:
        return st.files[kernel_id]
    t = rec["targets"].get("xdna", {})
    files = t.get("files", {})
    if not t.get("compiled") or "xclbin" not in files or "insts" not in files:
        why = t.get("not_compiled") or "not built for xdna"
        raise UserError(f"kernel '{kernel_id}' has no xdna binary ({why})")
    if "abi_file" not in t:
        raise UserError(f"kernel '{kernel_id}': the manifest names no abi.json for xdna; delete manifest.json and run `doit build`")
    why = xdna_abi_problem(kernel_id, rec, ctx.read(t["abi_file"], f"kernel {kernel_id} [xdna abi]"))
    if why:
        raise UserError(f"kernel '{kernel_id}': {why}; refusing to run it (rebuild with `doit build`)")
    if rec["op"] == "matmul":
        check_gemm_abi(kernel_id, rec, t["abi"])
    pinned = {role: ctx.path(files[role], f"kernel {kernel_id} [xdna {role}]") for role in ("xclbin", "insts")}
    st.files[kernel_id] = pinned
    return pinned
