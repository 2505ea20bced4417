"""Artifacts: the local store, further stores (stores/), the manifest's schema and
reader, bundles, trust and housekeeping. May import only the foundation."""
