"""The build plan: every kernel instance of the specs (deduplicated by content
key), the targets each must be built for, and the resolved graphs."""
from __future__ import annotations

import dataclasses
import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path

from ..core.canonical import canonical_json
from ..core.config import Config
from ..core.constants import XDNA_DEVICES
from ..core.errors import UserError
from ..specfile.files import plan_key, stat_stamp
from ..specfile.instances import KernelInstance
from ..specfile.load import Spec, load_specs
from ..specfile.yamlfile import SPEC_CACHE


@dataclass
class Plan:
    config: Config
    spec: Spec
    instances: dict[str, KernelInstance]  # id -> instance
    targets: dict[str, tuple[str, ...]]  # id -> targets, in the registry's order
    graph_kernels: dict[str, list[str]]  # graph -> kernel id per step
    cache_key: str = ""  # digest of everything the plan was made from (see build_plan)
    devices: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # id -> xdna devices, for xdna kernels
    ane_graphs: dict[str, tuple[str, str]] = dataclasses.field(default_factory=dict)  # name -> (.mil or .yaml path, display path)
    # the YAML graphs among ane_graphs (targets [ane]): name -> spec.graph.ResolvedGraph, built by npubuild.ane.from_graph
    ane_yaml: dict = dataclasses.field(default_factory=dict)
    bodies: dict[str, str] = dataclasses.field(default_factory=dict)  # id -> xdna body source a family chose
    # id -> target -> (absolute path, path as the spec wrote it relative to the project) of a pinned source
    pinned: dict[str, dict[str, tuple[str, str]]] = dataclasses.field(default_factory=dict)

    def xdna_devices(self, kernel_id: str) -> tuple[str, ...]:
        """The devices the kernel gets an xdna design for (what its asks named, else the project's xdna_device)."""
        return self.devices.get(kernel_id) or (self.config.xdna_device,)

    def body(self, kernel_id: str) -> str:
        """Where the kernel's xdna compute body comes from (its family's xdna_body, else the project's xdna_bodies)."""
        return self.bodies.get(kernel_id, self.config.xdna_bodies)

    def xdna_options(self, kernel_id: str, device: str | None = None) -> dict:
        """What the kernel's xdna design for ``device`` (its first device by default) depends on beyond the
        instance and the mlir-aie dialect: its device, its body source, and for a bf16 matmul the project's
        ``xdna_bf16_mmul`` when it is not the default (so that every other kernel keeps the keys it had)."""
        opts = {"device": device or self.xdna_devices(kernel_id)[0], "body": self.body(kernel_id)}
        inst = self.instances.get(kernel_id)
        if self.config.xdna_bf16_mmul != "native" and inst is not None and inst.op == "matmul" and inst.dtype == "bf16":
            opts["bf16_mmul"] = self.config.xdna_bf16_mmul
        return opts

    def fingerprint(self) -> str:
        """Hash of everything the manifest records about the plan (not the build outputs)."""
        doc = {
            "kernels": {i: [inst.key, list(self.targets[i]), _devices_doc(self.devices.get(i)), self.bodies.get(i),
                            {t: p[1] for t, p in sorted(self.pinned.get(i, {}).items())}]
                        for i, inst in sorted(self.instances.items())},
            "graphs": {name: graph_record(g, self.graph_kernels[name]) for name, g in sorted(self.spec.graphs.items())},
        }
        return hashlib.sha256(canonical_json(doc).encode()).hexdigest()


def graph_record(g, kernel_ids: list[str]) -> dict:
    """The manifest's description of a graph (constant files are added by the manifest writer)."""
    return {
        "file": g.file,
        "inputs": {k: v.to_json() for k, v in g.inputs.items()},
        "params": {k: v.to_json() for k, v in g.params.items()},
        "constants": {k: {"shape": list(c.shape), "dtype": c.dtype} for k, c in g.constants.items()},
        "outputs": list(g.outputs),
        "targets": list(g.targets),
        "steps": [
            # op and instance key: which kernel the step was built with, so that verify notices another id put in
            {"node": s.node, "op": s.instance.op, "kernel": kid, "key": s.instance.key, "inputs": list(s.inputs), "outputs": [s.output]}
            for s, kid in zip(g.steps, kernel_ids)
        ],
    }


PLAN_CACHE = ".npubuild.plan.pickle"


def build_plan(config: Config) -> Plan:
    """The plan of ``config``'s specs, reused from the last run when nothing it
    depends on changed (spec bytes, npubuild's code, the config, .npy constants).

    The cache is a pickle kept next to doit's database, not in the (shareable)
    store, and sealed with this machine's cache secret (npubuild.core.cache_auth): a
    pickle runs code when it is loaded, so one that does not carry this user's
    tag — edited, or copied in with a project — is never unpickled, and the
    plan is made again. What a cached plan says about pinned sources is checked
    again on every build (npubuild.engine.pinned.pinned_option), so a file that
    became a link out of the project since is refused either way.
    """
    from ..core.cache_auth import seal, unseal
    from ..core.fsio import atomic_write_bytes, read_regular

    cache = config.root / PLAN_CACHE
    key = plan_key(config)
    try:
        payload = unseal(read_regular(cache, _MAX_PLAN_CACHE))
        if payload is not None:
            cached = pickle.loads(payload)
            if cached["key"] == key and cached["extra"] == stat_stamp(p for p, *_ in cached["extra"]):
                return cached["plan"]
    except (OSError, ValueError, pickle.UnpicklingError, EOFError, KeyError, TypeError, AttributeError, ImportError):
        pass
    plan = _build_plan(config)
    plan.cache_key = key
    npy = sorted({c.file for g in plan.spec.graphs.values() for c in g.constants.values() if c.file})
    sealed = seal(pickle.dumps({"key": key, "extra": stat_stamp(npy), "plan": plan}, protocol=pickle.HIGHEST_PROTOCOL))
    try:
        if sealed is not None:  # no cache secret: nothing is cached
            atomic_write_bytes(cache, sealed)
    except OSError:
        pass  # an optimisation only
    return plan


_MAX_PLAN_CACHE = 1 << 30  # a plan of specs within the limits is far smaller; read bounded all the same


def restriction_checks() -> dict:
    """target -> (op, input shapes, attrs, dtype) -> the texts of the target's restrictions that combination
    fails, in order: the spec loader reports each at the spec line (a user error). That a target has no
    emitter for an op is not one of them: it is a note (npubuild.engine.targets.not_built_reason)."""
    from ..targets import all_targets

    def failed_on(target):
        def failed(op: str, shapes, attrs: dict, dtype: str) -> list[str]:
            return [r.text for r in target.restrictions(op) if not r.check(shapes, attrs, dtype)]

        return failed

    return {t.name: failed_on(t) for t in all_targets()}


def _build_plan(config: Config) -> Plan:
    from ..ane.from_graph import graph_problems
    from ..core.target_names import known_targets
    from .targets import design_checks

    asks: list[_Wanted] = []  # what the spec check found: the plan is made from it

    def check_asks(partial) -> list:
        asks.append(_wanted(partial, config))
        return asks[-1].problems

    spec = load_specs(
        config.specs,
        config.root,
        config.targets,
        cache_dir=config.root / SPEC_CACHE,  # per project, never in the shipped artifact folder
        xdna_device=config.xdna_device,
        design_checks=design_checks(),
        restriction_checks=restriction_checks(),
        limits=config.limits,
        data_roots=config.data_roots(),
        graph_checks={"ane": graph_problems},
        spec_checks=check_asks,
    )
    # a YAML graph that targets ane is one ANE plan (npubuild.ane.from_graph), not a chain of kernels:
    # it has no kernel instances and no chain record in the manifest
    ane_yaml = {n: g for n, g in spec.graphs.items() if "ane" in g.targets}
    spec.graphs = {n: g for n, g in spec.graphs.items() if n not in ane_yaml}
    # the graphs a model joins are its functions, built in its package, not alone (docs/ane.md, "Models of YAML graphs")
    members = {f for m in spec.models.values() for f in m.functions}
    ane_yaml = {**{n: g for n, g in ane_yaml.items() if n not in members}, **spec.models}
    wanted = asks[-1]
    by_key, device_of, body_of, pinned_of = wanted.by_key, wanted.device, wanted.body, wanted.pinned
    # Readable ids can collide for different content (e.g. float attrs that print
    # alike); such instances get a key suffix so every id names one instance.
    ids: dict[str, list[str]] = {}
    for key, inst in by_key.items():
        ids.setdefault(inst.id, []).append(key)
    final: dict[str, KernelInstance] = {}
    key_to_id: dict[str, str] = {}
    for rid, keys in ids.items():
        for key in keys:
            inst = by_key[key]
            if len(keys) > 1:
                inst = dataclasses.replace(inst, id=f"{rid}_{key[:8]}")
            final[inst.id] = inst
            key_to_id[key] = inst.id
    targets = {key_to_id[k]: tuple(t for t in known_targets() if t in ts) for k, ts in wanted.targets.items()}
    graph_kernels = {name: [key_to_id[s.instance.key] for s in g.steps] for name, g in spec.graphs.items()}
    devices = {key_to_id[k]: tuple(d for d in XDNA_DEVICES if d in ds) for k, ds in device_of.items()}
    bodies = {key_to_id[k]: b for k, (b, _) in body_of.items()}
    pinned = {key_to_id[k]: {t: (str(p), _shown(p, config.root)) for t, (p, _) in by_target.items()} for k, by_target in pinned_of.items()}
    return Plan(config, spec, dict(sorted(final.items())), targets, graph_kernels, devices=devices, bodies=bodies, pinned=pinned,
                ane_graphs=_ane_graphs(config, spec, ane_yaml), ane_yaml=ane_yaml)


def _devices_doc(devices: tuple[str, ...] | None):
    """As the plan's fingerprint has recorded one device (a name) since before there could be several."""
    return devices[0] if devices and len(devices) == 1 else (list(devices) if devices else None)


@dataclass
class _Wanted:
    """Every kernel instance the specs ask for (by content key) and what the asks agree on."""

    by_key: dict = dataclasses.field(default_factory=dict)  # key -> KernelInstance
    targets: dict = dataclasses.field(default_factory=dict)  # key -> set of targets
    device: dict = dataclasses.field(default_factory=dict)  # key -> the xdna devices its asks want (a set)
    body: dict = dataclasses.field(default_factory=dict)  # key -> (xdna body source a family chose, which family)
    pinned: dict = dataclasses.field(default_factory=dict)  # key -> target -> (pinned source, which family)
    problems: list = dataclasses.field(default_factory=list)  # Diagnostics: asks that disagree


def _wanted(spec, config: Config) -> _Wanted:
    """What the families and graphs of ``spec`` ask for; two asks for one kernel that disagree (xdna device,
    xdna_body, pinned source) are problems at the second ask's line, reported with the spec's other problems."""
    from ..core.errors import Diagnostic

    w = _Wanted()

    def agree(table: dict, key: str, value, who: str, where: tuple, first, second, fix: str, inst) -> None:
        prev = table.setdefault(key, (value, who))
        if prev[0] != value:
            w.problems.append(Diagnostic(*where, f"kernel {inst.id} is wanted {first(prev[0])} by {prev[1]} and {second(value)} "
                                                 f"by {who}; a kernel has one {fix}"))

    def add(inst, targets, device, who: str, where: tuple, body=None, sources=None) -> None:
        w.by_key.setdefault(inst.key, inst)
        w.targets.setdefault(inst.key, set()).update(targets)
        if "xdna" not in targets:
            return
        # asks for different devices add up: one design per device (a laptop of each generation runs its own)
        w.device.setdefault(inst.key, set()).update(device or (config.xdna_device,))
        if body:
            agree(w.body, inst.key, body, who, where, lambda b: f"on xdna with xdna_body {b}", str,
                  "xdna design: use the same xdna_body for both", inst)

    for fam in spec.families.values():
        who = f"kernel family '{fam.name}' ({fam.file}:{fam.line})"
        for inst in fam.instances:
            add(inst, fam.targets, fam.device, who, (fam.file, fam.line), fam.xdna_body)
            for target, path in fam.sources.items():
                agree(w.pinned.setdefault(inst.key, {}), target, path, who, (fam.file, fam.line),
                      lambda p, t=target: f"on {t} pinned to {_shown(p, config.root)}", lambda p: f"to {_shown(p, config.root)}",
                      "source: pin it in one family", inst)
    for g in spec.graphs.values():
        if "ane" in g.targets:
            continue  # one ANE plan, not kernels (npubuild.ane.from_graph)
        for step in g.steps:
            add(step.instance, g.targets, g.device, f"graph '{g.name}' ({g.file}:{g.line})", (g.file, g.line))
    return w


def _shown(path: Path, root: Path) -> str:
    """``path`` relative to the project when it is inside it (so that records do not depend on where the project is)."""
    try:
        return Path(path).relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _ane_graphs(config: Config, spec, ane_yaml: dict) -> dict:
    """The ane graphs: specs/graphs/*.mil, each named after its file, and the YAML graphs that target ane
    (``ane_yaml``, already checked by the spec loader). Every .mil is read here — its text, blob files and
    MIL types — so that a program that does not read stops the build before any task runs, naming
    file:line; a name both a .mil and a YAML graph take is such an error too. Whether a graph's ops are on
    an ANE route is not asked here: a graph whose plan fails fails its own ``compile:<name>@ane`` task
    (its compile task, npubuild.engine.tasks), and the other graphs and kernels still build."""
    from ..ane.build import load_plan, mil_files
    from ..ane.mil_model import MilBounds
    from ..specfile.load import name_problem

    bounds = MilBounds.of(config)  # BLOBFILEs only from the project and its data_dirs
    out: dict[str, tuple[str, str]] = {}
    for path in mil_files(config.specs):
        try:
            display = path.resolve().relative_to(config.root.resolve()).as_posix()
        except ValueError:
            display = str(path)
        name = path.stem
        problem = name_problem(name, "graph", config.limits)
        if problem is not None:  # the stem becomes artifacts/graphs/<name>/: '..' would write into artifacts/ itself
            raise UserError(f"{display}:1: {problem}; the graph is named after its file: rename the file")
        if name in spec.graphs or name in ane_yaml or name in out:
            where = f"a YAML graph at {(spec.graphs.get(name) or ane_yaml[name]).file}" if name not in out else out[name][1]
            raise UserError(f"{display}: graph '{name}' is already defined ({where}); graph names are unique: rename the file")
        load_plan(path, display, bounds)
        out[name] = (str(path), display)
    for name, g in sorted(ane_yaml.items()):
        out[name] = (str(config.root / g.file), g.file)
    return out
