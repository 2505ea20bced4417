"""Textual MIL reader and weight.bin blob storage."""
from __future__ import annotations

import dataclasses
import struct
from pathlib import Path

import numpy as np
import pytest

from npubuild.ane.mil import Literal, MilError, MilType, Ref, load_mil, parse_mil
from npubuild.ane.weightbin import (
    MIL_DTYPES,
    WeightBinError,
    read_blob,
    write_weight_bin,
    write_weight_file,
)
from npubuild.errors import UserError

from .mil_programs import FUSE, SWIGLU, TRAIN

F16 = np.float16


def t16(*shape):
    return MilType("fp16", tuple(shape))


# ---------------------------------------------------------------------------
# seed-style programs and their raw blob files


def seed_data():
    d, ff = 64, 128
    i = np.arange(d)
    gam = (0.8 + (i % 7) * 0.05).astype(F16)
    k = np.arange(ff * d)
    wu_q = (((k * 23 + 7) % 199) - 99).astype(np.int8).reshape(ff, d)
    j = np.arange(ff * 2)
    wu_s = (0.002 * ((j * 11 % 31) + 1.0)).astype(F16).reshape(ff, 2)
    wg = (((k * 17 + 3) % 29) / 64.0 - 0.22).astype(F16).reshape(ff, d)
    wd = (((k * 13 + 5) % 23) / 64.0 - 0.17).astype(F16).reshape(d, ff)
    return {"gam": gam, "wu_q8": wu_q, "wu_sc": wu_s, "wg": wg, "wd": wd}


def write_raw(dirpath: Path, arrays: dict) -> None:
    for name, a in arrays.items():
        (dirpath / f"{name}.bin").write_bytes(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())


# The same program in the program(1.0) verbose literal style, with a buildInfo block.
PROG1_VERBOSE = """program(1.0)
[buildInfo = dict<tensor<string, []>, tensor<string, []>>({{{{"coremlc-component-MIL", "3402.3.2"}}, {{"coremlc-version", "3402.4.1"}}}})]
{{
    func main<ios16>(tensor<fp16, [1, 64, 1, 1]> x) {{
        tensor<fp16, [64]> gam = const()[name = tensor<string, []>("gam"), val = tensor<fp16, [64]>(BLOBFILE(path = tensor<string, []>("{d}/gam.bin"), offset = tensor<uint64, []>(0)))];
        tensor<int8, [128, 64]> Wu_q = const()[val = tensor<int8, [128, 64]>(BLOBFILE(offset = tensor<uint64, []>(0), path = tensor<string, []>("{d}/wu_q8.bin")))];
        tensor<fp16, [128, 2]> Wu_s = const()[val = tensor<fp16, [128, 2]>(BLOBFILE(path = tensor<string, []>("{d}/wu_sc.bin"), offset = tensor<uint64, []>(0)))];
        tensor<fp16, [128, 64]> Wu = constexpr_blockwise_shift_scale(scale = Wu_s, data = Wu_q)[name = tensor<string, []>("Wu")];
        tensor<fp16, [128, 64]> Wg = const()[val = tensor<fp16, [128, 64]>(BLOBFILE(path = tensor<string, []>("{d}/wg.bin"), offset = tensor<uint64, []>(0)))];
        tensor<fp16, [64, 128]> Wd = const()[val = tensor<fp16, [64, 128]>(BLOBFILE(path = tensor<string, []>("{d}/wd.bin"), offset = tensor<uint64, []>(0)))];
        tensor<bool, []> bt = const()[val = tensor<bool, []>(true)];
        tensor<fp16, [1, 64, 1, 1]> xn = rms_norm(eps = tensor<fp16, []>(0x1.5p-17), w = gam, x = x)[name = tensor<string, []>("xn")];
        tensor<fp16, [1, 1, 1, 128]> u = matmul(transpose_y = bt, x = xn, y = Wu)[name = tensor<string, []>("u")];
        tensor<fp16, [1, 1, 1, 128]> g = matmul(transpose_y = bt, x = xn, y = Wg)[name = tensor<string, []>("g")];
        tensor<fp16, [1, 128, 1, 1]> gs = sigmoid(x = g)[name = tensor<string, []>("gs")];
        tensor<fp16, [1, 128, 1, 1]> gsl = mul(x = g, y = gs)[name = tensor<string, []>("gsl")];
        tensor<fp16, [1, 128, 1, 1]> fu = mul(x = u, y = gsl)[name = tensor<string, []>("fu")];
        tensor<fp16, [1, 1, 1, 64]> dn = matmul(transpose_y = bt, x = fu, y = Wd)[name = tensor<string, []>("dn")];
        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = dn)[name = tensor<string, []>("y")];
    }} -> (y);
}}"""


@pytest.fixture
def seed1(tmp_path):
    data = seed_data()
    write_raw(tmp_path, data)
    return tmp_path, data


def test_seed_rms_q8_swiglu(seed1):
    d, data = seed1
    (d / "m.mil").write_text(SWIGLU.format(d=d))
    prog = load_mil(d / "m.mil")
    assert prog.version == "1.3" and list(prog.functions) == ["main"]
    fn = prog.main
    assert fn.name == "main" and fn.opset == "ios18" and fn.line == 3
    assert fn.inputs == [("x", t16(1, 64, 1, 1))]
    assert [(o.op, o.result) for o in fn.ops] == [
        ("rms_norm", "xn"), ("matmul", "u"), ("matmul", "g"), ("sigmoid", "gs"),
        ("mul", "gsl"), ("mul", "fu"), ("matmul", "dn"), ("add", "y"),
    ]
    assert [o.line for o in fn.ops] == list(range(11, 19))
    assert [o.name for o in fn.ops] == [o.result for o in fn.ops]
    assert fn.outputs == ["y"]
    assert set(fn.consts) == {"gam", "Wu_q", "Wu_s", "Wu", "Wg", "Wd", "bt"}

    np.testing.assert_array_equal(fn.consts["gam"], data["gam"])
    assert fn.consts["gam"].dtype == np.float16 and fn.consts["gam"].shape == (64,)
    assert fn.consts["Wu_q"].dtype == np.int8
    np.testing.assert_array_equal(fn.consts["Wu_q"], data["wu_q8"])
    np.testing.assert_array_equal(fn.consts["Wg"], data["wg"])
    np.testing.assert_array_equal(fn.consts["Wd"], data["wd"])

    # Wu = scale * data, one scale per row and 32-column block, float32 then fp16
    q, s = data["wu_q8"], data["wu_sc"]
    cols = np.arange(64) // 32
    want = (q.astype(np.float32) * s.astype(np.float32)[:, cols]).astype(F16)
    wu = fn.consts["Wu"]
    assert wu.dtype == np.float16 and wu.shape == (128, 64)
    np.testing.assert_array_equal(wu, want)
    assert fn.const_types["Wu"] == t16(128, 64)

    bt = fn.consts["bt"]
    assert isinstance(bt, np.ndarray) and bt.dtype == np.bool_ and bt.shape == () and bool(bt) is True
    assert fn.const_types["bt"] == MilType("bool", ())

    xn = fn.ops[0]
    assert xn.args == {"x": Ref("x"), "w": Ref("gam"), "eps": Literal(MilType("fp16"), float(F16(1e-5)))}
    assert xn.args["eps"].value == 1.0013580322265625e-05
    assert xn.type == t16(1, 64, 1, 1)
    assert fn.ops[1].args == {"x": Ref("xn"), "y": Ref("Wu"), "transpose_y": Ref("bt")}
    assert fn.type_of("dn") == t16(1, 1, 1, 64) and fn.type_of("Wd") == t16(64, 128)


def test_verbose_program_1_0_style_reads_the_same(seed1):
    d, _ = seed1
    short = parse_mil(SWIGLU.format(d=d), "short.mil").main
    verbose_prog = parse_mil(PROG1_VERBOSE.format(d=d), "verbose.mil")
    assert verbose_prog.version == "1.0"
    verbose = verbose_prog.main
    assert verbose.opset == "ios16"
    assert verbose != short  # the opset differs ...
    assert dataclasses.replace(verbose, opset="ios18") == short  # ... and nothing else
    # equality looks at values: a changed weight element is noticed
    changed = dataclasses.replace(verbose, opset="ios18", consts=dict(verbose.consts))
    changed.consts["Wg"] = changed.consts["Wg"].copy()
    changed.consts["Wg"][3, 5] += F16(1)
    assert changed != short


def test_seed_conv_chain(tmp_path):
    rng = np.random.default_rng(0)
    ws = {"w1": (96, 64, 1, 1), "w2": (64, 96, 1, 1), "w3": (64, 64, 1, 1)}
    data = {k: rng.standard_normal(s).astype(F16) for k, s in ws.items()}
    write_raw(tmp_path, data)
    fn = parse_mil(FUSE.format(d=tmp_path), "conv.mil").main
    assert [(o.op, o.result) for o in fn.ops] == [
        ("conv", "c1"), ("conv", "c2"), ("conv", "g"), ("sigmoid", "gs"), ("mul", "gsl"), ("add", "y"),
    ]
    assert fn.ops[0].args == {"weight": Ref("W1"), "x": Ref("x")}
    assert fn.ops[0].type == t16(1, 96, 1, 1)
    for k in ("W1", "W2", "W3"):
        np.testing.assert_array_equal(fn.consts[k], data[k.lower()])
        assert fn.consts[k].shape == ws[k.lower()]
    assert fn.outputs == ["y"]


def test_seed_training_graph_multiline_signature():
    fn = parse_mil(TRAIN, "train.mil").main
    assert [n for n, _ in fn.inputs] == ["x", "target", "neg_lr", "one", "W1", "W2"]
    assert dict(fn.inputs)["W1"] == t16(1, 64, 1, 64) and dict(fn.inputs)["x"] == t16(1, 1, 1, 64)
    assert len(fn.ops) == 14 and fn.ops[0].line == 10 and fn.ops[-1].line == 23
    assert [o.op for o in fn.ops].count("matmul") == 5
    assert fn.ops[5].args == {"x": Ref("dy"), "y": Ref("W2"), "transpose_x": Ref("bt")}
    assert list(fn.consts) == ["bt"] and bool(fn.consts["bt"])
    assert fn.outputs == ["y", "W1_new", "W2_new"]


def test_literals_hex_floats_and_styles():
    text = """program(1.3)
[buildInfo = dict<string, string>({})]
{
    func main<ios18>(tensor<fp16, [1, ?]> a) {
        // comment line
        fp16 h1 = const()[val = fp16(0x1p-17)];
        fp16 h2 = const()[val = fp16(-0x1.4p+3)];   /* block
        comment */
        fp32 h3 = const()[val = tensor<fp32, []>(0x1.000002p+0)];
        fp16 h4 = const()[val = fp16(0x1.001p+0)];
        tensor<fp16, [2, 2]> t = const()[val = tensor<fp16, [2, 2]>([[0x1p-1, -0x1.8p+1], [2.5, -inf]])];
        tensor<int32, [2]> p = const()[val = tensor<int32, [2]>([1, -1])];
        string s = const()[val = string("a\\"b")];
        uint64 o = const()[val = tensor<uint64, []>(64)];
        tensor<fp16, [1, ?]> r = clip(alpha=fp16(0.125),beta=fp32(1e-3),x=a)[name=string("r")];
        tensor<fp16, [2, ?]> c = concat(axis = int32(0), interleave = bool(false), values = (a, r))[name = string("c")];
    } -> (c);
}
"""
    fn = parse_mil(text, "lit.mil").main
    assert fn.inputs == [("a", MilType("fp16", (1, -1)))]
    assert str(fn.inputs[0][1]) == "tensor<fp16, [1, ?]>"
    c = fn.consts
    assert c["h1"].dtype == np.float16 and float(c["h1"]) == 2.0 ** -17
    assert float(c["h2"]) == -10.0
    assert c["h3"].dtype == np.float32 and float(c["h3"]) == 1.0 + 2.0 ** -23
    assert float(c["h4"]) == 1.0  # 1 + 2^-12 rounds to fp16
    np.testing.assert_array_equal(c["t"], np.array([[0.5, -3.0], [2.5, -np.inf]], F16))
    assert c["p"].dtype == np.int32 and c["p"].tolist() == [1, -1]
    assert c["s"] == 'a"b'
    assert c["o"].dtype == np.uint64 and int(c["o"]) == 64
    clip = fn.ops[0]
    assert clip.args["alpha"] == Literal(MilType("fp16"), 0.125)
    assert clip.args["beta"] == Literal(MilType("fp32"), float(np.float32(1e-3)))
    assert clip.line == 15 and clip.name == "r"
    cat = fn.ops[1]
    assert cat.args["values"] == (Ref("a"), Ref("r"))
    assert cat.args["interleave"] == Literal(MilType("bool"), False)
    # short and verbose scalar spellings are the same Literal
    assert parse_mil(text.replace("fp16(0x1p-17)", "tensor<fp16, []>(0x1p-17)"), "v.mil").main == fn


def test_blockwise_shift_scale_with_offset_and_inline_literals():
    text = """program(1.3)
{
    func main<ios18>(tensor<fp16, [4, 6]> a) {
        tensor<fp16, [4, 6]> w = constexpr_blockwise_shift_scale(data = tensor<uint8, [4, 6]>([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]), offset = tensor<uint8, [2, 3]>([1, 2, 3, 4, 5, 6]), scale = tensor<fp16, [2, 3]>([0.5, 1, 2, 0.25, 0x1p-3, 4]))[name = string("w")];
        tensor<fp16, [4, 6]> y = mul(x = a, y = w)[name = string("y")];
    } -> (y);
}
"""
    fn = parse_mil(text, "bw.mil").main
    data = np.arange(24, dtype=np.float32).reshape(4, 6)
    off = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    sc = np.array([[0.5, 1, 2], [0.25, 0.125, 4]], np.float32)
    big = lambda a: np.repeat(np.repeat(a, 2, axis=0), 2, axis=1)  # noqa: E731
    np.testing.assert_array_equal(fn.consts["w"], (big(sc) * (data - big(off))).astype(F16))
    assert fn.consts["w"].dtype == np.float16
    assert [o.result for o in fn.ops] == ["y"]

    with pytest.raises(MilError) as e:
        parse_mil(text.replace("tensor<fp16, [2, 3]>([0.5, 1, 2, 0.25, 0x1p-3, 4])",
                               "tensor<fp16, [2, 4]>([0.5, 1, 2, 0.25, 0x1p-3, 4, 1, 1])")
                  .replace("offset = tensor<uint8, [2, 3]>([1, 2, 3, 4, 5, 6]), ", ""), "bw.mil")
    assert e.value.line == 4 and "not a multiple of scale dim 1" in str(e.value)
    with pytest.raises(MilError) as e:
        parse_mil(text.replace("tensor<fp16, [4, 6]> y = mul(x = a, y = w)",
                               "tensor<fp16, [4, 6]> y = constexpr_blockwise_shift_scale(data = a, scale = w)"), "bw.mil")
    assert e.value.line == 5 and "must be a constant; 'a' is computed at run time" in str(e.value)


def test_main_selection_and_several_functions():
    two = """program(1.3)
{
    func f<ios18>(tensor<fp16, [2]> a) {
        tensor<fp16, [2]> y = relu(x = a)[name = string("y")];
    } -> (y);
    func g<ios18>(tensor<fp16, [2]> a) {
        tensor<fp16, [2]> y = relu(x = a)[name = string("y")];
    } -> (y);
}"""
    prog = parse_mil(two, "two.mil")
    assert list(prog.functions) == ["f", "g"] and prog.functions["g"].line == 6
    with pytest.raises(MilError, match=r"two.mil: no function named 'main'.*f, g"):
        prog.main
    assert parse_mil(two.replace("func g", "func main"), "two.mil").main.name == "main"
    assert parse_mil(two.replace("    func g<ios18>(tensor<fp16, [2]> a) {\n"
                                 "        tensor<fp16, [2]> y = relu(x = a)[name = string(\"y\")];\n"
                                 "    } -> (y);\n", ""), "one.mil").main.name == "f"


# ---------------------------------------------------------------------------
# weight.bin version 2


def test_weight_bin_v2_round_trip(tmp_path):
    blobs = [
        np.arange(15, dtype=F16).reshape(3, 5) / F16(4),
        np.array([-128, -1, 0, 1, 2, 3, 127], np.int8),
        np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 2, 3),
        np.arange(12, dtype=np.float32).reshape(3, 4).T,  # non-contiguous input
        np.array([7, -9, 1 << 30, -(1 << 31)], np.int32),
        np.arange(65, dtype=np.uint8),
    ]
    data, offsets = write_weight_bin(blobs)
    assert write_weight_bin([b.copy() for b in blobs]) == (data, offsets)  # deterministic
    assert struct.unpack_from("<II7Q", data, 0) == (len(blobs), 2, 0, 0, 0, 0, 0, 0, 0)
    assert offsets[0] == 64
    names = ["fp16", "int8", "fp32", "fp32", "int32", "uint8"]
    for off, arr, name in zip(offsets, blobs, names):
        assert off % 64 == 0
        sentinel, code, size, data_off, pad, *rest = struct.unpack_from("<IIQQQ4Q", data, off)
        assert (sentinel, code, size, data_off, pad, rest) == (0xDEADBEEF, MIL_DTYPES[name], arr.nbytes, off + 64, 0, [0] * 4)
        assert data_off % 64 == 0
        assert data[data_off:data_off + size] == np.ascontiguousarray(arr).tobytes()
    assert offsets[1] == 192  # data of blob 0 ends at 64 + 64 + 30; the next record starts on 64

    wdir = tmp_path / "weights"
    wdir.mkdir()
    assert write_weight_file(wdir / "weight.bin", blobs) == offsets
    assert (wdir / "weight.bin").read_bytes() == data
    for off, arr, name in zip(offsets, blobs, names):
        got = read_blob(wdir / "weight.bin", off, name, arr.shape)
        assert got.dtype == arr.dtype
        np.testing.assert_array_equal(got, arr)

    def decl(arr, name):
        return f"tensor<{name}, [{', '.join(map(str, arr.shape))}]>"

    lines = [
        f'        {decl(a, n)} c{i} = const()[name = string("c{i}"), val = {decl(a, n)}'
        f'(BLOBFILE(path = string("@model_path/weights/weight.bin"), offset = uint64({off})))];'
        for i, (a, n, off) in enumerate(zip(blobs, names, offsets))
    ]
    text = ("program(1.3)\n{\n    func main<ios18>(tensor<fp16, [3, 5]> x) {\n" + "\n".join(lines)
            + "\n        tensor<fp16, [3, 5]> y = add(x = x, y = c0)[name = string(\"y\")];\n    } -> (y);\n}\n")
    (tmp_path / "model.mil").write_text(text)
    fn = load_mil(tmp_path / "model.mil").main
    for i, arr in enumerate(blobs):
        assert fn.consts[f"c{i}"].dtype == arr.dtype
        np.testing.assert_array_equal(fn.consts[f"c{i}"], arr)
    # relative paths resolve against base_dir too; without one they are an error
    fn2 = parse_mil(text.replace("@model_path/weights/weight.bin", "weights/weight.bin"), "m.mil", tmp_path).main
    assert fn2 == fn
    with pytest.raises(MilError) as e:
        parse_mil(text, "m.mil")
    assert e.value.line == 4 and "no base directory" in str(e.value)


def test_raw_blob_files_with_offsets(tmp_path):
    a = np.arange(6, dtype=F16)
    b = np.array([5, -6, 7], np.int8)
    (tmp_path / "raw.bin").write_bytes(a.tobytes() + b.tobytes())
    np.testing.assert_array_equal(read_blob(tmp_path / "raw.bin", 0, "fp16", (2, 3)), a.reshape(2, 3))
    np.testing.assert_array_equal(read_blob(tmp_path / "raw.bin", 12, "int8", [3]), b)
    np.testing.assert_array_equal(read_blob(tmp_path / "raw.bin", 2, "fp16", ()), a[1])


def _blob_program(path: str, decl: str, offset: int) -> str:
    return f"""program(1.3)
{{
    func main<ios18>(tensor<fp16, [2]> x) {{
        tensor<fp16, [2]> y = relu(x = x)[name = string("y")];
        {decl} w = const()[val = {decl}(BLOBFILE(path = string("{path}"), offset = uint64({offset})))];
    }} -> (y);
}}"""


@pytest.fixture
def wfile(tmp_path):
    blobs = [np.arange(15, dtype=F16).reshape(3, 5), np.arange(8, dtype=np.int8)]
    data, offsets = write_weight_bin(blobs)
    p = tmp_path / "weight.bin"
    p.write_bytes(data)
    return p, offsets, data


@pytest.mark.parametrize("decl, which, delta, message", [
    ("tensor<int8, [3, 5]>", 0, 0, "Metadata data type does not match requested type: blob at offset 64"),
    ("tensor<fp16, [8]>", 1, 0, "holds int8 (code 4), the MIL declares fp16 (code 1)"),
    ("tensor<fp16, [3, 4]>", 0, 0, "holds 30 bytes, but fp16 [3, 4] needs 24"),
    ("tensor<fp16, [3, 5]>", 0, 16, "no blob metadata at offset 80 in version-2 weight file"),
    ("tensor<fp16, [3, 5]>", 0, 64, "(found 0x3C000000, expected sentinel 0xDEADBEEF)"),
    ("tensor<int8, [8]>", 1, 64, "offset 256 is past the end of weight file"),
])
def test_weight_bin_errors(wfile, decl, which, delta, message):
    p, offsets, _ = wfile
    off = offsets[which] + delta
    with pytest.raises(MilError) as e:
        parse_mil(_blob_program(str(p), decl, off), "w.mil")
    assert e.value.line == 5 and message in str(e.value)
    assert str(e.value).startswith("w.mil:5: ") and str(e.value).endswith("(at 'BLOBFILE')")
    assert isinstance(e.value, UserError)


def test_blob_file_missing_and_truncated(wfile, tmp_path):
    p, offsets, data = wfile
    with pytest.raises(WeightBinError, match="weight file not found"):
        read_blob(tmp_path / "nope.bin", 64, "fp16", (3, 5))
    with pytest.raises(MilError, match=r"m.mil:5: weight file not found: .*nope.bin"):
        parse_mil(_blob_program(str(tmp_path / "nope.bin"), "tensor<fp16, [2]>", 0), "m.mil")
    cut = tmp_path / "cut.bin"
    cut.write_bytes(data[:offsets[1] + 64 + 5])
    with pytest.raises(WeightBinError, match="truncated: blob at offset 192"):
        read_blob(cut, offsets[1], "int8", (8,))
    raw = tmp_path / "raw.bin"
    raw.write_bytes(b"\1" * 10)
    with pytest.raises(WeightBinError, match="truncated: fp16 \\[3, 2\\] needs 12 bytes at offset 0 but the file has 10"):
        read_blob(raw, 0, "fp16", (3, 2))
    with pytest.raises(WeightBinError, match="truncated"):
        read_blob(raw, 4, "int8", (7,))
    with pytest.raises(WeightBinError, match="cannot store a bool array"):
        write_weight_bin([np.array([True])])


# ---------------------------------------------------------------------------
# malformed text: file:line and token


BASE = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 4]> a,
                     tensor<fp16, [1, 4]> b) {
        tensor<fp16, [4]> c = const()[name = string("c"), val = tensor<fp16, [4]>([1, 2, 3, 4])];
        tensor<fp16, [1, 4]> s = add(x = a, y = b)[name = string("s")];
        tensor<fp16, [1, 4]> y = mul(x = s, y = c)[name = string("y")];
    } -> (y);
}
"""


def test_base_program_parses():
    fn = parse_mil(BASE, "bad.mil").main
    assert [o.result for o in fn.ops] == ["s", "y"] and fn.consts["c"].tolist() == [1, 2, 3, 4]


BAD = [
    # (old, new, line, token, message)
    ('name = string("c")', 'name = str("c")', 5, "str", "unknown literal type 'str'"),
    ("add(x = a, y = b)", "add(x = a, y = b))", 6, ")", "unbalanced brackets: ')' does not close '{' opened on line 4"),
    ("    } -> (y);\n}\n", "    } -> (y);\n", 2, "{", "unbalanced brackets: '{' is never closed"),
    ("y = mul(", "y mul(", 7, "mul", "expected '=' after 'y'"),
    ('string("s")];', 'string("s")]', 6, "]", "missing ';' after the statement"),
    ("mul(x = s,", "mul(x = t,", 7, "t", "undefined variable 't'"),
    ("[1, 4]> s = add", "[1, 4]> a = add", 6, "a", "duplicate variable 'a'"),
    ("[4]>([1, 2, 3, 4])", "[4]>([1, 2, 3])", 5, "[", "inline tensor has 3 elements but tensor<fp16, [4]> needs 4"),
    ("    } -> (y);\n", "    }\n", 8, "}", "missing function outputs"),
    ("-> (y);", "-> (z);", 8, "z", "function output 'z' is not defined in 'main'"),
    ("-> (y);", "-> ();", 8, ")", "missing function outputs: 'main' returns nothing"),
    ('string("c")', 'string("c)', 5, '"c), val = tensor<fp16, [4]>([1, 2, 3, 4])];', "unterminated string"),
    ("tensor<fp16, [1, 4]> y", "tensor<fp17, [1, 4]> y", 7, "fp17", "unknown dtype 'fp17'"),
    ("(x = s, y = c)", "(x = s, y = 2.0)", 7, "2.0", "untyped literal"),
    ("(x = s, y = c)", "(x = s, y = int8(300))", 7, "300", "value 300 out of range for int8"),
    ("(x = s, y = c)", "(x = s, x = c)", 7, "x", "duplicate argument 'x'"),
    ("[4]> c = const", "[5]> c = const", 5, "tensor", "const declared tensor<fp16, [5]> but its val is tensor<fp16, [4]>"),
    (", val = tensor<fp16, [4]>([1, 2, 3, 4])", "", 5, "const", "const 'c' has no val"),
    ("(x = s, y = c)", "(x = s, y = c @)", 7, "@", "unexpected character"),
    ("program(1.3)", "programme(1.3)", 1, "programme", "expected 'program(<version>)'"),
    ("y = mul(", "y = constexpr_lut_to_dense(", 7, "constexpr_lut_to_dense", "unsupported constexpr op"),
    ("    } -> (y);\n}\n", "    } -> (y);\n}\n}\n", 10, "}", "unbalanced brackets: '}' has no matching '{'"),
    ("(x = a, y = b)", "(x = a, y = tensor<fp16, [2]>(BLOBFILE(path = string(\"w.bin\"), offset = uint64(0))))", 6,
     "string", "BLOBFILE path 'w.bin' is relative but no base directory is known"),
]


@pytest.mark.parametrize("old, new, line, token, message", BAD, ids=[b[4][:30] for b in BAD])
def test_malformed_input_names_file_line_and_token(old, new, line, token, message):
    assert old in BASE
    with pytest.raises(MilError) as e:
        parse_mil(BASE.replace(old, new, 1), "bad.mil")
    err = e.value
    assert (err.file, err.line, err.token) == ("bad.mil", line, token), str(err)
    assert str(err).startswith(f"bad.mil:{line}: ") and message in str(err)
    shown = token if len(token) <= 40 else token[:37] + "..."
    assert str(err).endswith(f"(at '{shown}')")


def test_truncated_and_mangled_text_only_raises_mil_error():
    """Every prefix and many single-character deletions give a MilError, never another exception."""
    for text in (BASE, TRAIN):
        cuts = range(0, len(text), 3 if text is BASE else 11)
        for n in cuts:
            for variant in (text[:n], text[:n] + text[n + 1:]):
                try:
                    parse_mil(variant, "cut.mil")
                except MilError as e:
                    assert str(e).startswith("cut.mil")
    with pytest.raises(MilError, match="nested too deeply"):
        parse_mil(BASE.replace("[1, 2, 3, 4]", "[" * 3000 + "1" + "]" * 3000), "deep.mil")
