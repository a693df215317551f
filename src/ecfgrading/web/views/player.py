"""/players/<code>/: a player's page and its JSON twin (issue 9, page 3).

Both read the player read model (``lookups.players.player_page``); the twin is the API's
representation of the player (``schemas.PlayerPageOut`` extends /api/v1's ``PlayerOut``
with the page's own parts), so each fact has one name at both doors.

The code in the URL is the player's full code: one without its check letter, in lower
case, or merged into another record redirects to the code of the record it counts for
(G28); an unknown code is a 404 page with the lookup boxes.

``?list=2011-07`` shows that list's grades, games and breakdown as its current version
published them, ``&version=initial`` as an earlier version did (page and twin alike); a
list he has no entry in is a 404 page saying which lists he has, a malformed one a 400
page (the error contract, ``web.errors``). The page is cached by its full URL, query
string included (``web.caching``).
"""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.urls import reverse
from django.utils.http import urlencode

from ecfgrading.lookups.players import BadList, PlayerPage, locate, player_page
from ecfgrading.web.api.schemas import PlayerPageOut, as_answered
from ecfgrading.web.caching import cached_page
from ecfgrading.web.context import site_url
from ecfgrading.web.render import respond, wants_json


@cached_page
def player(request: HttpRequest, code: str) -> HttpResponse:
    located = locate(code)
    if located.code != code:
        return _redirect(request, located.code, permanent=not located.merged)
    list_id, version = _asked(request)
    page = player_page(located, list_id, version)
    context = {"page": page, "canonical": site_url(_shown_url(page))}
    # The twin is the API's representation of the player (PlayerOut), and the page's own
    # parts beside it: one name for each fact, whichever door shows it.
    data = as_answered(PlayerPageOut, page) if wants_json(request) else None
    return respond(request, "web/players/player.html", context, data=data)


def _asked(request: HttpRequest) -> tuple[str | None, str | None]:
    """The list and version asked for (empty: none); a version needs its list."""
    list_id = request.GET.get("list", "").strip() or None
    version = request.GET.get("version", "").strip().lower() or None
    if version is not None and list_id is None:
        raise BadList(f"a version needs its list, as in ?list=2011-07&version={version}")
    return list_id, version


def _shown_url(page: PlayerPage) -> str:
    """The page's own address: with the list (and version) it shows, when asked."""
    named = {"list": page.shown_list, "version": page.shown_version}
    query = urlencode({key: value for key, value in named.items() if value})
    return f"{_url(page.code)}?{query}" if query else _url(page.code)


def _url(code: str) -> str:
    return reverse("web:player", kwargs={"code": code})


def _redirect(request: HttpRequest, code: str, *, permanent: bool) -> HttpResponse:
    """A spelling of the code moves for good (301); a merge is the grading team's
    decision, which a correction may undo (302). The query string (format=json) stays."""
    target = _url(code)
    if request.META.get("QUERY_STRING"):
        target += f"?{request.META['QUERY_STRING']}"
    return (HttpResponsePermanentRedirect if permanent else HttpResponseRedirect)(target)
