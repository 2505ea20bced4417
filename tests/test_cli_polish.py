"""Small command-line promises: output paths whose directory is missing are refused (nothing is
created), and `npubuild build --explain` says why before it builds."""
from __future__ import annotations


def test_pack_and_keygen_refuse_a_missing_parent_directory(project, tmp_path):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    p.doit("build")
    r = p.npubuild("pack", "-o", str(tmp_path / "no" / "such" / "b.tar.zst"), check=False)
    assert r.rc != 0 and "its directory does not exist" in r.err and "Traceback" not in r.err
    k = p.npubuild("keygen", "--dir", str(tmp_path / "no" / "keys"), check=False)
    assert k.rc != 0 and "its parent directory" in k.err and "does not exist" in k.err
    assert not (tmp_path / "no").exists()
    assert p.npubuild("keygen", "--dir", str(tmp_path / "keys")).rc == 0  # a new directory in an existing one is fine


def test_build_explain_says_why_then_builds(project):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    r = p.npubuild("build", "--explain")
    assert "relu_f32_64@host: will be rebuilt: new: no build has made it yet; asked for by kernel family 'a'" in r.out
    assert r.summary["compiled"] == 1
    again = p.npubuild("build", "--explain")
    assert "0 of 1 kernel target(s) will be rebuilt" in again.out and again.summary["compiled"] == 0


def test_version(project):
    from npubuild import __version__

    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    assert p.npubuild("--version").out.strip() == f"npubuild {__version__}"
