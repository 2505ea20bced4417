"""Constants of a MIL program: ``const()`` values as declared and the
``constexpr_*`` ops (blockwise shift-scale, affine dequantize) computed at read time.

A mixin of the parser (:mod:`.mil`): it uses the parser's errors, its
per-constant limit and its byte budget.
"""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .mil_model import FLOATS, HOLD, Literal, MilFunction, MilType, Ref
from .mil_tokens import Tok


class ConstantReader:
    def materialise(self, lit: Literal, ty: MilType, tok: Tok):
        """A const's value as declared: NumPy array (0-d for scalars), str for strings."""
        lt = lit.type
        if lt.dtype != ty.dtype or not _shape_fits(lt.shape or (), ty.shape or ()):
            raise self.error(f"const declared {ty} but its val is {lt}", tok)
        if ty.dtype == "string" and not isinstance(lit.value, np.ndarray):
            return lit.value
        return np.asarray(lit.value, dtype=HOLD[ty.dtype]).reshape(lt.shape or ())

    def const_arg(self, op: Tok, key: str, args, toks, fn: MilFunction, required: bool = True):
        if key not in args:
            if required:
                raise self.error(f"{op.text} needs argument '{key}'", op)
            return None
        v = args[key]
        if isinstance(v, Ref):
            if v.name not in fn.consts:
                raise self.error(
                    f"argument '{key}' of {op.text} must be a constant; '{v.name}' is computed at run time",
                    toks[key],
                )
            return np.asarray(fn.consts[v.name])
        if isinstance(v, Literal):
            return np.asarray(v.value, dtype=HOLD[v.type.dtype])
        raise self.error(f"argument '{key}' of {op.text} must be a constant", toks[key])

    def constexpr(self, op: Tok, ty: MilType, args, toks, fn: MilFunction):
        if ty.shape is not None and any(d < 0 for d in ty.shape):
            raise self.error(f"{op.text} result {ty} cannot have '?' dimensions", op)
        self.spend(self.check_constant(ty, op), op)
        if op.text == "constexpr_blockwise_shift_scale":
            return self.blockwise_shift_scale(op, ty, args, toks, fn)
        if op.text == "constexpr_affine_dequantize":
            return self.affine_dequantize(op, ty, args, toks, fn)
        raise self.error(f"unsupported constexpr op '{op.text}'", op)

    def _float_out(self, op: Tok, ty: MilType):
        if ty.dtype not in FLOATS:
            raise self.error(f"{op.text} must produce fp16 or fp32, not {ty.dtype}", op)
        return HOLD[ty.dtype]

    def _check_out_shape(self, op: Tok, ty: MilType, shape) -> None:
        if ty.shape is None or not _shape_fits(tuple(shape), ty.shape):
            raise self.error(f"{op.text} produces shape {list(shape)} but the result is declared {ty}", op)

    def blockwise_shift_scale(self, op, ty, args, toks, fn):
        extra = set(args) - {"data", "scale", "offset"}
        if extra:
            k = sorted(extra)[0]
            raise self.error(f"unknown argument '{k}' for {op.text}", toks[k])
        data = self.const_arg(op, "data", args, toks, fn)
        scale = self.const_arg(op, "scale", args, toks, fn)
        offset = self.const_arg(op, "offset", args, toks, fn, required=False)
        out_dt = self._float_out(op, ty)
        if scale.ndim != data.ndim:
            raise self.error(
                f"{op.text}: scale has rank {scale.ndim} but data has rank {data.ndim}", toks["scale"]
            )
        if offset is not None and offset.shape != scale.shape:
            raise self.error(
                f"{op.text}: offset shape {list(offset.shape)} differs from scale shape {list(scale.shape)}",
                toks["offset"],
            )
        blocks = []
        for i, (d, s) in enumerate(zip(data.shape, scale.shape)):
            if s == 0 or d % s:
                raise self.error(
                    f"{op.text}: data dim {i} ({d}) is not a multiple of scale dim {i} ({s})",
                    toks["scale"],
                )
            blocks.append(d // s)
        self._check_out_shape(op, ty, data.shape)

        def expand(a):
            for ax, b in enumerate(blocks):
                if b != 1:
                    a = np.repeat(a, b, axis=ax)
            return a.astype(np.float32)

        x = data.astype(np.float32)
        if offset is not None:
            x = x - expand(offset)
        with np.errstate(over="ignore", invalid="ignore"):
            return (expand(scale) * x).astype(out_dt)

    def affine_dequantize(self, op, ty, args, toks, fn):
        extra = set(args) - {"quantized_data", "zero_point", "scale", "axis"}
        if extra:
            k = sorted(extra)[0]
            raise self.error(f"unknown argument '{k}' for {op.text}", toks[k])
        q = self.const_arg(op, "quantized_data", args, toks, fn)
        zp = self.const_arg(op, "zero_point", args, toks, fn)
        sc = self.const_arg(op, "scale", args, toks, fn)
        axis_a = self.const_arg(op, "axis", args, toks, fn)
        out_dt = self._float_out(op, ty)
        if axis_a.ndim != 0 or axis_a.dtype.kind not in "iu":
            raise self.error(f"{op.text}: axis must be an integer scalar", toks["axis"])
        axis = int(axis_a)
        if not -q.ndim <= axis < q.ndim:
            raise self.error(f"{op.text}: axis {axis} out of range for rank {q.ndim}", toks["axis"])
        axis %= q.ndim
        bshape = [1] * q.ndim
        for key, a in (("zero_point", zp), ("scale", sc)):
            if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != q.shape[axis]):
                raise self.error(
                    f"{op.text}: {key} must be a scalar or have {q.shape[axis]} elements", toks[key]
                )
        bshape[axis] = -1
        zpf = zp.astype(np.float32).reshape(bshape) if zp.ndim else zp.astype(np.float32)
        scf = sc.astype(np.float32).reshape(bshape) if sc.ndim else sc.astype(np.float32)
        self._check_out_shape(op, ty, q.shape)
        with np.errstate(over="ignore", invalid="ignore"):
            return ((q.astype(np.float32) - zpf) * scf).astype(out_dt)


def _shape_fits(have: tuple, declared: tuple) -> bool:
    return len(have) == len(declared) and all(d < 0 or h == d for h, d in zip(have, declared))
