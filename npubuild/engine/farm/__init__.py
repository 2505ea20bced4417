"""The compile farm: kernel compiles that miss every store run as Dask tasks.

``[tool.npubuild] executor = "dask://host:8786"`` (or NPUBUILD_EXECUTOR) sends
each such compile to a Dask distributed scheduler; emits, the plan and the
manifest stay on the machine that builds.

* :mod:`.worker`: what runs on a worker (the request, its own toolchain check,
  the compile in a private temporary directory, the outputs as bytes).
* :mod:`.connect`: the one Client of a build process, and why there is none.
* :mod:`.dispatch`: the client side of one compile: submit, wait, check,
  write the outputs into the kernel directory, or say why it compiles locally.
* :mod:`.status`: ``npubuild farm status``'s view of the workers.
* :mod:`.trust`: which workers are trusted (TLS certificate subjects asked of the
  scheduler) and the provenance a farm-built file records.
* :mod:`.answer`: the checks a worker's answer passes before anything is written.
* ``npubuild.core.farm_settings``: the ``farm_*`` settings (configuration, so outside
  the build stage).

Docs: docs/farm.md.
"""
from __future__ import annotations

LOCAL = "local"


def is_remote(executor: str | None) -> bool:
    return bool(executor) and executor != LOCAL


def scheduler_address(executor: str) -> str:
    """``dask://host:port`` (config.py's form) -> Dask's ``tcp://host:port``."""
    return "tcp://" + executor.removeprefix("dask://")
