"""The unpadded buffer layouts of mlir-aie's AIEAssignBuffers.cpp (npubuild/emitters/aie/buffer_layout.py),
checked against the addresses mlir-aie's own tests expect, and the alignment rule built on them."""
from __future__ import annotations

from npubuild.emitters.aie import buffer_layout as bl
from npubuild.emitters.aie.rules_check import text_problems

from .test_aie_rules import _mutated


def test_basic_sequential_matches_basic_alloc_error_mlir():
    # test/assign-buffer-addresses/basic_alloc_error.mlir: stack 0x400, then b (32768 B) at 0x400,
    # c (32 B) at 0x8400, a (16 B) at 0x8420, past xcvc1902's 32 KiB
    addresses, fits = bl.sequential(0x400, [32768, 32, 16], 32 * 1024)
    assert addresses == [0x400, 0x8400, 0x8420] and not fits


def test_round_robin_bank_aware_matches_bank_aware_alloc_simple_mlir():
    # test/assign-buffer-addresses/bank_aware_alloc_simple.mlir (xcvc1902: 32 KiB in 4 banks):
    # b (2048 B) at 1024 in bank 0, c (32 B) at 8192 in bank 1, a (16 B) at 16384 in bank 2
    assert bl.bank_aware(1024, [2048, 32, 16], 32 * 1024, 4, round_robin=True) == [1024, 8192, 16384]
    assert bl.bank_aware(1024, [2048, 32, 16], 32 * 1024, 4, round_robin=False) == [1024, 3072, 3104]


def test_a_buffer_too_big_for_every_bank_leaves_bank_aware_to_the_fallback():
    assert bl.bank_aware(1024, [20000], 64 * 1024, 4, round_robin=True) is None
    assert set(bl.layouts(1024, [20000], "core")) == {"basic-sequential"}


def test_required_alignment_is_the_widest_access_that_fits():
    # vector_alignment.mlir: a 64 B buffer needs 64 B on AIE2P, 32 B on AIE2; a 16 B one cannot take
    # a 32 B vector
    assert bl.required_alignment(64, 64, 64) == 64
    assert bl.required_alignment(64, 64, 32) == 32
    assert bl.required_alignment(16, 64, 64) == 16
    assert bl.required_alignment(20, 64, 32) == 16


def test_small_objects_placed_last_are_not_refused():
    # the reduce designs' 16 B result objects: smallest, so placed after every aligned buffer
    text = _mutated([("      return\n", "      %v = vector.transfer_read %in_x[%c0], %p : memref<1024xf32>, vector<16xf32>\n      return\n"),
                     ("    %run_0_2 = aie.core", "    %r0 = aie.buffer(%core_0_2) : memref<4xf32>\n"
                                               "    %r1 = aie.buffer(%core_0_2) : memref<4xf32>\n    %run_0_2 = aie.core")])
    assert text_problems(text) == []


def test_the_same_buffer_is_refused_when_a_larger_odd_one_precedes_it():
    text = _mutated([("      return\n", "      %v = vector.transfer_read %in_x[%c0], %p : memref<1024xf32>, vector<16xf32>\n      return\n"),
                     ("    %run_0_2 = aie.core", "    %odd = aie.buffer(%core_0_2) : memref<12xf32>\n"
                                               "    %r1 = aie.buffer(%core_0_2) : memref<8xf32>\n    %run_0_2 = aie.core")])
    problems = text_problems(text)
    assert problems and all(p.startswith("[vector-alignment]") for p in problems)
    assert "a local 8xf32 buffer (32 bytes) 32-byte aligned; this layout puts it at 17456" in problems[0]
