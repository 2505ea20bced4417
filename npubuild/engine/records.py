"""The records a build checks its outputs against, and the emit record.

doit's up-to-date checks for outputs whose bytes matter: a compile's binaries
against its build record (``build.json``), an ane graph's files against its
``plan.json``, an emitted source against its emit record.

The emit record: what a kernel's generated source was written from.

``emit.json`` beside each emitted source holds the instance key, the emit
options, the sha256 of every emitter source file and of the text written. It
lets a build notice a hand-edited source (its bytes differ from what the
emitter wrote: the emit task runs again, restores the text and says so) and
lets ``npubuild explain`` name the emitter file or the option that changed.
"""
from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path

from ..core.fsio import atomic_write_text, sha256_file

EMIT_RECORD = "emit.json"
RECORD_NAME = "build.json"  # the build record (npubuild.engine.actions writes it)
# doit inspects every uptodate callable's signature on every run: the checks below give it precomputed
TASK_VALUES = inspect.Signature(
    [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("task", "values")])
_PACKAGE = Path(__file__).resolve().parent.parent  # npubuild/


@functools.lru_cache(maxsize=None)
def _emitter_files(target: str) -> tuple:
    return tuple(sorted(emitter_files_now(target).items()))


def emitter_files(target: str) -> dict[str, str]:
    """``npubuild/<path>`` -> sha256 of every source file of ``target``'s emitters (read once per process:
    the code a process runs does not change under it)."""
    return dict(_emitter_files(target))


def emitter_files_now(target: str) -> dict[str, str]:
    from .targets import kernel_target

    t = kernel_target(target)
    out = {}
    for rel in t.emitter_dirs if t is not None else ():
        for p in sorted((_PACKAGE / rel).glob("*.py")):
            out[f"npubuild/{rel}/{p.name}"] = sha256_file(p)
    return out


def record_path(source: Path) -> Path:
    return Path(source).parent / EMIT_RECORD


def read_emit_record(source: Path) -> dict | None:
    try:
        rec = json.loads(record_path(source).read_text())
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) else None


def hand_edited(source: Path, record: dict | None = None) -> bool:
    """True when the source on disk is not the text its emit record says was written."""
    record = read_emit_record(source) if record is None else record
    if not record or not Path(source).is_file():
        return False
    return sha256_file(Path(source)) != record.get("source_sha256")


def write_emit_record(source: Path, target: str, instance_key: str, options: dict, text: str) -> None:
    import hashlib

    rec = {
        "target": target,
        "instance": instance_key,
        "options": options,
        "emitter": emitter_files(target),
        "source_sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
    atomic_write_text(record_path(source), json.dumps(rec, sort_keys=True, indent=1))


class SourceMatchesEmitRecord:
    """Up to date only while the emit record says the source was written by these emitter files, for
    this instance and these options, and the source still has the bytes the emitter wrote (a hand edit
    re-runs the emit task, which restores the text). ``npubuild explain`` reads the same record."""

    __signature__ = TASK_VALUES

    def __init__(self, source: str, target: str, instance_key: str, options: dict):
        self.source, self.target, self.instance_key, self.options = source, target, instance_key, options

    def __call__(self, task, values) -> bool:
        rec = read_emit_record(Path(self.source))
        return (rec is not None and rec.get("instance") == self.instance_key and rec.get("options") == self.options
                and rec.get("emitter") == emitter_files(self.target) and not hand_edited(Path(self.source), rec))


class OutputsMatchRecord:
    """Up to date only while every compiled output still has the sha256 and size
    its build record says: doit checks only that targets exist, so a flipped byte
    (or a directory in a binary's place) would otherwise stay "up to date"."""

    __signature__ = TASK_VALUES

    def __init__(self, kernel_dir: str, binaries):
        self.kernel_dir, self.binaries = kernel_dir, tuple(binaries)

    def __call__(self, task, values) -> bool:
        import json

        from ..core.fsio import sha256_file

        d = Path(self.kernel_dir)
        try:
            files = json.loads((d / RECORD_NAME).read_text())["files"]
            for name in self.binaries:
                p, rec = d / name, files[name]
                if not p.is_file() or p.stat().st_size != rec["size"] or sha256_file(p) != rec["sha256"]:
                    return False
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return True
