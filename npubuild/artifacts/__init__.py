"""Artifacts: the local store, further stores (stores/), the manifest (manifest.py: reader;
manifest_schema.py: field types; manifest_records.py and ane_records.py: records against each
other; verify.py: files, records and ABIs; abi.py, elf.py: the ABI a binary carries), bundles,
trust and housekeeping. May import only the foundation."""
