"""What a validated spec declares: kernel families, graphs and their tensors,
each with the file and line it came from (:mod:`.load` builds them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .instances import KernelInstance
from .yamlnode import Node


@dataclass
class KernelFamily:
    name: str
    file: str
    line: int
    op: str
    dtype: str
    targets: tuple[str, ...]
    instances: list[KernelInstance]
    device: tuple[str, ...] | None = None  # xdna devices, one design each (None: the project's xdna_device)
    xdna_body: str | None = None  # xdna body source (None: the project's xdna_bodies)
    sources: dict = field(default_factory=dict)  # target -> Path of a hand-written source that replaces the emitted one
    lines: list[int] = field(default_factory=list)  # the line of each instance's shapes entry, as instances


@dataclass
class TensorDecl:
    name: str
    shape: tuple[int, ...]
    dtype: str
    line: int


@dataclass
class ConstantDecl(TensorDecl):
    value: object = None  # inline nested list
    file: Path | None = None  # .npy path


@dataclass
class StateDecl(TensorDecl):
    """An ane graph's ``state:`` entry: an iOS18 Core ML state (``state<tensor<fp16, shape>>``) its nodes read
    by its name; ``update`` names the node whose value is written back into it after each run (None: read only)."""
    update: str | None = None
    update_line: int = 0


@dataclass
class NodeDecl:
    name: str
    op: str
    inputs: list[str]
    input_lines: list[int]
    attrs: dict
    attrs_node: Node | None
    dtype: str | None
    line: int


@dataclass
class GraphSpec:
    name: str
    file: str
    line: int
    inputs: dict[str, TensorDecl]
    params: dict[str, TensorDecl]
    constants: dict[str, ConstantDecl]
    nodes: dict[str, NodeDecl]
    outputs: list[str]
    output_lines: list[int]
    targets: tuple[str, ...]
    # declared tensors/nodes that were rejected (already reported): readers of
    # them are skipped rather than reported as reading an unknown tensor
    invalid: set[str] = field(default_factory=set)
    device: tuple[str, ...] | None = None  # xdna devices, one design each (None: the project's xdna_device)
    # author, version, license, description; inputs / outputs: name -> text (what ane's Core ML packages carry)
    metadata: dict = field(default_factory=dict)
    states: dict = field(default_factory=dict)  # name -> StateDecl (ane graphs: iOS18 states)
    seq: tuple | None = None  # the sizes an input dimension written 'seq' takes (ane graphs: EnumeratedShapes)
    seq_dims: dict = field(default_factory=dict)  # input -> the axis its shape names 'seq' (declared at seq[0])
    # an ane graph's compress: {constant: (settings, line)} and layout: (name, line) (npubuild.specfile.ane_storage_keys)
    ane_options: dict = field(default_factory=dict)


@dataclass
class Spec:
    families: dict[str, KernelFamily] = field(default_factory=dict)
    graphs: dict = field(default_factory=dict)  # name -> graph.ResolvedGraph
    models: dict = field(default_factory=dict)  # name -> graph.ModelOfGraphs: ane graphs joined as functions of one model
    files: list[str] = field(default_factory=list)
