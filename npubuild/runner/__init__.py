"""The runtime: load a manifest, verify it, run graphs on a backend (ref, host, xrt,
ane). May import artifacts, ops, ane's programs and emitters.gemm_layout; never the build."""
