"""The runtime: load a manifest, verify it, run graphs on a backend (ref, host, xrt,
ane). May import artifacts, ops (with ops.gemm_layout, the GEMM overlay's host layouts) and ane's
programs; never an emitter, never the build."""
