"""Toolchains: finding and fingerprinting the host (MLIR, llc, cc) and XDNA (aiecc,
Peano, xclbinutil) tools and running them. May import emitters and artifacts (the store)."""
