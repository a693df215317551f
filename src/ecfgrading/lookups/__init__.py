"""Read-only lookups over published lists for the public website and the API.

Both callers build on the same functions, so a lookup answers alike in HTML, in a page's
JSON twin and in /api/v1:

- ``lists``: the current list of each rate, every published version (G26, G27)
- ``freshness.data_token()``: changes whenever a public page may have changed
- ``paging``: pages of long results
"""
