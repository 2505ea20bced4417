"""Running one XDNA tool (aiecc, Peano clang++, ar) into a log, as every compile here does.

A run's command line, output and exit status go to the log; a failure to start,
a non-zero exit, a timeout or a missing or empty output raises
:class:`CompileFailed` (the log already says why). The log is written atomically
whatever happens and a failure becomes a :class:`UserError` carrying its tail.
Outputs are fsynced before they take their names. Shared by
:mod:`.aiecc` and :mod:`.aie_kernel_objects`, so that no module reads another's
private helpers.
"""
from __future__ import annotations

import os
import shlex
import signal
import subprocess
from pathlib import Path

from ..core.errors import UserError
from ..core.fsio import atomic_write_text

TIMEOUT_ENV = "NPUBUILD_AIECC_TIMEOUT"
DEFAULT_TIMEOUT = 1800.0


class CompileFailed(Exception):
    """A run failed; what and why are in its log already."""


def tool_timeout(default: float = DEFAULT_TIMEOUT) -> float:
    """Seconds a run may take: $NPUBUILD_AIECC_TIMEOUT when set, else the project's limit."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return default
    try:
        t = float(raw)
    except ValueError:
        t = -1.0
    if not t > 0:
        raise UserError(f"{TIMEOUT_ENV}={raw!r}: expected a positive number of seconds")
    return t


def _kill(p: subprocess.Popen) -> None:
    """Kill ``p``'s process group (it leads its own session), else ``p`` alone."""
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        try:
            p.kill()
        except OSError:
            pass


def run_logged(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float, log: list[str]) -> None:
    """Run ``cmd``; its output and exit status go to ``log``; non-zero exit,
    failure to start or a timeout raise :class:`CompileFailed`.

    The command runs in its own session so that a timeout kills aiecc together
    with the tools it started (clang, opt, llc, xclbinutil, ...).
    """
    log.append(f"$ cd {shlex.quote(str(cwd))} && {shlex.join(cmd)}")
    try:
        p = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            start_new_session=True,
        )
    except OSError as e:
        log.append(f"error: cannot run {cmd[0]}: {e}")
        raise CompileFailed from None
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(p)
        out, _ = p.communicate()
        if out:
            log.append(out.rstrip("\n"))
        log.append(f"error: {Path(cmd[0]).name} timed out after {timeout:g} s (killed; limits.aiecc_timeout / limits.tool_timeout, or {TIMEOUT_ENV})")
        raise CompileFailed from None
    except BaseException:  # e.g. KeyboardInterrupt: do not leave aiecc running
        _kill(p)
        p.wait()
        raise
    if out:
        log.append(out.rstrip("\n"))
    log.append(f"[exit {p.returncode}]")
    if p.returncode != 0:
        raise CompileFailed


def check_output(path: Path, tool: str, log: list[str], word_aligned: bool = False, why_missing: str = "") -> None:
    if not path.is_file():
        log.append(f"error: {tool} exited 0 but did not write {path.name}{why_missing}")
        raise CompileFailed
    size = path.stat().st_size
    if size == 0:
        log.append(f"error: {tool} exited 0 but wrote an empty {path.name}")
        raise CompileFailed
    if word_aligned and size % 4:
        log.append(f"error: {path.name} has {size} bytes, not a whole number of 32-bit instruction words")
        raise CompileFailed


def fsync_file(path: Path) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_log(log: list[str], log_path: Path, ok: bool) -> None:
    if not ok:
        log.append("# FAILED")
    atomic_write_text(log_path, "\n".join(log) + "\n")


LOG_TAIL_LINES = 20  # lines of a failed tool's log an error message quotes (the whole log is in its file)

# what a tool prints for ENOSPC / EDQUOT (strerror): its failure was the disk's, not the source's
_DISK_FULL_TEXT = ("No space left on device", "Disk quota exceeded")


def failure(log: list[str], log_path: Path, what: str, out: Path | None = None) -> Exception:
    """The error of a failed tool run: the tail of its log, or, when a tool said the disk is full, that
    (an OSError(ENOSPC) the build reports in one line, npubuild.core.nospace)."""
    text = "\n".join(log)
    if any(s in text for s in _DISK_FULL_TEXT):
        import errno

        return OSError(errno.ENOSPC, f"{what}: a tool ran out of disk space (full log: {log_path})", str(out or log_path))
    tail = "\n".join(text.splitlines()[-LOG_TAIL_LINES:])
    return UserError(f"{what} failed (full log: {log_path}):\n{tail}")


def preflight_error(log: list[str], log_path: Path, msg: str) -> UserError:
    """A problem found before anything ran: logged; returned as a one-line error to raise."""
    log.append(f"error: {msg}")
    write_log(log, log_path, ok=False)
    return UserError(msg)
