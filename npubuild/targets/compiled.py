"""The build half of a compiled target (host, xdna), forwarded to the object of the same name in
:data:`npubuild.build.targets.COMPILED`: the build's task creators still talk to that object, and
both must give the same answers until the build loops over this registry (then the code moves here)."""
from __future__ import annotations

from pathlib import Path


class CompiledBuild:
    """Mixin: ``name`` names the entry of ``COMPILED`` every build method forwards to."""

    name: str

    def built(self):
        from ..build.targets import COMPILED

        return COMPILED[self.name]

    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        # the same answer as build.targets.not_built_reason for a compiled target
        return None if self.built().has_emitter(op) else "not yet emitted"

    def emitter_version(self) -> str:
        return self.built().emitter_version()

    def emit_options(self, config, cache_dir: Path | None = None) -> dict:
        return self.built().emit_options(config, cache_dir)

    def emit(self, instance, options: dict) -> str:
        return self.built().emit(instance, options)

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        return self.built().toolchain_problem(cache_dir)

    def fingerprint(self, cache_dir: Path) -> dict:
        return self.built().fingerprint(cache_dir)

    def flags(self, config=None):
        return self.built().flags(config)

    def compile(self, source_text: str, out_dir: Path, log_path: Path, instance, options: dict, store_root: Path,
                toolchain: dict, **kw) -> None:
        self.built().compile(source_text, out_dir, log_path, instance, options, store_root, toolchain, **kw)
