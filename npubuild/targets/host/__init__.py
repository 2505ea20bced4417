"""The ``host`` target: standard-dialect MLIR compiled to a shared library and run with ctypes.
The build half is :class:`.build.HostBuild`; ``open`` loads the checked private copy of the kernel's
``kernel.so``."""
from __future__ import annotations

from ...core.constants import NUMPY_DTYPE
from ...core.errors import UserError
from .build import HostBuild


class HostTarget(HostBuild):
    name = "host"
    unit = "kernel"
    backend = "host"
    variants: tuple[str, ...] = ()
    needs_binary = True
    auto_rank = 1
    graph_kind: str | None = None  # runs kernels, not whole graphs

    def open(self, record: dict, files):
        host = self._open_library(record, files)
        if record.get("op") != "matmul" or record.get("dtype") != "i8":
            return host
        # int8 matmul: the blocked GEMM of npubuild.runner.gemm over the library's gemm_tile
        from ...runner.gemm import GemmKernel

        return GemmKernel(record, lambda g: tile_dispatch(host, g), closer=host)

    @staticmethod
    def _open_library(record: dict, files):
        from ...runner.host import HostKernel

        kernel_id = record["id"]
        binaries = record.get("targets", {}).get("host", {}).get("files", {})
        if "binary" not in binaries:
            why = record.get("unavailable", {}).get("host", "not built for host")
            raise UserError(f"kernel '{kernel_id}' has no host binary ({why})")
        binary = binaries["binary"]
        path = files.path(binary, f"kernel {kernel_id} [host binary]")
        return HostKernel(path, record, origin=binary["path"], require_abi=True)

    def auto_problem(self, ctx, lacking: list[str]) -> str | None:
        return f"host: binaries missing for {', '.join(lacking)}" if lacking else None

    def traffic(self, ctx):
        return None


def tile_dispatch(host, g):
    """The blocked GEMM ``g``'s dispatch over the int8 matmul library ``host`` (a HostKernel): its
    ``gemm_tile`` per d rows and ``gemm_tile_rows`` for the rows left over, each checked against the ABI."""
    from ...emitters.host.vector_gemm import TILE_ROWS, tile_functions
    from ...runner.gemm import TileDispatch

    fns = {name: host.function(name, [(tuple(s), NUMPY_DTYPE[t]) for s, t in shapes])
           for name, shapes in tile_functions(g.d, g.kk, g.nn).items()}
    return TileDispatch(fns["gemm_tile"], g.d, fns["gemm_tile_rows"], TILE_ROWS)


TARGET = HostTarget()
