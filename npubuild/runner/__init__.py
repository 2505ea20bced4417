"""The runtime: load a manifest, verify it, run graphs on a backend (ref, host, xrt,
ane). May import artifacts, ops (with ops.gemm_layout, the GEMM overlay's host layouts) and ane's
programs, and the targets' registry (a target opens its kernels); never an emitter, and the build
only through a target's build half (npubuild/targets/compiled.py), never directly."""
