"""Bundles built by hand to attack unpack: tar headers tarfile must never parse,
archives that claim or expand to too much, manifests that nest too deep; and
`unpack --force` / `pack` killed with SIGKILL at every step.

Each hostile bundle must be one UserError naming the bundle (and the limit's key
when a limit refused it), quickly, with nothing left on disk.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import zstandard

from npubuild.artifacts import bundle, bundle_install
from npubuild.core.errors import UserError
from npubuild.core.fsio import TMP_PREFIX
from npubuild.core.limits import Limits

from .conftest import REPO

MB = 1 << 20
NO_HANG = 10  # seconds: far more than any of these takes, far less than what they cost before

# ------------------------------------------------------------------ raw tar, by hand


def _header(name: bytes, size: int, type: bytes = b"0", size_field: bytes | None = None) -> bytes:
    """One ustar header block, checksum and all, with whatever size and type we like."""
    h = bytearray(512)
    h[0 : len(name)] = name
    h[100:108], h[108:116], h[116:124] = b"0000644\0", b"0000000\0", b"0000000\0"
    h[124:136] = size_field if size_field is not None else b"%011o\0" % size
    h[136:148] = b"00000000000\0"
    h[148:156] = b" " * 8
    h[156:157] = type
    h[257:265] = b"ustar\x0000"
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 512)


def _member(name: str, data: bytes) -> bytes:
    return _header(name.encode(), len(data)) + _pad(data)


def _ext(body: bytes, type: bytes = b"x") -> bytes:
    return _header(b"././@PaxHeader", len(body), type) + _pad(body)


def _record(key: str, value: str) -> bytes:
    rest = f" {key}={value}\n".encode()
    n = len(rest) + 1
    while len(str(n)) + len(rest) != n:
        n += 1
    return str(n).encode() + rest


def _zst(path: Path, *parts: bytes, level: int = 3) -> Path:
    path.write_bytes(zstandard.ZstdCompressor(level=level, write_checksum=True).compress(b"".join(parts) + b"\0" * 1024))
    return path


FILES = {"graphs/g/c.npy": b"\x93NUMPY" + b"\1" * 120, "kernels/k/host/kernel.so": os.urandom(3000)}


def _manifest(files: dict[str, bytes] | None = None, sizes: dict[str, int] | None = None, indent: int | None = 1) -> bytes:
    files = FILES if files is None else files
    recs = {rel: {"path": rel, "sha256": hashlib.sha256(d).hexdigest(), "size": len(d)} for rel, d in files.items()}
    for rel, size in (sizes or {}).items():
        recs[rel] = {"path": rel, "sha256": "0" * 64, "size": size}
    consts = {f"c{i}": dict(r, dtype="f32", shape=[1]) for i, r in enumerate(recs.values())}
    graph = {"inputs": {}, "params": {}, "constants": consts, "outputs": [], "steps": []}  # the structure verify requires
    return json.dumps({"schema": 1, "kernels": {}, "graphs": {"g": graph}}, indent=indent).encode()


def _good(files=None) -> list[bytes]:
    files = FILES if files is None else files
    return [_member("manifest.json", _manifest(files)), *(_member(rel, d) for rel, d in sorted(files.items()))]


def _unpack(b: Path, dest: Path, limits=Limits(), max_size=1 << 30, force=False, **kw):
    return bundle.unpack(b, dest, max_size=max_size, trusted={}, required=False, force=force, limits=limits, **kw)


def _temps(root: Path) -> list[str]:
    return [os.path.join(d, n) for d, dirs, files in os.walk(root) for n in dirs + files if n.startswith(TMP_PREFIX)]


def _refused(b: Path, tmp_path: Path, *fragments: str, **kw) -> str:
    """Unpack refuses ``b`` quickly with one message holding ``fragments``, and leaves nothing behind."""
    before = sorted(os.listdir(tmp_path))
    dest = tmp_path / "out"
    t = time.perf_counter()
    with pytest.raises(UserError) as ei:
        _unpack(b, dest, **kw)
    assert time.perf_counter() - t < NO_HANG
    msg = str(ei.value)
    assert "\n" not in msg and f"bundle {b}" in msg and msg.endswith(f"{dest} was left untouched"), msg
    for f in fragments:
        assert f in msg, msg
    assert not dest.exists() and sorted(os.listdir(tmp_path)) == before
    return msg


def test_the_helpers_make_a_bundle_unpack_accepts(tmp_path):
    b = _zst(tmp_path / "b.tar.zst", *_good())
    r = _unpack(b, tmp_path / "ok")
    assert r.files == 2 and (tmp_path / "ok" / "kernels/k/host/kernel.so").read_bytes() == FILES["kernels/k/host/kernel.so"]
    # a PAX header with a path and a GNU long name, as other writers make them, are fine too
    long = "graphs/g/" + "d" * 150 + ".npy"
    files = {**FILES, long: b"long"}
    parts = _good(files)
    parts[-2] = _ext(_record("path", long) + _record("mtime", "1700000000.123456789")) + _header(b"x", 4) + _pad(b"long")
    assert sorted(files)[-2] == long
    _unpack(_zst(tmp_path / "p.tar.zst", *parts), tmp_path / "ok2")
    parts[-2] = _header(b"././@LongLink", len(long) + 1, b"L") + _pad(long.encode() + b"\0") + _header(b"x", 4) + _pad(b"long")
    _unpack(_zst(tmp_path / "l.tar.zst", *parts), tmp_path / "ok3")
    assert (tmp_path / "ok3" / long).read_bytes() == b"long"


# ------------------------------------------------------------------ headers tarfile must not parse


def test_a_300000_digit_pax_header_is_refused_before_tarfile_reads_it(tmp_path):
    # CVE-2024-6232: CPython 3.11's tarfile spends minutes on this 100-odd-byte file
    b = _zst(tmp_path / "cve.tar.zst", _ext(b"1" * 300_000), level=19)
    assert b.stat().st_size < 200
    _refused(b, tmp_path, "a PAX header is 300000 bytes, over the limit of 65536 bytes", "limits.bundle_max_header_size")


@pytest.mark.parametrize("type,kind", [(b"x", "PAX"), (b"g", "global PAX"), (b"L", "GNU long-name"), (b"K", "GNU long-link")])
def test_extended_headers_over_the_limit_are_refused(tmp_path, type, kind):
    b = _zst(tmp_path / "h.tar.zst", *_good()[:1], _ext(b"7" * 5000, type))
    _refused(b, tmp_path, f"a {kind} header is 5000 bytes, over the limit of 4096 bytes (limits.bundle_max_header_size",
             limits=Limits(bundle_max_header_size=4096))


def test_long_digit_runs_under_the_size_limit_are_refused_too(tmp_path):
    # 60000 digits is under the 64 KiB header limit, yet tarfile's hdrcharset search would take seconds on it
    b = _zst(tmp_path / "d.tar.zst", _ext(_record("comment", "9" * 60_000)))
    _refused(b, tmp_path, "a PAX header holds a number of more than 64 digits")


def test_a_pax_header_of_thousands_of_records_is_refused(tmp_path):
    body = b"".join(_record(f"k{i}", "") for i in range(5000))
    b = _zst(tmp_path / "r.tar.zst", *_good()[:1], _ext(body), _member("graphs/g/c.npy", FILES["graphs/g/c.npy"]))
    _refused(b, tmp_path, "a PAX header holds more than 64 records")
    b = _zst(tmp_path / "s.tar.zst", *_good()[:1], _ext(b"".join(_record(f"k{i}", "v") for i in range(64))), *_good()[1:])
    assert _unpack(b, tmp_path / "ok").files == 2  # 64 are fine


@pytest.mark.parametrize(
    "body,why",
    [
        (b"3 a" * 20_000 + b"=", "malformed PAX record at byte 0"),  # tarfile's record regex would rescan to the '=' for every record
        (_record("path", "a") + b"99 b=c\n", "malformed PAX record at byte"),  # a length past the header
        (_record("path", "a")[:-1] + b"x", "malformed PAX record at byte 0"),  # no newline at its end
        (b"0 =\n", "malformed PAX record"),
    ],
)
def test_malformed_pax_records_are_refused(tmp_path, body, why):
    b = _zst(tmp_path / "r.tar.zst", *_good()[:1], _ext(body), _member("graphs/g/c.npy", FILES["graphs/g/c.npy"]))
    _refused(b, tmp_path, "the archive is corrupt", why)


def test_headers_where_tarfile_and_the_scan_could_disagree_are_refused(tmp_path):
    c = FILES["graphs/g/c.npy"]
    cases = {
        "two PAX headers for one entry": [_ext(_record("path", "a")), _ext(_record("path", "b")), _member("graphs/g/c.npy", c)],
        "a global PAX header sets sizes": [_ext(_record("size", "0"), b"g"), _member("graphs/g/c.npy", c)],
        "bytes after the records of a PAX header": [_header(b"p", 10, b"x") + _pad(_record("path", "ab") + b"junk 9 x=y\n"),
                                                    _member("graphs/g/c.npy", c)],
        "the PAX size of 'graphs/g/c.npy' is not a number": [_ext(_record("size", " 126")), _member("graphs/g/c.npy", c)],
        "negative size": [_header(b"graphs/g/c.npy", 0, size_field=b"\xff" * 12)],
    }
    for i, (why, parts) in enumerate(cases.items()):
        b = _zst(tmp_path / f"c{i}.tar.zst", *_good()[:1], *parts)
        _refused(b, tmp_path, why)


def test_sparse_members_are_refused_gnu_and_pax(tmp_path):
    c = FILES["graphs/g/c.npy"]
    gnu = _header(b"graphs/g/c.npy", len(c), b"S") + _pad(c)
    _refused(_zst(tmp_path / "s.tar.zst", *_good()[:1], gnu), tmp_path, "entry 'graphs/g/c.npy' refused: a sparse file; bundles hold regular files only")
    for i, keys in enumerate(
        (
            [("GNU.sparse.major", "1"), ("GNU.sparse.minor", "0"), ("GNU.sparse.name", "graphs/g/c.npy"), ("GNU.sparse.realsize", str(len(c)))],
            [("GNU.sparse.map", f"0,{len(c)}"), ("GNU.sparse.size", str(len(c))), ("path", "graphs/g/c.npy")],
            [("GNU.sparse.size", str(len(c))), ("GNU.sparse.numblocks", "1"), ("GNU.sparse.offset", "0"), ("GNU.sparse.numbytes", str(len(c)))],
        )
    ):
        pax = _ext(b"".join(_record(k, v) for k, v in keys)) + _member("graphs/g/c.npy", c)
        b = _zst(tmp_path / f"p{i}.tar.zst", *_good()[:1], pax, *_good()[2:])
        _refused(b, tmp_path, "entry 'graphs/g/c.npy' refused: a sparse file; bundles hold regular files only")
    b = _zst(tmp_path / "g.tar.zst", _ext(_record("GNU.sparse.major", "1"), b"g"), *_good())
    _refused(b, tmp_path, "a global PAX header sets sizes or sparse maps")


# ------------------------------------------------------------------ limits


def test_a_33k_bundle_that_unpacks_to_1g_is_refused_at_once(tmp_path):
    big = 1 << 30
    out = io.BytesIO()
    with zstandard.ZstdCompressor(level=3).stream_writer(out, closefd=False) as zw:
        zw.write(_member("manifest.json", _manifest({}, {"graphs/g/big.npy": big})) + _header(b"graphs/g/big.npy", big))
        for _ in range(1024):
            zw.write(bytes(MB))
        zw.write(bytes(1024))
    b = tmp_path / "bomb.tar.zst"
    b.write_bytes(out.getvalue())
    assert b.stat().st_size < 40_000
    _refused(b, tmp_path, f"the ratio of unpacked to compressed bytes ({big + len(_manifest({}, {'graphs/g/big.npy': big}))} to",
             "over the limit of 1000 (limits.bundle_max_ratio in [tool.npubuild.limits])", max_size=2 << 30)
    # the same ratio, declared only by the tar header (the manifest says 10 bytes)
    b = _zst(tmp_path / "h.tar.zst", _member("manifest.json", _manifest({}, {"graphs/g/big.npy": 10})), _header(b"graphs/g/big.npy", big), bytes(MB))
    _refused(b, tmp_path, "the ratio of unpacked to compressed bytes", "limits.bundle_max_ratio", max_size=2 << 30)


@pytest.mark.slow  # long; runs in CI
def test_100k_entries_are_refused_at_once(tmp_path):
    files = {f"graphs/g/f{i:06d}.bin": b"" for i in range(100_000)}
    m = _manifest(files, indent=None)
    b = _zst(tmp_path / "many.tar.zst", _member("manifest.json", m), *(_header(rel.encode(), 0) for rel in sorted(files)), level=1)
    _refused(b, tmp_path, "the entry count is 100001, over the limit of 20000 (limits.bundle_max_entries in [tool.npubuild.limits])")


def test_entry_count_and_total_size_are_counted_from_the_tar_headers_too(tmp_path):
    # the manifest is within the limits; what the archive holds after it is not
    b = _zst(tmp_path / "e.tar.zst", *_good(), _member("kernels/k/host/extra", b"x"))
    _refused(b, tmp_path, "the entry count is 4, over the limit of 3 (limits.bundle_max_entries", limits=Limits(bundle_max_entries=3))
    lying = [_member("manifest.json", _manifest()), _header(b"graphs/g/c.npy", 5000) + _pad(os.urandom(5000))]
    total = len(_manifest()) + 5000
    _refused(_zst(tmp_path / "t.tar.zst", *lying), tmp_path,
             f"the unpacked size is {total} bytes, over the limit of {total - 1} bytes (limits.bundle_max_total_size",
             limits=Limits(bundle_max_total_size=total - 1))
    # as named by the manifest, before any entry is extracted
    _refused(_zst(tmp_path / "m.tar.zst", *_good()), tmp_path, "the unpacked size is", "(limits.bundle_max_total_size",
             limits=Limits(bundle_max_total_size=1000))


def test_the_manifest_is_bounded_in_size_and_depth(tmp_path):
    m = _manifest()
    _refused(_zst(tmp_path / "s.tar.zst", *_good()), tmp_path,
             f"entry 'manifest.json' is {len(m)} bytes, over the limit of 400 bytes (limits.manifest_max_size", limits=Limits(manifest_max_size=400))
    for depth in (40, 200_000):  # the second overflows json's recursion
        deep = b"[" * depth + b"]" * depth
        b = _zst(tmp_path / f"d{depth}.tar.zst", _member("manifest.json", deep))
        _refused(b, tmp_path, "manifest.json is nested more than 32 levels deep (limits.manifest_max_depth in [tool.npubuild.limits])",
                 limits=Limits(bundle_max_ratio=10**6))  # brackets compress too well for the default ratio
    nested = json.dumps({"schema": 1, "kernels": {}, "graphs": {}, "x": json.loads("[" * 30 + "]" * 30)}).encode()
    _unpack(_zst(tmp_path / "ok.tar.zst", _member("manifest.json", nested)), tmp_path / "ok")  # 32 levels: fine


def test_a_deeply_nested_signature_is_one_message(tmp_path):
    sig = b"[" * 30_000 + b"]" * 30_000  # under the 64 KiB a signature may have
    b = _zst(tmp_path / "s.tar.zst", _good()[0], _member("signature.json", sig), *_good()[1:])
    _refused(b, tmp_path, "entry 'signature.json' is not valid JSON")


def _art(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / "manifest.json").write_bytes(_manifest(files))
    return root


def test_pack_refuses_what_unpack_would_refuse_and_leaves_nothing(tmp_path):
    art = _art(tmp_path / "art", {**FILES, "graphs/g/zeros.npy": bytes(8 * MB)})
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "b.tar.zst"
    for limits, fragments in (
        (Limits(), ["unpack would refuse this bundle: the ratio of unpacked to compressed bytes", "(limits.bundle_max_ratio"]),
        (Limits(bundle_max_entries=3), ["unpack would refuse this bundle: the entry count is 4, over the limit of 3 (limits.bundle_max_entries"]),
        (Limits(bundle_max_total_size=MB), ["unpack would refuse this bundle: the unpacked size is", "(limits.bundle_max_total_size"]),
        (Limits(manifest_max_size=100), ["manifest.json is", "over the limit of 100 bytes (limits.manifest_max_size"]),
    ):
        with pytest.raises(UserError) as ei:
            bundle.pack(art, out, limits=limits)
        assert all(f in str(ei.value) for f in fragments), str(ei.value)
        assert os.listdir(tmp_path / "out") == []
    roomy = Limits(bundle_max_ratio=10**6)
    bundle.pack(art, out, limits=roomy)
    assert _unpack(out, tmp_path / "u", limits=roomy).files == 3


def test_cli_prints_one_line_for_a_hostile_bundle(tmp_path):
    b = _zst(tmp_path / "cve.tar.zst", _ext(b"1" * 300_000), level=19)
    r = subprocess.run([sys.executable, "-m", "npubuild.cli", "unpack", str(b), "-C", str(tmp_path / "out")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        f"npubuild: bundle {b}: a PAX header is 300000 bytes, over the limit of 65536 bytes "
        f"(limits.bundle_max_header_size in [tool.npubuild.limits]); {tmp_path / 'out'} was left untouched"
    ]
    assert sorted(os.listdir(tmp_path)) == ["cve.tar.zst"]


# ------------------------------------------------------------------ unpack --force: one swap, killed or not

V1 = {"graphs/g/c.npy": b"old constant", "kernels/k/host/kernel.so": b"old binary" * 100}
V2 = {"graphs/g/c.npy": b"new constant", "kernels/k/host/kernel.so": b"new binary" * 100, "kernels/k/host/kernel.mlir": b"module {}"}


def _tree(d: Path) -> dict:
    out = {}
    for p in sorted(d.rglob("*")):
        rel = p.relative_to(d).as_posix()
        out[rel] = ("link", os.readlink(p)) if p.is_symlink() else ("dir",) if p.is_dir() else p.read_bytes()
    return out


@pytest.fixture
def site(tmp_path):
    """A directory unpacked from V1 plus files of its owner's, and the bundle of V2 with the tree it should become."""
    b1 = bundle.pack(_art(tmp_path / "v1", V1), tmp_path / "b" / "v1.tar.zst").path
    b2 = bundle.pack(_art(tmp_path / "v2", V2), tmp_path / "b" / "v2.tar.zst").path
    dest = tmp_path / "site" / "kernels"
    _unpack(b1, dest)
    (dest / "mine.txt").write_text("kept")
    (dest / "notes").mkdir()
    (dest / "notes" / "a.txt").write_text("kept too")
    os.chmod(dest / "notes", 0o750)
    os.symlink("mine.txt", dest / "link-to-mine")
    old = _tree(dest)
    new = {**old, **{k: v for k, v in V2.items()}, "manifest.json": (tmp_path / "v2" / "manifest.json").read_bytes()}
    new.update({"kernels/k/host": ("dir",), "kernels/k": ("dir",), "kernels": ("dir",)})
    return dest, b2, old, dict(sorted(new.items()))


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_force_replaces_named_files_keeps_the_rest_and_leaves_no_temp(site, monkeypatch, exchange):
    dest, b2, old, new = site
    if not exchange:
        monkeypatch.setattr(bundle_install, "_exchange", lambda a, b: False)
    kept = (dest / "notes" / "a.txt").stat().st_ino
    _unpack(b2, dest, force=True)
    assert _tree(dest) == new
    assert (dest / "notes" / "a.txt").stat().st_ino == kept  # carried over as a link, not copied
    assert (dest / "notes").stat().st_mode & 0o777 == 0o750
    assert _temps(dest.parent) == []


def test_a_refused_bundle_with_force_changes_nothing(site):
    dest, _, old, _ = site
    b = _zst(dest.parent.parent / "bad.tar.zst", *_good(), _ext(b"1" * 100_000))
    with pytest.raises(UserError, match="limits.bundle_max_header_size"):
        _unpack(b, dest, force=True)
    assert _tree(dest) == old and _temps(dest.parent) == []


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", ""])
    p.wait()
    return p.pid


def test_the_next_run_puts_back_a_tree_that_a_killed_two_rename_swap_moved_aside(site):
    dest, b2, old, new = site
    pid = _dead_pid()
    aside = dest.parent / f"{TMP_PREFIX}{pid}-old-{dest.name}-abcd1234"
    os.rename(dest, aside)  # where a kill between the two renames leaves it
    half = dest.parent / f"{TMP_PREFIX}{pid}-unpack-efgh5678"
    half.mkdir()
    (half / "junk").write_text("x")
    bundle.pack(_art(dest.parent.parent / "v3", V1), dest.parent / "other.tar.zst")  # any pack or unpack beside it repairs
    assert _tree(dest) == old and _temps(dest.parent) == []
    alive = dest.parent / f"{TMP_PREFIX}{os.getpid()}-unpack-ijkl9012"
    alive.mkdir()  # a live writer's: left alone
    _unpack(b2, dest, force=True)
    assert _tree(dest) == new and _temps(dest.parent) == [str(alive)]


# A child that runs `npubuild <args>` and SIGKILLs itself at a chosen call: the n-th call of module.function,
# before or after it runs. That reaches the windows between two steps that a timer would almost never hit.
_CHILD = r"""
import os, shutil, signal, sys
import npubuild.artifacts.bundle as bundle, npubuild.artifacts.bundle_install as install
where, name, n, when, exchange = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
owner = {"bundle": bundle, "install": install, "os": os, "shutil": shutil}[where]
real, calls = getattr(owner, name), [0]

def dying(*a, **k):
    calls[0] += 1
    if calls[0] == n and when == "before":
        os.kill(os.getpid(), signal.SIGKILL)
    r = real(*a, **k)
    if calls[0] == n:
        os.kill(os.getpid(), signal.SIGKILL)
    return r

setattr(owner, name, dying)
if not exchange:
    install._exchange = lambda a, b: False
from npubuild.cli import main
sys.exit(main(sys.argv[6:]))
"""


def _killed_at(cwd: Path, point: tuple, *args: str) -> int:
    where, name, n, when, exchange = point
    r = subprocess.run([sys.executable, "-c", _CHILD, where, name, str(n), when, "1" if exchange else "0", *args],
                       cwd=cwd, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    return r.returncode


UNPACK_POINTS = [
    ("bundle", "_write_member", 2, "after", True),  # extracting
    ("bundle", "carry_over", 1, "before", True),  # extracted and verified
    ("os", "link", 2, "after", True),  # carrying the old tree's other files over
    ("install", "_exchange", 1, "before", True),  # the new tree complete beside the old
    ("install", "_exchange", 1, "after", True),  # swapped; the old tree not yet removed
    ("shutil", "rmtree", 1, "after", True),  # done
    ("os", "rename", 1, "after", False),  # two renames: the old tree moved aside, the new not yet in place
    ("os", "rename", 2, "after", False),  # the new tree in place, the old one still aside
]


def test_kill_9_during_unpack_force_leaves_the_old_or_the_new_tree(site, tmp_path):
    dest, b2, old, new = site
    pristine = tmp_path / "pristine"
    shutil.copytree(dest, pristine, symlinks=True)
    outcomes = []
    for point in UNPACK_POINTS:
        rc = _killed_at(tmp_path, point, "unpack", str(b2), "-C", str(dest), "--force")
        assert rc == -signal.SIGKILL, point
        state = _tree(dest) if dest.exists() else None
        if point[:3] == ("os", "rename", 1):
            assert state is None  # the window two renames cannot close; the next run closes it:
            bundle.pack(tmp_path / "v1", tmp_path / "site" / "x.tar.zst")
            (tmp_path / "site" / "x.tar.zst").unlink()
            state = _tree(dest)
        assert state in (old, new), point
        outcomes.append(state == new)
        _unpack(b2, dest, force=True)  # the next run cleans up and completes
        assert _tree(dest) == new and _temps(tmp_path / "site") == [], point
        shutil.rmtree(dest)
        shutil.copytree(pristine, dest, symlinks=True)
    assert outcomes == [False, False, False, False, True, True, False, True]


@pytest.mark.slow  # long; runs in CI
def test_kill_9_at_random_moments_during_unpack_force_and_pack(site, tmp_path):
    dest, b2, old, new = site
    pristine = tmp_path / "pristine"
    shutil.copytree(dest, pristine, symlinks=True)
    big = {**V2, **{f"graphs/g/w{i}.npy": os.urandom(64 << 10) for i in range(40)}}
    big_art = _art(tmp_path / "big", big)
    b3 = bundle.pack(big_art, tmp_path / "b" / "big.tar.zst").path
    new3 = _tree(_unpack_copy(pristine, b3, tmp_path / "ref"))
    cmd = [sys.executable, "-m", "npubuild.cli", "unpack", str(b3), "-C", str(dest), "--force"]
    rng = random.Random(20261130)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for trial in range(4):
        p = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 0.8))
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert _tree(dest) in (old, new3), trial
        shutil.rmtree(dest)
        shutil.copytree(pristine, dest, symlinks=True)
    _unpack(b3, dest, force=True)
    assert _tree(dest) == new3 and _temps(tmp_path / "site") == []
    # pack: the output is the old bundle or the new one, never half of one, and the next pack sweeps up
    out = tmp_path / "rel" / "release.tar.zst"
    out.parent.mkdir()
    shutil.copy(b2, out)
    for i, point in enumerate([("bundle", "_entry", 5, "after", True), ("os", "fsync", 1, "before", True), ("os", "replace", 1, "before", True)]):
        assert _killed_at(tmp_path, point, "pack", str(big_art), "-o", str(out)) == -signal.SIGKILL
        assert out.read_bytes() == b2.read_bytes() and len(os.listdir(out.parent)) == 2, point  # a temp beside it
    for trial in range(3):
        p = subprocess.Popen([sys.executable, "-m", "npubuild.cli", "pack", str(big_art), "-o", str(out)], cwd=tmp_path, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 0.6))
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert out.read_bytes() in (b2.read_bytes(), b3.read_bytes()), trial
    bundle.pack(big_art, out)
    assert out.read_bytes() == b3.read_bytes() and os.listdir(out.parent) == ["release.tar.zst"]


def _unpack_copy(src: Path, b: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    _unpack(b, dest, force=True)
    return dest


# ------------------------------------------------------------------ manifests nothing could load


@pytest.mark.parametrize("graph, field", [
    ({"inputs": {}, "params": {}, "constants": [], "outputs": [], "steps": []}, "graphs.g.constants must be an object"),
    ({"inputs": {}, "params": {}, "constants": {}, "outputs": "y", "steps": []}, "graphs.g.outputs must be a list of strings"),
    ({"inputs": {}, "params": {}, "constants": {}, "outputs": []}, "graphs.g.steps is missing"),
    ({"inputs": {"x": {"shape": [-1], "dtype": "f32"}}, "params": {}, "constants": {}, "outputs": [], "steps": []},
     "graphs.g.inputs.x.shape must be a list of"),
    ({"kind": "ane", "inputs": {}, "outputs": {}, "nodes": "n"}, "graphs.g.nodes must be a list"),
])
def test_a_structurally_malformed_manifest_is_refused_and_nothing_installed(tmp_path, graph, field):
    m = json.dumps({"schema": 1, "kernels": {}, "graphs": {"g": graph}}).encode()
    b = _zst(tmp_path / "m.tar.zst", _member("manifest.json", m))
    _refused(b, tmp_path, "malformed manifest.json: ", field)


def test_nan_in_a_manifest_is_refused_as_verify_refuses_it(tmp_path):
    m = _manifest(indent=None).replace(b'"shape": [1]', b'"shape": [NaN]', 1)
    assert b"NaN" in m
    b = _zst(tmp_path / "n.tar.zst", _member("manifest.json", m), *(_member(rel, d) for rel, d in sorted(FILES.items())))
    _refused(b, tmp_path, "manifest.json is not valid JSON (NaN is not a JSON number")


def test_cli_unpack_of_a_malformed_manifest_exits_1_with_one_line(tmp_path):
    m = json.dumps({"schema": 1, "kernels": {"k": []}, "graphs": {}}).encode()
    b = _zst(tmp_path / "k.tar.zst", _member("manifest.json", m))
    r = subprocess.run([sys.executable, "-m", "npubuild.cli", "unpack", str(b), "-C", str(tmp_path / "out")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        f"npubuild: bundle {b}: malformed manifest.json: kernels.k must be an object, got []; {tmp_path / 'out'} was left untouched"]
    assert sorted(os.listdir(tmp_path)) == ["k.tar.zst"]
