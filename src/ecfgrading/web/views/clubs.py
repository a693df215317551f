"""The club lookup (issue 9, page 4): clubs and counties, the seeds' four columns, and
member lists sortable by name, standard grade or rapid grade; examples that find
something, and A-Z lists of clubs (``/clubs/?browse=A``) and counties (``/counties/``)
to browse instead of typing (issue 23)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode

from ecfgrading.lookups.club_browse import (
    club_letters,
    clubs_by_letter,
    counties_by_name,
    lookup_examples,
)
from ecfgrading.lookups.clubs import (
    ClubMatch,
    CountyRef,
    MemberList,
    club_members,
    county_members,
    find_clubs,
)
from ecfgrading.lookups.events import season_label
from ecfgrading.lookups.members import Sort
from ecfgrading.lookups.paging import page_number
from ecfgrading.web.caching import cached_page
from ecfgrading.web.context import site_url
from ecfgrading.web.render import plain, respond

LOOKUP = "web/clubs/lookup.html"
MEMBERS = "web/clubs/members.html"
BROWSE = "web/clubs/browse.html"
COUNTIES = "web/clubs/counties.html"


@cached_page
def lookup(request: HttpRequest) -> HttpResponse:
    """``/clubs/?q=bath&page=2``: clubs and counties whose name starts with the letters;
    ``/clubs/?browse=B``: every club whose name begins with B."""
    number = page_number(request.GET.get("page"))
    if not request.GET.get("q", "").strip() and request.GET.get("browse"):
        return _browse(request, request.GET["browse"], number)
    found = find_clubs(request.GET.get("q", ""), page=number)
    rows = [(match, links(match)) for match in found.page.items]
    base = urlencode({"q": found.query}) if found.query else ""
    context = {
        "found": found,
        "page": found.page,
        "rows": rows,
        "club_query": found.query,
        "base_query": base,
        "canonical": _absolute(request, reverse("web:clubs"), base, found.page.number),
        "examples": lookup_examples(),
        "letters": club_letters(),
    }
    data = {
        "query": found.query,
        "page": found.page.as_dict(),
        "results": [{**plain(match), "links": urls} for match, urls in rows],
    }
    return respond(request, LOOKUP, context, data=data)


def _browse(request: HttpRequest, letter: str, number: int) -> HttpResponse:
    shown = clubs_by_letter(letter, page=number)
    rows = [(match, links(match)) for match in shown.page.items]
    base = urlencode({"browse": shown.letter})
    context = {
        "browse": shown,
        "page": shown.page,
        "rows": rows,
        "base_query": base,
        "letters": club_letters(),
        "canonical": _absolute(request, reverse("web:clubs"), base, shown.page.number),
    }
    data = {
        "browse": shown.letter,
        "letters": club_letters(),
        "page": shown.page.as_dict(),
        "results": [{**plain(match), "links": urls} for match, urls in rows],
    }
    return respond(request, BROWSE, context, data=data)


@cached_page
def counties(request: HttpRequest) -> HttpResponse:
    """``/counties/``: every county, A to Z, with its clubs and its four lists."""
    found = [(county, links(_as_match(county))) for county in counties_by_name()]
    context = {"rows": found, "canonical": site_url(reverse("web:counties"))}
    data = {"counties": [{**plain(county), "links": urls} for county, urls in found]}
    return respond(request, COUNTIES, context, data=data)


def links(match: ClubMatch) -> dict[str, str | None]:
    """The seeds' four columns: members, members with the inactive, the county team, and
    all members of the county's clubs (for a county, its list of clubs)."""
    county = match.county
    county_url = reverse("web:county", args=[county.key]) if county else None
    if match.club is not None:
        members = reverse("web:club", args=[match.club.key])
    else:
        members = county_url or ""
    return {
        "members": members,
        "members_inactive": f"{members}?inactive=1",
        "county_team": f"{county_url}?team=1" if county_url else None,
        "county_clubs": (f"{county_url}#clubs" if match.club is None else county_url)
        if county_url
        else None,
    }


@cached_page
def club(request: HttpRequest, code: str) -> HttpResponse:
    """``/clubs/<code>/?sort=standard&inactive=1``; ``/clubs/club-<id>/`` for a club
    known by name only."""
    sort, inactive, number = _options(request)
    listing = club_members(code, sort=sort, inactive=inactive, page=number)
    if listing.club is not None and listing.club.key != code:
        return _moved(request, reverse("web:club", args=[listing.club.key]))
    return _members_page(request, listing, team=False)


@cached_page
def county(request: HttpRequest, code: str) -> HttpResponse:
    """``/counties/<key>/``: all members of all its clubs; ``?team=1``: its county team."""
    team = request.GET.get("team") == "1"
    sort, inactive, number = _options(request)
    listing = county_members(code, team=team, sort=sort, inactive=inactive, page=number)
    if listing.county is not None and listing.county.key != code:
        return _moved(request, reverse("web:county", args=[listing.county.key]))
    return _members_page(request, listing, team=team)


def _moved(request: HttpRequest, target: str) -> HttpResponse:
    """The canonical address of the same page, with the same query."""
    query = request.GET.urlencode()
    return redirect(f"{target}?{query}" if query else target, permanent=True)


def _options(request: HttpRequest) -> tuple[Sort, bool, int]:
    return (
        Sort.parse(request.GET.get("sort")),
        request.GET.get("inactive") == "1",
        page_number(request.GET.get("page")),
    )


def _members_page(request: HttpRequest, listing: MemberList, *, team: bool) -> HttpResponse:
    fixed = {"team": 1} if team else {}
    query = _query(fixed, listing.sort, listing.inactive)
    context: dict[str, Any] = {
        "listing": listing,
        "page": listing.page,
        "rows": [(member, (member.standard, member.rapid)) for member in listing.page.items],
        "players_url": players_url(),
        "team": team,
        "base_query": query,
        "canonical": _absolute(request, request.path, query, listing.page.number),
        "sort_links": {
            sort.value: _href(request.path, _query(fixed, sort, listing.inactive)) for sort in Sort
        },
        "toggle_link": _href(request.path, _query(fixed, listing.sort, not listing.inactive)),
        "seasons": _seasons(listing.season),
        "show_clubs": listing.kind == "county",
        "county_links": links(_county_match(listing)) if listing.county else None,
    }
    data = {
        **_header(listing),
        "page": listing.page.as_dict(),
        "members": listing.page.items,
    }
    return respond(request, MEMBERS, context, data=data)


def players_url() -> str:
    """``/players/``: a row's link is this and the player's code (the web contract's
    /players/<code>/), built once per page rather than reversed for every row."""
    return reverse("web:players")


def _county_match(listing: MemberList) -> ClubMatch:
    return ClubMatch("county", "", None, listing.county, None, ())


def _as_match(county: CountyRef) -> ClubMatch:
    """A county as a lookup row, for its four links."""
    return ClubMatch("county", county.name, None, county, None, ())


def _header(listing: MemberList) -> dict[str, Any]:
    """The JSON twin's facts about the list (everything but its rows)."""
    return {
        "kind": listing.kind,
        "name": listing.name,
        "club": listing.club,
        "county": listing.county,
        "merged_into": listing.merged_into,
        "absorbed": list(listing.absorbed),
        "clubs": list(listing.clubs),
        "sort": listing.sort,
        "inactive": listing.inactive,
        "seasons": _seasons(listing.season),
        "lists": list(listing.lists),
    }


def _seasons(season: int | None) -> list[str]:
    """The three seasons a membership must have been quoted in to stand (C2)."""
    if season is None:
        return []
    return [season_label(s) for s in range(season - 2, season + 1)]


def _query(fixed: dict[str, int], sort: Sort, inactive: bool) -> str:
    """A member list's query string without its page or defaults (shareable, canonical)."""
    params: dict[str, Any] = dict(fixed)
    if sort is not Sort.NAME:
        params["sort"] = sort.value
    if inactive:
        params["inactive"] = 1
    return urlencode(params)


def _href(path: str, query: str) -> str:
    return f"{path}?{query}" if query else path


def _absolute(request: HttpRequest, path: str, query: str, page: int) -> str:
    if page > 1:
        query = f"{query}&page={page}" if query else f"page={page}"
    return site_url(_href(path, query))
