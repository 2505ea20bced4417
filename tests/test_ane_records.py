"""ANE plan records are checked against their programs (npubuild.artifacts.ane_records): every plan the
build writes passes; an edited record — order, bindings, currencies, weight shapes and offsets — is one
problem line from `npubuild verify` and from loading, never a traceback or a huge allocation at run time."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import npubuild
from npubuild.ane.build import manifest_record, write_graph
from npubuild.ane.coreml import relocate
from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import compile_plan
from npubuild.ane.plan_model import Cur
from npubuild.artifacts.ane_records import buffer_elems, graph_problems, mil_type, parse_currency
from npubuild.core.errors import UserError

from .mil_programs import FUSE, TRAIN
from .test_ane import fuse_files
from .test_ane_build import mil_project  # noqa: F401  (fixture)
from .test_mil_hostile import program

REPO = Path(__file__).resolve().parents[1]
ADAPTER = ('        tensor<fp16, [1, 1, 1, 64]> r = reshape(x = x, shape = tensor<int32, [4]>([1, 1, 1, 64]))[name = string("r")];\n'
           '        tensor<fp16, [1, 1, 1, 64]> s = softmax(x = r, axis = int32(3))[name = string("s")];\n'
           '        tensor<fp16, [1, 64, 1, 1]> sc = reshape(x = s, shape = tensor<int32, [4]>([1, 64, 1, 1]))[name = string("sc")];\n'
           '        tensor<fp16, [1, 64, 1, 1]> y = add(x = sc, y = x)[name = string("y")];')
RMS = program('        tensor<fp16, [1, 1, 1, 64]> y = rms_norm(x = x, eps = fp16(0x1p-10))[name = string("y")];',
              inputs="tensor<fp16, [1, 1, 1, 64]> x")


def _record(tmp_path: Path, text: str, base: Path | None = None):
    """(the manifest record of ``text``'s plan as the build writes it, the artifact directory)."""
    base = base or tmp_path
    plan = compile_plan(parse_mil(text, file="m.mil", base_dir=base))
    art = tmp_path / "art"
    out = art / "ane" / "g"
    write_graph(plan, out)
    rec = relocate(manifest_record(out, art), "ane/g")
    return rec, art


def _problems(rec: dict, art: Path) -> list[str]:
    def read(f):
        ok = isinstance(f, dict) and isinstance(f.get("path"), str) and (art / f["path"]).is_file()
        return (art / f["path"]).read_text() if ok else None

    return graph_problems("g", rec, read, lambda f: f.get("size") if isinstance(f, dict) else None)


def _programs(tmp_path):
    fuse_files(tmp_path)
    return {
        "swiglu": ((REPO / "specs/graphs/swiglu.mil").read_text(), REPO / "specs/graphs"),
        "fuse": (FUSE.format(d=tmp_path), tmp_path),
        "train": (TRAIN, tmp_path),
        "adapter": (program(ADAPTER), tmp_path),
        "rms": (RMS, tmp_path),
    }


@pytest.mark.parametrize("name", ["swiglu", "fuse", "train", "adapter", "rms"])
def test_every_plan_the_build_writes_passes(tmp_path, name):
    text, base = _programs(tmp_path)[name]
    rec, art = _record(tmp_path, text, base)
    assert _problems(rec, art) == []


def test_currency_text_is_read_as_the_plan_writes_it():
    for cur in (Cur.strided(64), Cur.contig(8), Cur.packed(4, 16), Cur.strided(3, "fp32"), Cur.contig(5, "fp32")):
        parsed = parse_currency(str(cur))
        assert mil_type(parsed) == cur.mil_type and buffer_elems(parsed) == cur.buffer_elems
    for bad in ("strided[-1]", "strided[64", "loose[4]", "packed[4]", "contig[4]:int8", 7, None):
        assert parse_currency(bad) is None


def _edit(rec, path, value):
    rec = copy.deepcopy(rec)
    d = rec
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value(d[path[-1]]) if callable(value) else value
    return rec


# (what is edited, the edit, a fragment of the one problem it must give)
EDITS = [
    (("order",), [99], "order must list node indices below"),
    (("order",), lambda o: o + o[:1], "order must name each of the"),
    (("order",), lambda o: o[::-1], "runs node"),
    (("nodes", 0, "binds", 0), {"node": 99}, "nodes[0].binds[0] is"),
    (("nodes", 0, "binds", 0), {"ext": "nope"}, "nodes[0].binds[0] is"),
    (("nodes", 0, "ins", 0), "strided[46340]", "nodes[0].ins say the program reads"),
    (("nodes", 0, "ins", 0), "strided[99999999999]", "over max_elements"),
    (("nodes", 0, "out"), "strided[64]", "nodes[0].out says the program writes"),
    (("nodes", 0, "alias"), [[0, 7]], "nodes[0].alias holds"),
    (("outputs", "y"), 99, "outputs.y is 99"),
    (("externals", "x"), [[0, 5]], "externals.x names"),
    (("ext_currencies", "x"), "strided[x]", "ext_currencies.x is"),
]


@pytest.mark.parametrize("path, value, fragment", EDITS)
def test_an_edited_record_is_one_problem_naming_the_field(tmp_path, path, value, fragment):
    rec, art = _record(tmp_path, program(ADAPTER))
    problems = _problems(_edit(rec, path, value), art)
    assert problems and all(p.startswith("graph g: ") for p in problems)
    assert any(fragment in p for p in problems), problems


def _weighted(rec):
    """The index of a node with a weight in its weight.bin, and that weight's name."""
    for i, n in enumerate(rec["nodes"]):
        both = sorted(set(n.get("shapes") or ()) & set(n.get("blobs") or ()))
        if both:
            return i, both[0]
    raise AssertionError("no weighted node")


def test_weight_shapes_and_offsets_must_be_the_programs(tmp_path):
    text, base = _programs(tmp_path)["swiglu"]  # its matvecs hold their weights (adapters hold none: layout steps)
    rec, art = _record(tmp_path, text, base)
    i, w = _weighted(rec)
    assert _problems(rec, art) == []
    huge = _problems(_edit(rec, ("nodes", i, "shapes", w), [46340, 46340]), art)
    assert any(f"nodes[{i}].shapes.{w} is [46340, 46340]" in p and "its blob holds" in p for p in huge), huge
    blob = _problems(_edit(rec, ("nodes", i, "blobs", w, "shape"), [46340, 46340]), art)
    assert any(f"nodes[{i}].blobs.{w} needs bytes" in p for p in blob), blob
    moved = _problems(_edit(rec, ("nodes", i, "blobs", w, "offset"), 128), art)
    assert any(f"nodes[{i}].blobs.{w}" in p for p in moved), moved


def test_a_host_node_is_checked_too(tmp_path):
    rec, art = _record(tmp_path, RMS)
    h = next(i for i, n in enumerate(rec["nodes"]) if n["route"] == "host_rsqrt_broadcast")
    assert any("n is 1000000" in p for p in _problems(_edit(rec, ("nodes", h, "n"), 1000000), art))
    assert any(".src is" in p for p in _problems(_edit(rec, ("nodes", h, "src"), {"node": 42}), art))


def _built(p):
    p.doit("build")
    m = json.loads((p.artifacts / "manifest.json").read_text())
    return m, m["graphs"]["swiglu"]


@pytest.mark.parametrize("edit, fragment", [
    (lambda g: g.__setitem__("order", [99]), "graph swiglu: order must list node indices below"),
    (lambda g: g["nodes"][_weighted(g)[0]]["shapes"].__setitem__(_weighted(g)[1], [46340, 46340]), "is [46340, 46340]"),
])
def test_verify_and_load_refuse_an_edited_plan_with_one_line(mil_project, edit, fragment):
    p = mil_project
    m, g = _built(p)
    edit(g)
    (p.artifacts / "manifest.json").write_text(json.dumps(m, indent=1))
    r = p.npubuild("verify", check=False)
    assert r.rc != 0 and fragment in r.out + r.err and "Traceback" not in r.out + r.err
    r = p.npubuild("run", "swiglu", "--example", check=False)
    assert r.rc != 0 and fragment in r.err and "Traceback" not in r.err
    with pytest.raises(UserError) as e:
        npubuild.load(p.artifacts)
    assert fragment in str(e.value)


def test_load_without_verifying_files_still_refuses_an_edited_plan(mil_project):
    p = mil_project
    m, g = _built(p)
    g["order"] = [99]
    (p.artifacts / "manifest.json").write_text(json.dumps(m, indent=1))
    rt = npubuild.load(p.artifacts, verify_files=False)
    with pytest.raises(UserError) as e:
        rt.graph("swiglu")
    assert "graph swiglu: order must list node indices below" in str(e.value) and "rebuild" in str(e.value)


def _mutations(value, rng, depth=0):
    """Random replacements of parts of a record: other types, out-of-range numbers, unhashable keys' values."""
    junk = [None, -1, 99, 2**40, "x", "strided[0]", [], {}, [1, 2], {"node": [1]}, {"ext": ["x"]}, 1.5, True, [[0, 99]]]
    if isinstance(value, dict) and value and depth < 6:
        k = rng.choice(sorted(value))
        out = dict(value)
        out[k] = _mutations(value[k], rng, depth + 1) if rng.random() < 0.7 else rng.choice(junk)
        return out
    if isinstance(value, list) and value and depth < 6:
        i = rng.randrange(len(value))
        out = list(value)
        out[i] = _mutations(value[i], rng, depth + 1) if rng.random() < 0.7 else rng.choice(junk)
        return out
    return rng.choice(junk)


@pytest.mark.parametrize("name", ["swiglu", "adapter", "rms"])
def test_random_damage_to_a_record_is_problems_never_an_exception(tmp_path, name):
    import random

    text, base = _programs(tmp_path)[name]
    rec, art = _record(tmp_path, text, base)
    rng = random.Random(23)
    found = 0
    for _ in range(400):
        damaged = _mutations(rec, rng)
        problems = _problems(damaged, art)  # never raises
        found += bool(problems)
        assert all(isinstance(p, str) and p.startswith("graph g: ") and "\n" not in p for p in problems)
    assert found > 100  # most random damage is seen


def test_a_route_attribute_edited_in_the_manifest_is_one_message_at_run_time(mil_project):
    p = mil_project
    m, g = _built(p)
    node = next(n for n in g["nodes"] if isinstance(n.get("attrs"), dict) and "shape" in n["attrs"])
    node["attrs"]["shape"] = [3, 7]  # no program of this plan has that shape: verify cannot know what a route's attribute means
    (p.artifacts / "manifest.json").write_text(json.dumps(m, indent=1))
    r = p.npubuild("run", "swiglu", "--example", check=False)
    assert r.rc == 1 and "graph 'swiglu': its plan does not fit its programs" in r.err and "Traceback" not in r.err
