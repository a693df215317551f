"""/api/v1/docs: Swagger UI served from our own static files.

django-ninja's docs page takes Swagger UI from a CDN unless ``ninja`` is an installed
app, and even then its pages carry inline style; the site loads nothing from elsewhere
and its content security policy allows no inline script or style. So the page is ours:
Swagger UI's files vendored under ``web/static/api/`` (see NOTICE.txt there), started by
``docs.js`` with the schema's address read from a data attribute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.utils.html import format_html
from ninja.openapi.docs import DocsBase

if TYPE_CHECKING:
    from ninja import NinjaAPI

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{swagger_css}">
<link rel="stylesheet" href="{docs_css}">
</head>
<body>
<main>
<div class="api-intro">
<h1>{title}</h1>
<p>Every endpoint below answers JSON over GET; no key and no cookie are needed. The
schema is at <a href="{schema}">{schema}</a>; the guide with a curl example for each
endpoint is docs/api.md in the source.</p>
</div>
<div id="swagger-ui" data-openapi-url="{schema}"></div>
</main>
<script src="{bundle_js}"></script>
<script src="{docs_js}"></script>
</body>
</html>
"""


class SelfHostedDocs(DocsBase):
    """Swagger UI from our static files, under the site's content security policy."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        page = format_html(
            _PAGE,
            title=f"{api.title} v{api.version}",
            schema=self.get_openapi_url(api, kwargs),
            swagger_css=static("api/swagger-ui.css"),
            docs_css=static("api/docs.css"),
            bundle_js=static("api/swagger-ui-bundle.js"),
            docs_js=static("api/docs.js"),
        )
        return HttpResponse(page)
