"""``/amendments/``: the corrections made between versions of a list, as the seeds
promise, with the version that first carries each (issue 11, item 6)."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from ecfgrading.lookups.amendments import NEXT, AmendmentFilter, amendments
from ecfgrading.lookups.paging import page_number
from ecfgrading.web.caching import cached_page
from ecfgrading.web.context import site_url
from ecfgrading.web.render import respond

# What the filters accept; anything else is ignored, as on the other lookups.
_LIST = re.compile(r"^\d{4}-\d{2}$")
_VERSION = re.compile(rf"^(initial|august|rev[1-9]\d{{0,3}}|{NEXT})$")
_RATES = ("standard", "rapid")


def _filters(request: HttpRequest) -> AmendmentFilter:
    text = {k: request.GET.get(k, "").strip().lower() for k in ("list", "rate", "version")}
    return AmendmentFilter(
        list_id=text["list"] if _LIST.match(text["list"]) else "",
        rate=text["rate"] if text["rate"] in _RATES else "",
        version=text["version"] if _VERSION.match(text["version"]) else "",
    )


@require_safe
@cached_page
def amendments_page(request: HttpRequest) -> HttpResponse:
    """``/amendments/?list=2011-07&rate=standard&version=august&page=2``."""
    filters = _filters(request)
    found = amendments(filters, page=page_number(request.GET.get("page")))
    named = {"list": filters.list_id, "rate": filters.rate, "version": filters.version}
    query = {k: v for k, v in named.items() if v}
    path = reverse("web:amendments")
    base = urlencode(query)
    page_query = urlencode({**query, "page": found.page.number} if found.page.number > 1 else query)
    context = {
        "found": found,
        "page": found.page,
        "base_query": base,
        "filtered": bool(query),
        "next_version": NEXT,
        "canonical": site_url(f"{path}?{page_query}" if page_query else path),
    }
    data = {
        "filters": named,
        "page": found.page.as_dict(),
        "waiting": found.waiting,
        "versions": found.versions,
        "amendments": [
            {
                "made_on": a.made_on,
                "by": a.by,
                "what": a.what,
                "why": a.why,
                "rate": a.rate,
                "player": {"code": a.player_code, "name": a.player_name} if a.player_code else None,
                "event": {"code": a.event_code, "name": a.event_name} if a.event_code else None,
                "version": a.version,
                "carried_by": a.carried_by,
            }
            for a in found.page.items
        ],
    }
    return respond(request, "web/amendments.html", context, data=data)
