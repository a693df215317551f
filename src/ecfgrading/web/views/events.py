"""Events received for grading (issue 9, page 5), and each event's results."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode

from ecfgrading.lookups.events import (
    EventSort,
    event_detail,
    events_received,
    find_event,
)
from ecfgrading.lookups.paging import page_number
from ecfgrading.web.api.schemas import EventOut, EventsOut, as_answered
from ecfgrading.web.caching import cached_page
from ecfgrading.web.context import site_url
from ecfgrading.web.render import respond, wants_json
from ecfgrading.web.views.clubs import players_url

RECEIVED = "web/events/received.html"
EVENT = "web/events/event.html"


@cached_page
def received(request: HttpRequest) -> HttpResponse:
    """``/events/?season=2011-12&sort=name&page=2``; the latest season by default."""
    sort = EventSort.parse(request.GET.get("sort"))
    found = events_received(
        request.GET.get("season") or None,
        sort=sort,
        page=page_number(request.GET.get("page")),
    )
    path = reverse("web:events")
    base = _query(found.season, sort)
    context = {
        "found": found,
        "page": found.page,
        "base_query": base,
        "sort_links": {
            option.value: _with_page(path, _query(found.season, option), 1) for option in EventSort
        },
        "canonical": site_url(_with_page(path, base, found.page.number)),
    }
    data = as_answered(EventsOut, found) if wants_json(request) else None
    return respond(request, RECEIVED, context, data=data)


@cached_page
def event(request: HttpRequest, code: str) -> HttpResponse:
    """``/events/<code>/``: the event and its results, by round or by match."""
    recorded = find_event(code)
    if recorded != code:
        return redirect("web:event", code=recorded, permanent=True)
    detail = event_detail(recorded)
    context = {
        "event": detail,
        "players_url": players_url(),
        "canonical": site_url(reverse("web:event", args=[recorded])),
    }
    data = as_answered(EventOut, detail) if wants_json(request) else None
    return respond(request, EVENT, context, data=data)


def _query(season: str | None, sort: EventSort) -> str:
    """The list's query string without its page or defaults."""
    params = {"season": season} if season else {}
    return urlencode({**params, "sort": sort.value} if sort is not EventSort.DATE else params)


def _with_page(path: str, query: str, page: int) -> str:
    if page > 1:
        query = f"{query}&page={page}" if query else f"page={page}"
    return f"{path}?{query}" if query else path
