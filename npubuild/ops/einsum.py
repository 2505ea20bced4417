"""einsum (ONNX Einsum): a sum of products over the labels of an Einstein-summation equation.

``equation`` is ``term,term,...->output`` (explicit) or ``term,term,...`` (implicit: the output is
``...`` followed by the labels that occur once, in alphabetical order, ONNX's rule). A term is
letters (``[a-zA-Z]``, one per axis) with at most one ``...`` standing for the axes not labelled;
those broadcast across operands (NumPy rules, right-aligned). A label repeated within one term
takes the diagonal; a label absent from the output is summed over. Every equation of that grammar
is accepted: batched matmul ``bij,bjk->bik``, transposes ``ij->ji``, outer products ``i,j->ij``,
bilinear forms ``bn,anm,bm->ba``, traces ``ii->``; a malformed one is refused at spec time with
what is wrong.

:func:`parse` is pure Python (the build path imports no NumPy); the host emitter
(npubuild/emitters/host/einsum.py) loops over the same :class:`Plan`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import NUMERIC_DTYPES, Attr, OpDef, fmt_shape, register

MAX_EQUATION = 256
_TERM = re.compile(r"[A-Za-z]*(\.\.\.)?[A-Za-z]*")


@dataclass(frozen=True)
class Plan:
    """An equation resolved against the input shapes: every axis carries a label (an ellipsis axis
    ``.k``, counted from the right); ``extents`` gives each label's size."""

    terms: tuple[tuple[str, ...], ...]
    output: tuple[str, ...]
    summed: tuple[str, ...]
    extents: dict

    def out_shape(self) -> tuple[int, ...]:
        return tuple(self.extents[lb] for lb in self.output)


def check_equation(eq: str) -> str | None:
    """The attr check: the equation's grammar (the shapes are checked by :func:`parse`)."""
    if len(eq) > MAX_EQUATION:
        return f"must be at most {MAX_EQUATION} characters, got {len(eq)}"
    try:
        _split(eq)
    except OpError as e:
        return str(e)
    return None


def _split(eq: str) -> tuple[list[str], str | None]:
    s = eq.replace(" ", "")
    if s.count("->") > 1:
        raise OpError(f"has more than one '->': {eq!r}")
    lhs, arrow, rhs = s.partition("->")
    terms = lhs.split(",")
    for t in terms + ([rhs] if arrow else []):
        if not _TERM.fullmatch(t):
            raise OpError(f"term {t!r} of {eq!r} must be letters a-z, A-Z with at most one '...'")
    if arrow and len(set(rhs.replace("...", ""))) != len(rhs.replace("...", "")):
        raise OpError(f"output {rhs!r} of {eq!r} names a label twice")
    if arrow:
        missing = sorted(set(rhs.replace("...", "")) - set("".join(terms)))
        if missing:
            raise OpError(f"output label {missing[0]!r} of {eq!r} is in no input term")
        if "..." in rhs and not any("..." in t for t in terms):
            raise OpError(f"output of {eq!r} has '...' but no input term has")
    return terms, (rhs if arrow else None)


def _labels(term: str, rank: int, eq: str, i: int) -> tuple[str, ...]:
    letters = term.replace("...", "")
    if "..." not in term:
        if len(letters) != rank:
            raise OpError(f"einsum: term {term!r} of {eq!r} labels {len(letters)} axes but input {i} has rank {rank}")
        return tuple(letters)
    n_ell = rank - len(letters)
    if n_ell < 0:
        raise OpError(f"einsum: term {term!r} of {eq!r} labels {len(letters)} axes but input {i} has rank {rank}")
    before, after = term.split("...")
    return tuple(before) + tuple(f".{k}" for k in range(n_ell - 1, -1, -1)) + tuple(after)


def parse(eq: str, shapes) -> Plan:
    """The :class:`Plan` of ``eq`` for input ``shapes``; OpError naming what does not fit."""
    terms, rhs = _split(eq)
    if len(terms) != len(shapes):
        raise OpError(f"einsum: {eq!r} has {len(terms)} input terms but {len(shapes)} inputs are given")
    labelled = [_labels(t, len(s), eq, i) for i, (t, s) in enumerate(zip(terms, shapes))]
    extents: dict = {}
    for i, (labels, shape) in enumerate(zip(labelled, shapes)):
        for lb, d in zip(labels, shape):
            known = extents.get(lb)
            if lb.startswith("."):  # ellipsis axes broadcast (size 1 stretches)
                if known is not None and d != known and 1 not in (d, known):
                    raise OpError(f"einsum: the '...' axes of {eq!r} do not broadcast: input {i} {fmt_shape(shape)}")
                extents[lb] = d if known in (None, 1) else known
            elif known is not None and d != known:
                raise OpError(f"einsum: label {lb!r} of {eq!r} is {known} on one axis and {d} on another "
                              f"(input {i} {fmt_shape(shape)})")
            else:
                extents[lb] = d
    if len(extents) > 52:
        raise OpError(f"einsum: {eq!r} uses {len(extents)} labels with its '...' axes; at most 52")
    ellipsis = sorted((lb for lb in extents if lb.startswith(".")), key=lambda lb: -int(lb[1:]))
    if rhs is None:
        counts = [lb for labels in labelled for lb in labels if not lb.startswith(".")]
        output = tuple(ellipsis) + tuple(sorted(lb for lb in set(counts) if counts.count(lb) == 1))
    else:
        before, _, after = rhs.partition("...")
        output = tuple(before) + (tuple(ellipsis) if "..." in rhs else ()) + tuple(after)
    summed = tuple(lb for lb in dict.fromkeys(lb for labels in labelled for lb in labels) if lb not in output)
    return Plan(tuple(labelled), output, summed, extents)


def _infer(shapes, attrs):
    return parse(attrs["equation"], [tuple(s) for s in shapes]).out_shape()


def _einsum(xs, attrs):
    """The sum of products in float64 (integers: int64, wrapping), rounded once to the dtype."""
    plan = parse(attrs["equation"], [x.shape for x in xs])
    names = {lb: chr(ord("a") + k) if k < 26 else chr(ord("A") + k - 26) for k, lb in enumerate(plan.extents)}
    spec = ",".join("".join(names[lb] for lb in t) for t in plan.terms) + "->" + "".join(names[lb] for lb in plan.output)
    wide = [x.astype(np.float64 if x.dtype.kind == "f" else np.int64) for x in xs]
    with np.errstate(over="ignore", invalid="ignore"):
        return np.einsum(spec, *wide).astype(xs[0].dtype)


register(
    OpDef(
        name="einsum",
        family="einsum",
        doc="Einstein summation over the labels of equation (ONNX Einsum, numpy.einsum): batched matmul, "
        "transposes, outer products, bilinear forms, diagonals",
        inputs=("x",),
        variadic=True,
        infer=_infer,
        oracle=_einsum,
        attrs=(Attr("equation", "str", doc="'ij,jk->ik' (explicit) or 'ij,jk' (implicit: '...' then the labels "
                    "used once, alphabetically); letters a-zA-Z, at most one '...' per term", check=check_equation),),
        dtypes=NUMERIC_DTYPES,
    )
)
