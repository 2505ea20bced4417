"""A kernel family's ``sources:``: a hand-written kernel.mlir / aie.mlir replaces the emitted one."""
from __future__ import annotations

import json
import re

import numpy as np

from npubuild.runner.host import HostKernel

from .conftest import new_project

SPEC = """\
kernels:
  relu_tuned:
    op: relu
    dtype: f32
    shapes: [[64]]
  neg:
    op: neg
    dtype: f32
    shapes: [[32]]
"""


def _pin(p, target: str = "host", file: str = "tuned/relu.mlir"):
    spec = p.root / "specs" / "kernels" / "k.yaml"
    spec.write_text(spec.read_text().replace("    shapes: [[64]]\n", f"    shapes: [[64]]\n    sources: {{{target}: {file}}}\n", 1))


def _kernel(p, kid: str):
    manifest = json.loads((p.artifacts / "manifest.json").read_text())
    return {**manifest["kernels"][kid], "id": kid}


def test_a_pinned_host_source_is_what_is_compiled_and_run(tmp_path):
    p = new_project(tmp_path / "proj", SPEC)
    p.doit("build")
    kdir = p.artifacts / "kernels" / "relu_f32_64" / "host"
    emitted = (kdir / "kernel.mlir").read_text()
    assert emitted.count("arith.maximumf") == 1
    # the engineer's kernel: min(x, 0) instead of relu, so that running it shows which text was compiled
    tuned = p.root / "specs" / "kernels" / "tuned" / "relu.mlir"
    tuned.parent.mkdir()
    tuned.write_text("// hand-tuned\n" + emitted.replace("arith.maximumf", "arith.minimumf"))
    _pin(p)
    why = p.npubuild("explain", "relu_f32_64").out
    assert "pinned source specs/kernels/tuned/relu.mlir replaces the emitted one" in why, why
    r = p.doit("build")
    assert r.summary["compiled"] == 1, r.out  # only the pinned kernel
    assert (kdir / "kernel.mlir").read_text() == tuned.read_text()
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    kernel = HostKernel(kdir / "kernel.so", _kernel(p, "relu_f32_64"))
    np.testing.assert_array_equal(kernel(x), np.minimum(x, 0))
    assert _kernel(p, "relu_f32_64")["targets"]["host"]["pinned_source"] == "specs/kernels/tuned/relu.mlir"
    p.npubuild("verify")
    assert p.doit("build").summary["compiled"] == 0

    # editing the pinned file recompiles; explain names it
    tuned.write_text(tuned.read_text().replace("// hand-tuned", "// hand-tuned, v2"))
    assert "pinned source specs/kernels/tuned/relu.mlir changed" in p.npubuild("explain", "relu_f32_64").out
    r = p.doit("build")
    assert r.summary["compiled"] == 1 and (kdir / "kernel.mlir").read_text().startswith("// hand-tuned, v2")

    # a hand edit of the build's copy is restored to the pinned text, not to the emitter's
    (kdir / "kernel.mlir").write_text("broken")
    r = p.doit("build")
    assert "edited by hand" in r.out and (kdir / "kernel.mlir").read_text() == tuned.read_text()

    # unpinned again: the emitted text, and the store still has that binary
    spec = p.root / "specs" / "kernels" / "k.yaml"
    spec.write_text(spec.read_text().replace("    sources: {host: tuned/relu.mlir}\n", ""))
    assert "no longer pins" in p.npubuild("explain", "relu_f32_64").out
    r = p.doit("build")
    assert r.summary == {"kernels": 2, "compiled": 0, "store": 1, "uptodate": 1}, r.out
    assert (kdir / "kernel.mlir").read_text() == emitted


def test_a_pinned_source_must_keep_the_interface(tmp_path):
    p = new_project(tmp_path / "proj", SPEC)
    p.doit("build")
    emitted = (p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.mlir").read_text()
    tuned = p.root / "specs" / "kernels" / "tuned" / "relu.mlir"
    tuned.parent.mkdir()
    tuned.write_text(emitted.replace("memref<64xf32>", "memref<32xf32>"))
    _pin(p)
    r = p.doit("build", check=False)
    assert r.rc != 0 and "Traceback" not in r.out + r.err
    assert re.search(r"pinned source specs/kernels/tuned/relu.mlir does not keep the interface the runtime calls: it has "
                     r"func.func @kernel\(memref<32xf32>, memref<32xf32>\), the kernel needs "
                     r"func.func @kernel\(memref<64xf32>, memref<64xf32>\)", r.out), r.out
    assert "npubuild: BUILD FAILED" in r.out.splitlines()[-1]
    why = p.npubuild("explain", "relu_f32_64").out
    assert "the emit will fail: pinned source specs/kernels/tuned/relu.mlir does not keep the interface" in why, why


def test_sources_in_a_spec_are_checked_at_their_line(tmp_path):
    p = new_project(tmp_path / "proj", SPEC)
    (p.root / "specs" / "kernels" / "ok.mlir").write_text("x")
    cases = {
        "    shapes: [[64], [128]]\n    sources: {host: ok.mlir}\n": "lists 2 shapes",
        "    shapes: [[64]]\n    sources: {xdna: ok.mlir}\n": "xdna is not in the family's targets",
        "    shapes: [[64]]\n    sources: {ref: ok.mlir}\n": "'ref' has no emitted source to replace",
        "    shapes: [[64]]\n    sources: {host: missing.mlir}\n": "'missing.mlir' not found",
        "    shapes: [[64]]\n    sources: {host: ../../../../../../etc/hostname}\n": "outside the project",
        "    shapes: [[64]]\n    sources: host.mlir\n": "must be a mapping target: file",
    }
    spec = p.root / "specs" / "kernels" / "k.yaml"
    for text, why in cases.items():
        spec.write_text(SPEC.replace("    shapes: [[64]]\n", text, 1))
        r = p.doit("build", check=False)
        assert r.rc != 0 and why in r.out + r.err and "specs/kernels/k.yaml:" in r.out + r.err, (text, r.out, r.err)
        assert "Traceback" not in r.out + r.err


def test_a_pinned_xdna_source_is_emitted_in_place_of_the_design(tmp_path):
    spec = SPEC.replace("    dtype: f32\n    shapes: [[64]]\n", "    dtype: bf16\n    targets: [ref, xdna]\n    shapes: [[64, 1024]]\n", 1)
    p = new_project(tmp_path / "proj", spec)
    p.doit("build")
    xdir = p.artifacts / "kernels" / "relu_bf16_64x1024" / "xdna"
    emitted = (xdir / "aie.mlir").read_text()
    tuned = p.root / "specs" / "kernels" / "relu.aie.mlir"
    tuned.write_text("// hand-placed\n" + emitted)
    s = p.root / "specs" / "kernels" / "k.yaml"
    s.write_text(s.read_text().replace("    shapes: [[64, 1024]]\n", "    shapes: [[64, 1024]]\n    sources: {xdna: relu.aie.mlir}\n"))
    p.doit("build")
    assert (xdir / "aie.mlir").read_text() == tuned.read_text()
    # a design for another device is not this kernel's
    tuned.write_text(emitted.replace("aie.device(npu1)", "aie.device(npu2)"))
    r = p.doit("build", check=False)
    assert r.rc != 0 and "aie.device(npu2) with runtime_sequence" in r.out and "aie.device(npu1) with runtime_sequence" in r.out, r.out
