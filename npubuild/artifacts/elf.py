"""One dynamic symbol's bytes from an ELF shared library, read from the file's bytes
(never loaded: a library is not run before its ABI is checked). 32- and 64-bit, either
byte order; every offset is bounds-checked.
"""
from __future__ import annotations

import struct

_SHT_NOBITS, _SHT_DYNSYM = 8, 11
# ELF class -> (header after e_ident, section header, symbol) layouts
_ELF = {1: ("HHIIIIIHHHHHH", "IIIIIIIIII", "IIIBBH"), 2: ("HHIQQQIHHHHHH", "IIQQQQIIQQ", "IBBHQQ")}


def elf_symbol(data: bytes, name: bytes) -> bytes | None:
    """The bytes of the dynamic symbol ``name``; every offset is bounds-checked by struct/slicing."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not ELF")
    end = {1: "<", 2: ">"}[data[5]]
    hdr, sec, sym = (end + f for f in _ELF[data[4]])
    eh = struct.unpack_from(hdr, data, 16)
    shoff, shentsize, shnum = eh[5], eh[10], eh[11]
    if shentsize != struct.calcsize(sec):
        raise ValueError("section header size")
    # (name, type, flags, addr, offset, size, link, info, align, entsize)
    sections = [struct.unpack_from(sec, data, shoff + i * shentsize) for i in range(shnum)]
    step = struct.calcsize(sym)
    for s in sections:
        if s[1] != _SHT_DYNSYM:
            continue
        strtab = sections[s[6]]
        for off in range(s[4], s[4] + s[5] - step + 1, step):
            f = struct.unpack_from(sym, data, off)
            st_name, st_value, st_size, st_shndx = (f[0], f[4], f[5], f[3]) if data[4] == 2 else (f[0], f[1], f[2], f[5])
            start = strtab[4] + st_name
            if data[start : start + len(name) + 1] != name + b"\0" or start >= strtab[4] + strtab[5]:
                continue
            home = sections[st_shndx]
            begin = home[4] + st_value - home[3]
            if home[1] == _SHT_NOBITS or begin < 0 or begin + st_size > len(data):
                raise ValueError("symbol outside the file")
            return data[begin : begin + st_size]
    return None
