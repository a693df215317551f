"""The JSON APIs: our own versioned /api/v1 (django-ninja, with its OpenAPI schema) and the
shapes of the federation's rating API (``compat``) that existing programs already call."""
