"""Pictures of graphs in Graphviz's DOT language, and rendering them.

npubuild writes the DOT text itself; SVG and PNG come from running Graphviz's
``dot`` on it when ``dot`` is on PATH. Names come from other people's specs and
manifests, so no name is ever a DOT identifier: nodes get generated ids
(``n0``, ``n1``, ...) and names appear only inside quoted labels, escaped
(:func:`quote`), which leaves nothing in a name that DOT would read as syntax.

* :func:`signature_dot`: a graph (npubuild.runner.signature): one box per node
  with its op, dtype, target(s) and kernel id; inputs, params, constants and
  outputs each in their own shape; edges labelled with the tensor's shape and dtype.
* :func:`dag_dot`: any DAG of labelled nodes (the build's tasks: npubuild.engine.task_graph).
* :func:`write_picture`: DOT, SVG or PNG at a path, written atomically.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..core.errors import UserError
from ..core.fsio import atomic_write_bytes

FORMATS = {".dot": None, ".gv": None, ".svg": "svg", ".png": "png"}  # suffix -> dot -T format (None: the DOT text)
DOT_TIMEOUT = 120.0  # seconds: a picture of a 500-kernel build's tasks takes a few
INSTALL_HINT = "install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz) or write a .dot file"

# how each kind of tensor is drawn
TENSOR_STYLE = {
    "input": 'shape=invhouse, style=filled, fillcolor="#dbeafe"',
    "param": 'shape=folder, style=filled, fillcolor="#fef3c7"',
    "constant": 'shape=cylinder, style=filled, fillcolor="#e5e7eb"',
    "output": 'shape=house, style=filled, fillcolor="#dcfce7"',
}
NODE_STYLE = 'shape=box, style="rounded,filled", fillcolor="#ffffff"'


def quote(text) -> str:
    """``text`` as a DOT quoted string: backslashes doubled (DOT reads ``\\n``, ``\\l``, ``\\N`` ... in
    labels as escapes), quotes escaped, ``&`` as ``&amp;`` (Graphviz reads ``&amp;`` in a label as ``&``),
    line breaks as ``\\n``, other control characters dropped."""
    s = str(text).encode("utf-8", "replace").decode("utf-8")  # lone surrogates cannot be written as UTF-8
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;")  # Graphviz decodes &...; entities in labels
    s = s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return '"' + "".join(c for c in s if c >= " " or c == "\t") + '"'


def _tensor_label(sig: dict | None) -> str:
    if not sig:
        return ""
    shape = sig.get("shape") or []
    # an ANE intermediate has a layout (e.g. contig[128]) rather than a shape
    form = f"{list(shape)}" if shape or not sig.get("layout") else sig["layout"]
    return f"{form} {sig.get('dtype', '')}".strip()


def signature_dot(sig: dict) -> str:
    """The DOT text of a graph signature (see the module docstring)."""
    lines = [f"digraph {quote(sig['graph'])} {{", "  rankdir=TB;", '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];', f"  label={quote('graph ' + sig['graph'] + _file_note(sig))}; labelloc=t;"]
    producer: dict[str, str] = {}
    ids = (f"n{i}" for i in range(1 << 30))
    for kind, side in (("input", "inputs"), ("param", "params"), ("constant", "constants")):
        for name, t in sig[side].items():
            nid = next(ids)
            producer[name] = nid
            lines.append(f"  {nid} [label={quote(f'{kind} {name}' + chr(10) + _tensor_label(t))}, {TENSOR_STYLE[kind]}];")
    node_ids = [next(ids) for _ in sig["nodes"]]
    for nid, node in zip(node_ids, sig["nodes"]):
        for t in node["outputs"]:  # all producers first: nodes need not be listed in dependency order
            producer[t] = nid
    edges = []
    for nid, node in zip(node_ids, sig["nodes"]):
        targets = ", ".join(t + (" (not compiled)" if t in node["not_compiled"] else "") for t in node["targets"])
        label = [node["name"], f"{node['op']} {node['dtype']}", f"targets: {targets or '-'}"]
        if node.get("kernel"):
            label.append(node["kernel"])
        lines.append(f"  {nid} [label={quote(chr(10).join(label))}, {NODE_STYLE}];")
        edges += [(producer[t], nid, t) for t in node["inputs"] if t in producer]
    for name, t in sig["outputs"].items():
        nid = next(ids)
        lines.append(f"  {nid} [label={quote(f'output {name}' + chr(10) + _tensor_label(t))}, {TENSOR_STYLE['output']}];")
        src = t.get("node") or name
        if src in producer:
            edges.append((producer[src], nid, src))
    for a, b, tensor in edges:
        lines.append(f"  {a} -> {b} [label={quote(tensor + chr(10) + _tensor_label(sig['tensors'].get(tensor)))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _file_note(sig: dict) -> str:
    return f" ({sig['file']})" if sig.get("file") else ""


def dag_dot(title: str, nodes: list[tuple[str, str, str]], edges: list[tuple[str, str]]) -> str:
    """DOT text of a DAG: ``nodes`` are (key, label, DOT attributes), ``edges`` (key, key)."""
    ids = {key: f"t{i}" for i, (key, _, _) in enumerate(nodes)}
    lines = [f"digraph {quote(title)} {{", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10, shape=box];']
    for key, label, attrs in nodes:
        lines.append(f"  {ids[key]} [label={quote(label)}{', ' + attrs if attrs else ''}];")
    for a, b in edges:
        lines.append(f"  {ids[a]} -> {ids[b]};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def picture_format(path: Path) -> str | None:
    """The ``dot -T`` format the file name asks for (None: DOT text); UserError for another suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UserError(f"cannot tell the picture format of {path}: name it .svg, .png or .dot")
    return FORMATS[suffix]


def write_picture(dot_text: str, path, timeout: float = DOT_TIMEOUT) -> None:
    """Write ``dot_text`` to ``path`` as DOT, or rendered by Graphviz as SVG or PNG; atomically."""
    import os
    import stat

    path = Path(path)
    fmt = picture_format(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UserError(f"{path} exists and is not a regular file (a directory, link, FIFO or device); give a file name for -o")
    if not path.parent.is_dir():
        raise UserError(f"cannot write {path}: its directory {path.parent} does not exist")
    data = dot_text.encode("utf-8") if fmt is None else render(dot_text, fmt, timeout)
    try:
        atomic_write_bytes(path, data)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None


def render(dot_text: str, fmt: str, timeout: float = DOT_TIMEOUT) -> bytes:
    """The bytes of ``dot -T<fmt>`` on ``dot_text``; one UserError when Graphviz is missing or fails."""
    exe = shutil.which("dot")
    if exe is None:
        raise UserError(f"writing .{fmt} needs Graphviz's `dot`, which is not on PATH: {INSTALL_HINT}")
    try:
        r = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise UserError(f"Graphviz `dot -T{fmt}` took over {timeout:.0f}s; write a .dot file instead") from None
    except OSError as e:
        raise UserError(f"cannot run Graphviz {exe}: {e.strerror or e}") from None
    if r.returncode != 0 or not r.stdout:
        err = r.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UserError(f"Graphviz `dot -T{fmt}` failed (exit {r.returncode}): {err[0] if err else 'no output'}")
    return r.stdout
