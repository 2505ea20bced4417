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
from npubuild.core.errors import UserError

from .mil_convert import milproto_text
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
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {{
        tensor<fp16, [64]> gam = const()[name = tensor<string, []>("gam"), val = tensor<fp16, [64]>(BLOBFILE(path = tensor<string, []>("{d}/gam.bin"), offset = tensor<uint64, []>(0)))];
        tensor<int8, [128, 64]> Wu_q = const()[val = tensor<int8, [128, 64]>(BLOBFILE(offset = tensor<uint64, []>(0), path = tensor<string, []>("{d}/wu_q8.bin")))];
        tensor<fp16, [128, 2]> Wu_s = const()[val = tensor<fp16, [128, 2]>(BLOBFILE(path = tensor<string, []>("{d}/wu_sc.bin"), offset = tensor<uint64, []>(0)))];
        tensor<fp16, [128, 64]> Wu = constexpr_blockwise_shift_scale(scale = Wu_s, data = Wu_q)[name = tensor<string, []>("Wu")];
        tensor<fp16, [128, 64]> Wg = const()[val = tensor<fp16, [128, 64]>(BLOBFILE(path = tensor<string, []>("{d}/wg.bin"), offset = tensor<uint64, []>(0)))];
        tensor<fp16, [64, 128]> Wd = const()[val = tensor<fp16, [64, 128]>(BLOBFILE(path = tensor<string, []>("{d}/wd.bin"), offset = tensor<uint64, []>(0)))];
        tensor<bool, []> bt = const()[val = tensor<bool, []>(true)];
        tensor<int32, [4]> row = const()[val = tensor<int32, [4]>([1, 1, 1, 64])];
        tensor<fp16, [1, 1, 1, 64]> xr = reshape(shape = row, x = x)[name = tensor<string, []>("xr")];
        tensor<fp16, [1, 1, 1, 64]> xn = rms_norm(eps = tensor<fp16, []>(0x1.5p-17), w = gam, x = xr)[name = tensor<string, []>("xn")];
        tensor<fp16, [1, 1, 1, 128]> u = matmul(transpose_y = bt, x = xn, y = Wu)[name = tensor<string, []>("u")];
        tensor<fp16, [1, 1, 1, 128]> g = matmul(transpose_y = bt, x = xn, y = Wg)[name = tensor<string, []>("g")];
        tensor<fp16, [1, 1, 1, 128]> gs = sigmoid(x = g)[name = tensor<string, []>("gs")];
        tensor<fp16, [1, 1, 1, 128]> gsl = mul(x = g, y = gs)[name = tensor<string, []>("gsl")];
        tensor<fp16, [1, 1, 1, 128]> fu = mul(x = u, y = gsl)[name = tensor<string, []>("fu")];
        tensor<fp16, [1, 1, 1, 64]> dn = matmul(transpose_y = bt, x = fu, y = Wd)[name = tensor<string, []>("dn")];
        tensor<fp16, [1, 64, 1, 1]> dnc = reshape(shape = tensor<int32, [4]>([1, 64, 1, 1]), x = dn)[name = tensor<string, []>("dnc")];
        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = dnc)[name = tensor<string, []>("y")];
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
        ("reshape", "xr"), ("rms_norm", "xn"), ("matmul", "u"), ("matmul", "g"), ("sigmoid", "gs"),
        ("mul", "gsl"), ("mul", "fu"), ("matmul", "dn"), ("reshape", "dnc"), ("add", "y"),
    ]
    assert [o.line for o in fn.ops] == list(range(12, 22))
    assert [o.name for o in fn.ops] == [o.result for o in fn.ops]
    assert fn.outputs == ["y"]
    assert set(fn.consts) == {"gam", "Wu_q", "Wu_s", "Wu", "Wg", "Wd", "bt", "row"}
    assert prog.extensions == {"rms_norm": [13]} and prog.uses_extension_ops  # the one npubuild extension op

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

    xn = fn.ops[1]
    assert xn.args == {"x": Ref("xr"), "w": Ref("gam"), "eps": Literal(MilType("fp16"), float(F16(1e-5)))}
    assert xn.args["eps"].value == 1.0013580322265625e-05
    assert xn.type == t16(1, 1, 1, 64) and xn.results == (("xn", t16(1, 1, 1, 64)),)
    assert fn.ops[2].args == {"x": Ref("xn"), "y": Ref("Wu"), "transpose_y": Ref("bt")}
    assert fn.type_of("dn") == t16(1, 1, 1, 64) and fn.type_of("Wd") == t16(64, 128)
    # the constexpr op as written, for exporters that keep the compression
    assert fn.constexprs["Wu"].op == "constexpr_blockwise_shift_scale"
    assert fn.constexprs["Wu"].args == {"data": Ref("Wu_q"), "scale": Ref("Wu_s")}


def test_verbose_program_1_0_style_reads_the_same(seed1):
    d, _ = seed1
    short = parse_mil(SWIGLU.format(d=d), "short.mil").main
    verbose_prog = parse_mil(PROG1_VERBOSE.format(d=d), "verbose.mil")
    assert verbose_prog.version == "1.0"
    verbose = verbose_prog.main
    assert verbose == short
    assert dataclasses.replace(verbose, opset="ios17") != short  # equality sees the opset ...
    # ... and values: a changed weight element is noticed
    changed = dataclasses.replace(verbose, consts=dict(verbose.consts))
    changed.consts["Wg"] = changed.consts["Wg"].copy()
    changed.consts["Wg"][3, 5] += F16(1)
    assert changed != short
    # constexpr_blockwise_shift_scale is an iOS18 op: an ios16 function cannot use it
    with pytest.raises(MilError) as e:
        parse_mil(PROG1_VERBOSE.format(d=d).replace("main<ios18>", "main<ios16>"), "verbose.mil")
    assert e.value.line == 8 and "constexpr_blockwise_shift_scale is an iOS18 op; this function's opset is ios16" in str(e.value)


def test_seed_conv_chain(tmp_path):
    rng = np.random.default_rng(0)
    ws = {"w1": (96, 64, 1, 1), "w2": (64, 96, 1, 1), "w3": (64, 64, 1, 1)}
    data = {k: rng.standard_normal(s).astype(F16) for k, s in ws.items()}
    write_raw(tmp_path, data)
    fn = parse_mil(FUSE.format(d=tmp_path), "conv.mil").main
    assert [(o.op, o.result) for o in fn.ops] == [
        ("conv", "c1"), ("conv", "c2"), ("conv", "g"), ("sigmoid", "gs"), ("mul", "gsl"), ("add", "y"),
    ]
    assert fn.ops[0].args == {"weight": Ref("W1"), "x": Ref("x"), "strides": Ref("st"), "pad_type": Ref("pt"),
                              "pad": Ref("pd"), "dilations": Ref("dl"), "groups": Ref("gr")}
    assert fn.ops[0].type == t16(1, 96, 1, 1) and fn.consts["pt"] == "valid" and fn.consts["gr"] == 1
    for k in ("W1", "W2", "W3"):
        np.testing.assert_array_equal(fn.consts[k], data[k.lower()])
        assert fn.consts[k].shape == ws[k.lower()]
    assert fn.outputs == ["y"]


def test_seed_training_graph_multiline_signature():
    fn = parse_mil(TRAIN, "train.mil").main
    assert [n for n, _ in fn.inputs] == ["x", "target", "neg_lr", "one", "W1", "W2"]
    assert dict(fn.inputs)["W1"] == t16(1, 64, 1, 64) and dict(fn.inputs)["x"] == t16(1, 1, 1, 64)
    assert len(fn.ops) == 18 and fn.ops[0].line == 12 and fn.ops[-1].line == 29
    assert [o.op for o in fn.ops].count("matmul") == 5 and [o.op for o in fn.ops].count("reshape") == 4
    assert fn.ops[8].args == {"x": Ref("dyc"), "y": Ref("W2m"), "transpose_x": Ref("bt")}
    assert fn.ops[8].type == t16(1, 1, 1, 64)
    assert list(fn.consts) == ["bt", "row", "col"] and bool(fn.consts["bt"])
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
        tensor<fp16, [1, ?]> r = clip(alpha=fp16(0.125),beta=fp16(1e3),x=a)[name=string("r")];
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
    assert clip.args["beta"] == Literal(MilType("fp16"), 1000.0)
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
    ("y = mul(", "y = constexpr_lut_to_sparse(", 7, "constexpr_lut_to_sparse", "unsupported constexpr op"),
    ("y = mul(", "y = constexpr_lut_to_dense(", 7, "s", "unknown argument 'x' for constexpr_lut_to_dense in the iOS18 form"),
    ("tensor<fp16, [1, 4]> s = add", "(tensor<fp16, [1, 4]> s, tensor<fp16, [1, 4]> s) = add", 6, "s", "duplicate variable 's'"),
    ("tensor<fp16, [1, 4]> s = add", "state<tensor<fp16, [1, 4]>> s = add", 6, "s", "only function inputs are states"),
    ("tensor<fp16, [1, 4]> b)", "state<fp16> b)", 4, "state", "a state wraps a tensor type, not fp16"),
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


# ---------------------------------------------------------------------------
# real compiled text: states, several results, constexpr attributes, sub-byte blobs, palettes

STATEFUL = """program(1.3)
{
    func main<ios18>(state<tensor<fp16, [1, 64]>> cache, tensor<fp16, [1, 64]> x) {
        tensor<fp16, [1, 64]> old = read_state(input = cache)[name = string("old")];
        tensor<fp16, [1, 64]> acc = add(x = old, y = x)[name = string("acc")];
        write_state(data = acc, input = cache)[name = string("acc_write")];
        tensor<fp16, [1, 64]> now = coreml_update_state(state = cache, value = acc)[name = string("now")];
        (tensor<fp16, [1, 32]> lo, tensor<fp16, [1, 32]> hi) = split(axis = int32(1), num_splits = int32(2), x = now)[name = string("sp")];
        tensor<fp16, [1, 16]> a, tensor<fp16, [1, 48]> b = split(axis = int32(1), split_sizes = tensor<int32, [2]>([16, 48]), x = acc)[name = string("sp2")];
        tensor<fp16, [1, 32]> y = mul(x = lo, y = hi)[name = string("y")];
    } -> (y, b);
}"""


def test_states_write_state_and_multi_result_ops():
    fn = parse_mil(STATEFUL, "st.mil").main
    cache = dict(fn.inputs)["cache"]
    assert cache == MilType("fp16", (1, 64), state=True) and str(cache) == "state<tensor<fp16, [1, 64]>>"
    assert [(o.op, o.result) for o in fn.ops] == [("read_state", "old"), ("add", "acc"), ("write_state", ""),
                                                  ("coreml_update_state", "now"), ("split", "lo"), ("split", "a"), ("mul", "y")]
    ws = fn.ops[2]
    assert ws.results == () and ws.name == "acc_write" and ws.line == 6 and ws.args == {"data": Ref("acc"), "input": Ref("cache")}
    assert fn.ops[4].results == (("lo", MilType("fp16", (1, 32))), ("hi", MilType("fp16", (1, 32))))
    assert fn.ops[5].results == (("a", MilType("fp16", (1, 16))), ("b", MilType("fp16", (1, 48))))
    assert fn.type_of("hi") == MilType("fp16", (1, 32)) and fn.type_of("b") == MilType("fp16", (1, 48))


@pytest.mark.parametrize("old, new, line, message", [
    ("add(x = old, y = x)", "add(x = cache, y = x)", 5,
     "add 'acc': declared tensor<fp16, [1, 64]> but MIL infers no valid type ('x' is 'cache' (state<tensor<fp16, [1, 64]>>); "
     "only read_state, coreml_update_state and write_state take a state)"),
    ("read_state(input = cache)", "read_state(input = x)", 4, "'input' is 'x' (tensor<fp16, [1, 64]>); it must be a state"),
    ("write_state(data = acc,", "write_state(data = lo,", 6, None),  # lo is defined later: undefined variable
    ("write_state(data = acc,", "write_state(data = x, extra = x,", 6, "write_state [name = 'acc_write']: declared no result but "
     "MIL infers no valid type (unknown input 'extra' (MIL's write_state takes input, data))"),
    ("(tensor<fp16, [1, 32]> lo, tensor<fp16, [1, 32]> hi)", "(tensor<fp16, [1, 32]> lo, tensor<fp16, [1, 32]> hi, tensor<fp16, [1, 32]> h2)", 8,
     "split 'lo', 'hi', 'h2': declares 3 result(s) but MIL's split makes 2: tensor<fp16, [1, 32]>, tensor<fp16, [1, 32]>"),
    ("tensor<fp16, [1, 48]> b", "tensor<fp16, [1, 40]> b", 9, "split 'b': declared tensor<fp16, [1, 40]> but MIL infers tensor<fp16, [1, 48]>"),
    ("[2]>([16, 48])", "[2]>([16, 40])", 9, "split_sizes [16, 40] add up to 56, not dimension 1 of x [1, 64]"),
    ("main<ios18>", "main<ios17>", 4, "read_state 'old': read_state is an iOS18 op; function 'main' has opset ios17"),
    ("value = acc", "value = lo", 7, None),
    ("value = acc", "value = old2", 7, None),
])
def test_state_and_split_errors_name_the_line(old, new, line, message):
    assert old in STATEFUL
    with pytest.raises(MilError) as e:
        parse_mil(STATEFUL.replace(old, new), "st.mil")
    assert e.value.line == line, str(e.value)
    if message:
        assert message in str(e.value)


def test_coreml_update_state_takes_the_value_type():
    bad = STATEFUL.replace("tensor<fp16, [1, 64]> now = coreml_update_state(", "tensor<fp16, [1, 32]> now = coreml_update_state(")
    with pytest.raises(MilError, match="st.mil:7: coreml_update_state 'now': declared tensor<fp16, \\[1, 32\\]> but MIL infers "
                                       "tensor<fp16, \\[1, 64\\]>"):
        parse_mil(bad, "st.mil")
    with pytest.raises(MilError, match="st.mil:7: write_state .*\\(data is tensor<fp16, \\[2, 32\\]> but the state holds "
                                       "tensor<fp16, \\[1, 64\\]>"):
        parse_mil(STATEFUL.replace("write_state(data = acc,", "write_state(data = s32,").replace(
            "        write_state", "        tensor<fp16, [2, 32]> s32 = reshape(x = acc, shape = tensor<int32, [2]>([2, 32]))[name = string(\"r\")];\n"
            "        write_state"), "st.mil")


def _one_const(decl: str, expr: str, opset: str = "ios18", extra: str = "") -> str:
    """A program whose constant ``w`` (line 5) is ``expr``; ``extra`` goes on line 4."""
    return (f"program(1.3)\n{{\n    func main<{opset}>(tensor<fp16, [2]> x) {{\n{extra or '        // nothing'}\n"
            f"        {decl} w = {expr};\n"
            "        tensor<fp16, [2]> y = relu(x = x)[name = string(\"y\")];\n    } -> (y);\n}\n")


def test_affine_dequantize_in_the_attribute_form_matches_coremltools(tmp_path):
    from coremltools.converters.mil.mil.ops.defs.iOS16.constexpr_ops import constexpr_affine_dequantize as ct_affine

    rng = np.random.default_rng(3)
    q = rng.integers(-128, 128, (4, 3)).astype(np.int8)
    scale = np.array([0.5, 0.25, 2.0, 0.125], np.float16)
    data, (off,) = write_weight_bin([q])
    (tmp_path / "weight.bin").write_bytes(data)
    blob = f'tensor<int8, [4, 3]>(BLOBFILE(path = string("@model_path/weight.bin"), offset = uint64({off})))'
    scale_lit = "tensor<fp16, [4]>([0x1p-1, 0x1p-2, 0x1p+1, 0x1p-3])"
    attr = (f"constexpr_affine_dequantize()[axis = int32(0), name = string(\"w\"), quantized_data = {blob}, "
            f"scale = {scale_lit}, zero_point = int8(3)]")
    fn = parse_mil(_one_const("tensor<fp16, [4, 3]>", attr), "a.mil", tmp_path).main
    want = ct_affine.decompress(q, np.int8(3), scale, 0)
    assert fn.consts["w"].dtype == np.float16 and want.dtype == np.float16
    np.testing.assert_array_equal(fn.consts["w"], want)
    assert fn.constexprs["w"].args["zero_point"] == Literal(MilType("int8"), 3)
    # the argument form computes the same
    args = f"constexpr_affine_dequantize(axis = int32(0), quantized_data = {blob}, scale = {scale_lit}, zero_point = int8(3))"
    np.testing.assert_array_equal(parse_mil(_one_const("tensor<fp16, [4, 3]>", args), "a.mil", tmp_path).main.consts["w"], want)
    for text, message in [
        (attr.replace("()[axis = int32(0), ", "(axis = int32(1))[axis = int32(0), "), "'axis' of constexpr_affine_dequantize is "
                                                                                    "given both as an argument and as an attribute"),
        (attr.replace("zero_point = int8(3)", "zero_point = fp16(3)"), "'zero_point' is fp16; it must be int8 or uint8 or fp32"),
        (attr.replace("scale = " + scale_lit, "scale = tensor<fp16, [3]>([1, 2, 3])"), "scale must be a scalar or have 4 elements"),
    ]:
        with pytest.raises(MilError) as e:
            parse_mil(_one_const("tensor<fp16, [4, 3]>", text), "a.mil", tmp_path)
        assert e.value.line == 5 and message in str(e.value), str(e.value)
    with pytest.raises(MilError) as e:  # the declared type is checked like any op's
        parse_mil(_one_const("tensor<fp32, [4, 3]>", attr), "a.mil", tmp_path)
    assert "constexpr_affine_dequantize 'w': declared tensor<fp32, [4, 3]> but MIL infers tensor<fp16, [4, 3]>" in str(e.value)


SUB_BYTE_KINDS = [("int4", -8, 8), ("uint1", 0, 2), ("uint2", 0, 4), ("uint3", 0, 8), ("uint4", 0, 16), ("uint6", 0, 64)]


def test_sub_byte_blobs_written_by_coremltools_read_back(tmp_path):
    """coremltools' own blob writer (libmilstoragepython) writes every sub-byte dtype; npubuild reads the
    values, and npubuild's writer makes the very same bytes."""
    from coremltools.libmilstoragepython import _BlobStorageWriter

    rng = np.random.default_rng(5)
    path = tmp_path / "weight.bin"
    writer = _BlobStorageWriter(str(path))
    blobs, offsets = [], []
    for dtype, lo, hi in SUB_BYTE_KINDS:
        for n in (1, 7, 8, 9, 100, 1001):
            v = rng.integers(lo, hi, n).astype(np.int8 if lo < 0 else np.uint8)
            offsets.append(getattr(writer, f"write_{dtype}_data")(v))
            blobs.append((v, dtype))
    del writer  # flushes the file
    data = path.read_bytes()
    mine, my_offsets = write_weight_bin(blobs)
    assert mine == data and my_offsets == offsets
    for (v, dtype), off in zip(blobs, offsets):
        got = read_blob(path, off, dtype, v.shape)
        assert got.dtype == v.dtype, dtype
        np.testing.assert_array_equal(got, v)
    # in MIL text, as constants
    (v, dtype), off = blobs[3 * 6 + 2], offsets[3 * 6 + 2]  # uint3, 8 values
    decl = f"tensor<{dtype}, [2, 4]>"
    fn = parse_mil(_one_const(decl, f'const()[val = {decl}(BLOBFILE(path = string("{path}"), offset = uint64({off})))]'), "s.mil").main
    np.testing.assert_array_equal(fn.consts["w"], v.reshape(2, 4))
    # a wrong count is caught by the padding bits even when the byte count agrees: 7 uint4 values are 4 bytes, as 8 are
    (v, dtype), off = blobs[4 * 6 + 1], offsets[4 * 6 + 1]
    assert (dtype, v.size) == ("uint4", 7)
    with pytest.raises(WeightBinError, match="has 4 padding bits, so it holds 7 uint4 values, but uint4 \\[8\\] has 8"):
        read_blob(path, off, "uint4", (8,))
    with pytest.raises(WeightBinError, match="holds uint4 \\(code 11\\), the MIL declares int4 \\(code 8\\)"):
        read_blob(path, off, "int4", (7,))
    with pytest.raises(WeightBinError, match="cannot store values outside \\[-8, 7\\] as int4"):
        write_weight_bin([(np.array([8]), "int4")])


def test_palettes_and_sparse_constexprs_match_coremltools():
    from coremltools.converters.mil.mil.ops.defs.iOS16 import constexpr_ops as c16
    from coremltools.converters.mil.mil.ops.defs.iOS18 import compression as c18
    from coremltools.optimize._utils import pack_elements_into_bits

    rng = np.random.default_rng(7)

    def lit(a, dtype):
        return f"tensor<{dtype}, [{', '.join(map(str, a.shape))}]>([{', '.join(str(v) for v in a.reshape(-1).tolist())}])"

    # iOS16: 2-bit indices packed into uint8, a 4-entry palette, the output shape as uint32
    idx = rng.integers(0, 4, 12).astype(np.uint8)
    lut = np.array([-1.5, 0.25, 2.0, 8.0], np.float16)
    packed = pack_elements_into_bits(idx, 2)
    shape = np.array([3, 4], np.uint32)
    text = f"constexpr_lut_to_dense(indices = {lit(packed, 'uint8')}, lut = {lit(lut, 'fp16')}, shape = {lit(shape, 'uint32')})"
    fn = parse_mil(_one_const("tensor<fp16, [3, 4]>", text, "ios16"), "l.mil").main
    np.testing.assert_array_equal(fn.consts["w"], c16.constexpr_lut_to_dense.decompress(lut, packed, shape))
    # iOS18: uint2 indices [4, 6], one palette per 2 rows, vectors of 2 along axis 1 -> [4, 12]
    idx18 = rng.integers(0, 4, (4, 6)).astype(np.uint8)
    lut18 = rng.standard_normal((2, 1, 4, 2)).astype(np.float16)
    text18 = f"constexpr_lut_to_dense(indices = {lit(idx18, 'uint2')}, lut = {lit(lut18, 'fp16')}, vector_axis = int32(1))"
    fn = parse_mil(_one_const("tensor<fp16, [4, 12]>", text18), "l.mil").main
    np.testing.assert_array_equal(fn.consts["w"], c18.constexpr_lut_to_dense.decompress(idx18, lut18, np.int32(1)))
    # sparse, both forms
    mask = rng.integers(0, 2, (3, 5)).astype(np.uint8)
    nz = rng.standard_normal(int(mask.sum())).astype(np.float16)
    text = f"constexpr_sparse_to_dense(mask = {lit(mask, 'uint1')}, nonzero_data = {lit(nz, 'fp16')})"
    fn = parse_mil(_one_const("tensor<fp16, [3, 5]>", text), "s.mil").main
    np.testing.assert_array_equal(fn.consts["w"], c18.constexpr_sparse_to_dense.decompress(nz, mask))
    mask16 = np.packbits(mask.reshape(-1), bitorder="little")
    text = (f"constexpr_sparse_to_dense(mask = {lit(mask16, 'uint8')}, nonzero_data = {lit(nz, 'fp16')}, "
            f"shape = tensor<uint32, [2]>([3, 5]))")
    fn = parse_mil(_one_const("tensor<fp16, [3, 5]>", text, "ios17"), "s.mil").main
    np.testing.assert_array_equal(fn.consts["w"], c16.constexpr_sparse_to_dense.decompress(nz, mask16, np.array([3, 5])))
    # what each form refuses, at the op's line
    for decl, expr, opset, message in [
        ("tensor<fp16, [4, 12]>", text18.replace("lut18", "x").replace(", vector_axis = int32(1)", ""), "ios18",
         "the lut holds vectors of 2; vector_axis is needed"),
        ("tensor<fp16, [4, 12]>", text18.replace("'uint2'", "'uint4'"), "ios18", None),
        ("tensor<fp16, [4, 6]>", text18, "ios18", "constexpr_lut_to_dense 'w': declared tensor<fp16, [4, 6]> but MIL infers tensor<fp16, [4, 12]>"),
        ("tensor<fp16, [3, 4]>", f"constexpr_lut_to_dense(indices = {lit(packed[:2], 'uint8')}, lut = {lit(lut, 'fp16')}, "
                                 f"shape = {lit(shape, 'uint32')})", "ios16", "indices has 2 bytes; 12 2-bit indices need 3"),
        ("tensor<fp16, [3, 4]>", text18, "ios16", "unknown argument 'vector_axis' for constexpr_lut_to_dense in the iOS16 form"),
    ]:
        if message is None:  # 4-entry palettes need uint2 indices
            expr = f"constexpr_lut_to_dense(indices = {lit(idx18, 'uint4')}, lut = {lit(lut18, 'fp16')}, vector_axis = int32(1))"
            message = "lut has 4 entries per palette; uint4 indices need 16"
        with pytest.raises(MilError) as e:
            parse_mil(_one_const(decl, expr, opset), "l.mil")
        assert e.value.line == 5 and message in str(e.value), str(e.value)


def test_sparse_blockwise_shift_scale_has_two_results_matching_coremltools():
    """iOS18 constexpr_sparse_blockwise_shift_scale defines the mask and the dequantised nonzero data
    (coremltools ops/defs/iOS18/compression.py); its results feed constexpr_sparse_to_dense."""
    from coremltools.converters.mil.mil.ops.defs.iOS18 import compression as c18

    rng = np.random.default_rng(3)
    mask = rng.integers(0, 2, (4, 6)).astype(np.uint8)
    nz = rng.integers(-8, 8, int(mask.sum())).astype(np.int8)
    scale = rng.uniform(0.5, 2, (2, 3)).astype(np.float16)
    offset = rng.integers(-2, 3, (2, 3)).astype(np.int8)

    def lit(a, dtype):
        v = ", ".join(float(x).hex() if dtype.startswith("fp") else str(int(x)) for x in a.reshape(-1).tolist())
        return f"tensor<{dtype}, [{', '.join(map(str, a.shape))}]>([{v}])"

    n = int(mask.sum())

    def text(d_decl=f"tensor<fp16, [{n}]>", m_decl="tensor<uint1, [4, 6]>", paren=True, extra=""):
        res = f"{m_decl} m, {d_decl} d"
        return ("program(1.3)\n{\n    func main<ios18>(tensor<fp16, [4, 6]> x) {\n"
                f"        {'(' + res + ')' if paren else res} = constexpr_sparse_blockwise_shift_scale(data_mask = {lit(mask, 'uint1')}, "
                f"nonzero_data = {lit(nz, 'int8')}, scale = {lit(scale, 'fp16')}, offset = {lit(offset, 'int8')}{extra})"
                "[name = string(\"s\")];\n"
                "        tensor<fp16, [4, 6]> w = constexpr_sparse_to_dense(mask = m, nonzero_data = d)[name = string(\"w\")];\n"
                "        tensor<fp16, [4, 6]> y = add(x = x, y = w)[name = string(\"y\")];\n    } -> (y);\n}\n")

    want_mask, want_nz = c18.constexpr_sparse_blockwise_shift_scale.decompress(mask, nz, scale, offset)
    for paren in (True, False):
        fn = parse_mil(text(paren=paren), "s.mil").main
        assert fn.const_types["m"] == MilType("uint1", (4, 6)) and fn.const_types["d"] == MilType("fp16", (n,))
        np.testing.assert_array_equal(fn.consts["m"], want_mask)
        np.testing.assert_array_equal(fn.consts["d"], want_nz)
        np.testing.assert_array_equal(fn.consts["w"], c18.constexpr_sparse_to_dense.decompress(want_nz, want_mask))
        assert fn.constexprs["m"] is fn.constexprs["d"] and fn.constexprs["d"].results[1][0] == "d"
    for kw, message in [
        ({"d_decl": f"tensor<fp32, [{n}]>"}, f"constexpr_sparse_blockwise_shift_scale 'd': declared tensor<fp32, [{n}]> but MIL "
                                             f"infers tensor<fp16, [{n}]>"),
        ({"m_decl": "tensor<uint1, [6, 4]>"}, "constexpr_sparse_blockwise_shift_scale 'm': declared tensor<uint1, [6, 4]> but MIL "
                                              "infers tensor<uint1, [4, 6]>"),
        ({"extra": ", axis = int32(0)"}, "unknown argument 'axis'"),
    ]:
        with pytest.raises(MilError) as e:
            parse_mil(text(**kw), "s.mil")
        assert e.value.line == 4 and message in str(e.value), str(e.value)
    one = text().replace(f"(tensor<uint1, [4, 6]> m, tensor<fp16, [{n}]> d)", f"tensor<fp16, [{n}]> d")
    with pytest.raises(MilError, match="s.mil:4: .*defines two results .*not 1"):
        parse_mil(one, "s.mil")
    with pytest.raises(MilError, match="s.mil:4: .*is an iOS18 op"):
        parse_mil(text().replace("<ios18>", "<ios17>"), "s.mil")


# ---- coremltools' own programs, converted and printed as MIL text (converter: tests/mil_convert.py) -----------------


def test_a_program_converted_by_coremltools_reads_with_its_values(tmp_path):
    """Palettized (iOS18 lut, uint4 indices), int4 blockwise and int8 affine weights and a state, built
    with coremltools' MIL builder, converted to an mlprogram (EMPTY pass pipeline), printed as text:
    npubuild reads every op, every declared type agrees with its inference, and every weight is the
    value coremltools materialises."""
    import coremltools as ct
    from coremltools.converters.mil import Builder as mb
    from coremltools.converters.mil.mil import types

    rng = np.random.default_rng(11)
    idx = rng.integers(0, 16, (8, 32)).astype(types.np_uint4_dtype)
    lut = rng.standard_normal((2, 1, 16, 1)).astype(np.float16)
    q4 = rng.integers(-8, 8, (8, 32)).astype(types.np_int4_dtype)
    off4 = rng.integers(-8, 8, (8, 2)).astype(types.np_int4_dtype)
    sc = (rng.random((8, 2)) + 0.5).astype(np.float16)
    q8 = rng.integers(-128, 128, (8, 32)).astype(np.int8)

    @mb.program(input_specs=[mb.TensorSpec(shape=(1, 32), dtype=types.fp16), mb.StateTensorSpec(shape=(1, 8), dtype=types.fp16)],
                opset_version=ct.target.iOS18)
    def prog(x, acc):
        w1 = mb.constexpr_lut_to_dense(indices=idx, lut=lut, name="w1")
        w2 = mb.constexpr_blockwise_shift_scale(data=q4, scale=sc, offset=off4, name="w2")
        w3 = mb.constexpr_affine_dequantize(quantized_data=q8, zero_point=np.int8(3), scale=np.float16(0.5), axis=0, name="w3")
        h = mb.add(x=mb.add(x=mb.linear(x=x, weight=w1, name="a"), y=mb.linear(x=x, weight=w2, name="b")),
                   y=mb.linear(x=x, weight=w3, name="c"), name="h")
        s = mb.coreml_update_state(state=acc, value=mb.add(x=mb.read_state(input=acc, name="old"), y=h), name="s")
        return mb.softmax(x=mb.gelu(x=s, mode="TANH_APPROXIMATION", name="g"), name="y")

    model = ct.convert(prog, convert_to="mlprogram", minimum_deployment_target=ct.target.iOS18,
                       pass_pipeline=ct.PassPipeline.EMPTY, skip_model_load=True)
    text = milproto_text(model.get_spec())
    assert "constexpr_affine_dequantize()[axis = int32(0)" in text  # coremltools writes iOS16 constexpr params as attributes
    assert "write_state(data = " in text and "state<tensor<fp16, [1, 8]>> acc" in text
    mil = Path(model.weights_dir).parent / "model.mil"  # beside weights/, where @model_path points
    mil.write_text(text)
    fn = load_mil(mil).main
    assert fn.opset == "CoreML8"
    ops = {o.name: o for o in prog.functions["main"].operations}
    for name in ("w1", "w2", "w3"):
        want = ops[name].materialized_val_inference()
        assert fn.consts[name].dtype == want.dtype, name
        np.testing.assert_array_equal(fn.consts[name], want, err_msg=name)
    assert [o.op for o in fn.ops if o.op.endswith("state")] == ["read_state", "write_state", "read_state"]
    assert fn.type_of("y") == MilType("fp16", (1, 8))
