"""The vocabulary of a YAML ane graph's ``compress:`` and ``layout:`` keys, shared by the spec loader
(npubuild.specfile.ane_storage_keys, which checks them at their lines) and the ANE translation (npubuild.ane.compress,
npubuild.ane.from_graph, which apply them). The names are coremltools.optimize.coreml's: OpLinearQuantizerConfig
(mode, dtype, granularity, block_size), OpPalettizerConfig (nbits, granularity, group_size; mode kmeans),
OpMagnitudePrunerConfig (target_sparsity)."""
from __future__ import annotations

KINDS = ("quantize", "palettize", "prune")
QUANT_DTYPES = ("int8", "uint8", "int4", "uint4")
QUANT_MODES = ("linear_symmetric", "linear")
QUANT_GRANULARITY = ("per_tensor", "per_channel", "per_block")
PALETTE_GRANULARITY = ("per_tensor", "per_grouped_channel")
NBITS = (1, 2, 3, 4, 6, 8)  # palettize_weights._SUPPORTED_NBITS
# per kind: key -> default (None: required); every key of an entry must be one of these or 'kind'
DEFAULTS = {
    "quantize": {"mode": "linear_symmetric", "dtype": "int8", "granularity": "per_channel", "block_size": 32},
    "palettize": {"nbits": None, "granularity": "per_tensor", "group_size": 32},
    "prune": {"target_sparsity": None},
}
LAYOUTS = ("default", "channels_first")
