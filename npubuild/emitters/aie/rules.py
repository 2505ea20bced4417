"""mlir-aie's verifier and lowering rules that an emitted ``aie.mlir`` must pass, as a table.

Each :class:`Rule` names the mlir-aie function that enforces it, the message that function
emits (``{...}`` marks the values it prints), and the mlir-aie negative test it follows
(tests/test_aie_rules.py holds one negative test of ours per rule, modelled on that test).
:mod:`.rules_check` applies them to the emitted text; a violation is reported as
``[rule id] message (where; mlir-aie function)``.

Sources, read for this table (Xilinx/mlir-aie, several stored versions from 2025 to the
newest): lib/Dialect/AIE/IR/AIEDialect.cpp (``ObjectFifoCreateOp::verify``,
``ObjectFifoLinkOp::verify``, ``getJoinTransferLengths`` / ``getDistributeTransferLengths``,
``ObjectFifoAcquireOp::verify``, ``ObjectFifoReleaseOp::verify``,
``ObjectFifoSubviewAccessOp::verify``, ``HasValidBDs::verifyTrait``, ``DMABDOp::verify``,
``LockOp::verify``, ``CoreOp::verify``, the objectfifo type parser), lib/Dialect/AIEX/IR/
AIEXDialect.cpp (``NpuDmaMemcpyNdOp::verify``, ``verifyStridesWraps``, ``NpuDmaWaitOp::verify``,
``NpuWriteBdOp::verify``) and lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp
(``createObjectFifoElements``, ``createObjectFifoLocks``, ``createMemTileDMA``).

Where versions in the supported range disagree (docs/toolchain.md, "Verifier rules"), a
design must pass every one of them: the older rule "join and distribute are unavailable on
compute or shim tiles" is kept beside the newest "... on shim tiles", and the join/distribute
bound rules, which only newer versions have, are applied (the newest's).
"""
from __future__ import annotations

from dataclasses import dataclass

AIE = "lib/Dialect/AIE/IR/AIEDialect.cpp"
AIEX = "lib/Dialect/AIEX/IR/AIEXDialect.cpp"
OFT = "lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp"


@dataclass(frozen=True)
class Rule:
    id: str
    function: str  # the mlir-aie function (and file) that enforces it
    message: str  # its message; {name} marks a value it prints
    test: str  # the mlir-aie test (test/...) it is modelled on


_ALL = (
    # ---- ObjectFifoCreateOp: depth, element type, dims per tile kind ----
    Rule("fifo-depths", f"ObjectFifoCreateOp::verify ({AIE})",
         "'aie.objectfifo' op does not have enough depths specified for producer and for each consumer.",
         "test/objectFifo-stateful-transform/ (per-endpoint depth arrays); modelled directly on the verifier"),
    Rule("fifo-element-type", f"objectfifo type parser, aieTypeParser ({AIE})",
         "element type for an objectFifo must be a MemRefType, got: {type}",
         "test/dialect/AIE/ (objectfifo type parsing)"),
    Rule("fifo-static-shape", f"parseObjectFifoInitValues ({AIE})",
         "type should be static shaped memref, but got {type}", "test/dialect/AIE/ (objectfifo type parsing)"),
    Rule("fifo-shim-to-stream", f"ObjectFifoCreateOp::verify ({AIE})",
         "`dimensionsToStream` data layout transformations are not supported on shim tile producers",
         "module @objectfifo_invalid_shim_dims (test/dialect/AIE)"),
    Rule("fifo-shim-from-stream", f"ObjectFifoCreateOp::verify ({AIE}, newest)",
         "`dimensionsFromStreamPerConsumer` data layout transformations are not supported on shim tile consumers",
         "module @objectfifo_invalid_shim_dims (test/dialect/AIE)"),
    Rule("bd-max-dims", f"DMABDOp::verify ({AIE}); AIETargetModel::getBDMaxDims",
         "'aie.dma_bd' op Cannot give more than {max} dimensions for step sizes and wraps in this  tile (got {got} dimensions).",
         "test/dialect/AIE/nd-dma-too-many-dims-1.mlir, bd-max-dims-target-model.mlir"),
    Rule("bd-step-positive", f"DMABDOp::verify ({AIE})", "'aie.dma_bd' op Invalid step size; must be a positive integer.",
         "test/dialect/AIE/bd_verify_size_stride_bounds.mlir"),
    Rule("bd-step-memref", f"DMABDOp::verify ({AIE})", "'aie.dma_bd' op Step size {stride} exceeds memref size {elems}",
         "test/dialect/AIE/bd_verify_size_stride_bounds.mlir"),
    Rule("bd-size-max", f"DMABDOp::verify ({AIE}; refuses a size >= 513 in the versions read)",
         "'aie.dma_bd' op Size may not exceed 1023.", "test/dialect/AIE/bd_verify_size_stride_bounds.mlir"),
    Rule("bd-stride-max", f"DMABDOp::verify ({AIE}; refuses a stride >= 2^19)",
         "'aie.dma_bd' op Stride may not exceed 1048576", "test/dialect/AIE/bd_verify_size_stride_bounds.mlir"),
    Rule("bd-out-of-bounds", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op Specified stride(s) and size(s) result in out of bounds access in buffer, for index {index} "
         "in memref of length {elems}.", "test/dialect/AIE/bd_verify_transfer_in_bounds.mlir"),
    Rule("bd-sub32-inner-stride", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op For <32b width datatypes, inner-most dim stride must be 1",
         "test/dialect/AIE/bd_verify_sub32bit_granularity.mlir"),
    Rule("bd-length-4-bytes", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op transfer length must be multiple of 4 (i.e., represent 4 byte aligned address)",
         "bad_bd_assignments.mlir (its memref<128xi16> BD of length 129)"),
    # ---- padDimensions: the zero padding a mem tile's MM2S buffer descriptor adds ----
    Rule("bd-pad-needs-dims", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op Padding requires n-d data layouts expressed as wrap(s) and stride(s).",
         "modelled directly on the verifier (no negative test in the versions read)"),
    Rule("bd-pad-memtile", f"DMABDOp::verify ({AIE}); createDMA ({OFT}: padDimensions reach mem-tile MM2S BDs only)",
         "'aie.dma_bd' op Padding is only supported by memtile dma bds.",
         "test/bd-chains-and-dma-tasks/dma-tasks-to-npu/bad-13.mlir"),
    Rule("bd-pad-dims-count", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op Mismatch number of dimensions between padding(s) and wrap(s) and stride(s).",
         "test/bd-chains-and-dma-tasks/dma-tasks-to-npu/bad-15.mlir"),
    Rule("bd-pad-exceeds-len", f"DMABDOp::verify ({AIE}; the BD's len is the padded FIFO's object size, createMemTileDMA)",
         "'aie.dma_bd' op Data exceeds len after padding.", "test/dialect/AIE/nd-dma-pad-exceeds-len.mlir"),
    Rule("bd-pad-inner-before", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op Inner-most padding-before count must result in padding in 32-bit words.",
         "test/dialect/AIE/nd-dma-bad-pad.mlir"),
    Rule("bd-pad-inner-after", f"DMABDOp::verify ({AIE})",
         "'aie.dma_bd' op Inner-most padding-after count must result in padding in 32-bit words.",
         "test/dialect/AIE/nd-dma-bad-pad.mlir (its padding-after twin)"),
    Rule("bd-pad-field", "AIERTControl::configureBdInBlock (lib/Targets/AIERT.cpp) -> aie-rt XAie_DmaSetPadding (no range "
         "check); the AIE-ML mem-tile BD's zero-padding fields (aie-rt xaiemlgbl_params.h; XRT aie2_registers.hpp "
         "MemBDReg1-5: d0 6 bits in 32-bit words, d1 5 bits, d2 4 bits, no field for a 4th dimension)",
         "a padding of {count} on BD dimension d{dim} does not fit its {bits}-bit zero-{side} field (the value would be "
         "cut to the field)", "no negative test: the value is masked into the register, not refused"),
    # ---- ObjectFifoLinkOp ----
    Rule("link-join-and-distribute", f"ObjectFifoLinkOp::verify ({AIE})",
         "ObjectFifoLinkOp does not support 'join' and 'distribute' at the same time",
         "test/dialect/AIE/objectfifo_bad_link.mlir (1st case)"),
    Rule("link-one-link", f"ObjectFifoLinkOp::verify ({AIE}, newest)",
         "'aie.objectfifo' op objectfifo cannot be in more than one ObjectFifoLinkOp",
         "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-point", f"ObjectFifoLinkOp::verify, getOptionalSharedTile ({AIE})",
         "ObjectFifoLinkOp must have a link point, i.e., a shared tile between objectFifos",
         "test/dialect/AIE/objectfifo_bad_link.mlir (2nd-4th cases)"),
    Rule("link-shim", f"ObjectFifoLinkOp::verify ({AIE}, newest)",
         "ObjectFifoLinkOp join and distribute are unavailable on shim tiles",
         "test/dialect/AIE/objectfifo_bad_link.mlir (5th-6th cases)"),
    Rule("link-memtile", f"ObjectFifoLinkOp::verify ({AIE}, 2025 versions: join/distribute only at a mem tile)",
         "ObjectFifoLinkOp join and distribute are unavailable on compute or shim tiles",
         "test/dialect/AIE/objectfifo_bad_link.mlir (2025 versions)"),
    Rule("link-src-offsets", f"ObjectFifoLinkOp::verify ({AIE})",
         "'aie.objectfifo.link' op number of provided src offsets must be equal to the number of input objectFifos",
         "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-join-dst-offsets", f"ObjectFifoLinkOp::verify ({AIE})",
         "'aie.objectfifo.link' op dst offsets should be empty for join", "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-dst-offsets", f"ObjectFifoLinkOp::verify ({AIE})",
         "'aie.objectfifo.link' op number of provided dst offsets must be equal to the number of output objectFifos",
         "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-distribute-src-offsets", f"ObjectFifoLinkOp::verify ({AIE})",
         "'aie.objectfifo.link' op src offsets should be empty for distribute", "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-plain-offsets", f"ObjectFifoLinkOp::verify ({AIE})",
         "'aie.objectfifo.link' op all offsets should be empty if there is no join or distribute",
         "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-join-bounds", f"ObjectFifoLinkOp::verify ({AIE}, newer versions; getJoinTransferLengths)",
         "'aie.objectfifo.link' op specified output stride(s) and size(s) result in out of bounds access in join input, "
         "for index {index} in transfer of length {length}.", "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-distribute-bounds", f"ObjectFifoLinkOp::verify ({AIE}, newer versions; getDistributeTransferLengths)",
         "'aie.objectfifo.link' op specified input stride(s) and size(s) result in out of bounds access in distribute "
         "output, for index {index} in transfer of length {length}.", "test/dialect/AIE/objectfifo_bad_link.mlir"),
    Rule("link-transfer-length", f"ObjectFifoLinkOp::getJoinTransferLengths / getDistributeTransferLengths ({AIE}); "
         f"createMemTileDMA ({OFT})",
         "the mem tile's buffer descriptor for @{child} moves {length} elements at offset {offset} (the next offset minus "
         "its own, in the link's order), its objects hold {elems}",
         "test/objectFifo-stateful-transform/link_test_join_offsets.mlir (lengths from consecutive offsets; no verifier "
         "message: a length other than the object's hangs or overruns, a negative one is no transfer)"),
    # ---- acquire / release ----
    Rule("access-in-core", f"ObjectFifoAcquireOp::verify, ObjectFifoReleaseOp::verify ({AIE})",
         "'aie.objectfifo.{op}' op must be called from inside a CoreOp", "test/objectFifo-stateful-transform/*bad*"),
    Rule("access-fifo", f"ObjectFifoAcquireOp::verify, ObjectFifoReleaseOp::verify ({AIE})",
         "cannot retrieve associated object FIFO", "test/objectFifo-stateful-transform/*bad*"),
    Rule("access-producer-tile", f"ObjectFifoAcquireOp::verify, ObjectFifoReleaseOp::verify ({AIE})",
         "'aie.core' op producer port of objectFifo accessed by core running on non-producer tile",
         "test/objectFifo-stateful-transform/*bad*"),
    Rule("access-consumer-tile", f"ObjectFifoAcquireOp::verify, ObjectFifoReleaseOp::verify ({AIE})",
         "'aie.core' op consumer port of objectFifo accessed by core running on non-consumer tile",
         "test/objectFifo-stateful-transform/*bad*"),
    Rule("acquire-depth", f"ObjectFifoAcquireOp::verify ({AIE}, newest; createObjectFifoElements makes depth buffers)",
         "'aie.objectfifo.acquire' op acquires {n} objects from an objectFifo that holds {depth}",
         "test/objectFifo-stateful-transform/*bad*"),
    Rule("subview-index", f"ObjectFifoSubviewAccessOp::verify ({AIE})",
         "'aie.objectfifo.subview.access' op accessed farther than number of acquired elements (index out of bounds).",
         "test/objectFifo-stateful-transform/*bad*"),
    # ---- buffer descriptors and locks per tile kind ----
    Rule("bd-count", f"HasValidBDs::verifyTrait ({AIE}); AIETargetModel::getNumBDs; BDs from createDMA ({OFT})",
         "'{op}' op has more than {max} blocks", "test/dialect/AIE/badmem_toomanybds.mlir, badshim_toomanybds.mlir"),
    Rule("lock-count", f"LockOp::verify ({AIE}); AIETargetModel::getNumLocks; locks from createObjectFifoLocks ({OFT})",
         "'aie.lock' op lock assigned invalid id (maximum is {max})", "test/dialect/AIE/badlock2.mlir"),
    Rule("shim-bd-id", f"DMABDOp::verify / NpuWriteBdOp::verify ({AIE}, {AIEX}); AIETargetModel::getNumBDs",
         "bdId attribute exceeds max: {max}", "test/dialect/AIE/badshim_toomanybds.mlir"),
    # ---- cores ----
    Rule("core-stack", f"CoreOp::verify ({AIE}, newest)",
         "'aie.core' op stack_size {stack} leaves no local memory for this tile's buffers ({mem} bytes total)",
         "test/dialect/AIE/bad_stack_size.mlir"),
    Rule("stack-alignment", f"CoreOp::verify stack ABI ({AIE}, newest); buffers placed after the stack without "
         "padding (lib/Dialect/AIE/Transforms/AIEAssignBuffers.cpp)",
         "'aie.core' op stack_address must be aligned to {align} bytes for this target's stack ABI",
         "test/dialect/AIE/bad_stack_alignment.mlir (32 B on npu1, 64 B on npu2)"),
    Rule("vector-alignment", "AIEAssignBuffers.cpp basicAllocation / simpleBankAwareAllocation (buffers back to back, "
         "largest first, \"Fixme: alignment\"); the newest pads to getComputeTileMaxVectorAlignBits",
         "a {width}-byte vector body needs {what} ({size} bytes) {align}-byte aligned; this layout puts it at {address}",
         "test/assign-buffer-addresses/vector_alignment.mlir (a 64 B buffer after a 144 B one lands at 1184, 32 mod 64)"),
    Rule("tile-memory", "AIEAssignBuffers.cpp basicAllocation / checkAndPrintOverflow",
         "'aie.tile' op allocated buffers exceeded available memory: Sequential ({memory} bytes)",
         "test/assign-buffer-addresses/basic_alloc_error.mlir"),
    # ---- runtime sequence ----
    Rule("npu-element-width", f"NpuDmaMemcpyNdOp::verify ({AIEX})",
         "'aiex.npu.dma_memcpy_nd' op Maximum element bit width allowed is 32bits. ",
         "test/Conversion/DmaToNpu/bad_dma_to_npu_datatype.mlir"),
    Rule("npu-min-size", f"NpuDmaMemcpyNdOp::verify ({AIEX})",
         "'aiex.npu.dma_memcpy_nd' op Minimum data transfer size required is 32bits. ", "test/Conversion/DmaToNpu/bad_dma_to_npu.mlir"),
    Rule("npu-offset", f"NpuDmaMemcpyNdOp::verify ({AIEX})", "'aiex.npu.dma_memcpy_nd' op Offset must be 4-byte-aligned.",
         "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-size-positive", f"verifyStridesWraps ({AIEX})", "'aiex.npu.dma_memcpy_nd' op Size {i} must be a positive integer.",
         "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-size-granule", f"verifyStridesWraps ({AIEX})",
         "'aiex.npu.dma_memcpy_nd' op Transfer sizes must be multiples of 4 bytes. {n} elements at {eb} bytes each equal "
         "{bytes} bytes, which is not divisible by 4. ", "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-stride-positive", f"verifyStridesWraps ({AIEX})",
         "'aiex.npu.dma_memcpy_nd' op Stride {i} must be a positive integer.", "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-stride-granule", f"verifyStridesWraps ({AIEX})",
         "'aiex.npu.dma_memcpy_nd' op Stride {i} is {s} elements * {eb} bytes = {bytes} bytes, which is not divisible by 4. ",
         "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-wrap", f"verifyStridesWraps ({AIEX}; shim NOC: 10-bit wraps)",
         "'aiex.npu.dma_memcpy_nd' op Size {i} exceeds the [0:1023] range.", "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-repeat", f"verifyStridesWraps ({AIEX}; 6-bit iteration)",
         "'aiex.npu.dma_memcpy_nd' op Size 3 exceeds the [1:64] range.", "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-stride-max", f"verifyStridesWraps ({AIEX}; shim NOC: 20-bit steps)",
         "'aiex.npu.dma_memcpy_nd' op Stride {i} exceeds the [1:1048576] range.", "test/dialect/AIEX/bad_npu_nd.mlir"),
    Rule("npu-wait-symbol", f"NpuDmaWaitOp::verify ({AIEX})", "'aiex.npu.dma_wait' op couldn't find symbol in parent device",
         "test/dialect/AIEX/ (dma_wait)"),
)

RULES: dict[str, Rule] = {r.id: r for r in _ALL}


def violation(rule_id: str, where: str = "", **values) -> str:
    """One problem line: ``[id] message (where; mlir-aie function)``."""
    r = RULES[rule_id]
    text = r.message.format(**values) if values else r.message
    at = f"{where}; " if where else ""
    return f"[{r.id}] {text.strip()} ({at}mlir-aie {r.function})"
