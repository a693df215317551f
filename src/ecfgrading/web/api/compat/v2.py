"""``/v2/new/api.php?v2/...``: the federation's v2 rating API, routed by the query string.

The whole query string is the route, URL-decoded with ``+`` as a space (the federation
tells its users to write spaces as ``+``): ``v2/players/code/123456``,
``v2/players/name/smith,+jo``, ``v2/ratings/S/123456A/2012-09-01``... Every JSON body
carries ``success`` and the processing times (``answers``); a route that matches nothing,
or a path under /v2/ that is not this one (``unknown``), is a 404, as JSON of the same
keys; anything else is answered with status 200, ``success: false`` and a message when
it names no one (``answers``). The rating list, as JSON or CSV, is dated
(``Last-Modified``) by the publication of the lists it holds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ecfgrading.lookups import clubs, players, sound_alike
from ecfgrading.web.api.compat import answers, payloads, shapes

Handler = Callable[..., dict[str, Any]]


def _player_by_code(code: str) -> dict[str, Any]:
    return shapes.player(players.player_info(players.locate(code)))


def _player_by_member(number: str) -> dict[str, Any]:
    """Never answered (issue 24): a membership number is private, and saying whose it is
    would publish it. The clients' "not found" is the answer, whatever the number."""
    raise players.PlayerNotFound(
        f"players are not looked up by membership number here, got {number!r}: membership "
        "numbers are private; look the player up by grading code or name"
    )


def _players_named(stem: str) -> dict[str, Any]:
    return {"players": [shapes.player(p) for p in players.players_named(stem)]}


def _players_sounding(words: str) -> dict[str, Any]:
    return {"players": [shapes.player(p) for p in sound_alike.players_sounding(words)]}


def _rating(rate: str, code: str, on: str | None = None) -> dict[str, Any]:
    return payloads.rating(code, rate, on)


def _games(rate: str, code: str, limit: str | None = None) -> dict[str, Any]:
    return {"games": payloads.games(code, rate, limit)}


def _active_clubs() -> dict[str, Any]:
    return {"clubs": [shapes.club(club) for club in clubs.active_clubs()]}


def _club(club: str) -> dict[str, Any]:
    return shapes.club(clubs.club_by_code(club))


def _club_players(club: str) -> dict[str, Any]:
    return payloads.club_players(club)


_PART = r"[^/]+"
ROUTES: tuple[tuple[re.Pattern[str], Handler], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), handler)
    for pattern, handler in (
        (rf"players/code/(?P<code>{_PART})", _player_by_code),
        (rf"players/mid/(?P<number>{_PART})", _player_by_member),
        (rf"players/name/(?P<stem>{_PART})", _players_named),
        (rf"players/fuzzy_name/(?P<words>{_PART})", _players_sounding),
        (rf"ratings/(?P<rate>{_PART})/(?P<code>{_PART})(?:/(?P<on>{_PART}))?", _rating),
        (
            rf"games/(?P<rate>{_PART})/player/(?P<code>{_PART})(?:/limit/(?P<limit>{_PART}))?",
            _games,
        ),
        (r"clubs/all_active", _active_clubs),
        (rf"clubs/code/(?P<club>{_PART})", _club),
        (rf"club_players/(?P<club>{_PART})", _club_players),
    )
)
_LIST = re.compile(rf"rating_list(?:/(?P<on>{_PART}))?", re.IGNORECASE)
_CSV = re.compile(rf"rating_list_csv(?:/(?P<on>{_PART}))?", re.IGNORECASE)
EXAMPLE = "v2/players/code/123456"


def route_of(request: HttpRequest) -> str:
    """The route a query string names, without its 'v2/' and outer slashes."""
    text = unquote_plus(request.META.get("QUERY_STRING", "").split("&")[0]).strip()
    text = text.strip("/")
    return text[3:].strip("/") if text.lower().startswith("v2/") else text


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def api(request: HttpRequest) -> HttpResponseBase:
    route = route_of(request)
    wanted = _CSV.fullmatch(route)
    if wanted is not None:
        return _csv(request, route, wanted["on"])
    wanted = _LIST.fullmatch(route)
    if wanted is not None:
        return _list(request, route, wanted["on"])
    for pattern, handler in ROUTES:
        match = pattern.fullmatch(route)
        if match is not None:
            found = {k: v for k, v in match.groupdict().items() if v is not None}
            # Every answer's members are kept in the shared cache under the data token
            # (``answers.kept``); the processing times around them are each request's own.
            return answers.v2_json(request, functools.partial(handler, **found), keep=route)
    message = f"expected a route such as ?{EXAMPLE} (docs/api.md lists them), got ?{route}"
    return answers.v2_failure(request, message, status=404)


def _list(request: HttpRequest, route: str, on_text: str | None) -> HttpResponseBase:
    """The rating list as JSON, dated by the publication of the lists it holds."""
    return answers.v2_json(
        request,
        lambda: payloads.rating_list(payloads.day_asked(on_text)),
        keep=route,
        modified=payloads.list_published_at(on_text),
    )


def _csv(request: HttpRequest, route: str, on_text: str | None) -> HttpResponseBase:
    """The rating list as CSV; a bad date, or one with no list in force, as JSON."""

    def download() -> HttpResponseBase:
        on = payloads.day_asked(on_text)
        filename = payloads.csv_filename(on)
        modified = payloads.list_published_at(on_text)
        return answers.csv_file(
            request, route, filename, lambda: payloads.rating_list_csv(on), modified
        )

    response, refused = answers.attempt(download)
    if refused is None:
        return response
    return answers.v2_failure(request, refused.message, status=200)


@csrf_exempt  # any method: the answer is the same
def unknown(request: HttpRequest) -> HttpResponse:
    """A path under /v2/ that is not the API's (nor list_top_players.php): a JSON 404 of
    the v2 keys (``success: false``, the processing times, ``message``)."""
    message = (
        f"expected /v2/new/api.php?{EXAMPLE} (docs/api.md lists the routes), got {request.path}"
    )
    return answers.v2_failure(request, message, status=404)
