"""What a build prints: progress while it runs, and what happened when it ends.

On a terminal one live status line (rich), e.g.
``[137/526] compile relu_f32_64x4096@host 0.07s · ETA 25s``, and a line per
task only when it fails (or with ``NPUBUILD_VERBOSE=1`` / ``npubuild build
--verbose``). Not a terminal (CI, logs): one line per executed task, as doit
writes them. ``NPUBUILD_QUIET=1`` (``--quiet``) prints neither, only failures
and the summary; ``NPUBUILD_SUMMARY=json`` (``--json``) ends with the summary as
one JSON object instead of the text lines. ``NPUBUILD_PROGRESS=1`` / ``0`` forces the status line on or
off.

At the end: the counts line (``npubuild: N kernels; compiled .., from store ..
(.. from shared stores), up to date .., failed .., not built ..``, and the wall time), the five slowest
actions, and after a failure every failed task with its first error line and
its log, then a last line that says the build failed: a failed build never
ends on a line that reads like success.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from doit.reporter import ConsoleReporter

SLOWEST = 5
# the tasks a build counts and times (doit's group tasks "emit", "compile" ... have no actions)
COUNTED = ("emit:", "compile:", "manifest")


def _flag(name: str) -> bool | None:
    v = os.environ.get(name)
    if v is None:
        return None
    return v.strip().lower() in ("1", "true", "yes", "on")


def _counted(task) -> bool:
    return bool(task.actions) and task.name.startswith(COUNTED)


# a kind's tasks must have run this many times before the ETA counts on its average
ETA_SAMPLES = 3


def task_kind(name: str) -> str:
    """What a task's duration is like: ``emit``, ``compile@host``, ``compile@xdna.npu2``, ``manifest`` ...
    (emits take milliseconds, compiles seconds, and each target its own)."""
    verb, _, what = name.partition(":")
    return f"{verb}@{what.rpartition('@')[2]}" if "@" in what else verb


def workers_of(argv: list | None, default: int = 0) -> int:
    """How many tasks doit runs at once: ``-n N`` / ``--process=N``, else ``default`` (doit's
    ``num_process``; 0 is serial, one at a time)."""
    args = list(argv or ())
    for i, a in enumerate(args):
        value = None
        if a in ("-n", "--process") and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith("--process="):
            value = a.partition("=")[2]
        elif a.startswith("-n") and len(a) > 2:
            value = a[2:]
        if value is not None:
            try:
                return max(1, int(value))
            except ValueError:
                return 1
    return max(1, default)


class ProgressReporter(ConsoleReporter):
    """doit's reporter with npubuild's progress line, timings and failure summary.

    Subclasses give :meth:`log_path` (where a failed task's log is) and call
    :meth:`write_summary` from ``complete_run``."""

    interrupt_said = False  # set once a summary has said the run was interrupted (the exit hook then stays quiet)

    def __init__(self, outstream, options):
        super().__init__(outstream, options)
        # store: local-store hits; shared: those from a shared store; farm: compiled ones a farm worker compiled
        self.counts = {"compiled": 0, "store": 0, "shared": 0, "uptodate": 0, "farm": 0}
        self.json = os.environ.get("NPUBUILD_SUMMARY", "").strip().lower() == "json"
        self.quiet = bool(_flag("NPUBUILD_QUIET")) or self.json
        self.verbose = bool(_flag("NPUBUILD_VERBOSE"))
        live = _flag("NPUBUILD_PROGRESS")
        tty = getattr(outstream, "isatty", lambda: False)()
        self.live_wanted = (tty if live is None else live) and not self.quiet
        self.total = 0
        self.done = 0
        self.workers = 1  # tasks running at once (a subclass knows the command line)
        self.left: dict[str, int] = {}  # task kind -> how many of it have not finished
        self.kinds: dict[str, int] = {}  # task kind -> how many of it this run has
        self.spent: dict[str, list[float]] = {}  # task kind -> [seconds, count] of those that ran
        self.started: dict[str, float] = {}
        self.times: list[tuple[float, str]] = []
        self.failed: list[tuple[str, str]] = []  # (task, message)
        self.not_built: list[str] = []
        self.t0 = time.monotonic()
        self._live = None
        self._current = ""

    # -- doit's callbacks --
    def initialize(self, tasks, selected_tasks):
        self.t0 = time.monotonic()
        counted = [t for t in tasks.values() if _counted(t)] if isinstance(tasks, dict) else []
        self.total = len(counted)
        for t in counted:
            self.left[task_kind(t.name)] = self.left.get(task_kind(t.name), 0) + 1
        self.kinds = dict(self.left)  # task kind -> how many there are in this run
        if self.live_wanted and self.total:
            self._start_live()

    def execute_task(self, task):
        if not _counted(task):
            return
        self.started[task.name] = time.monotonic()
        self._current = task.name
        if self._live is None and not self.quiet and not (self.live_wanted and not self.verbose):
            super().execute_task(task)
        elif self._live is not None and self.verbose:
            self._live.console.print(f".  {task.title()}", highlight=False)
        self._refresh()

    def add_success(self, task):
        super().add_success(task)
        self._finished(task)

    def skip_uptodate(self, task):
        # no line per up-to-date task: at thousands of kernels that drowns the one line that matters
        if task.name.startswith("compile:"):
            self.counts["uptodate"] += 1
        if _counted(task):
            kind = task_kind(task.name)
            self.left[kind] = max(0, self.left.get(kind, 0) - 1)
            self.done += 1
            self._refresh()

    def skip_ignore(self, task):
        if _counted(task):
            kind = task_kind(task.name)
            self.left[kind] = max(0, self.left.get(kind, 0) - 1)
            self.done += 1
        super().skip_ignore(task)

    def add_failure(self, task, fail):
        if _counted(task):
            if type(fail).__name__ == "UnmetDependency":
                self.not_built.append(task.name)  # a task it needs failed
            else:
                self.failed.append((task.name, fail.get_msg()))
            self._finished(task)
        self._stop_live()
        if fail.report:
            self.failures.append({"task": task, "exception": fail})
        # stdout carries the one JSON object with --json; a task not run because one it needs failed is counted
        # in the summary ("not built"); a failure is said here in npubuild's words, not doit's
        # ("TaskFailed - taskid:...", its captured-output dump), and once more, in one line, at the end
        if not self.json and type(fail).__name__ != "UnmetDependency":
            self.write(f"{task.name} failed: {fail.get_msg().strip()}\n")
        if self.live_wanted:
            self._start_live()

    # -- the live line --
    def _start_live(self):
        if self._live is not None:
            return
        from rich.console import Console
        from rich.live import Live

        console = Console(file=self.outstream, force_terminal=True, highlight=False)
        self._live = Live("", console=console, transient=True, refresh_per_second=8, auto_refresh=False)
        self._live.start()

    def _stop_live(self):
        if self._live is not None:
            self._live.stop()
            self._live = None

    def _refresh(self):
        if self._live is None:
            return
        from rich.text import Text

        self._live.update(Text(self.status_line()), refresh=True)

    def status_line(self) -> str:
        """``[137/526] compile relu_f32_64x4096@host 0.07s · ETA 25s``: the task that finished last and its
        seconds (the running one, with none, before any finished)."""
        name, last = self._current, ""
        if self.times:
            took, name = self.times[-1]
            last = f" {took:.2f}s"
        verb, _, what = name.partition(":")
        eta = self.eta()
        eta = f" · ETA {eta:.0f}s" if eta is not None else ""
        return f"[{self.done}/{self.total}] {verb}{' ' + what if what else ''}{last}{eta}"

    def eta(self) -> float | None:
        """Seconds to go: each kind's tasks left times its mean duration (emits and each target's compiles
        apart), over the tasks run at once; None until every kind still to run has run ETA_SAMPLES times."""
        # a kind with fewer tasks than that (the manifest) is left out: there is nothing to average
        left = {k: n for k, n in self.left.items() if n > 0 and self.kinds.get(k, 0) >= ETA_SAMPLES}
        if not left or any(self.spent.get(k, (0, 0))[1] < ETA_SAMPLES for k in left):
            return None
        return sum(n * self.spent[k][0] / self.spent[k][1] for k, n in left.items()) / self.workers

    def _finished(self, task):
        if not _counted(task):
            return
        t = self.started.pop(task.name, None)
        kind = task_kind(task.name)
        if t is not None:
            took = time.monotonic() - t
            self.times.append((took, task.name))
            spent = self.spent.setdefault(kind, [0.0, 0])
            spent[0], spent[1] = spent[0] + took, spent[1] + 1
        self.left[kind] = max(0, self.left.get(kind, 0) - 1)
        self.done += 1
        self._refresh()

    def note(self, line: str) -> None:
        """A line that must be seen now (a warning), above the status line."""
        if self._live is not None:
            self._live.console.print(line, highlight=False, markup=False)
        else:
            self.outstream.write(line + "\n")

    # -- the end --
    def log_path(self, task_name: str) -> str | None:
        """Where the failed task's log is (subclasses know the layout), or None."""
        return None

    def write_summary(self, kernels: int, notes: list[str], fast: str = "", graphs: int = 0) -> None:
        """Notes, the counts line with the wall time, the slowest actions, and on failure what failed.
        ``graphs``: the whole graphs a graph target (ane) builds; the counts cover them as they do kernels."""
        self._stop_live()
        out = self.outstream
        if self.json:
            import json

            # "store": every store hit, "shared": those of them that came from a shared store
            c = self.counts
            doc = {"kernels": kernels, "graphs": graphs, **c, "store": c["store"] + c["shared"], "failed": len(self.failed), "not_built": len(self.not_built),
                   "ok": not (self.failed or self.not_built or self.runtime_errors), "nothing_changed": bool(fast),
                   "seconds": round(time.monotonic() - self.t0, 3), "notes": notes,
                   "slowest": [{"task": n, "seconds": round(t, 3)} for t, n in sorted(self.times, reverse=True)[:SLOWEST]],
                   "failures": [{"task": n, "error": first_error(m), "log": self.log_path(n)} for n, m in self.failed]}
            out.write(json.dumps(doc, sort_keys=True) + "\n")
            return
        for line in notes:
            out.write(line + "\n")
        c = self.counts
        wall = time.monotonic() - self.t0
        extra = ""
        if self.failed or self.not_built:
            extra = f", failed {len(self.failed)}, not built {len(self.not_built)}"
        shared = f" ({c['shared']} from shared stores)" if c["shared"] else ""
        built = f"{kernels} kernels" + (f", {graphs} graph{'s' if graphs != 1 else ''}" if graphs else "")
        farm = f" ({c['farm']} on the compile farm)" if c["farm"] else ""
        out.write(f"npubuild: {built}; compiled {c['compiled']}{farm}, from store {c['store'] + c['shared']}{shared}, "
                  f"up to date {c['uptodate']}{extra}{fast} in {wall:.1f}s\n")
        if self.times and not self.quiet:
            slow = sorted(self.times, reverse=True)[:SLOWEST]
            out.write("slowest: " + ", ".join(f"{name} {sec:.2f}s" for sec, name in slow) + "\n")
        if isinstance(sys.exc_info()[1], KeyboardInterrupt):  # doit reports from a finally: the interrupt is in flight
            ProgressReporter.interrupt_said = True
            out.write(f"npubuild: interrupted: {self.done} of {self.total} tasks done, {self.total - self.done} not run; "
                      "what finished is kept and the next build goes on from there\n")
            return
        if not (self.failed or self.not_built or self.runtime_errors):
            return
        for name, msg in self.failed:
            first = first_error(msg)
            log = self.log_path(name)
            out.write(f"FAILED {name}: {first[:300]}" + (f" (log: {log})" if log else "") + "\n")
        what = [f"{len(self.failed)} task(s) failed"] if self.failed else []
        if self.not_built:
            what.append(f"{len(self.not_built)} not built")
        if self.runtime_errors and not what:
            what.append("doit stopped the run")
        out.write(f"npubuild: BUILD FAILED: {', '.join(what)}\n")

    def complete_run(self):
        self._stop_live()
        if self.json:
            return
        # each failure was said when it happened (add_failure) and the summary lists them again; what doit
        # could not run at all (a task it cannot find, a dependency cycle) is said once, in one line each
        for err in self.runtime_errors:
            line = (str(err).strip().splitlines() or ["unknown error"])[0]
            self.write(f"npubuild: the build could not run: {line}\n")


def first_error(msg: str) -> str:
    """The line of a failure message that says what went wrong: the first that names an error
    (a tool's ``error:`` line in the log tail), else the message's first line."""
    lines = [ln.strip() for ln in msg.splitlines() if ln.strip()]
    for ln in lines[1:]:
        if "error" in ln.lower() and not ln.startswith("#"):
            return ln
    return lines[0] if lines else "failed"


def relative_log(artifacts: Path, kernel_id: str, target: str, kernel_dir) -> str | None:
    """The build.log of a failed compile, relative to the current directory when under it."""
    p = kernel_dir(artifacts, kernel_id, target) / "build.log"
    if not p.is_file():
        return None
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return str(p)

