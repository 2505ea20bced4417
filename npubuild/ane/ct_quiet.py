"""coremltools, quietly and one thread at a time.

coremltools writes tqdm progress bars to ``sys.stderr`` (PassPipelineManager.apply_pipeline), warns,
and logs on Linux that libcoremlpython (the Core ML runtime binding) is absent; none of that belongs
in a build's output. Its MIL builder also keeps the function being built in process-wide state, so
two threads must not use it at once; a build runs its tasks on threads (npubuild.engine.jobs).

:func:`quiet` therefore holds one process-wide lock, and captures what the holding thread writes to
``sys.stderr`` without swapping ``sys.stderr`` for everyone (``contextlib.redirect_stderr`` would:
a thread that read ``sys.stderr`` during the swap and restores it later leaves the capture buffer in
place of the real stream): ``sys.stderr`` is wrapped once by :class:`ThreadStderr`, which sends each
thread's writes to that thread's capture buffer when it has one, else to the stream it wraps.
"""
from __future__ import annotations

import contextlib
import functools
import io
import logging
import sys
import threading
import warnings

_LOCK = threading.RLock()


class ThreadStderr(io.TextIOBase):
    """A text stream that writes to the calling thread's capture buffer, or else to ``real``."""

    def __init__(self, real):
        self.real = real
        self.local = threading.local()

    def write(self, s: str) -> int:
        buf = getattr(self.local, "buf", None)
        return (buf if buf is not None else self.real).write(s)

    def flush(self) -> None:
        buf = getattr(self.local, "buf", None)
        (buf if buf is not None else self.real).flush()

    def isatty(self) -> bool:
        return getattr(self.local, "buf", None) is None and self.real.isatty()

    def fileno(self) -> int:
        return self.real.fileno()

    @property
    def encoding(self):
        return getattr(self.real, "encoding", "utf-8")


@contextlib.contextmanager
def quiet():
    """Hold coremltools' lock; keep its progress bars, warnings and logger out of the output. Yields the
    text it wrote to stderr meanwhile, for error messages."""
    with _LOCK:
        stderr = sys.stderr
        if not isinstance(stderr, ThreadStderr):
            stderr = sys.stderr = ThreadStderr(stderr)
        outer = getattr(stderr.local, "buf", None)  # quiet() inside quiet(): the inner one captures
        buf = io.StringIO()
        log = logging.getLogger("coremltools")
        level = log.level
        log.setLevel(logging.ERROR)
        stderr.local.buf = buf
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                yield buf
        finally:
            stderr.local.buf = outer
            log.setLevel(level)


def one_at_a_time(fn, *args):
    """``fn(*args)`` holding coremltools' lock: an ANE graph's build uses coremltools' MIL builder
    from start to end, outside :func:`quiet` too."""
    with _LOCK:
        return fn(*args)


def no_progress_bars() -> None:
    """Disable the tqdm bars coremltools' MIL pass pipelines draw (PassPipelineManager.apply_pipeline). A bar
    writes to whatever ``sys.stderr`` is when it starts, and doit's Python actions swap ``sys.stderr`` for the
    whole process while a task runs; on a threaded build a bar could start on another task's stream and
    escape :func:`quiet`'s per-thread capture. A build never wants them."""
    from coremltools.converters.mil.mil.passes import pass_pipeline

    if not getattr(pass_pipeline.tqdm, "npubuild_disabled", False):
        bars = functools.partial(pass_pipeline.tqdm, disable=True)
        bars.npubuild_disabled = True
        pass_pipeline.tqdm = bars
