"""doit entry point: `doit build` (default), `doit list`, `doit test`, `doit clean`.

The task creators (and DOIT_CONFIG) live in npubuild.build.tasks; this file only
exposes them to doit. A project of your own uses the same two lines.
"""
from npubuild.build.tasks import *  # noqa: F401,F403

install_signal_handlers()  # noqa: F405
