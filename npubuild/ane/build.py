"""Building ``specs/graphs/*.mil`` and the YAML graphs with ``targets: [ane]`` for the ``ane`` target.

Each MIL file is one graph, named after the file; a YAML graph is translated into the same kind of
program by :mod:`.from_graph` (the functions here take it as ``graph``) and planned the same way. Its doit task parses it,
compiles the plan (:mod:`.plan`), and writes one directory per program laid
out as in a compiled Core ML model (``n<i>_<name>/model.mil`` +
``n<i>_<name>/weights/weight.bin``, so ``@model_path`` resolves), ``fills.weight.bin``
(constants read as inputs, folded rms_norm gammas) and ``plan.json`` (the
graph's manifest record) under ``artifacts/ane/<graph>/``. The action's key
covers the MIL text, every blob file it reads and this package's code; a key
already in the content-addressed store is materialised instead of compiled.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path

from ..core.errors import UserError
from ..core.fsio import atomic_write_bytes, atomic_write_text, read_regular, sha256_file, within_roots
from ..core.nospace import disk_full_message, is_disk_full
from ..specfile.milrefs import blob_paths
from .mil_model import MilBounds, MilProgram

PLAN_FILE = "plan.json"
FILLS_FILE = "fills.weight.bin"


def mil_files(spec_dir: Path) -> list[Path]:
    d = Path(spec_dir) / "graphs"
    return sorted(p for p in d.rglob("*.mil") if p.is_file()) if d.is_dir() else []


def blob_files(mil_path: Path, bounds: MilBounds | None = None) -> list[Path]:
    """The weight files a MIL program reads (its BLOBFILE paths, resolved as the reader does);
    none when the .mil itself cannot be read (its parse says why)."""
    bounds = bounds or MilBounds()
    try:
        text = read_regular(Path(mil_path), bounds.limits.spec_max_file_size).decode("utf-8", "replace")
    except (OSError, ValueError):
        return []
    return blob_paths(text, Path(mil_path).parent)


def code_version() -> str:
    h = hashlib.sha256()
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def load_plan(mil_path: Path, display: str, bounds: MilBounds):
    """The spec-time check of one .mil (npubuild.engine.plan calls it before any task runs): the
    program must read — its text, its blob files (inside the bounds' roots), its MIL types — or the
    build does not start. Returns the program. Whether every op is on an ANE route is the graph's
    own task's question (:func:`plan_graph`, :func:`build_graph`): an off-route op fails that task,
    naming file:line, and the other graphs and kernels still build."""
    from .mil import load_mil

    return load_mil(mil_path, display, bounds)


def yaml_program(graph, bounds: MilBounds):
    """The MIL program of a YAML graph (:mod:`.from_graph`); its .npy constants are read as the spec loader
    reads them: regular files inside the bounds' roots, at most max_constant_bytes (+ the header)."""
    import io

    from ..ops.lazy_numpy import np
    from .from_graph import program_from_graph

    def read_npy(path):
        try:
            data = read_regular(Path(path), bounds.limits.max_constant_bytes + (1 << 16) + 16, bounds.roots)
            return np.load(io.BytesIO(data), allow_pickle=False)
        except (OSError, ValueError, EOFError) as e:
            raise UserError(f"{graph.file}: graph '{graph.name}': constant file {path} cannot be read: {e}") from None

    if getattr(graph, "functions", None) is None:
        return program_from_graph(graph, read_npy)
    # a model of YAML graphs (spec.graph.ModelOfGraphs): one function per graph, named after it, the first the default
    fns, files, extensions = {}, {}, {}
    for name, g in graph.functions.items():
        one = program_from_graph(g, read_npy)
        fns[name] = dataclasses.replace(one.main, name=name)
        files[name] = g.file
        for op, lines in one.extensions.items():
            extensions.setdefault(op, []).extend(lines)
    return MilProgram("1.3", fns, graph.file, extensions, default=next(iter(fns)), function_files=files)


def plan_graph(mil_path: Path, display: str, bounds: MilBounds, graph=None):
    """The plan of one .mil's default function (or, with ``graph``, of that YAML graph); ``bounds``
    (MilBounds.of(config)) says where its blobs may be and what it may cost. Every function of a
    multifunction program is planned (:func:`plan_functions`): one that cannot be refuses the graph."""
    return next(iter(plan_functions(mil_path, display, bounds, graph).values()))


FUNCTIONS_DIR = "functions"  # a multifunction graph's other functions: functions/<name>/ under the graph's directory


def plan_functions(mil_path: Path, display: str, bounds: MilBounds, graph=None) -> dict:
    """Function name -> plan for every function of one .mil, the default one first (``main``, or the only
    function: MilProgram.main), each planned as a program of its own (compile_plan plans a program's main).
    A function that cannot be planned refuses the whole graph, in one message naming each such function and
    the file:line the planner names: the graph package holds every function, and one without a function its
    .mil declares would fail only when that function is called. A YAML graph has one function."""
    prog = yaml_program(graph, bounds) if graph is not None else load_plan(mil_path, display, bounds)
    return plan_program(prog, bounds)


def plan_program(prog, bounds: MilBounds) -> dict:
    """Function name -> plan for every function of the MilProgram ``prog`` (:func:`plan_functions`)."""
    from .plan import compile_plan

    default = prog.main
    names = [default.name, *(n for n in prog.functions if n != default.name)]
    plans, refused = {}, []
    for name in names:
        fn = prog.functions[name]
        file = prog.function_files.get(name, prog.file)  # a model's function: the YAML file of its graph
        try:
            plans[name] = compile_plan(dataclasses.replace(prog, functions={name: fn}, file=file), bounds)
        except UserError as e:
            if len(names) == 1:
                raise
            refused.append(f"function '{name}' ({file}:{fn.line}) cannot be planned: {e}")
    if refused:
        raise UserError(f"{prog.file}: a multifunction program builds only when every function plans "
                        f"({len(refused)} of {len(names)} functions cannot be planned; no part of this graph is built):\n" + "\n".join(refused))
    return plans


def _digest(path: Path, bounds: MilBounds) -> bytes:
    """A blob file's sha256, read as the reader reads it; what cannot be read is a marker (the parse says why)."""
    try:
        return hashlib.sha256(read_regular(path, bounds.max_bytes, bounds.roots)).hexdigest().encode()
    except (OSError, ValueError):
        return b"unreadable"


def _strict_mark(bounds) -> bytes:
    """ane_strict in a graph's key: a strict build refuses what a default one places on the CPU, so a stored
    plan with CPU nodes must not satisfy a strict build (nor the reverse)."""
    return b"\0ane_strict" if getattr(bounds, "ane_strict", False) else b""


def package_meta(bounds, graph=None):
    """The metadata of a graph's Core ML packages (:class:`.metadata.PackageMeta`): the project's defaults
    (``bounds.package_meta``: ane_author, ane_version, ane_license), a YAML graph's ``metadata`` and descriptions."""
    from .metadata import PackageMeta

    return PackageMeta.of(getattr(bounds, "package_meta", ()), graph)


def _meta_mark(bounds, graph=None) -> bytes:
    """The packages' metadata in a graph's key: a changed author (or description) rebuilds them."""
    from .metadata import key_text

    return b"\0meta\0" + key_text(package_meta(bounds, graph)).encode()


def yaml_graph_key(graph, bounds: MilBounds) -> str:
    """A YAML graph's key: what its program is made of (:func:`.from_graph.describe`: the kernel keys hold the
    ops and attrs) and its constants' values (inline, or the .npy file's bytes); a model of YAML graphs: each
    function's, in order."""
    from ..core.canonical import canonical_json

    h = hashlib.sha256(b"ane-yaml-graph-1\0" + code_version().encode() + _strict_mark(bounds) + _meta_mark(bounds, graph))
    from .from_graph import describe

    for fname, g in (getattr(graph, "functions", None) or {None: graph}).items():
        h.update(canonical_json([fname, describe(g)]).encode())
        for name, c in sorted(g.constants.items()):
            data = _digest(Path(c.file), bounds) if c.file is not None else canonical_json(c.value).encode()
            h.update(name.encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def graph_key(mil_path: Path, bounds: MilBounds) -> str:
    h = hashlib.sha256(b"ane-graph-2\0" + code_version().encode() + _strict_mark(bounds) + _meta_mark(bounds))
    try:
        h.update(hashlib.sha256(read_regular(mil_path, bounds.limits.spec_max_file_size)).digest())
    except (OSError, ValueError):
        h.update(b"unreadable")
    for b in blob_files(mil_path, bounds):
        h.update(b.name.encode() + b"\0" + _digest(b, bounds))  # the name, not the path: stores are shared across checkouts
    return h.hexdigest()


def readable_blobs(mil_path: Path, bounds: MilBounds) -> list[Path]:
    """The blob files of a .mil that a build may depend on: regular files inside the bounds' roots."""
    return [b for b in blob_files(mil_path, bounds) if b.is_file() and (bounds.roots is None or within_roots(b, bounds.roots))]


def _file_rec(path: Path, rel_to: Path) -> dict:
    return {"path": path.relative_to(rel_to).as_posix(), "sha256": sha256_file(path), "size": path.stat().st_size}


def _weight_bytes(node) -> int:
    """The bytes a program node's weights take in its weight.bin: packed weights as stored, the rest as fp16."""
    from ..ops.lazy_numpy import np

    total = 0
    for k, w in node.weights.items():
        pk = node.packed.get(k)
        parts = (pk.data, pk.scale, pk.offset) if pk is not None else (w,)
        total += sum(np.asarray(a).size * max(np.asarray(a).dtype.itemsize, 2) for a in parts if a is not None)
    return total


def written_bytes(plan, program=None) -> int:
    """What writing ``plan``'s artifacts will take on disk, at least: every program's weights twice (its
    weight.bin and the same values in its Core ML package), the graph package's constants (the program's)
    and the fills. The plan's own budget counts each weight once; this is the bound on what a build writes."""
    from ..ops.lazy_numpy import np
    from .plan_model import ProgNode, RsqrtNode

    total = sum(2 * _weight_bytes(n) for n in plan.nodes if isinstance(n, ProgNode))
    total += sum(2 * np.asarray(v).size for v in plan.const_fills.values())
    total += sum(2 * np.asarray(n.gamma).size for n in plan.nodes if isinstance(n, RsqrtNode) and n.gamma is not None)
    if program is not None:
        total += sum(np.asarray(v).nbytes for v in program.main.consts.values())
    return total


def check_written_bytes(plan, graph: str, limit: int, program=None) -> None:
    """Refuse, before a byte is written, a graph whose artifacts would be over ``limit`` (max_artifact_size)
    in all: a tiny .mil can ask for several large adapters, each stored twice."""
    need = written_bytes(plan, program)
    if need > limit:
        raise UserError(f"ane graph '{graph}': its artifacts would take {need} bytes on disk (program weights, adapters and "
                        f"their Core ML packages), over max_artifact_size ({limit} bytes) in [tool.npubuild]: "
                        "make the graph smaller (fewer or smaller layout changes) or raise max_artifact_size")


def write_graph(plan, out_dir: Path, source=None, program=None, max_bytes: int | None = None,
                functions: dict | None = None, meta=None, sizes: dict | None = None) -> list[Path]:
    """Write every artifact of ``plan`` into ``out_dir``; returns the files. Each program also gets its
    Core ML package (:mod:`.coreml`, :mod:`.coreml_graph`), and with ``source`` = (the .mil, its display name, MilBounds)
    the graph gets one too; so does it with ``program``, the MilProgram a YAML graph was translated into.
    ``max_bytes`` (default: the source's MilBounds.max_bytes) bounds everything written, checked first.
    ``functions`` (a multifunction .mil: name -> (plan, record of :func:`write_function`), the default function's
    first, ``plan`` its plan) makes the graph package a multifunction one and its records ``functions``.
    ``meta`` (:class:`.metadata.PackageMeta`; None: the defaults) is what every package carries as metadata.
    ``sizes`` (a YAML graph with ``seq``: :func:`write_sizes`) makes its package's seq inputs enumerated shapes
    and its record's ``seq``."""
    from ..ops.lazy_numpy import np
    from .plan_model import HostNode, RsqrtNode
    from .programs import node_program, plan_record
    from .weightbin import write_weight_bin

    if max_bytes is None and source is not None:
        max_bytes = source[2].max_bytes
    if max_bytes is not None:
        check_written_bytes(plan, out_dir.name, max_bytes, program)
    out_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    program_files, stems = {}, {}
    for i, node in enumerate(plan.nodes):
        if isinstance(node, HostNode):
            continue  # computed on the host (the rsqrt broadcast, a CPU node): no program, no files
        stem = stems[i] = f"n{i}_{re.sub(r'[^A-Za-z0-9_.-]', '_', node.name)}"
        text, blob, blobs = node_program(node)
        mil = out_dir / stem / "model.mil"
        mil.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(mil, text)
        rec = {"mil": _file_rec(mil, out_dir), **blobs}
        files.append(mil)
        if blob:
            wb = out_dir / stem / "weights" / "weight.bin"
            wb.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(wb, blob)
            rec["weights"] = _file_rec(wb, out_dir)
            files.append(wb)
        program_files[i] = rec
    from .coreml_graph import write_packages  # imports coremltools: only when ANE artifacts are built

    packages, graph_package, package_files = write_packages(
        plan, out_dir, stems, out_dir.name, source, {n: p for n, (p, _) in functions.items()} if functions else None, meta)
    if program is not None:
        graph_package = _program_package(plan, program, out_dir, meta, functions, sizes)
        package_files += [out_dir / f["path"] for f in graph_package["files"]]
    for i, pkg in packages.items():
        program_files[i]["mlpackage"] = pkg
    files += package_files
    fills, keys = [], []
    for name, values in sorted(plan.const_fills.items()):
        fills.append(np.asarray(values, dtype=np.float16).reshape(-1))
        keys.append(f"const:{name}")
    for i, node in enumerate(plan.nodes):
        if isinstance(node, RsqrtNode) and node.gamma is not None:
            fills.append(np.asarray(node.gamma, dtype=np.float16).reshape(-1))
            keys.append(f"gamma:{i}")
    fills_rec = None
    if fills:
        blob, offsets = write_weight_bin(fills)
        fp = out_dir / FILLS_FILE
        atomic_write_bytes(fp, blob)
        files.append(fp)
        fills_rec = {"file": _file_rec(fp, out_dir), "offsets": dict(zip(keys, offsets))}
    record = plan_record(plan, program_files, fills_rec)
    if graph_package is not None:
        record["mlpackage"] = graph_package
    if sizes:
        record["seq"] = sizes["record"]
    if functions:
        record["default_function"] = next(iter(functions))
        record["functions"] = {n: rec for n, (_, rec) in list(functions.items())[1:]}
    pj = out_dir / PLAN_FILE
    atomic_write_text(pj, json.dumps(record, indent=1, sort_keys=True) + "\n")
    return [pj, *files]


def write_function(plan, out_dir: Path, name: str, max_bytes: int | None, meta=None,
                   under: str = FUNCTIONS_DIR) -> tuple[dict, list[Path]]:
    """Write the programs of function ``name`` of a multifunction .mil (not its default one) under
    ``out_dir``/functions/<name>/ (``under``: another folder, e.g. seq/<size>/ for a size of a seq graph) as
    :func:`write_graph` writes a graph's (no graph package: the graph's holds every function); returns its plan
    record, its paths relative to ``out_dir`` as the graph's are, and its files."""
    sub = Path(under) / re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    files = write_graph(plan, out_dir / sub, max_bytes=max_bytes, meta=meta)
    pj = files.pop(0)  # its plan.json: the graph's record holds the function's
    record = json.loads(pj.read_text())
    pj.unlink()
    for holder in [*record["nodes"], record]:
        for key in ("mil", "weights", "fills"):
            if isinstance(holder.get(key), dict):
                holder[key]["path"] = f"{sub.as_posix()}/{holder[key]['path']}"
        pkg = holder.get("mlpackage")
        if isinstance(pkg, dict):
            pkg["path"] = f"{sub.as_posix()}/{pkg['path']}"
            for f in pkg["files"]:
                f["path"] = f"{sub.as_posix()}/{f['path']}"
    return record, files


def write_functions(plans: dict, out_dir: Path, source, meta=None, program=None, max_bytes: int | None = None) -> list[Path]:
    """Write every function of a .mil (``plans`` from :func:`plan_functions`; or of ``program``, a YAML graph's or a
    model of YAML graphs', with ``source`` None): one function is a graph as before (:func:`write_graph`); several
    are the default function's artifacts, each other function's under functions/<name>/ (:func:`write_function`),
    and one multifunction graph package. Everything written is checked against max_bytes (default: the source's)
    first, all functions together."""
    if source is not None:
        max_bytes = source[2].max_bytes
    if len(plans) == 1:
        return write_graph(next(iter(plans.values())), out_dir, source, program=program, max_bytes=max_bytes, meta=meta)
    if max_bytes is not None:
        need = sum(written_bytes(p) for p in plans.values())
        if need > max_bytes:
            raise UserError(f"ane graph '{out_dir.name}': its functions' artifacts would take {need} bytes on disk, over "
                            f"max_artifact_size ({max_bytes} bytes) in [tool.npubuild]: make the graph smaller or raise max_artifact_size")
    names = list(plans)
    functions, files = {names[0]: (plans[names[0]], None)}, []
    for name in names[1:]:
        record, written = write_function(plans[name], out_dir, name, max_bytes, meta)
        functions[name] = (plans[name], record)
        files += written
    return [*write_graph(plans[names[0]], out_dir, source, program=program, max_bytes=max_bytes, functions=functions,
                         meta=meta), *files]


def write_sizes(graph, out_dir: Path, bounds, meta) -> list[Path]:
    """Plan and write every size of a YAML graph with ``seq`` (:mod:`.sizes`): the default size as a graph, each
    other size under seq/<size>/ (:func:`write_function`), one graph package with enumerated shapes; everything
    written is checked against max_artifact_size first, all sizes together."""
    from .sizes import SEQ_DIR, flexible, plan_sizes

    programs = plan_sizes(graph, bounds, yaml_program)
    need = sum(written_bytes(plan) for _, _, plan in programs)
    if bounds.max_bytes is not None and need > bounds.max_bytes:
        raise UserError(f"ane graph '{graph.name}': its {len(programs)} seq sizes' artifacts would take {need} bytes on disk, "
                        f"over max_artifact_size ({bounds.max_bytes} bytes) in [tool.npubuild]: list fewer sizes or raise it")
    files, plans = [], {}
    for size, _, plan in programs[1:]:
        record, written = write_function(plan, out_dir, str(size), bounds.max_bytes, meta, under=SEQ_DIR)
        plans[str(size)] = record
        files += written
    sizes = {"flexible": flexible(graph, programs),
             "record": {"sizes": list(graph.seq["sizes"]), "inputs": dict(graph.seq["inputs"]), "plans": plans}}
    default = programs[0]
    return [*write_graph(default[2], out_dir, program=default[1], max_bytes=bounds.max_bytes, meta=meta, sizes=sizes), *files]


def _program_package(plan, program, out_dir: Path, meta=None, functions: dict | None = None, sizes: dict | None = None) -> dict:
    """The whole-graph package of a translated YAML graph, as coreml_graph.write_graph_package makes a .mil's
    (which reads the .mil again): re-created with coremltools' builder, converted and checked against the plan;
    with ``functions`` (a model of YAML graphs: name -> (plan, record), the default first) a multifunction one."""
    from .coreml_graph import graph_package, multifunction_package

    graph = out_dir.name
    dest = out_dir / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', graph)}.mlpackage"
    what = f"ane graph '{graph}': the graph package"
    if functions and len(functions) > 1:
        return multifunction_package({n: p for n, (p, _) in functions.items()}, program.functions, program.file, dest,
                                     out_dir, what, meta)
    return graph_package(plan, program.main, program.file, dest, out_dir, what, meta=meta,
                         flexible=sizes["flexible"] if sizes else None)


def build_graph(mil_path: str, display: str, out_dir: str, stores, bounds: MilBounds, graph=None) -> dict:
    """The doit action: materialise from the stores or compile and store.

    ``stores`` is a StoreAccess or the local store's path; ``bounds`` the project's MilBounds; ``graph`` the
    YAML graph (spec.graph.ResolvedGraph) when the graph is not a .mil.
    """
    from doit.exceptions import TaskFailed

    from ..artifacts.stores import open_stores

    mil, out = Path(mil_path), Path(out_dir)
    try:
        key = graph_key(mil, bounds) if graph is None else yaml_graph_key(graph, bounds)
        store = open_stores(stores)
        if store.materialize(key, out) is not None:
            return {"outcome": "store"}
        if graph is None:
            files = write_functions(plan_functions(mil, display, bounds), out, (mil, display, bounds), package_meta(bounds))
        elif getattr(graph, "variants", None):
            files = write_sizes(graph, out, bounds, package_meta(bounds, graph))
        else:
            program = yaml_program(graph, bounds)
            files = write_functions(plan_program(program, bounds), out, None, package_meta(bounds, graph), program,
                                    bounds.max_bytes)
    except UserError as e:
        return TaskFailed(str(e))
    except OSError as e:
        if not is_disk_full(e):
            raise
        return TaskFailed(disk_full_message(e))
    # stale files of an earlier plan would be named by nothing: remove them
    keep = {f.resolve() for f in files}
    for p in sorted(out.rglob("*"), reverse=True):
        if p.is_file() and p.resolve() not in keep:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()
    store.put(key, {f.relative_to(out).as_posix(): f for f in files}, {"ane_graph": mil.stem if graph is None else graph.name})
    return {"outcome": "compiled"}


def manifest_record(out_dir: Path, artifacts: Path) -> dict:
    """plan.json with its file paths made relative to the artifact directory."""
    rec = json.loads((out_dir / PLAN_FILE).read_text())
    prefix = out_dir.relative_to(artifacts).as_posix()

    def fix(f):
        if f is not None:
            f["path"] = f"{prefix}/{f['path']}"

    # the record, a multifunction graph's other functions (write_function), a seq graph's other sizes (.sizes)
    others = [*(rec.get("functions") or {}).values(), *((rec.get("seq") or {}).get("plans") or {}).values()]
    for sub in [rec, *others]:
        for n in sub["nodes"]:
            fix(n.get("mil"))
            fix(n.get("weights"))
        if sub.get("fills"):
            fix(sub["fills"])
    if others:
        from .coreml import relocate

        for sub in others:
            relocate(sub, prefix)  # the top-level record's own packages are relocated by its caller
    return rec
