"""Where mlir-aie's buffer assignment (``--aie-assign-buffer-addresses``, run by aiecc) puts a
tile's buffers, in the versions that place them back to back without padding.

Those are the versions up to the documented minimum and later (lib/Dialect/AIE/Transforms/
AIEAssignBuffers.cpp: ``basicAllocation`` and ``simpleBankAwareAllocation``, whose
``setAndUpdateAddressInBank`` says "Fixme: alignment"). Both sort a tile's buffers largest
first and start a core's first bank after its stack:

- basic-sequential: one run from the stack's end, each buffer right after the previous;
- bank-aware: ``getNumBanks`` equal banks (4 on an AIE2/AIE2P core, 8 on a mem tile), each
  buffer at the next free address of a bank with room for it. Which bank is tried first
  changed between versions: round-robin, one past the bank last used
  (test/assign-buffer-addresses/bank_aware_alloc_simple.mlir puts a small buffer in bank 1
  while bank 0 has room), or always bank 0 (the caller's ``bankIndex`` never advances), so
  both orders are laid out here. aiecc's default (no ``--alloc-scheme``) is bank-aware,
  falling back to basic-sequential when bank-aware does not fit.

The newest versions pad instead (test/assign-buffer-addresses/vector_alignment.mlir and
bank_aware_vector_alignment.mlir: core buffers at least a vector wide aligned to the widest
vector access, 32 B on AIE2, 64 B on AIE2P), so a design whose buffers land aligned in every
layout here is aligned in every version.
"""
from __future__ import annotations

# AIETargetModel::getLocalMemorySize / getMemTileSize and getNumBanks (AIE2 and AIE2P)
MEMORY = {"core": 64 * 1024, "mem": 512 * 1024}
BANKS = {"core": 4, "mem": 8}


def sequential(stack: int, sizes: list[int], memory: int) -> tuple[list[int], bool]:
    """``basicAllocation``: addresses of ``sizes`` (largest first) and whether they fit."""
    addresses, at = [], stack
    for size in sizes:
        addresses.append(at)
        at += size
    return addresses, at <= memory


def bank_aware(stack: int, sizes: list[int], memory: int, banks: int, round_robin: bool) -> list[int] | None:
    """``simpleBankAwareAllocation``: addresses of ``sizes`` (largest first), None when one
    does not fit in any bank (aiecc then falls back to :func:`sequential`)."""
    bank_size = memory // banks
    free = [bank_size * b for b in range(banks)]
    free[0] += stack
    start, addresses = 0, []
    for size in sizes:
        for step in range(banks):
            b = (start + step) % banks
            if free[b] + size <= bank_size * (b + 1):
                addresses.append(free[b])
                free[b] += size
                if round_robin:
                    start = (b + 1) % banks
                break
        else:
            return None
    return addresses


def layouts(stack: int, sizes: list[int], kind: str) -> dict[str, list[int]]:
    """Every unpadded layout a tile's buffers may get, by scheme, each as the addresses of
    ``sorted(sizes, reverse=True)``. Buffers of equal size are interchangeable, so the sort's
    instability (``std::sort``) does not change which addresses each size gets."""
    ordered = sorted(sizes, reverse=True)
    memory, banks = MEMORY[kind], BANKS[kind]
    basic, _ = sequential(stack, ordered, memory)
    out = {"basic-sequential": basic}
    for name, rr in (("bank-aware (round-robin)", True), ("bank-aware (first bank with room)", False)):
        placed = bank_aware(stack, ordered, memory, banks, rr)
        if placed is not None:
            out[name] = placed
    return out


def required_alignment(size: int, widest_vector: int, device_align: int) -> int:
    """The alignment a buffer of ``size`` bytes needs when its core's body uses vectors up to
    ``widest_vector`` bytes: the widest access that fits inside it (vector widths are powers
    of two, and no access runs past the buffer), capped by the device's widest vector
    load/store (``getComputeTileMaxVectorAlignBits``: 32 B on AIE2, 64 B on AIE2P)."""
    fits = 1 << (size.bit_length() - 1) if size > 0 else 1
    return max(1, min(widest_vector, device_align, fits))
