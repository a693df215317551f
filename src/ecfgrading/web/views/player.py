"""/players/<code>/: a player's page and its JSON twin (issue 9, page 3).

The code in the URL is the player's full code: one without its check letter, in lower
case, or merged into another record redirects to the code of the record it counts for
(G28); an unknown code is a 404 page with the lookup boxes.
"""

from __future__ import annotations

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.urls import reverse

from ecfgrading.lookups.player import PlayerNotFound, locate, player_page
from ecfgrading.web.caching import cached_page
from ecfgrading.web.render import respond


@cached_page
def player(request: HttpRequest, code: str) -> HttpResponse:
    try:
        located = locate(code)
    except PlayerNotFound as missing:
        raise Http404(str(missing)) from None
    if located.code != code:
        return _redirect(request, located.code, permanent=not located.merged)
    page = player_page(located)
    context = {"page": page, "canonical": request.build_absolute_uri(_url(page.code))}
    return respond(request, "web/players/player.html", context, data=page)


def _url(code: str) -> str:
    return reverse("web:player", kwargs={"code": code})


def _redirect(request: HttpRequest, code: str, *, permanent: bool) -> HttpResponse:
    """A spelling of the code moves for good (301); a merge is the grading team's
    decision, which a correction may undo (302). The query string (format=json) stays."""
    target = _url(code)
    if request.META.get("QUERY_STRING"):
        target += f"?{request.META['QUERY_STRING']}"
    return (HttpResponsePermanentRedirect if permanent else HttpResponseRedirect)(target)
