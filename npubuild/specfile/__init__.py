"""Specs: YAML with positions, the spec files, validation, graph resolution and
kernel instances (specs/ -> a validated Spec). May import ops and the foundation."""
