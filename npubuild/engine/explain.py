"""Why a kernel's tasks run (or will run), in words: ``npubuild explain`` and ``npubuild build --explain``.

Each (kernel, target) is compared with what its last build recorded: the emit
record (``emit.json``: instance, options, every emitter file's sha256, the
text written, :mod:`.records`) and the build record (``build.json``: the
toolchain fingerprint, the flags, the compile key, the outputs' sha256). The
causes named: a kernel no build has made yet (with the spec line that asks for
it), an emitter source file that changed, an emit option (device, body
source, dialect), a hand-edited generated source, a compiler or tool whose
path or version changed, flags, a linked source, an output that no longer
matches its record; and for a compile that must happen, whether its new key
is already in the local store (then nothing compiles) or not.
"""
from __future__ import annotations

import json

from ..core.errors import UserError
from ..core.fsio import sha256_file
from .actions import RECORD_NAME, compile_key
from .records import hand_edited, read_emit_record
from .pinned import source_text

_SHOWN = 80  # characters of a changed value shown
# the toolchain fingerprint's fields, as a user names them
TOOL_LABELS = {"cc": "C compiler", "cc_path": "C compiler path", "cc_version": "C compiler version",
               "llc": "llc", "llc_version": "llc version", "libllvm": "libLLVM", "packages": "Python packages",
               "mlir_capi": "MLIR bindings", "sha256": "the bytes (sha256)"}


def _short(v) -> str:
    s = v if isinstance(v, str) else " ".join(map(str, v)) if isinstance(v, list) else json.dumps(v, sort_keys=True)
    return s if len(s) <= _SHOWN else s[: _SHOWN - 3] + "..."


def _diff(what: str, old: dict, new: dict, keys=None) -> list[str]:
    out = []
    for k in keys or sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            if isinstance(old.get(k), dict) and isinstance(new.get(k), dict):
                sub = sorted(x for x in set(old[k]) | set(new[k]) if old[k].get(x) != new[k].get(x))
                out.append(f"{what} {k} of {', '.join(sub)} changed")
            elif k not in old:
                out.append(f"{what} {k} added: {_short(new[k])}")
            elif k not in new:
                out.append(f"{what} {k} removed (was {_short(old[k])})")
            else:
                out.append(f"{what} {k}: {_short(old[k])} -> {_short(new[k])}")
    return out


def wanted_by(plan, inst) -> list[str]:
    """The spec entries (file:line) that ask for ``inst``."""
    # a family's shape entry: its own line (the family's when the lines are not known)
    out = [f"kernel family '{f.name}' ({f.file}:{(f.lines or [f.line] * len(f.instances))[i]})"
           for f in plan.spec.families.values() for i, j in enumerate(f.instances) if j.key == inst.key]
    out += [f"graph '{g.name}' ({g.file}:{g.line})" for g in plan.spec.graphs.values()
            if any(s.instance.key == inst.key for s in g.steps)]
    return out


def explain_pair(plan, kid: str, target, options: dict, recipe, label: str | None = None) -> tuple[bool, list[str]]:
    """(will it run, the reasons) for kernel ``kid`` on ``target`` (a build.targets object).
    ``recipe``: the target's :class:`~npubuild.engine.state.Recipe`, as the build computes it (None: it cannot start)."""
    from .manifest_writer import kernel_dir

    inst = plan.instances[kid]
    d = kernel_dir(plan.config.artifacts, kid, label or target.name)  # label: xdna.npu2 for one of several devices
    src = d / target.source_name
    if not src.is_file():
        who = wanted_by(plan, inst)
        return True, [f"new: no build has made it yet; asked for by {', '.join(who) or 'the specs'}"]
    reasons: list[str] = []
    try:
        text = source_text(target, inst, options)
    except UserError as e:  # e.g. a pinned source that does not keep the interface: what the build will say
        return True, [f"the emit will fail: {e}"]
    import hashlib

    new_sha = hashlib.sha256(text.encode()).hexdigest()
    rec = read_emit_record(src)
    if rec is None:
        reasons.append(f"{src.name} has no emit record (made by an older npubuild): emitted again")
    else:
        from .records import emitter_files

        old, now = rec.get("emitter", {}), emitter_files(target.name)
        for name in sorted(set(old) | set(now)):
            if old.get(name) != now.get(name):
                how = "is new" if name not in old else "was removed" if name not in now else "changed"
                reasons.append(f"emitter source {name} {how}")
        old_pin, new_pin = (rec.get("options") or {}).get("pinned"), options.get("pinned")
        if old_pin != new_pin:
            reasons.append(f"pinned source {new_pin['file']} changed" if old_pin and new_pin and old_pin.get("file") == new_pin["file"]
                           else f"pinned source {new_pin['file']} replaces the emitted one" if new_pin
                           else f"the family no longer pins {old_pin.get('file')}: emitted again")
        reasons += _diff("emit option", {k: v for k, v in (rec.get("options") or {}).items() if k != "pinned"},
                         {k: v for k, v in options.items() if k != "pinned"})
        if hand_edited(src, rec):
            reasons.append(f"{src.name} was edited by hand (it differs from what the emitter wrote): the build restores it")
        elif rec.get("source_sha256") != new_sha and not reasons:
            reasons.append(f"{src.name} changes: the emitter now writes a different text")
    if recipe is None or not recipe.compiles:
        return bool(reasons), reasons or ["emitted; this target is not compiled here"]
    tc, flags = recipe.toolchain, recipe.flags
    try:
        build = json.loads((d / RECORD_NAME).read_text())
    except (OSError, ValueError):
        return True, reasons + ["not compiled yet"]
    old_tc = build.get("toolchain") or {}
    compile_reasons = [
        r.replace("toolchain ", "", 1) for k in sorted(set(old_tc) | set(tc)) if k != "id"
        for r in _diff("toolchain", {TOOL_LABELS.get(k, k): old_tc.get(k)} if k in old_tc else {},
                       {TOOL_LABELS.get(k, k): tc.get(k)} if k in tc else {})
    ]
    compile_reasons += _diff("flag", build.get("flags") or {}, flags or {}) if isinstance(flags, dict) else (
        [f"flags: {_short(build.get('flags'))} -> {_short(flags)}"] if build.get("flags") != flags else [])
    old_src = (build.get("files") or {}).get(target.source_name, {}).get("sha256")
    try:
        linked = target.linked_inputs(inst, options, tc, flags)
    except Exception as e:  # noqa: BLE001 - an explanation, not the build: say what stops the compile
        return True, reasons + compile_reasons + [f"the compile would fail: {e}"]
    key = compile_key(target.name, new_sha, tc["id"], flags, linked)
    if key != build.get("key") and not compile_reasons and old_src == new_sha:
        compile_reasons.append("a linked source changed (an mlir-aie kernel or mm.cc the design links)")
    outputs_ok = all(
        (d / n).is_file() and sha256_file(d / n) == (build.get("files") or {}).get(n, {}).get("sha256")
        for n in target.binaries.values()
    )
    if key == build.get("key") and outputs_ok:
        return bool(reasons), reasons or ["nothing it depends on changed"]
    if key == build.get("key"):
        compile_reasons.append(f"{', '.join(target.binaries.values())} no longer match {RECORD_NAME} (edited or damaged)")
    from ..artifacts.store import Store

    hit = Store(plan.config.store).get(key) is not None
    if hit:
        compile_reasons.append("its compile key is in the local store: taken from there, nothing compiles")
    elif plan.config.stores:
        compile_reasons.append("not in the local store: the shared stores are asked, and it compiles if none has it")
    else:
        compile_reasons.append("store miss: it compiles")
    return True, reasons + compile_reasons


def explain(plan, selector: str | None, recipes: dict, options_of) -> list[tuple[str, bool, list[str]]]:
    """(task name, will run, reasons) for the kernels ``selector`` names: a kernel id, a task
    (``emit:ID@TARGET`` / ``compile:ID@TARGET``), or None for every kernel of the plan."""
    from ..core.errors import UserError
    from .targets import compiled_pairs

    kid_sel, target_sel = selector, None
    if selector and ":" in selector:
        kid_sel = selector.split(":", 1)[1]
    if kid_sel and "@" in kid_sel:
        kid_sel, target_sel = kid_sel.rsplit("@", 1)
    if kid_sel and kid_sel not in plan.instances:
        from ..ops.registry import did_you_mean

        raise UserError(f"no kernel '{kid_sel}' in the plan{did_you_mean(kid_sel, list(plan.instances))}; "
                        "`npubuild list` shows them")
    out = []
    for unit in compiled_pairs(plan):
        kid, t = unit.kid, unit.target
        if (kid_sel and kid != kid_sel) or (target_sel and target_sel not in (t.name, unit.label)):
            continue
        runs, why = explain_pair(plan, kid, t, options_of(kid, t, unit.own), recipes.get(t.name), unit.label)
        out.append((f"{kid}@{unit.label}", runs, why))
    if selector and not out:
        raise UserError(f"'{selector}' names no built target of kernel {kid_sel} (its targets: "
                        f"{', '.join(plan.targets.get(kid_sel, ()))})")
    return out


def explain_build(selector: str | None = None) -> list[tuple[str, bool, list[str]]]:
    """:func:`explain` for the project in the current directory, with the build's own recipes and options."""
    from .state import Build

    build = Build()
    plan = build.load_plan()
    if plan is None:
        from ..core.errors import UserError

        raise UserError(build.error or "no build plan")
    return explain(plan, selector, build.recipes(), build.unit_options)
