"""The Core ML model metadata every ``.mlpackage`` npubuild writes carries.

A package's spec holds, in ``description.metadata``, ``author``, ``versionString``, ``license`` and
``shortDescription`` (what coremltools' ``MLModel.author``, ``.version``, ``.license`` and
``.short_description`` read and set), and a ``shortDescription`` for every input, output and state
(``description.input[i]``, ``.output[i]``, ``.state[i]``; a multifunction package's per function in
``description.functions[k]``). npubuild fills every one of them, none empty:

* author, version, license: the graph spec's ``metadata:`` (a YAML graph), else the project's
  ``[tool.npubuild]`` ``ane_author``, ``ane_version``, ``ane_license`` (npubuild.core.config: their defaults
  come from pyproject.toml's ``[project]``);
* the model's description: the spec's ``metadata: description``, else one generated here (:func:`summary`)
  naming the graph or node, its ops, its inputs' and outputs' shapes and dtypes and ``built by npubuild <version>``;
  a node's package always gets the generated one (the node is not the graph);
* an input's, output's or state's description: the spec's ``metadata: inputs: {x: ..}`` / ``outputs: {y: ..}``
  text for it, else ``input x: fp16 [1, 64, 1, 128]`` (:func:`feature_text`, from the package's own feature type).

Every value is a non-empty string of at most :data:`MAX_TEXT` characters (:func:`text_problem`, the one rule
for the spec loader and the configuration). The values are part of an ANE graph's build key
(:func:`key_text`), so changing the author rebuilds the packages.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from ..core.package_meta import DEFAULT_AUTHOR, DEFAULT_LICENSE, DEFAULT_VERSION, MAX_TEXT, text_problem  # noqa: F401

DATA = ("Data", "com.apple.CoreML")  # a package's directory of the spec and weights (ModelPackage's layout)
MODEL_FILE = "model.mlmodel"
_SPEC_DTYPES = {"FLOAT16": "fp16", "FLOAT32": "fp32", "INT32": "int32", "DOUBLE": "fp64"}


def npubuild_version() -> str:
    from ..core.version import __version__

    return __version__


@dataclass(frozen=True)
class PackageMeta:
    """What one graph's packages carry: author, version, license; ``description`` the spec's (None: generated);
    ``features`` the spec's descriptions of inputs and outputs, (name, text) pairs."""

    author: str = DEFAULT_AUTHOR
    version: str = DEFAULT_VERSION
    license: str = DEFAULT_LICENSE
    description: str | None = None
    features: tuple = field(default=())

    @classmethod
    def of(cls, defaults=(), graph=None) -> "PackageMeta":
        """The project's (author, version, license) ``defaults`` (PlanBounds.package_meta), overridden by a YAML
        ``graph``'s ``metadata`` and its texts for inputs and outputs (spec.graph.ResolvedGraph's ``descriptions``)."""
        author, version, license_ = (tuple(defaults) + (DEFAULT_AUTHOR, DEFAULT_VERSION, DEFAULT_LICENSE)[len(defaults):])[:3]
        meta = dict(getattr(graph, "metadata", None) or {})
        feats = tuple(sorted((getattr(graph, "descriptions", None) or {}).items()))
        return cls(meta.get("author", author), meta.get("version", version), meta.get("license", license_),
                   meta.get("description"), feats)

    def renamed(self, names: dict) -> "PackageMeta":
        """The same with the features keyed by their names in the package (coremltools' sanitized names)."""
        return replace(self, features=tuple(sorted((names.get(k, k), v) for k, v in self.features)))

    def node(self) -> "PackageMeta":
        """A node package's: the graph's author, version and license; its own generated description and features."""
        return replace(self, description=None, features=())


def key_text(meta: PackageMeta) -> str:
    """The part of a build key that says what metadata the packages carry."""
    from ..core.canonical import canonical_json

    return canonical_json({"author": meta.author, "version": meta.version, "license": meta.license,
                           "description": meta.description, "features": [list(p) for p in meta.features]})


def _listing(items, limit: int = 8) -> str:
    items = list(items)
    return ", ".join(items[:limit]) + (f", ... ({len(items)} in all)" if len(items) > limit else "")


def _tensor(name: str, shape, dtype: str) -> str:
    return f"{name} {dtype} {list(shape)}"


def summary(what: str, ops: list[str], inputs: list, outputs: list) -> str:
    """A generated description: ``what`` (the graph or node), its ops (each type once, with its count), its inputs
    and outputs [(name, shape, MIL dtype)] and ``built by npubuild <version>``; at most MAX_TEXT characters."""
    counts = Counter(ops)
    op_text = _listing(f"{op}" + (f" x{n}" if n > 1 else "") for op, n in sorted(counts.items())) or "none"
    body = (f"{what}: ops {op_text}; inputs {_listing(_tensor(*t) for t in inputs) or 'none'}; "
            f"outputs {_listing(_tensor(*t) for t in outputs) or 'none'}")
    tail = f"; built by npubuild {npubuild_version()}"
    if len(body) + len(tail) > MAX_TEXT:
        body = body[:MAX_TEXT - len(tail) - 4] + " ..."
    return body + tail


def feature_text(side: str, feat) -> str:
    """``input x: fp16 [1, 64, 1, 128]``: a feature description from its type in the spec."""
    kind = feat.type.WhichOneof("Type")
    arr = feat.type.stateType.arrayType if kind == "stateType" else feat.type.multiArrayType if kind == "multiArrayType" else None
    if arr is None:
        return f"{side} {feat.name}: {kind or 'untyped'}"
    from coremltools.proto.FeatureTypes_pb2 import ArrayFeatureType

    name = ArrayFeatureType.ArrayDataType.Name(arr.dataType)
    return f"{side} {feat.name}: {_SPEC_DTYPES.get(name, name.lower())} {list(arr.shape)}"


def stamp_spec(spec, meta: PackageMeta, description: str) -> None:
    """Write ``meta`` into the Core ML ``spec`` (Model_pb2.Model): author, version, license, ``description``
    (the generated one, used when the spec gives none), and a description of every input, output and state
    of the model and of each of its functions. Raises ValueError naming what would be empty."""
    md = spec.description.metadata
    md.author, md.versionString, md.license = meta.author, meta.version, meta.license
    md.shortDescription = meta.description or description
    given = dict(meta.features)
    holders = [spec.description, *spec.description.functions]
    for holder in holders:
        for side in ("input", "output", "state"):
            for feat in getattr(holder, side):
                feat.shortDescription = given.get(feat.name) or feature_text(side, feat)
    for name, value in (("author", md.author), ("version", md.versionString), ("license", md.license),
                        ("description", md.shortDescription)):
        why = text_problem(value)
        if why:
            raise ValueError(f"the package's {name} {why}")


def stamp_package(pkg, meta: PackageMeta, description: str) -> None:
    """:func:`stamp_spec` on a saved package's ``model.mlmodel`` (rewritten in place; normalise makes it
    deterministic afterwards)."""
    from pathlib import Path

    from coremltools.proto import Model_pb2

    path = Path(pkg).joinpath(*DATA, MODEL_FILE)
    spec = Model_pb2.Model()
    spec.ParseFromString(path.read_bytes())
    stamp_spec(spec, meta, description)
    path.write_bytes(spec.SerializeToString(deterministic=True))


def check_spec(spec, meta: PackageMeta | None, what: str) -> list[str]:
    """Problems of a reloaded package's metadata: an empty value, or one not ``meta``'s."""
    out = []
    md = spec.description.metadata
    have = {"author": md.author, "version": md.versionString, "license": md.license, "description": md.shortDescription}
    for k, v in have.items():
        if not v.strip():
            out.append(f"{what}: the package's {k} is empty")
        elif meta is not None and k != "description" and v != getattr(meta, k):
            out.append(f"{what}: the package's {k} is {v!r}, not {getattr(meta, k)!r}")
    if meta is not None and meta.description and md.shortDescription != meta.description:
        out.append(f"{what}: the package's description is not the spec's")
    for holder in [spec.description, *spec.description.functions]:
        for side in ("input", "output", "state"):
            for feat in getattr(holder, side):
                if not feat.shortDescription.strip():
                    out.append(f"{what}: {side} '{feat.name}' has no description")
    return out
