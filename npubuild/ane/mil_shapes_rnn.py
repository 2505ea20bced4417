"""Result types of MIL's recurrent ops, gru, lstm and rnn (rules for :mod:`.mil_types`).

Each rule follows the ``type_inference`` of coremltools 9.0's definition in
``defs/iOS15/recurrent.py`` (iOS17's ``defs/iOS17/recurrent.py`` adds fp16, iOS18's
``defs/iOS18/recurrent.py`` gru's reset_after and input_bias): x is
[seq_len, batch, input_size]; the results are the output ([seq_len or 1, batch,
hidden]: all steps with output_sequence, else the last) and the last hidden state
[batch, hidden] (lstm: and the last cell state).
"""
from __future__ import annotations

from .mil_shapes import Bad, Operands, T, dims, known, need_rank

LSTM_ACTIVATIONS = ("tanh", "scaled_tanh", "sigmoid", "hard_sigmoid", "relu", "linear")


def _x(a: Operands) -> tuple:
    xs = need_rank(a.type("x"))
    if len(xs) != 3:
        raise Bad(f"x {dims(xs)} must have rank 3 ([seq_len, batch, input_size])")
    return xs


def _rank2(a: Operands, *keys) -> list[tuple]:
    out = [need_rank(a.type(k), k) for k in keys]
    if any(len(s) != 2 for s in out):
        raise Bad(" and ".join(f"{k} {dims(s)}" for k, s in zip(keys, out)) + " must have rank 2")
    return out


def _direction(a: Operands, allowed) -> str:
    d = a.text("direction", "forward")
    if d not in allowed:
        raise Bad(f"direction {d!r} is not one of {', '.join(allowed)}")
    return d


def _results(a: Operands, xs: tuple, hidden: int, n: int) -> list[T]:
    dt = a.type("x").dtype
    seq = xs[0] if a.flag("output_sequence") else 1
    return [T(dt, (seq, xs[1], hidden))] + [T(dt, (xs[1], hidden))] * n


def gru(a: Operands) -> list[T]:
    """gru: weight_hh [3 * H, H]; direction forward or reverse."""
    xs = _x(a)
    _, (hd, h) = _rank2(a, "weight_ih", "weight_hh")
    _direction(a, ("forward", "reverse"))
    if known(hd) and known(h) and h != hd // 3:
        raise Bad(f"weight_hh is [{hd}, {h}]; it must be [3 * H, H]")
    return _results(a, xs, h, 1)


def _lstm_weights(a: Operands, ih: str, hh: str) -> int:
    (i0, _), (h0, h) = _rank2(a, ih, hh)
    if known(h) and (h == 0 or (known(h0) and h0 // h != 4) or (known(i0) and i0 // h != 4)):
        raise Bad(f"{ih} and {hh} must be [4 * H, *] and [4 * H, H]; {hh} has H = {h}")
    return h


def lstm(a: Operands) -> list[T]:
    """lstm: weight_hh [4 * H, H] (and weight_ih [4 * H, input]); bidirectional needs weight_ih_back
    and weight_hh_back and doubles H in the results; activations are coremltools' six."""
    xs = _x(a)
    d = _direction(a, ("forward", "reverse", "bidirectional"))
    h = _lstm_weights(a, "weight_ih", "weight_hh")
    if d == "bidirectional":
        if not (a.has("weight_ih_back") and a.has("weight_hh_back")):
            raise Bad("a bidirectional lstm needs weight_ih_back and weight_hh_back")
        _lstm_weights(a, "weight_ih_back", "weight_hh_back")
    for k, default in (("recurrent_activation", "sigmoid"), ("cell_activation", "tanh"), ("activation", "tanh")):
        v = a.text(k, default)
        if v.lower() not in LSTM_ACTIVATIONS:
            raise Bad(f"{k} {v!r} is not one of {', '.join(LSTM_ACTIVATIONS)}")
    return _results(a, xs, h * 2 if d == "bidirectional" and known(h) else h, 2)


def rnn(a: Operands) -> list[T]:
    """rnn: H is weight_ih's dim 0; direction forward or reverse."""
    xs = _x(a)
    (h, _), _ = _rank2(a, "weight_ih", "weight_hh")
    _direction(a, ("forward", "reverse"))
    return _results(a, xs, h, 1)
