"""Seeded, bounded fuzzing of everything npubuild reads from someone else:
specs, MIL text, run inputs (.npz), manifests, bundles and local store entries.

Each case mutates a known-good file (byte flips, cut and duplicated spans,
hostile tokens spliced in: path names, huge numbers, deep nesting, tags, NUL)
and requires that the reader either accepts it or refuses it with the
project's own error (a UserError, which the CLI prints as one line), never an
other exception, a hang, a write outside the scratch directory or a temp file
left behind. Then a good build (or load) must still pass.

Fast by default (a few hundred cases, seconds); NPUBUILD_FUZZ_CASES=N or the
slow-marked tests run more.
"""
from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import tarfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from npubuild.core.cache_auth import MAGIC as SEAL_MAGIC
from npubuild.core.errors import UserError

REPO = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("NPUBUILD_FUZZ_CASES", "120"))
HOSTILE = [
    b"../../../x", b"/etc/passwd", b"\x00", b"'a/b'", b"1e999", b"-1", b"0", b"9" * 5000, b"[" * 300, b"{" * 300,
    b"!!python/object/apply:os.system [ls]", b"&a [*a]", b"*nope", b"\xff\xfe", b".nan", b"2147483648", b"x" * 300,
    b"@model_path/../../secret.bin", b"0x1p99999", b"tensor<fp16, [999999999999]>", b"int8(1000)", b"\"",
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        if not b:
            b += rng.choice(HOSTILE)
            continue
        op = rng.randrange(5)
        i = rng.randrange(len(b))
        if op == 0:
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            del b[i : i + rng.randint(1, 64)]
        elif op == 2:
            j = rng.randrange(len(b))
            b[i:i] = b[j : j + rng.randint(1, 64)]
        elif op == 3:
            b[i : i + rng.randint(0, 12)] = rng.choice(HOSTILE)
        else:
            # replace one token-looking run (a name or number) by a hostile one
            j = i
            while j < len(b) and (chr(b[j]).isalnum() or b[j] in b"_."):
                j += 1
            b[i:j] = rng.choice(HOSTILE)
    return bytes(b)


@contextmanager
def deadline(seconds: int, what: str):
    """A hang is a failure, not a stuck suite."""
    def fire(signum, frame):
        raise AssertionError(f"{what} did not finish within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def only_user_errors(fn, what: str, seconds: int = 20):
    with deadline(seconds, what):
        try:
            fn()
        except UserError:
            pass


def tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")} if root.exists() else set()


# ---- specs ----------------------------------------------------------------------------------------------------------


def _spec_seeds() -> list[tuple[str, bytes]]:
    return [(str(p.relative_to(REPO)), p.read_bytes()) for p in sorted((REPO / "specs").rglob("*.yaml"))]


def _fuzz_specs(tmp_path: Path, n: int, seed: int):
    from npubuild.specfile.load import load_specs

    rng = random.Random(seed)
    seeds = _spec_seeds()
    outside = tmp_path / "outside"
    outside.mkdir()
    for case in range(n):
        proj = tmp_path / f"p{case % 4}"
        shutil.rmtree(proj, ignore_errors=True)
        shutil.copytree(REPO / "specs", proj / "specs")
        rel, data = rng.choice(seeds)
        (proj / rel).write_bytes(mutate(data, rng))
        only_user_errors(lambda: load_specs(proj / "specs", proj, cache_dir=proj / ".cache"), f"spec case {case} ({rel})")
        assert tree(outside) == set()
    return seeds


def test_fuzz_specs(tmp_path):
    _fuzz_specs(tmp_path, CASES, seed=11)


@pytest.mark.slow
def test_fuzz_specs_many_then_a_good_build(tmp_path, project):
    _fuzz_specs(tmp_path, CASES * 10, seed=12)
    p = project()
    shutil.rmtree(p.root / "specs", ignore_errors=True)
    shutil.copytree(REPO / "specs", p.root / "specs")
    p.doit()
    p.npubuild("verify")


@pytest.mark.slow  # long; runs in CI
def test_fuzzed_spec_through_the_cli_is_one_message(project):
    """A sample through the real build: exit status and no traceback."""
    rng = random.Random(5)
    p = project()
    shutil.rmtree(p.root / "specs", ignore_errors=True)
    shutil.copytree(REPO / "specs", p.root / "specs")
    rel, data = _spec_seeds()[0]
    for _ in range(3):
        (p.root / rel).write_bytes(mutate(data, rng))
        r = p.doit(check=False)
        assert "Traceback" not in r.out + r.err, r.out + r.err
    (p.root / rel).write_bytes(data)
    p.doit()
    p.npubuild("verify")
    assert not [q for q in p.root.rglob(".npb-tmp-*")]


# ---- MIL -------------------------------------------------------------------------------------------------------------


def _fuzz_mil(tmp_path: Path, n: int, seed: int):
    from npubuild.ane.mil import parse_mil

    from . import mil_programs

    rng = random.Random(seed)
    texts = [getattr(mil_programs, name).format(d=".") for name in ("SWIGLU", "FUSE") if hasattr(mil_programs, name)]
    blobs = tmp_path / "blobs"
    blobs.mkdir()
    for case in range(n):
        text = mutate(rng.choice(texts).encode(), rng)

        def parse():
            try:
                decoded = text.decode("utf-8")
            except UnicodeDecodeError:
                return
            parse_mil(decoded, "fuzz.mil", blobs)

        only_user_errors(parse, f"MIL case {case}")


def test_fuzz_mil(tmp_path):
    _fuzz_mil(tmp_path, CASES, seed=21)


@pytest.mark.slow
def test_fuzz_mil_many(tmp_path):
    _fuzz_mil(tmp_path, CASES * 10, seed=22)


# ---- run inputs ------------------------------------------------------------------------------------------------------


def _fuzz_npz(tmp_path: Path, n: int, seed: int):
    from npubuild.runner.npzio import read_npz

    rng = random.Random(seed)
    good = io.BytesIO()
    np.savez(good, x=np.arange(48, dtype=np.float32).reshape(6, 8), b=np.array([True, False]))
    stored = io.BytesIO()
    with open(os.devnull, "wb"):
        np.savez_compressed(stored, x=np.ones((16, 16), np.float16))
    seeds = [good.getvalue(), stored.getvalue()]
    p = tmp_path / "in.npz"
    for case in range(n):
        p.write_bytes(mutate(rng.choice(seeds), rng))
        only_user_errors(lambda: read_npz(p, "inputs"), f"npz case {case}")
    assert [q.name for q in tmp_path.iterdir()] == ["in.npz"]


def test_fuzz_run_inputs(tmp_path):
    _fuzz_npz(tmp_path, CASES, seed=31)


@pytest.mark.slow
def test_fuzz_run_inputs_many(tmp_path):
    _fuzz_npz(tmp_path, CASES * 10, seed=32)


# ---- built artifacts: manifests, bundles, store entries ---------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One real build of a small project, copied by each case."""
    from .conftest import new_project

    root = tmp_path_factory.mktemp("fuzz-built") / "proj"
    p = new_project(root, "kernels:\n  r:\n    op: relu\n    shapes:\n      - [16]\n",
                    "graphs:\n  g:\n    inputs: {x: {shape: [16]}}\n    constants: {c: {value: [2.0]}}\n"
                    "    nodes:\n      m: {op: mul, inputs: [x, c]}\n      y: {op: relu, inputs: [m]}\n    outputs: [y]\n")
    p.doit()
    return p


def _mutate_json(value, rng: random.Random, depth: int = 0):
    """A structural mutation of a JSON document: wrong types, missing keys, deep nesting."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        k = rng.choice(sorted(value))
        out = dict(value)
        choice = rng.randrange(4)
        if choice == 0:
            del out[k]
        elif choice == 1:
            out[k] = rng.choice([None, 0, -1, "x", [], {}, 1e308, "../../x", [[[[[]]]]], True])
        else:
            out[k] = _mutate_json(value[k], rng, depth + 1)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        out = list(value)
        i = rng.randrange(len(out))
        out[i] = _mutate_json(out[i], rng, depth + 1)
        return out
    return rng.choice([None, 7, "x", [], {}, "/etc/passwd", 2**70, [value] * 3])


def test_fuzz_manifests(built, tmp_path):
    import npubuild

    rng = random.Random(41)
    manifest = json.loads((built.artifacts / "manifest.json").read_text())
    art = tmp_path / "artifacts"
    shutil.copytree(built.artifacts, art, ignore=shutil.ignore_patterns(".cache"))
    for case in range(CASES):
        (art / "manifest.json").write_text(json.dumps(_mutate_json(manifest, rng)))

        def load_and_run():
            rt = npubuild.load(art)
            g = rt.graph("g", backend="ref")
            g.run(x=np.ones(16, np.float32))

        only_user_errors(load_and_run, f"manifest case {case}")
    (art / "manifest.json").write_text(json.dumps(manifest))
    npubuild.load(art).graph("g", backend="host").run(x=np.ones(16, np.float32))


def test_fuzz_bundles(built, tmp_path):
    from npubuild.artifacts.bundle import pack, unpack

    rng = random.Random(51)
    good = tmp_path / "good.tar.zst"
    pack(built.artifacts, good)
    data = good.read_bytes()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    for case in range(CASES // 2):
        bad = scratch / "b.tar.zst"
        bad.write_bytes(mutate(data, rng))
        dest = scratch / "dest"
        only_user_errors(lambda: unpack(bad, dest, max_size=1 << 30, trusted={}, required=False), f"bundle case {case}")
        shutil.rmtree(dest, ignore_errors=True)
        assert {q.name for q in scratch.iterdir()} == {"b.tar.zst"}, "an unpack left something behind"
    unpack(good, tmp_path / "ok", max_size=1 << 30, trusted={}, required=False)


def test_fuzz_bundle_members(built, tmp_path):
    """Hostile tar structure, not just bytes: members renamed to paths, links, huge headers."""
    import zstandard

    from npubuild.artifacts.bundle import pack, unpack

    rng = random.Random(52)
    good = tmp_path / "good.tar.zst"
    pack(built.artifacts, good)
    raw = zstandard.ZstdDecompressor().stream_reader(good.open("rb")).read()
    for case in range(CASES // 4):
        src = tarfile.open(fileobj=io.BytesIO(raw))
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as dst:
            for m in src.getmembers():
                f = src.extractfile(m)
                payload = f.read() if f else b""
                r = rng.random()
                if r < 0.1:
                    m.name = rng.choice(["../evil", "/abs/evil", "a/../../evil", m.name + "/x"])
                elif r < 0.15:
                    m.type, m.linkname = rng.choice([tarfile.SYMTYPE, tarfile.LNKTYPE]), "/etc/passwd"
                elif r < 0.2:
                    m.pax_headers = {"comment": "x" * rng.choice([10, 70000, 300000])}
                dst.addfile(m, io.BytesIO(payload) if m.isfile() else None)
        bad = tmp_path / "m.tar.zst"
        bad.write_bytes(zstandard.ZstdCompressor().compress(out.getvalue()))
        dest = tmp_path / "dest"
        only_user_errors(lambda: unpack(bad, dest, max_size=1 << 30, trusted={}, required=False), f"bundle member case {case}")
        shutil.rmtree(dest, ignore_errors=True)
        assert not (tmp_path / "evil").exists() and not Path("/abs/evil").exists()


def test_fuzz_local_store_entries(built, tmp_path):
    """Mutated entries in a copied local store: the build still ends valid, nothing outside changes."""
    from .conftest import Project

    rng = random.Random(61)
    entries = sorted((built.artifacts / ".cache").rglob("*.json"))
    entries = [e for e in entries if "specs" not in e.parts]
    assert entries, "the store has no entries to fuzz"
    for case in range(3):
        root = tmp_path / f"c{case}" / "proj"
        shutil.copytree(built.root, root, ignore=shutil.ignore_patterns(".npubuild.*"))
        p = Project(root)
        shutil.rmtree(root / "artifacts" / "kernels")
        for e in entries:
            target = root / e.relative_to(built.root)
            raw = e.read_bytes()
            # sealed caches (toolchain fingerprints) keep their old tag over the mutated text: it must not check
            head = len(SEAL_MAGIC) + 32 if raw.startswith(SEAL_MAGIC) else 0
            target.write_bytes(raw[:head] + json.dumps(_mutate_json(json.loads(raw[head:]), rng)).encode())
        before = tree(tmp_path / f"c{case}")
        r = p.doit(check=False)
        assert r.rc == 0 and "Traceback" not in r.out + r.err, r.out + r.err
        p.npubuild("verify")
        after = tree(tmp_path / f"c{case}")
        assert {x for x in after - before if not x.startswith("proj/")} == set()
