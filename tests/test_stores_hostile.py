"""Hostile or broken stores: a local store that came with a copied artifact
directory and holds entries made to escape it, further stores that put FIFOs
where files belong, and servers that answer malformed, huge or one byte at a
time. Every build here must succeed with the right outputs, say what it refused
in one line, and create, change or remove nothing outside its own project."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from npubuild.artifacts.stores.resp import ProtocolError, RespConnection

from .conftest import new_project

KERNELS = """\
kernels:
  relu:
    op: relu
    dtype: f32
    shapes:
      - [64]
      - [8, 32]
  neg:
    op: neg
    dtype: f32
    shapes:
      - [16]
"""
N = 3
VICTIM = "relu_f32_64"  # the kernel whose entry each case damages
NO_HANG = 180  # seconds: far more than any build here takes, far less than a hang


def build(p):
    t = time.monotonic()
    r = p.doit("-n", "2", "build")
    assert time.monotonic() - t < NO_HANG
    return r


def said(r) -> str:
    """Everything the build printed (store notices go to stdout, warnings of a worker to stderr)."""
    return r.out + r.err


# ---------------------------------------------------------------- a reference build and copies of its store


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A project built from nothing: the store to copy, the outputs to compare with."""
    p = new_project(tmp_path_factory.mktemp("reference") / "ref", KERNELS)
    assert build(p).summary["compiled"] == N
    return p


def project(tmp_path: Path, name: str, stores=(), request_timeout: float | None = None):
    p = new_project(tmp_path / name, KERNELS)
    with open(p.root / "pyproject.toml", "a") as f:
        f.write(f"stores = {json.dumps(list(stores))}\n")
        if request_timeout is not None:
            f.write(f"[tool.npubuild.limits]\nstore_request_timeout = {request_timeout}\n")
    return p


def copy_store(reference, dest: Path) -> Path:
    """The reference's entries and blobs (what a copied artifacts/.cache holds) at ``dest``."""
    src = reference.artifacts / ".cache"
    for kind in ("ac", "cas"):
        shutil.copytree(src / kind, dest / kind)
    return dest


def entry_file(store: Path, kernel: str) -> tuple[Path, str, dict]:
    for f in (store / "ac").glob("*/*"):
        e = json.loads(f.read_text())
        if e["meta"].get("kernel") == kernel:
            return f, f.name, e
    raise AssertionError(f"no entry for {kernel} in {store}")


def write_entry(path: Path, entry) -> None:
    path.write_text(entry if isinstance(entry, str) else json.dumps(entry))


def blob_of(store: Path, digest: str) -> Path:
    return store / "cas" / digest[:2] / digest


def snapshot(root: Path, skip: Path | None = None) -> dict:
    """path -> (type, mode, sha256 of a regular file) of everything under ``root`` but ``skip``, links not followed."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if skip is not None and (here == skip or skip in here.parents):
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            p = here / name
            if skip is not None and p == skip:
                continue
            st = p.lstat()
            digest = hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else None
            out[str(p)] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), digest)
    return out


def assert_no_special_bits(root: Path) -> None:
    bad = [p for p in root.rglob("*") if p.lstat().st_mode & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX)]
    assert not bad, bad


def assert_outputs_match(p, reference) -> None:
    """The same kernel sources, binaries and build records as the reference build; no writable binary."""
    ref_dirs = sorted(reference.artifacts.glob("kernels/*/host"))
    assert len(ref_dirs) == N
    for ref in ref_dirs:
        mine = p.artifacts / ref.relative_to(reference.artifacts)
        for name in ("kernel.mlir", "kernel.so"):
            assert (mine / name).read_bytes() == (ref / name).read_bytes(), mine / name
        assert json.loads((mine / "build.json").read_text()) == json.loads((ref / "build.json").read_text())
        assert stat.S_IMODE((mine / "kernel.so").stat().st_mode) in (0o755, 0o644)


# ---------------------------------------------------------------- the local store, copied from someone else


def _traversal_and_setuid(store, e, outside):
    d = e["files"]["kernel.so"]
    e["files"] = {"../../../../../X": d}
    e["modes"] = {"../../../../../X": 0o6777}
    return e, "names a file outside its directory: '../../../../../X'"


def _setuid_mode(store, e, outside):
    e["modes"]["kernel.so"] = 0o6777
    return e, "asks for mode 0o6777 on 'kernel.so' (setuid, setgid and sticky bits are refused)"


def _digest_traversal(store, e, outside):
    e["files"]["kernel.so"] = "../../../VICTIM"
    return e, "names 'kernel.so' by a malformed digest"


def _uppercase_digest(store, e, outside):
    e["files"]["kernel.so"] = e["files"]["kernel.so"].upper()
    return e, "names 'kernel.so' by a malformed digest"


def _no_key(store, e, outside):
    del e["key"]
    return e, "does not name its key"


def _another_key(store, e, outside):
    e["key"] = "0" * 64
    return e, "belongs to another key ('00000000000000"


def _names_the_source(store, e, outside):
    e["files"]["kernel.mlir"] = e["files"]["kernel.so"]
    return e, "names a file this build does not produce: 'kernel.mlir'"


def _names_the_build_record(store, e, outside):
    e["files"]["build.json"] = e["files"]["kernel.so"]
    return e, "names a file this build does not produce: 'build.json'"


def _another_binary(store, e, outside):
    e["files"] = {"kernel.a": e["files"]["kernel.so"]}
    return e, "names a file this build does not produce: 'kernel.a'"


def _nested_json(store, e, outside):
    return "[" * 200000, "is not valid JSON"


def _deep_meta(store, e, outside):
    deep = []
    for _ in range(500):
        deep = [deep]
    e["meta"]["x"] = deep
    return e, "has malformed meta data"


def _damaged_blob(store, e, outside):
    blob = blob_of(store, e["files"]["kernel.so"])
    os.chmod(blob, 0o644)
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0xFF
    blob.write_bytes(bytes(data))
    return e, f"has blob {e['files']['kernel.so'][:12]} that does not match its sha256 (damaged); removed it"


def _fifo_blob(store, e, outside):
    blob = blob_of(store, e["files"]["kernel.so"])
    blob.unlink()
    os.mkfifo(blob)
    return e, f"has blob {e['files']['kernel.so'][:12]} that is not a regular file (a directory, FIFO, socket or device)"


def _directory_blob(store, e, outside):
    blob = blob_of(store, e["files"]["kernel.so"])
    blob.unlink()
    blob.mkdir()
    return e, f"has blob {e['files']['kernel.so'][:12]} that is not a regular file"


LOCAL_CASES = {
    "traversal name, setuid mode": _traversal_and_setuid,
    "setuid mode": _setuid_mode,
    "digest ../../../VICTIM": _digest_traversal,
    "uppercase digest": _uppercase_digest,
    "no key": _no_key,
    "another key": _another_key,
    "names kernel.mlir": _names_the_source,
    "names build.json": _names_the_build_record,
    "names kernel.a instead": _another_binary,
    "nested JSON": _nested_json,
    "deep meta data": _deep_meta,
    "damaged blob": _damaged_blob,
    "FIFO blob": _fifo_blob,
    "directory blob": _directory_blob,
}


def _bait(tmp_path: Path) -> Path:
    """Files where the hostile names would land or point, outside the project."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not the store's")
    (tmp_path / "VICTIM").write_text("must survive the build")
    return outside


def _fast_few(cases, fast):
    """Every case runs in CI; a representative few also in the default (fast) run."""
    return [c if c in fast else pytest.param(c, marks=pytest.mark.slow) for c in sorted(cases)]


@pytest.mark.parametrize("case", _fast_few(LOCAL_CASES, {"traversal name, setuid mode", "digest ../../../VICTIM", "no key", "names build.json"}))
def test_bad_local_entry_is_a_miss_with_one_warning(tmp_path, reference, case):
    b = project(tmp_path, "b")
    store = copy_store(reference, b.artifacts / ".cache")
    outside = _bait(tmp_path)
    path, key, e = entry_file(store, VICTIM)
    entry, fragment = LOCAL_CASES[case](store, e, outside)
    write_entry(path, entry)
    before = snapshot(tmp_path, skip=b.root)
    ref_before = snapshot(reference.root)

    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 1, "store": N - 1, "uptodate": 0}
    line = f"npubuild: local store entry key {key[:12]} in {store} {fragment}"
    assert said(r).count(line) == 1, said(r)
    assert said(r).count("; not used") == 1
    assert_outputs_match(b, reference)
    assert snapshot(tmp_path, skip=b.root) == before  # nothing outside the project appeared, changed or vanished
    assert snapshot(reference.root) == ref_before
    assert not list(tmp_path.rglob("X"))
    assert_no_special_bits(tmp_path)

    # the compile's own result replaced the bad entry: the next build takes everything from the store
    os.remove(b.root / ".npubuild.doit.db")
    for so in b.artifacts.glob("kernels/*/host/kernel.so"):
        so.unlink()
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}
    assert "not used" not in said(r)
    assert_outputs_match(b, reference)


def test_local_blob_directory_linked_outside_is_neither_read_nor_removed(tmp_path, reference):
    """``cas/<hh>`` a symlink to a directory elsewhere holding a 'blob' that does not match:
    the old store deleted that file; now the entry is refused and nothing outside is touched."""
    b = project(tmp_path, "b")
    store = copy_store(reference, b.artifacts / ".cache")
    _, key, e = entry_file(store, VICTIM)
    digest = e["files"]["kernel.so"]
    hh = store / "cas" / digest[:2]
    elsewhere = tmp_path / "elsewhere"
    shutil.move(hh, elsewhere)
    (elsewhere / digest).chmod(0o644)
    (elsewhere / digest).write_bytes(b"someone else's file")
    hh.symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(tmp_path, skip=b.root)

    r = build(b)
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert said(r).count(f"npubuild: local store entry key {key[:12]} in {store} has blob {digest[:12]} that cannot be read: ") == 1
    assert said(r).count("resolves outside") == 2  # not used, and not stored (the compile's result cannot go there either)
    assert said(r).count(f"cannot store key {key[:12]}") == 1 and "; not stored" in said(r)
    assert snapshot(tmp_path, skip=b.root) == before
    assert (elsewhere / digest).read_bytes() == b"someone else's file"
    assert_outputs_match(b, reference)


def test_local_entry_fifo_does_not_block(tmp_path, reference):
    b = project(tmp_path, "b")
    store = copy_store(reference, b.artifacts / ".cache")
    path, key, _ = entry_file(store, VICTIM)
    path.unlink()
    os.mkfifo(path)
    r = build(b)
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert said(r).count(f"npubuild: local store entry key {key[:12]} in {store} cannot be read: ") == 1
    assert "is not a regular file (a directory, FIFO, socket or device); not used" in said(r)
    assert_outputs_match(b, reference)


def test_local_modes_are_fixed_whatever_the_entry_asks(tmp_path, reference):
    """Writable modes are not refused (a umask 002 machine records them) but never applied."""
    b = project(tmp_path, "b")
    store = copy_store(reference, b.artifacts / ".cache")
    for kernel, mode in ((VICTIM, 0o777), ("neg_f32_16", 0o666)):
        path, _, e = entry_file(store, kernel)
        e["modes"]["kernel.so"] = mode
        write_entry(path, e)
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}
    assert "not used" not in said(r)
    assert_no_special_bits(tmp_path)
    so = lambda k: b.artifacts / "kernels" / k / "host" / "kernel.so"  # noqa: E731
    assert stat.S_IMODE(so(VICTIM).stat().st_mode) == 0o755
    assert stat.S_IMODE(so("neg_f32_16").stat().st_mode) == 0o644


def test_bad_local_entry_falls_through_to_a_further_store(tmp_path, reference):
    shared = copy_store(reference, tmp_path / "shared")
    b = project(tmp_path, "b", stores=[f"ro:file://{shared}"])
    store = copy_store(reference, b.artifacts / ".cache")
    path, key, e = entry_file(store, VICTIM)
    entry, fragment = _traversal_and_setuid(store, e, None)
    write_entry(path, entry)
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}  # the shared store's entry is good
    assert r.out.count(f"npubuild: local store entry key {key[:12]} in {store} {fragment}; not used") == 1
    assert_outputs_match(b, reference)
    assert not list(tmp_path.rglob("X"))
    assert_no_special_bits(tmp_path)


# ---------------------------------------------------------------- a shared directory with things that are not files


def test_shared_directory_fifo_or_directory_where_a_file_belongs_is_refused(tmp_path, reference):
    shared = copy_store(reference, tmp_path / "shared")
    url = f"file://{shared}"
    entry_fifo, key1, _ = entry_file(shared, "relu_f32_64")
    entry_dir, key2, _ = entry_file(shared, "neg_f32_16")
    _, key3, e3 = entry_file(shared, "relu_f32_8x32")  # all looked up before a FIFO is there to block the reading
    entry_fifo.unlink()
    os.mkfifo(entry_fifo)
    entry_dir.unlink()
    entry_dir.mkdir()
    blob = blob_of(shared, e3["files"]["kernel.so"])
    blob.unlink()
    os.mkfifo(blob)
    before = snapshot(tmp_path, skip=tmp_path / "b")

    b = project(tmp_path, "b", stores=[f"ro:{url}"])
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": N, "store": 0, "uptodate": 0}
    not_a_file = "is not a regular file (a directory, FIFO, socket or device); not used"
    assert r.out.count(f"npubuild: store entry key {key1[:12]} from {url} {not_a_file}") == 1
    assert r.out.count(f"npubuild: store entry key {key2[:12]} from {url} {not_a_file}") == 1
    assert r.out.count(f"from {url}: blob {e3['files']['kernel.so'][:12]} {not_a_file}") == 1
    assert "unreachable" not in r.out
    assert_outputs_match(b, reference)
    assert snapshot(tmp_path, skip=tmp_path / "b") == before


@pytest.mark.parametrize("case", ["no key", "names kernel.mlir", "setuid mode", "digest ../../../VICTIM"])
def test_further_store_entries_get_the_same_checks(tmp_path, reference, case):
    shared = copy_store(reference, tmp_path / "shared")
    url = f"file://{shared}"
    path, key, e = entry_file(shared, VICTIM)
    entry, fragment = LOCAL_CASES[case](shared, e, None)
    write_entry(path, entry)
    b = project(tmp_path, "b", stores=[f"ro:{url}"])
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 1, "store": N - 1, "uptodate": 0}
    assert r.out.count(f"npubuild: store entry key {key[:12]} from {url} {fragment}; not used") == 1
    assert_outputs_match(b, reference)
    assert_no_special_bits(tmp_path)


# ---------------------------------------------------------------- servers that answer badly


class RawServer:
    """127.0.0.1:<port>; reads each connection's request, then ``answer(conn, stop)`` writes whatever it likes."""

    def __init__(self, answer):
        self.answer = answer
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        with conn:
            try:
                conn.settimeout(30)
                conn.recv(1 << 16)
                self.answer(conn, self.stop)
            except OSError:
                pass

    def close(self):
        self.stop.set()
        self.sock.close()


@pytest.fixture
def raw_server():
    servers = []

    def start(answer) -> RawServer:
        servers.append(RawServer(answer))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def send(data: bytes):
    return lambda conn, stop: conn.sendall(data)


def drip(head: bytes, every: float = 0.25):
    """``head``, then one byte every ``every`` seconds for as long as the client listens: no single
    read ever waits long, only the whole answer never ends."""

    def answer(conn, stop):
        conn.sendall(head)
        while not stop.is_set():
            conn.sendall(b"a")
            stop.wait(every)

    return answer


HTTP_ANSWERS = {
    "malformed status line": (send(b"HELLO\x1b[2J\r\n\r\n"), "malformed HTTP answer (BadStatusLine: HELLO?[2J"),
    "101 headers": (send(b"HTTP/1.1 200 OK\r\n" + b"X-A: b\r\n" * 101 + b"\r\n"),
                    "malformed HTTP answer (HTTPException: got more than 100 headers)"),
    "bad chunking": (send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n"), "malformed HTTP answer (IncompleteRead"),
    "short body": (send(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"), "the answer ended after 3 of 100 bytes"),
    "reason with escapes": (send(b"HTTP/1.1 500 \x1b]0;owned\x07\r\nContent-Length: 0\r\n\r\n"), "HTTP 500 ?]0;owned? on GET /ac/"),
    "redirect to ftp": (send(b"HTTP/1.1 302 Found\r\nLocation: ftp://127.0.0.1:1/x\r\nContent-Length: 0\r\n\r\n"),
                        "HTTP 302 Found on GET /ac/"),
    "dripping headers": (drip(b"HTTP/1.1 200 OK\r\nX-Slow: "),
                         "timed out: no complete answer within 1 s (limits.store_request_timeout)"),
    "dripping body": (drip(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n"),
                      "timed out: no complete answer within 1 s (limits.store_request_timeout)"),
}


@pytest.mark.parametrize("case", _fast_few(HTTP_ANSWERS, {"dripping body", "malformed status line"}))
def test_malformed_or_dripping_http_store_is_unreachable_not_a_failure(tmp_path, reference, raw_server, case):
    answer, reason = HTTP_ANSWERS[case]
    srv = raw_server(answer)
    url = f"http://127.0.0.1:{srv.port}/"
    b = project(tmp_path, "b", stores=[url], request_timeout=1)
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": N, "store": 0, "uptodate": 0}
    assert r.out.count(f"npubuild: store {url} unreachable ({reason}") == 1, r.out
    assert r.out.count(" unreachable (") == 1
    assert "\x1b" not in r.out + r.err
    assert 1 <= srv.connections <= 2  # one try per worker process (doit -n 2), then skipped
    assert_outputs_match(b, reference)


REDIS_ANSWERS = {
    "nested arrays": (send(b"*1\r\n" * 100000), "unreachable (unexpected reply to GET b'*1'); building without it"),
    "dripping bulk": (drip(b"$1000000\r\n"),
                      "unreachable (timed out: no complete answer within 1 s (limits.store_request_timeout)); building without it"),
    "error with escapes": (send(b"-ERR \x1b[2J no\r\n"), "unreachable (redis: ERR ?[2J no); building without it"),
}


@pytest.mark.parametrize("case", _fast_few(REDIS_ANSWERS, {"dripping bulk"}))
def test_malformed_or_dripping_redis_store_is_unreachable_not_a_failure(tmp_path, reference, raw_server, case):
    answer, line = REDIS_ANSWERS[case]
    srv = raw_server(answer)
    url = f"redis://127.0.0.1:{srv.port}"
    b = project(tmp_path, "b", stores=[url], request_timeout=1)
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": N, "store": 0, "uptodate": 0}
    assert r.out.count(f"npubuild: store {url} {line}") == 1, r.out
    assert "\x1b" not in r.out + r.err
    assert 1 <= srv.connections <= 2
    assert_outputs_match(b, reference)


def test_huge_redis_bulk_is_refused_before_it_is_read(tmp_path, reference, raw_server):
    srv = raw_server(send(b"$99999999999\r\n"))
    url = f"redis://127.0.0.1:{srv.port}"
    b = project(tmp_path, "b", stores=[f"ro:{url}"], request_timeout=1)
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": N, "store": 0, "uptodate": 0}
    assert r.out.count(f"from {url} is 99999999999 bytes, over the limit of {16 << 20} bytes; not used") == N
    assert "unreachable" not in r.out
    assert_outputs_match(b, reference)


@pytest.mark.parametrize("reply, message", [
    (b"*1\r\n" * 100000, "reply nested deeper than 4 arrays"),
    (b"*2000000000\r\n", f"reply larger than {16 << 20} bytes"),
    (b"$99999999999\r\n", f"reply larger than {16 << 20} bytes"),
    (b"*3\r\n$9000000\r\n" + b"x" * 9000000 + b"\r\n$9000000\r\n", f"reply larger than {16 << 20} bytes"),
    (b":" + b"9" * 5000 + b"\r\n", "malformed number in a reply"),
    (b"$-7\r\n", "malformed bulk reply"),
], ids=["nested arrays", "huge array", "huge bulk", "bulks past the budget", "huge number", "negative length"])
def test_resp_replies_are_bounded(raw_server, reply, message):
    srv = raw_server(send(reply))
    conn = RespConnection("127.0.0.1", srv.port, timeout=5)
    try:
        with pytest.raises(ProtocolError, match=message.replace("(", r"\(")):
            conn.call("EXISTS", "x")
    finally:
        conn.close()


def test_resp_deadline_covers_the_whole_reply(raw_server):
    srv = raw_server(drip(b"$1000000\r\n", every=0.1))
    conn = RespConnection("127.0.0.1", srv.port, timeout=1)
    t = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            conn.call("GET", "x")
    finally:
        conn.close()
    assert time.monotonic() - t < 30  # a per-read timeout would wait as long as the drip lasts
