"""Constants of a MIL program: ``const()`` values as declared, ``BLOBFILE``
blobs (byte-sized and sub-byte), and the ``constexpr_*`` ops computed at read time.

The constexpr ops and their rules follow coremltools 9.0's definitions:
``constexpr_affine_dequantize``, ``constexpr_cast``, and the iOS16 forms of
``constexpr_lut_to_dense`` / ``constexpr_sparse_to_dense`` from
``mil/ops/defs/iOS16/constexpr_ops.py``; ``constexpr_blockwise_shift_scale`` and
the iOS18 forms of the lut / sparse ops from ``mil/ops/defs/iOS18/compression.py``
(a function whose opset is ios18 or later uses the iOS18 forms, earlier opsets the
iOS16 ones, as coremltools registers them). Their parameters may be arguments or,
in the iOS16/17 text form, attributes (:mod:`.mil` merges both). Each result's
declared type must be the one the op infers; the value is materialised (fp16/fp32,
or the lut's integer dtype) into :attr:`MilFunction.consts`.

A mixin of the parser (:mod:`.mil`): it uses the parser's errors, its
per-constant limit and its byte budget.
"""
from __future__ import annotations

import math
from pathlib import Path

from ..ops.lazy_numpy import np
from . import weightbin
from .mil_model import FLOATS, HOLD, INT_BITS, Literal, MilFunction, MilType, Ref, opset_version
from .mil_tokens import Tok

_INT8 = ("int8", "uint8")
_LUT_T = ("int8", "uint8", "fp16", "fp32")
_SUB = ("int4", "uint4", "int8", "uint8", "fp16", "fp32")  # blockwise data / offset dtypes
#: constexpr ops with two results (iOS18/compression.py): the mask and the nonzero data of a sparse tensor
TWO_RESULTS = ("constexpr_sparse_blockwise_shift_scale",)
_BITS = {"uint1": 1, "uint2": 2, "uint3": 3, "uint4": 4, "uint6": 6, "uint8": 8}  # iOS18 lut indices


class ConstantReader:
    def materialise(self, lit: Literal, ty: MilType, tok: Tok):
        """A const's value as declared: NumPy array (0-d for scalars), str for strings."""
        lt = lit.type
        if lt.dtype != ty.dtype or not _shape_fits(lt.shape or (), ty.shape or ()):
            raise self.error(f"const declared {ty} but its val is {lt}", tok)
        if ty.dtype == "string" and not isinstance(lit.value, np.ndarray):
            return lit.value
        return np.asarray(lit.value, dtype=HOLD[ty.dtype]).reshape(lt.shape or ())

    # -- blob files
    def blobfile(self, ty: MilType):
        kw = self.next()  # BLOBFILE
        self.expect("(", "expected '(' after BLOBFILE")
        args: dict[str, tuple[Tok, Literal]] = {}
        while not self.at(")"):
            if args:
                self.expect(",", "expected ',' or ')' in BLOBFILE")
            key = self.ident("expected 'path' or 'offset' in BLOBFILE")
            if key.text not in ("path", "offset"):
                raise self.error(f"unknown BLOBFILE argument '{key.text}'", key)
            if key.text in args:
                raise self.error(f"duplicate BLOBFILE argument '{key.text}'", key)
            self.expect("=", f"expected '=' after '{key.text}'")
            vt = self.peek()
            v = self.value(None)
            if not isinstance(v, Literal):
                raise self.error(f"BLOBFILE {key.text} must be a literal", vt)
            want = ("string",) if key.text == "path" else tuple(INT_BITS)
            if v.type.shape is not None or v.type.dtype not in want:
                raise self.error(
                    f"BLOBFILE {key.text} must be {'a string' if key.text == 'path' else 'an integer'} literal", vt
                )
            args[key.text] = (vt, v)
        self.next()
        for k in ("path", "offset"):
            if k not in args:
                raise self.error(f"BLOBFILE has no {k}", kw)
        ptok, pv = args["path"]
        path = self.resolve_blob_path(pv.value, ptok)
        if ty.dtype not in weightbin.NUMPY_DTYPES and ty.dtype not in weightbin.SUB_BYTE:
            raise self.error(f"{ty} cannot be read from a blob file", kw)
        self.check_constant(ty, kw)
        try:
            data = self.blob_file(path, kw)
            return weightbin.blob_from_bytes(data, path, args["offset"][1].value, ty.dtype, ty.shape, copy=False)
        except weightbin.WeightBinError as e:
            raise self.error(str(e), kw) from None

    def blob_file(self, path: Path, kw: Tok) -> bytes:
        """The bytes of a blob file: inside the bounds' roots, regular, bounded; read once per program."""
        data = self.blob_data.get(path)
        if data is None:
            data = weightbin.read_file(path, self.bounds.max_bytes, self.bounds.roots, "max_artifact_size in [tool.npubuild]")
            self.spend(len(data), kw)
            self.blob_data[path] = data
        return data

    def resolve_blob_path(self, p: str, tok: Tok) -> Path:
        if "\0" in p:  # the OS would cut the name there; Path would raise
            raise self.error(f"BLOBFILE path {p!r} holds a NUL byte", tok)
        if p.startswith("@model_path/"):
            rel = p[len("@model_path/") :]
        elif Path(p).is_absolute():
            return Path(p)
        else:
            rel = p
        if self.base_dir is None:
            raise self.error(f"BLOBFILE path '{p}' is relative but no base directory is known", tok)
        return Path(self.base_dir) / rel

    # -- constexpr ops
    def const_arg(self, op: Tok, key: str, args, toks, fn: MilFunction, domain=None, required: bool = True):
        """(value, MIL type) of a constant parameter, None when optional and absent; its
        dtype must be in ``domain`` (the type domain of the op's definition)."""
        if key not in args:
            if required:
                raise self.error(f"{op.text} needs argument '{key}'", op)
            return None
        v = args[key]
        if isinstance(v, _Given):
            ty, value = MilType(v.dtype, v.value.shape), v.value
        elif isinstance(v, Ref):
            if v.name not in fn.consts:
                raise self.error(
                    f"argument '{key}' of {op.text} must be a constant; '{v.name}' is computed at run time",
                    toks[key],
                )
            ty = fn.const_types[v.name]
            value = np.asarray(fn.consts[v.name])
        elif isinstance(v, Literal):
            ty, value = v.type, np.asarray(v.value, dtype=HOLD[v.type.dtype])
        else:
            raise self.error(f"argument '{key}' of {op.text} must be a constant", toks[key])
        if domain is not None and ty.dtype not in domain:
            raise self.error(f"{op.text}: '{key}' is {ty}; it must be {' or '.join(domain)}", toks[key])
        return value, ty

    def constexpr(self, op: Tok, result: str, ty: MilType, args, toks, fn: MilFunction):
        if ty.shape is not None and any(d < 0 for d in ty.shape):
            raise self.error(f"{op.text} result {ty} cannot have '?' dimensions", op)
        self.spend(self.check_constant(ty, op), op)
        version = opset_version(fn.opset)
        rules = {
            "constexpr_blockwise_shift_scale": (self.blockwise_shift_scale, ("data", "scale", "offset")),
            "constexpr_affine_dequantize": (self.affine_dequantize, ("quantized_data", "zero_point", "scale", "axis")),
            "constexpr_cast": (self.cast, ("source_val", "output_dtype")),
        }
        ios18 = version >= 18 if version is not None else "shape" not in args
        if ios18:
            rules["constexpr_lut_to_dense"] = (self.lut18, ("indices", "lut", "vector_axis"))
            rules["constexpr_sparse_to_dense"] = (self.sparse18, ("nonzero_data", "mask"))
        else:
            rules["constexpr_lut_to_dense"] = (self.lut16, ("indices", "lut", "shape"))
            rules["constexpr_sparse_to_dense"] = (self.sparse16, ("nonzero_data", "mask", "shape"))
        if op.text not in rules:
            raise self.error(f"unsupported constexpr op '{op.text}' (npubuild reads {', '.join(sorted(rules))})", op)
        since = 18 if op.text == "constexpr_blockwise_shift_scale" else 16  # the opset that introduced the op
        if version is not None and version < since:
            raise self.error(f"{op.text} is an iOS{since} op; this function's opset is {fn.opset}", op)
        rule, params = rules[op.text]
        extra = sorted(set(args) - set(params))
        if extra:
            form = f" in the {'iOS18' if ios18 else 'iOS16'} form ({', '.join(params)})" if "lut" in op.text or "sparse" in op.text else ""
            raise self.error(f"unknown argument '{extra[0]}' for {op.text}{form}", toks[extra[0]])
        value, dtype, shape = rule(op, args, toks, fn)
        got = MilType(dtype, tuple(shape))
        if ty.dtype != got.dtype or not _shape_fits(got.shape, ty.shape or ()):
            raise self.error(f"{op.text} '{result}': declared {ty} but MIL infers {got}", op)
        return value

    def constexpr_pair(self, op: Tok, results, args, toks, fn: MilFunction) -> list:
        """The two values of a sparse-to-sparse constexpr op (``results``: its two (name, declared type))."""
        for _, ty in results:
            if ty.shape is not None and any(d < 0 for d in ty.shape):
                raise self.error(f"{op.text} result {ty} cannot have '?' dimensions", op)
            self.spend(self.check_constant(ty, op), op)
        version = opset_version(fn.opset)
        if version is not None and version < 18:
            raise self.error(f"{op.text} is an iOS18 op; this function's opset is {fn.opset}", op)
        params = ("data_mask", "nonzero_data", "scale", "offset")
        extra = sorted(set(args) - set(params))
        if extra:
            raise self.error(f"unknown argument '{extra[0]}' for {op.text} ({', '.join(params)})", toks[extra[0]])
        got = self.sparse_shift_scale(op, args, toks, fn)
        for (name, ty), (value, dtype, shape) in zip(results, got):
            inferred = MilType(dtype, tuple(shape))
            if ty.dtype != dtype or not _shape_fits(inferred.shape, ty.shape or ()):
                raise self.error(f"{op.text} '{name}': declared {ty} but MIL infers {inferred}", op)
        return [value for value, _, _ in got]

    def sparse_shift_scale(self, op, args, toks, fn):
        # iOS18/compression.py constexpr_sparse_blockwise_shift_scale: (data_mask, scale * (nonzero_data - offset)
        # at the mask's set positions, scale/offset in blocks of the dense shape); results uint1 mask, scale's dtype
        mask, _ = self.const_arg(op, "data_mask", args, toks, fn, ("uint1",))
        data, dty = self.const_arg(op, "nonzero_data", args, toks, fn, _SUB)
        self.const_arg(op, "scale", args, toks, fn, FLOATS[:2])
        if data.ndim != 1:
            raise self.error(f"{op.text}: nonzero_data must be a vector (rank 1), not rank {data.ndim}", toks["nonzero_data"])
        dense, _, _ = self._scatter(op, {"mask": toks["data_mask"]}, data, mask.reshape(-1).astype(bool), False, dty, mask.shape)
        sub = {"data": _Given(dense, dty), "scale": args["scale"]}
        sub_toks = {"data": toks["data_mask"], "scale": toks["scale"]}
        if "offset" in args:
            sub["offset"], sub_toks["offset"] = args["offset"], toks["offset"]
        value, sdt, _ = self.blockwise_shift_scale(op, sub, sub_toks, fn)
        return [(mask, "uint1", mask.shape), (value[mask.astype(bool)].reshape(-1), sdt, data.shape)]

    def blockwise_shift_scale(self, op, args, toks, fn):
        # iOS18/compression.py: output = scale * (data - offset), scale/offset repeated over blocks
        data, dty = self.const_arg(op, "data", args, toks, fn, _SUB)
        scale, sty = self.const_arg(op, "scale", args, toks, fn, FLOATS[:2])
        off = self.const_arg(op, "offset", args, toks, fn, _SUB, required=False)
        if data.ndim < 1:
            raise self.error(f"{op.text}: data must have rank 1 or more", toks["data"])
        if scale.ndim != data.ndim:
            raise self.error(f"{op.text}: scale has rank {scale.ndim} but data has rank {data.ndim}", toks["scale"])
        offset = None
        if off is not None:
            offset, oty = off
            if offset.shape != scale.shape:
                raise self.error(
                    f"{op.text}: offset shape {list(offset.shape)} differs from scale shape {list(scale.shape)}",
                    toks["offset"])
            if oty.dtype not in FLOATS and oty.dtype != dty.dtype:
                raise self.error(f"{op.text}: offset is {oty.dtype}; it must be a float or data's dtype {dty.dtype}",
                                 toks["offset"])
        for i, (d, s) in enumerate(zip(data.shape, scale.shape)):
            if s == 0 or d % s:
                raise self.error(f"{op.text}: data dim {i} ({d}) is not a multiple of scale dim {i} ({s})", toks["scale"])
        blocks = [d // s for d, s in zip(data.shape, scale.shape)]

        def expand(a):
            for ax, b in enumerate(blocks):
                if b != 1:
                    a = np.repeat(a, b, axis=ax)
            return a.astype(np.float32)

        x = data.astype(np.float32)
        if offset is not None:
            x = x - expand(offset)
        with np.errstate(over="ignore", invalid="ignore"):
            return (expand(scale) * x).astype(HOLD[sty.dtype]), sty.dtype, data.shape

    def affine_dequantize(self, op, args, toks, fn):
        # iOS16/constexpr_ops.py: (quantized_data - zero_point) * scale along axis
        q, _ = self.const_arg(op, "quantized_data", args, toks, fn, _INT8)
        zp, _ = self.const_arg(op, "zero_point", args, toks, fn, (*_INT8, "fp32"))
        sc, sty = self.const_arg(op, "scale", args, toks, fn, FLOATS[:2])
        axis_a, _ = self.const_arg(op, "axis", args, toks, fn, ("int32",))
        if axis_a.ndim != 0:
            raise self.error(f"{op.text}: axis must be an integer scalar", toks["axis"])
        axis = int(axis_a)
        if not -q.ndim <= axis < q.ndim:
            raise self.error(f"{op.text}: axis {axis} out of range for rank {q.ndim}", toks["axis"])
        axis %= q.ndim
        bshape = [1] * q.ndim
        for key, a in (("zero_point", zp), ("scale", sc)):
            if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != q.shape[axis]):
                raise self.error(f"{op.text}: {key} must be a scalar or have {q.shape[axis]} elements", toks[key])
        bshape[axis] = -1
        zpf = zp.astype(np.float32).reshape(bshape) if zp.ndim else zp.astype(np.float32)
        scf = sc.astype(np.float32).reshape(bshape) if sc.ndim else sc.astype(np.float32)
        with np.errstate(over="ignore", invalid="ignore"):
            return ((q.astype(np.float32) - zpf) * scf).astype(HOLD[sty.dtype]), sty.dtype, q.shape

    def cast(self, op, args, toks, fn):
        # iOS16/constexpr_ops.py: fp16 -> fp32 only
        src, _ = self.const_arg(op, "source_val", args, toks, fn, ("fp16",))
        out, _ = self.const_arg(op, "output_dtype", args, toks, fn, ("string",))
        if str(out) != "fp32":
            raise self.error(f"{op.text}: output_dtype must be \"fp32\", not {str(out)!r}", toks["output_dtype"])
        return src.astype(np.float32), "fp32", src.shape

    def _shape_param(self, op, args, toks, fn):
        shape, _ = self.const_arg(op, "shape", args, toks, fn, ("uint32",))
        if shape.ndim != 1:
            raise self.error(f"{op.text}: shape must be a vector", toks["shape"])
        return tuple(int(d) for d in shape)

    def lut16(self, op, args, toks, fn):
        # iOS16: indices packed n bits per value (LSB first) into a uint8 vector, lut a vector of 2^n values
        idx, _ = self.const_arg(op, "indices", args, toks, fn, ("uint8",))
        lut, lty = self.const_arg(op, "lut", args, toks, fn, _LUT_T)
        shape = self._shape_param(op, args, toks, fn)
        if idx.ndim != 1 or lut.ndim != 1:
            raise self.error(f"{op.text}: indices and lut must be vectors in the iOS16 form", toks["lut" if idx.ndim == 1 else "indices"])
        if lut.size not in (2, 4, 16, 64, 256):
            raise self.error(f"{op.text}: lut has {lut.size} entries; it must have 2, 4, 16, 64 or 256", toks["lut"])
        nbits, count = int(math.log2(lut.size)), math.prod(shape)
        if idx.size != math.ceil(nbits * count / 8):
            raise self.error(f"{op.text}: indices has {idx.size} bytes; {count} {nbits}-bit indices need "
                             f"{math.ceil(nbits * count / 8)}", toks["indices"])
        if nbits == 8:
            flat = idx
        else:
            flat = weightbin.unpack_bits(idx.tobytes(), f"uint{nbits}", count)
        return lut[flat.astype(np.intp)].reshape(shape), lty.dtype, shape

    def lut18(self, op, args, toks, fn):
        # iOS18: indices of uint1..uint8 in the output's shape; lut [*blocks, 2^n, vector_size], one
        # palette per block of indices; vector_size > 1 widens the vector_axis dimension
        idx, ity = self.const_arg(op, "indices", args, toks, fn, tuple(_BITS))
        lut, lty = self.const_arg(op, "lut", args, toks, fn, _LUT_T)
        va = self.const_arg(op, "vector_axis", args, toks, fn, ("int32",), required=False)
        if idx.ndim < 1 or lut.ndim != idx.ndim + 2:
            raise self.error(f"{op.text}: lut must have 2 more dimensions than indices (rank {idx.ndim}), "
                             f"it has rank {lut.ndim}", toks["lut"])
        for i, (d, b) in enumerate(zip(idx.shape, lut.shape)):
            if b == 0 or d % b:
                raise self.error(f"{op.text}: indices dim {i} ({d}) is not a multiple of lut dim {i} ({b})", toks["lut"])
        palette, vsize = lut.shape[-2], lut.shape[-1]
        if palette != 1 << _BITS[ity.dtype]:
            raise self.error(f"{op.text}: lut has {palette} entries per palette; {ity.dtype} indices need "
                             f"{1 << _BITS[ity.dtype]}", toks["lut"])
        axis = None
        if va is not None:
            if va[0].ndim != 0 or not -idx.ndim <= int(va[0]) < idx.ndim:
                raise self.error(f"{op.text}: vector_axis must be a scalar in [{-idx.ndim}, {idx.ndim})", toks["vector_axis"])
            axis = int(va[0]) % idx.ndim
        elif vsize > 1:
            raise self.error(f"{op.text}: the lut holds vectors of {vsize}; vector_axis is needed", op)
        block = np.zeros(idx.shape, dtype=np.intp)  # the palette each index reads
        for ax, (d, b) in enumerate(zip(idx.shape, lut.shape)):
            along = (np.arange(d) // (d // b)).reshape([-1 if i == ax else 1 for i in range(idx.ndim)])
            block = block * b + along
        out = lut.reshape(-1, palette, vsize)[block, idx.astype(np.intp)]  # [*indices.shape, vsize]
        shape = list(idx.shape)
        if vsize > 1:
            out = np.moveaxis(out, -1, axis + 1)
            shape[axis] *= vsize
        else:
            out = out[..., 0]
        return out.reshape(shape), lty.dtype, shape

    def sparse16(self, op, args, toks, fn):
        # iOS16: mask packs one bit per output element (LSB first) into uint8; set bits take nonzero_data in order
        data, dty = self.const_arg(op, "nonzero_data", args, toks, fn, _LUT_T)
        mask, _ = self.const_arg(op, "mask", args, toks, fn, ("uint8",))
        shape = self._shape_param(op, args, toks, fn)
        count = math.prod(shape)
        if data.ndim != 1 or mask.ndim != 1 or mask.size != math.ceil(count / 8):
            raise self.error(f"{op.text}: nonzero_data must be a vector and mask a vector of {math.ceil(count / 8)} bytes", toks["mask"])
        bits = np.unpackbits(mask.astype(np.uint8), bitorder="little")
        return self._scatter(op, toks, data, bits[:count].astype(bool), bits[count:].any(), dty, shape)

    def sparse18(self, op, args, toks, fn):
        # iOS18: mask is a uint1 tensor in the output's shape
        data, dty = self.const_arg(op, "nonzero_data", args, toks, fn, _SUB)
        mask, _ = self.const_arg(op, "mask", args, toks, fn, ("uint1",))
        if data.ndim != 1:
            raise self.error(f"{op.text}: nonzero_data must be a vector", toks["nonzero_data"])
        return self._scatter(op, toks, data, mask.reshape(-1).astype(bool), False, dty, mask.shape)

    def _scatter(self, op, toks, data, mask, padded, dty, shape):
        if padded:
            raise self.error(f"{op.text}: the padding bits of mask must be zero", toks["mask"])
        if int(mask.sum()) != data.size:
            raise self.error(f"{op.text}: mask has {int(mask.sum())} set bits but nonzero_data {data.size} values", toks["mask"])
        out = np.zeros(mask.size, dtype=data.dtype)
        out[mask] = data
        return out.reshape(shape), dty.dtype, tuple(shape)


class _Given:
    """A value a constexpr rule computed, passed to another rule as its operand."""

    def __init__(self, value, ty):
        self.value, self.dtype = value, ty.dtype


def _shape_fits(have: tuple, declared: tuple) -> bool:
    return len(have) == len(declared) and all(d < 0 or h == d for h, d in zip(have, declared))
