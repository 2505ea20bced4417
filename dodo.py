"""doit entry point: `doit build` (default), `doit list`, `doit test`, `doit clean`.

The task creators live in npubuild.build.tasks; this file only exposes them.
"""
from npubuild.build.tasks import (  # noqa: F401
    DOIT_CONFIG,
    install_signal_handlers,
    task_ane,
    task_build,
    task_compile,
    task_emit,
    task_manifest,
    task_test,
)

install_signal_handlers()
