"""/players/<code>/: a player's page and its JSON twin (issue 9, page 3).

Both read the player read model (``lookups.players.player_page``); the twin is the API's
representation of the player (``schemas.PlayerPageOut`` extends /api/v1's ``PlayerOut``
with the page's own parts), so each fact has one name at both doors.

The code in the URL is the player's full code: one without its check letter, in lower
case, or merged into another record redirects to the code of the record it counts for
(G28); an unknown code is a 404 page with the lookup boxes.
"""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.urls import reverse

from ecfgrading.lookups.players import locate, player_page
from ecfgrading.web.api.schemas import PlayerPageOut, as_answered
from ecfgrading.web.caching import cached_page
from ecfgrading.web.render import respond, wants_json


@cached_page
def player(request: HttpRequest, code: str) -> HttpResponse:
    located = locate(code)
    if located.code != code:
        return _redirect(request, located.code, permanent=not located.merged)
    page = player_page(located)
    context = {"page": page, "canonical": request.build_absolute_uri(_url(page.code))}
    # The twin is the API's representation of the player (PlayerOut), and the page's own
    # parts beside it: one name for each fact, whichever door shows it.
    data = as_answered(PlayerPageOut, page) if wants_json(request) else None
    return respond(request, "web/players/player.html", context, data=data)


def _url(code: str) -> str:
    return reverse("web:player", kwargs={"code": code})


def _redirect(request: HttpRequest, code: str, *, permanent: bool) -> HttpResponse:
    """A spelling of the code moves for good (301); a merge is the grading team's
    decision, which a correction may undo (302). The query string (format=json) stays."""
    target = _url(code)
    if request.META.get("QUERY_STRING"):
        target += f"?{request.META['QUERY_STRING']}"
    return (HttpResponsePermanentRedirect if permanent else HttpResponseRedirect)(target)
