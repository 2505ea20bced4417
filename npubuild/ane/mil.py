"""Reader for textual Core ML MIL (the ``program(1.x)`` text of a compiled model).

Accepted grammar (whitespace and ``//`` / ``/* */`` comments anywhere)::

    program   := 'program' '(' VERSION ')' attrs? '{' function* '}'
    function  := 'func' NAME ('<' OPSET '>')? '(' (type NAME (',' type NAME)*)? ')' attrs?
                 '{' statement* '}' '->' '(' NAME (',' NAME)* ')' ';'?
    statement := type NAME '=' OP '(' (KEY '=' value (',' KEY '=' value)*)? ')'
                 ('[' KEY '=' value (',' KEY '=' value)* ']')? ';'
    type      := DTYPE | 'tensor' '<' DTYPE ',' '[' (DIM (',' DIM)*)? ']' '>'    (DIM: int or '?')
    value     := NAME | literal | '(' value (',' value)* ')'
    literal   := DTYPE '(' scalar ')'
               | 'tensor' '<' ... '>' '(' (scalar | list | blobfile) ')'
    blobfile  := 'BLOBFILE' '(' 'path' '=' <string literal> ',' 'offset' '=' <uint64 literal> ')'

Both literal spellings are read: the ios18 short style (``fp16(0x1p-17)``,
``string("x")``, ``uint64(64)``) and the older verbose style
(``tensor<fp16, []>(0x1p-17)``, ``tensor<string, []>("x")``); a rank-0 tensor
literal is the same :class:`Literal` as the scalar one. Attribute blocks after
``program(...)`` and after a function signature are skipped; in a statement's
``[...]`` block ``name`` and ``val`` are read and other keys skipped.

``const()`` and ``constexpr_*`` ops are materialised into
:attr:`MilFunction.consts`; every other op is a :class:`MilOp`. Every problem
in the text raises :class:`MilError` naming ``file:line`` and the token.

The parser is here; the tokens and the cursor over them are in :mod:`.mil_tokens`,
what is read (types, values, ops, the program) in :mod:`.mil_model`.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..ops.lazy_numpy import np
from . import weightbin
from .mil_model import (
    DTYPES,
    FLOATS,
    HOLD,
    INT_BITS,
    Literal,
    MilError,
    MilFunction,
    MilOp,
    MilProgram,
    MilType,
    Ref,
)
from .mil_tokens import Tok, TokenCursor, check_brackets, tokenize, unescape


class _Parser(TokenCursor):
    def __init__(self, toks: list[Tok], file: str, base_dir: Path | None):
        super().__init__(toks, file)
        self.base_dir = base_dir

    # -- types
    def parse_type(self, what: str = "expected a type") -> MilType:
        t = self.peek()
        if t.kind != "ident":
            raise self.error(what)
        if t.text == "tensor":
            self.next()
            self.expect("<", "expected '<' after 'tensor'")
            dt = self.ident("expected a dtype")
            if dt.text not in DTYPES:
                raise self.error(f"unknown dtype '{dt.text}'", dt)
            self.expect(",", "expected ',' after the tensor dtype")
            self.expect("[", "expected '[' starting the tensor shape")
            dims: list[int] = []
            while not self.at("]"):
                if dims:
                    self.expect(",", "expected ',' or ']' in the tensor shape")
                d = self.peek()
                if d.kind == "punct" and d.text == "?":
                    dims.append(-1)
                elif d.kind == "num" and re.fullmatch(r"[0-9]+", d.text):
                    dims.append(int(d.text))
                else:
                    raise self.error("expected a dimension (a non-negative integer or '?')")
                self.next()
            self.next()
            self.expect(">", "expected '>' closing the tensor type")
            return MilType(dt.text, tuple(dims))
        if t.text in DTYPES:
            self.next()
            return MilType(t.text)
        if self.peek(1).text == "<":
            raise self.error(f"unsupported type '{t.text}'")
        raise self.error(f"unknown type '{t.text}'")

    # -- scalars
    def scalar(self, dtype: str, tok: Tok):
        """Convert one literal token to a Python value of ``dtype``."""
        if dtype == "bool":
            if tok.kind == "ident" and tok.text in ("true", "false"):
                return tok.text == "true"
            raise self.error("expected 'true' or 'false' for a bool literal", tok)
        if dtype == "string":
            if tok.kind == "str":
                return unescape(tok.text)
            raise self.error("expected a quoted string", tok)
        if dtype in FLOATS:
            txt = tok.text
            if tok.kind == "num" or (tok.kind == "ident" and txt in ("inf", "nan")):
                v = float.fromhex(txt) if "x" in txt.lower() else float(txt)
            else:
                raise self.error(f"expected a number for a {dtype} literal", tok)
            if dtype == "fp64":
                return v
            with np.errstate(over="ignore"):
                r = float(np.array(v, dtype=HOLD[dtype]))
            if r in (float("inf"), float("-inf")) and v == v and abs(v) != float("inf"):
                raise self.error(f"value out of range for {dtype}", tok)
            return r
        if dtype in INT_BITS:
            if tok.kind != "num":
                raise self.error(f"expected an integer for a {dtype} literal", tok)
            try:
                v = int(tok.text, 0)
            except ValueError:
                try:
                    v = int(tok.text, 10)
                except ValueError:
                    raise self.error(f"expected an integer for a {dtype} literal", tok) from None
            signed, bits = INT_BITS[dtype]
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            if not lo <= v <= hi:
                raise self.error(f"value {v} out of range for {dtype}", tok)
            return v
        raise self.error(f"unsupported literal dtype '{dtype}'", tok)  # pragma: no cover

    def scalar_token(self) -> Tok:
        t = self.peek()
        if t.kind in ("num", "str") or (t.kind == "ident" and t.text in ("true", "false", "inf", "nan")):
            return self.next()
        raise self.error("expected a literal value")

    # -- values
    def value(self, scope: dict[str, MilType] | None):
        """A reference, a typed literal or a parenthesised tuple of values."""
        t = self.peek()
        if t.kind == "punct" and t.text == "(":
            self.next()
            items = []
            while not self.at(")"):
                if items:
                    self.expect(",", "expected ',' or ')' in a tuple")
                items.append(self.value(scope))
            self.next()
            return tuple(items)
        if t.kind != "ident":
            if t.kind in ("num", "str"):
                raise self.error("untyped literal; write it as e.g. fp16(...), int32(...) or string(\"...\")")
            raise self.error("expected a variable name or a literal")
        nxt = self.peek(1)
        if t.text == "tensor" and nxt.text == "<":
            return self.tensor_literal()
        if nxt.kind == "punct" and nxt.text == "(":
            if t.text not in DTYPES:
                raise self.error(f"unknown literal type '{t.text}'")
            self.next()
            self.next()
            tok = self.scalar_token()
            v = self.scalar(t.text, tok)
            self.expect(")", f"expected ')' closing the {t.text} literal")
            return Literal(MilType(t.text), v)
        if nxt.kind == "punct" and nxt.text == "<":
            raise self.error(f"unsupported literal type '{t.text}'")
        self.next()
        if scope is not None and t.text not in scope:
            raise self.error(f"undefined variable '{t.text}'", t)
        return Ref(t.text)

    def tensor_literal(self) -> Literal:
        start = self.peek()
        ty = self.parse_type()
        assert ty.shape is not None
        if any(d < 0 for d in ty.shape):
            raise self.error(f"a literal {ty} cannot have '?' dimensions", start)
        count = 1
        for d in ty.shape:
            count *= d
        self.expect("(", f"expected '(' after {ty}")
        body = self.peek()
        if body.kind == "ident" and body.text == "BLOBFILE":
            arr = self.blobfile(ty)
        elif body.kind == "punct" and body.text == "[":
            flat: list[Tok] = []
            self.nested_list(flat)
            if len(flat) != count:
                raise self.error(
                    f"inline tensor has {len(flat)} elements but {ty} needs {count}", body
                )
            vals = [self.scalar(ty.dtype, tk) for tk in flat]
            arr = np.array(vals, dtype=HOLD[ty.dtype]).reshape(ty.shape)
        else:
            tok = self.scalar_token()
            if count != 1:
                raise self.error(f"inline tensor has 1 element but {ty} needs {count}", tok)
            arr = np.array([self.scalar(ty.dtype, tok)], dtype=HOLD[ty.dtype]).reshape(ty.shape)
        self.expect(")", f"expected ')' closing the {ty} literal")
        if ty.shape == ():
            return Literal(MilType(ty.dtype), arr.item())
        return Literal(ty, arr)

    def nested_list(self, flat: list[Tok]) -> None:
        self.expect("[")
        first = True
        while not self.at("]"):
            if not first:
                self.expect(",", "expected ',' or ']' in a tensor literal")
            first = False
            if self.at("["):
                self.nested_list(flat)
            else:
                flat.append(self.scalar_token())
        self.next()

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
        if ty.dtype not in weightbin.NUMPY_DTYPES:
            raise self.error(f"{ty} cannot be read from a blob file", kw)
        try:
            arr = weightbin.read_blob(path, args["offset"][1].value, ty.dtype, ty.shape)
        except weightbin.WeightBinError as e:
            raise self.error(str(e), kw) from None
        return arr

    def resolve_blob_path(self, p: str, tok: Tok) -> Path:
        if p.startswith("@model_path/"):
            rel = p[len("@model_path/") :]
        elif Path(p).is_absolute():
            return Path(p)
        else:
            rel = p
        if self.base_dir is None:
            raise self.error(f"BLOBFILE path '{p}' is relative but no base directory is known", tok)
        return Path(self.base_dir) / rel

    # -- program structure
    def program(self) -> MilProgram:
        self.expect("program", "expected 'program(<version>)' at the start of the MIL text")
        self.expect("(", "expected '(' after 'program'")
        v = self.peek()
        if v.kind != "num":
            raise self.error("expected a program version such as 1.3")
        self.next()
        self.expect(")", "expected ')' after the program version")
        if self.at("["):
            self.skip_group()
        self.expect("{", "expected '{' starting the program body")
        functions: dict[str, MilFunction] = {}
        while not self.at("}"):
            ft = self.peek()
            fn = self.function()
            if fn.name in functions:
                raise self.error(f"duplicate function '{fn.name}'", ft)
            functions[fn.name] = fn
        end = self.next()
        if self.peek().kind != "eof":
            raise self.error("unexpected text after the program body")
        if not functions:
            raise self.error("program has no functions", end)
        return MilProgram(v.text, functions, self.file)

    def function(self) -> MilFunction:
        ft = self.expect("func", "expected 'func'")
        name = self.ident("expected a function name").text
        opset = None
        if self.at("<"):
            self.next()
            opset = self.ident("expected an opset name such as ios18").text
            self.expect(">", "expected '>' after the opset")
        self.expect("(", f"expected '(' starting the parameters of '{name}'")
        scope: dict[str, MilType] = {}
        inputs: list[tuple[str, MilType]] = []
        while not self.at(")"):
            if inputs:
                self.expect(",", "expected ',' or ')' in the parameter list")
            ty = self.parse_type("expected a parameter type")
            nt = self.ident("expected a parameter name")
            if nt.text in scope:
                raise self.error(f"duplicate variable '{nt.text}'", nt)
            scope[nt.text] = ty
            inputs.append((nt.text, ty))
        self.next()
        if self.at("["):
            self.skip_group()
        self.expect("{", f"expected '{{' starting the body of '{name}'")
        fn = MilFunction(name, opset, inputs, [], {}, {}, [], ft.line)
        while not self.at("}"):
            self.statement(fn, scope)
        close = self.next()
        if not self.at("->"):
            raise MilError(
                self.file, close.line,
                f"missing function outputs: expected '-> (...)' after the body of '{name}'",
                self.peek().text if self.peek().kind != "eof" else "<end of input>",
            )
        self.next()
        self.expect("(", "expected '(' starting the function outputs")
        outs: list[str] = []
        while not self.at(")"):
            if outs:
                self.expect(",", "expected ',' or ')' in the function outputs")
            ot = self.ident("expected an output name")
            if ot.text not in scope:
                raise self.error(f"function output '{ot.text}' is not defined in '{name}'", ot)
            outs.append(ot.text)
        if not outs:
            raise self.error(f"missing function outputs: '{name}' returns nothing")
        self.next()
        if self.at(";"):
            self.next()
        fn.outputs = outs
        return fn

    def statement(self, fn: MilFunction, scope: dict[str, MilType]) -> None:
        ty = self.parse_type("expected a statement ('<type> <name> = <op>(...)') or '}'")
        vt = self.ident("expected a variable name after the type")
        if self.at(","):
            raise self.error("ops with several results are not supported")
        if vt.text in scope:
            raise self.error(f"duplicate variable '{vt.text}'", vt)
        self.expect("=", f"expected '=' after '{vt.text}'")
        opt = self.ident("expected an op name")
        self.expect("(", f"expected '(' after '{opt.text}'")
        args: dict = {}
        arg_toks: dict[str, Tok] = {}
        while not self.at(")"):
            if args:
                self.expect(",", "expected ',' or ')' in the argument list")
            kt = self.ident("expected an argument name")
            if kt.text in args:
                raise self.error(f"duplicate argument '{kt.text}'", kt)
            self.expect("=", f"expected '=' after argument '{kt.text}'")
            arg_toks[kt.text] = self.peek()
            args[kt.text] = self.value(scope)
        self.next()
        name = None
        val = val_tok = None
        if self.at("["):
            self.next()
            seen: set[str] = set()
            while not self.at("]"):
                if seen:
                    self.expect(",", "expected ',' or ']' in the attribute list")
                at = self.ident("expected an attribute name")
                if at.text in seen:
                    raise self.error(f"duplicate attribute '{at.text}'", at)
                seen.add(at.text)
                self.expect("=", f"expected '=' after attribute '{at.text}'")
                if at.text == "name":
                    nt = self.peek()
                    nv = self.value(None)
                    if not (isinstance(nv, Literal) and nv.type == MilType("string")):
                        raise self.error("attribute 'name' must be a string literal", nt)
                    name = nv.value
                elif at.text == "val":
                    val_tok = self.peek()
                    val = self.value(None)
                else:
                    self.skip_value()
            self.next()
        self.terminator(";", "missing ';' after the statement")
        line = vt.line
        if opt.text == "const":
            if args:
                raise self.error("const() takes no arguments; its value goes in [val = ...]", opt)
            if val is None:
                raise self.error(f"const '{vt.text}' has no val", opt)
            if not isinstance(val, Literal):
                raise self.error("const val must be a literal", val_tok)
            fn.consts[vt.text] = self.materialise(val, ty, val_tok)
        elif opt.text.startswith("constexpr_"):
            if val is not None:
                raise self.error(f"'{opt.text}' does not take a val", val_tok)
            fn.consts[vt.text] = self.constexpr(opt, ty, args, arg_toks, fn)
        else:
            if val is not None:
                raise self.error(f"only const takes a val ('{opt.text}' does not)", val_tok)
            fn.ops.append(MilOp(opt.text, vt.text, ty, args, name, line))
            scope[vt.text] = ty
            return
        fn.const_types[vt.text] = ty
        scope[vt.text] = ty

    # -- constants
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


# ----------------------------------------------------------------------------
# entry points


def parse_mil(text: str, file: str = "<mil>", base_dir: Path | None = None) -> MilProgram:
    """Parse MIL text. Relative and ``@model_path/`` BLOBFILE paths resolve
    against ``base_dir`` (the directory holding the .mil file)."""
    toks = tokenize(text, file)
    check_brackets(toks, file)
    p = _Parser(toks, file, Path(base_dir) if base_dir is not None else None)
    try:
        return p.program()
    except RecursionError:
        raise MilError(file, p.peek().line, "literal nested too deeply", p.peek().text) from None


def load_mil(path) -> MilProgram:
    """Read and parse a .mil file; BLOBFILE paths resolve against its directory."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MilError(str(path), 0, "MIL file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise MilError(str(path), 0, f"cannot read MIL file: {e}") from None
    return parse_mil(text, str(path), path.parent)
