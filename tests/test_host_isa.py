"""ISA variants of host kernels (npubuild.core.host_isa, toolchain.host.add_isa_variants,
runner.host.HostKernel): one portable library holds every level of the architecture, the
runtime calls the widest the CPU has, NPUBUILD_HOST_ISA forces one, and the baseline computes
what the wide variant does (bit for bit, or within the documented error bound where a body
fuses multiplies and adds)."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from npubuild.artifacts.elf import elf_symbol
from npubuild.core import host_isa
from npubuild.core.errors import UserError
from npubuild.emitters import host as emitters
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance
from npubuild.toolchain import host as toolchain

from .hostkit import compiled_library
from .test_host_unary_math import F32_ULP_BOUND, _reference, ulp_error

X86 = host_isa.arch() == "x86_64"
BASELINE = host_isa.levels()[0].name
V3_FLAGS = "fpu sse sse2 pni ssse3 sse4_1 sse4_2 cx16 lahf_lm popcnt avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"
V4_FLAGS = V3_FLAGS + " avx512f avx512bw avx512cd avx512dq avx512vl"
PORTABLE = ["x86-64", "x86-64-v3", "x86-64-v4"]


def flags_of(text: str) -> frozenset:
    return host_isa.cpu_flags(f"processor\t: 0\nflags\t\t: {text}\n")


# ---- picking a variant ------------------------------------------------------------------------


def test_cpuinfo_flags_of_both_architectures():
    assert {"avx2", "fma"} <= flags_of(V3_FLAGS)
    arm = "processor\t: 0\nFeatures\t: fp asimd evtstrm aes fphp asimdhp asimddp\nCPU part\t: 0xd0c\n"
    assert {"asimdhp", "asimddp"} <= host_isa.cpu_flags(arm)
    assert host_isa.cpu_flags("") == frozenset()


@pytest.mark.parametrize("flags,want", [("fpu sse sse2", 0), (V3_FLAGS, 1), (V4_FLAGS, 2),
                                        (V4_FLAGS.replace(" avx512vl", ""), 1)])
def test_the_widest_level_the_cpu_has_is_picked(flags, want):
    assert host_isa.pick(PORTABLE, "k", flags_of(flags), forced="") == want


def test_a_single_variant_is_taken_as_built():
    assert host_isa.pick(["znver4"], "k", frozenset(), forced="") == 0
    assert host_isa.pick(["x86-64-v3"], "k", flags_of(V3_FLAGS), forced="") == 0
    with pytest.raises(UserError, match=r"k was compiled for x86-64-v3 only and this CPU lacks abm, avx, avx2"):
        host_isa.pick(["x86-64-v3"], "k", flags_of("fpu sse sse2"), forced="")
    assert host_isa.pick(["armv8-a", "armv8.2-a"], "k", frozenset({"fphp", "asimdhp", "asimddp"}), forced="") == 1


def test_forcing_a_level():
    assert host_isa.pick(PORTABLE, "k", flags_of(V4_FLAGS), forced="x86-64") == 0
    with pytest.raises(UserError, match=r"NPUBUILD_HOST_ISA='avx9' is not an ISA level npubuild knows \(x86-64, x86-64-v3"):
        host_isa.pick(PORTABLE, "k", flags_of(V4_FLAGS), forced="avx9")
    with pytest.raises(UserError, match=r"this CPU lacks avx512bw, avx512cd, avx512dq, avx512f, avx512vl"):
        host_isa.pick(PORTABLE, "k", flags_of(V3_FLAGS), forced="x86-64-v4")
    with pytest.raises(UserError, match=r"k has no x86-64-v3 variant \(it has znver4\)"):
        host_isa.pick(["znver4"], "k", flags_of(V4_FLAGS), forced="x86-64-v3")


@pytest.mark.parametrize("raw", [b"x86-64", b"", b"\0", b"a\"b\0", b" ".join([b"x86-64"] * 9) + b"\0", b"../x\0"])
def test_a_hostile_variant_list_is_refused(raw):
    with pytest.raises(UserError, match="npubuild_isa"):
        host_isa.parse_variants(raw, "lib.so")


# ---- one library, every level ---------------------------------------------------------------------


def _library(op: str, shapes, attrs=None):
    inst = make_instance(op, "f32", shapes, attrs or {})
    return inst, compiled_library(emitters.emit(inst), f"isa_{inst.id}")


def test_the_portable_recipe_names_every_level_and_the_library_holds_them():
    assert toolchain.HOST_FLAGS["isa"] == [lv.name for lv in host_isa.levels()]
    assert toolchain.host_flags("x86-64-v3")["isa"] == ["x86-64-v3"]
    _, so = _library("relu", [(4, 32)])
    data = so.read_bytes()
    names = toolchain.HOST_FLAGS["isa"]
    assert elf_symbol(data, host_isa.ISA_SYMBOL.encode()) == " ".join(names).encode() + b"\0"
    for i, name in enumerate(names):
        assert elf_symbol(data, host_isa.symbol("kernel", i, name).encode()) is not None, name


@pytest.mark.skipif(not X86, reason="x86-64 code")
def test_the_v4_variant_uses_512_bit_registers_and_the_baseline_none():
    """The same vector<16xf32> body: llc splits it into four SSE registers for the baseline, one zmm for v4."""
    _, so = _library("exp", [(4, 64)])
    asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(so)], capture_output=True, text=True, check=True).stdout
    body = {name: asm.split(f"<{name}>:\n", 1)[1].split("\n\n", 1)[0] for name in ("kernel", "kernel__x86_64_v4")}
    assert "%zmm" in body["kernel__x86_64_v4"] and "vfmadd" in body["kernel__x86_64_v4"]
    assert "%ymm" not in body["kernel"] and "%zmm" not in body["kernel"] and "vfmadd" not in body["kernel"]


def test_aarch64_levels_are_accepted_by_llc(tmp_path):
    """llc (the installed one, with its AArch64 backend) compiles the armv8.2-a clone with its features and
    says nothing about an unknown one."""
    inst = make_instance("exp", "f32", [(4, 64)], {})
    ll = toolchain.lower_to_llvm_ir(emitters.emit(inst), isa=[lv.name for lv in host_isa.LEVELS["aarch64"]])
    assert '"target-features"="+v8.2a,+fullfp16,+dotprod"' in ll
    (tmp_path / "k.ll").write_text(ll)
    r = subprocess.run([toolchain.find_tools()["llc"], "-O2", "-mtriple=aarch64-linux-gnu", "-filetype=obj", "k.ll", "-o", "k.o"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and "not a recognized" not in r.stderr, r.stderr
    syms = subprocess.run(["objdump", "-t", str(tmp_path / "k.o")], capture_output=True, text=True).stdout
    assert "kernel__armv8_2_a" in syms and "npubuild_isa" in syms


def test_a_module_that_takes_a_reserved_name_is_refused():
    text = emitters.emit(make_instance("relu", "f32", [(4, 32)], {}))
    with pytest.raises(UserError, match="kernel__x86_64_v3: names npubuild reserves"):
        toolchain.lower_to_llvm_ir(_with_reserved(text), isa=PORTABLE)


def _with_reserved(text: str) -> str:
    """The module with a second public function named like a v3 clone of ``kernel``."""
    head, _, _ = text.rpartition("}")
    return head + "  func.func @kernel__x86_64_v3() {\n    return\n  }\n}\n"


# ---- the baseline against the wide variant ------------------------------------------------------


def _run(so, inst, x, isa, monkeypatch):
    monkeypatch.setenv(host_isa.ENV, isa)
    k = HostKernel(so, inst.describe(), require_abi=True)
    try:
        return k(*x), k.isa
    finally:
        k.close()


BIT_EXACT = [("relu", {}, 1), ("add", {}, 2), ("rms_norm", {"eps": 1e-6}, 1), ("reduce_sum", {"axes": [-1]}, 1)]


@pytest.mark.parametrize("op,attrs,n", BIT_EXACT, ids=[c[0] for c in BIT_EXACT])
def test_baseline_is_bit_identical_where_nothing_is_fused(op, attrs, n, monkeypatch):
    shapes = [(8, 256)] * n if op != "rms_norm" else [(8, 256), (256,)]
    inst, so = _library(op, shapes, attrs)
    rng = np.random.default_rng(1)
    x = [rng.standard_normal(s).astype(np.float32) * 100 for s in shapes]
    wide, got = _run(so, inst, x, "", monkeypatch)
    base, isa = _run(so, inst, x, BASELINE, monkeypatch)
    assert isa == BASELINE and got == host_isa.widest_here()
    assert np.array_equal(wide.view(np.uint32), base.view(np.uint32))


def _whole_f32_range(step: int = 1 << 11) -> np.ndarray:
    """Every step-th f32 bit pattern (both signs: huge, tiny, subnormal), the infinities, NaN and +-0."""
    bits = np.arange(0, 1 << 32, step, dtype=np.uint64).astype(np.uint32) + np.uint32(step // 3)
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-45, -1e-45, 3.4028235e38, -3.4028235e38], np.float32)
    x = np.concatenate([bits.view(np.float32), special])
    return np.resize(x, (x.size + 15) // 16 * 16)  # a whole number of vectors: the vector body


FUSED = [("exp", "exp", {}), ("tanh", "tanh", {}), ("sigmoid", "sigmoid", {}), ("gelu_tanh", "gelu", {"approximate": "tanh"}),
         ("gelu", "gelu", {"approximate": "none"})]


@pytest.mark.parametrize("name,op,attrs", FUSED, ids=[c[0] for c in FUSED])
def test_every_variant_is_within_the_documented_bound_over_the_whole_range(name, op, attrs, monkeypatch):
    """The transcendentals fuse their polynomials' multiply-adds where the variant has FMA: the baseline and
    the widest variant this CPU runs are each within the documented ULP bound of the float64 reference over
    2^21 bit patterns spread over all of f32, and bit-exact at the specials."""
    x = _whole_f32_range()
    inst, so = _library(op, [x.shape], attrs)
    finite = np.isfinite(x)
    with np.errstate(all="ignore"):
        ref = _reference(name, x.astype(np.float64))
    for isa in dict.fromkeys([BASELINE, host_isa.widest_here()]):
        got, ran = _run(so, inst, [x], isa, monkeypatch)
        assert ran == isa
        err = ulp_error(got, ref, "f32")
        i = int(np.argmax(np.where(finite, err, 0)))
        assert err[finite][np.argmax(err[finite])] <= F32_ULP_BOUND[name], f"{isa}: {err[i]:.3f} ULP at x={x[i]!r}"
        nan_in = np.isnan(x)
        assert np.isnan(got[nan_in]).all() and not np.isnan(got[~nan_in]).any(), isa
        for v in (np.inf, -np.inf):
            want = np.float32(ref[x == v][0]) if not np.isnan(ref[x == v][0]) else np.float32(-0.0)
            assert got[x == v][0].tobytes() == want.tobytes(), (isa, v, got[x == v][0], want)


# ---- the manifest, run --json and bench ------------------------------------------------------------


def test_the_manifest_run_and_bench_say_which_variant(project):
    import json

    p = project("kernels:\n  e:\n    op: tanh\n    shapes:\n      - [4, 32]\n")
    p.doit("build")
    entry = json.loads((p.artifacts / "manifest.json").read_text())["kernels"]["tanh_f32_4x32"]["targets"]["host"]
    assert entry["isa"] == toolchain.HOST_FLAGS["isa"]
    run = ("run", "tanh_f32_4x32", "--input", "x=4x32xf32", "--backend", "host", "--json")
    assert json.loads(p.npubuild(*run).out)["isa"] == {"tanh_f32_4x32": host_isa.widest_here()}
    forced = json.loads(p.npubuild(*run, env={host_isa.ENV: BASELINE}).out)
    assert forced["isa"] == {"tanh_f32_4x32": BASELINE}
    r = p.npubuild(*run[:-1], env={host_isa.ENV: "avx9"}, check=False)
    assert r.rc == 1 and "NPUBUILD_HOST_ISA='avx9' is not an ISA level npubuild knows" in r.err and "Traceback" not in r.err
    doc = json.loads(p.npubuild("bench", "tanh_f32_4x32", "--backend", "host", "--repeat", "2", "--json").out)
    assert doc["results"]["host"]["isa"] == [host_isa.widest_here()]
