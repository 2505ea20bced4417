"""``npubuild farm status``: the scheduler's workers, their resources and toolchains.

The toolchain ids come from each worker itself (Client.run of
worker.describe_worker), compared with this machine's: a worker whose id
differs refuses that target's compiles (docs/farm.md).
"""
from __future__ import annotations

from ...errors import UserError
from .connect import FarmUnavailable, client_for, workers_of
from .dispatch import RESOURCES, _able


def local_toolchains(cache_dir) -> dict:
    from ..targets import COMPILED

    out = {}
    for name, tgt in COMPILED.items():
        try:
            problem = tgt.toolchain_problem(cache_dir)
            out[name] = {"problem": problem} if problem else {"id": tgt.fingerprint(cache_dir)["id"]}
        except UserError as e:
            out[name] = {"problem": str(e).splitlines()[0]}
    return out


def farm_status(executor: str, cache_dir) -> dict:
    """{scheduler, workers: [{address, name, nthreads, resources, toolchains: {target: {id | problem, matches}}, takes}],
    local: {target: {id | problem}}}; UserError when there is no farm to ask."""
    from .worker import describe_worker

    if executor == "local":
        raise UserError('no compile farm configured: set executor = "dask://host:8786" in [tool.npubuild] '
                        "or NPUBUILD_EXECUTOR, or give --scheduler (docs/farm.md)")
    try:
        client = client_for(executor)
    except FarmUnavailable as e:
        raise UserError(f"compile farm {executor} unreachable: {e}") from None
    workers = workers_of(client)
    answers = _ask(client, describe_worker) if workers else {}
    here = local_toolchains(cache_dir)
    rows = []
    for addr in sorted(workers):
        w = workers[addr]
        got = answers.get(addr)
        if isinstance(got, BaseException) or not isinstance(got, dict):
            got = {t: {"problem": f"cannot run npubuild there ({type(got).__name__}: {got})"} for t in here}
        tcs = {}
        for target, mine in here.items():
            theirs = dict(got.get(target) or {"problem": "not reported"})
            theirs["matches"] = "id" in theirs and theirs.get("id") == mine.get("id")
            tcs[target] = theirs
        rows.append({
            "address": addr, "name": str(w.get("name", "")), "nthreads": w.get("nthreads"),
            "resources": dict(w.get("resources") or {}), "toolchains": tcs,
            "takes": [t for t in RESOURCES if _able({addr: w}, t) and tcs.get(t, {}).get("matches")],
        })
    return {"scheduler": executor, "workers": rows, "local": here}


def _ask(client, fn) -> dict:
    """fn on every worker; a worker where it fails answers with its exception (on_error="return")."""
    try:
        return client.run(fn, on_error="return")
    except TypeError:  # distributed without on_error: ask one worker at a time
        out = {}
        for addr in workers_of(client):
            try:
                out.update(client.run(fn, workers=[addr]))
            except Exception as e:  # noqa: BLE001 - shown in the table
                out[addr] = e
        return out


def _brief(problem: str, limit: int) -> str:
    """The problem without its install hints (`npubuild doctor` on that machine has them), cut to ``limit``."""
    text = problem.split("; install:")[0]
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render(status: dict) -> list[str]:
    rows = status["workers"]
    here = status["local"]
    lines = [f"compile farm {status['scheduler']}: {len(rows)} worker{'s' if len(rows) != 1 else ''}"]
    for t, v in here.items():
        lines.append(f"  this machine: {t} {v['id'][:12] if 'id' in v else _brief(v['problem'], 200)}")
    if not rows:
        lines.append("  no workers: start one with `dask worker tcp://HOST:8786` (docs/farm.md)")
        return lines
    table = [["worker", "name", "threads", "resources", *here, "compiles"]]
    for r in rows:
        cells = [r["address"], r["name"], str(r["nthreads"]), " ".join(f"{k}={v:g}" for k, v in sorted(r["resources"].items())) or "-"]
        for t in here:
            tc = r["toolchains"][t]
            if "id" in tc:
                cells.append(f"{tc['id'][:12]} ({'same' if tc['matches'] else 'differs: refused'})")
            else:
                cells.append(f"none ({_brief(tc['problem'], 40)})")
        cells.append(", ".join(r["takes"]) or "none")
        table.append(cells)
    w = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines += ["  " + "  ".join(c.ljust(w[i]) for i, c in enumerate(row)).rstrip() for row in table]
    return lines
