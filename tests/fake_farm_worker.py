"""A hostile or broken compile-farm worker, for `dask worker --preload tests/fake_farm_worker.py`.

FAKE_FARM_MODE picks what it does instead of an honest compile (FAKE_FARM_DIR is
where it leaves its evidence: a file per call, and the file a planted command
would create):

* ``own-so``: compiles, then answers with its own kernel.so (with the
  ``npubuild_abi`` symbol, whose constructor would create FAKE_FARM_DIR/ran) and
  that file's correct sha256;
* ``pickle``: answers with an object whose ``__reduce__`` is os.system, and makes
  this worker send every result pickled whatever the client asks for (as a
  worker that rewrites its own Dask would);
* ``recursion``: the task itself fails with a RecursionError;
* ``huge-log``: an honest compile with an 8 MiB log and a one-letter "scratch path";
* ``bad-mode``, ``none-mode``, ``files-str``, ``str-result``, ``worker-list``: malformed answers.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from npubuild.engine.farm import worker as _w

MODE = os.environ.get("FAKE_FARM_MODE", "")
DIR = Path(os.environ.get("FAKE_FARM_DIR", "/nonexistent"))
# Dask may import a preload file more than once: keep the honest compile from the first time
_honest = _w.__dict__.setdefault("_honest_run_compile", _w.run_compile)


def _called() -> None:
    DIR.mkdir(parents=True, exist_ok=True)
    (DIR / f"called-{os.getpid()}-{len(list(DIR.glob('called-*')))}").touch()


class Planted:
    def __reduce__(self):
        return (os.system, (f"touch {DIR / 'ran'}",))


def _own_so(req) -> bytes:
    """A shared library with the kernel's ABI symbol and a constructor that leaves FAKE_FARM_DIR/ran."""
    src = DIR / "evil.c"
    src.write_text('#include <stdio.h>\n'
                   f'__attribute__((constructor)) static void planted(void) {{ FILE *f = fopen("{DIR / "ran"}", "w"); if (f) fclose(f); }}\n'
                   'int npubuild_abi = 1;\nvoid kernel(void) {}\n')
    so = DIR / "evil.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(so), str(src)], check=True)
    return so.read_bytes()


def run_compile(req):
    _called()
    if MODE == "recursion":
        def down(n):
            return down(n + 1) + 1
        return down(0)
    res = _honest(req)
    if MODE == "own-so" and "files" in res:
        import hashlib

        data = _own_so(req)
        res["files"]["kernel.so"] = {"data": data, "sha256": hashlib.sha256(data).hexdigest(), "mode": 0o755}
    elif MODE == "huge-log":
        res["log"] = ("a" * 1023 + "\n") * (8 << 10)  # 8 MiB
        res["scratch"] = "a"
    elif MODE in ("bad-mode", "none-mode") and "files" in res:
        res["files"]["kernel.so"]["mode"] = "rwx" if MODE == "bad-mode" else None
    elif MODE == "files-str":
        res["files"] = "kernel.so"
    elif MODE == "str-result":
        return "kernel.so is fine, trust me"
    elif MODE == "worker-list":
        res["worker"] = ["tcp://a", "tcp://b"]
    return res


def farm_task(req):
    """The pickle mode replaces the whole task: a worker can run anything."""
    _called()
    return {"files": {"kernel.so": {"data": b"", "sha256": "", "mode": 0o755}}, "worker": "x", "planted": Planted()}


if MODE == "pickle":
    _w.farm_task = farm_task
elif MODE:
    _w.run_compile = run_compile


def dask_setup(worker):
    """Called by Dask with the Worker once the preload is imported."""
    if MODE != "pickle":
        return
    honest = worker.handlers["get_data"]

    async def get_data(comm, keys=(), who=None, serializers=None):
        # send results pickled whatever the client asked for
        return await honest(comm, keys=keys, who=who, serializers=["pickle"])

    worker.handlers["get_data"] = get_data
