"""Caches cannot lie, and everything a build wrote is checked by the next one.

Each test drives a throw-away project as a user would (`doit build`, `npubuild verify`, `npubuild run`)
through a damage or an attack: a poisoned spec parse cache or plan cache, a pinned source turned into a
link out of the project (or a symlink loop), a truncated manifest or a flipped byte in a graph constant,
a graph step pointed at another kernel. Each ends with the YAML's value, a refusal, or a repaired artifact.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from npubuild.core import cache_auth

from .conftest import new_project

GRAPH = """\
graphs:
  scaled:
    inputs: {x: {shape: [8], dtype: f32}}
    constants:
      bias: {value: [0.5]}
    nodes:
      r: {op: relu, inputs: [x]}
      y: {op: add, inputs: [r, bias]}
      z: {op: neg, inputs: [y]}
    outputs: [z]
"""
FAST_AND_FULL = [{}, {"NPUBUILD_FAST_NOOP": "0"}]


def _fresh_clone_state(p) -> None:
    """What a fresh clone (or a copied artifact folder) has: no plan cache, no stamp, no doit database."""
    for name in (".npubuild.plan.pickle", ".npubuild.noop-stamp"):
        (p.root / name).unlink(missing_ok=True)
    for db in p.root.glob(".npubuild.doit.db*"):
        db.unlink()


def _run(p, tmp_path) -> np.ndarray:
    np.savez(tmp_path / "in.npz", x=np.ones(8, np.float32))
    p.npubuild("run", "scaled", "-i", str(tmp_path / "in.npz"), "-o", str(tmp_path / "out.npz"), "--backend", "ref")
    return np.load(tmp_path / "out.npz")["z"]


def _no_traceback(r) -> None:
    assert "Traceback" not in r.out + r.err, r.out + r.err


# ---- finding 4: the spec parse cache ---------------------------------------------------------------------------


def _parse_cache_entries(p) -> list[Path]:
    """Every spec parse cache entry a build left in the project, wherever it is kept (the store of old)."""
    return [f for d in (p.root / ".npubuild.specfile-cache", p.artifacts / ".cache" / "specs") if d.is_dir()
            for f in d.iterdir() if f.is_file()]


def test_a_poisoned_spec_parse_cache_is_not_believed(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build")
    np.testing.assert_array_equal(_run(p, tmp_path), -np.full(8, 1.5, np.float32))
    assert not (p.artifacts / ".cache" / "specs").exists()  # no parse cache ships with the artifact folder
    entries = _parse_cache_entries(p)
    assert entries
    for f in entries:  # the constant the YAML says is 0.5 made 1000, as an attacker would
        data = f.read_bytes()
        assert b"0.5" in data
        f.write_bytes(data.replace(b"0.5", b"1000"))
    # an entry planted in the store's old place as well (a copied artifact folder)
    old = p.artifacts / ".cache" / "specs"
    old.mkdir(parents=True)
    for f in entries:
        shutil.copy(f, old / f.name)
    _fresh_clone_state(p)
    p.doit("build")
    p.npubuild("verify")
    bias = np.load(p.artifacts / "graphs" / "scaled" / "bias.npy")
    np.testing.assert_array_equal(bias, [0.5])
    np.testing.assert_array_equal(_run(p, tmp_path), -np.full(8, 1.5, np.float32))


def test_a_sealed_parse_of_an_older_spec_moved_under_the_new_ones_name_is_not_believed(tmp_path):
    """Entries are sealed together with their key: a genuine parse of what the file said before (1000)
    renamed to the key of what it says now (0.5) does not check."""
    p = new_project(tmp_path / "proj", graphs=GRAPH.replace("[0.5]", "[1000.0]"))
    p.doit("build")
    (old,) = _parse_cache_entries(p)
    kept = old.read_bytes()
    p.write("specs/graphs/g.yaml", GRAPH)
    p.doit("build")
    (new,) = _parse_cache_entries(p)  # one entry per spec file: the older parse is gone
    assert new != old and not old.exists()
    new.write_bytes(kept)
    _fresh_clone_state(p)
    p.doit("build")
    np.testing.assert_array_equal(np.load(p.artifacts / "graphs" / "scaled" / "bias.npy"), [0.5])


def test_a_project_copied_to_another_machine_brings_no_caches_it_trusts(tmp_path):
    """Caches sealed under one machine's secret are misses under another's: the copy parses, plans and
    builds from its specs (and takes the compiled kernels from the copied store)."""
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build")
    elsewhere = {"XDG_CACHE_HOME": str(tmp_path / "other-machine-cache")}
    for f in _parse_cache_entries(p):
        f.write_bytes(f.read_bytes().replace(b"0.5", b"1000"))
    r = p.doit("build", env=elsewhere)
    assert r.summary["compiled"] == 0, r.out
    assert "nothing changed" not in r.out  # the stamp is one of the caches
    np.testing.assert_array_equal(np.load(p.artifacts / "graphs" / "scaled" / "bias.npy"), [0.5])
    assert (tmp_path / "other-machine-cache" / "npubuild" / cache_auth.SECRET_NAME).stat().st_mode & 0o777 == 0o600


def test_a_forged_plan_pickle_is_never_unpickled(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build")
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    import pickle

    (p.root / ".npubuild.plan.pickle").write_bytes(pickle.dumps(Payload()))
    (p.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
    r = p.doit("build")
    assert not marker.exists(), "the forged plan cache was unpickled"
    _no_traceback(r)
    p.npubuild("verify")
    # and sealed under a secret of its own (the attacker's): still not loaded
    sealed = cache_auth.MAGIC + b"\0" * 32 + pickle.dumps(Payload())
    (p.root / ".npubuild.plan.pickle").write_bytes(sealed)
    (p.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
    p.doit("build")
    assert not marker.exists()


def test_a_forged_noop_stamp_does_not_skip_the_build(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build")
    stamp = p.root / ".npubuild.noop-stamp"
    blob = stamp.read_bytes()
    assert blob.startswith(cache_auth.MAGIC)
    (p.artifacts / "manifest.json").unlink()
    # a stamp that lists no files at all, with a matching plain digest: not sealed by this machine, not believed
    doc = json.loads(blob[len(cache_auth.MAGIC) + 32:])
    stamp.write_text(json.dumps({**doc, "files": []}))
    p.doit("build")
    p.npubuild("verify")


# ---- finding 5 and 8: a pinned source that leads out of the project ----------------------------------------------

KERNELS = """\
kernels:
  relu_tuned:
    op: relu
    dtype: f32
    shapes: [[64]]
"""


def _pinned_project(tmp_path):
    p = new_project(tmp_path / "proj", KERNELS)
    p.doit("build")
    emitted = (p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.mlir").read_text()
    pinned = p.root / "specs" / "kernels" / "pinned" / "relu.mlir"
    pinned.parent.mkdir()
    pinned.write_text("// pinned\n" + emitted)
    spec = p.root / "specs" / "kernels" / "k.yaml"
    spec.write_text(spec.read_text() + "    sources: {host: pinned/relu.mlir}\n")
    p.doit("build")
    return p, pinned, emitted


@pytest.mark.parametrize("env", FAST_AND_FULL, ids=["fast-noop", "no-fast-noop"])
def test_a_pinned_source_that_became_a_link_out_of_the_project_is_refused(tmp_path, env):
    p, pinned, emitted = _pinned_project(tmp_path)
    assert (p.root / ".npubuild.plan.pickle").is_file()  # the plan the next build takes from its cache
    outside = tmp_path / "outside.mlir"
    outside.write_text("// from outside the project\n" + emitted.replace("arith.maximumf", "arith.minimumf"))
    pinned.unlink()
    pinned.symlink_to(outside)
    r = p.doit("build", env=env, check=False)
    assert r.rc != 0, r.out
    assert "pinned source specs/kernels/pinned/relu.mlir leads outside the project" in r.out + r.err, r.out + r.err
    _no_traceback(r)
    built = p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.mlir"
    assert "from outside" not in built.read_text()
    # a fresh plan refuses it too, at the spec's line
    (p.root / ".npubuild.plan.pickle").unlink()
    r = p.doit("build", env=env, check=False)
    assert r.rc != 0 and "outside the project" in r.out + r.err, r.out + r.err
    assert "from outside" not in built.read_text()
    # back inside: builds again
    pinned.unlink()
    pinned.write_text("// pinned\n" + emitted)
    p.doit("build", env=env)


def test_a_pinned_source_that_is_a_symlink_loop_is_one_message(tmp_path):
    p, pinned, _ = _pinned_project(tmp_path)
    pinned.unlink()
    pinned.symlink_to(pinned)  # leads back to itself
    r = p.doit("build", check=False)  # the plan from the cache
    assert r.rc != 0
    _no_traceback(r)
    assert "pinned source specs/kernels/pinned/relu.mlir: cannot be read: a symlink loop" in r.out + r.err, r.out + r.err
    (p.root / ".npubuild.plan.pickle").unlink()
    r = p.doit("build", check=False)  # a fresh plan: the spec's line
    assert r.rc != 0
    _no_traceback(r)
    assert "specs/kernels/k.yaml:" in r.out + r.err and "a symlink loop" in r.out + r.err, r.out + r.err
    r = p.npubuild("list", check=False)
    assert r.rc != 0 and "a symlink loop" in r.out + r.err
    _no_traceback(r)


# ---- finding 6: damaged outputs of the manifest task are repaired ---------------------------------------------------


@pytest.mark.parametrize("env", FAST_AND_FULL, ids=["fast-noop", "no-fast-noop"])
def test_a_damaged_manifest_or_graph_constant_is_rewritten(tmp_path, env):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build", env=env)
    manifest = p.artifacts / "manifest.json"
    bias = p.artifacts / "graphs" / "scaled" / "bias.npy"
    good_manifest, good_bias = manifest.read_bytes(), bias.read_bytes()

    def damage_and_build(path: Path, damage) -> None:
        st = path.stat()
        damage(path)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # mtime set back: only the content and ctime tell
        assert p.npubuild("verify", check=False).rc != 0
        r = p.doit("build", env=env)
        assert "nothing changed" not in r.out
        p.npubuild("verify")
        np.testing.assert_array_equal(_run(p, tmp_path), -np.full(8, 1.5, np.float32))

    damage_and_build(manifest, lambda f: f.write_bytes(f.read_bytes()[: len(good_manifest) // 2]))
    assert manifest.read_bytes() == good_manifest

    def flip(f: Path) -> None:
        data = bytearray(f.read_bytes())
        data[-1] ^= 0x40  # in the value, not the header
        f.write_bytes(bytes(data))

    damage_and_build(bias, flip)
    assert bias.read_bytes() == good_bias

    # an edit that keeps the manifest valid JSON (a step pointed at another kernel): rewritten too
    m = json.loads(good_manifest)
    m["graphs"]["scaled"]["steps"][2]["kernel"] = m["graphs"]["scaled"]["steps"][0]["kernel"]
    damage_and_build(manifest, lambda f: f.write_text(json.dumps(m)))
    assert manifest.read_bytes() == good_manifest
    # and the build after the repair is a no-op again
    assert p.doit("build", env=env).summary["compiled"] == 0


def test_whatever_is_put_in_place_of_the_manifest_tasks_files_is_replaced_or_named(tmp_path):
    """A link (out of the project), a FIFO, a directory in place of manifest.json or a graph constant:
    replaced without following or reading it (a FIFO would block), or one message naming the file."""
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build")
    outside = tmp_path / "outside.txt"
    outside.write_text("not ours")
    for rel in ("manifest.json", "graphs/scaled/bias.npy"):
        f = p.artifacts / rel
        good = f.read_bytes()
        for put in (lambda f: f.symlink_to(outside), os.mkfifo):
            f.unlink()
            put(f)
            r = p.doit("build")
            _no_traceback(r)
            assert f.is_file() and not f.is_symlink() and f.read_bytes() == good, rel
            assert outside.read_text() == "not ours"
        f.unlink()
        f.mkdir()
        (f / "x").write_text("x")
        r = p.doit("build", check=False)
        assert r.rc != 0 and f"{rel} is a directory where the build writes a file; remove it" in r.out, r.out
        _no_traceback(r)
        shutil.rmtree(f)
        p.doit("build")
        assert f.read_bytes() == good
    p.npubuild("verify")


# ---- deliverable 4: verify cross-checks graph steps against the kernels they name --------------------------------


def test_verify_refuses_a_graph_step_pointed_at_another_kernel(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    p.doit("build")
    manifest = p.artifacts / "manifest.json"
    m = json.loads(manifest.read_text())
    steps = m["graphs"]["scaled"]["steps"]
    relu, neg = steps[0]["kernel"], steps[2]["kernel"]
    assert (m["kernels"][relu]["inputs"][0]["shape"], m["kernels"][neg]["inputs"][0]["shape"]) == ([8], [8])
    steps[2]["kernel"] = relu  # same shapes and dtype: only the op tells
    manifest.write_text(json.dumps(m))
    r = p.npubuild("verify", check=False)
    assert r.rc != 0
    assert f"graph scaled: step 2 (z) is a neg step but names kernel {relu}, a relu kernel" in r.out + r.err, r.out + r.err
    _no_traceback(r)
    r = p.npubuild("run", "scaled", "--example", "--backend", "ref", check=False)
    assert r.rc != 0 and "step 2 (z)" in r.out + r.err
    # op and key edited to match as well: then the step's recorded op says neg ... unless that is edited
    # too, which is a manifest consistent with itself (signatures are what tell who wrote it)
    steps[2]["op"] = "relu"
    manifest.write_text(json.dumps(m))
    r = p.npubuild("verify", check=False)
    assert r.rc != 0 and "graph scaled: step 2 (z) was built with the relu kernel of key" in r.out + r.err, r.out + r.err
    # a record without them (hand-written, or cut out) is a schema problem naming the field
    del steps[2]["key"]
    manifest.write_text(json.dumps(m))
    r = p.npubuild("verify", check=False)
    assert r.rc != 0 and "graphs.scaled.steps[2].key" in r.out + r.err, r.out + r.err
    p.doit("build")  # the build rewrites it
    p.npubuild("verify")


def test_a_toolchain_fingerprint_cache_from_elsewhere_is_recomputed(tmp_path, monkeypatch):
    """The fingerprint cache lives in the store, which ships with a copied artifact folder: a forged one
    (another compile-key id, say) is a miss."""
    from npubuild.toolchain import fpcache, host

    monkeypatch.setattr(fpcache, "_memo", {})
    real = host.fingerprint(tmp_path)
    cache = tmp_path / host.FINGERPRINT_FILE
    assert cache.read_bytes().startswith(cache_auth.MAGIC)
    forged = json.loads(cache.read_bytes()[len(cache_auth.MAGIC) + 32:])
    forged["fingerprint"]["id"] = "0" * 64
    cache.write_text(json.dumps(forged))
    monkeypatch.setattr(fpcache, "_memo", {})
    assert host.fingerprint(tmp_path)["id"] == real["id"]
    assert cache.read_bytes().startswith(cache_auth.MAGIC)  # and written again, sealed


def test_the_cache_secret_is_this_users_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(cache_auth, "_memo", {})
    sealed = cache_auth.seal(b"parse")
    path = cache_auth.secret_path()
    assert path == tmp_path / "xdg" / "npubuild" / cache_auth.SECRET_NAME
    assert (path.stat().st_mode & 0o777, path.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    assert cache_auth.unseal(sealed) == b"parse"
    assert cache_auth.unseal(sealed[:-1] + b"X") is None and cache_auth.unseal(b"parse") is None
    # a secret others can read (or a link in its place) is not used: nothing is cached, nothing believed
    path.chmod(0o644)
    monkeypatch.setattr(cache_auth, "_memo", {})
    assert cache_auth.seal(b"parse") is None and cache_auth.unseal(sealed) is None
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    monkeypatch.setattr(cache_auth, "_memo", {})
    assert cache_auth.seal(b"parse") is None


def test_the_fast_path_rechecks_where_pinned_sources_lead(tmp_path, monkeypatch):
    """The stamp lists the pinned sources; one that leads out of the project now is no fast path,
    whatever the stat digest says (so the full path's check refuses it)."""
    from npubuild.engine import noop
    from npubuild.engine.tasks import DEP_FILE
    from npubuild.core.config import load_config
    from npubuild.specfile.files import plan_key

    p, pinned, _ = _pinned_project(tmp_path)
    p.doit("build")  # a no-op that rewrites the stamp
    monkeypatch.chdir(p.root)
    config = load_config(p.root)
    db = p.root / DEP_FILE
    stamp = noop.fresh_stamp(config, db)
    assert stamp is not None and stamp["pinned"] == [str(pinned)]
    summary = {k: stamp[k] for k in ("kernels", "artifacts", "notes", "manifest_targets", "manifest_deps")}
    outside = tmp_path / "outside.mlir"
    outside.write_text("x")
    noop.write_stamp(config, db, plan_key(config), stamp["toolchain_ids"], stamp["files"], summary, [str(outside)])
    assert noop.fresh_stamp(config, db) is None
    noop.write_stamp(config, db, plan_key(config), stamp["toolchain_ids"], stamp["files"], summary, [str(pinned)])
    assert noop.fresh_stamp(config, db) is not None


def test_the_manifest_is_rewritten_when_npubuild_itself_changes(tmp_path, monkeypatch):
    """A new npubuild may describe the same emitted source differently (an ABI's body numerics, a roofline):
    the manifest task's key follows npubuild's code, not only the specs, toolchains and files."""
    from npubuild.engine import tasks
    from npubuild.engine.state import Build
    from npubuild.specfile import files

    p = new_project(tmp_path)
    monkeypatch.chdir(p.root)
    monkeypatch.setenv("NPUBUILD_FAST_NOOP", "0")

    def key() -> str:
        return tasks.BuildTasks(Build()).task_manifest()["uptodate"][0].config

    before = key()
    assert key() == before  # the same code, the same key
    stamp = files.code_stamp()
    monkeypatch.setattr(files, "code_stamp", lambda: stamp + [("npubuild/emitters/aie/new.py", 1, 1)])
    assert key() != before
