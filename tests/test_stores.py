"""Shared and remote stores: a shared directory, an HTTP cache (real nginx with
WebDAV PUT) and Redis (real redis-server), verification of what they serve
(hashes, size limit, signatures) and builds that go on without them."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from npubuild.artifacts.trust import generate_keypair

from .conftest import new_project
from .servers import free_port, nginx_server, redis_server  # noqa: F401  (fixtures)

KERNELS = """\
kernels:
  relu:
    op: relu
    dtype: f32
    shapes:
      - [64]
      - [8, 32]
  add:
    op: add
    dtype: f32
    shapes:
      - {a: [8, 32], b: [32]}
"""
MORE = KERNELS + """\
  neg:
    op: neg
    dtype: f32
    shapes:
      - [16]
"""
N = 3  # host kernels of KERNELS


def _toml(value) -> str:
    return json.dumps(value)  # a JSON string or list of strings is valid TOML


def make(tmp_path: Path, name: str, stores, kernels: str = KERNELS, **settings):
    """A fresh project (own artifacts, empty local store, no doit database) using ``stores``."""
    p = new_project(tmp_path / name, kernels)
    lines = [f"stores = [{', '.join(s if s.startswith('{') else _toml(s) for s in stores)}]"]
    lines += [f"{k} = {_toml(v) if not isinstance(v, bool) else str(v).lower()}" for k, v in settings.items()]
    with open(p.root / "pyproject.toml", "a") as f:
        f.write("\n".join(lines) + "\n")
    return p


def build(p):
    return p.doit("-n", "2", "build")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def entries_in(directory: Path, flat: bool = False) -> dict[str, dict]:
    """key -> entry of every action entry under ``directory``/ac (``ac/<hh>/<key>``, or ``ac/<key>`` when flat)."""
    return {f.name: json.loads(f.read_text()) for f in (directory / "ac").glob("*" if flat else "*/*")}


def entry_of(entries: dict, kernel: str) -> tuple[str, dict]:
    (hit,) = [(k, e) for k, e in entries.items() if e["meta"].get("kernel") == kernel]
    return hit


def assert_complete(directory: Path, n: int, flat: bool = False) -> dict:
    """``directory`` holds ``n`` entries, each blob present and matching its name, no temp files."""
    entries = entries_in(directory, flat)
    assert len(entries) == n, sorted(entries)
    for key, e in entries.items():
        assert e["key"] == key
        for name, digest in e["files"].items():
            blob = directory / "cas" / digest if flat else directory / "cas" / digest[:2] / digest
            assert blob.is_file() and sha256(blob) == digest, (name, digest)
    assert not [p for p in directory.rglob(".npb-tmp-*")]
    return entries


def same_binaries(a, b) -> None:
    for so in a.artifacts.glob("kernels/*/host/kernel.so"):
        assert (b.artifacts / so.relative_to(a.artifacts)).read_bytes() == so.read_bytes()


# ---------------------------------------------------------------- HTTP (nginx)


def test_http_store_warm_cache_and_verification(tmp_path, nginx_server):
    srv = nginx_server
    a = make(tmp_path, "a", [srv.url])
    assert build(a).summary["compiled"] == N
    entries = assert_complete(srv.data, N, flat=True)  # the Bazel HTTP paths: /ac/<key>, /cas/<sha256>

    # blobs first, entry last: when an entry was PUT, each of its blobs had been PUT or found (HEAD 200) before
    log = srv.requests()
    puts_ac = [i for i, (m, path, st) in enumerate(log) if m == "PUT" and path.startswith("/ac/")]
    assert len(puts_ac) == N
    for i in puts_ac:
        key = log[i][1].rsplit("/", 1)[1]
        for digest in entries[key]["files"].values():
            assert any(path == f"/cas/{digest}" and (m, st) in (("PUT", 201), ("PUT", 204), ("HEAD", 200))
                       for m, path, st in log[:i]), (key, digest)

    # a fresh copy of the project compiles nothing
    b = make(tmp_path, "b", [f'{{url = "{srv.url}", mode = "rw"}}'])
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}
    assert b.npubuild("verify").rc == 0
    same_binaries(a, b)
    assert len(entries_in(b.root / "artifacts" / ".cache")) == N  # imported into the local store

    # a blob altered on the server is refused (re-hashed) and that kernel recompiled; the upload repairs it
    key, e = entry_of(entries, "relu_f32_64")
    digest = e["files"]["kernel.so"]
    blob = srv.data / "cas" / digest
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0xFF
    blob.write_bytes(bytes(data))
    c = make(tmp_path, "c", [srv.url])
    r = build(c)
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert r.shared == N - 1 and f"({N - 1} from shared stores)" in r.out  # counted apart from local hits
    assert f"blob {digest[:12]} does not match its sha256" in r.out
    assert c.npubuild("verify").rc == 0
    assert sha256(blob) == digest

    # an entry whose blob was deleted on the server is a miss (no refusal), and the blob is uploaded again
    key2, e2 = entry_of(entries, "add_f32_8x32_32")
    blob2 = srv.data / "cas" / e2["files"]["kernel.so"]
    blob2.unlink()
    d = make(tmp_path, "d", [srv.url])
    r = build(d)
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert "not used" not in r.out
    assert blob2.is_file() and sha256(blob2) == e2["files"]["kernel.so"]


def test_http_read_only_store_never_puts(tmp_path, nginx_server):
    srv = nginx_server
    build(make(tmp_path, "seed", [srv.url]))
    before = [r for r in srv.requests() if r[0] == "PUT"]
    assert before
    p = make(tmp_path, "ro", [f"ro:{srv.url}"], kernels=MORE)
    r = build(p)
    assert r.summary == {"kernels": N + 1, "compiled": 1, "store": N, "uptodate": 0}
    assert [r for r in srv.requests() if r[0] == "PUT"] == before
    assert len(entries_in(srv.data, flat=True)) == N


# ---------------------------------------------------------------- Redis


def test_redis_store_warm_cache(tmp_path, redis_server):
    srv = redis_server
    a = make(tmp_path, "a", [srv.url])
    assert build(a).summary["compiled"] == N
    keys = srv.command("KEYS", "npubuild:ac:*")
    assert len(keys) == N
    digests = {}
    for k in keys:
        e = json.loads(srv.command("GET", k))
        for d in e["files"].values():
            assert srv.command("EXISTS", f"npubuild:cas:{d}") == 1
        digests[e["meta"]["kernel"]] = e["files"]["kernel.so"]

    b = make(tmp_path, "b", [srv.url])
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}
    assert b.npubuild("verify").rc == 0
    same_binaries(a, b)

    d = digests["relu_f32_8x32"]
    srv.command("SET", f"npubuild:cas:{d}", b"not the kernel")
    c = make(tmp_path, "c", [srv.url])
    r = build(c)
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert f"blob {d[:12]} does not match its sha256" in r.out
    assert hashlib.sha256(srv.command("GET", f"npubuild:cas:{d}")).hexdigest() == d  # re-uploaded


# ---------------------------------------------------------------- shared directory


def test_shared_directory_concurrent_writers_then_warm_cache(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    url = f"file://{shared}"
    writers = [make(tmp_path, f"w{i}", [url]) for i in (1, 2)]
    procs = [subprocess.Popen([sys.executable, "-m", "doit", "-n", "2", "build"], cwd=w.root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for w in writers]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert "unreachable" not in "".join(outs)
    assert_complete(shared, N)

    b = make(tmp_path, "b", [url])
    r = build(b)
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}
    assert b.npubuild("verify").rc == 0
    same_binaries(writers[0], b)


def test_entry_naming_a_file_outside_its_directory_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    url = f"file://{shared}"
    build(make(tmp_path, "a", [url]))
    key, e = entry_of(entries_in(shared), "relu_f32_64")
    e["files"] = {"../../../escaped.so": e["files"]["kernel.so"]}
    (shared / "ac" / key[:2] / key).write_text(json.dumps(e))
    b = make(tmp_path, "b", [f"ro:{url}"])
    r = build(b)
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert "names a file outside its directory" in r.out
    assert not list(tmp_path.rglob("escaped.so"))


# ---------------------------------------------------------------- unreachable


def test_unreachable_stores_warn_once_and_build(tmp_path):
    http_port, redis_port = free_port(), free_port()
    stores = [f"http://127.0.0.1:{http_port}/", f"redis://127.0.0.1:{redis_port}", f"file://{tmp_path}/missing"]
    p = make(tmp_path, "p", stores, kernels=MORE)
    for _ in range(2):  # the markers of one build do not leak into the next
        r = build(p)
        assert r.summary["compiled"] == N + 1
        assert r.out.count(f"npubuild: store http://127.0.0.1:{http_port}/ unreachable (connection refused); building without it") == 1
        assert r.out.count(f"npubuild: store redis://127.0.0.1:{redis_port} unreachable (connection refused); building without it") == 1
        assert r.out.count(f"npubuild: store file://{tmp_path}/missing unreachable (no directory {tmp_path}/missing); building without it") == 1
        assert r.out.count(" unreachable (") == 3
        assert not list((p.artifacts / ".cache" / "tmp" / "unreachable").iterdir())
        os.remove(p.root / ".npubuild.doit.db")
        for so in p.artifacts.glob("kernels/*/host/kernel.so"):
            so.unlink()
        for d in ("ac", "cas"):
            for f in (p.artifacts / ".cache" / d).glob("*/*"):
                f.unlink()


def test_failing_http_store_is_tried_once_per_process(tmp_path):
    """A server answering 503 costs at most one request per worker process and one warning."""
    import http.server
    import threading

    hits = []

    class Unavailable(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_error(503)

        do_HEAD = do_PUT = do_GET

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Unavailable)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/cache"
        r = build(make(tmp_path, "p", [url], kernels=MORE))
    finally:
        server.shutdown()
        server.server_close()
    assert r.summary["compiled"] == N + 1
    assert r.out.count(f"npubuild: store {url} unreachable (HTTP 503 Service Unavailable on GET /ac/); building without it") == 1
    assert 1 <= len(hits) <= 2 and all(h.startswith("/cache/ac/") for h in hits), hits  # doit -n 2: two workers


# ---------------------------------------------------------------- signatures and size limit


def test_signed_entries(tmp_path):
    keys = tmp_path / "keys"
    a_key, a_pub = generate_keypair(keys, "a")
    _, b_pub = generate_keypair(keys, "b")
    signed, unsigned = tmp_path / "signed", tmp_path / "unsigned"
    signed.mkdir()
    unsigned.mkdir()
    build(make(tmp_path, "signer", [f"file://{signed}"], signing_key=str(a_key)))
    entries = entries_in(signed)
    assert len(entries) == N and all(e["signature"]["key"] == a_pub.read_text().strip() for e in entries.values())
    build(make(tmp_path, "plain", [f"file://{unsigned}"]))

    def consumer(name, store, pub, mode="ro"):
        return make(tmp_path, name, [f"{mode}:file://{store}"], trusted_keys=[str(pub)], require_signatures=True)

    r = build(consumer("trusting", signed, a_pub))
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}
    assert "not used" not in r.out

    r = build(consumer("other-key", signed, b_pub, mode="rw"))
    assert r.summary["compiled"] == N and r.summary["store"] == 0
    assert r.out.count("is signed by an untrusted key") == N
    assert entries_in(signed) == entries  # refused by policy only: not overwritten by the consumer's own

    r = build(consumer("unsigned", unsigned, a_pub))
    assert r.summary["compiled"] == N and r.summary["store"] == 0
    assert r.out.count("is not signed and signatures are required") == N

    key, e = entry_of(entries, "relu_f32_8x32")
    e["modes"]["kernel.so"] = 0o777  # still well-formed, but not what was signed
    (signed / "ac" / key[:2] / key).write_text(json.dumps(e))
    r = build(consumer("altered", signed, a_pub))
    assert r.summary["compiled"] == 1 and r.summary["store"] == N - 1
    assert "relu_f32_8x32@host" in r.out and "the signature does not match its content" in r.out


def test_blob_over_max_artifact_size_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    build(make(tmp_path, "a", [f"file://{shared}"]))
    r = build(make(tmp_path, "small", [f"ro:file://{shared}"], max_artifact_size="1K"))
    assert r.summary["compiled"] == N and r.summary["store"] == 0
    assert r.out.count("(max_artifact_size)") == N
    r = build(make(tmp_path, "large", [f"ro:file://{shared}"], max_artifact_size="1M"))
    assert r.summary == {"kernels": N, "compiled": 0, "store": N, "uptodate": 0}


@pytest.mark.slow
def test_fresh_clone_of_the_repository_specs_builds_from_a_warm_http_cache(tmp_path, nginx_server):
    """The acceptance flow: the repository's own specs (kernels, YAML graphs, the .mil graph),
    built once into nginx, then built on a fresh clone with zero compiler invocations."""
    import shutil

    from .conftest import REPO

    def clone(name):
        p = make(tmp_path, name, [nginx_server.url])
        shutil.rmtree(p.root / "specs")
        shutil.copytree(REPO / "specs", p.root / "specs")
        return p

    warm = clone("warm")
    first = build(warm)
    n = first.summary["kernels"] + first.summary["graphs"]  # each .mil graph is one compile too
    assert first.summary["compiled"] == n
    fresh = clone("fresh")
    r = build(fresh)
    assert r.summary == {**first.summary, "compiled": 0, "store": n, "uptodate": 0}
    assert "compile:swiglu@ane" in r.out  # the .mil graph too: from the cache, not compiled
    assert fresh.npubuild("verify").rc == 0
    same_binaries(warm, fresh)
