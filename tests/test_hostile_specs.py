"""Specs from someone else: names never become paths outside the project, data
is read only from inside it, and every size and depth is bounded before it is
spent. Each case is one diagnostic at file:line, never a traceback or a hang."""
from __future__ import annotations

import os
import struct
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from npubuild.core.config import load_config
from npubuild.core.errors import SpecError, UserError
from npubuild.core.limits import Limits, limits_from_table
from npubuild.specfile.load import load_specs

G = "specs/graphs/g.yaml"
K = "specs/kernels/k.yaml"


def write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text))
    return p


def errors(root: Path, limits: Limits = Limits(), data_roots=None) -> list[str]:
    with pytest.raises(SpecError) as ei:
        load_specs(root / "specs", root, limits=limits, data_roots=data_roots)
    return [str(d) for d in ei.value.diagnostics]


def graph(name="g", inputs="x: {shape: [4]}", constants="", node="y: {op: relu, inputs: [x]}"):
    consts = f"\n    constants:\n      {constants}" if constants else ""
    return f"graphs:\n  {name}:\n    inputs:\n      {inputs}{consts}\n    nodes:\n      {node}\n    outputs: [y]\n"


@pytest.mark.parametrize("name", ["'../../../X'", "'a/b'", "'/abs'", "'..'", "'.hidden'", "'a\\0b'", "x" * 129, "'é'"])
def test_graph_names_that_are_not_plain_names_are_refused(tmp_path, name):
    write(tmp_path, G, graph(name=name))
    (line,) = errors(tmp_path)
    assert line.startswith(f"{G}:2: graph name ") and "is not a valid name" in line and "limits.max_name_length" in line


@pytest.mark.parametrize("where", ["inputs", "constants", "node"])
def test_tensor_constant_and_node_names_are_checked(tmp_path, where):
    bad = "'../up'"
    if where == "inputs":
        text = graph(inputs=f"{bad}: {{shape: [4]}}", node="y: {op: relu, inputs: [x]}")
    elif where == "constants":
        text = graph(constants=f"{bad}: {{value: [1.0]}}")
    else:
        text = graph(node=f"{bad}: {{op: relu, inputs: [x]}}")
    write(tmp_path, G, text)
    lines = errors(tmp_path)
    assert any("'../up' is not a valid name" in line for line in lines), lines


def test_family_name_too_long_for_a_file_system(tmp_path):
    write(tmp_path, K, f"kernels:\n  {'f' * 300}:\n    op: relu\n    shapes: [[4]]\n")
    (line,) = errors(tmp_path)
    assert line.startswith(f"{K}:2: kernel family name 'fff") and "at most 128 characters" in line


def test_names_at_the_limits_load(tmp_path):
    write(tmp_path, G, graph(name="g" * 64, inputs="x.in-1_: {shape: [4]}", node="_y: {op: relu, inputs: [x.in-1_]}").replace("outputs: [y]", "outputs: [_y]"))
    spec = load_specs(tmp_path / "specs", tmp_path)
    assert list(spec.graphs) == ["g" * 64]


def test_yaml_alias_bomb_is_refused_quickly(tmp_path):
    levels = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev, cur = chr(96 + i), chr(97 + i)
        levels.append(f"{cur}: &{cur} [{', '.join([f'*{prev}'] * 9)}]")
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes: [[4]]\n    doc:\n" + "".join(f"      {line}\n" for line in levels))
    t = time.monotonic()
    lines = errors(tmp_path)
    assert time.monotonic() - t < 10  # no expansion of 9**9 values
    assert any("limits.yaml_max_alias_nodes" in line and line.startswith(f"{K}:") for line in lines), lines


def test_alias_expansion_at_and_past_its_limit(tmp_path):
    # one alias of a 3-value list adds 3 values (the list and its two items)
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes: &s [[4]]\n    doc: *s\n")
    assert load_specs(tmp_path / "specs", tmp_path, limits=Limits(yaml_max_alias_nodes=3)).families["f"]
    (line,) = errors(tmp_path, Limits(yaml_max_alias_nodes=2))
    # PyYAML resolves an alias to its anchored node, so the anchor's line is the one reported
    assert line.startswith(f"{K}:4: aliases of the value anchored here expand this file past the limit of 2 values "
                           "(limits.yaml_max_alias_nodes)")


def test_elements_at_and_past_their_limit(tmp_path):
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes:\n      - [4, 8]\n")
    assert load_specs(tmp_path / "specs", tmp_path, limits=Limits(max_elements=32)).families["f"]
    (line,) = errors(tmp_path, Limits(max_elements=31))
    assert line == f"{K}:5: kernel family 'f': a shape has 32 elements, over the limit of 31 (limits.max_elements)"


def test_yaml_nesting_is_bounded(tmp_path):
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes: [[4]]\n    doc: " + "[" * 500 + "]" * 500 + "\n")
    (line,) = errors(tmp_path)
    assert line == f"{K}:5: values are nested more than 64 deep (limits.yaml_max_depth); flatten the spec"
    # at the limit: 64 levels load (the file's own mappings count too)
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes: [[4]]\n    doc: " + "[" * 61 + "]" * 61 + "\n")
    assert load_specs(tmp_path / "specs", tmp_path).families["f"]


def test_python_tags_on_collections_are_rejected(tmp_path):
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes: [[4]]\n    doc: !!python/object/apply:os.system [ls]\n")
    (line,) = errors(tmp_path)
    assert line == f"{K}:5: tag tag:yaml.org,2002:python/object/apply:os.system is not allowed in specs; remove it"


def test_rank_is_bounded_at_spec_time(tmp_path):
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes:\n      - " + str([1] * 1000) + "\n")
    (line,) = errors(tmp_path)
    assert line == f"{K}:5: kernel family 'f': a shape has 1000 dimensions, over the limit of 8 (limits.max_rank)"
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes:\n      - " + str([1] * 8) + "\n")
    assert load_specs(tmp_path / "specs", tmp_path).families["f"].instances


@pytest.mark.parametrize("dtype,value,problem", [
    ("i8", "[1000]", "1000 is outside the range of i8 (-128 .. 127)"),
    ("i64", f"[{2**70}]", f"{2**70} is outside the range of i64"),
    ("i32", "[1.5]", "1.5 is not an integer; i32 constants take integers"),
    ("f16", "[1.0e+6]", "1000000.0 overflows f16"),
    ("bool", "[2]", "2 is not a bool"),
])
def test_inline_constants_must_fit_their_dtype(tmp_path, dtype, value, problem):
    write(tmp_path, G, graph(constants=f"c: {{value: {value}, dtype: {dtype}}}"))
    lines = errors(tmp_path)
    assert any(f"{G}:6: constant 'c': {problem}" in line for line in lines), lines


def test_inline_constant_bytes_are_bounded(tmp_path):
    write(tmp_path, G, graph(constants="c: {value: [[1.0, 2.0], [3.0, 4.0]]}"))
    (line,) = errors(tmp_path, Limits(max_constant_bytes=15))
    assert line == f"{G}:6: constant 'c': it is 16 bytes, over the limit of 15 (limits.max_constant_bytes)"
    assert load_specs(tmp_path / "specs", tmp_path, limits=Limits(max_constant_bytes=16)).graphs["g"]


def _npy_constant(tmp_path, rel="specs/graphs/c.npy"):
    write(tmp_path, G, graph(constants=f"c: {{file: {Path(rel).name}}}"))
    return tmp_path / rel


def test_npy_header_claiming_more_than_the_file_holds(tmp_path):
    p = _npy_constant(tmp_path)
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1073741824,), }"
    header += b" " * (63 - len(header) % 64) + b"\n"
    p.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + b"\0" * 16)
    (line,) = errors(tmp_path)
    assert line.startswith(f"{G}:6: constant 'c': 'c.npy' cannot be used: it is 4294967296 bytes, over the limit")
    np.save(p, np.ones(3, np.float32))
    with p.open("ab") as f:
        f.write(b"trailing")  # a file longer than its header says is refused too
    (line,) = errors(tmp_path)
    assert "its header says 140 bytes in all but the file has 148" in line


@pytest.mark.parametrize("header", [b"not a dict", b"{'descr': '<f4'}", b"{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}",
                                    b"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", b"(" * 5000])
def test_malformed_npy_headers(tmp_path, header):
    p = _npy_constant(tmp_path)
    p.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header)
    (line,) = errors(tmp_path)
    assert line.startswith(f"{G}:6: constant 'c': 'c.npy' cannot be used: ")


def test_npy_outside_the_project_is_not_read(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    np.save(outside / "secret.npy", np.ones(4, np.float32))
    proj = tmp_path / "proj"
    write(proj, G, graph(constants="c: {file: ../../../elsewhere/secret.npy}"))
    (line,) = errors(proj)
    assert "is outside the project (and any data_dirs)" in line and line.startswith(f"{G}:6:")
    (proj / "specs/graphs/link.npy").symlink_to(outside / "secret.npy")
    write(proj, G, graph(constants="c: {file: link.npy}"))
    (line,) = errors(proj)
    assert "is outside the project" in line
    # listed in data_dirs, it is read
    assert load_specs(proj / "specs", proj, data_roots=(proj, outside)).graphs["g"]


def test_npy_fifo_does_not_block(tmp_path):
    p = _npy_constant(tmp_path)
    os.mkfifo(p)
    done = threading.Event()
    result = []

    def load():
        result.append(errors(tmp_path))
        done.set()

    threading.Thread(target=load, daemon=True).start()
    assert done.wait(10), "loading a spec whose constant is a FIFO blocked"
    (line,) = result[0]
    assert "is not a regular file" in line


def test_spec_file_size_is_bounded(tmp_path):
    write(tmp_path, K, "kernels:\n  f:\n    op: relu\n    shapes: [[4]]\n" + "# padding\n" * 20)
    (line,) = errors(tmp_path, Limits(spec_max_file_size=100))
    assert line == f"{K}: the file is 245 bytes, over the limit of 100 (limits.spec_max_file_size)"
    assert load_specs(tmp_path / "specs", tmp_path, limits=Limits(spec_max_file_size=245)).families["f"]


def test_limits_come_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.npubuild.limits]\nmax_rank = 2\nmax_constant_bytes = '1K'\nstore_request_timeout = 1.5\n")
    lim = load_config(tmp_path).limits
    assert (lim.max_rank, lim.max_constant_bytes, lim.store_request_timeout) == (2, 1024, 1.5)
    assert lim.bundle_max_entries == Limits().bundle_max_entries
    for bad, msg in [("max_rank = 0", "limits.max_rank must be a positive integer"),
                     ("max_rank = true", "limits.max_rank must be a positive integer"),
                     ("max_constant_bytes = '-1K'", "limits.max_constant_bytes: a size must be a finite"),
                     ("store_request_timeout = 'inf'", "limits.store_request_timeout must be a positive number"),
                     ("max_ranks = 3", "unknown limit 'max_ranks'")]:
        (tmp_path / "pyproject.toml").write_text(f"[tool.npubuild.limits]\n{bad}\n")
        with pytest.raises(UserError, match=msg):
            load_config(tmp_path)
    with pytest.raises(UserError, match="must be a table"):
        limits_from_table(3, "pyproject.toml")


def test_build_of_a_hostile_graph_name_writes_nothing_outside(tmp_path):
    from .conftest import new_project

    victim = tmp_path / "X"
    p = new_project(tmp_path / "deep" / "proj", graphs=graph(name="'../../../X'", constants="c: {value: [2.0]}",
                                                                   node="y: {op: mul, inputs: [x, c]}"))
    r = p.doit(check=False)
    assert r.rc != 0 and "Traceback" not in r.out + r.err
    assert "graph name '../../../X' is not a valid name" in r.out + r.err
    assert not victim.exists() and not (tmp_path / "deep" / "X").exists()


def test_onnx_length_names_build_and_run(project):
    """Graph, node and tensor names as ONNX exporters write them (about 100 characters) build and run."""
    import numpy as np

    import npubuild

    long = "model_encoder_layers_11_attention_output_dense_" + "x" * 60
    node, graph = long[:100], "g_" + long[:98]
    p = project(None, f"graphs:\n  {graph}:\n    inputs: {{{long}: {{shape: [8]}}}}\n    nodes:\n"
                      f"      {node}: {{op: relu, inputs: [{long}]}}\n    outputs: [{node}]\n")
    p.doit("build")
    rt = npubuild.load(p.artifacts)
    g = rt.graph(graph, backend="host")
    g.set_params()
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    np.testing.assert_array_equal(g.run(**{long: x})[node], np.maximum(x, 0))
    rt.close()
