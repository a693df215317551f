"""Clubs and counties found, as table rows written in Python (issue 25).

A letter of the A-Z list of clubs shows up to 200 clubs; the template language took most
of the time of the page made cold. This writes the same rows, byte for byte, as the loop
of ``web/clubs/_matches.html`` did: every value escaped as the template escaped it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape  # what django.utils.html.escape calls, without its lazy wrapper

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from ecfgrading.lookups.clubs import ClubMatch, ClubRef, CountyRef

register = template.Library()
_NONE = '<span class="none">no county known</span>'
Links = Mapping[str, str | None]


@register.simple_tag
def county_club_items(clubs: Sequence[ClubRef]) -> SafeString:
    """The ``<li>`` of each club of a county's page (up to hundreds), as the loop of
    ``web/clubs/_facts.html`` wrote them: ``/clubs/`` reversed once, not for every club
    (a club's key is its alphanumeric code or ``club-<id>``: nothing to quote)."""
    prefix = escape(reverse("web:clubs"))
    return mark_safe("".join(_club_item(club, prefix) for club in clubs))  # all escaped


def _club_item(club: ClubRef, prefix: str) -> str:
    code = f' <span class="code">{escape(club.code)}</span>' if club.code else ""
    return f'<li><a href="{prefix}{escape(club.key)}/">{escape(club.label)}</a>{code}</li>\n'


@register.simple_tag
def club_rows(rows: Sequence[tuple[ClubMatch, Links]]) -> SafeString:
    """The ``<tr>`` of each club or county found, in order."""
    return mark_safe("".join(_row(match, links) for match, links in rows))  # all escaped


def _row(match: ClubMatch, links: Links) -> str:
    named = _club(match.club, match, links) if match.club else _county(match, links)
    return f"\n<tr>\n{named}\n\n{_county_cells(match.county, links)}\n</tr>\n"


def _club(club: ClubRef, match: ClubMatch, links: Links) -> str:
    label = escape(club.label)
    code = f' <span class="code">{escape(club.code)}</span>' if club.code else ""
    where = '<span class="about">a location, not a club</span>' if club.is_location else ""
    merged = ""
    if match.merged_into:
        into = match.merged_into
        href = escape(reverse("web:club", args=[into.key]))
        merged = (
            f'<span class="about">merged into <a href="{href}">{escape(into.label)}</a>: '
            "the same members</span>"
        )
    absorbed = ""
    if match.absorbed:
        names = ", ".join(escape(other.label) for other in match.absorbed)
        absorbed = f'<span class="about">{names} merged into it</span>'
    return (
        '\n  <th scope="row" class="name">\n'
        f'    <a href="{_href(links, "members")}">{label}</a>{code}\n'
        f"    {where}\n    {merged}\n    {absorbed}\n  </th>\n"
        f'  <td class="inactive" data-label="Including inactive"><a href="'
        f'{_href(links, "members_inactive")}">{label}<span class="more"> with inactive '
        "members</span></a></td>"
    )


def _county(match: ClubMatch, links: Links) -> str:
    name = escape(match.county.name) if match.county else ""
    return (
        '\n  <th scope="row" class="name">\n'
        f'    <a href="{_href(links, "members")}">{name}</a> <span class="about">county: '
        "members of its clubs</span>\n  </th>\n"
        f'  <td class="inactive" data-label="Including inactive"><a href="'
        f'{_href(links, "members_inactive")}">{name}<span class="more"> with inactive '
        "members</span></a></td>"
    )


def _county_cells(county: CountyRef | None, links: Links) -> str:
    name = escape(county.name) if county else ""
    team, clubs = links.get("county_team"), links.get("county_clubs")
    shown_team = (
        f'<a href="{escape(team)}">{name}<span class="more"> county team</span></a>'
        if team
        else _NONE
    )
    count = county.clubs if county else 0
    plural = "" if count == 1 else "s"
    shown_clubs = (
        f'<a href="{escape(clubs)}">{name}<span class="more">: {count} club{plural}</span></a>'
        if clubs
        else _NONE
    )
    return (
        f'  <td data-label="County team">{shown_team}</td>\n'
        f'  <td data-label="Clubs in county">{shown_clubs}</td>'
    )


def _href(links: Links, name: str) -> str:
    return escape(links.get(name) or "")
