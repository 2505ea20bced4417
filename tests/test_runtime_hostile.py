"""A hostile artifact directory: tampered manifests, swapped binaries, bad arrays.

Every tampered case runs the runtime in a child process, so a crash (SIGSEGV
from a kernel writing past a buffer) is a failed test, not a dead test run;
each case checks the exact message. What is checked when: docs/runtime.md.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import numpy as np
import pytest

import npubuild
from npubuild.artifacts import manifest as mf
from npubuild.artifacts.abi import embedded_abi
from npubuild.artifacts.manifest_records import instance_key
from npubuild.core.errors import UserError, VerifyError
from npubuild.core.limits import Limits

from .conftest import new_project

KERNELS = """\
kernels:
  decoy:                         # a binary of the same signature as relu, to swap in
    op: neg
    dtype: f32
    shapes: [[4, 16]]
"""
GRAPHS = """\
graphs:
  chain:
    inputs:
      x: {shape: [4, 16], dtype: f32}
    params:
      w: {shape: [16], dtype: f32}
    constants:
      c: {value: [0.5], dtype: f32}
    nodes:
      a: {op: mul, inputs: [x, w]}
      s: {op: add, inputs: [a, c]}
      y: {op: relu, inputs: [s]}
    outputs: [y]
  gemm:
    inputs:
      x: {shape: [4, 64], dtype: f32}
    params:
      w: {shape: [64, 32], dtype: f32}
    nodes:
      y: {op: matmul, inputs: [x, w], dtype: i8}
    outputs: [y]
"""
MUL, ADD, RELU, NEG = "mul_f32_4x16_16", "add_f32_4x16_1", "relu_f32_4x16", "neg_f32_4x16"
RELU_SO, NEG_SO = f"kernels/{RELU}/host/kernel.so", f"kernels/{NEG}/host/kernel.so"

# the child: load, open the graph, run it (swapping files where told); one line out
CHILD = r"""
import json, shutil, sys
import numpy as np
import npubuild
from npubuild.core.errors import UserError

art, opts = sys.argv[1], json.loads(sys.argv[2])

def swap():
    for src, dst in opts.get("swap", []):
        shutil.copyfile(f"{art}/{src}", f"{art}/{dst}")

try:
    rt = npubuild.load(art, verify_files=opts.get("verify", False), max_open=opts.get("max_open"))
    g = rt.graph("chain", backend="host")
    if opts.get("swap_at") == "load":
        swap()
    x = np.linspace(-2, 2, 64, dtype=np.float32).reshape(4, 16)
    g.set_params(w=np.full(16, 1.5, np.float32))
    y = g.run(x=x)["y"]
    if opts.get("swap_at") == "run":
        swap()
        y = g.run(x=x)["y"]
    right = np.array_equal(y, np.maximum(x * np.float32(1.5) + np.float32(0.5), 0))
    print("OK" if right else "WRONG RESULT", rt.kernels.opened)
except UserError as e:
    print("ERR", type(e).__name__, str(e).replace(art, "<art>"))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("hostile") / "proj", kernels=KERNELS, graphs=GRAPHS)
    p.doit("build")
    return p


@pytest.fixture
def tampered(built, tmp_path):
    """A copy of the artifacts with ``edit(manifest)`` applied (and its files as built)."""

    def make(edit=None):
        art = tmp_path / "artifacts"
        shutil.copytree(built.artifacts, art, ignore=shutil.ignore_patterns(".cache"))
        if edit is not None:
            m = json.loads((art / "manifest.json").read_text())
            edit(m)
            (art / "manifest.json").write_text(json.dumps(m))
        return art

    return make


def child(built, art, **opts) -> str:
    r = subprocess.run(
        [sys.executable, "-c", CHILD, str(art), json.dumps(opts)], cwd=built.root, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, f"the runtime process died (exit {r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r.stdout.strip()


def verify_lines(built, art) -> list[str]:
    """`npubuild verify`'s problem lines, sorted ([] when it passes); or its one error line."""
    r = built.npubuild("verify", str(art), check=False)
    assert "Traceback" not in r.err, r.err
    if r.rc == 0:
        return []
    lines = r.err.strip().splitlines()
    assert r.rc == 1, r.err
    if lines[-1].startswith("npubuild: "):
        return lines
    assert lines[-1] == f"verify: {len(lines) - 1} problem(s) in {art}", r.err
    return sorted(lines[:-1])


def _kernel(m, kid):
    return m["kernels"][kid]


def _set(kid, side, field, value):
    def edit(m):
        _kernel(m, kid)[side][0][field] = value

    return edit


def _op_and_key(m):
    k = _kernel(m, RELU)
    k["op"] = "neg"
    k["key"] = instance_key(k)  # a careful editor recomputes the key: the compiled ABI still disagrees


def _step(i, field, value):
    def edit(m):
        m["graphs"]["chain"]["steps"][i][field] = value

    return edit


def _other_binary(m):
    """kernel.so replaced by another kernel's, and the manifest's sha256/size updated to match."""
    m["kernels"][RELU]["targets"]["host"]["files"]["binary"] = dict(m["kernels"][NEG]["targets"]["host"]["files"]["binary"], path=RELU_SO)


SO = "in kernels/{k}/host/kernel.so"
TAMPERED = {
    # a middle kernel's output shape: the next step's input no longer matches (before: SIGSEGV)
    "mid-output-shape": (
        _set(MUL, "outputs", "shape", [1]),
        [
            f"graph chain: step 1 (s) gives kernel {ADD} input 'a' the tensor 'a' of [1] f32; the kernel takes [4, 16] f32",
            f"kernel {MUL}: [host] outputs[0].shape is [1] in the manifest, [4, 16] {SO.format(k=MUL)}",
        ],
        f"ERR UserError <art>/manifest.json: graph chain: step 1 (s) gives kernel {ADD} input 'a' the tensor 'a' of [1] f32; "
        "the kernel takes [4, 16] f32",
    ),
    # the last kernel's: no step reads it, the op's shape rule and the compiled ABI do
    "last-output-shape": (
        _set(RELU, "outputs", "shape", [1]),
        [f"kernel {RELU}: [host] outputs[0].shape is [1] in the manifest, [4, 16] {SO.format(k=RELU)}"],
        f"ERR UserError kernel '{RELU}': outputs[0].shape is [1] in the manifest, but op 'relu' of its inputs and attrs "
        "gives [4, 16]; rebuild with `doit build`",
    ),
    "last-output-dtype": (
        _set(RELU, "outputs", "dtype", "i8"),
        [f'kernel {RELU}: [host] outputs[0].dtype is "i8" in the manifest, "f32" {SO.format(k=RELU)}'],
        f"ERR UserError kernel '{RELU}': outputs[0].dtype is i8 in the manifest, but op 'relu' of its inputs and attrs "
        "gives f32; rebuild with `doit build`",
    ),
    "op": (
        lambda m: _kernel(m, RELU).update(op="neg"),
        [
            f"kernel {RELU}: [host] op is 'neg' in the manifest, \"relu\" {SO.format(k=RELU)}",
            f"kernel {RELU}: its key is not the key of its op, dtype, inputs and attrs (the record was edited after the build); "
            "rebuild with `doit build`",
        ],
        f"ERR UserError kernel {RELU}: its key is not the key of its op, dtype, inputs and attrs (the record was edited "
        "after the build); rebuild with `doit build`",
    ),
    "op-and-key": (
        _op_and_key,
        [
            f"graph chain: step 2 (y) is a relu step but names kernel {RELU}, a neg kernel; the manifest was edited after "
            "the build: rebuild with `doit build`",
            f"kernel {RELU}: [host] op is 'neg' in the manifest, \"relu\" {SO.format(k=RELU)}",
        ],
        f"ERR UserError <art>/manifest.json: graph chain: step 2 (y) is a relu step but names kernel {RELU}, a neg kernel; "
        "the manifest was edited after the build: rebuild with `doit build`",
    ),
    "other-binary-with-its-hash": (
        _other_binary,
        [f"kernel {RELU}: [host] id is '{RELU}' in the manifest, \"{NEG}\" {SO.format(k=RELU)}"],
        f"ERR UserError kernel {RELU}: the manifest does not match the ABI compiled into {RELU_SO}: id is '{RELU}' in the "
        f"manifest, \"{NEG}\" {SO.format(k=RELU)}; refusing to call it (rebuild with `doit build`)",
    ),
    "step-kernel-arity": (
        _step(2, "kernel", MUL),
        [f"graph chain: step 2 (y) gives kernel {MUL} 1 input(s); it takes 2"],
        f"ERR UserError <art>/manifest.json: graph chain: step 2 (y) gives kernel {MUL} 1 input(s); it takes 2",
    ),
    "step-kernel-missing": (
        _step(0, "kernel", "nope"),
        ["graph chain: step 0 (a) names kernel 'nope', which is not in the manifest"],
        "ERR UserError <art>/manifest.json: graph chain: step 0 (a) names kernel 'nope', which is not in the manifest",
    ),
    "step-input-undefined": (
        _step(1, "inputs", ["a", "zz"]),
        ["graph chain: step 1 (s) reads 'zz', which no input, param, constant or earlier step gives"],
        "ERR UserError <art>/manifest.json: graph chain: step 1 (s) reads 'zz', which no input, param, constant or earlier step gives",
    ),
    "graph-input-shape": (
        lambda m: m["graphs"]["chain"]["inputs"]["x"].update(shape=[4, 8]),
        [f"graph chain: step 0 (a) gives kernel {MUL} input 'a' the tensor 'x' of [4, 8] f32; the kernel takes [4, 16] f32"],
        f"ERR UserError <art>/manifest.json: graph chain: step 0 (a) gives kernel {MUL} input 'a' the tensor 'x' of [4, 8] f32; "
        "the kernel takes [4, 16] f32",
    ),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_tampered_manifest_is_one_message_never_a_call(built, tampered, case):
    edit, problems, message = TAMPERED[case]
    art = tampered(edit)
    if case == "other-binary-with-its-hash":
        shutil.copyfile(art / NEG_SO, art / RELU_SO)
    assert verify_lines(built, art) == sorted(problems)
    assert child(built, art, verify=False) == message  # what the runtime checks by itself
    verified = child(built, art, verify=True)
    assert verified.startswith("ERR VerifyError <art> does not match its manifest:\n  ") and all(p in verified for p in problems)


def test_untampered_runs_and_verifies(built, tampered):
    art = tampered()
    assert verify_lines(built, art) == []
    assert child(built, art) == "OK 3"


def test_binary_swapped_between_load_and_first_run_is_refused(built, tampered):
    art = tampered()
    assert child(built, art, verify=True, swap_at="load", swap=[[NEG_SO, RELU_SO]]) == (
        f"ERR VerifyError kernel {RELU} [host binary]: {RELU_SO} changed since the manifest was written "
        "(sha256/size differ); refusing to use it"
    )


def test_binary_swapped_after_first_run_never_runs(built, tampered):
    """The runtime loads its private copy: reopening a kernel (one open at a time) never reads the artifact again."""
    art = tampered()
    assert child(built, art, verify=True, max_open=1, swap_at="run", swap=[[NEG_SO, RELU_SO]]) == "OK 6"


def test_constant_swapped_after_load_is_refused(built, tampered):
    art = tampered()
    np.save(art / "evil.npy", np.array([100.0], np.float32))
    assert child(built, art, verify=True, swap_at="load", swap=[["evil.npy", "graphs/chain/c.npy"]]) == (
        "ERR VerifyError graph 'chain': constant 'c': graphs/chain/c.npy changed since the manifest was written "
        "(sha256/size differ); refusing to use it"
    )


def test_constant_of_another_shape_is_refused(built, tampered):
    """A .npy replaced together with its hash: self-consistent, but not the declared [1]."""
    import hashlib

    art = tampered()
    np.save(art / "graphs/chain/c.npy", np.zeros(16, np.float32))
    data = (art / "graphs/chain/c.npy").read_bytes()
    m = json.loads((art / "manifest.json").read_text())
    m["graphs"]["chain"]["constants"]["c"].update(sha256=hashlib.sha256(data).hexdigest(), size=len(data))
    (art / "manifest.json").write_text(json.dumps(m))
    assert child(built, art) == "ERR UserError graph 'chain': constant 'c' must have shape [1], got [16]"


# ---- malformed manifests: one VerifyError naming the field --------------------------------------------------


def _put(path, value):
    def edit(m):
        *head, last = path
        node = m
        for p in head:
            node = node[p]
        if value is _DELETE:
            del node[last]
        else:
            node[last] = value

    return edit


_DELETE = object()
K = ("kernels", RELU)
SHAPE_RULE = "must be a list of at most 8 non-negative integers of at most 2147483647 elements in all"
MALFORMED = [
    ((*K, "outputs", 0, "shape"), "1", f'kernels.{RELU}.outputs[0].shape {SHAPE_RULE}, got "1"'),
    ((*K, "outputs", 0, "shape"), [-1], f"kernels.{RELU}.outputs[0].shape {SHAPE_RULE}, got [-1]"),
    ((*K, "outputs", 0, "shape"), [True, 16], f"kernels.{RELU}.outputs[0].shape {SHAPE_RULE}, got [true, 16]"),
    ((*K, "outputs", 0, "shape"), [1 << 20, 1 << 20], f"kernels.{RELU}.outputs[0].shape {SHAPE_RULE}, got [1048576, 1048576]"),
    ((*K, "inputs", 0, "dtype"), _DELETE, f"kernels.{RELU}.inputs[0].dtype is missing"),
    ((*K, "inputs", 0, "dtype"), "f64", f'kernels.{RELU}.inputs[0].dtype must be one of f32, f16, bf16, i8, u8, i4, u4, i32, i64, bool, got "f64"'),
    ((*K, "outputs"), [], f"kernels.{RELU}.outputs must hold exactly one tensor, got 0"),
    ((*K, "attrs"), None, f"kernels.{RELU}.attrs must be an object, got null"),
    ((*K, "key"), "abc", f'kernels.{RELU}.key must be 64 lowercase hex digits, got "abc"'),
    ((*K, "targets", "host", "files", "binary", "size"), "15000", f'kernels.{RELU}.targets.host.files.binary.size must be a non-negative integer, got "15000"'),
    ((*K, "targets", "host", "files", "binary", "path"), 7, f"kernels.{RELU}.targets.host.files.binary.path must be a non-empty string, got 7"),
    (("kernels",), [], "kernels must be an object, got []"),
    (("graphs", "chain", "steps"), [3], "graphs.chain.steps[0] must be an object, got 3"),
    (("graphs", "chain", "steps", 0, "outputs"), ["a", "b"], "graphs.chain.steps[0].outputs must name exactly one tensor, got 2"),
    (("graphs", "chain", "outputs"), "y", 'graphs.chain.outputs must be a list of strings, got "y"'),
    (("graphs", "chain", "params", "w"), _DELETE, None),  # consistent but wrong: the step reads an undefined name
]


@pytest.mark.parametrize("path,value,message", MALFORMED, ids=[".".join(map(str, p)) + ("-deleted" if v is _DELETE else f"={v!r}"[:40]) for p, v, _ in MALFORMED])
def test_malformed_manifest_names_the_field(tampered, path, value, message):
    art = tampered(_put(path, value))
    if message is None:
        with pytest.raises(UserError, match="step 0 \\(a\\) reads 'w', which no input, param, constant or earlier step gives"):
            npubuild.load(art, verify_files=False).graph("chain")
        return
    with pytest.raises(VerifyError) as e:
        npubuild.load(art, verify_files=False)
    assert str(e.value) == f"{art}/manifest.json: malformed manifest: {message}"


def test_malformed_manifest_in_the_cli_is_one_line(built, tampered):
    art = tampered(_put((*K, "outputs", 0, "shape"), "1"))
    assert verify_lines(built, art) == [f'npubuild: {art}/manifest.json: malformed manifest: kernels.{RELU}.outputs[0].shape {SHAPE_RULE}, got "1"']


def _nested(levels: int):
    v: list = []
    for _ in range(levels - 1):
        v = [v]
    return v


@pytest.mark.parametrize(
    "text,message",
    [
        (b"{not json", "unreadable manifest (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
        (b'{"schema": 1, "kernels": {}, "graphs": {}, "x": NaN}', "unreadable manifest (NaN is not a JSON number (the build writes strict JSON))"),
        (b"\xff\xfe", "unreadable manifest ("),
        (b"[" * 100_000 + b"]" * 100_000, "the JSON nesting is deeper than Python parses, over the limit of 32 (limits.manifest_max_depth"),
        (json.dumps({"schema": 1, "kernels": {}, "graphs": {}, "t": _nested(33)}).encode(),
         "the JSON nesting is 34, over the limit of 32 (limits.manifest_max_depth"),
        (b'{"schema": 2}', "unsupported manifest schema 2 (this npubuild reads schema 1)"),
    ],
    ids=["not-json", "nan", "not-utf8", "too-deep-to-parse", "too-deep", "schema"],
)
def test_unreadable_manifests(tmp_path, text, message):
    (tmp_path / "manifest.json").write_bytes(text)
    with pytest.raises(VerifyError) as e:
        npubuild.load(tmp_path)
    assert str(e.value).startswith(f"{tmp_path}/manifest.json: {message}")


def test_manifest_size_is_bounded_before_reading(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"schema": 1, "kernels": {}, "graphs": {}, "pad": "x" * 200}))
    size = (tmp_path / "manifest.json").stat().st_size
    with pytest.raises(VerifyError) as e:
        mf.read_manifest(tmp_path, Limits(manifest_max_size=100))
    assert str(e.value) == f"{tmp_path}/manifest.json is {size} bytes, over the limit of 100 (limits.manifest_max_size in [tool.npubuild.limits])"
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "manifest.json").unlink()
    os.symlink(tmp_path / "fifo", tmp_path / "manifest.json")
    with pytest.raises(VerifyError, match="is not a regular file"):  # never blocks on a FIFO
        mf.read_manifest(tmp_path)


FUZZ = r"""
import copy, json, sys
import numpy as np
import npubuild
from npubuild.artifacts.verify import verify
from npubuild.core.errors import UserError

art = sys.argv[1]
good = json.loads(open(f"{art}/manifest.json").read())

def paths(node, prefix=()):
    yield prefix
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in children:
        yield from paths(v, prefix + (k,))

cases, bad = 0, []
for path in list(paths(good))[1:]:
    for value in ("<delete>", None, "x", [], {}, -1, 1e308, True):
        m = copy.deepcopy(good)
        node = m
        for p in path[:-1]:
            node = node[p]
        if value == "<delete>":
            if isinstance(node, list):
                node.pop(path[-1])
            else:
                del node[path[-1]]
        else:
            node[path[-1]] = value
        open(f"{art}/manifest.json", "w").write(json.dumps(m))
        cases += 1
        try:
            verify(art)
            rt = npubuild.load(art, verify_files=False)
            for name in ("chain", "gemm"):
                g = rt.graph(name, backend="host")
                g.set_params(w=np.ones(rt.manifest["graphs"][name]["params"]["w"]["shape"], np.float32))
                g.run(x=np.ones(rt.manifest["graphs"][name]["inputs"]["x"]["shape"], np.float32))
            rt.close()
        except UserError:
            pass
        except Exception as e:
            bad.append(f"{'.'.join(map(str, path))}={value!r}: {type(e).__name__}: {e}")
print(json.dumps({"cases": cases, "bad": bad[:20]}))
"""


@pytest.mark.slow  # long; runs in CI
def test_any_field_of_the_wrong_type_or_missing_is_a_user_error(built, tampered):
    """Every field of the manifest deleted or replaced by values of other types: UserError or a correct run, nothing else."""
    art = tampered()
    r = subprocess.run([sys.executable, "-c", FUZZ, str(art)], cwd=built.root, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"the runtime process died (exit {r.returncode}):\n{r.stderr[-3000:]}"
    result = json.loads(r.stdout)
    assert result["cases"] > 1000 and result["bad"] == []


# ---- private copies ----------------------------------------------------------------------------------------


def _run_chain(rt):
    g = rt.graph("chain", backend="host")
    g.set_params(w=np.ones(16, np.float32))
    x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(4, 16)
    np.testing.assert_array_equal(g.run(x=x)["y"], np.maximum(x + np.float32(0.5), 0))


def _copy_of(rt, kid):
    return rt.files.path(rt.manifest["kernels"][kid]["targets"]["host"]["files"]["binary"], kid)


def test_copies_are_sealed_memfds(built):
    rt = npubuild.load(built.artifacts)
    _run_chain(rt)
    for kid in (MUL, ADD, RELU):
        p = _copy_of(rt, kid)
        assert str(p).startswith("/proc/self/fd/")
        fd = os.open(p, os.O_WRONLY)
        try:
            with pytest.raises(PermissionError):
                os.write(fd, b"\0")  # sealed: not even this process can change what runs
        finally:
            os.close(fd)
    rt.close()


def test_a_copy_outlives_its_runtime_and_is_shared(built):
    """A runtime dropped without close() leaves its libraries mapped under the copies' names: those
    names must keep meaning the same bytes (dlopen returns a loaded library by name, unopened)."""
    first = npubuild.load(built.artifacts)
    _run_chain(first)
    names = [_copy_of(first, k) for k in (MUL, ADD, RELU)]
    del first
    import gc

    gc.collect()
    second = npubuild.load(built.artifacts)
    _run_chain(second)
    assert [_copy_of(second, k) for k in (MUL, ADD, RELU)] == names
    assert all(p.stat().st_size > 0 for p in names)


def test_without_memfd_the_copies_go_to_a_private_directory(built, monkeypatch):
    from npubuild.runner import pinned

    monkeypatch.setattr(pinned, "_COPIES", {})
    monkeypatch.setattr(pinned, "_FALLBACK_DIR", [])
    monkeypatch.delattr(os, "memfd_create")
    rt = npubuild.load(built.artifacts)
    _run_chain(rt)
    copies = sorted(pinned._COPIES.values())
    (home,) = {p.parent for p in copies}
    assert len(copies) == 3 and stat.S_IMODE(home.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o400 for p in copies)
    rt.close()


# ---- what callers pass -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chain(built):
    rt = npubuild.load(built.artifacts)
    g = rt.graph("chain", backend="host")
    g.set_params(w=np.ones(16, np.float32))
    return rt, g


def _message(fn) -> str:
    with pytest.raises(UserError) as e:
        fn()
    return str(e.value)


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda rt, g: rt.graph(None), "a graph name is a string, got NoneType; graphs: chain, gemm"),
        (lambda rt, g: rt.graph(["chain"]), "a graph name is a string, got list; graphs: chain, gemm"),
        (lambda rt, g: rt.graph("chain", backend=None), "a backend is a string, got NoneType; choose one of ref, host, xrt, auto"),
        (lambda rt, g: rt.kernel_record(None), "kernel None is not in <art>/manifest.json"),
        (lambda rt, g: rt.graph("chian"), "no graph 'chian' in <art>/manifest.json (did you mean 'chain'?); graphs: chain, gemm"),
        (lambda rt, g: g.set_params(w=None), "graph 'chain': param 'w' must be a NumPy array, got NoneType"),
        (lambda rt, g: g.set_params(w="1.0"), "graph 'chain': param 'w' must be a NumPy array, got str"),
        (lambda rt, g: g.set_params(w=b"\0" * 64), "graph 'chain': param 'w' must be a NumPy array, got bytes"),
        (lambda rt, g: g.set_params(w={"w": 1}), "graph 'chain': param 'w' must be a NumPy array, got dict"),
        (lambda rt, g: g.set_params(w=[[1.0], [1.0, 2.0]]), "graph 'chain': param 'w' is not a rectangular array (nested lists of unequal lengths?)"),
        (lambda rt, g: g.set_params(w=np.array([object()] * 16)), "graph 'chain': param 'w' must be float32 (f32), got object; convert with .astype(np.float32)"),
        (lambda rt, g: g.set_params(w=np.array(["1"] * 16)), "graph 'chain': param 'w' must be float32 (f32), got <U1; convert with .astype(np.float32)"),
        (lambda rt, g: g.set_params(w=np.ones(16, ">f4")), "graph 'chain': param 'w' must be float32 (f32), got >f4; convert with .astype(np.float32)"),
        (lambda rt, g: g.set_params(w=[1.0] * 16), "graph 'chain': param 'w' must be float32 (f32), got float64; convert with .astype(np.float32)"),
        (lambda rt, g: g.set_params(w=np.float32(1)), "graph 'chain': param 'w' must have shape [16], got []"),
        (lambda rt, g: g.run(x=np.ones((16, 4), np.float32)), "graph 'chain': input 'x' must have shape [4, 16], got [16, 4]"),
        (lambda rt, g: g.run(x=np.ones((4, 16), np.int8)), "graph 'chain': input 'x' must be float32 (f32), got int8; convert with .astype(np.float32)"),
        (lambda rt, g: g.run(x=np.ones((4, 16), np.float32), y=1), "graph 'chain': unknown inputs: y (declared: x)"),
        (lambda rt, g: g.run(), "graph 'chain': missing inputs: x"),
    ],
)
def test_bad_arguments_are_one_user_error(built, chain, call, message):
    rt, g = chain
    assert _message(lambda: call(rt, g)).replace(str(built.artifacts), "<art>") == message


def test_a_good_run_after_bad_arguments(chain):
    _, g = chain
    with pytest.raises(UserError):
        g.set_params(w=[[1.0], [2.0, 3.0]])
    g.set_params(w=np.full(16, 2, np.float32))
    x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(4, 16)
    np.testing.assert_array_equal(g.run(x=x)["y"], np.maximum(x * 2 + np.float32(0.5), 0))


# ---- NaN through the int8 GEMM -------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["weight-column", "activation-row", "all-weights"])
def test_int8_gemm_propagates_nan_identically_on_ref_and_host(built, where):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 64)).astype(np.float32)
    w = rng.standard_normal((64, 32)).astype(np.float32)
    if where == "weight-column":
        w[10, 3] = np.nan
    elif where == "activation-row":
        x[2, 40] = np.nan
    else:
        w[:] = np.nan  # before: all zeros
    rt = npubuild.load(built.artifacts)
    out = {}
    for backend in ("ref", "host"):
        g = rt.graph("gemm", backend=backend)
        g.set_params(w=w)
        out[backend] = g.run(x=x)["y"]
    np.testing.assert_array_equal(out["host"], out["ref"])  # NaN where NaN, and bit for bit elsewhere
    nan = np.isnan(out["ref"])
    want = np.zeros((4, 32), bool)
    want[:, 3] |= where == "weight-column"
    want[2, :] |= where == "activation-row"
    want[:] |= where == "all-weights"
    np.testing.assert_array_equal(nan, want)


# ---- the ELF reader ---------------------------------------------------------------------------------------------


def test_embedded_abi_reader_survives_damaged_libraries(built):
    """Truncated and bit-flipped libraries: an ABI or a ValueError, never another exception."""
    data = (built.artifacts / RELU_SO).read_bytes()
    abi = embedded_abi(data)
    assert (abi["id"], abi["op"], abi["outputs"][0]["shape"], abi["outputs"][0]["bytes"]) == (RELU, "relu", [4, 16], 256)
    rng = np.random.default_rng(0)
    outcomes = set()
    for i in range(3000):
        b = bytearray(data[: rng.integers(0, len(data))] if i % 3 == 0 else data)
        for _ in range(int(rng.integers(1, 8))):
            if b:
                b[int(rng.integers(0, min(len(b), 4096)))] = int(rng.integers(0, 256))
        try:
            embedded_abi(bytes(b))
            outcomes.add("abi")
        except ValueError:
            outcomes.add("refused")
    assert outcomes == {"abi", "refused"}
    with pytest.raises(ValueError, match="exports no 'npubuild_abi'"):
        embedded_abi(data.replace(b"npubuild_abi\0", b"npubuild_xyz\0"))
