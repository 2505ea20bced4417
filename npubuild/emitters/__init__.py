"""Emitters: KernelInstance -> source text, host/ (standard-dialect MLIR) and aie/
(xdna designs), and gemm_layout (the int8 GEMM overlay's host contract). May import spec and ops."""
