"""The ``ane`` target: a whole graph (a .mil file, or a YAML graph with targets [ane]) planned into
per-node ANE programs and Core ML packages, run by the fp16 host emulation of the plan (Core ML on
macOS). Its unit is a graph, not a kernel instance: the runtime asks it to open graphs of its
``graph_kind``; the build's compile task creator builds the :class:`~npubuild.targets.base.GraphUnit`
each graph is (:mod:`.build`)."""
from __future__ import annotations

from pathlib import Path

from ...core.errors import UserError


class AneTarget:
    name = "ane"
    unit = "graph"
    backend = "ane"
    variants: tuple[str, ...] = ()
    needs_binary = True
    auto_rank = None  # never picked for kernel graphs; ANE graphs are its own (graph_kind)
    graph_kind = "ane"  # manifest graphs of this kind are opened by open_graph

    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        # placement is per MIL node (npubuild.ane.routes), decided when a whole graph is planned
        return "ane builds whole graphs (.mil files, YAML graphs with targets [ane]), not kernel instances"

    def restrictions(self, op: str) -> tuple:
        return ()  # per MIL node when a graph is planned (npubuild.ane.routes), not per op in a spec

    def graph_units(self, plan):
        from .build import graph_units

        return graph_units(plan)

    def graph_names(self, plan) -> list[str]:
        return sorted(plan.ane_graphs)

    def graph_outputs(self, plan) -> list[str]:
        from .build import graph_outputs

        return graph_outputs(plan)

    def graph_files(self, plan) -> list[str]:
        from .build import graph_files

        return graph_files(plan)

    def emitter_version(self) -> str:
        from ...ane.build import code_version

        return code_version()

    def emit(self, instance, options: dict) -> str:
        # never reached through supports(), which refuses every kernel instance: ane's unit is a graph
        raise UserError(f"kernel '{instance.id}': {self.supports(instance.op)}; npubuild.ane.build.build_graph builds them")

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        return None  # the host emulation needs nothing more; Core ML packages are checked when loaded

    def fingerprint(self, cache_dir: Path) -> dict:
        return {}

    def flags(self, config=None):
        return None

    def compile(self, source_text, out_dir, log_path, instance, options, store_root, toolchain, **kw) -> None:
        raise UserError(f"kernel '{instance.id}': {self.supports(instance.op)}; npubuild.ane.build.build_graph builds them")

    def open(self, record: dict, files):
        raise UserError(f"kernel '{record.get('id')}': the ane backend runs whole graphs from .mil files, not kernels")

    def open_graph(self, runtime, name: str, record: dict, backend: str):
        """The runner of an ANE graph; refuses a backend other than ane or auto."""
        if backend not in (self.backend, "auto"):
            source = record.get("file") if isinstance(record.get("file"), str) else f"{name}.mil"
            raise UserError(f"graph '{name}' is an ANE graph (from {source}): run it with backend 'ane' (or auto)")
        from ...runner.ane_graph import AneGraphRunner

        return AneGraphRunner(runtime, name, record, runtime.ane_resident, getattr(runtime, "ane_accumulate", "fp32"))

    def auto_problem(self, ctx, lacking: list[str]) -> str | None:
        return "ane: runs only graphs from .mil files"

    def traffic(self, ctx):
        return None


TARGET = AneTarget()
