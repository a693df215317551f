"""The public site: server-rendered pages over the published lists, each with a JSON twin.

Views call ``services`` only (``services.public`` for lookups); templates live in
``templates/web/``; the few static files are ours, vendored, served by whitenoise.
"""
