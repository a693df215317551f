"""The public site: server-rendered pages over the published lists, each with a JSON twin.

Views read through ``lookups`` and change nothing but a query from the public
(``services.feedback``); templates live in ``templates/web/``; the few static files are
ours, vendored, served by whitenoise.
"""
