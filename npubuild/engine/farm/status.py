"""``npubuild farm status``: the scheduler's workers, their resources and toolchains.

The toolchain ids come from each worker itself (a describe_worker task pinned
to it, answered in msgpack like a compile), compared with this machine's: a
worker whose id differs refuses that target's compiles (docs/farm.md). The
connection (TLS or plain TCP) and each worker's certificate and trust are shown
too: compiles go only to trusted workers.
"""
from __future__ import annotations

import uuid

from ...core.errors import UserError
from .connect import FarmUnavailable, client_for, workers_of
from .dispatch import RESOURCES, _able
from ...core.farm_settings import FarmSettings
from .trust import subjects, trusted_workers

ASK_TIMEOUT = 30.0  # seconds a worker has to describe itself (it may be busy compiling)


def local_toolchains(cache_dir) -> dict:
    from ..targets import kernel_targets

    out = {}
    for name, tgt in kernel_targets().items():
        try:
            problem = tgt.toolchain_problem(cache_dir)
            out[name] = {"problem": problem} if problem else {"id": tgt.fingerprint(cache_dir)["id"]}
        except UserError as e:
            out[name] = {"problem": str(e).splitlines()[0]}
    return out


def farm_status(executor: str, cache_dir, farm: FarmSettings | None = None) -> dict:
    """{scheduler, connection, trust, workers: [{address, name, nthreads, resources, certificate, trusted,
    toolchains: {target: {id | problem, matches}}, takes}], local: {target: {id | problem}}};
    UserError when there is no farm to ask."""
    from .worker import describe_worker

    farm = farm or FarmSettings()
    if executor == "local":
        raise UserError('no compile farm configured: set executor = "dask://host:8786" in [tool.npubuild] '
                        "or NPUBUILD_EXECUTOR, or give --scheduler (docs/farm.md)")
    try:
        client = client_for(executor, farm)
    except FarmUnavailable as e:
        raise UserError(f"compile farm {executor} {'not used' if e.untrusted else 'unreachable'}: {e}") from None
    workers = workers_of(client)
    answers = _ask(client, describe_worker, workers) if workers else {}
    certs = subjects(client, executor) if farm.tls else {}
    trusted = trusted_workers(client, executor, farm, list(workers))
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
            "certificate": certs.get(addr), "trusted": addr in trusted,
            "takes": [t for t in RESOURCES if _able({addr: w}, t) and tcs.get(t, {}).get("matches") and addr in trusted],
        })
    if farm.trusted:
        trust = "farm_trusted = true: every worker's outputs are used"
    elif farm.tls:
        trust = f"workers whose certificate subject is in farm_trusted_workers ({len(farm.trusted_workers)} listed)"
    else:
        trust = "none: no compile is sent to the farm; " + farm.how_to_trust()
    connection = f"Dask TLS (CA {farm.tls_ca})" if farm.tls else "plain TCP (not authenticated)"
    return {"scheduler": executor, "connection": connection, "trust": trust, "workers": rows, "local": here}


def _ask(client, fn, workers) -> dict:
    """fn on every worker, as a task pinned to it (its answer comes back in msgpack, like a compile's);
    a worker where it fails or that does not answer in time gets the reason instead."""
    import time

    futs = {a: client.submit(fn, key=f"npubuild-describe-{uuid.uuid4().hex[:12]}", workers=[a], allow_other_workers=False,
                             pure=False) for a in workers}
    deadline = time.monotonic() + ASK_TIMEOUT
    out = {}
    for addr, f in futs.items():
        try:
            out[addr] = f.result(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            out[addr] = TimeoutError(f"no answer within {ASK_TIMEOUT:.0f} s")
        except Exception as e:  # noqa: BLE001 - shown in the table (a result that is not msgpack is refused here too)
            out[addr] = e
        f.cancel()
    return out


def _brief(problem: str, limit: int) -> str:
    """The problem without its install hints (`npubuild doctor` on that machine has them), cut to ``limit``."""
    text = problem.split("; install:")[0]
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render(status: dict) -> list[str]:
    rows = status["workers"]
    here = status["local"]
    lines = [f"compile farm {status['scheduler']}: {len(rows)} worker{'s' if len(rows) != 1 else ''}",
             f"  connection: {status['connection']}", f"  trusted workers: {status['trust']}"]
    for t, v in here.items():
        lines.append(f"  this machine: {t} {v['id'][:12] if 'id' in v else _brief(v['problem'], 200)}")
    if not rows:
        lines.append("  no workers: start one with `dask worker tcp://HOST:8786` (docs/farm.md)")
        return lines
    table = [["worker", "name", "threads", "resources", "certificate", "trusted", *here, "compiles"]]
    for r in rows:
        cells = [r["address"], r["name"], str(r["nthreads"]), " ".join(f"{k}={v:g}" for k, v in sorted(r["resources"].items())) or "-",
                 r["certificate"] or "-", "yes" if r["trusted"] else "no"]
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
