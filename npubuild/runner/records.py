"""The manifest's kernel and graph records as the runtime reads them: typed, immutable, built once.

``load()`` type-checks every field of ``manifest.json`` (npubuild.artifacts.manifest_schema)
before a :class:`~npubuild.runner.runtime.Runtime` exists, so these are built from a checked
structure and never fail on a missing key or a wrong type. The runtime's own logic (which
kernels a graph runs, which binary a kernel has, the tensors a graph takes) reads these; the
raw dicts stay available as ``raw`` for what reads the manifest's own layout: a target's
``open`` (its kernel classes read the record's ``targets.<name>.abi``, files and so on), the
checkers in npubuild.artifacts, and ``Runtime.manifest`` for callers.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, NamedTuple


class TensorSpec(NamedTuple):
    """A tensor's signature: a kernel's input or output (with its name), or a graph's input or param."""

    name: str | None  # a kernel tensor's name, or the graph input's, param's or constant's
    shape: tuple[int, ...]
    dtype: str

    @classmethod
    def of(cls, t: dict, name: str | None = None) -> "TensorSpec":
        return cls(t.get("name", name), tuple(t["shape"]), t["dtype"])


class ConstantSpec(NamedTuple):
    """A graph constant: its signature and the .npy file holding it (the manifest's file record)."""

    spec: TensorSpec
    file: Mapping  # {"path", "sha256", "size"}: what PinnedFiles reads

    @property
    def shape(self) -> tuple[int, ...]:
        return self.spec.shape

    @property
    def dtype(self) -> str:
        return self.spec.dtype


class TargetBuild(NamedTuple):
    """What the manifest says one target built of a kernel."""

    compiled: bool  # a record without ``compiled`` (ref, a hand-made manifest) counts as built
    files: Mapping  # role -> file record


class KernelRecord(NamedTuple):
    id: str
    op: str
    dtype: str
    key: str
    inputs: tuple[TensorSpec, ...]
    output: TensorSpec  # a kernel has exactly one (the schema checks it)
    targets: Mapping  # target name -> TargetBuild
    raw: Mapping  # the manifest's record with ``id`` added: what a target's open() receives

    @classmethod
    def of(cls, kernel_id: str, k: dict) -> "KernelRecord":
        targets = {name: TargetBuild(t.get("compiled", True), MappingProxyType(dict(t.get("files", {})))) for name, t in k["targets"].items()}
        return cls(
            kernel_id,
            k["op"],
            k["dtype"],
            k["key"],
            tuple(TensorSpec.of(t) for t in k["inputs"]),
            TensorSpec.of(k["outputs"][0]),
            MappingProxyType(targets),
            MappingProxyType(dict(k, id=kernel_id)),
        )

    def built_for(self, target: str) -> bool:
        """Whether the manifest lists a build of this kernel for ``target`` that compiled (any of its variants:
        ``xdna.npu1``, ``xdna.npu2``; the target picks the one for the device it runs on)."""
        return any(t.compiled for label, t in self.targets.items() if label == target or label.partition(".")[0] == target)

    def open_record(self) -> dict:
        """A fresh copy of the manifest's record with ``id``: what ``Target.open`` receives."""
        return dict(self.raw)


class Step(NamedTuple):
    """One step of a kernel graph: kernel ``kernel`` applied to tensors ``inputs``, giving ``output``."""

    index: int
    node: str | None
    kernel: str
    op: str
    inputs: tuple[str, ...]
    output: str  # a step gives exactly one tensor (the schema checks it)

    @classmethod
    def of(cls, index: int, s: dict) -> "Step":
        return cls(index, s.get("node"), s["kernel"], s["op"], tuple(s["inputs"]), s["outputs"][0])


class GraphRecord(NamedTuple):
    """A graph of kernels; an ANE graph (``kind`` "ane", which the schema checks as such) has only its
    name, kind and raw record here: its target reads the rest (npubuild.runner.ane_graph)."""

    name: str
    kind: str | None
    inputs: Mapping  # name -> TensorSpec
    params: Mapping  # name -> TensorSpec
    constants: Mapping  # name -> ConstantSpec
    outputs: tuple[str, ...]
    steps: tuple[Step, ...]
    raw: Mapping  # the manifest's record

    @classmethod
    def of(cls, name: str, g: dict) -> "GraphRecord":
        kind = g.get("kind") or None
        if kind == "ane":  # as npubuild.artifacts.manifest_schema and graph_problems tell the two apart
            return cls(name, kind, MappingProxyType({}), MappingProxyType({}), MappingProxyType({}), (), (), g)

        def specs(d: dict) -> Mapping:
            return MappingProxyType({n: TensorSpec.of(t, n) for n, t in d.items()})

        constants = {n: ConstantSpec(TensorSpec.of(c, n), MappingProxyType(c)) for n, c in g["constants"].items()}
        return cls(
            name,
            kind,
            specs(g["inputs"]),
            specs(g["params"]),
            MappingProxyType(constants),
            tuple(g["outputs"]),
            tuple(Step.of(i, s) for i, s in enumerate(g["steps"])),
            g,
        )

    @property
    def kernel_ids(self) -> list[str]:
        return [s.kernel for s in self.steps]


class Records(NamedTuple):
    """Every kernel and graph record of one manifest."""

    kernels: Mapping  # kernel id -> KernelRecord
    graphs: Mapping  # graph name -> GraphRecord

    @classmethod
    def of(cls, manifest: dict) -> "Records":
        kernels = {k: KernelRecord.of(k, rec) for k, rec in manifest["kernels"].items()}
        graphs = {n: GraphRecord.of(n, g) for n, g in manifest.get("graphs", {}).items()}
        return cls(MappingProxyType(kernels), MappingProxyType(graphs))
