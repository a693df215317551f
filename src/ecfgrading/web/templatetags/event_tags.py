"""An event's games, and the events received, as table rows written in Python (issue 25).

A league or a congress has hundreds of games; the template language took a millisecond
or more for each row (some 85% of the page made cold). This writes the same rows, byte
for byte, as the loop of ``web/events/event.html`` did: every value escaped as the
template escaped it.
"""

from __future__ import annotations

import datetime as dt
from html import escape  # what django.utils.html.escape calls, without its lazy wrapper

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from ecfgrading.lookups.events import EventSummary, GameRow, Part, Round, Side
from ecfgrading.web.templatetags.grading import british

register = template.Library()
_NO_DATE = '<span class="note">date not given</span>'


@register.simple_tag
def game_rows(part: Part, round: Round, players_url: str) -> SafeString:
    """The ``<tr>`` of each game of ``round``, in order."""
    match = part.kind == "match"
    dated, graded = round.date is not None, round.all_graded
    rows = [_row(game, players_url, match, dated, graded) for game in round.games]
    return mark_safe("".join(rows))  # every value is escaped in _row


def _row(game: GameRow, players_url: str, match: bool, dated: bool, graded: bool) -> str:
    cells = ["<tr>\n" if game.graded else '<tr class="not-graded">\n']
    if match:
        board = "" if game.board is None else escape(str(game.board))
        cells.append(f'<td class="num board">{board}</td>')
    cells.append("\n" + _side("first", game.first, game.first_colour, players_url) + "\n")
    cells.append(f'<td class="result">{escape(game.result_label)}</td>\n')
    cells.append(_side("second", game.second, game.second_colour, players_url) + "\n")
    if not dated:
        when = escape(british(game.date)) if game.date_given else _NO_DATE
        cells.append(f'<td class="date">{when}</td>')
    cells.append("\n")
    if not graded:
        said = "yes" if game.graded else f"not graded: {escape(game.reason_label.lower())}"
        cells.append(f'<td class="reason">{said}</td>')
    cells.append("\n</tr>\n")
    return "".join(cells)


def _side(which: str, side: Side, colour: str, players_url: str) -> str:
    name = escape(side.name)
    if side.code:
        shown = f'<a href="{escape(players_url)}{escape(side.code)}/">{name}</a>'
    else:
        shown = f'{name} <span class="pending">(not yet identified)</span>'
    small = f" <small>{escape(colour)}</small>" if colour else ""
    return f'<td class="player {which}">{shown}{small}</td>'


@register.simple_tag
def event_row(event: EventSummary) -> SafeString:
    """A row of the events received, byte for byte as the include it replaces wrote it."""
    cells = (
        "<tr>\n",
        f'  <th scope="row" class="name"><a href="{escape(reverse("web:event", args=[event.code]))}'
        f'">{escape(event.name)}</a> '
        f'<span class="code">{escape(event.code)}</span></th>\n',
        f'  <td class="dates" data-label="Dates">{dates(event.start_date, event.end_date)}</td>\n',
        f'  <td class="rate" data-label="Rate">{escape(event.rate_label)}</td>\n',
        f'  <td class="kind" data-label="Kind">{escape(event.kind_label)}</td>\n',
        f'  <td class="num graded" data-label="Games graded">{event.games_graded:,}</td>\n',
        f'  <td class="num not-graded" data-label="Not graded">{event.games_not_graded:,}</td>\n',
        f'  <td class="status" data-label="Status">{escape(event.status_label)}</td>\n',
        "</tr>\n",
    )
    return mark_safe("".join(cells))  # every value is escaped


@register.simple_tag
def event_dates(start: dt.date, end: dt.date) -> SafeString:
    """An event's dates as pages show them (``dates``)."""
    return mark_safe(dates(start, end))  # digits and month names only


def dates(start: dt.date, end: dt.date) -> str:
    """'3 May 2012', '3–5 May 2012', '30 April – 2 May 2012', or across years in full."""
    if start == end:
        return _day(british(end))
    if (start.year, start.month) == (end.year, end.month):
        return _day(f"{start.day}–{british(end)}")
    first = f"{start.day} {start:%B}" if start.year == end.year else british(start)
    return f"{_day(first)} – {_day(british(end))}"


def _day(text: str) -> str:
    return f'<span class="day">{text}</span>'
