"""The build half of the ``host`` target: its file names, its emitter (npubuild.emitters.host) and
its toolchain driver (npubuild.toolchain.host). Heavy modules (the MLIR bindings) are imported only
when a method needs them."""
from __future__ import annotations

import re
from pathlib import Path

from ...core.limits import Limits
from ..base import MEMREF

# what the runtime calls in a host kernel: ``func.func @kernel``'s memref arguments
_SIGNATURE = re.compile(r"func\.func\s+@kernel\s*\(([^)]*)\)")


class HostBuild:
    """Standard-dialect MLIR per kernel -> upstream mlir-opt/llc + cc -> kernel.so."""

    source_name = "kernel.mlir"
    # the packages (under npubuild/) the emitted text depends on: an emit record names their files' sha256
    emitter_dirs = ("emitters/host",)
    binaries = {"binary": "kernel.so"}

    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        return None if self.has_emitter(op) else "not yet emitted"

    def restrictions(self, op: str) -> tuple:
        return ()  # the host body takes every instance the op catalog accepts

    def has_emitter(self, op: str) -> bool:
        from ...emitters.host import has_emitter

        return has_emitter(op)

    def emitter_version(self) -> str:
        from ...emitters.host import EMITTER_VERSION

        return EMITTER_VERSION

    def emit_options(self, config, cache_dir: Path | None = None) -> dict:
        return {}

    def emit(self, instance, options: dict) -> str:
        from ...emitters.host import emit

        return emit(instance)

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        return None  # the host toolchain is a dependency of the package; missing pieces fail the compile

    def fingerprint(self, cache_dir: Path) -> dict:
        from ...toolchain.host import fingerprint

        return fingerprint(cache_dir)

    def flags(self, config=None):
        """The compile recipe: npubuild's host flags for host_cpu, with the project's llc and cc options."""
        from ...core.tool_flags import with_extra
        from ...toolchain.host import PORTABLE_CPU, host_flags

        recipe = host_flags(config.host_cpu if config is not None else PORTABLE_CPU)
        if config is not None and (config.flags.llc or config.flags.cc):
            recipe = {**recipe, "llc": with_extra(recipe["llc"], config.flags.of("llc")), "cc": [*recipe["cc"], *config.flags.cc]}
        return recipe

    def kernel_variants(self, plan, kernel_id: str) -> list[tuple[str | None, dict]]:
        return [(None, {})]  # one host library per kernel, depending on its instance alone

    @staticmethod
    def pinned_interface(text: str) -> tuple | None:
        """What the runtime relies on in a host source, (where, memref types), or None when it has none."""
        m = _SIGNATURE.search(text)
        return ("func.func @kernel", tuple(MEMREF.findall(m.group(1)))) if m else None

    def linked_inputs(self, instance, options: dict, toolchain: dict, flags=None) -> dict:
        return {}

    def linked_files(self, instance, options: dict) -> list[str]:
        return []

    def abi(self, instance, options: dict) -> dict | None:
        return None

    def design_problem(self, instance, device: str) -> str | None:
        return None  # every instance the op catalog accepts has a host body

    def compile_budget(self, limits: Limits) -> float:
        """Seconds one compile may take under the tool timeouts (llc, cc): what a farm client waits."""
        return 2 * limits.tool_timeout

    def compile(self, source_text: str, out_dir: Path, log_path: Path, instance, options: dict, store_root: Path, toolchain: dict,
                limits: Limits = Limits(), flags=None) -> None:
        from ...toolchain.host import compile_shared_library

        compile_shared_library(source_text, out_dir / self.binaries["binary"], log_path, timeout=limits.tool_timeout, flags=flags)

    def commands(self, instance, options: dict, out_dir: Path, toolchain: dict, flags=None) -> list:
        """What :meth:`compile` runs, in order: the in-process lowering (no command line: the upstream
        MLIR wheels ship no mlir-opt/mlir-translate), then llc and cc (toolchain.host.host_commands)."""
        from ...core.errors import UserError
        from ...toolchain.host import HOST_FLAGS, LL_NAME, OBJ_NAME, SO_NAME, find_tools, host_commands
        from ..base import ToolCommand

        flags = flags or HOST_FLAGS
        d = str(out_dir)
        variants = flags.get("isa") or []
        clones = (f", each public function cloned for ISA level{'s' if len(variants) > 2 else ''} {', '.join(variants[1:])} "
                  "(llvm.func target_cpu / target_features)") if len(variants) > 1 else ""
        lower = ToolCommand([], d, f"in process (upstream MLIR Python bindings): {self.source_name} -> {LL_NAME} "
                            f"with --pass-pipeline='{flags['mlir_pipeline']}'{clones}, then translated to LLVM IR", output=LL_NAME)
        missing = None
        try:
            tools = find_tools()
        except UserError as e:  # shown with the tools' names, as the compile would fail
            tools, missing = {"llc": "llc", "cc": ["cc"]}, f"not installed here: {e}"
        llc, cc = host_commands(tools, flags)
        return [lower, ToolCommand(llc, d, missing, output=OBJ_NAME), ToolCommand(cc, d, missing, output=SO_NAME)]
