"""The player lookup (issue 9, page 2; issue 23): a plain GET form; a code goes straight to its
player; a name is read as people type it, with the nearest name on record when few match."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import urlencode

from ecfgrading.lookups.paging import page_number
from ecfgrading.lookups.search import PlayerSearch, search_players
from ecfgrading.web.api.schemas import PlayerSearchOut, as_answered
from ecfgrading.web.caching import cached_page
from ecfgrading.web.context import site_url
from ecfgrading.web.render import respond, wants_json

TEMPLATE = "web/players/lookup.html"


@cached_page
def lookup(request: HttpRequest) -> HttpResponse:
    """``/players/?q=smi&inactive=1&page=2``; a code query redirects to the player's page
    (its JSON twin answers with that one player instead, so scripts keep one shape)."""
    inactive = request.GET.get("inactive") in ("1", "on", "true")
    found = search_players(
        request.GET.get("q", ""), inactive=inactive, page=page_number(request.GET.get("page"))
    )
    if found.code is not None and not wants_json(request):
        return redirect("web:player", code=found.code)
    context = {**_context(found), "canonical": _canonical(request, found)}
    return respond(request, TEMPLATE, context, data=_data(found) if wants_json(request) else None)


def _canonical(request: HttpRequest, found: PlayerSearch) -> str:
    query = _query_string(found.query, found.inactive) if found.query else ""
    if found.page.number > 1:
        query = f"{query}&page={found.page.number}"
    return site_url(f"{request.path}?{query}" if query else request.path)


def _context(found: PlayerSearch) -> dict[str, Any]:
    return {
        "found": found,
        "page": found.page,
        "player_query": found.query,
        "inactive": found.inactive,
        "base_query": _query_string(found.query, found.inactive),
        "inactive_query": _query_string(found.query, True),
        "shorter_query": _query_string(found.shorter, found.inactive) if found.shorter else "",
        "suggestion_query": (
            _query_string(found.suggestion, found.inactive) if found.suggestion else ""
        ),
    }


def _query_string(query: str, inactive: bool) -> str:
    """The lookup's query string without its page: shareable, as the form would send it."""
    return urlencode({"q": query, "inactive": 1} if inactive else {"q": query})


def _data(found: PlayerSearch) -> dict[str, Any]:
    """The JSON twin: /api/v1/players' answer (``PlayerSearchOut``), field for field, with
    the page's first and last row numbers beside its paging."""
    data: dict[str, Any] = as_answered(PlayerSearchOut, found)
    data["page"].update(first=found.page.first_index, last=found.page.last_index)
    return data
