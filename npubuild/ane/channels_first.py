"""``layout: channels_first`` of a YAML ane graph: its rank-2 ``[S, C]`` tensors held as ``(1, C, 1, S)``.

ml-ane-transformers' principle (apple/ml-ane-transformers, "Deploying Transformers on the Apple Neural
Engine"): the Neural Engine's tensors are 4-D and channels-first, ``(B, C, 1, S)``, their last axis the one laid
out contiguously (and padded to 64 bytes); an ``nn.Linear`` becomes a 1x1 ``nn.Conv2d``. Under this layout the
MIL program of a YAML graph (:func:`.from_graph.program_from_graph`) is rewritten so:

* each input and each node result ``[S, C]`` is a ``[1, C, 1, S]`` tensor (so the graph's inputs and outputs are
  given and returned in that shape);
* ``matmul(x, w)`` by a constant ``w [K, N]`` is ``conv(x, weight = w^T [N, K, 1, 1])`` with every parameter
  explicit (strides 1, ``valid``, no padding, dilations 1, one group): the conv 1x1 route, which fuses a
  following bias and activation;
* a constant operand of an element-wise op ``[a, b]`` is ``[1, b, 1, a]`` (``[b]``: ``[1, b, 1, 1]``), which
  broadcasts against ``[1, C, 1, S]`` as the original broadcast against ``[S, C]``;
* ``softmax`` over the channels (axis -1 or 1) is over axis 1, over the sequence (axis 0 or -2) over axis 3.

:func:`layout_problems` says what such a graph may not hold (spec time): tensors of another rank, a matmul by
a computed matrix, a constant that is both a matmul weight and an element-wise operand, and the ops that read
the last axis as the channels (``rms_norm``) or move data between axes (``reshape``, ``transpose``).
"""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .mil_model import Literal, MilOp, MilType

ELEMENTWISE = ("add", "sub", "mul", "max", "min", "relu", "sigmoid", "tanh", "silu", "gelu")
_WHY = {
    "rms_norm": "rms_norm normalises the last axis, which holds the sequence in (1, C, 1, S)",
    "reshape": "a reshape moves values between the axes of (1, C, 1, S)",
    "transpose": "a transpose moves values between the axes of (1, C, 1, S)",
}


def layout(graph) -> str:
    return ((getattr(graph, "ane_options", None) or {}).get("layout") or ("default", 0))[0]


def matmul_weights(graph) -> set:
    return {st.inputs[1] for st in graph.steps if st.instance.op == "matmul" and st.inputs[1] in graph.constants}


def layout_problems(graph, what: str, line_of) -> list[tuple[int, str]]:
    """(line, message) for everything ``graph`` holds that the channels-first layout cannot."""
    if layout(graph) != "channels_first":
        return []
    out = []
    head = f"{what}: layout channels_first"
    for name, sig in graph.inputs.items():
        if len(sig.shape) != 2:
            out.append((line_of(name), f"{head} holds rank-2 [S, C] tensors; input '{name}' is {list(sig.shape)}"))
    weights = matmul_weights(graph)
    for name, c in graph.constants.items():
        if len(c.shape) > 2:
            out.append((line_of(name), f"{head}: constant '{name}' is {list(c.shape)}; constants are [K, N] matmul weights, "
                                       "[a, b] or [b] element-wise operands"))
    for st in graph.steps:
        op, at = st.instance.op, line_of(st.node)
        if op in _WHY:
            out.append((at, f"{head}: node '{st.node}' ({op}): {_WHY[op]}; drop layout or the op"))
        elif len(st.instance.output.shape) != 2:
            out.append((at, f"{head} holds rank-2 [S, C] tensors; node '{st.node}' makes {list(st.instance.output.shape)}"))
        elif op == "matmul" and (st.inputs[1] not in graph.constants or st.inputs[0] in graph.constants):
            out.append((at, f"{head}: node '{st.node}' multiplies by '{st.inputs[1]}', which is not a constant weight: the "
                            "layout turns a matmul into a 1x1 conv, whose weight is a constant"))
        elif op in ELEMENTWISE and any(i in weights for i in st.inputs):
            shared = next(i for i in st.inputs if i in weights)
            out.append((at, f"{head}: node '{st.node}' reads '{shared}', a matmul weight (held [N, K, 1, 1] as a conv's), "
                            "as an element-wise operand; declare a second constant for it"))
    return out


def _cf_shape(shape) -> tuple:
    """[S, C] -> (1, C, 1, S); [b] -> (1, b, 1, 1)."""
    shape = tuple(int(d) for d in shape)
    return (1, shape[1], 1, shape[0]) if len(shape) == 2 else (1, shape[0], 1, 1)


def rewrite(graph, inputs: list, consts: dict, const_types: dict, ops: list) -> tuple[list, list]:
    """The program's inputs and ops (and, in place, its constants) in the channels-first layout."""
    weights = matmul_weights(graph)
    for name in list(consts):
        v = np.asarray(consts[name])
        if name in weights:  # [K, N] -> the conv weight [N, K, 1, 1]
            consts[name] = np.ascontiguousarray(v.T).reshape(v.shape[1], v.shape[0], 1, 1)
        else:
            consts[name] = np.ascontiguousarray(v.T if v.ndim == 2 else v).reshape(_cf_shape(v.shape))
        const_types[name] = MilType(const_types[name].dtype, tuple(consts[name].shape))
    inputs = [(n, MilType(t.dtype, _cf_shape(t.shape))) for n, t in inputs]
    out = []
    for o in ops:
        ty = MilType(o.type.dtype, _cf_shape(o.type.shape))
        args = dict(o.args)
        if o.op == "matmul":
            ints = lambda vals: Literal(MilType("int32", (len(vals),)), np.asarray(vals, dtype=np.int32))  # noqa: E731
            args = {"x": args["x"], "weight": args["y"], "strides": ints([1, 1]), "pad_type": Literal(MilType("string"), "valid"),
                    "pad": ints([0, 0, 0, 0]), "dilations": ints([1, 1]), "groups": Literal(MilType("int32"), 1)}
            out.append(MilOp("conv", o.result, ty, args, o.name, o.line))
            continue
        if o.op == "softmax":
            axis = int(args["axis"].value)
            args["axis"] = Literal(MilType("int32"), 1 if axis in (-1, 1) else 3)
        out.append(MilOp(o.op, o.result, ty, args, o.name, o.line))
    return inputs, out


def compress_axes(graph, name: str) -> tuple[int, int]:
    """(input channel axis, output channel axis) of matmul weight ``name`` as the program holds it: [K, N], or the
    conv weight [N, K, 1, 1] under channels_first (coremltools' select_input_output_channel_axis for conv)."""
    return (1, 0) if layout(graph) == "channels_first" and name in matmul_weights(graph) else (0, 1)
