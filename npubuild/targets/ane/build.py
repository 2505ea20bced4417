"""The build half of the ``ane`` target: one :class:`~npubuild.targets.base.GraphUnit` per ane graph
(a .mil file, or a YAML graph with targets [ane]), built by the build's compile task creator like any
kernel (task ``compile:<graph>@ane``): npubuild.ane.build plans the graph into per-node ANE programs
and Core ML packages, or takes them from the store."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ...core.errors import UserError
from ..base import GraphUnit


def graph_dir(plan, name: str) -> str:
    return f"{plan.config.artifacts}/ane/{name}"


def sources(plan, name: str, bounds, readable: bool = False) -> list[str]:
    """What an ane graph is built from: its .mil and the blobs it names (``readable``: only those a build
    may read), or its YAML spec and the .npy files of its constants."""
    from ...ane.build import blob_files, readable_blobs

    path, _ = plan.ane_graphs[name]
    graph = plan.ane_yaml.get(name)
    if graph is not None:  # a YAML graph, or a model of them (its functions' graphs may be in other files)
        graphs = list((getattr(graph, "functions", None) or {None: graph}).values())
        files = {str(Path(plan.config.root) / g.file) for g in graphs} - {path}
        return [path, *sorted(files), *sorted({str(c.file) for g in graphs for c in g.constants.values() if c.file is not None})]
    blobs = readable_blobs(Path(path), bounds) if readable else blob_files(Path(path), bounds)
    return [path, *(str(b) for b in blobs)]


def _plan_fails(path: str, display: str, bounds, graph=None) -> bool:
    from ...ane.build import plan_graph

    try:
        plan_graph(Path(path), display, bounds, graph)
    except UserError:
        return True
    return False


def plan_files(rec: dict) -> list[dict]:
    """Every file record (path relative to the graph's directory, sha256, size) an ane graph's plan.json names:
    programs, weights, fills, and each file of the Core ML packages (per node and the graph's); a multifunction
    graph's other functions (``functions``: npubuild.ane.build.write_function) and a seq graph's other sizes too."""
    out, packages = [], [rec.get("mlpackage")]
    for r in [rec, *(rec.get("functions") or {}).values(), *((rec.get("seq") or {}).get("plans") or {}).values()]:
        for n in r["nodes"]:
            out += [n[k] for k in ("mil", "weights") if n.get(k)]
            packages.append(n.get("mlpackage"))
        if r.get("fills"):
            out.append(r["fills"])
    return out + [f for pkg in packages if pkg for f in pkg["files"]]


class OutputsMatchPlan:
    """True only while every file an ane graph's plan.json names has its recorded sha256 and size: the
    unit's tracked output is plan.json alone, so a deleted package file would otherwise stay "up to date"."""

    def __init__(self, out_dir: str):
        self.out_dir = out_dir

    def __call__(self) -> bool:
        from ...ane.build import PLAN_FILE
        from ...core.fsio import sha256_file

        d = Path(self.out_dir)
        try:
            for f in plan_files(json.loads((d / PLAN_FILE).read_text())):
                p = d / f["path"]
                if not p.is_file() or p.stat().st_size != f["size"] or sha256_file(p) != f["sha256"]:
                    return False
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return False
        return True


def graph_units(plan) -> list[GraphUnit]:
    """One unit per ane graph of the plan, in name order."""
    if not plan.ane_graphs:
        return []
    from ...ane.build import PLAN_FILE, build_graph, code_version
    from ...ane.ct_quiet import one_at_a_time
    from ...ane.plan_model import PlanBounds
    from ...artifacts.stores import StoreAccess

    version = code_version()
    store = StoreAccess.from_config(plan.config)
    bounds = PlanBounds.of(plan.config)  # with ane_strict: CPU placements are the build's errors
    meta_key = ":meta:" + hashlib.sha256("\0".join(bounds.package_meta).encode()).hexdigest()[:16] if bounds.package_meta else ""
    units = []
    for name, (path, display) in sorted(plan.ane_graphs.items()):
        out = graph_dir(plan, name)
        graph = plan.ane_yaml.get(name)
        units.append(GraphUnit(
            name=name,
            action=(one_at_a_time, (build_graph, path, display, out, store, bounds, graph)),
            sources=sources(plan, name, bounds, readable=True),
            outputs=[f"{out}/{PLAN_FILE}"],
            # ane_strict changes what the task does; the packages' metadata (ane_author, ...) what it writes
            key=(f"{version}:strict" if bounds.ane_strict else version) + meta_key,
            intact=OutputsMatchPlan(out),
            clean=[out],  # the programs, weights and Core ML packages: the whole directory
            fails=_plan_fails(path, display, bounds, graph),
        ))
    return units


def graph_outputs(plan) -> list[str]:
    """The file of each graph the manifest reads (its plan.json)."""
    from ...ane.build import PLAN_FILE

    return [f"{graph_dir(plan, name)}/{PLAN_FILE}" for name in sorted(plan.ane_graphs)]


def graph_files(plan) -> list[str]:
    """The sources of every ane graph and every artifact of its last build (for the no-op check): the
    programs, their weights, the fills, and each file of the Core ML packages (per node and the graph's),
    so that a deleted or changed package file makes `doit build` run again."""
    if not plan.ane_graphs:
        return []
    from ...ane.build import PLAN_FILE
    from ...ane.mil_model import MilBounds

    files = []
    bounds = MilBounds.of(plan.config)
    for name in sorted(plan.ane_graphs):
        out = Path(graph_dir(plan, name))
        files += [*sources(plan, name, bounds), str(out / PLAN_FILE)]
        try:
            # plan.json's paths (the packages' too: coreml.package_files) are relative to the graph's directory
            files += [str(out / f["path"]) for f in plan_files(json.loads((out / PLAN_FILE).read_text()))]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # a damaged plan.json names no files (it is stamped itself)
    return files
