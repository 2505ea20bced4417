"""The ``npubuild`` command line: one module per command, each declaring a :class:`~.common.Command`
(name, help, options, run function), listed once in :mod:`.table`, which builds the parser.

It may import every stage: it is the entry point (``npubuild = "npubuild.cli:main"``).
"""
from __future__ import annotations

from .table import main, make_parser

__all__ = ["main", "make_parser"]
