"""User-facing errors.

Everything a user can cause (a bad spec, a missing input, a corrupted artifact)
raises a subclass of :class:`UserError`; the CLI and the doit entry points print
its message and exit non-zero instead of showing a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


class UserError(Exception):
    """An error caused by input the user controls; printed without a traceback."""


class OpError(UserError):
    """An op rejected its shapes, dtypes or attrs (raised by shape inference)."""


class UnsupportedOnTarget(UserError):
    """An op/shape combination that a target cannot run (never silently falls back)."""


class VerifyError(UserError):
    """Artifacts on disk do not match the manifest."""


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int  # 1-based; 0 when the problem has no position (e.g. an empty file)
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


class SpecError(UserError):
    """One or more problems found while loading specs; each names file:line."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.file, d.line, d.message))
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def did_you_mean(word: str, candidates) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``candidates``, or ""."""
    import difflib

    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
