"""The federation's newer REST shapes: ``/api/ratings``, ``/api/players/...``,
``/api/games``, ``/api/clubs/...`` and ``/api/rating-list/csv``.

Each JSON answer is the envelope ``{"success": ..., "message": ..., "data": ...}``, with
``data`` an object whose keys name what it holds (``games``, ``players``, ``clubs``), as
the REST clients read it (issue 22). A code that names no one is ``success: false`` with
the message and status 404, a parameter left out or malformed the same with status 400
(``answers``): those clients read a 4xx as "no such player", a 200 with ``success:
false`` as "service unavailable". A path under /api/ that is none of these is a 404 in
the same envelope (``unknown``). ``domain`` is S (standard) or R (rapid).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ecfgrading.errors import ServiceError
from ecfgrading.lookups import clubs, players, sound_alike
from ecfgrading.web.api.compat import answers, payloads, shapes


def _answer(
    request: HttpRequest, names: tuple[str, ...], build: Callable[..., Any]
) -> HttpResponseBase:
    """Read the parameters ``names`` (each required) and answer with ``build(*values)``."""
    values = [request.GET.get(name, "").strip() for name in names]

    def data() -> Any:
        for name, value in zip(names, values, strict=True):
            if not value:
                raise ServiceError(f"expected the parameter {name}, got none")
        return build(*values)

    return answers.rest_json(request, data)


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def ratings_view(request: HttpRequest) -> HttpResponseBase:
    """``?player_no=&domain=S|R&date=``: the player's rating in the list in force."""
    on = request.GET.get("date") or None
    return _answer(
        request,
        ("player_no", "domain"),
        lambda code, domain: payloads.rating(code, domain, on),
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def rating_code(request: HttpRequest) -> HttpResponseBase:
    """``?code=``: the player with that grading code."""
    return _answer(
        request, ("code",), lambda code: shapes.player(players.player_info(players.locate(code)))
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def fuzzy_names(request: HttpRequest) -> HttpResponseBase:
    """``?name=``: players whose names sound like one or two words, in any order."""
    return _answer(
        request,
        ("name",),
        lambda name: {"players": [shapes.player(p) for p in sound_alike.players_sounding(name)]},
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def games(request: HttpRequest) -> HttpResponseBase:
    """``?player_no=&domain=S|R&limit=``: his graded games, latest first."""
    limit = request.GET.get("limit") or None
    return _answer(
        request,
        ("player_no", "domain"),
        lambda code, domain: {"games": payloads.games(code, domain, limit)},
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_players(request: HttpRequest) -> HttpResponseBase:
    """``?code=``: the club's members with their current grades, as v2 ``club_players``."""
    return _answer(request, ("code",), payloads.club_players)


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_code(request: HttpRequest) -> HttpResponseBase:
    """``?code=``: the club with that code."""
    return _answer(request, ("code",), lambda code: shapes.club(clubs.club_by_code(code)))


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_name(request: HttpRequest) -> HttpResponseBase:
    """``?name=``: clubs whose name, or a word of it, starts with the text."""

    def named(name: str) -> dict[str, Any]:
        return {"clubs": [shapes.club(c) for c in clubs.clubs_named(name)]}

    return _answer(request, ("name",), named)


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def rating_list_csv(request: HttpRequest) -> HttpResponseBase:
    """The rating list as CSV (the 32 columns and title); ``?date=`` for another day;
    dated (``Last-Modified``) by the publication of the lists it holds."""
    text = request.GET.get("date") or None

    def download() -> HttpResponseBase:
        on = payloads.day_asked(text)
        return answers.csv_file(
            request,
            f"{request.path}|{on}",
            payloads.csv_filename(on),
            lambda: payloads.rating_list_csv(on),
            payloads.list_published_at(text),
        )

    response, refused = answers.attempt(download)
    if refused is None:
        return response
    return answers.rest_answer(
        request, answers.rest_refused(refused.message, refused.kind.http_status)
    )


@csrf_exempt  # any method: the answer is the same
def unknown(request: HttpRequest) -> HttpResponseBase:
    """A path under /api/ that is none of the above (nor /api/v1/): a JSON 404 in the
    REST envelope, as the REST clients read any failure."""
    message = (
        f"expected a path such as /api/players/rating-code?code=123456 (docs/api.md lists "
        f"them), got {request.path}"
    )
    return answers.rest_answer(request, answers.rest_refused(message, 404))
