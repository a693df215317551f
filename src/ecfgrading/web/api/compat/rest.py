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

from ecfgrading.lookups import ratings, ratings_players
from ecfgrading.lookups.ratings import RatingsError
from ecfgrading.services.errors import ServiceError
from ecfgrading.web.api.compat import answers, payloads, shapes


def _answer(
    request: HttpRequest, names: tuple[str, ...], build: Callable[..., Any]
) -> HttpResponse:
    """Read the parameters ``names`` (each required) and answer with ``build(*values)``."""
    values = [request.GET.get(name, "").strip() for name in names]

    def data() -> Any:
        for name, value in zip(names, values, strict=True):
            if not value:
                raise RatingsError(f"expected the parameter {name}, got none")
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
        request, ("code",), lambda code: shapes.player(ratings_players.player_info(code))
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def fuzzy_names(request: HttpRequest) -> HttpResponse:
    """``?name=``: players whose names sound like one or two words, in any order."""
    return _answer(
        request,
        ("name",),
        lambda name: [shapes.player(p) for p in ratings_players.players_sounding(name)],
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
    return _answer(request, ("code",), lambda code: shapes.club(ratings.club_by_code(code)))


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def club_name(request: HttpRequest) -> HttpResponse:
    """``?name=``: clubs whose name, or a word of it, starts with the text."""
    return _answer(
        request, ("name",), lambda name: [shapes.club(c) for c in ratings.clubs_named(name)]
    )


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def rating_list_csv(request: HttpRequest) -> HttpResponse:
    """The rating list as CSV (the 32 columns and title); ``?date=`` for another day."""
    try:
        on = payloads.day_asked(request.GET.get("date") or None)
        filename = payloads.csv_filename(on)
        return answers.csv_file(
            request, f"{request.path}|{on}", filename, lambda: payloads.rating_list_csv(on)
        )
    except ServiceError as error:
        return answers.rest_json(request, _fail(error))


def _fail(error: ServiceError) -> Callable[[], Any]:
    def build() -> Any:
        raise error

    return build
