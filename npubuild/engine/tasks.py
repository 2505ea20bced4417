"""doit task creators (dodo.py imports these).

The creators are methods of :class:`BuildTasks`, which owns the run's
:class:`~npubuild.engine.state.Build` (config, plan, recipes, stamp, each loaded
once) and hands it to the manifest action and to the reporter.

The creators loop over the targets registry (:mod:`.targets`). Per kernel
instance and kernel target: ``emit:<id>@<target>`` writes the source and
``compile:<id>@<target>`` turns it into a binary (or takes it from the store);
per graph of a graph target (ane), ``compile:<graph>@<target>`` builds the
whole graph. ``manifest`` writes artifacts/manifest.json; ``build`` (the
default) is everything; ``test`` runs the test suite.

Up-to-date decisions use content only: an emit task is current while the
instance key and the emitter version are unchanged (saved with doit's
``config_changed``); a compile task is current while its source file's content
(doit's MD5 checker) and the recipe (toolchain fingerprint, flags, cache
version) are unchanged.
"""
from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from pathlib import Path

from doit.tools import config_changed

from ..artifacts.manifest import MANIFEST
from ..core.errors import UserError
from ..core.nospace import guard_doit
from . import noop
from .actions import RECORD_NAME, compile_kernel, emit_source, remove_outputs
from .manifest_writer import OutputsIntact, write_manifest
from .records import EMIT_RECORD, TASK_VALUES, OutputsMatchRecord, SourceMatchesEmitRecord
from .reporter import ProgressReporter, first_error, workers_of
from .state import DEP_FILE, Build
from .targets import graph_targets, kernel_target, not_built_reason

# what a project's dodo.py takes: `from npubuild.engine.tasks import *`
__all__ = [
    "DOIT_CONFIG",
    "install_signal_handlers",
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


def _interrupt_hook(exc_type, exc, tb, _default=sys.excepthook):
    """`doit build` interrupted (Ctrl-C, SIGTERM, SIGHUP): the reporter has said what finished; no traceback.
    Python still exits with 130, as for any interrupted program."""
    if issubclass(exc_type, KeyboardInterrupt):
        if not ProgressReporter.interrupt_said:
            sys.stderr.write("npubuild: interrupted\n")
        if threading.active_count() > 1:
            # a worker thread may still be inside a compile holding MLIR binding objects: finalising the
            # interpreter under it can abort the process (nanobind's decref_check without the GIL), so the
            # state doit saved is final and the process ends here, as interrupted
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        return
    _default(exc_type, exc, tb)


def _worker_signals() -> None:
    """In a forked doit worker (``-P process``): SIGTERM ends it at once (the main
    process stops its workers with terminate() when interrupted; the main's handler above would
    turn that into a KeyboardInterrupt the worker catches and then waits on its job queue for
    ever), and SIGINT, which Ctrl-C sends the whole process group, ends it quietly: the main
    process says what was interrupted, once."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, _exit_interrupted)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _exit_interrupted(signum, frame):
    os._exit(128 + signum)


_at_fork = False

# doit's python-actions capture their output by swapping the process-wide sys.stdout and sys.stderr, and
# restore what they found at the end: under the thread pool a build runs by default (npubuild.engine.jobs)
# interleaved swaps leave another task's capture buffer in place of the real stream. npubuild's actions print
# nothing (they report through results, exceptions and build logs), so they run uncaptured.
NO_CAPTURE = {"capture": False}


def install_signal_handlers() -> None:
    global _at_fork
    sys.excepthook = _interrupt_hook
    if not _at_fork and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_worker_signals)
        _at_fork = True
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


class KeyUnchanged(config_changed):
    """doit's config_changed with its call signature precomputed: doit inspects
    every uptodate callable's signature for every task on every run, which
    dominated a no-op build's up-to-date checks."""

    __signature__ = TASK_VALUES


class Intact:
    """A graph unit's ``intact`` check as a doit uptodate callable (signature precomputed, as above)."""

    __signature__ = TASK_VALUES

    def __init__(self, check):
        self.check = check

    def __call__(self, task, values) -> bool:
        return self.check()


def _build_files(build: Build) -> list[str]:
    """Every file a build task reads or writes."""
    plan = build.plan
    files = []
    for pair in build.pairs():
        kid, inst, t, d = pair.kid, pair.inst, pair.target, pair.dir
        # a pinned source as the spec names it and where it leads now: a link re-pointed, or its target edited
        files += [f"{d}/{t.source_name}", f"{d}/{EMIT_RECORD}", *(f for p in _pinned_paths(plan, kid) for f in (p, os.path.realpath(p)))]
        if build.compiles(t):
            files += [f"{d}/{b}" for b in t.binaries.values()] + [f"{d}/{RECORD_NAME}"] + t.linked_files(inst, build.pair_options(pair))
    return files + _manifest_targets(plan) + _constant_sources(plan) + [f for g in graph_targets() for f in g.graph_files(plan)]


def _pinned_paths(plan, kid: str) -> list[str]:
    return [p[0] for p in plan.pinned.get(kid, {}).values() if p[0]]


def _record_stamp(build: Build, written) -> None:
    """``written``: the files the manifest task wrote (its saved ``outputs``), checked like every other."""
    from ..core.fsio import sweep_and_count_live

    plan = build.plan
    recipes = build.recipes()
    if any(r is None for r in recipes.values()):
        return
    if sweep_and_count_live(plan.config.artifacts, plan.config.store):
        return  # another build is still writing here: no stamp, so that a run after it is killed sweeps
    ids = {t: r.toolchain["id"] for t, r in recipes.items()}
    compiled = sum(1 for p in build.pairs() if build.compiles(p.target))
    graphs = _graph_count(plan)
    summary = {"kernels": len(plan.instances), "graphs": graphs, "artifacts": compiled + graphs, "notes": _notes(build),
               "manifest_targets": _manifest_targets(plan), "manifest_deps": _manifest_deps(build)}
    files = _build_files(build)
    files += sorted(set(written) - set(files))
    pinned = sorted({p for kid in plan.pinned for p in _pinned_paths(plan, kid)})
    noop.write_stamp(plan.config, plan.config.root / DEP_FILE, plan.cache_key, ids, files, summary, pinned)


def _graph_count(plan) -> int:
    """How many whole graphs the graph targets build (each one compile task, counted like a kernel's)."""
    return sum(len(g.graph_names(plan)) for g in graph_targets())


def _notes(build: Build) -> list[str]:
    """One line per (target, op family) that has no emitter yet, and one per target emitted but not compiled."""
    plan = build.plan
    missing: dict[tuple[str, str], set[str]] = {}
    for kid, inst in plan.instances.items():
        for t in plan.targets[kid]:
            if not_built_reason(t, inst.op):
                missing.setdefault((t, inst.opdef.family), set()).add(inst.op)
    lines = [f"{t}: op family '{fam}' not yet emitted ({', '.join(sorted(o))}); built on ref only" for (t, fam), o in sorted(missing.items())]
    recipes = build.recipes()
    uncompiled: dict[str, set[str]] = {}  # target -> its kernels (one kernel may have a design per device)
    for p in build.pairs():
        r = recipes.get(p.target.name)
        if r and not r.compiles:
            uncompiled.setdefault(p.target.name, set()).add(p.kid)
    for name, n in sorted((name, len(kids)) for name, kids in uncompiled.items()):
        problem = kernel_target(name).toolchain_problem(plan.config.store) or ""
        # one short line: how to install each tool is `npubuild doctor`'s (and docs/toolchain.md's)
        short = problem.split("; install:", 1)[0]
        lines.append(f"{name}: {n} kernel{'s' if n != 1 else ''} emitted, not compiled: {short}; `npubuild doctor` says how to install")
    return lines


def _manifest_targets(plan) -> list[str]:
    """manifest.json and the graph constants it writes."""
    art = plan.config.artifacts
    consts = [f"{art}/graphs/{name}/{c}.npy" for name, g in sorted(plan.spec.graphs.items()) for c in sorted(g.constants)]
    return [str(art / MANIFEST)] + consts


def _manifest_deps(build: Build) -> list[str]:
    plan = build.plan
    graphs = [f for g in graph_targets() for f in g.graph_outputs(plan)]
    return [f"{p.dir}/{RECORD_NAME if build.compiles(p.target) else p.target.source_name}" for p in build.pairs()] + _constant_sources(plan) + graphs


def _code_digest() -> str:
    import hashlib

    from ..specfile.files import code_stamp

    return hashlib.sha256(repr(code_stamp()).encode()).hexdigest()


def _constant_sources(plan) -> list[str]:
    return sorted({str(c.file) for g in plan.spec.graphs.values() for c in g.constants.values() if c.file})


def _fail_with_load_error():
    from doit.exceptions import TaskFailed

    return TaskFailed("the build cannot start (reason above); fix it and run `doit build` again")


class BuildTasks:
    """The task creators of one build, sharing one :class:`Build` (doit calls them by name from a namespace:
    a project's dodo.py, or :meth:`namespace` for an in-process run)."""

    def __init__(self, build: Build):
        self.build = build
        self._started = False

    def _load(self) -> Build:
        """The build, for a creator that loads it: the first call switches the cyclic GC off until
        execution starts (BuildReporter.initialize; `npubuild build` after doit returns). Creating
        thousands of tasks allocates about a million small objects and no cycles worth collecting;
        the collections that triggers cost ~30 ms of CPU on a 1000-kernel `doit list` or no-op through
        doit's checks (bench/noop_build.py; nothing on the nothing-changed path, which creates no tasks)."""
        if not self._started:
            self._started = True
            gc.disable()
        return self.build

    def namespace(self) -> dict:
        """What doit's ModuleTaskLoader reads: the creators, and DOIT_CONFIG with a reporter of this build."""
        return {**{name: getattr(self, name) for name in dir(self) if name.startswith("task_")},
                "DOIT_CONFIG": {**_DOIT_CONFIG, "num_process": self.build.jobs, "reporter": BuildReporter.of(self.build)}}

    def task_emit(self):
        """Emit kernel sources (one task per kernel instance and target)."""
        build = self._load()
        plan = None if build.fast_stamp() else build.load_plan()
        yield {"name": None, "doc": "emit kernel sources (one task per kernel instance and target)"}
        if build.fast_stamp() or plan is None:
            return
        from ..core.canonical import canonical_json

        versions: dict = {}
        for pair in build.pairs():
            kid, inst, t, d = pair.kid, pair.inst, pair.target, pair.dir
            opts = build.pair_options(pair)
            vk = (t.name, opts.get("device"), opts.get("body"), opts.get("bf16_mmul"), (opts.get("pinned") or {}).get("sha256"))
            if vk not in versions:
                versions[vk] = f"{t.emitter_version()}:{canonical_json(opts)}"
            out = f"{d}/{t.source_name}"
            yield {
                "name": f"{kid}@{pair.label}",
                "actions": [(emit_source, (t.name, inst, out, opts))],
                "io": NO_CAPTURE,
                "targets": [out, f"{d}/{EMIT_RECORD}"],
                "uptodate": [KeyUnchanged(f"{inst.key}:{versions[vk]}"), SourceMatchesEmitRecord(out, t.name, inst.key, opts)],
                "clean": True,
            }

    def task_compile(self):
        """Compile kernel sources and build whole graphs, or take them from the content-addressed store."""
        build = self._load()
        plan = None if build.fast_stamp() else build.load_plan()
        yield {"name": None, "doc": "compile kernel sources and graphs (ane), or take them from the content-addressed store"}
        if build.fast_stamp() or plan is None:
            return
        graphs = [(g, u) for g in graph_targets() for u in g.graph_units(plan)]
        tasks = list(self._kernel_compiles(build)) + [_graph_task(g, u) for g, u in graphs if not u.fails]
        # doit stops at the first failed task (and does not run tasks in the order they are yielded): the task of
        # a graph whose plan fails waits for every kernel and every other graph, so one bad graph stops no one
        # else's build; it then fails with the reason (file:line, op, shapes) and the build exits non-zero.
        # (The names are taken before doit sees the dicts: it prefixes them with the creator's name in place.)
        others = [f"compile:{t['name']}" for t in tasks]
        failing = [{**_graph_task(g, u), "task_dep": others} for g, u in graphs if u.fails]
        yield from tasks + failing

    def _kernel_compiles(self, build: Build):
        """The compile task of every kernel instance on every kernel target with a usable recipe."""
        from ..artifacts.stores import StoreAccess

        plan = build.plan
        store = StoreAccess.from_config(plan.config)  # the local store and the further ones, picklable
        recipes = build.recipes()
        for pair in build.pairs():
            kid, inst, t, d = pair.kid, pair.inst, pair.target, pair.dir
            recipe = recipes[t.name]
            if recipe is None or not recipe.compiles:
                continue
            src = f"{d}/{t.source_name}"
            opts = build.pair_options(pair)
            yield {
                "name": f"{kid}@{pair.label}",
                "actions": [(compile_kernel, (t.name, kid, inst, src, d, store, recipe.toolchain, recipe.flags, opts, plan.config.limits, plan.config.executor,
                                             plan.config.farm))],
                "io": NO_CAPTURE,
                "file_dep": [src, *t.linked_files(inst, opts)],
                "targets": [*(f"{d}/{b}" for b in t.binaries.values()), f"{d}/{RECORD_NAME}"],
                "uptodate": [KeyUnchanged(recipe.key), OutputsMatchRecord(d, t.binaries.values())],
                # the outputs, and what the compile left beside them: its log and linked objects
                "clean": [(remove_outputs, ([*(f"{d}/{b}" for b in t.binaries.values()), f"{d}/{RECORD_NAME}",
                                            f"{d}/build.log", f"{d}/link"],))],
            }

    def task_manifest(self):
        """Write artifacts/manifest.json (kernels, graphs, files with sha256 and size)."""
        doc = "write artifacts/manifest.json (kernels, graphs, files with sha256 and size)"
        build = self._load()
        stamp = build.fast_stamp()
        if stamp:
            # up to date without touching doit's saved state for this task
            # (doit re-runs a task whose set of file_dep changed, so the set is kept)
            action = (write_manifest, (str(build.config.root),))
            return {
                "actions": [action],
                "file_dep": stamp["manifest_deps"],
                "targets": stamp["manifest_targets"],
                "uptodate": [True],
                "doc": doc,
            }
        plan = build.load_plan()
        if plan is None or build.error:
            return {
                "actions": [_fail_with_load_error],
                "task_dep": ["compile"],
                "doc": doc,
                "uptodate": [False],
            }
        return {
            "actions": [(write_manifest, (str(plan.config.root), plan))],
            "file_dep": _manifest_deps(build),
            "task_dep": ["compile"],
            "targets": _manifest_targets(plan),
            # npubuild's own code too: the entries' ABIs are written by the targets' code (a new npubuild may describe
            # the same source differently, e.g. a body's numerics), not read from the compiled files
            "uptodate": [KeyUnchanged(f"{plan.fingerprint()}:{sorted((n, r.toolchain['id'], r.compiles) for n, r in build.recipes().items() if r)}:"
                                      f"{build.options()}:{_code_digest()}"),
                         OutputsIntact()],
            "clean": True,
            "doc": doc,
        }

    def task_build(self):
        """Build everything: emit, compile, manifest (the default task)."""
        return {"actions": None, "task_dep": ["manifest"], "doc": "build everything: emit, compile, manifest (default)"}

    def task_test(self):
        """Run the test suite (pytest)."""
        return {
            "actions": [[sys.executable, "-m", "pytest", "tests"]],
            "uptodate": [False],
            "verbosity": 2,
            "doc": "run the test suite (pytest)",
        }


def _graph_task(target, unit) -> dict:
    """The doit task of one whole graph a graph target builds."""
    return {
        "name": f"{unit.name}@{target.name}",
        "actions": [unit.action],
        "io": NO_CAPTURE,
        "file_dep": unit.sources,
        "targets": unit.outputs,
        "uptodate": [KeyUnchanged(unit.key), Intact(unit.intact)],
        "clean": [(remove_outputs, (unit.clean,))],
    }


class BuildReporter(ProgressReporter):
    """npubuild's console output (:mod:`.reporter`): progress, then the summary of compiled /
    from store / up to date / failed, timings, and what failed with its log."""

    desc = "console output with an npubuild summary"
    build: Build | None = None  # set on the class doit is given (:meth:`of`): doit makes the reporter itself

    @classmethod
    def of(cls, build: Build) -> type:
        """The reporter class for ``build`` (doit takes a class and instantiates it with its own arguments)."""
        return type(cls.__name__, (cls,), {"build": build, "__module__": cls.__module__})

    def __init__(self, outstream, options):
        super().__init__(outstream, options)
        self.build_ok = False
        self.tasks: dict = {}
        self.workers = workers_of(self.build.invocation(), self.build.jobs) if self.build is not None else 1

    def initialize(self, tasks, selected_tasks):
        gc.enable()
        super().initialize(tasks, selected_tasks)
        self.tasks = tasks if isinstance(tasks, dict) else {}
        build = self.build
        if build.config is not None:
            from ..artifacts.stores import new_build

            new_build(build.config.store)  # forget store warnings of an earlier, unfinished build
        if build.error:
            sys.stderr.write(build.error + "\n")  # a user error, on stderr as every command's

    def _not_started(self, task) -> bool:
        """The manifest task of a build that could not start: it only carries the failure (said above)."""
        return bool(self.build.error) and task.name == "manifest"

    def execute_task(self, task):
        if not self._not_started(task):
            super().execute_task(task)

    def add_failure(self, task, fail):
        if self._not_started(task):
            self.failed.append((task.name, "the build did not start: fix what is said above and run the build again"))
            return
        super().add_failure(task, fail)

    def add_success(self, task):
        super().add_success(task)
        if task.name == "build":
            self.build_ok = True
        if task.name.startswith("compile:"):
            outcome = task.values.get("outcome")
            if outcome in self.counts:
                self.counts[outcome] += 1
            if outcome == "compiled" and task.values.get("farm_worker"):
                self.counts["farm"] += 1  # compiled on a farm worker (the rest of "compiled": here)
        if task.name.startswith("emit:") and task.values.get("restored"):
            self.note(f"warning: {task.name[len('emit:'):]}: its {task.targets[0]} was edited by hand; restored what the "
                      "emitter writes (generated sources are build outputs: change the spec or the emitter instead)")

    def log_path(self, task_name: str) -> str | None:
        if not task_name.startswith("compile:") or self.build.config is None:
            return None
        from .manifest_writer import kernel_dir
        from .reporter import relative_log

        kid, _, target = task_name[len("compile:"):].rpartition("@")
        return relative_log(self.build.config.artifacts, kid, target, kernel_dir)

    def _manifest_of_what_built(self, plan) -> str:
        """Some units failed and the manifest task did not run: write the manifest of everything else."""
        from .manifest_writer import write_manifest_after_failures

        failed: dict[str, str] = {}
        for name, msg in self.failed:
            kind, _, unit = name.partition(":")
            if kind in ("emit", "compile") and "@" in unit:
                failed[unit] = f"{kind} failed in the last build: {first_error(msg)[:300]}"
        for name in self.not_built:
            kind, _, unit = name.partition(":")
            if kind == "compile" and "@" in unit:
                failed.setdefault(unit, "not built in the last build: a task it needs failed")
        return write_manifest_after_failures(plan, failed)

    def complete_run(self):
        super().complete_run()
        build = self.build
        if build.config is not None:
            from ..artifacts.stores import take_notices

            # recorded by the workers: each unreachable store once, entries found but not used
            for line in take_notices(build.config.store):
                self.outstream.write(line + "\n")
        stamp = build.stamp
        plan = build.plan
        if stamp is None and plan is None:
            return
        c = self.counts
        if stamp:
            c["uptodate"] = stamp["artifacts"]
            notes, kernels, graphs, fast = stamp["notes"], stamp["kernels"], stamp["graphs"], " (nothing changed since the last build)"
        else:
            if not self.total and not self.failures:
                return  # not a build (e.g. `doit test`, `doit list`)
            notes, kernels, graphs, fast = _notes(build), len(plan.instances), _graph_count(plan), ""
            if "manifest" in self.not_built and not build.error and not self.runtime_errors and \
                    not isinstance(sys.exc_info()[1], KeyboardInterrupt):
                notes = [*notes, self._manifest_of_what_built(plan)]
        self.write_summary(kernels, notes, fast, graphs)
        argv = build.invocation()
        if not (self.build_ok and not self.failures and not self.runtime_errors and argv is not None and noop.plain_build(argv)):
            return
        # doit has closed its database by now, so the digest sees its final state
        if stamp:
            from ..specfile.files import plan_key

            summary = {k: stamp[k] for k in ("kernels", "graphs", "artifacts", "notes", "manifest_targets", "manifest_deps")}
            cfg = build.config
            noop.write_stamp(cfg, cfg.root / DEP_FILE, plan_key(cfg), stamp["toolchain_ids"], stamp["files"], summary,
                             stamp["pinned"])
        else:
            manifest_task = self.tasks.get("manifest")
            written = (getattr(manifest_task, "values", None) or {}).get("outputs")
            if not isinstance(written, dict):
                return  # the manifest task left no record of its files: no fast path next time
            _record_stamp(build, written)


guard_doit(Path(DEP_FILE))  # a full disk while doit loads tasks, opens or saves its database: one line (npubuild.core.nospace)

_DOIT_CONFIG = {
    "backend": "sqlite3",
    "continue": True,  # a failed compile does not stop the independent ones (like ninja -k 0)
    "par_type": "thread",  # with num_process (every core unless -n says otherwise): npubuild.engine.jobs says why
    "dep_file": DEP_FILE,
    "default_tasks": ["build"],
}

# What a project's dodo.py gets (`from npubuild.engine.tasks import *`): doit reads task creators and DOIT_CONFIG
# from the dodo module's names, so these are the creators of one build made here; `npubuild build` runs doit
# in-process with BuildTasks(Build(argv)).namespace() instead, a new build each run.
_DODO = BuildTasks(Build()).namespace()
DOIT_CONFIG = _DODO["DOIT_CONFIG"]
task_emit = _DODO["task_emit"]
task_compile = _DODO["task_compile"]
task_manifest = _DODO["task_manifest"]
task_build = _DODO["task_build"]
task_test = _DODO["task_test"]
