"""The federation's newer REST shapes: ``/api/ratings``, ``/api/players/...``,
``/api/games``, ``/api/clubs/...`` and ``/api/rating-list/csv``.

Each JSON answer is the envelope ``{"success": ..., "message": ..., "data": ...}``; a
code that names no one, or a parameter left out or malformed, is ``success: false`` with
the message, status 200 (``answers``). ``domain`` is S (standard) or R (rapid).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ecfgrading.errors import ServiceError
from ecfgrading.lookups import clubs, players, sound_alike
from ecfgrading.web.api.compat import answers, payloads, shapes


def _answer(
    request: HttpRequest, names: tuple[str, ...], build: Callable[..., Any]
) -> HttpResponse:
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
def ratings_view(request: HttpRequest) -> HttpResponse:
    """``?player_no=&domain=S|R&date=``: the player's rating in the list in force."""
    on = request.GET.get("date") or None
    return _answer(
        request,
        ("player_no", "domain"),
        lambda code, domain: payloads.rating(code, domain, on),
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def rating_code(request: HttpRequest) -> HttpResponse:
    """``?code=``: the player with that grading code."""
    return _answer(
        request, ("code",), lambda code: shapes.player(players.player_info(players.locate(code)))
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def fuzzy_names(request: HttpRequest) -> HttpResponse:
    """``?name=``: players whose names sound like one or two words, in any order."""
    return _answer(
        request,
        ("name",),
        lambda name: [shapes.player(p) for p in sound_alike.players_sounding(name)],
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def games(request: HttpRequest) -> HttpResponse:
    """``?player_no=&domain=S|R&limit=``: his graded games, latest first."""
    limit = request.GET.get("limit") or None
    return _answer(
        request,
        ("player_no", "domain"),
        lambda code, domain: payloads.games(code, domain, limit),
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_players(request: HttpRequest) -> HttpResponse:
    """``?code=``: the club's members with their current grades."""
    return _answer(request, ("code",), payloads.club_players_rest)


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_code(request: HttpRequest) -> HttpResponse:
    """``?code=``: the club with that code."""
    return _answer(request, ("code",), lambda code: shapes.club(clubs.club_by_code(code)))


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_name(request: HttpRequest) -> HttpResponse:
    """``?name=``: clubs whose name, or a word of it, starts with the text."""
    return _answer(
        request, ("name",), lambda name: [shapes.club(c) for c in clubs.clubs_named(name)]
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def rating_list_csv(request: HttpRequest) -> HttpResponse:
    """The rating list as CSV (the 32 columns and title); ``?date=`` for another day."""

    def download() -> HttpResponse:
        on = payloads.day_asked(request.GET.get("date") or None)
        filename = payloads.csv_filename(on)
        return answers.csv_file(
            request, f"{request.path}|{on}", filename, lambda: payloads.rating_list_csv(on)
        )

    response, refused = answers.attempt(download)
    if refused is None:
        return response
    return answers.rest_answer(request, answers.rest_refused(refused))
