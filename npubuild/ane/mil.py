"""Reader for textual Core ML MIL (the ``program(1.x)`` text of a compiled model).

Accepted grammar (whitespace and ``//`` / ``/* */`` comments anywhere)::

    program   := 'program' '(' VERSION ')' attrs? '{' function* '}'
    function  := 'func' NAME ('<' OPSET '>')? '(' (type NAME (',' type NAME)*)? ')' attrs?
                 '{' statement* '}' '->' '(' NAME (',' NAME)* ')' ';'?
    statement := results? OP '(' (KEY '=' value (',' KEY '=' value)*)? ')'
                 ('[' KEY '=' value (',' KEY '=' value)* ']')? ';'
    results   := type NAME (',' type NAME)* '=' | '(' type NAME (',' type NAME)* ')' '='
                 (several for multi-result ops such as split; none for write_state)
    type      := DTYPE | 'tensor' '<' DTYPE ',' '[' (DIM (',' DIM)*)? ']' '>'    (DIM: int or '?')
               | 'state' '<' tensor type '>'                          (iOS18 states, inputs only)
    value     := NAME | literal | '(' value (',' value)* ')'
    literal   := DTYPE '(' scalar ')'
               | 'tensor' '<' ... '>' '(' (scalar | list | blobfile) ')'
    blobfile  := 'BLOBFILE' '(' 'path' '=' <string literal> ',' 'offset' '=' <uint64 literal> ')'

Both literal spellings are read: the ios18 short style (``fp16(0x1p-17)``,
``string("x")``, ``uint64(64)``) and the older verbose style
(``tensor<fp16, []>(0x1p-17)``, ``tensor<string, []>("x")``); a rank-0 tensor
literal is the same :class:`Literal` as the scalar one. Attribute blocks after
``program(...)`` and after a function signature are skipped; in a statement's
``[...]`` block ``name`` and ``val`` are read, and every key of a ``constexpr_*``
op (the iOS16/17 attribute form: ``constexpr_affine_dequantize()[axis = ...,
quantized_data = ..., scale = ..., zero_point = ...]``); other keys are skipped.

``const()`` and ``constexpr_*`` ops are materialised into
:attr:`MilFunction.consts` (the constexpr ops as written also in
:attr:`MilFunction.constexprs`); every other op is a :class:`MilOp`. After
parsing, :func:`.mil_types.infer_program` checks every op's declared result
types against MIL's type inference. Every problem in the text raises
:class:`MilError` naming ``file:line`` (and the token where there is one).

Reading is bounded by a :class:`MilBounds` (where BLOBFILEs may be, the limits of
``npubuild.core.limits``, a byte budget): nesting, literal sizes, ranks, element counts
and constant sizes are messages checked before memory is taken, and nested values
are read in loops, so no input reaches Python's recursion limit.

The parser is here; the tokens and the cursor over them are in :mod:`.mil_tokens`,
constants, blob files and ``constexpr_*`` ops in :mod:`.mil_consts`, what is read
(types, values, ops, the program) in :mod:`.mil_model`, type inference in
:mod:`.mil_types` and :mod:`.mil_shapes`.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from ..core.limits import over
from ..ops.lazy_numpy import np
from .mil_model import (
    DTYPES,
    FLOATS,
    HOLD,
    INT_BITS,
    Literal,
    MilBounds,
    MilError,
    MilFunction,
    MilOp,
    MilProgram,
    MilType,
    NO_RESULT,
    Ref,
)
from .mil_consts import TWO_RESULTS, ConstantReader
from ..specfile.milrefs import unescape
from .mil_tokens import Tok, TokenCursor, check_brackets, decode, tokenize
from .mil_types import infer_program

# an integer literal longer than this is out of range for every MIL dtype (uint64 has 20 digits);
# refusing it by length keeps int() from Python's 4300-digit ValueError
_MAX_INT_CHARS = 40


class _Parser(ConstantReader, TokenCursor):
    def __init__(self, toks: list[Tok], file: str, base_dir: Path | None, bounds: MilBounds):
        super().__init__(toks, file)
        self.base_dir = base_dir
        self.bounds, self.limits = bounds, bounds.limits
        self.depth = 0
        self.blob_data: dict[Path, bytes] = {}  # each blob file is read once per program
        self.spent = 0  # bytes of constants and blob files held so far

    # -- limits
    def over(self, what: str, value, key: str, tok: Tok | None = None) -> MilError:
        return self.error(str(over(what, value, key, getattr(self.limits, key))), tok)

    def enter(self, tok: Tok) -> None:
        """One level deeper into a tuple or list; counted, so depth is a message, never a RecursionError."""
        self.depth += 1
        if self.depth > self.limits.mil_max_depth:
            raise self.error("nested too deeply: " + str(over(
                "the nesting of values and literals", self.depth, "mil_max_depth", self.limits.mil_max_depth)), tok)

    def spend(self, nbytes: int, tok: Tok) -> None:
        """Count bytes the program makes us hold: many constants each under the per-constant limit still add up."""
        self.spent += nbytes
        if self.spent > self.bounds.max_bytes:
            raise self.error(
                f"the constants and blob files of this program take {self.spent} bytes, over the limit of "
                f"{self.bounds.max_bytes} (max_artifact_size in [tool.npubuild])", tok)

    def check_constant(self, ty: MilType, tok: Tok) -> int:
        """A constant's declared bytes, checked against limits.max_constant_bytes before it is read or computed."""
        nbytes = math.prod(ty.shape or ()) * np.dtype(HOLD[ty.dtype]).itemsize
        if nbytes > self.limits.max_constant_bytes:
            raise self.over(f"the size of constant {ty}", f"{nbytes} bytes", "max_constant_bytes", tok)
        return nbytes

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
                if len(dims) == self.limits.max_rank:
                    raise self.over("the rank of a tensor type", f"{len(dims) + 1} or more", "max_rank")
                dims.append(self.dim())
            self.next()
            self.expect(">", "expected '>' closing the tensor type")
            ty = MilType(dt.text, tuple(dims))
            if math.prod(d for d in dims if d > 0) > self.limits.max_elements:
                raise self.over(f"the element count of {ty}", math.prod(d for d in dims if d > 0), "max_elements", t)
            return ty
        if t.text in DTYPES:
            self.next()
            return MilType(t.text)
        if t.text == "state" and self.peek(1).text == "<":  # iOS18 state<tensor<...>> (coremltools iOS18/states.py)
            self.next()
            self.next()
            inner = self.parse_type("expected the tensor type a state wraps")
            if inner.shape is None or inner.state:
                raise self.error(f"a state wraps a tensor type, not {inner}", t)
            self.expect(">", "expected '>' closing the state type")
            return MilType(inner.dtype, inner.shape, state=True)
        if self.peek(1).text == "<":
            raise self.error(f"unsupported type '{t.text}'")
        raise self.error(f"unknown type '{t.text}'")

    def dim(self) -> int:
        d = self.peek()
        if d.kind == "punct" and d.text == "?":
            self.next()
            return -1
        if not (d.kind == "num" and re.fullmatch(r"[0-9]+", d.text)):
            raise self.error("expected a dimension (a non-negative integer or '?')")
        digits = d.text.lstrip("0") or "0"
        if len(digits) > len(str(self.limits.max_elements)) or int(digits) > self.limits.max_elements:
            shown = digits if len(digits) <= 20 else f"a {len(digits)}-digit number"
            raise self.over("a dimension", shown, "max_elements")
        self.next()
        return int(digits)

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
            if not (tok.kind == "num" or (tok.kind == "ident" and txt in ("inf", "nan"))):
                raise self.error(f"expected a number for a {dtype} literal", tok)
            try:
                v = float.fromhex(txt) if "x" in txt.lower() else float(txt)
            except (OverflowError, ValueError):  # 0x1p99999
                raise self.error(f"value out of range for {dtype}", tok) from None
            if math.isinf(v) and "inf" not in txt.lower():  # 1e99999 reads as inf
                raise self.error(f"value out of range for {dtype}", tok)
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
            if len(tok.text) > _MAX_INT_CHARS:
                raise self.error(f"value out of range for {dtype}", tok)
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
        """A reference, a typed literal or a parenthesised tuple of values; nested tuples in a loop, not recursion."""
        tuples: list[list] = []  # the items of each open tuple
        while True:
            t = self.peek()
            if t.kind == "punct" and t.text == "(":
                self.enter(t)
                self.next()
                tuples.append([])
                if not self.at(")"):
                    continue
                self.next()
                self.depth -= 1
                item = tuple(tuples.pop())
            else:
                item = self.single_value(scope)
            while tuples:
                tuples[-1].append(item)
                if not self.at(")"):
                    self.expect(",", "expected ',' or ')' in a tuple")
                    break
                self.next()
                self.depth -= 1
                item = tuple(tuples.pop())
            else:
                return item

    def single_value(self, scope: dict[str, MilType] | None):
        """A reference or a typed literal."""
        t = self.peek()
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
        count = math.prod(ty.shape)
        self.expect("(", f"expected '(' after {ty}")
        body = self.peek()
        if body.kind == "ident" and body.text == "BLOBFILE":
            arr = self.blobfile(ty)
        elif body.kind == "punct" and body.text == "[":
            if count > self.limits.mil_max_literal_elements:
                raise self.over(f"the element count of inline {ty}", count, "mil_max_literal_elements", body)
            flat: list[Tok] = []
            self.nested_list(flat)
            if len(flat) != count:
                raise self.error(
                    f"inline tensor has {len(flat)} elements but {ty} needs {count}", body
                )
            self.spend(self.check_constant(ty, body), body)
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
        """A bracketed list of scalars nested to any shape, flattened into ``flat``; a loop, not recursion."""
        cap = self.limits.mil_max_literal_elements
        has_item: list[bool] = []  # per open bracket
        self.enter(self.peek())
        self.expect("[")
        has_item.append(False)
        while has_item:
            if self.at("]"):
                self.next()
                self.depth -= 1
                has_item.pop()
                continue
            if has_item[-1]:
                self.expect(",", "expected ',' or ']' in a tensor literal")
            has_item[-1] = True
            if self.at("["):
                self.enter(self.peek())
                self.next()
                has_item.append(False)
            elif len(flat) == cap:
                raise self.over("the element count of an inline tensor literal", f"{cap + 1} or more", "mil_max_literal_elements")
            else:
                flat.append(self.scalar_token())

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
        lines: dict[str, int] = {}
        while not self.at(")"):
            if inputs:
                self.expect(",", "expected ',' or ')' in the parameter list")
            ty = self.parse_type("expected a parameter type")
            nt = self.ident("expected a parameter name")
            if nt.text in scope:
                raise self.error(f"duplicate variable '{nt.text}'", nt)
            scope[nt.text] = ty
            inputs.append((nt.text, ty))
            lines[nt.text] = nt.line
        self.next()
        if self.at("["):
            self.skip_group()
        self.expect("{", f"expected '{{' starting the body of '{name}'")
        fn = MilFunction(name, opset, inputs, [], {}, {}, [], ft.line, lines)
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

    def results(self, scope: dict[str, MilType]) -> list[tuple[Tok, MilType]]:
        """The results a statement defines: ``T a``, ``T a, T b`` or ``(T a, T b)``
        (multi-result ops such as split), or none before a bare ``op(...)`` (write_state)."""
        t = self.peek()
        if t.kind == "ident" and t.text not in DTYPES and self.peek(1).text == "(":
            return []
        paren = self.at("(")
        if paren:
            self.next()
        out: list[tuple[Tok, MilType]] = []
        while True:
            ty = self.parse_type("expected a statement ('<type> <name> = <op>(...)') or '}'")
            vt = self.ident("expected a variable name after the type")
            if vt.text in scope or any(vt.text == o.text for o, _ in out):
                raise self.error(f"duplicate variable '{vt.text}'", vt)
            if ty.state:
                raise self.error(f"'{vt.text}' is declared {ty}; only function inputs are states", vt)
            out.append((vt, ty))
            if not self.at(","):
                break
            self.next()
        if paren:
            self.expect(")", "expected ')' closing the results")
        return out

    def statement(self, fn: MilFunction, scope: dict[str, MilType]) -> None:
        results = self.results(scope)
        if results:
            self.expect("=", f"expected '=' after '{results[-1][0].text}'")
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
        constexpr = opt.text.startswith("constexpr_")
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
                elif constexpr:  # iOS16/17 constexpr parameters sit in the attribute block
                    if at.text in args:  # (coremltools backend/mil/load.py translate_constexpr)
                        raise self.error(f"'{at.text}' of {opt.text} is given both as an argument and as an attribute", at)
                    arg_toks[at.text] = self.peek()
                    args[at.text] = self.value(None)
                else:
                    self.skip_value()
            self.next()
        self.terminator(";", "missing ';' after the statement")
        if constexpr and opt.text in TWO_RESULTS:  # sparse-to-sparse ops: the mask and the nonzero values
            if len(results) != 2:
                raise self.error(f"{opt.text} defines two results (the mask and the nonzero data), not {len(results)}", opt)
            if val is not None:
                raise self.error(f"'{opt.text}' does not take a val", val_tok)
            values = self.constexpr_pair(opt, [(v.text, t) for v, t in results], args, arg_toks, fn)
            op = MilOp(opt.text, results[0][0].text, results[0][1], args, name, opt.line,
                       tuple((v.text, t) for v, t in results))
            for (vt, ty), value in zip(results, values):
                fn.consts[vt.text], fn.constexprs[vt.text] = value, op
                fn.const_types[vt.text] = scope[vt.text] = ty
            return
        if opt.text == "const" or constexpr:
            if len(results) != 1:
                raise self.error(f"{opt.text} defines exactly one result, not {len(results)}", opt)
            vt, ty = results[0]
            if opt.text == "const":
                if args:
                    raise self.error("const() takes no arguments; its value goes in [val = ...]", opt)
                if val is None:
                    raise self.error(f"const '{vt.text}' has no val", opt)
                if not isinstance(val, Literal):
                    raise self.error("const val must be a literal", val_tok)
                fn.consts[vt.text] = self.materialise(val, ty, val_tok)
            else:
                if val is not None:
                    raise self.error(f"'{opt.text}' does not take a val", val_tok)
                fn.consts[vt.text] = self.constexpr(opt, vt.text, ty, args, arg_toks, fn)
                fn.constexprs[vt.text] = MilOp(opt.text, vt.text, ty, args, name, vt.line)
            fn.const_types[vt.text] = ty
            scope[vt.text] = ty
            return
        if val is not None:
            raise self.error(f"only const takes a val ('{opt.text}' does not)", val_tok)
        first, ty = results[0] if results else (None, NO_RESULT)
        fn.ops.append(MilOp(opt.text, first.text if first else "", ty, args, name, first.line if first else opt.line,
                            tuple((v.text, t) for v, t in results)))
        for v, t in results:
            scope[v.text] = t


# ----------------------------------------------------------------------------
# entry points


def parse_mil(text: str, file: str = "<mil>", base_dir: Path | None = None, bounds: MilBounds | None = None,
              *, pure: bool = False) -> MilProgram:
    """Parse MIL text and check it with MIL's type inference (:mod:`.mil_types`):
    every consumer sees only programs whose declared types are what MIL infers.

    Relative and ``@model_path/`` BLOBFILE paths resolve against ``base_dir``
    (the directory holding the .mil file); ``bounds`` says where blob files may
    be and what the program may cost (default: anywhere, the default limits). A
    build passes its project's bounds (MilBounds.of(config)). ``pure``: the
    text must be MIL Core ML accepts, so an npubuild extension op (``rms_norm``)
    is an error at its line instead of a flag in :attr:`MilProgram.extensions`."""
    toks = tokenize(text, file)
    check_brackets(toks, file)
    prog = _Parser(toks, file, Path(base_dir) if base_dir is not None else None, bounds or MilBounds()).program()
    infer_program(prog, pure=pure)
    return prog


def load_mil(path, display: str | None = None, bounds: MilBounds | None = None, *, pure: bool = False) -> MilProgram:
    """Read and parse a .mil file (named ``display`` in messages); BLOBFILE paths resolve against its directory."""
    from ..core.fsio import read_regular

    path, bounds = Path(path), bounds or MilBounds()
    file = display or str(path)
    try:
        data = read_regular(path, bounds.limits.spec_max_file_size)
    except FileNotFoundError:
        raise MilError(file, 0, "MIL file not found") from None
    except (OSError, ValueError) as e:
        hint = " (limits.spec_max_file_size in [tool.npubuild.limits])" if "over the limit" in str(e) else ""
        raise MilError(file, 0, f"cannot read MIL file: {e}{hint}") from None
    return parse_mil(decode(data, file), file, path.parent, bounds, pure=pure)
