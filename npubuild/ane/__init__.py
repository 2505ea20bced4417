"""Apple Neural Engine: the MIL reader, weight.bin blobs, graph planning and the
per-node programs (and their build action). May import ops and artifacts (the store)."""
