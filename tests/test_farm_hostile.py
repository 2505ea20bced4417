"""A compile farm worker as an attacker or a broken machine, through real `dask scheduler` and
`dask worker --preload tests/fake_farm_worker.py` processes (tests/farmkit.py): its own
kernel.so, a pickled payload, an exception Dask cannot send back, an 8 MiB log, malformed
answers. Nothing from it may be signed, shared, run or unpickled, and no answer is a traceback.
The pieces (settings, answers, deserialisers) are tested fast at the end."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from npubuild.artifacts.stores.notices import take_notices  # noqa: E402
from npubuild.engine.farm import answer, connect, dispatch  # noqa: E402
from npubuild.core.farm_settings import FarmSettings, is_loopback, subject_text  # noqa: E402
from npubuild.core.errors import UserError  # noqa: E402

from .conftest import new_project  # noqa: E402
from .farmkit import LocalFarm, relu_sweep_spec  # noqa: E402

FAKE = str(Path(__file__).with_name("fake_farm_worker.py"))
TRUST = {"NPUBUILD_FARM_TRUSTED": "1"}


@pytest.fixture(scope="module")
def farm(tmp_path_factory):
    """One scheduler for the module; each test starts the one worker it needs (farm.use(mode))."""
    base = tmp_path_factory.mktemp("hostile-farm")
    with LocalFarm(base / "logs") as f:
        f.start_scheduler()
        n = [0]

        def use(mode: str, evidence: Path) -> str:
            for name in [k for k in f.procs if k.startswith("w")]:
                f.kill(name)
                del f.procs[name]
            n[0] += 1
            name = f"w{n[0]}"
            f.start_worker(name, env={"FAKE_FARM_MODE": mode, "FAKE_FARM_DIR": str(evidence)}, preload=FAKE)
            addr = f.wait_for_workers([name])[name]
            _wait_only(f, addr)
            return addr

        f.use = use
        yield f


def _wait_only(farm, addr: str) -> None:
    import time

    deadline = time.monotonic() + 60
    while set(farm.client().scheduler_info(n_workers=-1)["workers"]) != {addr}:
        assert time.monotonic() < deadline, "the killed workers are still listed"
        time.sleep(0.2)


def _env(farm, **extra) -> dict:
    return {"NPUBUILD_EXECUTOR": farm.executor, **extra}


def _evidence(tmp_path) -> Path:
    d = tmp_path / "evidence"
    d.mkdir()
    return d


def _no_file_holds(root: Path, data: bytes) -> bool:
    return not any(p.is_file() and p.read_bytes() == data for p in root.rglob("*"))


def _local_so(tmp_path, kernels: str) -> dict:
    q = new_project(tmp_path / "local", kernels)
    q.doit("build")
    return {p.parent.parent.name: p.read_bytes() for p in q.artifacts.glob("kernels/*/host/kernel.so")}


# ---- a worker that answers with its own kernel.so ----------------------------------------------


@pytest.mark.slow
def test_an_untrusted_worker_is_sent_nothing(farm, tmp_path):
    ev = _evidence(tmp_path)
    farm.use("own-so", ev)
    kernels = relu_sweep_spec(2)
    p = new_project(tmp_path / "proj", kernels)
    r = p.doit("build", env=_env(farm))
    assert r.summary["compiled"] == 2
    assert not list(ev.glob("called-*"))  # never asked
    assert (f"npubuild: compile farm {farm.executor}: its workers are not trusted (plain TCP, no farm_trusted), so no "
            "compile is sent there; compiling locally. To use them, set farm_tls_ca") in r.out, r.out
    built = {q.parent.parent.name: q.read_bytes() for q in p.artifacts.glob("kernels/*/host/kernel.so")}
    assert built == _local_so(tmp_path, kernels)
    assert all("farm" not in json.loads(b.read_text()) for b in p.artifacts.glob("kernels/*/host/build.json"))
    assert not (ev / "ran").exists() and not (ev / "evil.so").exists()  # the worker never even built its library


@pytest.mark.slow
def test_farm_verify_catches_a_trusted_worker_sending_its_own_kernel(farm, tmp_path):
    ev = _evidence(tmp_path)
    farm.use("own-so", ev)
    p = new_project(tmp_path / "proj", relu_sweep_spec(1))
    p.npubuild("keygen", "--dir", "keys", "--name", "me")
    shared = tmp_path / "shared"
    shared.mkdir()
    with open(p.root / "pyproject.toml", "a") as f:
        f.write(f'signing_key = "keys/me.key"\nstores = [{{url = "file://{shared}", mode = "rw"}}]\nfarm_verify = "100%"\n')
    r = p.doit("build", env=_env(farm, **TRUST), check=False)
    assert r.rc != 0 and list(ev.glob("called-*")), r.out + r.err
    assert "farm_verify: farm worker" in r.out + r.err and "differs from this machine's compile" in r.out + r.err, r.out + r.err
    assert "nothing from it was written, stored or signed" in r.out + r.err
    assert "Traceback" not in r.err
    evil = (ev / "evil.so").read_bytes()
    for where in (p.root, shared):  # not in the kernel directory, the local store or the shared store
        assert _no_file_holds(where, evil), where
    assert not list(p.artifacts.glob("kernels/*/host/build.json"))
    assert not (ev / "ran").exists()


# ---- a worker that sends a pickle --------------------------------------------------------------


@pytest.mark.slow
def test_a_pickled_result_is_refused_and_runs_nothing(farm, tmp_path):
    ev = _evidence(tmp_path)
    farm.use("pickle", ev)
    kernels = relu_sweep_spec(2)
    p = new_project(tmp_path / "proj", kernels)
    r = p.doit("build", env=_env(farm, **TRUST))
    assert list(ev.glob("called-*"))  # the worker ran the task and answered with its pickle
    assert not (ev / "ran").exists()  # which was never unpickled here
    assert r.summary["compiled"] == 2
    assert (f"npubuild: compile farm {farm.executor}: a worker sent a result that is not plain data (Data serialized with "
            "pickle but only able to deserialize data with ['msgpack']); it was refused, not unpickled, and such kernels "
            "were compiled locally") in r.out, r.out
    assert "Traceback" not in r.err
    built = {q.parent.parent.name: q.read_bytes() for q in p.artifacts.glob("kernels/*/host/kernel.so")}
    assert built == _local_so(tmp_path, kernels)


# ---- an exception Dask cannot send back ----------------------------------------------------------


@pytest.mark.slow
def test_a_recursion_error_on_the_worker_means_a_local_compile_not_a_wait(farm, tmp_path):
    ev = _evidence(tmp_path)
    addr = farm.use("recursion", ev)
    p = new_project(tmp_path / "proj", relu_sweep_spec(1))
    # the default wait budget is 1,260 s: a build that waited it would hit _run's 600 s timeout and fail
    r = p.doit("build", env=_env(farm, **TRUST))
    assert r.summary["compiled"] == 1 and list(ev.glob("called-*"))
    assert (f"npubuild: compile farm {farm.executor}: worker {addr} raised RecursionError: maximum recursion depth exceeded"
            in r.out), r.out
    assert "Traceback" not in r.err
    first = next(p.artifacts.glob("kernels/*/host/build.log")).read_text().splitlines()[0]
    assert not first.startswith("# compiled on farm worker")


# ---- an 8 MiB log ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_huge_worker_log_is_capped(farm, tmp_path):
    ev = _evidence(tmp_path)
    farm.use("huge-log", ev)
    p = new_project(tmp_path / "proj", relu_sweep_spec(1))
    p.doit("build", env=_env(farm, **TRUST))
    log = next(p.artifacts.glob("kernels/*/host/build.log"))
    assert log.read_text().startswith("# compiled on farm worker")
    limit = 4 << 20  # limits.farm_log_max_size
    assert limit < log.stat().st_size < limit + 1000, log.stat().st_size
    assert "limits.farm_log_max_size" in log.read_text()[:1000]
    rec = json.loads(next(p.artifacts.glob("kernels/*/host/build.json")).read_text())
    assert rec["farm"]["trusted_by"] == "farm_trusted" and rec["farm"]["certificate"] is None


# ---- malformed answers ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("mode, what", [
    ("bad-mode", "kernel.so's mode is 'rwx', not a file mode"),
    ("none-mode", "kernel.so's mode is None, not a file mode"),
    ("files-str", "its files field is str, not a table of outputs"),
    ("str-result", "the answer is a str, not a table"),
    ("worker-list", "its worker field is list, not an address"),
])
def test_a_malformed_answer_is_one_message(farm, tmp_path, mode, what):
    ev = _evidence(tmp_path)
    addr = farm.use(mode, ev)
    p = new_project(tmp_path / "proj", relu_sweep_spec(1))
    r = p.doit("build", env=_env(farm, **TRUST), check=False)
    assert r.rc != 0 and "Traceback" not in r.err + r.out, r.err
    assert f"farm worker {addr} ({farm.executor}) sent a malformed answer ({what}); nothing from it was written" in r.out + r.err, \
        r.out + r.err
    assert not list(p.artifacts.glob("kernels/*/host/kernel.so"))


# ---- the pieces, fast --------------------------------------------------------------------------


class _Planted:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.marker}",))


def test_the_client_deserialises_msgpack_only(tmp_path):
    from distributed.protocol.serialize import deserialize, serialize

    marker = tmp_path / "ran"
    for family in ("pickle", "dask"):
        header, frames = serialize({"files": _Planted(marker)}, serializers=[family, "pickle"], on_error="raise")
        with pytest.raises(TypeError, match=r"only able to deserialize data with \['msgpack'\]"):
            deserialize(header, frames, deserializers=connect.SAFE_DESERIALIZERS)
    assert not marker.exists()
    # what an honest worker sends (Dask passes the client's deserializers on as the worker's serializers)
    ok = {"files": {"kernel.so": {"data": b"\x7fELF", "sha256": "x", "mode": 0o755}}, "log": "", "worker": "tcp://w:1"}
    header, frames = serialize(ok, serializers=list(connect.SAFE_DESERIALIZERS), on_error="raise")
    assert deserialize(header, frames, deserializers=connect.SAFE_DESERIALIZERS)["files"]["kernel.so"]["data"] == b"\x7fELF"


def test_answers_are_checked_field_by_field():
    data = b"so"
    good = {"files": {"kernel.so": {"data": data, "sha256": hashlib.sha256(data).hexdigest(), "mode": 0o755}}, "worker": "w"}
    assert answer.kind_of(good) == "files" and answer.outputs(good, ["kernel.so"], 10) == {"kernel.so": (data, 0o755)}
    cases = {
        "the answer is a list, not a table": [1],
        "its worker field is None, not an address": {"files": {}},
        "its refused field is int, not a message": {"refused": 3, "worker": "w"},
        "its log field is bytes, not text": {"files": {}, "log": b"x", "worker": "w"},
    }
    for msg, bad in cases.items():
        with pytest.raises(answer.Malformed, match=msg):
            answer.kind_of(bad)
    with pytest.raises(answer.Malformed, match="kernel.so is 2 bytes, over max_artifact_size"):
        answer.outputs(good, ["kernel.so"], 1)
    with pytest.raises(answer.Malformed, match="kernel.so's data is str, not bytes"):
        answer.outputs({"files": {"kernel.so": {"data": "so"}}}, ["kernel.so"], 10)


def test_a_log_is_capped_after_its_paths_are_rewritten(tmp_path):
    res = {"log": ("a" * 1023 + "\n") * (8 << 10), "scratch": "a"}  # a one-letter "path" is not taken
    assert len(answer.log_text(res, tmp_path, 4096).encode()) < 4096 + 100
    res = {"log": "/tmp/npubuild-farm-x/compile-y/out/kernel.so\n" * 1000, "scratch": "/tmp/npubuild-farm-x/compile-y/out"}
    text = answer.log_text(res, tmp_path / ("long" * 50), 4096)
    assert len(text.encode()) <= 4096 + 100 and str(tmp_path / ("long" * 50)) in text


def test_plain_tcp_to_another_machine_is_refused_without_trust(tmp_path):
    store = tmp_path / "store"
    from .test_farm import _request

    with pytest.raises(connect.FarmUnavailable, match="plain TCP to a scheduler on another machine is not authenticated"):
        connect.client_for("dask://192.0.2.1:8786", FarmSettings())
    connect.reset()
    assert dispatch.compile_on_farm("dask://192.0.2.1:8786", _request(), tmp_path, store, FarmSettings()) is None
    lines = take_notices(store)
    assert lines == ["npubuild: compile farm dask://192.0.2.1:8786: its workers are not trusted (plain TCP, no farm_trusted), "
                     "so no compile is sent there; compiling locally. To use them, " + FarmSettings().how_to_trust()], lines
    # the same through farm status (which may ask a scheduler on this machine, never plain TCP to another)
    with pytest.raises(UserError, match="compile farm dask://192.0.2.1:8786 not used: plain TCP"):
        from npubuild.engine.farm.status import farm_status

        farm_status("dask://192.0.2.1:8786", None, FarmSettings())
    assert is_loopback("dask://127.0.0.1:1") and is_loopback("dask://localhost:1") and is_loopback("dask://[::1]:1")
    assert not is_loopback("dask://sched.example:8786")


def test_certificate_subjects_and_trust():
    cert = {"subject": ((("organizationName", "Lab"),), (("commonName", "w1"),))}
    assert subject_text(cert) == "O=Lab,CN=w1" and subject_text(None) is None and subject_text({"subject": 3}) is None
    f = FarmSettings(trusted_workers=("O=Lab,CN=w1",), tls_ca="/ca")
    assert f.trusts("O=Lab,CN=w1") and not f.trusts("O=Lab,CN=w2") and not f.trusts(None)
    assert FarmSettings(trusted=True).trusts(None)
    assert not FarmSettings().sample() and FarmSettings(verify=1.0).sample()


def test_two_compiles_of_a_kernel_are_byte_identical(tmp_path):
    """farm_verify compares bytes: a compile must be deterministic for that to mean anything."""
    from npubuild.toolchain import host as host_tc

    from .test_farm import _request

    req = _request((48,))
    outs = []
    for i in range(2):
        so = tmp_path / f"{i}" / "kernel.so"
        so.parent.mkdir()
        host_tc.compile_shared_library(req.source.decode(), so, so.parent / "build.log", flags=req.flags)
        outs.append(so.read_bytes())
    assert outs[0] == outs[1] and len(outs[0]) > 1000


@pytest.mark.parametrize("table, env, msg", [
    ('farm_verify = "lots"', {}, 'farm_verify (NPUBUILD_FARM_VERIFY) must be a percentage such as "5%"'),
    ("", {"NPUBUILD_FARM_VERIFY": "150%"}, "farm_verify (NPUBUILD_FARM_VERIFY) must be a percentage"),
    ('farm_trusted = "yes"', {}, "farm_trusted (NPUBUILD_FARM_TRUSTED) must be true or false"),
    ("", {"NPUBUILD_FARM_TRUSTED": "maybe"}, "farm_trusted (NPUBUILD_FARM_TRUSTED) must be 1 or 0"),
    ('farm_tls_ca = "ca.pem"', {}, "Dask TLS needs farm_tls_ca, farm_tls_cert and farm_tls_key together"),
    ('farm_trusted_workers = ["CN=w1"]', {}, "farm_trusted_workers names certificate subjects, so it needs Dask TLS"),
    ("farm_trusted_workers = [1]", {}, "farm_trusted_workers (NPUBUILD_FARM_TRUSTED_WORKERS, ';'-separated) must be a list"),
])
def test_farm_settings_are_checked(tmp_path, monkeypatch, table, env, msg):
    from npubuild.core.config import load_config

    for k in ("NPUBUILD_FARM_VERIFY", "NPUBUILD_FARM_TRUSTED", "NPUBUILD_FARM_TRUSTED_WORKERS"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    (tmp_path / "pyproject.toml").write_text(f"[tool.npubuild]\n{table}\n")
    with pytest.raises(UserError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        load_config(tmp_path)


def test_farm_settings_parse(tmp_path, monkeypatch):
    from npubuild.core.config import load_config

    for n in ("ca", "cert", "key"):
        (tmp_path / f"{n}.pem").write_text("x")
    (tmp_path / "pyproject.toml").write_text('[tool.npubuild]\nfarm_tls_ca = "ca.pem"\nfarm_tls_cert = "cert.pem"\n'
                                             'farm_tls_key = "key.pem"\nfarm_trusted_workers = ["CN=w1"]\nfarm_verify = "12.5%"\n')
    f = load_config(tmp_path).farm
    assert f.tls and f.tls_ca == str(tmp_path / "ca.pem") and f.trusted_workers == ("CN=w1",) and f.verify == 0.125
    monkeypatch.setenv("NPUBUILD_FARM_TRUSTED_WORKERS", "CN=a,O=x; CN=b")
    monkeypatch.setenv("NPUBUILD_FARM_TRUSTED", "1")
    f = load_config(tmp_path).farm
    assert f.trusted_workers == ("CN=a,O=x", "CN=b") and f.trusted
