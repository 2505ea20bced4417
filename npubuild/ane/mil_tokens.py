"""MIL text -> tokens: the lexer (numbers in decimal and hex-float form, names,
strings, punctuation; comments and whitespace dropped), the bracket check that runs
before parsing, and :class:`TokenCursor`, the parser's view of the tokens."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .mil_model import MilError

# ----------------------------------------------------------------------------
# tokens

_TOKEN_RE = re.compile(
    r"""
     (?P<ws>[ \t\r\n\f\v]+)
    |(?P<lcomment>//[^\n]*)
    |(?P<bcomment>/\*.*?\*/)
    |(?P<num>[-+]?(?:0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)(?:[pP][-+]?[0-9]+)?
                   |(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)(?![A-Za-z0-9_.])
             |[-+](?:inf|nan)(?![A-Za-z0-9_]))
    |(?P<arrow>->)
    |(?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<str>"(?:[^"\\\n]|\\.)*")
    |(?P<punct>[()\[\]{}<>,=;?])
    """,
    re.VERBOSE | re.DOTALL,
)
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {v: k for k, v in OPEN.items()}


@dataclass(frozen=True, slots=True)  # slots: a large file is millions of tokens
class Tok:
    kind: str  # num | ident | str | punct | eof
    text: str
    line: int


def decode(data: bytes, file: str) -> str:
    """MIL file bytes as text; bytes that are not UTF-8 are one error naming their line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise MilError(file, line, f"not UTF-8 text: byte 0x{data[e.start]:02X} at offset {e.start} ({e.reason})") from None


def tokenize(text: str, file: str) -> list[Tok]:
    toks: list[Tok] = []
    pos, line, n = 0, 1, len(text)
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            ch = text[pos]
            if ch == '"':
                raise MilError(file, line, "unterminated string", text[pos : text.find("\n", pos) if "\n" in text[pos:] else n])
            if text.startswith("/*", pos):
                raise MilError(file, line, "unterminated comment", "/*")
            raise MilError(file, line, "unexpected character", ch)
        kind = m.lastgroup
        s = m.group()
        if kind not in ("ws", "lcomment", "bcomment"):
            toks.append(Tok("punct" if kind == "arrow" else kind, s, line))
        line += s.count("\n")
        pos = m.end()
    toks.append(Tok("eof", "", line))
    return toks


def check_brackets(toks: list[Tok], file: str) -> None:
    stack: list[Tok] = []
    for t in toks:
        if t.kind != "punct":
            continue
        if t.text in OPEN:
            stack.append(t)
        elif t.text in CLOSE:
            if not stack:
                raise MilError(file, t.line, f"unbalanced brackets: '{t.text}' has no matching '{CLOSE[t.text]}'", t.text)
            o = stack.pop()
            if OPEN[o.text] != t.text:
                raise MilError(
                    file, t.line,
                    f"unbalanced brackets: '{t.text}' does not close '{o.text}' opened on line {o.line}",
                    t.text,
                )
    if stack:
        o = stack[-1]
        raise MilError(file, o.line, f"unbalanced brackets: '{o.text}' is never closed", o.text)





class TokenCursor:
    """A position in a token list, with the lookahead, expectations and skips
    the parser is built from; every error names the file, line and token."""

    def __init__(self, toks: list[Tok], file: str):
        self.toks, self.i, self.file = toks, 0, file

    # -- token helpers
    def peek(self, k: int = 0) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Tok:
        t = self.peek()
        if t.kind != "eof":
            self.i += 1
        return t

    def prev(self) -> Tok:
        return self.toks[self.i - 1] if self.i else self.toks[0]

    def error(self, what: str, tok: Tok | None = None) -> MilError:
        tok = tok or self.peek()
        return MilError(self.file, tok.line, what, tok.text if tok.kind != "eof" else "<end of input>")

    def at(self, text: str) -> bool:
        t = self.peek()
        return t.kind in ("punct", "ident") and t.text == text

    def expect(self, text: str, what: str | None = None) -> Tok:
        if not self.at(text):
            raise self.error(what or f"expected '{text}'")
        return self.next()

    def terminator(self, text: str, what: str) -> Tok:
        """A closing ';' that is missing is reported after the previous token."""
        if not self.at(text):
            p = self.prev()
            raise MilError(self.file, p.line, what, p.text)
        return self.next()

    def ident(self, what: str) -> Tok:
        t = self.peek()
        if t.kind != "ident":
            raise self.error(what)
        return self.next()

    def skip_group(self) -> None:
        """Skip a bracketed group starting at the current '[' / '(' / '{'."""
        depth = 0
        while True:
            t = self.next()
            if t.kind == "punct" and t.text in OPEN:
                depth += 1
            elif t.kind == "punct" and t.text in CLOSE:
                depth -= 1
                if depth == 0:
                    return
            elif t.kind == "eof":  # pragma: no cover - brackets are checked first
                raise self.error("unbalanced brackets", t)

    def skip_value(self) -> None:
        """Skip one attribute value (up to ',' or ']' outside any brackets)."""
        depth = 0
        start = self.peek()
        while True:
            t = self.peek()
            if t.kind == "eof":
                raise self.error("unterminated attribute value", start)
            if t.kind == "punct":
                if depth == 0 and t.text in (",", "]"):
                    if t is start:
                        raise self.error("expected a value")
                    return
                if t.text in OPEN or t.text == "<":
                    depth += 1
                elif t.text in CLOSE or t.text == ">":
                    depth -= 1
            self.next()
