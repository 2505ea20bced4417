"""Pinned sources at build time: a hand-written kernel.mlir / aie.mlir in place of the emitted one.

The spec names the file (:mod:`npubuild.specfile.pinned`); the plan gives each pinned
kernel its (path, project-relative name). The file's sha256 is an emit option, so
it is in the emit key and the emit record: editing the file re-emits (copies) it
and recompiles; the compile key has the source's sha256 as for any source.

The runtime calls a kernel through the interface the emitter would have written
(each target's ``pinned_interface`` says what it is: host, ``func.func @kernel``'s
memref arguments; xdna, the device and the ``runtime_sequence``'s memref
arguments, which the manifest's ABI describes), so a pinned source must keep it:
a different one is refused with both interfaces spelled out, before anything is
compiled.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..core.errors import UserError
from ..core.fsio import read_regular, within_roots
from ..core.limits import Limits


def pinned_option(path: str, shown: str, limits: Limits = Limits(), roots=None) -> dict:
    """The emit option of a pinned source: its name, where it is, and the sha256 of its bytes now (a file
    that cannot be read gives an option saying why: that kernel's emit fails with it, the others build).

    ``roots`` (the project and its data_dirs): the file, symlinks followed, must be inside one of them.
    Checked here, on every build, and not only when the specs are read: a plan can come from the plan
    cache, and the file can have become a link out of the project since."""
    try:
        data = _read(path, shown, limits.spec_max_file_size, roots)
    except UserError as e:
        return {"file": shown, "path": path, "error": str(e)}
    return {"file": shown, "path": path, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def _read(path: str, shown: str, max_size: int, roots=None) -> bytes:
    if roots is not None and not within_roots(Path(path), roots):
        raise UserError(f"pinned source {shown} leads outside the project (and any data_dirs): a pinned source must "
                        "be a file inside them; copy the file in or list its directory in data_dirs")
    try:
        return read_regular(Path(path), max_size)
    except ValueError as e:
        raise UserError(f"pinned source {shown}: cannot be read: {e}") from None
    except OSError as e:
        raise UserError(f"pinned source {shown}: cannot be read: {_os_reason(e)}") from None


def _os_reason(e: OSError) -> str:
    import errno

    if e.errno == errno.ELOOP:
        return "a symlink loop (a link that leads back to itself); make it a regular file"
    return e.strerror or str(e)


def _spell(face: tuple | None) -> str:
    return "none found" if face is None else f"{face[0]}({', '.join(face[1])})"


def source_text(target, instance, options: dict) -> str:
    """What the emit task writes for ``instance`` on ``target``: the kernel's pinned source when its
    family pins one (checked against the emitted text), else the emitted text."""
    generated = target.emit(instance, options)
    return generated if "pinned" not in options else pinned_text(options["pinned"], generated, target)


def pinned_text(option: dict, generated: str, target) -> str:
    """The pinned source's text, checked: the bytes the build keyed on, UTF-8, with the interface
    ``target`` (its ``pinned_interface``) finds in the emitted text."""
    shown = option["file"]
    if "error" in option:
        raise UserError(option["error"])
    data = _read(option["path"], shown, option["size"])
    if hashlib.sha256(data).hexdigest() != option["sha256"]:
        raise UserError(f"pinned source {shown} changed while the build ran; run the build again")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"pinned source {shown}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    want, got = target.pinned_interface(generated), target.pinned_interface(text)
    if want is not None and got != want:
        raise UserError(
            f"pinned source {shown} does not keep the interface the runtime calls: it has {_spell(got)}, the kernel needs "
            f"{_spell(want)}; start from the emitted {target.source_name} of this kernel "
            "(remove the family's sources: and build once to get it)"
        )
    return text
