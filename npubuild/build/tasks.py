"""doit task creators (dodo.py imports these).

Per kernel instance and compiled target: ``emit:<id>@<target>`` writes the
source and ``compile:<id>@<target>`` turns it into a binary (or takes it from
the store). ``manifest`` writes artifacts/manifest.json; ``build`` (the
default) is everything; ``test`` runs the test suite.

Up-to-date decisions use content only: an emit task is current while the
instance key and the emitter version are unchanged (saved with doit's
``config_changed``); a compile task is current while its source file's content
(doit's MD5 checker) and the recipe (toolchain fingerprint, flags, cache
version) are unchanged.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import signal
import sys
from pathlib import Path

from doit.tools import config_changed

from ..artifacts.manifest import MANIFEST
from ..config import load_config
from ..errors import UserError
from ..nospace import guard_doit
from . import noop
from .actions import CACHE_VERSION, RECORD_NAME, compile_kernel, emit_source, remove_outputs
from .manifest_writer import OutputsIntact, write_manifest
from .records import EMIT_RECORD, TASK_VALUES, AneOutputsMatchPlan, OutputsMatchRecord, SourceMatchesEmitRecord, ane_plan_files
from .reporter import ProgressReporter
from .state import BuildState
from .targets import COMPILED, compiled_pairs, not_built_reason

DEP_FILE = ".npubuild.doit.db"

# what a project's dodo.py takes: `from npubuild.build.tasks import *`
__all__ = [
    "DOIT_CONFIG",
    "install_signal_handlers",
    "task_ane",
    "task_build",
    "task_compile",
    "task_emit",
    "task_manifest",
    "task_test",
]


def _sigterm_as_interrupt(signum, frame):
    # doit saves finished tasks on KeyboardInterrupt but loses the whole run's
    # state on SIGTERM; a CI timeout must not throw away completed work.
    raise KeyboardInterrupt


def install_signal_handlers() -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            signal.signal(sig, _sigterm_as_interrupt)
        except (ValueError, OSError):  # not the main thread / unsupported
            pass
    # `doit list | head`: a closed pipe ends the process quietly, as for any Unix tool, instead of a
    # BrokenPipeError traceback (every write is atomic, so nothing is left half-written)
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    except (ValueError, OSError, AttributeError):  # not the main thread / no SIGPIPE (Windows)
        pass


# Loading thousands of tasks allocates many small objects and the cyclic GC
# would run dozens of times for nothing; it is switched back on when execution
# starts (BuildReporter.initialize).
gc.disable()


class KeyUnchanged(config_changed):
    """doit's config_changed with its call signature precomputed: doit inspects
    every uptodate callable's signature for every task on every run, which
    dominated a no-op build's up-to-date checks."""

    __signature__ = TASK_VALUES


def _invocation() -> list | None:
    return BuildState.argv if BuildState.argv is not None else noop.doit_argv()


def _config():
    if BuildState.config is None and BuildState.error is None:
        try:
            BuildState.config = load_config(Path.cwd())
        except UserError as e:
            BuildState.error = str(e)
    return BuildState.config


def _fast_stamp() -> dict | None:
    """The stamp of the last complete build when a plain build finds nothing changed."""
    if not BuildState.checked:
        BuildState.checked = True
        config = _config()
        argv = _invocation()
        if config is not None and argv is not None and noop.plain_build(argv) and noop.enabled():
            BuildState.stamp = noop.fresh_stamp(config, config.root / DEP_FILE)
            if BuildState.stamp is not None:
                _sweep_beside(config)
    return BuildState.stamp


def _sweep_beside(config) -> None:
    """What a killed `npubuild unpack -C artifacts`, a pack into the project or a stamp write left beside the
    artifacts (a listing of two directories: the fast path does it too, since such a kill changes no stamped file)."""
    from ..fsio import sweep_beside

    sweep_beside(config.root, every=True)
    for d in {config.artifacts.parent, config.artifacts} - {config.root}:  # wherever NPUBUILD_ARTIFACTS puts them
        sweep_beside(d)


def _load_plan():
    config = _config()
    if config is not None and BuildState.plan is None and BuildState.error is None:
        from ..fsio import sweep_stale_temps
        from ..spec.yamlfile import SPEC_CACHE
        from .plan import build_plan

        # a build killed earlier (SIGKILL, power loss) may have left temp files: never a live build's
        sweep_stale_temps(config.artifacts, config.store, config.root / SPEC_CACHE)
        _sweep_beside(config)
        # this run may write (and be killed): until it records a new stamp, the next run takes the full path,
        # whose sweep removes what it may leave (the fast path never walks the artifacts)
        with contextlib.suppress(OSError):
            (config.root / noop.STAMP_FILE).unlink(missing_ok=True)

        try:
            BuildState.plan = build_plan(config)
        except UserError as e:
            BuildState.error = str(e)
    return BuildState.plan


def _pairs(plan) -> list:
    """(kernel id, instance, target, kernel dir as str) for every artifact, computed once."""
    if BuildState.pairs is None:
        art = str(plan.config.artifacts)
        BuildState.pairs = [(kid, inst, t, f"{art}/kernels/{kid}/{t.name}") for kid, inst, t in compiled_pairs(plan)]
    return BuildState.pairs


def _recipes(plan) -> dict:
    """target -> (toolchain fingerprint, flags, recipe id, compiles), or None when the build cannot start.

    ``compiles`` is False for a target whose toolchain is missing and that is
    only emitted (xdna on a machine without mlir-aie, unless xdna_strict).
    """
    if BuildState.recipes is None:
        BuildState.recipes = {}
        for _, _, t, _ in _pairs(plan):
            if t.name in BuildState.recipes:
                continue
            try:
                problem = t.toolchain_problem(plan.config.store)
                if problem and plan.config.xdna_strict:
                    raise UserError(f"{problem} (xdna_strict is set: a missing toolchain is an error)")
                tc = t.fingerprint(plan.config.store)
            except UserError as e:
                BuildState.error = f"{t.name} toolchain: {e}"
                BuildState.recipes[t.name] = None
                continue
            flags = t.flags(plan.config) if not problem else None
            recipe_id = hashlib.sha256(f"{CACHE_VERSION}:{t.name}:{tc['id']}:{flags}".encode()).hexdigest()
            BuildState.recipes[t.name] = (tc, flags, recipe_id, problem is None)
    return BuildState.recipes


def _compiles(plan, t) -> bool:
    r = _recipes(plan).get(t.name)
    return bool(r and r[3])


def _options(plan) -> dict:
    """target -> emit options (device, dialect), computed once."""
    if BuildState.options is None:
        BuildState.options = {}
        for _, _, t, _ in _pairs(plan):
            if t.name not in BuildState.options:
                BuildState.options[t.name] = t.emit_options(plan.config, plan.config.store)
    return BuildState.options


def _pair_options(plan, kid: str, t) -> dict:
    """Emit options of one kernel on one target (xdna: the kernel's device; a pinned source's sha256)."""
    opts = _options(plan)[t.name]
    if t.name == "xdna":
        own = plan.xdna_options(kid)
        if any(opts.get(k) != v for k, v in own.items()):
            opts = {**opts, **own}
    pinned = plan.pinned.get(kid, {}).get(t.name)
    if pinned is not None:
        from .pinned import pinned_option

        # read and hashed once per run: the emit and compile tasks and the no-op stamp see the same bytes
        if BuildState.pinned is None:
            BuildState.pinned = {}
        if (kid, t.name) not in BuildState.pinned:
            BuildState.pinned[(kid, t.name)] = pinned_option(*pinned, plan.config.limits, plan.config.data_roots())
        opts = {**opts, "pinned": BuildState.pinned[(kid, t.name)]}
    return opts


def _build_files(plan) -> list[str]:
    """Every file a build task reads or writes."""
    files = []
    for kid, inst, t, d in _pairs(plan):
        # a pinned source as the spec names it and where it leads now: a link re-pointed, or its target edited
        files += [f"{d}/{t.source_name}", f"{d}/{EMIT_RECORD}", *(f for p in _pinned_paths(plan, kid) for f in (p, os.path.realpath(p)))]
        if _compiles(plan, t):
            files += [f"{d}/{b}" for b in t.binaries.values()] + [f"{d}/{RECORD_NAME}"] + t.linked_files(inst, _pair_options(plan, kid, t))
    return files + _manifest_targets(plan) + _constant_sources(plan) + _ane_files(plan)


def _pinned_paths(plan, kid: str) -> list[str]:
    return [p[0] for p in plan.pinned.get(kid, {}).values() if p[0]]


def _record_stamp(plan, written) -> None:
    """``written``: the files the manifest task wrote (its saved ``outputs``), checked like every other."""
    from ..fsio import sweep_and_count_live

    recipes = _recipes(plan)
    if any(r is None for r in recipes.values()):
        return
    if sweep_and_count_live(plan.config.artifacts, plan.config.store):
        return  # another build is still writing here: no stamp, so that a run after it is killed sweeps
    ids = {t: r[0]["id"] for t, r in recipes.items()}
    compiled = sum(1 for _, _, t, _ in _pairs(plan) if _compiles(plan, t))
    summary = {"kernels": len(plan.instances), "artifacts": compiled, "notes": _notes(plan),
               "manifest_targets": _manifest_targets(plan), "manifest_deps": _manifest_deps(plan)}
    files = _build_files(plan)
    files += sorted(set(written) - set(files))
    pinned = sorted({p for kid in plan.pinned for p in _pinned_paths(plan, kid)})
    noop.write_stamp(plan.config, plan.config.root / DEP_FILE, plan.cache_key, ids, files, summary, pinned)


def _notes(plan) -> list[str]:
    """One line per (target, op family) that has no emitter yet, and one per target emitted but not compiled."""
    missing: dict[tuple[str, str], set[str]] = {}
    for kid, inst in plan.instances.items():
        for t in plan.targets[kid]:
            if not_built_reason(t, inst.op):
                missing.setdefault((t, inst.opdef.family), set()).add(inst.op)
    lines = [f"{t}: op family '{fam}' not yet emitted ({', '.join(sorted(o))}); built on ref only" for (t, fam), o in sorted(missing.items())]
    recipes = _recipes(plan)
    uncompiled: dict[str, int] = {}
    for _, _, t, _ in _pairs(plan):
        if recipes.get(t.name) and not recipes[t.name][3]:
            uncompiled[t.name] = uncompiled.get(t.name, 0) + 1
    for name, n in sorted(uncompiled.items()):
        problem = COMPILED[name].toolchain_problem(plan.config.store) or ""
        # one short line: how to install each tool is `npubuild doctor`'s (and docs/toolchain.md's)
        short = problem.split("; install:", 1)[0]
        lines.append(f"{name}: {n} kernel{'s' if n != 1 else ''} emitted, not compiled: {short}; `npubuild doctor` says how to install")
    return lines


def task_emit():
    """Emit kernel sources (one task per kernel instance and target)."""
    plan = None if _fast_stamp() else _load_plan()
    yield {"name": None, "doc": "emit kernel sources (one task per kernel instance and target)"}
    if _fast_stamp() or plan is None:
        return
    from ..canonical import canonical_json

    versions: dict = {}
    for kid, inst, t, d in _pairs(plan):
        opts = _pair_options(plan, kid, t)
        vk = (t.name, opts.get("device"), opts.get("body"), (opts.get("pinned") or {}).get("sha256"))
        if vk not in versions:
            versions[vk] = f"{t.emitter_version()}:{canonical_json(opts)}"
        out = f"{d}/{t.source_name}"
        yield {
            "name": f"{kid}@{t.name}",
            "actions": [(emit_source, (t.name, inst, out, opts))],
            "targets": [out, f"{d}/{EMIT_RECORD}"],
            "uptodate": [KeyUnchanged(f"{inst.key}:{versions[vk]}"), SourceMatchesEmitRecord(out, t.name, inst.key, opts)],
            "clean": True,
        }


def task_compile():
    """Compile kernel sources, or take them from the content-addressed store."""
    plan = None if _fast_stamp() else _load_plan()
    yield {"name": None, "doc": "compile kernel sources, or take them from the content-addressed store"}
    if _fast_stamp() or plan is None:
        return
    from ..artifacts.stores import StoreAccess

    store = StoreAccess.from_config(plan.config)  # the local store and the further ones, picklable
    recipes = _recipes(plan)
    for kid, inst, t, d in _pairs(plan):
        if recipes[t.name] is None or not recipes[t.name][3]:
            continue
        tc, flags, recipe_id, _ = recipes[t.name]
        src = f"{d}/{t.source_name}"
        opts = _pair_options(plan, kid, t)
        yield {
            "name": f"{kid}@{t.name}",
            "actions": [(compile_kernel, (t.name, kid, inst, src, d, store, tc, flags, opts, plan.config.limits, plan.config.executor,
                                         plan.config.farm))],
            "file_dep": [src, *t.linked_files(inst, opts)],
            "targets": [*(f"{d}/{b}" for b in t.binaries.values()), f"{d}/{RECORD_NAME}"],
            "uptodate": [KeyUnchanged(recipe_id), OutputsMatchRecord(d, t.binaries.values())],
            # the outputs, and what the compile left beside them: its log and linked objects
            "clean": [(remove_outputs, ([*(f"{d}/{b}" for b in t.binaries.values()), f"{d}/{RECORD_NAME}",
                                        f"{d}/build.log", f"{d}/link"],))],
        }


def _ane_dir(plan, name: str) -> str:
    return f"{plan.config.artifacts}/ane/{name}"


def task_ane():
    """Compile the ane graphs (specs/graphs/*.mil, YAML graphs with targets [ane]) into per-node ANE programs (or take them from the store)."""
    plan = None if _fast_stamp() else _load_plan()
    yield {"name": None, "doc": "compile the ane graphs (specs/graphs/*.mil, YAML graphs with targets [ane]) into per-node ANE programs"}
    if _fast_stamp() or plan is None or not plan.ane_graphs:
        return
    from ..ane.build import PLAN_FILE, build_graph, code_version
    from ..ane.mil_model import MilBounds
    from ..artifacts.stores import StoreAccess

    version = code_version()
    store = StoreAccess.from_config(plan.config)
    bounds = MilBounds.of(plan.config)
    tasks, failing = [], []
    for name, (path, display) in sorted(plan.ane_graphs.items()):
        out = _ane_dir(plan, name)
        graph = plan.ane_yaml.get(name)
        task = {
            "name": name,
            "actions": [(build_graph, (path, display, out, store, bounds, graph))],
            "file_dep": _ane_sources(plan, name, bounds, readable=True),
            "targets": [f"{out}/{PLAN_FILE}"],
            "uptodate": [KeyUnchanged(version), AneOutputsMatchPlan(out)],
            "clean": [(remove_outputs, ([out],))],  # the programs, weights and Core ML packages: the whole directory
        }
        (failing if _ane_plan_fails(path, display, bounds, graph) else tasks).append(task)
    # doit stops at the first failed task (and does not run tasks in the order they are yielded): the task of
    # a graph whose plan fails waits for every kernel and every other graph, so one bad graph stops no one
    # else's build; it then fails with the reason (file:line, op, shapes) and the build exits non-zero.
    for task in failing:
        task["task_dep"] = ["compile", *(f"ane:{t['name']}" for t in tasks)]
    yield from tasks + failing


def _ane_sources(plan, name: str, bounds, readable: bool = False) -> list[str]:
    """What an ane graph is built from: its .mil and the blobs it names (``readable``: only those a build
    may read), or its YAML spec and the .npy files of its constants."""
    from ..ane.build import blob_files, readable_blobs

    path, _ = plan.ane_graphs[name]
    graph = plan.ane_yaml.get(name)
    if graph is not None:
        return [path, *sorted(str(c.file) for c in graph.constants.values() if c.file is not None)]
    blobs = readable_blobs(Path(path), bounds) if readable else blob_files(Path(path), bounds)
    return [path, *(str(b) for b in blobs)]


def _ane_plan_fails(path: str, display: str, bounds, graph=None) -> bool:
    from ..ane.build import plan_graph

    try:
        plan_graph(Path(path), display, bounds, graph)
    except UserError:
        return True
    return False


def _ane_files(plan) -> list[str]:
    """The sources of every ane graph and every artifact of its last build (for the no-op check): the
    programs, their weights, the fills, and each file of the Core ML packages (per node and the graph's),
    so that a deleted or changed package file makes `doit build` run again."""
    if not plan.ane_graphs:
        return []
    import json

    from ..ane.build import PLAN_FILE
    from ..ane.mil_model import MilBounds

    files = []
    bounds = MilBounds.of(plan.config)
    for name in sorted(plan.ane_graphs):
        out = Path(_ane_dir(plan, name))
        files += [*_ane_sources(plan, name, bounds), str(out / PLAN_FILE)]
        try:
            # plan.json's paths (the packages' too: coreml.package_files) are relative to the graph's directory
            files += [str(out / f["path"]) for f in ane_plan_files(json.loads((out / PLAN_FILE).read_text()))]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # a damaged plan.json names no files (it is stamped itself)
    return files


def task_manifest():
    """Write artifacts/manifest.json (kernels, graphs, files with sha256 and size)."""
    doc = "write artifacts/manifest.json (kernels, graphs, files with sha256 and size)"
    stamp = _fast_stamp()
    if stamp:
        # up to date without touching doit's saved state for this task
        # (doit re-runs a task whose set of file_dep changed, so the set is kept)
        action = (write_manifest, (str(BuildState.config.root),))
        return {
            "actions": [action],
            "file_dep": stamp["manifest_deps"],
            "targets": stamp["manifest_targets"],
            "uptodate": [True],
            "doc": doc,
        }
    plan = _load_plan()
    if plan is None or BuildState.error:
        return {
            "actions": [_fail_with_load_error],
            "task_dep": ["compile"],
            "doc": doc,
            "uptodate": [False],
        }
    return {
        "actions": [(write_manifest, (str(plan.config.root),))],
        "file_dep": _manifest_deps(plan),
        "task_dep": ["compile", "ane"] if plan.ane_graphs else ["compile"],
        "targets": _manifest_targets(plan),
        "uptodate": [KeyUnchanged(f"{plan.fingerprint()}:{sorted((n, r[0]['id'], r[3]) for n, r in _recipes(plan).items() if r)}:{_options(plan)}"),
                     OutputsIntact()],
        "clean": True,
        "doc": doc,
    }


def _manifest_targets(plan) -> list[str]:
    """manifest.json and the graph constants it writes."""
    art = plan.config.artifacts
    consts = [f"{art}/graphs/{name}/{c}.npy" for name, g in sorted(plan.spec.graphs.items()) for c in sorted(g.constants)]
    return [str(art / MANIFEST)] + consts


def _manifest_deps(plan) -> list[str]:
    from ..ane.build import PLAN_FILE

    ane = [f"{_ane_dir(plan, name)}/{PLAN_FILE}" for name in sorted(plan.ane_graphs)]
    return [f"{d}/{RECORD_NAME if _compiles(plan, t) else t.source_name}" for _, _, t, d in _pairs(plan)] + _constant_sources(plan) + ane


def _constant_sources(plan) -> list[str]:
    return sorted({str(c.file) for g in plan.spec.graphs.values() for c in g.constants.values() if c.file})


def _fail_with_load_error():
    from doit.exceptions import TaskFailed

    return TaskFailed("the build cannot start (reason above); fix it and run `doit build` again")


def task_build():
    """Build everything: emit, compile, manifest (the default task)."""
    return {"actions": None, "task_dep": ["manifest"], "doc": "build everything: emit, compile, manifest (default)"}


def task_test():
    """Run the test suite (pytest)."""
    return {
        "actions": [[sys.executable, "-m", "pytest", "tests"]],
        "uptodate": [False],
        "verbosity": 2,
        "doc": "run the test suite (pytest)",
    }


class BuildReporter(ProgressReporter):
    """npubuild's console output (:mod:`.reporter`): progress, then the summary of compiled /
    from store / up to date / failed, timings, and what failed with its log."""

    desc = "console output with an npubuild summary"

    def __init__(self, outstream, options):
        super().__init__(outstream, options)
        self.build_ok = False
        self.tasks: dict = {}

    def initialize(self, tasks, selected_tasks):
        gc.enable()
        super().initialize(tasks, selected_tasks)
        self.tasks = tasks if isinstance(tasks, dict) else {}
        if BuildState.config is not None:
            from ..artifacts.stores import new_build

            new_build(BuildState.config.store)  # forget store warnings of an earlier, unfinished build
        if BuildState.error:
            self.write(BuildState.error + "\n")

    def add_success(self, task):
        super().add_success(task)
        if task.name == "build":
            self.build_ok = True
        if task.name.startswith("compile:"):
            outcome = task.values.get("outcome")
            if outcome in self.counts:
                self.counts[outcome] += 1
        if task.name.startswith("emit:") and task.values.get("restored"):
            self.note(f"warning: {task.name[len('emit:'):]}: its {task.targets[0]} was edited by hand; restored what the "
                      "emitter writes (generated sources are build outputs: change the spec or the emitter instead)")

    def log_path(self, task_name: str) -> str | None:
        if not task_name.startswith("compile:") or BuildState.config is None:
            return None
        from .manifest_writer import kernel_dir
        from .reporter import relative_log

        kid, _, target = task_name[len("compile:"):].rpartition("@")
        return relative_log(BuildState.config.artifacts, kid, target, kernel_dir)

    def complete_run(self):
        super().complete_run()
        if BuildState.config is not None:
            from ..artifacts.stores import take_notices

            # recorded by the workers: each unreachable store once, entries found but not used
            for line in take_notices(BuildState.config.store):
                self.outstream.write(line + "\n")
        stamp = BuildState.stamp
        plan = BuildState.plan
        if stamp is None and plan is None:
            return
        c = self.counts
        if stamp:
            c["uptodate"] = stamp["artifacts"]
            notes, kernels, fast = stamp["notes"], stamp["kernels"], " (nothing changed since the last build)"
        else:
            if not self.total and not self.failures:
                return  # not a build (e.g. `doit test`, `doit list`)
            notes, kernels, fast = _notes(plan), len(plan.instances), ""
        self.write_summary(kernels, notes, fast)
        argv = _invocation()
        if not (self.build_ok and not self.failures and not self.runtime_errors and argv is not None and noop.plain_build(argv)):
            return
        # doit has closed its database by now, so the digest sees its final state
        if stamp:
            from ..spec.files import plan_key

            summary = {k: stamp[k] for k in ("kernels", "artifacts", "notes", "manifest_targets", "manifest_deps")}
            cfg = BuildState.config
            noop.write_stamp(cfg, cfg.root / DEP_FILE, plan_key(cfg), stamp["toolchain_ids"], stamp["files"], summary,
                             stamp["pinned"])
        else:
            manifest_task = self.tasks.get("manifest")
            written = (getattr(manifest_task, "values", None) or {}).get("outputs")
            if not isinstance(written, dict):
                return  # the manifest task left no record of its files: no fast path next time
            _record_stamp(plan, written)


guard_doit(Path(DEP_FILE))  # a full disk while doit loads tasks, opens or saves its database: one line (npubuild.nospace)

DOIT_CONFIG = {
    "backend": "sqlite3",
    "continue": True,  # a failed compile does not stop the independent ones (like ninja -k 0)
    "dep_file": DEP_FILE,
    "default_tasks": ["build"],
    "reporter": BuildReporter,
}
