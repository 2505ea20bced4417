"""mlir-aie's verifier rules (npubuild/emitters/aie/rules.py): one negative test per rule, each a
small module in the form npubuild emits, modelled on the mlir-aie test the rule's table entry names
(written here, same rule), refused with mlir-aie's message; and the rule checker passes every
design npubuild emits (tests/golden, and a fast subset of the sweep in test_aie_rules_sweep.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from npubuild.core.errors import UnsupportedOnTarget
from npubuild.emitters.aie.rules import RULES
from npubuild.emitters.aie.rules_check import check_text, text_problems

GOLDEN = Path(__file__).parent / "golden" / "xdna"

# shim -> mem tile -> distribute to two cores -> join at the mem tile -> shim (as the streamed designs do)
BASE = """module {
  aie.device(npu1_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_0_3 = aie.tile(0, 3)
    aie.objectfifo @x_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @x_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_shim(%mem_0_1, {%shim_0_0}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo.link [@x_shim] -> [@x_r0, @x_r1] ([] [0, 1024])
    aie.objectfifo.link [@y_r0, @y_r1] -> [@y_shim] ([0, 1024] [])
    func.func @body(%in_x: memref<1024xf32>, %out_y: memref<1024xf32>) {
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
        %s0_sv = aie.objectfifo.acquire @x_r0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        %o_sv = aie.objectfifo.acquire @y_r0(Produce, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        func.call @body(%s0, %o) : (memref<1024xf32>, memref<1024xf32>) -> ()
        aie.objectfifo.release @x_r0(Consume, 1)
        aie.objectfifo.release @y_r0(Produce, 1)
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
        %s0_sv = aie.objectfifo.acquire @x_r1(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        %o_sv = aie.objectfifo.acquire @y_r1(Produce, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        func.call @body(%s0, %o) : (memref<1024xf32>, memref<1024xf32>) -> ()
        aie.objectfifo.release @x_r1(Consume, 1)
        aie.objectfifo.release @y_r1(Produce, 1)
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<2048xf32>, %y: memref<2048xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, metadata = @x_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, issue_token = true, metadata = @y_shim} : memref<2048xf32>
      aiex.npu.dma_wait {symbol = @y_shim}
    }
  }
}
"""

X_SHIM = "aie.objectfifo @x_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>"
Y_SHIM = "aie.objectfifo @y_shim(%mem_0_1, {%shim_0_0}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>"
X_R0 = "aie.objectfifo @x_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>"
DIST = "aie.objectfifo.link [@x_shim] -> [@x_r0, @x_r1] ([] [0, 1024])"
JOIN = "aie.objectfifo.link [@y_r0, @y_r1] -> [@y_shim] ([0, 1024] [])"
X_DMA = "aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, metadata = @x_shim}"


Y_R0 = "aie.objectfifo @y_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>"


def _padded(line: str, dims: str, pads) -> str:
    """A FIFO line given ``dimensionsToStream`` (none when ``dims`` is empty) and ``padDimensions``."""
    if dims:
        line = line.replace("%mem_0_1,", f"%mem_0_1 dimensionsToStream {dims},", 1)
    arr = ", ".join(f"<const_pad_before = {b}, const_pad_after = {a}>" for b, a in pads)
    return line.replace("2 : i32) :", f"2 : i32) {{padDimensions = #aie<bd_pad_layout_array[{arr}]>}} :", 1)


def _dma(offsets, sizes, strides, bd=1, arg="x", ty="f32", n=2048):
    """A dma_memcpy_nd of %x (BASE's input) with another pattern (and, for the element-width cases, type)."""
    return (f"aiex.npu.dma_memcpy_nd(%{arg}[{', '.join(map(str, offsets))}][{', '.join(map(str, sizes))}]"
            f"[{', '.join(map(str, strides))}]) {{id = {bd} : i64, metadata = @x_shim}}")


# rule id -> (the mlir-aie test it is modelled on, [(old text, new text)], the message to find)
CASES = {
    "fifo-depths": ("per-endpoint depths (ObjectFifoCreateOp::verify)", [(X_R0, X_R0.replace("2 : i32", "[2, 2, 2] : i32"))],
                    "does not have enough depths specified for producer and for each consumer."),
    "fifo-element-type": ("objectfifo type parser", [(X_R0, X_R0.replace("memref<1024xf32>", "tensor<1024xf32>"))],
                          "element type for an objectFifo must be a MemRefType, got: tensor<1024xf32>"),
    "fifo-static-shape": ("objectfifo type parser", [(X_R0, X_R0.replace("memref<1024xf32>", "memref<?xf32>"))],
                          "type should be static shaped memref, but got memref<?xf32>"),
    "fifo-shim-to-stream": ("module @objectfifo_invalid_shim_dims",
                            [(X_SHIM, X_SHIM.replace("%shim_0_0,", "%shim_0_0 dimensionsToStream [<size = 1, stride = 1>, <size = 1, stride = 1>],"))],
                            "`dimensionsToStream` data layout transformations are not supported on shim tile producers"),
    "fifo-shim-from-stream": ("module @objectfifo_invalid_shim_dims",
                              [(Y_SHIM, Y_SHIM.replace("{%shim_0_0}", "{%shim_0_0 dimensionsFromStream [<size = 1, stride = 1>]}"))],
                              "not supported on shim tile consumers"),
    "bd-max-dims": ("nd-dma-too-many-dims-1.mlir: 4 dims on a core tile's BD",
                    [(X_R0, X_R0.replace("{%core_0_2}", "{%core_0_2 dimensionsFromStream [<size = 2, stride = 32>, <size = 2, stride = 16>, <size = 2, stride = 8>, <size = 8, stride = 1>]}"))],
                    "Cannot give more than 3 dimensions for step sizes and wraps in this  tile (got 4 dimensions)."),
    "bd-step-positive": ("bd_verify_size_stride_bounds.mlir",
                         [(X_R0, X_R0.replace("%mem_0_1,", "%mem_0_1 dimensionsToStream [<size = 8, stride = 0>, <size = 128, stride = 1>],"))],
                         "Invalid step size; must be a positive integer."),
    "bd-step-memref": ("bd_verify_size_stride_bounds.mlir",
                       [(X_R0, X_R0.replace("%mem_0_1,", "%mem_0_1 dimensionsToStream [<size = 1, stride = 4096>, <size = 1024, stride = 1>],"))],
                       "Step size 4096 exceeds memref size 2048"),
    "bd-size-max": ("bd_verify_size_stride_bounds.mlir",
                    [(X_R0, X_R0.replace("%mem_0_1,", "%mem_0_1 dimensionsToStream [<size = 1024, stride = 1>],"))],
                    "Size may not exceed 1023."),
    "bd-stride-max": ("bd_verify_size_stride_bounds.mlir",
                      [(X_SHIM, X_SHIM.replace("2048xf32", "1048576xf32")), (X_DMA, X_DMA),
                       (X_R0, X_R0.replace("%mem_0_1,", "%mem_0_1 dimensionsToStream [<size = 2, stride = 524288>, <size = 8, stride = 1>],"))],
                      "Stride may not exceed 1048576"),
    "bd-out-of-bounds": ("bd_verify_transfer_in_bounds.mlir",
                         [(X_R0, X_R0.replace("%mem_0_1,", "%mem_0_1 dimensionsToStream [<size = 3, stride = 1024>, <size = 8, stride = 1>],"))],
                         "Specified stride(s) and size(s) result in out of bounds access in buffer, for index 2055 in memref of length 2048."),
    "bd-sub32-inner-stride": ("bd_verify_sub32bit_granularity.mlir",
                              [("memref<1024xf32>>\n    aie.objectfifo @x_r1", "memref<1024xf32>>\n    aie.objectfifo @x_r1"),
                               (X_R0, X_R0.replace("%mem_0_1,", "%mem_0_1 dimensionsToStream [<size = 512, stride = 2>],").replace("1024xf32", "1024xbf16"))],
                              "For <32b width datatypes, inner-most dim stride must be 1"),
    "bd-length-4-bytes": ("bad_bd_assignments.mlir: a BD length that is no whole number of 32-bit words",
                          [(X_R0, X_R0.replace("1024xf32", "1023xi8"))],
                          "transfer length must be multiple of 4 (i.e., represent 4 byte aligned address)"),
    "bd-pad-needs-dims": ("DMABDOp::verify: padding without dimensions",
                          [(X_R0, _padded(X_R0, "", [(0, 0)]))],
                          "Padding requires n-d data layouts expressed as wrap(s) and stride(s)."),
    "bd-pad-memtile": ("bad-13.mlir: padding on a compute tile's BD",
                       [(Y_R0, _padded(Y_R0, "[<size = 1024, stride = 1>]", [(0, 0)]).replace("%core_0_2,", "%core_0_2 dimensionsToStream [<size = 1024, stride = 1>],"))],
                       "Padding is only supported by memtile dma bds."),
    "bd-pad-dims-count": ("bad-15.mlir: one padding for three dimensions",
                          [(X_R0, _padded(X_R0, "[<size = 8, stride = 128>, <size = 128, stride = 1>]", [(0, 0)]))],
                          "Mismatch number of dimensions between padding(s) and wrap(s) and stride(s)."),
    "bd-pad-exceeds-len": ("nd-dma-pad-exceeds-len.mlir: the padded volume beyond the BD's len",
                           [(X_R0, _padded(X_R0, "[<size = 2, stride = 512>, <size = 512, stride = 1>]", [(1, 0), (0, 0)]))],
                           "Data exceeds len after padding."),
    "bd-pad-inner-before": ("nd-dma-bad-pad.mlir: 1 bf16 of padding before is half a 32-bit word",
                            [(X_R0, _padded(X_R0, "[<size = 1021, stride = 1>]", [(1, 2)]).replace("1024xf32", "1024xbf16"))],
                            "Inner-most padding-before count must result in padding in 32-bit words."),
    "bd-pad-inner-after": ("nd-dma-bad-pad.mlir's padding-after twin",
                           [(X_R0, _padded(X_R0, "[<size = 1021, stride = 1>]", [(2, 1)]).replace("1024xf32", "1024xbf16"))],
                           "Inner-most padding-after count must result in padding in 32-bit words."),
    "bd-pad-field": ("the mem-tile BD's 4-bit d2 zero-after field: 16 does not fit",
                     [(X_R0, _padded(X_R0, "[<size = 1, stride = 1024>, <size = 1, stride = 8>, <size = 8, stride = 1>]",
                                     [(0, 16), (0, 0), (0, 0)]))],
                     "a padding of 16 on BD dimension d2 does not fit its 4-bit zero-after field"),
    "link-join-and-distribute": ("objectfifo_bad_link.mlir, 1st case",
                                 [(JOIN, "aie.objectfifo.link [@y_r0, @y_r1] -> [@x_r0, @x_r1] ([0, 1024] [0, 1024])")],
                                 "ObjectFifoLinkOp does not support 'join' and 'distribute' at the same time"),
    "link-one-link": ("objectfifo_bad_link.mlir", [(JOIN, JOIN + "\n    aie.objectfifo.link [@x_r0] -> [@y_r0] ([] [])")],
                      "objectfifo cannot be in more than one ObjectFifoLinkOp"),
    "link-point": ("objectfifo_bad_link.mlir, 2nd case: no shared tile",
                   [(X_R0, X_R0.replace("(%mem_0_1,", "(%core_0_3,"))],
                   "ObjectFifoLinkOp must have a link point, i.e., a shared tile between objectFifos"),
    "link-shim": ("objectfifo_bad_link.mlir, 5th case: a join at a shim tile",
                  [("@y_r0(%core_0_2, {%mem_0_1}", "@y_r0(%core_0_2, {%shim_0_0}"), ("@y_r1(%core_0_3, {%mem_0_1}", "@y_r1(%core_0_3, {%shim_0_0}"),
                   (Y_SHIM, Y_SHIM.replace("(%mem_0_1, {%shim_0_0}", "(%shim_0_0, {%mem_0_1}"))],
                  "ObjectFifoLinkOp join and distribute are unavailable on shim tiles"),
    "link-memtile": ("objectfifo_bad_link.mlir (2025 versions): a join at a core tile",
                     [("@y_r1(%core_0_3, {%mem_0_1}", "@y_r1(%core_0_3, {%core_0_2}"), ("@y_r0(%core_0_2, {%mem_0_1}", "@y_r0(%core_0_3, {%core_0_2}"),
                      (Y_SHIM, Y_SHIM.replace("(%mem_0_1,", "(%core_0_2,"))],
                     "ObjectFifoLinkOp join and distribute are unavailable on compute or shim tiles"),
    "link-src-offsets": ("objectfifo_bad_link.mlir", [(JOIN, JOIN.replace("([0, 1024] [])", "([0] [])"))],
                         "number of provided src offsets must be equal to the number of input objectFifos"),
    "link-join-dst-offsets": ("objectfifo_bad_link.mlir", [(JOIN, JOIN.replace("([0, 1024] [])", "([0, 1024] [0, 1024])"))],
                              "dst offsets should be empty for join"),
    "link-dst-offsets": ("objectfifo_bad_link.mlir", [(DIST, DIST.replace("([] [0, 1024])", "([] [0])"))],
                         "number of provided dst offsets must be equal to the number of output objectFifos"),
    "link-distribute-src-offsets": ("objectfifo_bad_link.mlir", [(DIST, DIST.replace("([] [0, 1024])", "([0, 1024] [0, 1024])"))],
                                    "src offsets should be empty for distribute"),
    "link-plain-offsets": ("objectfifo_bad_link.mlir",
                           [(DIST, "aie.objectfifo.link [@x_shim] -> [@x_r0] ([0] [0])\n    aie.objectfifo.link [@y_shim] -> [@x_r1] ([] [])")],
                           "all offsets should be empty if there is no join or distribute"),
    "link-join-bounds": ("objectfifo_bad_link.mlir: an output pattern reaching index 23 over join inputs of 12",
                         [("1024xf32", "12xf32"), ("2048xf32", "24xf32"), ("[0, 1024]", "[0, 12]"), ("1, 1, 1, 2048", "1, 1, 1, 24"),
                          (Y_SHIM.replace("2048", "24"), Y_SHIM.replace("2048", "24").replace("(%mem_0_1,", "(%mem_0_1 dimensionsToStream [<size = 8, stride = 1>, <size = 3, stride = 8>],"))],
                         "specified output stride(s) and size(s) result in out of bounds access in join input, for index 23 in transfer of length 12."),
    "link-distribute-bounds": ("objectfifo_bad_link.mlir: an input pattern reaching index 503 over a distribute output of 56",
                               [("@x_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>",
                                 "@x_shim(%shim_0_0, {%mem_0_1 dimensionsFromStream [<size = 32, stride = 16>, <size = 8, stride = 1>]}, 2 : i32) : !aie.objectfifo<memref<256xf32>>"),
                                ("@x_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>", "@x_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<200xf32>>"),
                                ("@x_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>", "@x_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<56xf32>>"),
                                (DIST, DIST.replace("[0, 1024]", "[0, 200]"))],
                               "specified input stride(s) and size(s) result in out of bounds access in distribute output, for index 503 in transfer of length 56."),
    "link-transfer-length": ("link_test_join_offsets.mlir's lowering, with the offsets swapped",
                             [(JOIN, JOIN.replace("[0, 1024]", "[1024, 0]"))],
                             "the mem tile's buffer descriptor for @y_r0 moves -1024 elements"),
    "access-in-core": ("objectFifo-stateful-transform bad cases: an acquire outside any core",
                       [("    aie.runtime_sequence", "    %stray = aie.objectfifo.acquire @x_r0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>\n    aie.runtime_sequence")],
                       "must be called from inside a CoreOp"),
    "access-fifo": ("objectFifo-stateful-transform bad cases", [("aie.objectfifo.release @x_r1(Consume, 1)", "aie.objectfifo.release @nowhere(Consume, 1)")],
                    "cannot retrieve associated object FIFO"),
    "access-producer-tile": ("objectFifo-stateful-transform bad cases", [("acquire @y_r1(Produce, 1)", "acquire @y_r0(Produce, 1)")],
                             "producer port of objectFifo accessed by core running on non-producer tile"),
    "access-consumer-tile": ("objectFifo-stateful-transform bad cases", [("release @x_r1(Consume, 1)", "release @x_r0(Consume, 1)")],
                             "consumer port of objectFifo accessed by core running on non-consumer tile"),
    "acquire-depth": ("objectFifo-stateful-transform bad cases: acquiring more than the depth",
                      [("%s0_sv = aie.objectfifo.acquire @x_r0(Consume, 1)", "%s0_sv = aie.objectfifo.acquire @x_r0(Consume, 3)")],
                      "acquires 3 objects from an objectFifo that holds 2"),
    "subview-index": ("objectFifo-stateful-transform bad cases", [("%s0_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>\n        %o_sv = aie.objectfifo.acquire @y_r0",
                                                                   "%s0_sv[1] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>\n        %o_sv = aie.objectfifo.acquire @y_r0")],
                      "accessed farther than number of acquired elements (index out of bounds)."),
    "bd-count": ("badmem_toomanybds.mlir: a core tile's 16 BDs", [(X_R0, X_R0.replace("2 : i32", "15 : i32"))],
                 "'aie.mem' op has more than 16 blocks"),
    "lock-count": ("badlock2.mlir (a lock id past the tile's count): the mem tile's 64 locks",
                   [(DIST, "aie.objectfifo.link [@x_shim] -> [" + ", ".join(["@x_r0", "@x_r1"] + [f"@d{i}" for i in range(31)]) + "] ([] [" + ", ".join(str(64 * i) for i in range(33)) + "])"),
                    (X_SHIM, X_SHIM + "".join(f"\n    aie.objectfifo @d{i}(%mem_0_1, {{%core_0_2}}, 1 : i32) : !aie.objectfifo<memref<64xf32>>" for i in range(31))),
                    ("1024xf32>>\n    aie.objectfifo @x_r1", "64xf32>>\n    aie.objectfifo @x_r1"), ("@x_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>", "@x_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<64xf32>>")],
                   "'aie.lock' op lock assigned invalid id (maximum is 63)"),
    "shim-bd-id": ("badshim_toomanybds.mlir: a shim BD id past 15", [(X_DMA, X_DMA.replace("id = 1 :", "id = 16 :"))],
                   "bdId attribute exceeds max: 15"),
    "core-stack": ("bad_stack_size.mlir", [("{stack_size = 1024 : i32}\n    %run_0_3", "{stack_size = 65536 : i32}\n    %run_0_3")],
                   "stack_size 65536 leaves no local memory for this tile's buffers (65536 bytes total)"),
    "stack-alignment": ("bad_stack_alignment.mlir: 32 B on npu1", [("{stack_size = 1024 : i32}\n    %run_0_3", "{stack_size = 1040 : i32}\n    %run_0_3")],
                        "stack_address must be aligned to 32 bytes for this target's stack ABI"),
    "vector-alignment": ("vector_alignment.mlir: a 64 B buffer right after a 144 B one, unpadded",
                         [("      return\n", "      %v = vector.transfer_read %in_x[%c0], %pad : memref<1024xf32>, vector<16xf32>\n      return\n"),
                          ("    %run_0_2 = aie.core", "    %wide = aie.buffer(%core_0_2) {sym_name = \"wide\"} : memref<72xbf16>\n"
                                                    "    %vec = aie.buffer(%core_0_2) {sym_name = \"vec\"} : memref<32xbf16>\n    %run_0_2 = aie.core")],
                         "a 64-byte vector body needs a local 32xbf16 buffer (64 bytes) 32-byte aligned; this layout puts it at 17552"),
    "tile-memory": ("basic_alloc_error.mlir: more buffers than the core's 64 KiB",
                    [("    %run_0_2 = aie.core", "    %big = aie.buffer(%core_0_2) {sym_name = \"big\"} : memref<13000xf32>\n    %run_0_2 = aie.core")],
                    "'aie.tile' op allocated buffers exceeded available memory: Sequential (65536 bytes)"),
    "npu-element-width": ("bad_dma_to_npu_datatype.mlir: i64", [("%x: memref<2048xf32>", "%x: memref<2048xi64>")],
                          "Maximum element bit width allowed is 32bits."),
    "npu-min-size": ("AIEX dma_memcpy_nd verifier", [("%x: memref<2048xf32>", "%x: memref<1xi8>")],
                     "Minimum data transfer size required is 32bits."),
    "npu-offset": ("AIEX dma_memcpy_nd verifier", [("%x: memref<2048xf32>", "%x: memref<2048xi8>"), (X_DMA, _dma([0, 0, 0, 2], [1, 1, 1, 2044], [0, 0, 0, 1]))],
                   "Offset must be 4-byte-aligned."),
    "npu-size-positive": ("verifyStridesWraps", [(X_DMA, _dma([0, 0, 0, 0], [1, 0, 1, 2048], [0, 0, 0, 1]))], "Size 2 must be a positive integer."),
    "npu-size-granule": ("verifyStridesWraps", [("%x: memref<2048xf32>", "%x: memref<2048xi8>"), (X_DMA, _dma([0, 0, 0, 0], [1, 1, 2, 1023], [0, 0, 1024, 1]))],
                         "Transfer sizes must be multiples of 4 bytes. 1023 elements at 1 bytes each equal 1023 bytes, which is not divisible by 4."),
    "npu-stride-positive": ("verifyStridesWraps", [(X_DMA, _dma([0, 0, 0, 0], [1, 1, 2, 1024], [0, 0, 0, 1]))], "Stride 1 must be a positive integer."),
    "npu-stride-granule": ("verifyStridesWraps", [("%x: memref<2048xf32>", "%x: memref<2048xi8>"), (X_DMA, _dma([0, 0, 0, 0], [1, 1, 2, 1024], [0, 0, 1022, 1]))],
                           "Stride 1 is 1022 elements * 1 bytes = 1022 bytes, which is not divisible by 4."),
    "npu-wrap": ("verifyStridesWraps: a 10-bit wrap", [(X_DMA, _dma([0, 0, 0, 0], [1, 1, 2, 1024], [0, 0, 1024, 1]))], "Size 0 exceeds the [0:1023] range."),
    "npu-repeat": ("verifyStridesWraps: 6-bit iteration", [(X_DMA, _dma([0, 0, 0, 0], [66, 1, 1, 31], [31, 0, 0, 1]))], "Size 3 exceeds the [1:64] range."),
    "npu-stride-max": ("verifyStridesWraps: a 20-bit step", [("%x: memref<2048xf32>", "%x: memref<4194304xf32>"), (X_DMA, _dma([0, 0, 0, 0], [1, 1, 2, 1024], [0, 0, 2000000, 1]))],
                       "Stride 1 exceeds the [1:1048576] range."),
    "npu-wait-symbol": ("AIEX dma_wait verifier", [("aiex.npu.dma_wait {symbol = @y_shim}", "aiex.npu.dma_wait {symbol = @y}")],
                        "couldn't find symbol in parent device"),
}


def _mutated(edits) -> str:
    text = BASE
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_the_base_module_passes():
    assert text_problems(BASE) == []


def test_every_rule_has_a_negative_test():
    assert set(CASES) == set(RULES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_negative(rule):
    modelled_on, edits, message = CASES[rule]
    assert modelled_on and RULES[rule].test
    problems = text_problems(_mutated(edits))
    mine = [p for p in problems if p.startswith(f"[{rule}] ")]
    assert mine, (rule, problems)
    assert any(message.strip() in p and RULES[rule].function in p for p in mine), (message, mine)


def test_a_violation_is_an_emit_error_naming_the_rule():
    with pytest.raises(UnsupportedOnTarget, match=r"^k: the emitted aie.mlir breaks mlir-aie's rules: \[link-join-bounds\]"):
        check_text("k", _mutated(CASES["link-join-bounds"][1]))


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.mlir")), ids=lambda p: p.stem)
def test_golden_designs_pass(path):
    assert text_problems(path.read_text()) == []
