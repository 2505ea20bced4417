"""The state of one doit run: configuration, plan, recipes and the nothing-changed stamp.

One :class:`Build` per run, owned by the task creators that load it
(:class:`npubuild.engine.tasks.BuildTasks`) and handed to what reads it later:
the manifest action (run in this process, or in a forked worker that inherits
it) and the build report. `npubuild build` runs doit in-process with a new
Build each time, so a second run never sees the first one's plan.
"""
from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path
from typing import Any, NamedTuple

from ..core.config import load_config
from ..core.errors import UserError
from . import noop
from .actions import CACHE_VERSION

DEP_FILE = ".npubuild.doit.db"


class Pair(NamedTuple):
    """One artifact the build makes: a kernel instance on one compiled target (one of its variants)."""

    kid: str
    inst: Any  # the kernel instance (npubuild.specfile.instances)
    target: Any  # the compiled target (npubuild.engine.targets)
    dir: str  # its kernel directory under the artifacts, as a plain string (task creation joins thousands)
    label: str  # the target's name, or "<name>.<variant>" for one of several (xdna.npu2): tasks, directory, manifest
    own: dict  # what this unit's source depends on beyond the target's emit options (xdna: device, body)


class Recipe(NamedTuple):
    """How one target compiles in this build."""

    toolchain: dict  # the toolchain fingerprint (its "id" goes into the key)
    flags: dict | None  # None when the target is only emitted
    key: str  # recipe id: the compile tasks' config_changed value
    compiles: bool  # False for a target whose toolchain is missing and is only emitted (xdna without mlir-aie)


class Build:
    """What the task creators of one doit run load, each part once and on first use."""

    def __init__(self, argv: list | None = None):
        self.argv = argv  # doit's arguments when run in-process by `npubuild build`
        self.config = None
        self.plan = None
        self.error: str | None = None
        self.stamp: dict | None = None  # set when nothing changed since the last complete build (noop.py)
        self._checked = False
        self._pairs: list[Pair] | None = None
        self._recipes: dict[str, Recipe | None] | None = None
        self._options: dict | None = None
        self._pinned: dict = {}  # (kernel id, target) -> emit option of its pinned source, read once

    def invocation(self) -> list | None:
        return self.argv if self.argv is not None else noop.doit_argv()

    @property
    def jobs(self) -> int:
        """doit's ``num_process`` when ``-n`` is not given: every core (npubuild.engine.jobs)."""
        if not hasattr(self, "_jobs"):
            from .jobs import default_jobs

            self._jobs = default_jobs()
        return self._jobs

    def load_config(self):
        if self.config is None and self.error is None:
            try:
                self.config = load_config(Path.cwd())
            except UserError as e:
                self.error = str(e)
        return self.config

    def fast_stamp(self) -> dict | None:
        """The stamp of the last complete build when a plain build finds nothing changed."""
        if not self._checked:
            self._checked = True
            config = self.load_config()
            argv = self.invocation()
            if config is not None and argv is not None and noop.plain_build(argv) and noop.enabled():
                self.stamp = noop.fresh_stamp(config, config.root / DEP_FILE)
                if self.stamp is not None:
                    _sweep_beside(config)
        return self.stamp

    def load_plan(self):
        config = self.load_config()
        if config is not None and self.plan is None and self.error is None:
            from ..core.fsio import sweep_stale_temps
            from ..specfile.yamlfile import SPEC_CACHE
            from .plan import build_plan

            # a build killed earlier (SIGKILL, power loss) may have left temp files: never a live build's
            sweep_stale_temps(config.artifacts, config.store, config.root / SPEC_CACHE)
            _sweep_beside(config)
            # this run may write (and be killed): until it records a new stamp, the next run takes the full path,
            # whose sweep removes what it may leave (the fast path never walks the artifacts)
            with contextlib.suppress(OSError):
                (config.root / noop.STAMP_FILE).unlink(missing_ok=True)

            try:
                self.plan = build_plan(config)
            except UserError as e:
                self.error = str(e)
        return self.plan

    def pairs(self) -> list[Pair]:
        """Every artifact of the loaded plan, computed once."""
        if self._pairs is None:
            from .targets import compiled_pairs

            art = str(self.plan.config.artifacts)
            self._pairs = [Pair(u.kid, u.instance, u.target, f"{art}/kernels/{u.kid}/{u.label}", u.label, u.own)
                           for u in compiled_pairs(self.plan)]
        return self._pairs

    def recipes(self) -> dict[str, Recipe | None]:
        """target -> its recipe, or None when the build cannot start (and :attr:`error` says why)."""
        if self._recipes is None:
            self._recipes = {}
            config = self.plan.config
            for p in self.pairs():
                t = p.target
                if t.name in self._recipes:
                    continue
                try:
                    problem = t.toolchain_problem(config.store)
                    if problem and config.xdna_strict:
                        raise UserError(f"{problem} (xdna_strict is set: a missing toolchain is an error)")
                    tc = t.fingerprint(config.store)
                except UserError as e:
                    self.error = f"{t.name} toolchain: {e}"
                    self._recipes[t.name] = None
                    continue
                flags = t.flags(config) if not problem else None
                key = hashlib.sha256(f"{CACHE_VERSION}:{t.name}:{tc['id']}:{flags}".encode()).hexdigest()
                self._recipes[t.name] = Recipe(tc, flags, key, problem is None)
        return self._recipes

    def compiles(self, t) -> bool:
        r = self.recipes().get(t.name)
        return bool(r and r.compiles)

    def options(self) -> dict:
        """target -> emit options (device, dialect), computed once."""
        if self._options is None:
            self._options = {}
            config = self.plan.config
            for p in self.pairs():
                if p.target.name not in self._options:
                    self._options[p.target.name] = p.target.emit_options(config, config.store)
        return self._options

    def pair_options(self, pair: Pair) -> dict:
        """Emit options of one kernel on one target variant (xdna: its device and body; a pinned source's sha256)."""
        return self.unit_options(pair.kid, pair.target, pair.own)

    def unit_options(self, kid: str, t, own: dict) -> dict:
        plan = self.plan
        opts = self.options()[t.name]
        if any(opts.get(k) != v for k, v in own.items()):
            opts = {**opts, **own}
        pinned = plan.pinned.get(kid, {}).get(t.name)
        if pinned is not None:
            from .pinned import pinned_option

            # read and hashed once per run: the emit and compile tasks and the no-op stamp see the same bytes
            if (kid, t.name) not in self._pinned:
                self._pinned[(kid, t.name)] = pinned_option(*pinned, plan.config.limits, plan.config.data_roots())
            opts = {**opts, "pinned": self._pinned[(kid, t.name)]}
        return opts


def _sweep_beside(config) -> None:
    """What a killed `npubuild unpack -C artifacts`, a pack into the project or a stamp write left beside the
    artifacts (a listing of two directories: the fast path does it too, since such a kill changes no stamped file)."""
    from ..core.fsio import sweep_beside

    sweep_beside(config.root, every=True)
    for d in {config.artifacts.parent, config.artifacts} - {config.root}:  # wherever NPUBUILD_ARTIFACTS puts them
        sweep_beside(d)
