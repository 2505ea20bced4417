"""Hostile MIL files: BLOBFILE paths that leave the project or name what is not a
file, damaged weight.bin headers, inputs past the limits, shapes that disagree,
run-time inputs of the wrong shape or dtype, and blobs changed under a cached plan.
Every one is a UserError naming file:line (or the graph and input), never a
traceback, a hang, or bytes from outside the project in an artifact."""
from __future__ import annotations

import os
import random
import re
import shutil
import socket
import struct
import tempfile
import threading
import types
from pathlib import Path

import numpy as np
import pytest

from npubuild.ane.build import blob_files, graph_key, load_plan, manifest_record, write_graph
from npubuild.ane.mil import MilError, _Parser, load_mil, parse_mil
from npubuild.ane.mil_tokens import check_brackets, tokenize
from npubuild.ane.mil_model import MilBounds
from npubuild.ane.plan import PlanError, compile_plan
from npubuild.ane.plan_model import PlanBounds
from npubuild.ane.weightbin import WeightBinError, read_blob, write_weight_bin
from npubuild.core.config import load_config
from npubuild.core.errors import UserError
from npubuild.core.limits import Limits
from npubuild.runner.ane import AneRuntime
from npubuild.runner.ane_graph import AneGraphRunner
from npubuild.specfile.files import plan_key

from .mil_programs import FUSE, SWIGLU, TRAIN
from .test_ane_build import mil_project  # noqa: F401  (fixture)

SECRET = b"TOPSECRET-" * 10  # 100 bytes: tensor<fp16, [50]>
RELU = '        tensor<fp16, [1, 64, 1, 1]> y = relu(x = x)[name = string("y")];'


def program(body: str, inputs: str = "tensor<fp16, [1, 64, 1, 1]> x", out: str = "y") -> str:
    """A one-function program: the function is on line 3, ``body`` starts on line 4."""
    return f"program(1.3)\n{{\n    func main<ios18>({inputs}) {{\n{body}\n    }} -> ({out});\n}}\n"


def blob_program(path: str, decl: str = "tensor<fp16, [50]>", offset: int = 0) -> str:
    """The BLOBFILE constant is on line 4."""
    return program(f'        {decl} w = const()[val = {decl}(BLOBFILE(path = string("{path}"), offset = uint64({offset})))];\n{RELU}')


def no_hang(fn, seconds: float = 60):
    """fn() in a daemon thread; a generous bound, only so that a blocked open fails the test instead of hanging it."""
    box: dict = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            box["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn} did not return within {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture
def scratch(tmp_path):
    """A project root holding specs/graphs, with a secret file next to (outside) it."""
    root = tmp_path / "proj"
    (root / "specs" / "graphs").mkdir(parents=True)
    (tmp_path / "secret.bin").write_bytes(SECRET)
    return root


def parse_in(root: Path, text: str, bounds: MilBounds | None = None):
    bounds = bounds or MilBounds(roots=(root,))
    return parse_mil(text, "specs/graphs/m.mil", root / "specs" / "graphs", bounds)


def plan_in(root: Path, text: str, bounds: MilBounds | None = None):
    bounds = bounds or MilBounds(roots=(root,))
    return compile_plan(parse_in(root, text, bounds), bounds)


def raises_at(exc, line: int, *fragments: str):
    """The message of ``exc`` starts with specs/graphs/m.mil:<line>: and holds every fragment."""
    msg = str(exc)
    assert msg.startswith(f"specs/graphs/m.mil:{line}: "), msg
    for f in fragments:
        assert f in msg, (f, msg)
    return msg


# ---- 1. BLOBFILE paths stay inside the project -------------------------------------------------------------------


@pytest.mark.parametrize("path", ["@model_path/../../../secret.bin", "{tmp}/secret.bin", "/etc/passwd", "../../../secret.bin"])
def test_blobfile_outside_the_project_is_refused(scratch, path):
    path = path.format(tmp=scratch.parent)
    with pytest.raises(MilError) as e:
        no_hang(lambda: parse_in(scratch, blob_program(path)))
    msg = raises_at(e.value, 4, "is outside the project (and any data_dirs)", "data_dirs")
    assert "TOPSECRET" not in msg and "root:" not in msg


def test_a_symlink_inside_the_project_that_points_out_is_refused(scratch):
    (scratch / "specs" / "graphs" / "w.bin").symlink_to(scratch.parent / "secret.bin")
    with pytest.raises(MilError) as e:
        parse_in(scratch, blob_program("@model_path/w.bin"))
    raises_at(e.value, 4, "outside the project")


def test_data_dirs_are_allowed_and_nothing_else(scratch):
    data = scratch.parent / "data"
    data.mkdir()
    (data / "w.bin").write_bytes(np.arange(50, dtype=np.float16).tobytes())
    (scratch / "pyproject.toml").write_text('[tool.npubuild]\ndata_dirs = ["../data"]\n')
    bounds = MilBounds.of(load_config(scratch))
    fn = parse_in(scratch, blob_program(str(data / "w.bin")), bounds).main
    np.testing.assert_array_equal(fn.consts["w"], np.arange(50, dtype=np.float16))
    with pytest.raises(MilError, match="outside the project"):
        parse_in(scratch, blob_program(str(scratch.parent / "secret.bin")), bounds)


def test_fifo_directory_socket_and_device_are_refused_before_reading(scratch):
    graphs = scratch / "specs" / "graphs"
    os.mkfifo(graphs / "fifo.bin")  # opened blocking, this would wait for a writer forever
    (graphs / "dir.bin").mkdir()
    for name in ("fifo.bin", "dir.bin"):
        with pytest.raises(MilError) as e:
            no_hang(lambda: parse_in(scratch, blob_program(f"@model_path/{name}")))
        raises_at(e.value, 4, "is not a regular file" if name == "fifo.bin" else "directory")
    sock_dir = Path(tempfile.mkdtemp(prefix="npb", dir="/tmp"))  # a socket path must be short
    try:
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(sock_dir / "s"))
        for path in (sock_dir / "s", "/dev/zero"):  # no roots: only the file type is in the way
            with pytest.raises(MilError) as e:
                no_hang(lambda: parse_in(scratch, blob_program(str(path)), MilBounds()))
            raises_at(e.value, 4, "not a regular file")
        s.close()
    finally:
        shutil.rmtree(sock_dir)


def test_nul_in_a_blobfile_path_is_a_message(scratch):
    with pytest.raises(MilError) as e:
        parse_in(scratch, blob_program("@model_path/w.bin\\0../../../secret.bin"))
    raises_at(e.value, 4, "holds a NUL byte")


def test_a_blob_file_over_the_size_bound_is_refused(scratch):
    (scratch / "specs" / "graphs" / "big.bin").write_bytes(bytes(4096))
    with pytest.raises(MilError) as e:
        parse_in(scratch, blob_program("@model_path/big.bin"), MilBounds(roots=(scratch,), max_bytes=1000))
    raises_at(e.value, 4, "4096 bytes, over the limit of 1000", "max_artifact_size")


def test_graph_key_never_reads_outside_the_roots(scratch):
    mil = scratch / "specs" / "graphs" / "m.mil"
    mil.write_text(blob_program("@model_path/../../../secret.bin"))
    bounds = MilBounds(roots=(scratch,))
    assert blob_files(mil, bounds) == [scratch / "specs" / "graphs" / "../../../secret.bin"]
    before = graph_key(mil, bounds)
    (scratch.parent / "secret.bin").write_bytes(SECRET.lower())
    assert graph_key(mil, bounds) == before  # its bytes were never part of the key
    with pytest.raises(MilError, match="outside the project"):
        load_plan(mil, "specs/graphs/m.mil", bounds)


def test_a_build_with_a_hostile_blobfile_fails_and_ships_nothing(project, tmp_path):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
    secret = b"TOPSECRET-KEY-01" * 8  # 64 finite fp16 values: a constant input of add would carry these very bytes
    (tmp_path / "secret.bin").write_bytes(secret)
    decl = "tensor<fp16, [1, 64, 1, 1]>"
    p.write("specs/graphs/evil.mil", program(
        f'        {decl} w = const()[val = {decl}(BLOBFILE(path = string("@model_path/../../../secret.bin"), offset = uint64(0)))];\n'
        '        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = w)[name = string("y")];'))
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert "specs/graphs/evil.mil:4: cannot read weight file" in r.out + r.err
    assert "outside the project" in r.out + r.err
    listing = p.npubuild("list", check=False)
    assert listing.rc != 0 and "specs/graphs/evil.mil:4:" in listing.out + listing.err
    for f in p.root.rglob("*"):  # artifacts, the store, doit's database, the plan cache
        assert not f.is_file() or secret not in f.read_bytes(), f


# ---- 2. damaged weight.bin headers ----------------------------------------------------------------------------------


def _weight_file(root: Path, patch) -> Path:
    data, offsets = write_weight_bin([np.arange(50, dtype=np.float16)])
    assert offsets == [64]
    data = bytearray(data)
    patch(data)
    path = root / "specs" / "graphs" / "weight.bin"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("patch, message", [
    (lambda d: struct.pack_into("<I", d, 4, 1), "has version 1 in its header; only version 2 is read"),
    (lambda d: struct.pack_into("<I", d, 4, 3), "has version 3 in its header; only version 2 is read"),
    (lambda d: struct.pack_into("<I", d, 64, 0x12345678), "no blob metadata sentinel at byte 64 (found 0x12345678"),
    (lambda d: struct.pack_into("<Q", d, 64 + 16, 0), "says its data starts at byte 0, inside the header or its own metadata record"),
    (lambda d: struct.pack_into("<Q", d, 64 + 16, 100), "says its data starts at byte 100"),
], ids=["version-1", "version-3", "sentinel", "data-offset-0", "data-in-record"])
def test_damaged_weight_bin_headers_are_refused(scratch, patch, message):
    path = _weight_file(scratch, patch)
    with pytest.raises(MilError) as e:
        parse_in(scratch, blob_program("@model_path/weight.bin", offset=64))
    raises_at(e.value, 4, message, str(path))
    with pytest.raises(WeightBinError, match=re.escape(message)):
        read_blob(path, 64, "fp16", (50,))


def test_a_sound_weight_bin_and_raw_files_still_read(scratch):
    path = _weight_file(scratch, lambda d: None)
    np.testing.assert_array_equal(read_blob(path, 64, "fp16", (50,)), np.arange(50, dtype=np.float16))
    raw = scratch / "raw.bin"
    raw.write_bytes(bytes(range(200)))  # no header: raw data, read at its offset
    assert read_blob(raw, 3, "uint8", (4,)).tolist() == [3, 4, 5, 6]


# ---- 3. limits and malformed numbers --------------------------------------------------------------------------------

SMALL = Limits(mil_max_depth=4, mil_max_literal_elements=8, max_rank=4, max_elements=1000, max_constant_bytes=64)


@pytest.mark.parametrize("text, line, fragments", [
    (program(RELU.replace("relu(x = x)", "relu(x = x, a = " + "(" * 5 + "x" + ")" * 5 + ")")), 4,
     ("nested too deeply", "is 5, over the limit of 4 (limits.mil_max_depth")),
    (program('        tensor<fp16, [2, 2]> c = const()[val = tensor<fp16, [2, 2]>([[[[[1]]]]])];\n' + RELU), 4,
     ("nested too deeply", "limits.mil_max_depth")),
    (program('        tensor<fp16, [9]> c = const()[val = tensor<fp16, [9]>([1, 2, 3, 4, 5, 6, 7, 8, 9])];\n' + RELU), 4,
     ("the element count of inline tensor<fp16, [9]> is 9, over the limit of 8 (limits.mil_max_literal_elements",)),
    (program('        tensor<fp16, [2]> c = const()[val = tensor<fp16, [2]>([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])];\n' + RELU), 4,
     ("the element count of an inline tensor literal is 9 or more, over the limit of 8 (limits.mil_max_literal_elements",)),
    (program(RELU, inputs="tensor<fp16, [1, 1, 1, 1, 1]> x"), 3, ("the rank of a tensor type is 5 or more, over the limit of 4 (limits.max_rank",)),
    (program(RELU, inputs="tensor<fp16, [100, 100]> x"), 3,
     ("the element count of tensor<fp16, [100, 100]> is 10000, over the limit of 1000 (limits.max_elements",)),
    (blob_program("@model_path/w.bin", "tensor<fp16, [40]>"), 4,
     ("the size of constant tensor<fp16, [40]> is 80 bytes, over the limit of 64 (limits.max_constant_bytes",)),
], ids=["tuple-depth", "list-depth", "literal-elements", "literal-list-longer", "rank", "elements", "constant-bytes"])
def test_limits_are_messages_before_anything_is_allocated(scratch, text, line, fragments):
    with pytest.raises(MilError) as e:
        parse_in(scratch, text, MilBounds(roots=(scratch,), limits=SMALL))
    raises_at(e.value, line, *fragments)


@pytest.mark.parametrize("text, line, fragments", [
    (program(RELU, inputs="tensor<fp16, [1, " + "9" * 4300 + ", 1, 1]> x"), 3,
     ("a dimension is a 4300-digit number, over the limit of 2147483647 (limits.max_elements",)),
    (program(RELU, inputs="tensor<fp16, [1, 0000000000000000000000000064, 1, 1]> x"), None, ()),  # leading zeros are still 64
    (program(RELU, inputs="tensor<fp16, [65536, 65536]> x"), 3, ("is 4294967296, over the limit of 2147483647",)),
    (program(RELU, inputs="tensor<fp16, [1, 1, 1, 1, 1, 1, 1, 1, 1]> x"), 3, ("rank of a tensor type is 9 or more", "limits.max_rank")),
    (program(RELU.replace("relu(x = x)", "mul(x = x, y = fp16(0x1p99999))")), 4, ("value out of range for fp16", "(at '0x1p99999')")),
    (program(RELU.replace("relu(x = x)", "mul(x = x, y = fp32(1e99999))")), 4, ("value out of range for fp32",)),
    (program(RELU.replace("relu(x = x)", "mul(x = x, y = fp64(-0x1p99999))")), 4, ("value out of range for fp64",)),
    (program(RELU.replace("relu(x = x)", "relu(x = x, k = int64(" + "7" * 5000 + "))")), 4, ("value out of range for int64",)),
], ids=["4300-digits", "leading-zeros", "elements", "rank", "fp16-hex", "fp32-dec", "fp64-hex", "int-5000-digits"])
def test_malformed_numbers_are_one_mil_error(scratch, text, line, fragments):
    if line is None:
        assert parse_in(scratch, text).main.inputs[0][1].shape == (1, 64, 1, 1)
        return
    with pytest.raises(MilError) as e:
        parse_in(scratch, text)
    raises_at(e.value, line, *fragments)


def test_deep_nesting_is_a_message_not_a_recursion_error(scratch):
    deep = program(RELU.replace("relu(x = x)", "relu(x = x, a = " + "(" * 100000 + "x" + ")" * 100000 + ")"))
    with pytest.raises(MilError) as e:
        parse_in(scratch, deep)
    raises_at(e.value, 4, "nested too deeply", "over the limit of 64")


def _read_only(text: str, bounds: MilBounds):
    """The parser alone, without the type inference parse_mil runs after it."""
    toks = tokenize(text, "m.mil")
    check_brackets(toks, "m.mil")
    return _Parser(toks, "m.mil", None, bounds).program()


def test_nesting_is_read_in_loops_whatever_the_configured_depth(scratch):
    deep = Limits(mil_max_depth=10**6)
    tuples = program(RELU.replace("relu(x = x)", "relu(x = x, a = " + "(" * 5000 + "x" + ")" * 5000 + ")"))
    a = _read_only(tuples, MilBounds(limits=deep)).main.ops[0].args["a"]
    for _ in range(5000):
        assert isinstance(a, tuple) and len(a) == 1
        a = a[0]
    with pytest.raises(MilError) as e:  # read whole, then refused by the inference: relu has no input 'a'
        parse_in(scratch, tuples, MilBounds(limits=deep))
    raises_at(e.value, 4, "unknown input 'a' (MIL's relu takes x)")
    lists = program("        tensor<fp16, [1]> c = const()[val = tensor<fp16, [1]>(" + "[" * 5000 + "7" + "]" * 5000 + ")];\n" + RELU)
    assert parse_in(scratch, lists, MilBounds(limits=deep)).main.consts["c"].tolist() == [7]


def test_non_utf8_mil_file_names_its_line(scratch):
    mil = scratch / "specs" / "graphs" / "m.mil"
    mil.write_bytes(program(RELU).encode().replace(b"relu(", b"relu\xff(", 1))
    with pytest.raises(MilError) as e:
        load_mil(mil, "specs/graphs/m.mil")
    raises_at(e.value, 4, "not UTF-8 text: byte 0xFF")
    with pytest.raises(MilError, match="not UTF-8"):
        load_plan(mil, "specs/graphs/m.mil", MilBounds(roots=(scratch,)))


def test_mil_file_that_is_a_fifo_or_too_big_is_refused(scratch):
    fifo = scratch / "specs" / "graphs" / "f.mil"
    os.mkfifo(fifo)
    with pytest.raises(MilError, match="not a regular file"):
        no_hang(lambda: load_mil(fifo))
    big = scratch / "specs" / "graphs" / "big.mil"
    big.write_text(program(RELU) + " " * 2000)
    with pytest.raises(MilError, match=r"over the limit of 1000 .*limits.spec_max_file_size"):
        load_mil(big, bounds=MilBounds(limits=Limits(spec_max_file_size=1000)))


def test_one_big_blob_named_many_times_is_bounded_by_the_program_budget(scratch):
    (scratch / "specs" / "graphs" / "w.bin").write_bytes(np.ones(256, np.int8).tobytes())
    consts = "".join(
        f'        tensor<fp16, [256]> c{i} = constexpr_affine_dequantize(quantized_data = q, zero_point = int8(0), '
        f'scale = fp16(1), axis = int32(0))[name = string("c{i}")];\n' for i in range(20))
    text = program('        tensor<int8, [256]> q = const()[val = tensor<int8, [256]>(BLOBFILE(path = string("@model_path/w.bin"), '
                   'offset = uint64(0)))];\n' + consts + RELU)
    parse_in(scratch, text)  # fits the default budget
    with pytest.raises(MilError) as e:
        parse_in(scratch, text, MilBounds(roots=(scratch,), max_bytes=4096))
    raises_at(e.value, 12, "the constants and blob files of this program take 4352 bytes, over the limit of 4096")


def test_a_layout_adapter_of_a_huge_vector_allocates_no_weight(scratch):
    # softmax over a [1, 1, 1, 200000] row makes a contig[200000] that add wants strided; the seed's adapter was an
    # identity matvec (np.eye(200000): 74.5 GiB, refused by max_constant_bytes); a layout step holds no weight
    text = program('        tensor<fp16, [1, 1, 1, 200000]> r = reshape(x = x, shape = tensor<int32, [4]>([1, 1, 1, 200000]))[name = string("r")];\n'
                   '        tensor<fp16, [1, 1, 1, 200000]> s = softmax(x = r, axis = int32(3))[name = string("s")];\n'
                   '        tensor<fp16, [1, 200000, 1, 1]> sc = reshape(x = s, shape = tensor<int32, [4]>([1, 200000, 1, 1]))[name = string("sc")];\n'
                   '        tensor<fp16, [1, 200000, 1, 1]> y = add(x = sc, y = x)[name = string("y")];',
                   inputs="tensor<fp16, [1, 200000, 1, 1]> x")
    plan = plan_in(scratch, text)
    adapters = [n for n in plan.nodes if n.name.endswith("%rp")]
    assert adapters and all(not getattr(n, "weights", None) for n in adapters)
    assert sum(w.nbytes for n in plan.nodes for w in (getattr(n, "weights", None) or {}).values()) < 1 << 20


def test_planned_buffers_are_bounded_by_max_elements(scratch):
    text = program('        tensor<fp16, [1, 64, 1, 1]> y = sigmoid(x = x)[name = string("y")];')
    plan_in(scratch, text)
    with pytest.raises(PlanError) as e:
        plan_in(scratch, text, MilBounds(roots=(scratch,), limits=Limits(max_elements=1024)))
    raises_at(e.value, 4, "the buffer of strided[64] in program 'y' is 2048 fp16 values, over the limit of 1024 (limits.max_elements")


# ---- 4. declared shapes the plan must agree with --------------------------------------------------------------------


@pytest.mark.parametrize("dims, shown", [("1, 0, 1, 1", "[1, 0, 1, 1]"), ("1, ?, 1, 1", "[1, ?, 1, 1]")])
def test_function_inputs_need_known_positive_dims(scratch, dims, shown):
    relu = RELU.replace("[1, 64, 1, 1]", f"[{dims}]")  # valid MIL: relu keeps x's shape
    text = f"program(1.3)\n{{\n    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> a,\n                     tensor<fp16, [{dims}]> x) {{\n{relu}\n    }} -> (y);\n}}\n"
    with pytest.raises(PlanError) as e:
        plan_in(scratch, text)
    raises_at(e.value, 4, f"function input 'x' is declared tensor<fp16, {shown}>; an ANE graph needs known, positive dimensions")
    assert ("(Core ML's RangeDim) is refused: it usually moves the work off the Neural Engine" in str(e.value)) == ("?" in dims)


@pytest.mark.parametrize("text, line, fragments", [
    (program(RELU, inputs="tensor<fp16, [1, 1000000000, 1, 1]> x"), 4,
     ("relu 'y': declared tensor<fp16, [1, 64, 1, 1]> but MIL infers tensor<fp16, [1, 1000000000, 1, 1]> (x tensor<fp16, [1, 1000000000, 1, 1]>)",)),
    (program(RELU, inputs="tensor<fp16, [1, 32, 1, 1]> x"), 4, ("relu 'y': declared tensor<fp16, [1, 64, 1, 1]> but MIL infers tensor<fp16, [1, 32, 1, 1]>",)),
    (program('        tensor<fp16, [1, 128, 1, 1]> r = reshape(x = x, shape = tensor<int32, [4]>([1, 128, 1, 1]))[name = string("r")];\n'
             '        tensor<fp16, [1, 128, 1, 1]> y = sigmoid(x = r)[name = string("y")];'), 4,
     ("reshape 'r': declared tensor<fp16, [1, 128, 1, 1]> but MIL infers no valid type (x [1, 64, 1, 1] has 64 values but shape [1, 128, 1, 1] holds 128)",)),
    (program('        tensor<fp16, [1, 64, 1, 8]> y = softmax(x = x, axis = int32(1))[name = string("y")];'), 4,
     ("softmax 'y': declared tensor<fp16, [1, 64, 1, 8]> but MIL infers tensor<fp16, [1, 64, 1, 1]>",)),
    (program('        tensor<int32, [1, 64, 1, 1]> y = relu(x = x)[name = string("y")];'), 4,
     ("relu 'y': declared tensor<int32, [1, 64, 1, 1]> but MIL infers tensor<fp16, [1, 64, 1, 1]>",)),
    (program(RELU, inputs="tensor<bool, [1, 64, 1, 1]> x"), 4,
     ("relu 'y': declared tensor<fp16, [1, 64, 1, 1]> but MIL infers no valid type ('x' is 'x' of type tensor<bool, [1, 64, 1, 1]>; "
      "relu takes fp16, fp32 there (iOS18))",)),
    (program('        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = z)[name = string("y")];', inputs="tensor<fp16, [1, 64, 1, 1]> x, "
             "tensor<fp16, [1, 1, 1, 64]> z"), 4, ("add 'y': declared tensor<fp16, [1, 64, 1, 1]> but MIL infers tensor<fp16, [1, 64, 1, 64]>",)),
    (program('        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = z)[name = string("y")];', inputs="tensor<fp16, [1, 64, 1, 1]> x, "
             "tensor<fp16, [1, 32, 1, 1]> z"), 4, ("shapes [1, 64, 1, 1] and [1, 32, 1, 1] do not broadcast: dimension 1 is 64 in one and 32 in the other",)),
], ids=["input-1e9", "input-32", "reshape-count", "softmax-out", "result-int", "input-bool", "broadcast", "no-broadcast"])
def test_declared_types_must_be_what_mil_infers(scratch, text, line, fragments):
    """What the seed's planner had to guard against (a program reading a buffer with more or fewer
    values than it declares) is now invalid MIL: the type inference refuses it while reading."""
    with pytest.raises(MilError) as e:
        parse_in(scratch, text)
    raises_at(e.value, line, *fragments)


@pytest.mark.parametrize("text, line, fragments", [
    (program('        tensor<fp16, [1, ?, 1, 1]> y = sigmoid(x = x)[name = string("y")];'), 4,
     ("'y'", "[1, ?, 1, 1]", "known, positive dimensions")),
    (program('        tensor<int32, [1, 64, 1, 1]> y = cast(x = x, dtype = string("int32"))[name = string("y")];'), 4,
     ("'y'", "int32", "fp16")),
], ids=["result-?", "result-int"])
def test_valid_mil_the_plan_cannot_take_is_a_plan_error(scratch, text, line, fragments):
    """The plan's own refusals (its messages are the plan's: only their line and subject are fixed here); under
    ane_strict, also what would otherwise be a CPU node (an int32 cast)."""
    parse_in(scratch, text)  # valid MIL ...
    with pytest.raises(PlanError) as e:  # ... but not for an ANE graph
        plan_in(scratch, text, PlanBounds(roots=(scratch,), ane_strict=True))
    raises_at(e.value, line, *fragments)


def test_conv_weights_that_do_not_chain_are_refused(scratch):
    d = scratch / "specs" / "graphs"
    for name, n in (("w1", 96 * 64), ("w2", 64 * 80)):  # conv 2 takes 80 inputs, conv 1 makes 96
        np.zeros(n, np.float16).tofile(d / f"{name}.bin")
    text = program(
        '        tensor<fp16, [96, 64, 1, 1]> W1 = const()[val = tensor<fp16, [96, 64, 1, 1]>(BLOBFILE(path = string("@model_path/w1.bin"), offset = uint64(0)))];\n'
        '        tensor<fp16, [64, 80, 1, 1]> W2 = const()[val = tensor<fp16, [64, 80, 1, 1]>(BLOBFILE(path = string("@model_path/w2.bin"), offset = uint64(0)))];\n'
        '        tensor<fp16, [1, 96, 1, 1]> c1 = conv(weight = W1, x = x)[name = string("c1")];\n'
        '        tensor<fp16, [1, 64, 1, 1]> y = conv(weight = W2, x = c1)[name = string("y")];')
    with pytest.raises(MilError) as e:  # MIL's conv refuses the weights before any plan is made
        parse_in(scratch, text)
    raises_at(e.value, 7, "conv 'y': declared tensor<fp16, [1, 64, 1, 1]> but MIL infers no valid type (x has 96 channels and "
                          "groups is 1, so weight's dim 1 must be 96; weight is [64, 80, 1, 1])")


def test_arguments_of_the_wrong_kind_are_refused_at_their_line(scratch):
    d = scratch / "specs" / "graphs"
    np.zeros(64, np.float16).tofile(d / "g.bin")
    gam = '        tensor<fp16, [32]> g = const()[val = tensor<fp16, [32]>(BLOBFILE(path = string("@model_path/g.bin"), offset = uint64(0)))];\n'
    row = "tensor<fp16, [1, 1, 1, 64]> x"
    cases = [
        (program('        tensor<fp16, [1, 1, 1, 64]> y = rms_norm(x = x, eps = string("a"))[name = string("y")];', row), 4,
         "rms_norm 'y': declared tensor<fp16, [1, 1, 1, 64]> but MIL infers no valid type ('eps' is the literal of type string; "
         "rms_norm takes fp16, fp32 there (iOS18))"),
        (program('        tensor<fp16, [1, 64, 1, 1]> y = softmax(x = x, axis = tensor<int32, [2]>([1, 2]))[name = string("y")];'), 4,
         "('axis' must be one integer, not 2 values)"),
        (program(gam + '        tensor<fp16, [1, 1, 1, 64]> y = rms_norm(x = x, w = g, eps = fp16(0.001))[name = string("y")];', row), 5,
         "(w is [32]; it must be [64], x's last dimension (x [1, 1, 1, 64]))"),
        (program('        tensor<fp16, [1, 64, 1, 1]> y = softmax(x = x, axis = axis)[name = string("y")];',
                 "tensor<fp16, [1, 64, 1, 1]> x, int32 axis"), 4, "('axis' must be a constant; 'axis' is computed at run time)"),
        (program('        tensor<fp16, [1, 64, 1, 1]> y = gelu(x = x, mode = string("FAST"))[name = string("y")];'), 4,
         "(mode 'FAST' is not one of EXACT, TANH_APPROXIMATION, SIGMOID_APPROXIMATION)"),
    ]
    for text, line, fragment in cases:
        with pytest.raises(MilError) as e:
            parse_in(scratch, text)
        raises_at(e.value, line, fragment)
    text = program('        tensor<fp16, [1, 64, 1, 1]> c = conv(weight = w, x = x)[name = string("c")];\n'
                   '        tensor<fp16, [1, 64, 1, 1]> y = conv(weight = w, x = c)[name = string("y")];',
                   inputs="tensor<fp16, [1, 64, 1, 1]> x, tensor<fp16, [64, 64, 1, 1]> w")
    parse_in(scratch, text)  # a weight computed at run time is valid MIL ...
    with pytest.raises(PlanError) as e:  # ... that no ANE route takes: refused under ane_strict
        plan_in(scratch, text, PlanBounds(roots=(scratch,), ane_strict=True))
    raises_at(e.value, 4, "conv 'c'", "constant weight")
    assert [n.placement for n in plan_in(scratch, text).nodes] == ["cpu", "cpu"]  # else the CPU computes both


def test_mutated_programs_give_user_errors_only(tmp_path):
    """Random token swaps in the three reference programs: a plan that compiles also runs; nothing else escapes."""
    from .test_ane import fuse_files, swiglu_files

    swiglu_files(tmp_path)
    fuse_files(tmp_path)
    texts = [SWIGLU.format(d=tmp_path), FUSE.format(d=tmp_path), TRAIN]
    subs = ["0", "1", "?", "64", "65", "32", "1000000000", "x", "W1", "bt", "(x, x)", "fp16(1.5)", 'string("a")',
            "tensor<fp16, [2]>([1, 2])", "bool(false)", "add", "mul", "sigmoid", "relu", "softmax", "reshape", "conv", "matmul",
            "rms_norm", "silu", "transpose"]
    token = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
    rng = random.Random(2)  # a seed whose mutations made the unguarded planner raise KeyError and ValueError
    for _ in range(400):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            m = rng.choice(list(token.finditer(text)))
            text = text[: m.start()] + rng.choice(subs) + text[m.end():]
        try:
            plan = compile_plan(parse_mil(text, "f.mil", tmp_path))
            rt = AneRuntime(plan)
            for name, _, _ in plan.inputs:
                if name in plan.ext_curs:
                    rt.write_ext(name, np.full(plan.ext_curs[name].elems, 0.1, np.float32))
            rt.run()
        except UserError:
            pass


# ---- 5. run-time inputs -----------------------------------------------------------------------------------------


@pytest.fixture
def runner(tmp_path):
    text = program('        tensor<fp16, [1, 64, 1, 1]> y = sigmoid(x = x)[name = string("y")];')
    plan = compile_plan(parse_mil(text, "g.mil"))
    art = tmp_path / "artifacts"
    out = art / "ane" / "g"
    write_graph(plan, out)
    return AneGraphRunner(types.SimpleNamespace(path=art), "g", manifest_record(out, art), None)


def test_inputs_of_the_declared_shape_and_a_float_dtype_run(runner):
    x = np.linspace(-1, 1, 64).reshape(1, 64, 1, 1)
    for dtype in (np.float16, np.float32, np.float64):
        y = runner.run(x=x.astype(dtype))["y"]
        np.testing.assert_allclose(y.reshape(-1), 1 / (1 + np.exp(-x.reshape(-1))), atol=2e-3)


@pytest.mark.parametrize("value, fragment", [
    (np.zeros((1, 1, 1, 64), np.float32), "must have shape [1, 64, 1, 1], got [1, 1, 1, 64]"),
    (np.zeros(64, np.float32), "must have shape [1, 64, 1, 1], got [64]"),
    (np.zeros((1, 64, 1, 1), np.int32), "must be float16, float32, float64 (it is rounded to fp16), got int32"),
    (np.zeros((1, 64, 1, 1), bool), "got bool"),
    (np.zeros((1, 64, 1, 1), np.complex64), "got complex64"),
    (np.zeros((1, 64, 1, 1), object), "got object"),
    (np.full((1, 64, 1, 1), 1e6, np.float32), "holds finite values beyond the fp16 range"),
], ids=["transposed", "flat", "int", "bool", "complex", "object", "overflow"])
def test_wrong_inputs_are_one_user_error_naming_graph_and_input(runner, value, fragment):
    good = np.full((1, 64, 1, 1), 0.5, np.float32)
    before = runner.run(x=good)["y"].copy()
    with pytest.raises(UserError) as e:
        runner.run(x=value)
    assert str(e.value).startswith("graph 'g': input 'x' ") and fragment in str(e.value), str(e.value)
    with pytest.raises(UserError, match="graph 'g': input 'x'"):
        runner.write_ext("x", value)
    np.testing.assert_array_equal(runner.engine.output("y"), before.reshape(-1))  # the refused input changed nothing
    np.testing.assert_array_equal(runner.run(x=good)["y"], before)


# ---- 6. the cached plan follows the blob files ---------------------------------------------------------------------


def _rewrite(path: Path, data: bytes) -> None:
    """Write ``data`` in place (same size) and move its mtime on, as any later write does."""
    st = path.stat()
    path.write_bytes(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))


def test_npubuild_list_sees_a_changed_blob(mil_project):
    from npubuild.engine.plan import build_plan

    p = mil_project
    config = load_config(p.root)
    assert "swiglu" in build_plan(config).ane_graphs  # cached now
    key = plan_key(config)
    assert plan_key(config) == key
    blob = p.root / "specs" / "graphs" / "weights" / "weight.bin"
    data = bytearray(blob.read_bytes())
    struct.pack_into("<I", data, 4, 3)  # version 3: the blob no longer reads
    _rewrite(blob, bytes(data))
    assert plan_key(config) != key
    with pytest.raises(MilError, match=r"specs/graphs/swiglu.mil:5: weight file .*has version 3"):
        build_plan(config)
    r = p.npubuild("list", check=False)
    assert r.rc != 0 and "has version 3 in its header" in r.out + r.err


def test_blob_paths_in_every_spelling_are_in_the_keys(scratch):
    graphs = scratch / "specs" / "graphs"
    names = ["a.bin", "b.bin", "c_d.bin", "e.bin"]
    for n in names:
        (graphs / n).write_bytes(np.zeros(2, np.float16).tobytes())
    decl = "tensor<fp16, [2]>"
    text = program(
        f'        {decl} a = const()[val = {decl}(BLOBFILE(offset = uint64(0), path = string("@model_path/a.bin")))];\n'
        f'        {decl} b = const()[val = {decl}(BLOBFILE(path /* the weights */ = tensor<string, []>("b.bin"), offset = uint64(0)))];\n'
        f'        {decl} c = const()[val = {decl}(BLOBFILE(path = string("@model_path/c\\_d.bin"), offset = uint64(0)))];\n'  # an escape
        + f'        {decl} e = const()[val = {decl}(BLOBFILE(\n            path = string("{graphs / "e.bin"}"),\n            offset = uint64(0)))];\n'
        + '        // tensor<fp16, [2]> z = const()[val = tensor<fp16, [2]>(BLOBFILE(path = string("/etc/passwd"), offset = uint64(0)))];\n'
        + RELU)
    mil = graphs / "m.mil"
    mil.write_text(text)
    (scratch / "pyproject.toml").write_text("[tool.npubuild]\n")
    bounds = MilBounds(roots=(scratch,))
    assert set(parse_in(scratch, text).main.consts) == {"a", "b", "c", "e"}
    found = {b.name for b in blob_files(mil, bounds)}
    assert found == set(names)  # every file read, the commented-out one not
    config = load_config(scratch)
    for n in names:
        key, gkey = plan_key(config), graph_key(mil, bounds)
        _rewrite(graphs / n, np.ones(2, np.float16).tobytes())
        assert plan_key(config) != key, n
        assert graph_key(mil, bounds) != gkey, n
