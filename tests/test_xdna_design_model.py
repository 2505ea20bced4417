"""The pieces every xdna design kind shares: the host body as data, one FIFO record
rendered in one place, and placement as a strategy object."""
from __future__ import annotations

import pickle
from dataclasses import dataclass

from npubuild.emitters import aie
from npubuild.emitters import host
from npubuild.emitters.aie.devices import device
from npubuild.emitters.aie.fifos import Fifo, Link, stream_lines
from npubuild.emitters.aie.placement import plan_design
from npubuild.emitters.aie.placer import COLUMNS, ColumnPlacer
from npubuild.specfile.instances import make_instance


def test_host_body_is_the_function_the_host_module_holds():
    inst = make_instance("add", "f32", [(64, 256), (64, 256)], {})
    fn = host.kernel_function(inst)
    assert "\n".join(fn.lines("  ")) in host.emit(inst)
    body = fn.renamed("body").lines("    ")
    assert body[0].startswith("    func.func @body(") and body[-1] == "    }"


def test_host_text_pickles_as_plain_text():
    inst = make_instance("relu", "f32", [(1024,)], {})
    text = host.EMITTERS["relu"](inst)
    back = pickle.loads(pickle.dumps(text))
    assert type(back) is str and back == text


def test_one_fifo_record_renders_every_kind():
    fifos = [Fifo("in", (0, 0), ((0, 1),), 2, (512,), "f32"),
             Fifo("in_r0", (0, 1), ((0, 2),), 2, (256,), "f32", ((4, 64), (64, 1))),
             Fifo("in_r1", (0, 1), ((0, 3),), 2, (256,), "f32")]
    lines = stream_lines(fifos, [Link("in", ("in_r0", "in_r1"), (0, 256))])
    assert lines[1] == ("    aie.objectfifo @in_r0(%mem_0_1 dimensionsToStream [<size = 4, stride = 64>, <size = 64, stride = 1>], "
                        "{%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>")
    assert lines[-1] == "    aie.objectfifo.link [@in] -> [@in_r0, @in_r1] ([] [0, 256])"


@dataclass(frozen=True)
class OneColumn(ColumnPlacer):
    """A placer that keeps a design to one column, as another placement strategy would."""

    def shapes(self, n_chunks, dev, row_cap):
        return [cr for cr in super().shapes(n_chunks, dev, row_cap) if cr[0] == 1]


def test_placement_is_a_strategy():
    inst = make_instance("add", "f32", [(64, 1024), (64, 1024)], {})
    dev = device({"device": "npu1"})
    wide = plan_design(inst, dev, placer=COLUMNS)
    narrow = plan_design(inst, dev, placer=OneColumn())
    assert wide.columns > 1 and narrow.columns == 1
    assert {c.tile[0] for c in narrow.cores} == {0}
    assert aie.emit(inst, {"device": "npu1"}).count("aie.core(") == len(wide.cores)
