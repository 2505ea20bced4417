"""A real Dask farm on 127.0.0.1 for tests and bench/farm.py: `dask scheduler` and
`dask worker` processes on free ports, each in its own process group (a worker
is killed with its nanny), torn down at the end with bounded waits."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

START_TIMEOUT = 90.0  # seconds for the scheduler and every worker to come up (2 slow cores, cold imports)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certs(d: Path, names) -> dict:
    """A CA and a certificate per name (subject CN=<name>,O=npubuild-test), with openssl:
    name -> {"ca", "cert", "key"} paths (PEM), as Dask TLS takes them."""
    d.mkdir(parents=True, exist_ok=True)
    ca, ca_key = d / "ca.pem", d / "ca.key"

    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
        "-subj", "/O=npubuild-test/CN=test-ca")
    out = {}
    for name in names:
        key, csr, cert = d / f"{name}.key", d / f"{name}.csr", d / f"{name}.pem"
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", f"/O=npubuild-test/CN={name}")
        run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-out", str(cert), "-days", "2")
        out[name] = {"ca": str(ca), "cert": str(cert), "key": str(key)}
    return out


class LocalFarm:
    def __init__(self, log_dir: Path, env: dict | None = None, tls: dict | None = None):
        """``tls``: make_certs() output with entries "scheduler" and "client" (and one per worker name):
        every process then talks Dask TLS with its own certificate."""
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.env = dict(os.environ, **(env or {}))
        self.port = free_port()
        self.tls = tls
        self.address = f"{'tls' if tls else 'tcp'}://127.0.0.1:{self.port}"
        self.executor = f"dask://127.0.0.1:{self.port}"
        self.procs: dict[str, subprocess.Popen] = {}
        self._client = None

    def _spawn(self, name: str, args: list[str], env: dict | None = None) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "w")
        p = subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=log, stderr=subprocess.STDOUT,
                             env=dict(self.env, **(env or {})), start_new_session=True)
        log.close()
        self.procs[name] = p
        return p

    def _tls_args(self, name: str) -> list[str]:
        if not self.tls:
            return []
        c = self.tls[name]
        return ["--tls-ca-file", c["ca"], "--tls-cert", c["cert"], "--tls-key", c["key"]]

    def start_scheduler(self) -> None:
        self._spawn("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard",
                                  *(["--protocol", "tls"] if self.tls else []), *self._tls_args("scheduler")])
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            self._check_alive("scheduler")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"dask scheduler did not listen on {self.port} within {START_TIMEOUT} s: {self.log('scheduler')}")

    def start_worker(self, name: str, nthreads: int = 1, resources: str | None = None, env: dict | None = None,
                     preload: str | None = None) -> None:
        """``preload``: a module path for `dask worker --preload` (tests/fake_farm_worker.py replaces its compile)."""
        args = ["worker", self.address, "--name", name, "--nthreads", str(nthreads), "--host", "127.0.0.1", "--no-dashboard"]
        if resources:
            args += ["--resources", resources]
        if preload:
            args += ["--preload", preload]
        args += self._tls_args(name)
        self._spawn(name, args, env)

    def client(self):
        if self._client is None:
            from distributed import Client

            security = None
            if self.tls:
                from distributed.security import Security

                c = self.tls["client"]
                security = Security(tls_ca_file=c["ca"], tls_client_cert=c["cert"], tls_client_key=c["key"], require_encryption=True)
            self._client = Client(self.address, timeout=30, set_as_default=False, security=security)
        return self._client

    def wait_for_workers(self, names) -> dict:
        """name -> address once every named worker has joined."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            for n in names:
                self._check_alive(n)
            got = {str(w.get("name")): a for a, w in self.client().scheduler_info(n_workers=-1)["workers"].items()}
            if all(n in got for n in names):
                return {n: got[n] for n in names}
            time.sleep(0.3)
        raise RuntimeError(f"workers {names} did not join within {START_TIMEOUT} s: " + " | ".join(self.log(n) for n in names))

    def kill(self, name: str) -> None:
        """SIGKILL the process group (the worker and its nanny): a machine that goes away."""
        p = self.procs[name]
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(timeout=30)

    def _check_alive(self, name: str) -> None:
        if self.procs[name].poll() is not None:
            raise RuntimeError(f"{name} exited with {self.procs[name].returncode}: {self.log(name)}")

    def log(self, name: str) -> str:
        try:
            return (self.log_dir / f"{name}.log").read_text()[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self._client is not None:
            try:
                self._client.close(timeout=5)
            except Exception:
                pass
            self._client = None
        for name in list(self.procs):
            p = self.procs[name]
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    try:
                        os.killpg(p.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    p.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def relu_sweep_spec(n: int) -> str:
    """One relu f32 family with ``n`` distinct 1-D shapes (``n`` host kernels)."""
    lines = ["kernels:", "  relu_sweep:", "    op: relu", "    dtype: f32", "    shapes:"]
    lines += [f"      - [{16 * (i + 1)}]" for i in range(n)]
    return "\n".join(lines) + "\n"
