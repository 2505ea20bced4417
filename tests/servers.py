"""Real cache servers for the store tests: nginx with WebDAV PUT and redis-server.

Each fixture starts its own server on 127.0.0.1 and a free port, in its own
process group, waits until it answers, yields a handle with the URL, and stops
the whole process group afterwards. A missing binary skips the test, or fails
it when the environment variable CI is set; scripts/install-test-servers
installs both (apt-get).
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

INSTALL_HINT = "run scripts/install-test-servers (apt-get install nginx redis-server)"
START_TIMEOUT = 10.0


def find_binary(name: str) -> str:
    """The path of ``name`` (PATH, then /usr/sbin); skips or, under CI, fails when it is missing."""
    path = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.access(p, os.X_OK)), None)
    if path:
        return path
    msg = f"{name} not found: {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(msg + " (CI is set, so this is a failure, not a skip)")
    pytest.skip(msg)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server's whole process group (TERM, then KILL) and reap the leader."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        # the leader is gone; make sure no worker of its group is left behind
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        break
    if proc.poll() is None:
        proc.wait(5)


def _start(cmd: list[str], log: Path, ready) -> subprocess.Popen:
    """Start ``cmd`` in a new session; return it once ``ready()`` is true, or fail with its log."""
    with open(log, "ab") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            if ready():
                return proc
        except OSError:
            pass
        time.sleep(0.05)
    _stop(proc)
    raise RuntimeError(f"{cmd[0]} did not start (exit code {proc.returncode}); log {log}:\n{log.read_text(errors='replace')[-3000:]}")


def _start_with_retries(make_cmd, log: Path, ready_for) -> tuple[subprocess.Popen, int]:
    """A free port can be taken between choosing and binding it: try a few."""
    last = None
    for _ in range(3):
        port = free_port()
        try:
            return _start(make_cmd(port), log, ready_for(port)), port
        except RuntimeError as e:
            last = e
    raise last


# ---------------------------------------------------------------- nginx

NGINX_CONF = """\
worker_processes 1;
daemon off;
{user}pid {base}/nginx.pid;
error_log {base}/logs/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log {base}/logs/access.log;
    client_body_temp_path {tmp};
    proxy_temp_path {tmp};
    fastcgi_temp_path {tmp};
    uwsgi_temp_path {tmp};
    scgi_temp_path {tmp};
    server {{
        listen 127.0.0.1:{port};
        location / {{
            root {data};
            dav_methods PUT DELETE;
            create_full_put_path on;
            dav_access user:rw group:r all:r;
            client_max_body_size 0;
        }}
    }}
}}
"""


@dataclass
class Nginx:
    url: str  # http://127.0.0.1:<port>/
    port: int
    data: Path  # the server's document root: <data>/ac/<key>, <data>/cas/<sha256>
    access_log: Path

    def requests(self) -> list[tuple[str, str, int]]:
        """(method, path, status) of every request so far, in order."""
        out = []
        if not self.access_log.exists():
            return out
        for line in self.access_log.read_text().splitlines():
            try:
                req = line.split('"')[1].split()
                status = int(line.split('"')[2].split()[0])
            except (IndexError, ValueError):
                continue
            out.append((req[0], req[1], status))
        return out


def _answers(port: int, request: bytes, reply: bytes):
    """A readiness probe: the server on ``port`` answers ``request`` with a reply starting ``reply``."""
    def ready() -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(request)
            return s.recv(16).startswith(reply)
    return ready


def _http_answers(port: int):
    return _answers(port, b"HEAD / HTTP/1.0\r\n\r\n", b"HTTP/")


@pytest.fixture
def nginx_server(tmp_path):
    """nginx serving a WebDAV (PUT/DELETE) document root on 127.0.0.1; yields an :class:`Nginx`."""
    binary = find_binary("nginx")
    base = tmp_path / "nginx"
    (base / "logs").mkdir(parents=True)
    # Started as root, nginx runs its workers as nobody, who cannot enter
    # pytest's private temporary directory: the document root and nginx's temp
    # directory then live in a world-traversable directory owned by nobody.
    as_root = os.geteuid() == 0
    files = Path(tempfile.mkdtemp(prefix="npubuild-nginx-")) if as_root else base
    data, tmp = files / "data", files / "tmp"
    data.mkdir()
    tmp.mkdir()
    user = ""
    if as_root:
        import grp
        import pwd

        nobody = pwd.getpwnam("nobody")
        group = next((g for g in ("nogroup", "nobody") if _group_exists(grp, g)), None)
        gid = grp.getgrnam(group).gr_gid if group else nobody.pw_gid
        os.chmod(files, 0o755)
        for d in (data, tmp):
            os.chown(d, nobody.pw_uid, gid)
        user = f"user nobody{' ' + group if group else ''};\n"

    def command(port: int) -> list[str]:
        conf = base / "nginx.conf"
        conf.write_text(NGINX_CONF.format(user=user, base=base, tmp=tmp, data=data, port=port))
        return [binary, "-c", str(conf), "-p", str(base)]

    proc, port = _start_with_retries(command, base / "logs" / "stderr.log", _http_answers)
    try:
        yield Nginx(f"http://127.0.0.1:{port}/", port, data, base / "logs" / "access.log")
    finally:
        _stop(proc)
        if as_root:
            shutil.rmtree(files, ignore_errors=True)


def _group_exists(grp, name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


# ---------------------------------------------------------------- redis


@dataclass
class Redis:
    url: str  # redis://127.0.0.1:<port>/0
    port: int

    def command(self, *args):
        """Run one command on the server (the project's own RESP client)."""
        from npubuild.artifacts.stores.resp import RespConnection

        conn = RespConnection("127.0.0.1", self.port, timeout=5)
        try:
            return conn.call(*args)
        finally:
            conn.close()


def _redis_answers(port: int):
    return _answers(port, b"PING\r\n", b"+PONG")


@pytest.fixture
def redis_server(tmp_path):
    """redis-server on 127.0.0.1 without persistence; yields a :class:`Redis`."""
    binary = find_binary("redis-server")
    base = tmp_path / "redis"
    base.mkdir()

    def command(port: int) -> list[str]:
        return [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
                "--dir", str(base), "--daemonize", "no", "--logfile", ""]

    proc, port = _start_with_retries(command, base / "redis.log", _redis_answers)
    try:
        yield Redis(f"redis://127.0.0.1:{port}/0", port)
    finally:
        _stop(proc)
