"""How many tasks a build runs at once when ``-n`` is not given: every core, as ninja and Bazel do.

The default parallel type is doit's thread pool (``-P thread``): a compile's time is its tool
subprocesses (``llc``, ``cc``, ``aiecc``, Peano; farm compiles wait on the network), which run
outside the GIL. Threads need no fork: a worker cannot be killed apart from the build (doit's
process pool waits for ever on a worker the kernel killed), none is left running when the build
is killed, and the default is the same on Linux, macOS and Windows. ``-P process`` stays
available. ``NPUBUILD_JOBS=N`` sets the default (``0``: serial); ``-n`` on the command line wins.
"""
from __future__ import annotations

import os

ENV = "NPUBUILD_JOBS"
_SAID: set = set()


def cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_jobs() -> int:
    """doit's ``num_process`` for a build not given ``-n``: 0 (serial) or the number of workers."""
    said = os.environ.get(ENV, "").strip()
    if said:
        try:
            return max(0, int(said))
        except ValueError:
            if said not in _SAID:  # once per process: a build asks more than once
                import sys

                _SAID.add(said)
                sys.stderr.write(f"npubuild: {ENV}={said!r} is not a number of jobs (a whole number; 0 builds serially): "
                                 "building serially\n")
            return 0
    n = cores()
    return n if n > 1 else 0
