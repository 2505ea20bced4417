"""The compile farm's pieces, fast: the worker function, the client side against an
in-process Dask LocalCluster, the faults (unreachable, hung, refused, bad answer,
no worker for a resource) and `npubuild farm status`. The real scheduler and worker
processes, a 200-kernel build and a killed worker: tests/test_farm_cluster.py."""
from __future__ import annotations

import hashlib
import json
import socket
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from npubuild.artifacts.stores.notices import clear_notices, take_notices  # noqa: E402
from npubuild.engine.keys import compile_key  # noqa: E402
from npubuild.engine.targets import kernel_targets  # noqa: E402
from npubuild.core.errors import UserError  # noqa: E402
from npubuild.engine.farm import connect, dispatch, scheduler_address, worker  # noqa: E402
from npubuild.core.farm_settings import FarmSettings  # noqa: E402
from npubuild.engine.farm.worker import CompileRequest, run_compile  # noqa: E402
from npubuild.core.limits import Limits  # noqa: E402
from npubuild.specfile.instances import make_instance  # noqa: E402
from npubuild.toolchain import host as host_tc  # noqa: E402

from .conftest import new_project  # noqa: E402


TRUSTED = FarmSettings(trusted=True)  # these tests' in-process workers are this test's own
TRUST_ENV = {"NPUBUILD_FARM_TRUSTED": "1"}


def _request(shape=(64,), source: str | None = None, **kw) -> CompileRequest:
    inst = make_instance("relu", "f32", [list(shape)], None)
    tgt = kernel_targets()["host"]
    text = source if source is not None else tgt.emit(inst, {})
    tc = tgt.fingerprint(None)
    flags = tgt.flags(None)
    key = compile_key("host", hashlib.sha256(text.encode()).hexdigest(), tc["id"], flags, {})
    fields = dict(target="host", kernel_id=inst.id, instance=inst, source=text.encode(), options={}, key=key, toolchain=tc,
                  flags=flags, limits=Limits(), code=worker.code_id())
    fields.update(kw)
    return CompileRequest(**fields)


@pytest.fixture(autouse=True)
def _fresh_farm_state():
    connect.reset()
    dispatch.reset()
    yield
    connect.reset()
    dispatch.reset()


@pytest.fixture(scope="module")
def cluster():
    """One in-process scheduler and worker (threads) for the module."""
    from distributed import LocalCluster

    # tcp, not inproc: the builds of the tests below run doit in a subprocess that connects to it
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://", host="127.0.0.1",
                      dashboard_address=":0") as c:
        yield c


def _executor(cluster) -> str:
    return "dask://" + cluster.scheduler_address.removeprefix("tcp://")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the worker function ----------------------------------------------------------------------


def test_worker_compiles_what_a_local_compile_does(tmp_path):
    req = _request()
    res = run_compile(req)
    assert set(res) >= {"files", "log", "worker"}, res
    f = res["files"]["kernel.so"]
    assert hashlib.sha256(f["data"]).hexdigest() == f["sha256"]
    so = tmp_path / "kernel.so"
    host_tc.compile_shared_library(req.source.decode(), so, tmp_path / "build.log", flags=req.flags)
    assert so.read_bytes() == f["data"]  # byte-identical to the local compile
    assert "# ok" in res["log"]
    assert not Path(res["scratch"]).exists()  # the private directory is gone


def test_worker_refuses_a_key_its_toolchain_does_not_give():
    req = _request()
    other = dict(req.toolchain, id="0" * 64, cc_version=["cc (other) 1.0"])
    res = run_compile(CompileRequest(**{**req.__dict__, "key": "f" * 64, "toolchain": other}))
    assert "files" not in res
    assert "toolchain differs in cc_version" in res["refused"], res


def test_worker_refuses_when_its_npubuild_compile_code_differs():
    res = run_compile(_request(code="0" * 64))
    assert "files" not in res and res["refused"].startswith("its npubuild differs (compile code "), res


def test_worker_reports_a_compile_error_with_its_log():
    req = _request(source="func.func @broken(")
    res = run_compile(req)
    assert "files" not in res and "invalid MLIR" in res["error"]
    assert "# FAILED" in res["log"]


def test_worker_does_not_send_outputs_over_max_artifact_size():
    res = run_compile(_request(max_size=10))
    assert "files" not in res and "max_artifact_size" in res["error"]


# ---- the client side, against an in-process cluster --------------------------------------------


def test_remote_compile_writes_outputs_and_log(cluster, tmp_path):
    out = tmp_path / "k"
    out.mkdir()
    req = _request((96,))
    prov = dispatch.compile_on_farm(_executor(cluster), req, out, tmp_path / "store", TRUSTED)
    who = prov["worker"]
    assert who.startswith(("tcp://", "inproc://")) and prov["trusted_by"] == "farm_trusted" and prov["certificate"] is None
    local = tmp_path / "local.so"
    host_tc.compile_shared_library(req.source.decode(), local, tmp_path / "local.log", flags=req.flags)
    assert (out / "kernel.so").read_bytes() == local.read_bytes()
    log = (out / "build.log").read_text()
    assert log.startswith(f"# compiled on farm worker {who} ({_executor(cluster)}); certificate: none (plain TCP); trusted: farm_trusted")
    assert str(out / "kernel.so") in log  # the worker's paths are rewritten to the client's
    assert "npubuild-farm-" not in log
    assert sorted(p.name for p in out.iterdir()) == ["build.log", "kernel.so"]


def test_one_client_per_process(cluster):
    ex = _executor(cluster)
    assert connect.client_for(ex, TRUSTED) is connect.client_for(ex, TRUSTED)


def test_compile_error_on_a_worker_fails_the_kernel_with_its_log(cluster, tmp_path):
    out = tmp_path / "k"
    out.mkdir()
    with pytest.raises(UserError, match=r"(?s)on farm worker .*invalid MLIR") as e:
        dispatch.compile_on_farm(_executor(cluster), _request(source="func.func @broken("), out, tmp_path / "store", TRUSTED)
    assert str(out / "build.log") in str(e.value)
    assert not (out / "kernel.so").exists() and "# FAILED" in (out / "build.log").read_text()


def test_unreachable_scheduler_warns_once_and_compiles_locally(tmp_path, monkeypatch):
    monkeypatch.setattr(connect, "CONNECT_TIMEOUT", 1.0)
    tries = []
    real = connect._refused_now
    monkeypatch.setattr(connect, "_refused_now", lambda ex: (tries.append(ex), real(ex)))
    store = tmp_path / "store"
    ex = f"dask://127.0.0.1:{_free_port()}"
    assert dispatch.compile_on_farm(ex, _request(), tmp_path, store, TRUSTED) is None
    assert dispatch.compile_on_farm(ex, _request((32,)), tmp_path, store, TRUSTED) is None
    assert tries == [ex]  # the second kernel does not try (and wait) again
    lines = take_notices(store)
    assert len(lines) == 1 and "unreachable" in lines[0] and "compiling locally" in lines[0], lines


def test_hung_compile_times_out_with_a_clear_error(cluster, tmp_path, monkeypatch):
    def hang(req):
        time.sleep(5)
        return {}

    monkeypatch.setattr(worker, "run_compile", hang)
    monkeypatch.setattr(dispatch, "QUEUE_ALLOWANCE", 0.0)
    out = tmp_path / "k"
    out.mkdir()
    req = _request(limits=Limits(tool_timeout=0.5))
    t0 = time.monotonic()
    with pytest.raises(UserError, match=r"did not finish within 1 s .*nothing was written"):
        dispatch.compile_on_farm(_executor(cluster), req, out, tmp_path / "store", TRUSTED)
    assert time.monotonic() - t0 < 4
    assert list(out.iterdir()) == []


def test_an_answer_that_does_not_match_its_sha256_writes_nothing(cluster, tmp_path, monkeypatch):
    def tampered(req):
        res = run_compile(req)
        res["files"]["kernel.so"]["data"] += b"x"
        return res

    monkeypatch.setattr(worker, "run_compile", tampered)
    out = tmp_path / "k"
    out.mkdir()
    with pytest.raises(UserError, match=r"malformed answer \(kernel.so does not match its sha256\); nothing from it was written"):
        dispatch.compile_on_farm(_executor(cluster), _request(), out, tmp_path / "store", TRUSTED)
    assert list(out.iterdir()) == []


def test_refusing_workers_mean_a_local_compile_said_once(cluster, tmp_path, monkeypatch):
    real = worker.own_toolchain
    monkeypatch.setattr(worker, "own_toolchain", lambda t: {**real(t), "id": "1" * 64, "cc_version": ["other cc"]})
    store = tmp_path / "store"
    for shape in ((8,), (16,), (24,)):
        assert dispatch.compile_on_farm(_executor(cluster), _request(shape), tmp_path, store, TRUSTED) is None
    lines = take_notices(store)
    assert len(lines) == 2, lines
    assert any("refused host compiles: its host toolchain differs in cc_version" in ln for ln in lines)
    assert any("every worker" in ln and "compiling them locally" in ln for ln in lines)


def test_xdna_compiles_need_a_worker_with_the_xdna_resource(cluster, tmp_path):
    store = tmp_path / "store"
    req = _request(target="xdna")  # routed before anything is submitted: no worker of this cluster has xdna=1
    assert dispatch.compile_on_farm(_executor(cluster), req, tmp_path, store, TRUSTED) is None
    lines = take_notices(store)
    assert lines == [f"npubuild: compile farm {_executor(cluster)} has no worker for xdna compiles "
                     "(dask worker --resources xdna=1); compiling them locally"]
    clear_notices(store)


def test_routing_table():
    assert dispatch.RESOURCES["xdna"] == {"xdna": 1} and dispatch.RESOURCES["host"] == {}
    assert dispatch._able({"a": {"resources": {}}, "b": {"resources": {"xdna": 1}}}, "xdna") == ["b"]
    assert dispatch._able({"a": {"resources": {}}, "b": {"resources": {"xdna": 1}}}, "host") == ["a", "b"]
    assert scheduler_address("dask://h:8786") == "tcp://h:8786"
    lim = Limits(tool_timeout=10, aiecc_timeout=100)
    assert dispatch.wait_budget("host", lim) == 20 + dispatch.QUEUE_ALLOWANCE
    assert dispatch.wait_budget("xdna", lim) == 120 + dispatch.QUEUE_ALLOWANCE


# ---- through a build and the command line ------------------------------------------------------


@pytest.mark.slow
def test_build_through_the_farm_matches_a_local_build(cluster, project, tmp_path):
    kernels = """\
        kernels:
          relu_few:
            op: relu
            dtype: f32
            shapes: [[16], [48], [80]]
        """
    p = project(kernels)
    # doit's default (process) runner: one Dask client per doit process (tests/test_farm_cluster.py runs -P thread)
    r = p.doit("-n", "2", "build", env={"NPUBUILD_EXECUTOR": _executor(cluster), **TRUST_ENV})
    assert r.summary["compiled"] == 3, r.out
    logs = sorted(p.artifacts.glob("kernels/*/host/build.log"))
    assert len(logs) == 3 and all(lg.read_text().startswith("# compiled on farm worker") for lg in logs)
    p.npubuild("verify")
    q = new_project(tmp_path / "local", kernels)
    q.doit("build")
    for lg in logs:
        kid = lg.parent.parent.name
        assert (lg.parent / "kernel.so").read_bytes() == (q.artifacts / "kernels" / kid / "host" / "kernel.so").read_bytes()
    r2 = p.doit("build", env={"NPUBUILD_EXECUTOR": _executor(cluster), **TRUST_ENV})
    assert r2.summary["compiled"] == 0


def test_farm_status_lists_workers_and_toolchains(cluster, project):
    p = project("kernels: {}\n")
    r = p.npubuild("farm", "status", "--json", env={"NPUBUILD_EXECUTOR": _executor(cluster), **TRUST_ENV})
    st = json.loads(r.out)
    assert st["scheduler"] == _executor(cluster) and len(st["workers"]) == 1
    w = st["workers"][0]
    assert w["toolchains"]["host"]["matches"] is True and "host" in w["takes"] and w["trusted"] is True
    assert st["connection"] == "plain TCP (not authenticated)" and st["trust"].startswith("farm_trusted = true")
    assert st["local"]["host"]["id"] == w["toolchains"]["host"]["id"]
    text = p.npubuild("farm", "status", env={"NPUBUILD_EXECUTOR": _executor(cluster)}).out
    assert "1 worker" in text and "(same)" in text
    # without farm_trusted the same farm compiles nothing, and says how to trust it
    assert "trusted workers: none: no compile is sent to the farm; set farm_tls_ca" in text, text


def test_farm_status_without_a_farm_is_one_clear_error(project):
    p = project("kernels: {}\n")
    r = p.npubuild("farm", "status", check=False)
    assert r.rc == 1 and "no compile farm configured" in r.err and "Traceback" not in r.err
    r = p.npubuild("farm", "status", "--scheduler", "tcp://h:1", check=False)
    assert r.rc == 1 and r.err.strip() == "npubuild: --scheduler must be \"dask://host:port\" (a Dask scheduler), got 'tcp://h:1'"


def test_farm_status_of_an_unreachable_scheduler_is_one_clear_error(project):
    p = project("kernels: {}\n")
    port = _free_port()
    r = p.npubuild("farm", "status", "--scheduler", f"dask://127.0.0.1:{port}", check=False)
    assert r.rc == 1 and "unreachable" in r.err and "Traceback" not in r.err
    # nothing listens there: said at once, with how to start one (not Dask's "Timed out" after its retries)
    assert f"connection refused: no scheduler listens on 127.0.0.1:{port} (start one: dask scheduler --port {port})" in r.err


def test_a_compile_waiting_for_a_farm_without_workers_is_done_locally(tmp_path, monkeypatch):
    """The last worker went away while a compile waits at the scheduler: give up on the farm for it."""

    class Pending:
        cancelled = False

        def result(self, timeout=None):
            time.sleep(min(timeout, 0.05))
            raise TimeoutError

        def cancel(self):
            self.cancelled = True

    class Client:
        def __init__(self):
            self.workers = {"tcp://w:1": {"resources": {}}}
            self.fut = Pending()

        def submit(self, *a, **kw):
            return self.fut

        def scheduler_info(self, n_workers=-1):
            return {"workers": self.workers}

    client = Client()
    monkeypatch.setattr(dispatch, "POLL", 0.05)
    monkeypatch.setattr(dispatch, "client_for", lambda ex, farm: client)
    store = tmp_path / "store"
    import threading

    threading.Timer(0.3, lambda: setattr(client, "workers", {})).start()
    assert dispatch.compile_on_farm("dask://h:1", _request(), tmp_path, store, TRUSTED) is None
    assert client.fut.cancelled
    assert take_notices(store) == ["npubuild: compile farm dask://h:1 has no worker left for host compiles; "
                                   "compiling the rest locally"]


def test_farm_verify_compiles_here_too_and_keeps_identical_bytes(cluster, tmp_path):
    out = tmp_path / "k"
    out.mkdir()
    prov = dispatch.compile_on_farm(_executor(cluster), _request((112,)), out, tmp_path / "store", FarmSettings(trusted=True, verify=1.0))
    assert prov["verified"] is True
    assert (out / "build.log").read_text().splitlines()[1] == "# farm_verify: this machine's compile gave the same bytes"


def test_farm_verify_fails_a_kernel_whose_farm_bytes_differ(cluster, tmp_path, monkeypatch):
    def other_bytes(req):
        res = run_compile(req)
        f = res["files"]["kernel.so"]
        f["data"] = f["data"] + b"\0"  # a worker of the same toolchain whose compile is not this machine's
        f["sha256"] = hashlib.sha256(f["data"]).hexdigest()
        return res

    monkeypatch.setattr(worker, "run_compile", other_bytes)
    out = tmp_path / "k"
    out.mkdir()
    with pytest.raises(UserError, match=r"farm_verify: farm worker .* sent a kernel.so that differs from this machine's compile "
                                        r"\(sha256 \w+ there, \w+ here\); nothing from it was written, stored or signed"):
        dispatch.compile_on_farm(_executor(cluster), _request((120,)), out, tmp_path / "store", FarmSettings(trusted=True, verify=1.0))
    assert list(out.iterdir()) == []
