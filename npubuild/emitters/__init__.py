"""Emitters: KernelInstance -> source text, host/ (standard-dialect MLIR) and aie/
(xdna designs). May import spec and ops (ops.gemm_layout: the int8 GEMM overlay's host contract,
shared with the runtime)."""
