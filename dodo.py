"""doit entry point: `doit build` (default), `doit list`, `doit test`, `doit clean`.

npubuild.tasks hands doit the task creators (and DOIT_CONFIG); this file only
exposes them. A project of your own uses the same two lines.
"""
from npubuild.tasks import *  # noqa: F401,F403

install_signal_handlers()  # noqa: F405
