"""The state of one doit run in this process: configuration, plan, recipes and
the nothing-changed stamp, loaded once by the task creators (npubuild.build.tasks)."""
from __future__ import annotations


class BuildState:
    """What the task creators loaded in this process: read again by the
    manifest action (run in this process, or in a forked worker that inherits it)
    and by the build report."""

    config = None
    plan = None
    error: str | None = None
    pairs: list | None = None
    recipes: dict | None = None
    options: dict | None = None
    pinned: dict | None = None  # (kernel id, target) -> emit option of its pinned source, read once
    argv: list | None = None  # doit's arguments when run in-process by `npubuild build`
    stamp: dict | None = None  # set when nothing changed since the last complete build (noop.py)
    checked = False

    @classmethod
    def reset(cls, argv: list | None = None) -> None:
        """Forget everything loaded (for a second in-process run)."""
        cls.config = cls.plan = cls.error = cls.pairs = cls.recipes = cls.options = cls.pinned = cls.stamp = None
        cls.checked = False
        cls.argv = argv
