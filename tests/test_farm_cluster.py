"""The compile farm with real processes: a `dask scheduler` and `dask worker`s on
127.0.0.1 (tests/farmkit.py), a 200-kernel host build through them with a worker
killed mid-compile, and a worker whose host toolchain differs."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time

import pytest

pytest.importorskip("distributed")

from .conftest import BuildResult, new_project  # noqa: E402
from .farmkit import LocalFarm, relu_sweep_spec  # noqa: E402

N_KERNELS = 200
JOBS = 4
BUILD_TIMEOUT = 400  # seconds for one build of the 200 kernels (about 25 s here)


def _farm_logs(p) -> dict:
    """kernel id -> the worker its build.log says compiled it (None: compiled on this machine)."""
    out = {}
    for lg in sorted(p.artifacts.glob("kernels/*/host/build.log")):
        first = lg.read_text().splitlines()[0]
        out[lg.parent.parent.name] = first.split()[5] if first.startswith("# compiled on farm worker ") else None
    return out


def _hashes(p) -> dict:
    return {so.parent.parent.name: hashlib.sha256(so.read_bytes()).hexdigest()
            for so in p.artifacts.glob("kernels/*/host/kernel.so")}


def _in_flight(dask_scheduler) -> int:
    """Compile tasks the scheduler holds (waiting, queued or running): the futures clients wait on."""
    return sum(1 for k in dask_scheduler.tasks if str(k).startswith("npubuild-compile-"))


@pytest.mark.slow
def test_200_kernels_through_two_workers_one_killed_mid_compile(tmp_path):
    with LocalFarm(tmp_path / "farm") as farm:
        farm.start_scheduler()
        farm.start_worker("a")
        farm.start_worker("b")
        addr = farm.wait_for_workers(["a", "b"])
        client = farm.client()
        p = new_project(tmp_path / "proj", relu_sweep_spec(N_KERNELS))
        env = dict(os.environ, NPUBUILD_EXECUTOR=farm.executor, NPUBUILD_FARM_TRUSTED="1")  # this test's own workers
        build = subprocess.Popen([sys.executable, "-m", "doit", "-n", str(JOBS), "-P", "thread", "build"], cwd=p.root, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        killed_keys, max_flight, deadline = [], 0, time.monotonic() + BUILD_TIMEOUT
        while build.poll() is None and time.monotonic() < deadline:
            max_flight = max(max_flight, client.run_on_scheduler(_in_flight))
            if not killed_keys and len(list(p.artifacts.glob("kernels/*/host/build.json"))) >= 40:
                running = client.processing(workers=[addr["a"]]).get(addr["a"]) or []
                if running:  # kill "a" while it holds compiles: they must be done again elsewhere
                    farm.kill("a")
                    killed_keys = list(running)
            time.sleep(0.05)
        try:
            out, err = build.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            build.kill()
            out, err = build.communicate()
            pytest.fail(f"the farm build did not finish within {BUILD_TIMEOUT} s:\n{out[-3000:]}\n{err[-3000:]}")
        r = BuildResult(build.returncode, out, err)
        assert r.rc == 0, f"{out[-3000:]}\n{err[-3000:]}"
        assert killed_keys, "worker a was never seen holding a compile after 40 kernels: nothing was killed mid-compile"

        s = r.summary
        assert (s["kernels"], s["compiled"], s["store"], s["uptodate"]) == (N_KERNELS, N_KERNELS, 0, 0), out[-2000:]
        executed = r.executed("compile:")
        assert len(executed) == N_KERNELS == len(set(executed))  # each compile task ran once on this machine
        who = _farm_logs(p)
        assert len(who) == N_KERNELS
        assert all(w in (addr["a"], addr["b"]) for w in who.values()), {k: w for k, w in who.items() if w not in addr.values()}
        assert {addr["a"], addr["b"]} <= set(who.values())  # both worked before a went away
        redone = [k.split("npubuild-compile-", 1)[1].rsplit("@host-", 1)[0] for k in killed_keys]
        assert any(who[kid] == addr["b"] for kid in redone), (redone, [who[k] for k in redone])
        assert "Traceback" not in err
        assert not [ln for ln in out.splitlines() if ln.startswith(("npubuild: compile farm", "npubuild: farm worker"))], out[-2000:]
        assert max_flight == JOBS  # doit -n 4 -P thread keeps 4 remote compiles in flight
        p.npubuild("verify")

    local = new_project(tmp_path / "local", relu_sweep_spec(N_KERNELS))
    rl = local.doit("-n", "2", "build")
    assert rl.summary["compiled"] == N_KERNELS
    assert _hashes(p) == _hashes(local) and len(_hashes(p)) == N_KERNELS


@pytest.mark.slow
def test_a_worker_with_another_host_toolchain_is_refused(tmp_path):
    with LocalFarm(tmp_path / "farm") as farm:
        farm.start_scheduler()
        farm.start_worker("good")
        # another C compiler command line: the host fingerprint (toolchain/host.py: cc_args) differs
        farm.start_worker("other", env={"NPUBUILD_CC": "cc -m64"})
        addr = farm.wait_for_workers(["good", "other"])
        env = {"NPUBUILD_EXECUTOR": farm.executor, "NPUBUILD_FARM_TRUSTED": "1"}
        p = new_project(tmp_path / "one", relu_sweep_spec(12))
        st = p.npubuild("farm", "status", env=env).out
        assert "2 workers" in st and "(differs: refused)" in st and "(same)" in st, st
        r = p.doit("-n", "2", "-P", "thread", "build", env=env)
        assert r.summary["compiled"] == 12 and "compiled 12 (12 on the compile farm)" in r.out, r.out
        assert set(_farm_logs(p).values()) == {addr["good"]}  # every kernel went to the good worker
        assert (f"npubuild: farm worker {addr['other']} refused host compiles: its host toolchain differs in cc "
                f"(cc: ['{_cc()}', '-m64'] here, ['{_cc()}'] on the client)") in r.out, r.out

        farm.kill("good")
        _wait_gone(farm, addr["good"])
        q = new_project(tmp_path / "two", relu_sweep_spec(5))
        r = q.doit("build", env=env)
        assert r.summary["compiled"] == 5 and "on the compile farm" not in r.out
        assert set(_farm_logs(q).values()) == {None}  # compiled on this machine, and the build says so:
        assert f"every worker of {farm.executor} that takes host compiles refused them; compiling them locally" in r.out
        q.npubuild("verify")


def _cc() -> str:
    import shutil

    return os.path.abspath(shutil.which("cc"))


def _wait_gone(farm, address: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while address in farm.client().scheduler_info(n_workers=-1)["workers"]:
        assert time.monotonic() < deadline, f"the scheduler still lists {address}"
        time.sleep(0.2)


@pytest.mark.slow
def test_the_scheduler_going_away_mid_build_leaves_a_complete_local_build(tmp_path):
    with LocalFarm(tmp_path / "farm") as farm:
        farm.start_scheduler()
        farm.start_worker("a")
        farm.wait_for_workers(["a"])
        farm.client().close()
        farm._client = None  # this test's own client must not outlive the scheduler
        p = new_project(tmp_path / "proj", relu_sweep_spec(60))
        env = dict(os.environ, NPUBUILD_EXECUTOR=farm.executor, NPUBUILD_FARM_TRUSTED="1")
        build = subprocess.Popen([sys.executable, "-m", "doit", "-n", "2", "-P", "thread", "build"], cwd=p.root, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + BUILD_TIMEOUT
        while len(list(p.artifacts.glob("kernels/*/host/build.json"))) < 15:
            assert build.poll() is None and time.monotonic() < deadline, "the build ended before 15 kernels"
            time.sleep(0.05)
        farm.kill("scheduler")
        out, err = build.communicate(timeout=BUILD_TIMEOUT)
    assert build.returncode == 0, f"{out[-3000:]}\n{err[-3000:]}"
    r = BuildResult(build.returncode, out, err)
    assert r.summary["compiled"] == 60
    lines = [ln for ln in out.splitlines() if ln.startswith("npubuild: compile farm")]
    assert len(lines) == 1 and "went away during the build" in lines[0] and "compiling the rest locally" in lines[0], lines
    who = _farm_logs(p)
    assert len(who) == 60 and None in who.values() and any(who.values())  # some on the farm, the rest here
    assert "Traceback" not in err, err[-3000:]
    p.npubuild("verify")


@pytest.mark.slow
def test_a_tls_farm_uses_only_the_workers_whose_certificates_are_trusted(tmp_path):
    from .farmkit import make_certs

    certs = make_certs(tmp_path / "certs", ["scheduler", "client", "w1", "w2"])
    with LocalFarm(tmp_path / "farm", tls=certs) as farm:
        farm.start_scheduler()
        farm.start_worker("w1")
        farm.start_worker("w2")
        addr = farm.wait_for_workers(["w1", "w2"])
        assert addr["w1"].startswith("tls://")
        c = certs["client"]
        env = {"NPUBUILD_EXECUTOR": farm.executor, "NPUBUILD_FARM_TLS_CA": c["ca"], "NPUBUILD_FARM_TLS_CERT": c["cert"],
               "NPUBUILD_FARM_TLS_KEY": c["key"], "NPUBUILD_FARM_TRUSTED_WORKERS": "O=npubuild-test,CN=w1"}
        p = new_project(tmp_path / "proj", relu_sweep_spec(6))
        r = p.doit("-n", "2", "-P", "thread", "build", env=env)
        assert r.summary["compiled"] == 6 and "Traceback" not in r.err
        assert set(_farm_logs(p).values()) == {addr["w1"]}, (_farm_logs(p), r.out)  # never w2: its certificate is not listed
        for rec in p.artifacts.glob("kernels/*/host/build.json"):
            import json

            prov = json.loads(rec.read_text())["farm"]
            assert prov == {"worker": addr["w1"], "certificate": "O=npubuild-test,CN=w1", "trusted_by": "farm_trusted_workers"}
        st = p.npubuild("farm", "status", env=env).out
        assert f"connection: Dask TLS (CA {c['ca']})" in st and "farm_trusted_workers (1 listed)" in st, st
        row = {ln.split()[0]: ln for ln in st.splitlines()[4:]}
        assert "O=npubuild-test,CN=w1  yes" in row[addr["w1"]] and "O=npubuild-test,CN=w2  no" in row[addr["w2"]], st
        p.npubuild("verify")
        # without the client's certificate the farm is unreachable: it does not talk plain TCP
        q = new_project(tmp_path / "plain", relu_sweep_spec(2))
        r = q.doit("build", env={"NPUBUILD_EXECUTOR": farm.executor, "NPUBUILD_FARM_TRUSTED": "1"})
        assert r.summary["compiled"] == 2 and set(_farm_logs(q).values()) == {None}
        assert f"npubuild: compile farm {farm.executor} unreachable" in r.out, r.out
