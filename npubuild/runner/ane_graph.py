"""Running an ``ane`` graph from the manifest: :class:`AneGraphRunner`.

The graph's record (``kind: ane``) is turned back into a plan whose programs
load lazily from their artifacts (a program's weights are read from its
``weight.bin`` when the runtime loads it) and executed by
:class:`npubuild.runner.ane.AneRuntime`.
"""
from __future__ import annotations

import copy

from ..artifacts.manifest import safe_path
from ..errors import UserError
from ..ops.lazy_numpy import np


class AneGraphRunner:
    backend = "ane"
    fallback_reason = None

    def __init__(self, rt, name: str, record: dict, resident: int | None):
        from ..ane.programs import plan_from_record
        from ..ane.weightbin import read_blob
        from .ane import AneRuntime

        self.rt, self.name, self.record = rt, name, record

        def read_weights(file_rec, offset, shape):
            return read_blob(safe_path(rt.path, file_rec["path"]), offset, "fp16", shape)

        self.plan = plan_from_record(record, read_weights)

        def load(i: int):
            node = copy.copy(self.plan.nodes[i])
            prog = node.program
            node.weights = {
                k: read_blob(safe_path(rt.path, prog["weights"]["path"]), off, "fp16", prog["shapes"][k]).reshape(prog["shapes"][k])
                for k, off in prog["offsets"].items()
            }
            return node

        self.engine = AneRuntime(self.plan, resident, load)
        self.last_stats: dict | None = None

    def set_params(self, **arrays) -> None:
        if arrays:
            raise UserError(f"graph '{self.name}' is an ANE graph: it has no params; pass its inputs to run() or write_ext()")

    def write_ext(self, name: str, array) -> None:
        self.engine.write_ext(name, np.asarray(array).reshape(-1))

    def reset_state(self) -> None:
        self.engine.reset_state()

    def run(self, **arrays) -> dict:
        """Write the inputs given (others keep their values: state), run every program once."""
        declared = self.record["inputs"]
        for n, a in arrays.items():
            if n not in declared:
                raise UserError(f"graph '{self.name}': unknown input '{n}' (inputs: {', '.join(declared)})")
            a = np.asarray(a)
            want = [d for d in declared[n]["shape"]]
            if list(a.shape) != want and a.size != int(np.prod(want)):
                raise UserError(f"graph '{self.name}': input '{n}' must have shape {want}, got {list(a.shape)}")
            self.write_ext(n, a)
        loads, evictions = len(self.engine.loads), len(self.engine.evictions)
        self.engine.run()
        self.last_stats = {
            "backend": "ane",
            "programs": len(self.plan.programs()),
            "loads": len(self.engine.loads) - loads,
            "evictions": len(self.engine.evictions) - evictions,
            "host_to_device_bytes": 0,
            "device_to_host_bytes": 0,
        }
        shapes = self.record.get("output_shapes", {})
        return {o: self.engine.output(o).reshape(shapes.get(o) or -1) for o in self.record["outputs"]}
