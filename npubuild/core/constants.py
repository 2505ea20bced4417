"""Names shared by the whole package, importable without loading the op catalog."""
from __future__ import annotations

DTYPES = ("f32", "f16", "bf16", "i8", "u8", "i4", "u4", "i32", "i64", "bool")
# u8 (uint8, ONNX's quantized weights and images) is a storage type: cast, movement, compares,
# where and quantize/dequantize take it, arithmetic does not (it is not in NUMERIC_DTYPES).
# i4 / u4 (ONNX int4 / uint4) are quantize/dequantize's codes only, one per byte as
# ml_dtypes.int4 / uint4 hold them (the value in the low nibble): no other op takes them.
SUB_BYTE_DTYPES = ("i4", "u4")
BYTE_DTYPES = tuple(d for d in DTYPES if d not in SUB_BYTE_DTYPES)  # what cast and movement take
FLOAT_DTYPES = ("f32", "f16", "bf16")
NUMERIC_DTYPES = ("f32", "f16", "bf16", "i8", "i32", "i64")
TARGETS = ("ref", "host", "xdna", "ane")
# Bump when the meaning of an instance description changes (forces new keys): spec.instances
# makes the keys, artifacts.manifest_records checks a manifest's against the same recipe.
INSTANCE_VERSION = 1
# The kernel ABI record: its version and the symbol a host kernel exports it under. The host
# emitter writes both, the runtime's manifest reader (artifacts.abi) reads them; the xdna abi.json
# carries the same version.
ABI_VERSION = 1
ABI_SYMBOL = "npubuild_abi"
XDNA_DEVICES = ("npu1", "npu2")
# where an xdna core's compute body comes from: npubuild's own (the host emitter's text, vectorized
# where aievec lowers it), mlir-aie's hand-written aie_kernels, or (auto) mlir-aie's kernel only where
# npubuild's body would be scalar (docs/xdna-kernels.md)
XDNA_BODY_SOURCES = ("auto", "generated", "mlir-aie")
XDNA_BODY_DEFAULT = "auto"
# the mmul a bf16 GEMM's mm.cc runs on npu2 (aie2p): the native 4x8x8 bf16 mmul, or the 8x8x8 one
# emulated with bfp16 (-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16; docs/xdna-gemm.md)
XDNA_BF16_MMULS = ("native", "bfp16")
XDNA_BF16_MMUL_DEFAULT = "native"
# NumPy's name of each dtype; "bfloat16" is ml_dtypes.bfloat16, which NumPy knows by
# that name only once ml_dtypes is imported: use numpy_dtype() to get the dtype object.
NUMPY_DTYPE = {
    "f32": "float32",
    "f16": "float16",
    "bf16": "bfloat16",
    "i8": "int8",
    "u8": "uint8",
    "i4": "int4",
    "u4": "uint4",
    "i32": "int32",
    "i64": "int64",
    "bool": "bool",
}

# bytes per element in memory (bool: one byte holding 0/1, as in NumPy)
DTYPE_BYTES = {"f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i8": 1, "u8": 1, "i4": 1, "u4": 1, "bool": 1, "i64": 8}


# What `npubuild ops` says about each float dtype on xdna: AIE2/AIE2P cores have no
# scalar FPU, so scalar f32 arithmetic is compiled to software routines; bf16 is
# the float the NPU's vector units take (mlir-aie's own kernels, aie_kernels/, are bf16).
XDNA_FLOAT_NOTES = {
    "bf16": "the NPU's float (its vector units and mlir-aie's kernels take bf16); half the memory "
    "and DMA traffic of f32; bodies widen to f32 and round once to bf16",
    "f32": "soft-float path: AIE2/AIE2P cores have no scalar FPU, so scalar f32 arithmetic runs as "
    "software routines; use bf16 for speed",
}


def numpy_dtype(dtype: str):
    """The NumPy dtype object of one of our dtypes (imports NumPy, and ml_dtypes for bf16).

    ml_dtypes is imported only when a bf16 dtype is asked for: it takes about a
    second to import, which the build's no-op path must not pay."""
    import numpy as np

    if dtype in ("bf16", *SUB_BYTE_DTYPES):
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, NUMPY_DTYPE[dtype]))
    return np.dtype(NUMPY_DTYPE[dtype])
