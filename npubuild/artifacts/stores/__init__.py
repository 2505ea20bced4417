"""Layered artifact stores: the local store, then the project's further stores.

A project may list further stores (``[tool.npubuild] stores``) after its local
content-addressed store (npubuild.artifacts.store): a shared directory (``file://``), an
HTTP cache speaking the Bazel remote-cache protocol (``http(s)://``) and Redis
(``redis://``), each read-write or read-only.

- :mod:`.access`    what an action needs to open the stores (picklable)
- :mod:`.layered`   lookup in order, verification, import into the local store, upload
- :mod:`.base`      the interface of one further store, its errors, the size-limited blob sink
- :mod:`.kinds`     which kind a URL names; :mod:`.directory`, :mod:`.httpcache`, :mod:`.redisstore` (+ :mod:`.resp`) the kinds
- :mod:`.deadline`  sockets with one deadline per request (limits.store_request_timeout), not one per read
- :mod:`.notices`   warnings and refusals recorded by build workers for the build report
"""
from .access import StoreAccess, new_build, open_stores
from .notices import take_notices

__all__ = ["StoreAccess", "open_stores", "new_build", "take_notices"]
