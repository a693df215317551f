"""/api/v1: the published lists as a documented, versioned JSON API (django-ninja).

Every operation is a GET that calls one read model of ``lookups`` (the same ones as the
website, so an answer here agrees with the page) and answers with a typed schema
(``schemas``): the OpenAPI schema at /api/v1/openapi.json says exactly what comes back,
and /api/v1/docs shows it with Swagger UI served from our own files (``v1_docs``).

- Answers are cached and carry ETag and Cache-Control (``web.caching.cached_page``, keyed
  by the data token): published versions never change, so a conditional request whose
  ETag still matches gets 304 without the answer being made again.
- Errors are the site's one JSON error body ``{"status", "kind", "message"}``
  (``web.errors``), never HTML nor a traceback: a ServiceError by its kind, as the site
  answers it (400 invalid, 404 not on record, 409 when the records' state forbids it);
  422 for a parameter the schema refuses, with each parameter's problem in ``detail``.
  Any path under /api/v1/ that names no endpoint is a JSON 404 too.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, Literal

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, URLResolver, path, re_path, reverse
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI, Path, Query
from ninja.errors import ValidationError

from ecfgrading.engine.types import Rate
from ecfgrading.formats.values import MAX_GRADE
from ecfgrading.lookups.clubs import (
    MEMBERS_PER_PAGE,
    ClubSearch,
    MemberList,
    club_members,
    county_members,
    find_club,
    find_clubs,
    find_county,
)
from ecfgrading.lookups.conversions import ConversionTable, Converted, conversions
from ecfgrading.lookups.events import (
    EventDetail,
    EventSort,
    EventsReceived,
    event_detail,
    events_received,
    find_event,
)
from ecfgrading.lookups.list_entries import ENTRIES_PER_PAGE, ListPage, list_page
from ecfgrading.lookups.lists import catalogue
from ecfgrading.lookups.members import Sort
from ecfgrading.lookups.paging import MAX_PER_PAGE, PER_PAGE
from ecfgrading.lookups.players import (
    PlayerGames,
    PlayerHistory,
    PlayerSummary,
    locate,
    player_games,
    player_history,
    player_summary,
)
from ecfgrading.lookups.search import MAX_QUERY, PlayerSearch, search_players
from ecfgrading.services.errors import ServiceError
from ecfgrading.web.api import schemas as out
from ecfgrading.web.api.v1_docs import SelfHostedDocs
from ecfgrading.web.caching import cached_page
from ecfgrading.web.errors import json_error
from ecfgrading.web.views.lists import catalogue_data

logger = logging.getLogger("django.request")

# Input shapes, so that malformed input is refused (422) before any lookup.
CODE = r"^[0-9]{6}[A-Za-z]?$"  # a grading code, with or without its check letter (G28)
CLUB = r"^[A-Za-z0-9-]+$"  # a club's code, or club-<id> for one known by name only
COUNTY = r"^[A-Za-z0-9-]+$"  # a county's folded name, or its association code
EVENT = r"^[^\x00-\x1f/]+$"  # an event's code as its results file gave it
LIST = r"^[0-9]{4}-(01|07)$"  # lists are published in January and July
VERSION = r"^(initial|august|rev[1-9][0-9]*)$"  # G26, G27
# 2011-12: a season is named by its two years (1 June .. 31 May), the second one's last two
# digits following the first's (00-01 .. 99-00, spelled out so that the schema says it all).
SEASON = "^(19|20)(" + "|".join(f"{y:02d}-{(y + 1) % 100:02d}" for y in range(100)) + ")$"
TEXT = r"^[^\x00]*$"  # what a lookup box may hold

NOT_FOUND = {404: out.ErrorOut}
# 422: a parameter the schema refuses (django-ninja, with ``detail``); 400: one it lets
# through that the lookup refuses (a ServiceError of kind INVALID, as on the page).
# 414: an address longer than the site reads (web.middleware.addresses), whatever it asks.
INVALID = {400: out.ErrorOut, 414: out.ErrorOut, 422: out.InvalidOut}


class _API(NinjaAPI):
    """NinjaAPI whose every address answers JSON: its endpoints (HEAD as GET, and a JSON
    405 for any other method), the root, and any path naming no endpoint."""

    @property
    def urls(self) -> tuple[list[URLResolver | URLPattern], str, str]:
        patterns, app_name, namespace = super().urls
        for pattern in patterns:
            if isinstance(pattern, URLPattern):
                pattern.callback = _get_only(pattern.callback)
        root = path("", _root, name="index")
        return [root, *patterns, re_path(r"^", _no_endpoint, name="unknown")], app_name, namespace


api = _API(
    title="ecfgrading API",
    version="1",
    description=(
        "The federation's published grading lists, players, clubs, counties and events "
        "received, as JSON. Public facts only: never a date of birth. Answers carry ETag "
        "and Cache-Control; errors are JSON with a message and the HTTP status."
    ),
    urls_namespace="api-v1",
    docs=SelfHostedDocs(),
)
api.add_decorator(cached_page, mode="view")


# -- errors ---------------------------------------------------------------------------------


def _error(message: str, status: int, **extra: Any) -> JsonResponse:
    return json_error(status, message, **extra)


@api.exception_handler(ServiceError)
def _refused(request: HttpRequest, error: ServiceError) -> HttpResponse:
    """By kind, as the site answers it: a request the schema lets through but the
    records cannot answer is 400, as the page's (``web.errors``)."""
    return _error(error.message, error.kind.http_status)


@api.exception_handler(ValidationError)
def _malformed(request: HttpRequest, error: ValidationError) -> HttpResponse:
    problems = [_problem(item) for item in error.errors]
    words = "; ".join(f"{p['where']}: {p['msg']}" for p in problems)
    return _error(f"malformed request: {words}", 422, detail=problems)


def _problem(item: dict[str, Any]) -> dict[str, Any]:
    """One parameter's problem, with JSON values only (pydantic's context may hold any)."""
    loc = [str(part) for part in item.get("loc", ())]
    return {
        "where": ".".join(loc),
        "loc": loc,
        "msg": str(item["msg"]),
        "type": item.get("type", ""),
    }


@api.exception_handler(Http404)
def _missing(request: HttpRequest, error: Http404) -> HttpResponse:
    return _error(str(error) or "not found", 404)


@api.exception_handler(Exception)
def _failed(request: HttpRequest, error: Exception) -> HttpResponse:
    """A bug: logged with its traceback for us, a plain JSON 500 for the caller."""
    logger.exception("API error on %s", request.get_full_path(), exc_info=error)
    return _error("the server could not answer; try again later", 500)


def _get_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """HEAD answers as GET without the body; another method is a JSON 405 (ninja's own
    405 is a bare text page)."""

    @functools.wraps(view)  # keeps ninja's csrf_exempt: a POST gets 405, not a CSRF page
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        head = request.method == "HEAD"
        if head:
            request.method = "GET"
        try:
            response = view(request, *args, **kwargs)
        finally:
            if head:
                request.method = "HEAD"
        if response.status_code == 405:
            return _not_allowed(request)
        if head and not response.streaming:
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        return response

    return wrapper


def _not_allowed(request: HttpRequest) -> HttpResponse:
    response = _error(f"{request.method} is not allowed: every endpoint answers GET", 405)
    response["Allow"] = "GET, HEAD"
    return response


@csrf_exempt
def _root(request: HttpRequest) -> HttpResponse:
    """/api/v1/: where the documentation and the schema are."""
    return JsonResponse(
        {
            "title": api.title,
            "version": api.version,
            "docs": reverse("api-v1:openapi-view"),
            "openapi": reverse("api-v1:openapi-json"),
        }
    )


@csrf_exempt
def _no_endpoint(request: HttpRequest) -> HttpResponse:
    docs = reverse("api-v1:openapi-view")
    return _error(f"no endpoint at {request.path}: the endpoints are listed at {docs}", 404)


# -- players --------------------------------------------------------------------------------


@api.get(
    "/players",
    response={200: out.PlayerSearchOut, **INVALID},
    tags=["players"],
    summary="Look players up by name or code",
)
def players(
    request: HttpRequest,
    q: str = Query(
        ...,
        min_length=1,
        max_length=MAX_QUERY,
        pattern=TEXT,
        description="'surname' or 'surname, forename' (a prefix; case and accents ignored), "
        "surname and forenames in either order without a comma ('john smith', 'smith j'), "
        "or a code with or without its check letter.",
    ),
    inactive: bool = Query(False, description="Include players graded in earlier lists only."),
    page: int = Query(1, ge=1, le=1_000_000),
    per_page: int = Query(PER_PAGE, ge=1, le=MAX_PER_PAGE),
) -> PlayerSearch:
    """The website's lookup: active players (graded on a current list) by default."""
    return search_players(q, inactive=inactive, page=page, per_page=per_page)


@api.get(
    "/players/{code}",
    response={200: out.PlayerOut, **NOT_FOUND, **INVALID},
    tags=["players"],
    summary="A player's current grades",
)
def player(request: HttpRequest, code: str = Path(..., pattern=CODE)) -> PlayerSummary:
    """Clubs, FIDE id, nation, junior age, and per rate the current and August grade,
    category, games and conversions. A merged code answers for its surviving record."""
    return player_summary(locate(code))


@api.get(
    "/players/{code}/history",
    response={200: out.PlayerHistoryOut, **NOT_FOUND, **INVALID},
    tags=["players"],
    summary="A player's grade in every list",
)
def history(request: HttpRequest, code: str = Path(..., pattern=CODE)) -> PlayerHistory:
    """Every published list since records begin, latest first, each from its current version."""
    return player_history(locate(code))


@api.get(
    "/players/{code}/games",
    response={200: out.PlayerGamesOut, **NOT_FOUND, **INVALID},
    tags=["players"],
    summary="A list's games with the points each scored",
)
def games(
    request: HttpRequest,
    code: str = Path(..., pattern=CODE),
    rate: Literal["standard", "rapid"] = Query("standard"),
    list_id: str | None = Query(
        None, alias="list", pattern=LIST, description="e.g. 2012-07; default: the current list."
    ),
) -> PlayerGames:
    """The games the list's current version graded for him: the opponent's starting grade
    (G13), his value after the 40-point rule (G12), the points; games brought forward."""
    return player_games(locate(code), Rate(rate), list_id)


# -- clubs and counties ---------------------------------------------------------------------


@api.get(
    "/clubs",
    response={200: out.ClubSearchOut, **INVALID},
    tags=["clubs"],
    summary="Look clubs and counties up by name or code",
)
def clubs(
    request: HttpRequest,
    q: str = Query(..., min_length=1, max_length=MAX_QUERY, pattern=TEXT),
    page: int = Query(1, ge=1, le=1_000_000),
) -> ClubSearch:
    """Clubs and counties whose name, or a word of it, starts with ``q``; a club code."""
    return find_clubs(q, page=page)


@api.get(
    "/clubs/{code}",
    response={200: out.ClubDetailOut, **NOT_FOUND, **INVALID},
    tags=["clubs"],
    summary="A club",
)
def club(request: HttpRequest, code: str = Path(..., pattern=CLUB, max_length=40)) -> MemberList:
    """The club, its county, merges, and how many members are graded now."""
    return club_members(find_club(code).key, page=1, per_page=1)


@api.get(
    "/clubs/{code}/members",
    response={200: out.MembersOut, **NOT_FOUND, **INVALID},
    tags=["clubs"],
    summary="A club's members with their grades",
)
def club_member_list(
    request: HttpRequest,
    code: str = Path(..., pattern=CLUB, max_length=40),
    sort: Literal["name", "standard", "rapid"] = Query("name"),
    inactive: bool = Query(False, description="Include players graded in earlier lists."),
    page: int = Query(1, ge=1, le=1_000_000),
    per_page: int = Query(MEMBERS_PER_PAGE, ge=1, le=MAX_PER_PAGE),
) -> MemberList:
    """Players whose membership has not lapsed (C2), graded now (or ever, ``inactive``)."""
    return club_members(
        find_club(code).key, sort=Sort(sort), inactive=inactive, page=page, per_page=per_page
    )


@api.get(
    "/counties/{code}",
    response={200: out.CountyOut, **NOT_FOUND, **INVALID},
    tags=["clubs"],
    summary="A county and its clubs",
)
def county(
    request: HttpRequest, code: str = Path(..., pattern=COUNTY, max_length=120)
) -> MemberList:
    return county_members(find_county(code).key, page=1, per_page=1)


@api.get(
    "/counties/{code}/members",
    response={200: out.MembersOut, **NOT_FOUND, **INVALID},
    tags=["clubs"],
    summary="A county's members, or its county team",
)
def county_member_list(
    request: HttpRequest,
    code: str = Path(..., pattern=COUNTY, max_length=120),
    team: bool = Query(False, description="Everyone who has played for the county instead."),
    sort: Literal["name", "standard", "rapid"] = Query("name"),
    inactive: bool = Query(False),
    page: int = Query(1, ge=1, le=1_000_000),
    per_page: int = Query(MEMBERS_PER_PAGE, ge=1, le=MAX_PER_PAGE),
) -> MemberList:
    """All members of all the county's clubs (C2 as for a club), or its county team."""
    key = find_county(code).key
    return county_members(
        key, team=team, sort=Sort(sort), inactive=inactive, page=page, per_page=per_page
    )


# -- events ---------------------------------------------------------------------------------


@api.get(
    "/events",
    response={200: out.EventsOut, **INVALID},
    tags=["events"],
    summary="Events received for grading in a season",
)
def events(
    request: HttpRequest,
    season: str | None = Query(None, pattern=SEASON, description="e.g. 2011-12; the latest."),
    sort: Literal["date", "name"] = Query("date"),
    page: int = Query(1, ge=1, le=1_000_000),
) -> EventsReceived:
    return events_received(season, sort=EventSort(sort), page=page)


@api.get(
    "/events/{code}",
    response={200: out.EventOut, **NOT_FOUND, **INVALID},
    tags=["events"],
    summary="An event's results",
)
def event(request: HttpRequest, code: str = Path(..., pattern=EVENT, max_length=20)) -> EventDetail:
    """The event with its results by section and round, or by match and board."""
    return event_detail(find_event(code))


# -- lists ----------------------------------------------------------------------------------


@api.get("/lists", response=out.ListsOut, tags=["lists"], summary="Every published list")
def lists(request: HttpRequest) -> dict[str, Any]:
    """Every list and version published, with download addresses, and which are current:
    the lists page's JSON twin, /lists/?format=json, without its conversion table."""
    return catalogue_data(catalogue())


@api.get(
    "/lists/{list_id}/{rate}",
    response={200: out.ListEntriesOut, **NOT_FOUND, **INVALID},
    tags=["lists"],
    summary="A published list's entries, a page at a time",
    url_name="list_entries",
)
def list_entries(
    request: HttpRequest,
    list_id: str = Path(..., pattern=LIST, description="e.g. 2012-07"),
    rate: Literal["standard", "rapid"] = Path(...),
    version: str | None = Query(None, pattern=VERSION, description="Default: the current one."),
    page: int = Query(1, ge=1, le=1_000_000),
    per_page: int = Query(ENTRIES_PER_PAGE, ge=1, le=MAX_PER_PAGE),
) -> ListPage:
    """The entries of one version in name order, with the fields of the list's JSON export."""
    return list_page(list_id, Rate(rate), version, page=page, per_page=per_page)


@api.get(
    "/conversions",
    response={200: out.ConversionsOut, **INVALID},
    tags=["lists"],
    summary="ECF grade, FIDE rating and national Elo (G29)",
)
def conversion(
    request: HttpRequest,
    ecf: float | None = Query(None, ge=-100, le=MAX_GRADE, description="An ECF grade."),
    fide: float | None = Query(None, ge=0, le=4000, description="A FIDE rating."),
    elo: float | None = Query(None, ge=0, le=4000, description="A national Elo rating."),
) -> ConversionTable[Converted]:
    """Each figure given on the three scales, a row each; none given: the seeds' table."""
    return conversions(ecf=ecf, fide=fide, elo=elo)
