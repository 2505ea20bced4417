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

import gc
import hashlib
import inspect
import signal
import sys
from pathlib import Path

from doit.reporter import ConsoleReporter
from doit.tools import config_changed

from .actions import CACHE_VERSION, RECORD_NAME, compile_kernel, emit_source, write_manifest
from .config import load_config
from .errors import UserError
from .manifest import MANIFEST
from .targets import compiled_pairs, not_built_reason

DEP_FILE = ".npubuild.doit.db"


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


# Loading thousands of tasks allocates many small objects and the cyclic GC
# would run dozens of times for nothing; it is switched back on when execution
# starts (BuildReporter.initialize).
gc.disable()


class KeyUnchanged(config_changed):
    """doit's config_changed with its call signature precomputed: doit inspects
    every uptodate callable's signature for every task on every run, which
    dominated a no-op build's up-to-date checks."""

    __signature__ = inspect.Signature(
        [inspect.Parameter("task", inspect.Parameter.POSITIONAL_OR_KEYWORD),
         inspect.Parameter("values", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    )


class _State:
    plan = None
    error: str | None = None
    pairs: list | None = None


def _load_plan():
    if _State.plan is None and _State.error is None:
        from .plan import build_plan

        try:
            _State.plan = build_plan(load_config(Path.cwd()))
        except UserError as e:
            _State.error = str(e)
    return _State.plan


def _pairs(plan) -> list:
    """(kernel id, instance, target, kernel dir as str) for every artifact, computed once."""
    if _State.pairs is None:
        art = str(plan.config.artifacts)
        _State.pairs = [(kid, inst, t, f"{art}/kernels/{kid}/{t.name}") for kid, inst, t in compiled_pairs(plan)]
    return _State.pairs


def _not_emitted_lines(plan) -> list[str]:
    """One line per (target, op family) that has no emitter yet."""
    missing: dict[tuple[str, str], set[str]] = {}
    for kid, inst in plan.instances.items():
        for t in plan.targets[kid]:
            if not_built_reason(t, inst.op):
                missing.setdefault((t, inst.opdef.family), set()).add(inst.op)
    return [f"{t}: op family '{fam}' not yet emitted ({', '.join(sorted(o))}); built on ref only" for (t, fam), o in sorted(missing.items())]


def task_emit():
    """Emit kernel sources (one task per kernel instance and target)."""
    plan = _load_plan()
    yield {"name": None, "doc": "emit kernel sources (one task per kernel instance and target)"}
    if plan is None:
        return
    versions: dict = {}
    for kid, inst, t, d in _pairs(plan):
        if t.name not in versions:
            versions[t.name] = t.emitter_version()
        out = f"{d}/{t.source_name}"
        yield {
            "name": f"{kid}@{t.name}",
            "actions": [(emit_source, (t.name, inst, out))],
            "targets": [out],
            "uptodate": [KeyUnchanged(f"{inst.key}:{versions[t.name]}")],
            "clean": True,
        }


def task_compile():
    """Compile kernel sources, or take them from the content-addressed store."""
    plan = _load_plan()
    yield {"name": None, "doc": "compile kernel sources, or take them from the content-addressed store"}
    if plan is None:
        return
    store = str(plan.config.store)
    recipes: dict = {}
    for kid, inst, t, d in _pairs(plan):
        if t.name not in recipes:
            try:
                tc = t.fingerprint(plan.config.store)
            except UserError as e:
                _State.error = f"{t.name} toolchain: {e}"
                recipes[t.name] = None
            else:
                flags = t.flags()
                recipe_id = hashlib.sha256(f"{CACHE_VERSION}:{t.name}:{tc['id']}:{flags}".encode()).hexdigest()
                recipes[t.name] = (tc, flags, recipe_id)
        if recipes[t.name] is None:
            continue
        tc, flags, recipe_id = recipes[t.name]
        src = f"{d}/{t.source_name}"
        yield {
            "name": f"{kid}@{t.name}",
            "actions": [(compile_kernel, (t.name, kid, src, d, store, tc, flags))],
            "file_dep": [src],
            "targets": [f"{d}/{t.binary_name}", f"{d}/{RECORD_NAME}"],
            "uptodate": [KeyUnchanged(recipe_id)],
            "clean": True,
        }


def task_manifest():
    """Write artifacts/manifest.json (kernels, graphs, files with sha256 and size)."""
    plan = _load_plan()
    if plan is None or _State.error:
        return {
            "actions": [_fail_with_load_error],
            "task_dep": ["compile"],
            "doc": "write artifacts/manifest.json",
            "uptodate": [False],
        }
    art = plan.config.artifacts
    records = [f"{d}/{RECORD_NAME}" for _, _, _, d in _pairs(plan)]
    const_files = sorted({str(c.file) for g in plan.spec.graphs.values() for c in g.constants.values() if c.file})
    return {
        "actions": [(write_manifest, (str(plan.config.root),))],
        "file_dep": records + const_files,
        "task_dep": ["compile"],
        "targets": [str(art / MANIFEST)],
        "uptodate": [KeyUnchanged(plan.fingerprint())],
        "clean": True,
        "doc": "write artifacts/manifest.json (kernels, graphs, files with sha256 and size)",
    }


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


class BuildReporter(ConsoleReporter):
    """doit's console output for executed tasks plus one summary line:
    compiled / from store / up to date."""

    desc = "console output with an npubuild summary"

    def __init__(self, outstream, options):
        super().__init__(outstream, options)
        self.counts = {"compiled": 0, "store": 0, "uptodate": 0}

    def initialize(self, tasks, selected_tasks):
        gc.enable()
        if _State.error:
            self.write(_State.error + "\n")

    def add_success(self, task):
        super().add_success(task)
        if task.name.startswith("compile:"):
            outcome = task.values.get("outcome")
            if outcome in self.counts:
                self.counts[outcome] += 1

    def skip_uptodate(self, task):
        # No line per up-to-date task: at thousands of kernels that drowns the
        # one line that matters; the summary counts them.
        if task.name.startswith("compile:"):
            self.counts["uptodate"] += 1

    def complete_run(self):
        super().complete_run()
        plan = _State.plan
        if plan is None or not any(self.counts.values()) and not self.failures:
            return
        c = self.counts
        for line in _not_emitted_lines(plan):
            self.outstream.write(line + "\n")
        self.outstream.write(
            f"npubuild: {len(plan.instances)} kernels; compiled {c['compiled']}, "
            f"from store {c['store']}, up to date {c['uptodate']}\n"
        )


DOIT_CONFIG = {
    "backend": "sqlite3",
    "dep_file": DEP_FILE,
    "default_tasks": ["build"],
    "reporter": BuildReporter,
}
