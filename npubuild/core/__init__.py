"""The foundation every stage may use: errors, constants, configuration and its
settings (limits, tool flags, farm trust), canonical JSON, safe writes, sealed
caches and the disk-full message. Nothing here imports a stage of npubuild."""
