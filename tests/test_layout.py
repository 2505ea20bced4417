"""The package tree tells the data flow: no import cycles, each stage imports
only the stages below it, no module over 600 lines.

Imports are read from the sources with ``ast`` (never by importing them), at
every scope: an import inside a function still ties two modules together, it
only hides the cycle until the function runs.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "npubuild"
MAX_LINES = 600

# The foundation every stage may use (errors, constants, configuration, limits, canonical JSON, safe
# writes, sealed caches) is the package core/; the modules at the top of npubuild/ are the public entry
# points only (the command line is the package cli/, stage "cli", one module per command).
FOUNDATION = "core"
TOP_LEVEL = {"__init__", "tasks"}

# stage -> the stages it may import (besides itself and the foundation).
# ops -> spec -> build -> artifacts is the data flow; emitters, toolchain and
# ane are what build uses; the runner reads artifacts (and runs ops' oracles,
# the ANE programs, and the int8 GEMM overlay's host-side layouts, ops.gemm_layout).
# targets/ holds one package per target (ref, host, xdna, ane) and the registry that finds them by
# name; a target uses what it builds and runs with (emitters, toolchain drivers, the runner's kernel
# classes), and the engine's task creators, the runner and the command line find targets through the registry.
STAGE_DEPS = {
    "ops": set(),
    "specfile": {"ops"},
    "artifacts": set(),
    "emitters": {"specfile", "ops"},
    "toolchain": {"emitters", "artifacts"},
    "ane": {"ops", "artifacts", "specfile.milrefs"},  # a .mil graph is a spec file: which blobs it names
    "engine": {"specfile", "ops", "emitters", "toolchain", "ane", "artifacts", "targets"},
    "targets": {"specfile", "ops", "emitters", "toolchain", "ane", "artifacts", "runner"},
    "runner": {"artifacts", "ops", "ane", "targets"},  # and no emitter: what both need lives in ops or the foundation
    # the entry points
    "cli": {"specfile", "ops", "emitters", "toolchain", "ane", "engine", "artifacts", "runner", "targets"},
    "tasks": {"engine"},
    "": {"runner"},  # npubuild/__init__.py: load()
}


def package_modules() -> dict[str, tuple[Path, bool]]:
    """dotted module name -> (file, is a package)."""
    mods = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        mods[".".join(parts)] = (path, is_pkg)
    return mods


MODULES = package_modules()


def _imported_names(module: str, is_pkg: bool, tree: ast.AST):
    """(line, module name, whether names are read from that module itself)."""
    package = module if is_pkg else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, True
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from . import device` reads a name the package's __init__ defines; `from . import
            # submodule` only needs the package to be importing
            yield node.lineno, target, any(f"{target}.{a.name}" not in MODULES for a in node.names)
            for alias in node.names:  # `from pkg import submodule`
                yield node.lineno, f"{target}.{alias.name}", True


def imports_of(module: str) -> dict[str, int]:
    """npubuild modules ``module`` imports -> a line that does. Importing a.b.c
    also runs the packages a and a.b, which count except the ones ``module`` is
    inside (they are already being imported when it runs). A name read from an
    enclosing package does count: that package's __init__ must have run to its
    definition, a cycle when the __init__ imports ``module`` on its way."""
    path, is_pkg = MODULES[module]
    tree = ast.parse(path.read_text(), filename=str(path))
    out: dict[str, int] = {}
    for line, name, reads_names in _imported_names(module, is_pkg, tree):
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            dep = ".".join(parts[:i])
            enclosing = module.startswith(dep + ".") and not (reads_names and dep == name)
            if dep in MODULES and dep != module and not enclosing:
                out.setdefault(dep, line)
    return out


GRAPH = {m: imports_of(m) for m in MODULES}


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle (as a path a -> b -> ... -> a) per strongly connected component."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan; the package is small enough for recursion
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_in(graph, set(c)) for c in components]


def _cycle_in(graph, comp: set[str]) -> list[str]:
    start = min(comp)
    prev = {start: None}
    queue = [start]
    while queue:  # breadth-first back to start inside the component: a shortest cycle
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [*reversed(path), start]
            if w in comp and w not in prev:
                prev[w] = v
                queue.append(w)
    raise AssertionError("a strongly connected component without a cycle")


def stage_of(module: str) -> str:
    parts = module.split(".")[1:]
    if not parts:
        return ""
    if parts[0] == FOUNDATION:
        return "foundation"
    return parts[0]


# modules that load a module by name, and why that can never be an npubuild module
LOADS_BY_NAME = {"npubuild.ops.lazy_numpy": "imports NumPy on first use"}


def test_the_reader_sees_every_import():
    """A module loaded by name (importlib) is an import this test cannot read."""
    hidden = []
    for module, (path, _) in sorted(MODULES.items()):
        text = path.read_text()
        if ("import_module(" in text or "__import__(" in text) and module not in LOADS_BY_NAME:
            hidden.append(module)
    assert not hidden, f"modules importing by name (make the import explicit): {hidden}"


def test_the_import_reader_finds_a_planted_cycle():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert find_cycles(graph) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b": 1}, "b": {}}) == []
    # the reader's own view of a relative import two levels up
    assert "npubuild.core.errors" in GRAPH["npubuild.specfile.load"]
    # a name read from the package a module is in (summary: `from . import body_info, design_for`)
    assert "npubuild.emitters.aie" in GRAPH["npubuild.emitters.aie.summary"]


def test_no_import_cycles():
    cycles = find_cycles(GRAPH)
    shown = "\n".join(
        " -> ".join(f"{m} (line {GRAPH[m][n]})" if n else m for m, n in zip(c, [*c[1:], None])) for c in cycles
    )
    assert not cycles, f"import cycles in npubuild:\n{shown}"


def test_the_runner_imports_no_emitter():
    """The runtime runs what was built; a fact it shares with an emitter lives where both may
    import it (ops, the foundation), so a runtime never loads the code that writes sources."""
    bad = [f"{m} (line {line}) imports {d}" for m, deps in sorted(GRAPH.items()) if stage_of(m) == "runner"
           for d, line in sorted(deps.items()) if stage_of(d) == "emitters"]
    assert not bad, "the runner imports emitters:\n" + "\n".join(bad)


TARGET_PACKAGES = sorted(p.parent.name for p in (PKG / "targets").glob("*/__init__.py"))


def test_a_target_package_is_imported_only_through_the_registry():
    """Outside npubuild/targets/, code reaches a target through npubuild.targets (get, all_targets ...) and
    its interface (targets.base); a target's own modules are its business."""
    inner = tuple(f"npubuild.targets.{t}" for t in TARGET_PACKAGES)
    bad = [f"{m} (line {line}) imports {d}" for m, deps in sorted(GRAPH.items()) if not m.startswith("npubuild.targets")
           for d, line in sorted(deps.items()) if d.startswith(inner)]
    assert TARGET_PACKAGES and not bad, "a target imported around the registry:\n" + "\n".join(bad)


NAME_BRANCH = re.compile(r'(backend|target|name) == "(ref|host|xrt|xdna|ane)"')


def test_nothing_branches_on_target_names_outside_the_targets():
    """What differs between targets is asked of the target (its members), not decided by its name."""
    bad = [f"{path.relative_to(PKG.parent)}:{n}: {line.strip()}" for path in sorted(PKG.rglob("*.py"))
           if "targets" not in path.relative_to(PKG).parts[:1]
           for n, line in enumerate(path.read_text().splitlines(), 1) if NAME_BRANCH.search(line)]
    assert not bad, "branches on a target's name:\n" + "\n".join(bad)


def test_each_stage_imports_only_the_stages_below_it():
    bad = []
    for module, deps in sorted(GRAPH.items()):
        stage = stage_of(module)
        if stage == "foundation":
            allowed = {"foundation"}
        else:
            allowed = {stage, "foundation", *STAGE_DEPS[stage]}
        for dep, line in sorted(deps.items()):
            dep_stage = stage_of(dep)
            inner = dep.partition(".")[2]  # "specfile.milrefs" for npubuild.specfile.milrefs
            # a module allowed by name also allows the packages it is in (their __init__ runs)
            by_name = any(a == inner or a.startswith(inner + ".") or inner.startswith(a + ".") for a in allowed)
            if dep_stage not in allowed and not by_name and dep != "npubuild":
                bad.append(f"{MODULES[module][0].relative_to(PKG.parent)}:{line}: {module} ({stage or 'npubuild'}) imports {dep} ({dep_stage})")
    assert not bad, "imports against the data flow:\n" + "\n".join(bad)


def test_top_level_holds_only_entry_points_and_foundation():
    loose_cli = sorted(p.name for p in PKG.glob("cli_*.py"))
    assert not loose_cli, f"{loose_cli}: a command lives in npubuild/cli/ (one module per command, listed in cli/table.py)"
    top = {p.stem for p in PKG.glob("*.py")}
    assert top == TOP_LEVEL, f"unexpected top-level modules: {sorted(top - TOP_LEVEL)}; missing: {sorted(TOP_LEVEL - top)}"
    stages = {p.name for p in PKG.iterdir() if (p / "__init__.py").is_file()}
    assert stages == set(STAGE_DEPS) - {"tasks", ""} | {FOUNDATION}


@pytest.mark.parametrize("package", sorted(m for m, (_, is_pkg) in MODULES.items() if is_pkg and m != "npubuild"))
def test_each_subpackage_says_what_it_owns(package):
    path = MODULES[package][0]
    doc = ast.get_docstring(ast.parse(path.read_text()))
    assert doc, f"{path.relative_to(PKG.parent)} needs a docstring: what the package owns and what it may import"


def test_no_module_over_the_line_limit():
    long = {str(p.relative_to(PKG.parent)): n for m, (p, _) in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them by concern): {long}"


def test_npubuild_tasks_is_the_build_tasks_for_users_dodo():
    import npubuild.engine.tasks as real
    import npubuild.tasks as legacy

    for name in legacy.__all__:
        assert getattr(legacy, name) is getattr(real, name)
    assert {n for n in dir(real) if n.startswith("task_")} <= set(legacy.__all__)
