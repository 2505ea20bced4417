"""Malformed specs: every problem is a Diagnostic at the exact ``file:line``, with
the fix in its message, and all of them are reported together in one SpecError.

Each case is a small project written into ``tmp_path``: ``files`` maps a path
relative to the project root to its YAML text (line 1 is the first line of the
string), ``expected`` lists ``(location, message fragment)`` for every
diagnostic. The count must match exactly, so a redundant cascade fails a case.
A location is ``file:line`` as printed, or just ``file`` for a problem without
a line (an empty file).
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from npubuild.core.errors import SpecError
from npubuild.engine.plan import restriction_checks
from npubuild.specfile.load import load_specs
from npubuild.targets.xdna.rules import GELU_ERF_TEXT

REPO = Path(__file__).resolve().parent.parent
K = "specs/kernels/a.yaml"
G = "specs/graphs/g.yaml"


def write(root: Path, files: dict) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(textwrap.dedent(text))


def load_errors(root: Path, cache_dir: Path | None = None) -> list[str]:
    with pytest.raises(SpecError) as ei:
        # the targets' restrictions, as the build passes them (npubuild.engine.plan)
        load_specs(root / "specs", root, cache_dir=cache_dir, restriction_checks=restriction_checks())
    lines = [str(d) for d in ei.value.diagnostics]
    assert str(ei.value) == "\n".join(lines)
    return lines


def check(lines: list[str], expected: list[tuple[str, str]]) -> None:
    shown = "\n".join(lines)
    assert len(lines) == len(expected), f"expected {len(expected)} diagnostics, got:\n{shown}"
    for loc, frag in expected:
        assert any(l.startswith(loc + ": ") and frag in l for l in lines), f"no '{loc}: ...{frag}...' in:\n{shown}"


# A graph with x: [4, 8] input, w: [8, 8] param; NODES goes at line 6.
GRAPH = """\
graphs:
  g:
    inputs: {{x: {{shape: [4, 8], dtype: f32}}}}
    params: {{w: {{shape: [8, 8]}}}}
    nodes:
{nodes}
    outputs: [{out}]
"""


def graph(nodes: str, out: str = "y", **extra) -> dict:
    return {G: GRAPH.format(nodes=textwrap.indent(textwrap.dedent(nodes).strip("\n"), "      "), out=out), **extra}


GRAPH_BF16_CONST = """\
graphs:
  g:
    inputs: {x: {shape: [4], dtype: bf16}}
    constants:
      c: {value: [1.0, 2.0, 3.0, 4.0], dtype: bf16}
    nodes:
      y: {op: add, inputs: [x, c]}
    outputs: [y]
"""


def fam(body: str, name: str = "f") -> dict:
    """One kernel family in specs/kernels/a.yaml; ``body`` starts at line 3."""
    return {K: f"kernels:\n  {name}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"}


CASES = [
    # ---- files and YAML -------------------------------------------------------------
    ("yaml_syntax", {K: "kernels:\n  f:\n    op: relu\n    shapes: [[4, 8]\n"},
     [(K + ":5", "YAML syntax error: did not find expected ',' or ']'; fix the YAML syntax")]),
    ("yaml_tab", {K: "kernels:\n\tf: {op: relu}\n"}, [(K + ":2", "YAML syntax error")]),
    ("empty_file", {K: ""}, [(K, "the file is empty; add a 'kernels:' or 'graphs:' mapping or delete it")]),
    ("comment_only_file", {K: "# nothing yet\n"}, [(K, "the file is empty")]),
    ("not_utf8", {K: b"kernels:\n  f: {op: r\xffelu}\n"}, [(K, "not UTF-8 text")]),
    ("file_not_a_mapping", {K: "- relu\n"}, [(K + ":1", "a spec file must be a mapping with a 'kernels:' key")]),
    ("unknown_top_level_key", {K: "kernel:\n  f: {op: relu, shapes: [[4]]}\n"},
     [(K + ":1", "unknown key 'kernel' in a kernels spec file (files under specs/kernels/ hold 'kernels:') (did you mean 'kernels'?)")]),
    ("graphs_in_kernels_file", {K: "kernels:\n  f: {op: relu, shapes: [[4]]}\ngraphs:\n  g: {}\n"},
     [(K + ":3", "unknown key 'graphs' in a kernels spec file")]),
    ("empty_kernels_mapping", {K: "kernels:\n"}, [(K + ":1", "'kernels:' must be a non-empty mapping of names")]),
    ("duplicate_yaml_key", fam("op: relu\nop: abs\nshapes: [[4]]"),
     [(K + ":4", "duplicate key 'op' (first at line 3); remove one")]),
    ("unknown_yaml_tag", fam("op: !fn relu\nshapes: [[4]]"),
     [(K + ":3", "cannot read 'relu' tagged !fn: could not determine a constructor for the tag '!fn'; remove the tag or quote the value")]),
    ("recursive_alias", fam("op: relu\nshapes: &s [[4], *s]"), [(K + ":4", "recursive alias")]),
    ("bad_merge_key", fam("<<: 3\nop: relu\nshapes: [[4]]"), [(K + ":3", "a merge key (<<) takes a mapping")]),
    # ---- kernel families ----------------------------------------------------------
    ("family_not_a_mapping", {K: "kernels:\n  f: relu\n"},
     [(K + ":2", "kernel family 'f' must be a mapping such as {op: relu, shapes: [[1024]]}")]),
    ("family_key_typo", fam("op: relu\nshape: [[4]]"),
     [(K + ":4", "unknown key 'shape' in kernel family 'f' (did you mean 'shapes'?); allowed keys: op, dtype, attrs, shapes, targets, device, xdna_body, sources, doc")]),
    ("every_attr_problem_at_once", fam("op: clamp\nattrs: {min: x, max: y, bogus: 1}\nshapes: [[4]]"),
     [(K + ":4", "attr 'min' must be a number, got 'x'"), (K + ":4", "attr 'max' must be a number, got 'y'"),
      (K + ":4", "op 'clamp' has no attr 'bogus' (attrs: min, max)")]),
    ("yaml11_float", fam("op: rms_norm\nattrs: {eps: 1e-6}\nshapes: [{x: [4, 8], gamma: [8]}]"),
     [(K + ":4", "attr 'eps' must be a number, got '1e-6' (YAML reads 1e-6 as text: write 1.0e-6)")]),
    ("missing_op", fam("dtype: f32\nshapes: [[4]]"),
     [(K + ":2", "kernel family 'f' has no 'op'; add 'op: <name>' (see `npubuild ops`)")]),
    ("missing_shapes", fam("op: relu"), [(K + ":2", "kernel family 'f' has no 'shapes'; add a list with one entry per kernel")]),
    ("unknown_op", fam("op: sofmax\nshapes: [[4]]"),
     [(K + ":3", "unknown op 'sofmax' in kernel family 'f' (did you mean 'softmax'?); `npubuild ops` lists them")]),
    ("op_not_a_name", fam("op: [relu]\nshapes: [[4]]"), [(K + ":3", "unknown op ['relu']")]),
    ("unknown_dtype", fam("op: relu\ndtype: f23\nshapes: [[4]]"),
     [(K + ":4", "unknown dtype 'f23' for kernel family 'f' (did you mean 'f32'?); use one of f32, f16, bf16, i8, u8, i4, u4, i32, i64, bool")]),
    ("dtype_not_allowed_for_op", fam("op: softmax\ndtype: i32\nshapes: [[4]]"),
     [(K + ":4", "kernel family 'f': op 'softmax' does not take dtype i32; use one of f32, f16, bf16")]),
    ("unknown_attr_at_key_line", fam("op: softmax\nattrs:\n  axsi:\n    0\nshapes: [[4]]"),
     [(K + ":5", "op 'softmax' has no attr 'axsi' (did you mean 'axis'?) (attrs: axis)")]),
    ("wrong_attr_type_at_value_line", fam("op: softmax\nattrs:\n  axis:\n    - 1\nshapes: [[4]]"),
     [(K + ":6", "kernel family 'f': attr 'axis' must be an integer, got [1]")]),
    ("attr_not_a_mapping", fam("op: softmax\nattrs: [axis, 1]\nshapes: [[4]]"),
     [(K + ":4", "attrs of kernel family 'f' must be a mapping such as {axis: -1}")]),
    ("attr_outside_choices", fam("op: gelu\nattrs: {approximate: tahn}\nshapes: [[4]]"),
     [(K + ":4", "attr 'approximate' of 'gelu' must be one of none, tanh; got 'tahn' (did you mean 'tanh'?)")]),
    ("cast_to_unknown_dtype", fam("op: cast\nattrs: {to: f23}\nshapes: [[4]]"),
     [(K + ":4", "attr 'to' of 'cast' must be one of f32, f16, bf16, i8, u8, i32, i64, bool; got 'f23' (did you mean 'f32'?)")]),
    ("missing_required_attr", fam("op: cast\nshapes: [[4]]"),
     [(K + ":2", "kernel family 'f': op 'cast' needs attr 'to' (a string)")]),
    ("attr_error_reported_once", fam("op: clamp\nattrs: {max: hi}\nshapes:\n  - [4]\n  - [8]"),
     [(K + ":4", "attr 'max' must be a number, got 'hi'")]),
    ("empty_shapes", fam("op: relu\nshapes: []"),
     [(K + ":4", "'shapes' of kernel family 'f' is empty; list at least one shape, e.g. - [32, 1024]")]),
    ("bad_dims", fam("op: relu\nshapes:\n  - [4, -2]\n  - [-1]\n  - [2.5]\n  - [a]\n  - [true]"),
     [(K + f":{n}", f"kernel family 'f': a shape must be a list of non-negative integers such as [32, 1024]; got {got}")
      for n, got in [(5, "[4, -2]"), (6, "[-1]"), (7, "[2.5]"), (8, "['a']"), (9, "[True]")]]),
    ("shape_without_outer_list", fam("op: relu\nshapes: [4, 8]"),
     [(K + ":4", "'shapes' of kernel family 'f' is a list of shapes, one entry per kernel; write shapes: [[4, 8]]")]),
    ("multi_input_shape_without_outer_list", fam("op: add\nshapes: [4, 8]"),
     [(K + ":4", "write shapes: [{a: [4, 8], b: [4, 8]}]")]),
    ("multi_input_plain_list", fam("op: add\nshapes:\n  - [4, 8]"),
     [(K + ":5", "kernel family 'f': op 'add' has several inputs; name them, e.g. {a: [..], b: [..]}")]),
    ("unknown_input_name", fam("op: add\nshapes:\n  - {a: [4]}\n  - a: [4]\n    bb: [4]"),
     [(K + ":5", "missing shape for input 'b' of 'add'; add b: [..] (inputs: a, b)"),
      (K + ":7", "kernel family 'f': op 'add' has no input 'bb' (did you mean 'b'?); inputs: a, b")]),
    ("misnamed_input_suggests_the_one_left", fam("op: add\nshapes:\n  - {a: [32, 1024], bias: [1024]}"),
     [(K + ":5", "op 'add' has no input 'bias' (did you mean 'b'?); inputs: a, b")]),
    ("attr_and_shape_problems_both_reported", fam("op: add\nattrs: {alpha: 1}\nshapes:\n  - [4]\n  - {a: [4], b: [-3]}"),
     [(K + ":4", "kernel family 'f': op 'add' has no attr 'alpha'"),
      (K + ":6", "op 'add' has several inputs; name them"),
      (K + ":7", "kernel family 'f': shape of 'b' must be a list of non-negative integers such as [32, 1024]; got [-3]")]),
    ("input_shape_not_a_list", fam("op: relu\nshapes:\n  - {x: 4}"),
     [(K + ":5", "kernel family 'f': shape of 'x' must be a list of non-negative integers")]),
    ("shape_inference_at_entry_line", fam("op: add\nshapes:\n  - {a: [4, 8], b: [8]}\n  - {a: [4, 8], b: [3]}"),
     [(K + ":6", "kernel family 'f': shapes 4x8 and 3 do not broadcast")]),
    ("axis_out_of_range", fam("op: softmax\nattrs: {axis: 2}\nshapes:\n  - [8, 4, 2]\n  - [4]"),
     [(K + ":7", "axis 2 is out of range for rank 1")]),
    ("concat_plain_list", fam("op: concat\nattrs: {axis: 0}\nshapes:\n  - [4, 8]"),
     [(K + ":6", "op 'concat' has several inputs; name them, e.g. {x0: [..], x1: [..]}")]),
    ("concat_gap_in_inputs", fam("op: concat\nattrs: {axis: 0}\nshapes:\n  - {x0: [4, 8], x2: [2, 8]}"),
     [(K + ":6", "the inputs of 'concat' are numbered from 0 without gaps (x0, x1); got x0, x2")]),
    ("concat_dims_mismatch", fam("op: concat\nattrs: {axis: 0}\nshapes:\n  - {x0: [4, 8], x1: [2, 7]}"),
     [(K + ":6", "concat: input 1 has shape [2, 7] but input 0 has [4, 8]; all dims except axis 0 must match")]),
    ("duplicate_family_across_files",
     {K: "kernels:\n  f: {op: relu, shapes: [[4]]}\n",
      "specs/kernels/b.yaml": "kernels:\n  g: {op: abs, shapes: [[4]]}\n  f: {op: abs, shapes: [[4]]}\n"},
     [("specs/kernels/b.yaml:3", "kernel 'f' is already defined at specs/kernels/a.yaml:2; names must be unique across files")]),
    ("unknown_target", fam("op: relu\ntargets: [ref, hots]\nshapes: [[4]]"),
     [(K + ":4", "unknown target 'hots' (did you mean 'host'?); known targets: ref, host, xdna, ane")]),
    ("targets_not_a_list", fam("op: relu\ntargets: host\nshapes: [[4]]"),
     [(K + ":4", "targets must be a list such as [ref, host]")]),
    ("xdna_gelu_approximate_none", fam("op: gelu\ntargets: [ref, xdna]\nshapes:\n  - [4, 8]"),
     [(K + ":6", f"kernel family 'f': gelu with input shapes [4x8] is not supported on xdna: {GELU_ERF_TEXT}; "
                 "change the shape/attrs or drop 'xdna' from targets")]),
    ("xdna_softmax_axis_0", fam("op: softmax\nattrs: {axis: 0}\ntargets: [ref, xdna]\nshapes:\n  - [32, 1024]\n  - [1024]"),
     [(K + ":7", "softmax with input shapes [32x1024] is not supported on xdna: softmax only over the last axis; "
                 "change the shape/attrs or drop 'xdna' from targets")]),
    ("xdna_f16_points_to_bf16", fam("op: relu\ndtype: f16\ntargets: [ref, xdna]\nshapes:\n  - [4, 8]"),
     [(K + ":7", "relu with input shapes [4x8] is not supported on xdna: no f16 tensors (Peano compiles every 16-bit "
                 "float as bfloat16, so f16 would be computed wrongly): use bf16, the NPU's float")]),
    ("xdna_bf16_movement_needs_32_bit_cells", fam("op: trilu\ndtype: bf16\ntargets: [ref, xdna]\nshapes:\n  - [4, 8]"),
     [(K + ":7", "trilu with input shapes [4x8] is not supported on xdna: f32, i32 only (the NPU data-movement "
                 "engines move 32-bit cells)")]),
    ("xdna_byte_transpose_names_the_rule", fam("op: transpose\ndtype: i8\ntargets: [ref, xdna]\nshapes:\n  - [4, 8]"),
     [(K + ":7", "transpose with input shapes [4x8] is not supported on xdna: f32, i32, bf16 only (the DMAs transpose "
                 "32-bit words (f32, i32); bf16 adds a core shuffle of 4x8 blocks, on npu1 only (rows a multiple of 4, "
                 "columns of 8))")]),
    # ---- graphs ---------------------------------------------------------------------
    ("graph_bf16_constant", {G: GRAPH_BF16_CONST},
     [(G + ":5", "graph constants cannot be bf16; declare it f32 and convert it with a cast node (op: cast, to: bf16)")]),
    ("graph_unknown_tensor", graph("h: {op: matmul, inputs: [x, ww]}\ny: {op: relu, inputs: [h]}"),
     [(G + ":6", "node 'h' of graph 'g' reads unknown tensor 'ww' (did you mean 'w'?); declare it under inputs/params/constants or add a node with that name")]),
    ("graph_cycle", graph("h: {op: add, inputs: [x, y]}\ny: {op: relu, inputs: [h]}"),
     [(G + ":6", "graph 'g' has a cycle: h -> y -> h; a node cannot depend on its own output")]),
    ("graph_self_loop", graph("y: {op: add, inputs: [x, y]}"), [(G + ":6", "node 'y' of graph 'g' reads its own output")]),
    ("graph_matmul_k_mismatch_at_node_line", graph("h:\n  op: matmul\n  inputs: [w, x]\ny: {op: relu, inputs: [h]}"),
     [(G + ":6", "node 'h' (matmul) of graph 'g': matmul: a is [M, K=8] but b is [K=4, N] (a [8, 8], b [4, 8]); its inputs are w: [8, 8] f32, x: [4, 8] f32")]),
    ("graph_add_not_broadcastable", graph("h: {op: relu, inputs: [x]}\ny: {op: add, inputs: [h, w]}"),
     [(G + ":7", "node 'y' (add) of graph 'g': shapes 4x8 and 8x8 do not broadcast; its inputs are h: [4, 8] f32, w: [8, 8] f32")]),
    ("graph_output_not_defined", graph("h: {op: relu, inputs: [x]}\ny: {op: relu, inputs: [h]}", out="z"),
     [(G + ":8", "output 'z' of graph 'g' is not a node or tensor; its nodes are h, y")]),
    ("graph_output_typo", graph("h: {op: relu, inputs: [x]}\nyy: {op: relu, inputs: [h]}", out="y"),
     [(G + ":8", "output 'y' of graph 'g' is not a node or tensor (did you mean 'yy'?)")]),
    ("graph_node_named_like_input", graph("x: {op: relu, inputs: [w]}\ny: {op: relu, inputs: [x]}"),
     [(G + ":6", "graph 'g': node 'x' has the name of a declared tensor (line 3); rename it")]),
    ("graph_too_many_inputs", graph("y: {op: relu, inputs: [x, w]}"),
     [(G + ":6", "node 'y' (relu) of graph 'g' has 2 inputs [x, w] but 'relu' takes 1 input (x); fix its 'inputs'")]),
    ("graph_too_few_inputs", graph("y: {op: add, inputs: [x]}"),
     [(G + ":6", "node 'y' (add) of graph 'g' has 1 input [x] but 'add' takes 2 inputs (a, b); fix its 'inputs'")]),
    ("graph_unknown_op_no_cascade", graph("h: {op: sofmax, inputs: [x]}\ny: {op: relu, inputs: [h]}"),
     [(G + ":6", "unknown op 'sofmax' in node 'h' of graph 'g' (did you mean 'softmax'?)")]),
    ("graph_node_key_typo_no_cascade", graph("h: {op: relu, input: [x]}\ny: {op: relu, inputs: [h]}"),
     [(G + ":6", "unknown key 'input' in node 'h' of graph 'g' (did you mean 'inputs'?); allowed keys: op, inputs, attrs, dtype")]),
    ("graph_section_typos_no_cascade",
     {G: "graphs:\n  g:\n    input: {x: {shape: [4]}}\n    nodes:\n      y: {op: relu, inputs: [x]}\n    output: [y]\n"},
     [(G + ":3", "unknown key 'input' in graph 'g' (did you mean 'inputs'?)"),
      (G + ":6", "unknown key 'output' in graph 'g' (did you mean 'outputs'?)")]),
    ("graph_missing_sections", {G: "graphs:\n  g:\n    nodes:\n      y: {op: relu, inputs: [x]}\n"},
     [(G + ":2", "graph 'g' has no 'inputs'; declare them as name: {shape: [..], dtype: f32}"),
      (G + ":2", "graph 'g' needs 'outputs': a list of node names, e.g. outputs: [y]")]),
    ("graph_missing_inputs_no_cascade", {G: "graphs:\n  g:\n    nodes:\n      y: {op: relu, inputs: [x]}\n    outputs: [y]\n"},
     [(G + ":2", "graph 'g' has no 'inputs'")]),
    ("graph_input_without_shape_no_cascade",
     {G: "graphs:\n  g:\n    inputs:\n      x: {shap: [4, 8]}\n    nodes:\n      y: {op: relu, inputs: [x]}\n    outputs: [y]\n"},
     [(G + ":4", "unknown key 'shap' in input 'x' (did you mean 'shape'?); allowed keys: shape, dtype")]),
    ("graph_input_bad_shape_no_cascade",
     {G: "graphs:\n  g:\n    inputs:\n      x: {shape: [4, -8]}\n    nodes:\n      y: {op: relu, inputs: [x]}\n    outputs: [y]\n"},
     [(G + ":4", "shape of input 'x' must be a list of non-negative integers such as [32, 1024]; got [4, -8]")]),
    ("graph_param_unknown_dtype",
     {G: "graphs:\n  g:\n    inputs: {x: {shape: [4]}}\n    params:\n      w: {shape: [4], dtype: float32}\n"
         "    nodes:\n      y: {op: add, inputs: [x, w]}\n    outputs: [y]\n"},
     [(G + ":5", "unknown dtype 'float32' for param 'w'")]),
    ("graph_attr_error_at_attr_line",
     graph("h:\n  op: softmax\n  inputs: [x]\n  attrs:\n    axsi: 0\ny: {op: relu, inputs: [h]}"),
     [(G + ":10", "node 'h' of graph 'g': op 'softmax' has no attr 'axsi' (did you mean 'axis'?)")]),
    ("graph_attr_error_no_cascade",
     graph("h: {op: gelu, inputs: [x], attrs: {approximate: fast}}\ny: {op: relu, inputs: [h]}"),
     [(G + ":6", "node 'h' of graph 'g': attr 'approximate' of 'gelu' must be one of none, tanh; got 'fast'")]),
    ("graph_all_node_problems_reported",
     graph("h: {op: relu, inputs: [xx]}\no: {op: matmul, inputs: [w, x]}\nq: {op: relu, inputs: [o]}\ny: {op: add, inputs: [x, w]}"),
     [(G + ":6", "node 'h' of graph 'g' reads unknown tensor 'xx' (did you mean 'x'?)"),
      (G + ":7", "node 'o' (matmul) of graph 'g': matmul: a is [M, K=8] but b is [K=4, N]"),
      (G + ":9", "node 'y' (add) of graph 'g': shapes 4x8 and 8x8 do not broadcast")]),
    ("graph_node_dtype_defaults_to_first_input",
     graph("h: {op: cast, inputs: [x], attrs: {to: i32}}\ny: {op: softmax, inputs: [h]}"),
     [(G + ":7", "node 'y' (softmax) of graph 'g': op 'softmax' does not take dtype i32 (allowed: f32, f16, bf16); its inputs are h: [4, 8] i32 "
                 "(the node's dtype defaults to its first input's; set 'dtype:' if the op needs another)")]),
    ("graph_constant_value_and_file",
     {G: "graphs:\n  g:\n    inputs: {x: {shape: [2]}}\n    constants:\n      c: {value: [1.0, 2.0], file: c.npy}\n"
         "    nodes:\n      y: {op: add, inputs: [x, c]}\n    outputs: [y]\n"},
     [(G + ":5", "constant 'c' needs exactly one of 'value' (inline list) or 'file' (a .npy file); remove one")]),
    ("graph_constant_missing_npy",
     {G: "graphs:\n  g:\n    inputs: {x: {shape: [2]}}\n    constants:\n      t: {file: table.npy}\n"
         "    nodes:\n      y: {op: add, inputs: [x, t]}\n    outputs: [y]\n"},
     [(G + ":5", "constant 't': file 'table.npy' not found or not a .npy file (paths are relative to the spec file)")]),
    ("graph_constant_ragged_value",
     {G: "graphs:\n  g:\n    inputs: {x: {shape: [2]}}\n    constants:\n      c:\n        value: [[1, 2], [3]]\n"
         "    nodes:\n      y: {op: add, inputs: [x, c]}\n    outputs: [y]\n"},
     [(G + ":6", "constant 'c': value must be a number or a rectangular nested list of numbers")]),
    ("graph_constant_shape_mismatch",
     {G: "graphs:\n  g:\n    inputs: {x: {shape: [2]}}\n    constants:\n      c: {value: [1.0, 2.0], shape: [3]}\n"
         "    nodes:\n      y: {op: add, inputs: [x, c]}\n    outputs: [y]\n"},
     [(G + ":5", "constant 'c': value has shape [2] but shape says [3]")]),
    ("duplicate_graph_across_files",
     {**graph("y: {op: relu, inputs: [x]}"), "specs/graphs/h.yaml": GRAPH.format(nodes="      y: {op: relu, inputs: [x]}", out="y")},
     [("specs/graphs/h.yaml:2", "graph 'g' is already defined at specs/graphs/g.yaml:2; names must be unique across files")]),
    ("graph_unknown_target", {G: GRAPH.format(nodes="      y: {op: relu, inputs: [x]}", out="y") + "    targets: [ref, npu]\n"},
     [(G + ":8", "unknown target 'npu'; known targets: ref, host, xdna, ane")]),
    ("graph_xdna_restrictions",
     {G: "graphs:\n  g:\n    inputs: {x: {shape: [4, 8]}}\n    targets: [ref, xdna]\n    nodes:\n"
         "      h: {op: gelu, inputs: [x], attrs: {approximate: tanh}}\n"
         "      y: {op: gelu, inputs: [h]}\n      z: {op: softmax, inputs: [y], attrs: {axis: 0}}\n    outputs: [z]\n"},
     [(G + ":7", f"node 'y' of graph 'g': gelu with input shapes [4x8] is not supported on xdna: {GELU_ERF_TEXT}"),
      (G + ":8", "node 'z' of graph 'g': softmax with input shapes [4x8] is not supported on xdna: softmax only over the last axis; change the shape/attrs or drop 'xdna' from targets")]),
    ("attr_on_op_without_attrs", fam("op: relu\nattrs: {alpha: 1}\nshapes: [[4]]"),
     [(K + ":4", "op 'relu' has no attr 'alpha': it takes no attrs; remove it")]),
    ("shape_too_large", fam("op: relu\nshapes: [[65536, 65536]]"),
     [(K + ":4", "kernel family 'f': a shape has 4294967296 elements, over the limit of 2147483647 (limits.max_elements)")]),
]


@pytest.mark.parametrize("files, expected", [pytest.param(f, e, id=i) for i, f, e in CASES])
def test_spec_error(tmp_path, files, expected):
    write(tmp_path, files)
    check(load_errors(tmp_path), expected)


def test_case_count():
    assert len(CASES) >= 24


def test_all_problems_in_all_files_reported_together(tmp_path):
    files = {
        K: "kernels:\n  f:\n    op: sofmax\n    shapes: [[4]]\n  r:\n    op: relu\n    shapes: [[4, -2]]\n",
        "specs/kernels/b.yaml": "kernels:\n  f: {op: relu, shapes: [[4]]}\n  x: {op: add, shapes: [[4]]}\n",
        "specs/kernels/c.yaml": "kernels: {z: [}\n",
        **graph("h: {op: relu, inputs: [xx]}\ny: {op: relu, inputs: [x]}", out="q"),
    }
    write(tmp_path, files)
    check(load_errors(tmp_path), [
        (K + ":3", "unknown op 'sofmax'"),
        (K + ":7", "got [4, -2]"),
        ("specs/kernels/b.yaml:2", "kernel 'f' is already defined at specs/kernels/a.yaml:2"),
        ("specs/kernels/b.yaml:3", "op 'add' has several inputs"),
        ("specs/kernels/c.yaml:1", "YAML syntax error"),
        (G + ":6", "reads unknown tensor 'xx' (did you mean 'x'?)"),
        (G + ":8", "output 'q' of graph 'g' is not a node or tensor"),
    ])


def test_valid_specs_load(tmp_path):
    """The counterpart of the cases: merge keys, .npy constants relative to the
    spec file, variadic concat and node dtypes load without a diagnostic."""
    np.save(tmp_path / "table.npy", np.arange(8, dtype=np.float32))  # not next to the spec: must not be found
    (tmp_path / "specs/graphs/data").mkdir(parents=True)
    np.save(tmp_path / "specs/graphs/data/table.npy", np.arange(8, dtype=np.float32))
    write(tmp_path, {
        K: """\
            kernels:
              base: &base
                op: softmax
                dtype: f32
                attrs: {axis: -1}
                shapes: [[32, 1024]]
              half:
                <<: *base
                dtype: f16
              cat:
                op: concat
                attrs: {axis: 1}
                shapes:
                  - {x0: [2, 3], x1: [2, 5], x2: [2, 1]}
            """,
        G: """\
            graphs:
              g:
                inputs: {x: {shape: [4, 8], dtype: f32}}
                params: {w: {shape: [8, 8]}}
                constants:
                  c: {value: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]}
                  t: {file: data/table.npy}
                nodes:
                  h: {op: matmul, inputs: [x, w]}
                  a: {op: add, inputs: [h, c]}
                  b: {op: mul, inputs: [a, t]}
                  y: {op: cast, inputs: [b], attrs: {to: i32}}
                outputs: [y]
            """,
    })
    spec = load_specs(tmp_path / "specs", tmp_path)
    assert spec.families["half"].dtype == "f16" and spec.families["half"].op == "softmax"
    assert [i.id for i in spec.families["base"].instances] == ["softmax_f32_32x1024"]
    assert [i.id for i in spec.families["cat"].instances] == ["concat_f32_2x3_2x5_2x1_axis-1"]
    g = spec.graphs["g"]
    assert g.constants["t"].shape == (8,) and g.constants["t"].file == (tmp_path / "specs/graphs/data/table.npy").resolve()
    assert [s.node for s in g.steps] == ["h", "a", "b", "y"]
    assert g.tensors["y"].dtype == "i32" and g.tensors["b"].dtype == "f32"


def test_bf16_kernels_and_graph_tensors_load(tmp_path):
    write(tmp_path, {
        K: """\
            kernels:
              npu_float:
                op: softmax
                dtype: bf16
                targets: [ref, host, xdna]
                shapes: [[32, 1024]]
            """,
        G: """\
            graphs:
              g:
                inputs: {x: {shape: [4, 8], dtype: bf16}}
                params: {w: {shape: [8, 8], dtype: bf16}}
                nodes:
                  h: {op: matmul, inputs: [x, w]}
                  y: {op: cast, inputs: [h], attrs: {to: f32}}
                outputs: [y]
            """,
    })
    spec = load_specs(tmp_path / "specs", tmp_path)
    assert [i.id for i in spec.families["npu_float"].instances] == ["softmax_bf16_32x1024"]
    g = spec.graphs["g"]
    assert g.tensors["h"].dtype == "bf16" and g.tensors["y"].dtype == "f32"


def test_cli_prints_diagnostics_without_traceback(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.npubuild]\ntargets = ["ref"]\n')
    write(tmp_path, {
        K: "kernels:\n  f:\n    op: sofmax\n    shapes: [[4]]\n",
        **graph("y: {op: relu, inputs: [xx]}"),
    })
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-m", "npubuild.cli", "list"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert f"{K}:3: unknown op 'sofmax' in kernel family 'f' (did you mean 'softmax'?)" in r.stderr
    assert f"{G}:6: node 'y' of graph 'g' reads unknown tensor 'xx' (did you mean 'x'?)" in r.stderr
    assert r.stdout == ""


def test_parse_cache_keeps_diagnostics_and_notices_edits(tmp_path):
    cache = tmp_path / "cache"
    write(tmp_path, {K: "kernels:\n  f:\n    op: relu\n    op: abs\n    shapes: [[4, -2]]\n"})
    first = load_errors(tmp_path, cache)
    assert first == [f"{K}:4: duplicate key 'op' (first at line 3); remove one",
                     f"{K}:5: kernel family 'f': a shape must be a list of non-negative integers such as [32, 1024]; got [4, -2]"]
    assert len(list(cache.glob("*.parse"))) == 1
    second = load_errors(tmp_path, cache)  # served from the cache
    assert second == first
    assert len(list(cache.glob("*.parse"))) == 1
    # the same bytes in a different file are cached separately (diagnostics name the file)
    write(tmp_path, {"specs/kernels/b.yaml": "kernels:\n  g:\n    op: relu\n    op: abs\n    shapes: [[4]]\n"})
    assert any(l.startswith("specs/kernels/b.yaml:4: duplicate key 'op'") for l in load_errors(tmp_path, cache))
    (tmp_path / "specs/kernels/b.yaml").unlink()
    # editing the file invalidates its cached parse
    write(tmp_path, {K: "kernels:\n  f:\n\n    op: relu\n    shapes: [[4, -1]]\n"})
    assert load_errors(tmp_path, cache) == [
        f"{K}:5: kernel family 'f': a shape must be a list of non-negative integers such as [32, 1024]; got [4, -1]"]
    write(tmp_path, {K: "kernels:\n  f:\n    op: relu\n    shapes: [[4]]\n"})
    assert list(load_specs(tmp_path / "specs", tmp_path, cache_dir=cache).families) == ["f"]
    # a corrupt cache entry is ignored, not trusted
    for p in cache.glob("*.parse"):
        p.write_text("{not json")
    assert list(load_specs(tmp_path / "specs", tmp_path, cache_dir=cache).families) == ["f"]


def test_ref_target_always_included(tmp_path):
    write(tmp_path, {K: "kernels:\n  f: {op: relu, shapes: [[4]]}\n  g: {op: relu, targets: [host], shapes: [[4]]}\n"})
    spec = load_specs(tmp_path / "specs", tmp_path, default_targets=("host",))
    assert spec.families["f"].targets == ("ref", "host") and spec.families["g"].targets == ("ref", "host")


def test_plan_problems_come_in_the_same_report_as_spec_problems(tmp_path):
    """Asks that disagree about one kernel (xdna body, pinned source) are found while the spec has other
    problems too, and all come in one report. (Asks for different xdna devices do not disagree: each device
    gets its design, tests/test_xdna_devices.py.)"""
    from npubuild.engine.plan import build_plan
    from npubuild.core.config import load_config

    (tmp_path / "pyproject.toml").write_text("[tool.npubuild]\n")
    write(tmp_path, {
        K: "kernels:\n"
           "  bad:\n    op: elu\n    attrs: {alpha: fast}\n    shapes: [[4]]\n"
           "  a:\n    op: relu\n    targets: [ref, xdna]\n    xdna_body: generated\n    shapes: [[4]]\n"
           "  b:\n    op: relu\n    targets: [ref, xdna]\n    xdna_body: mlir-aie\n    shapes: [[4]]\n"
           "  p:\n    op: neg\n    shapes: [[4]]\n    sources: {host: one.mlir}\n"
           "  q:\n    op: neg\n    shapes: [[4]]\n    sources: {host: two.mlir}\n",
        "specs/kernels/one.mlir": "x", "specs/kernels/two.mlir": "y",
    })
    with pytest.raises(SpecError) as e:
        build_plan(load_config(tmp_path))
    check([str(d) for d in e.value.diagnostics], [
        (K + ":4", "attr 'alpha' must be a number"),
        (K + ":11", "kernel relu_f32_4 is wanted on xdna with xdna_body generated by kernel family 'a' (specs/kernels/a.yaml:6) "
                    "and mlir-aie by"),
        (K + ":20", "kernel neg_f32_4 is wanted on host pinned to specs/kernels/one.mlir by kernel family 'p' (specs/kernels/a.yaml:16) "
                    "and to specs/kernels/two.mlir by kernel family 'q'"),
    ])
