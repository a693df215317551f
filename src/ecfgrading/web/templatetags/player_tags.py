"""The player page's figures: points to two places, and the grade history as an SVG chart.

The chart is drawn on the server (web-design principle 5): plain SVG with presentation
attributes only (the content security policy forbids inline style), a <title> and
<desc> for screen readers, and the history table beside it as its text alternative.
Standard is a solid line with round marks, rapid a dashed line with square marks:
colour is never the only signal.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.lookups.breakdown import GameRow
from ecfgrading.lookups.history import HistoryPoint, HistoryRow
from ecfgrading.web.reversed import reversed_once
from ecfgrading.web.templatetags.grading import british

register = template.Library()

# The drawing's own units: the SVG scales to its box, so text of 15 units reads at about
# 13 px on a 390 px phone and 17 px at its widest on a desktop (player.css).
WIDTH, HEIGHT = 420, 250
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 34, 28
FONT = 15


@dataclass(frozen=True)
class Style:
    rate: Rate
    colour: str
    dash: str  # stroke-dasharray ('' for a solid line)
    months: int  # lists of this rate are this many months apart: a longer gap breaks the line


STYLES = (
    Style(Rate.STANDARD, "#0b5cad", "", 12),
    Style(Rate.RAPID, "#9a3d00", "6 4", 6),
)


@register.filter
def two(value: float | None) -> str:
    """1,748.20: points to two places (the engine keeps full precision)."""
    return "" if value is None else f"{value:,.2f}"


@register.filter
def four(value: float | None) -> str:
    """125.8056: the unrounded grade, to show how it rounds."""
    return "" if value is None else f"{value:,.4f}"


@register.filter
def whole(value: float | None) -> str:
    """+5 for a junior bonus of 5.0."""
    return "" if value is None else f"{value:g}"


@register.filter
def event_href(code: str) -> str:
    """/events/<code>/, for any code a results file gave (one with a '/' included)."""
    return _href("web:event", code)


@register.filter
def player_href(code: str) -> str:
    return _href("web:player", code)


def _pattern(name: str) -> tuple[str, str]:
    """A route's URL around its code, reversed once: a page may link hundreds of games."""
    before, _, after = reversed_once(name, code="CODE").partition("CODE")
    return before, after


def _href(name: str, code: str) -> str:
    before, after = _pattern(name)
    return f"{before}{quote(code, safe='')}{after}"


@register.simple_tag
def game_rows(rows: Sequence[GameRow], kind: str) -> SafeString:
    """The rows of a games table (``_game_table.html``), written here rather than in the
    template: a busy player's page lists a few hundred games, and plain string formatting
    (every text escaped by ``html.escape``) is several times faster than templates."""
    return mark_safe("\n".join(_game_row(g, kind) for g in rows))


def _game_row(g: GameRow, kind: str) -> str:
    event = (
        f'<a href="{_e(event_href(g.event_code))}">{_e(g.event_name)}</a>' if g.event_code else ""
    )
    opponent = (
        f'<a href="{_e(player_href(g.opponent.code))}">{_e(g.opponent.name)}</a> '
        f"<small>{_e(g.opponent.code)}</small>"
        if g.opponent
        else '<span class="none">being identified</span>'
    )
    cells = [_e(british(g.date)), event, opponent, _e(g.colour.capitalize()), result_word(g.score)]
    if kind != "forward":
        cells += [opponent_grade(g), two(g.counted_as)]
    cells.append(_points_cell(g, kind))
    counted = "" if g.counted else ' class="not-counted"'
    return f"<tr{counted}>{''.join(f'<td>{cell}</td>' for cell in cells)}</tr>"


def opponent_grade(g: GameRow) -> str:
    """The opponent's starting grade (G13) as players read grades: a whole number, rounded
    half up as grades are (G22), with "estimated" where it was (G7; issue 23: not 97.34
    without a word). The exact figure stays in the markup for a program."""
    if g.opponent_start is None:
        return ""
    shown = math.floor(g.opponent_start + 0.5)
    words = ' <span class="estimated">estimated</span>' if g.opponent_estimated else ""
    return f'<data value="{g.opponent_start:.2f}">{shown}</data>{words}'


def _points_cell(g: GameRow, kind: str) -> str:
    if g.points is not None:
        return two(g.points)
    if kind != "received":
        return ""
    why = "later list" if g.opponent else "when identified"
    return f'<span class="note">{why}</span>'


def _e(text: str) -> str:
    return html.escape(text, quote=True)


@register.filter
def result_word(score: float) -> str:
    return {1.0: "Win", 0.5: "Draw", 0.0: "Loss"}.get(score, "")


_NO_LIST = '<span class="none">–<span class="visually-hidden">no list</span></span>'


@register.filter
def history_cell(point: HistoryPoint | None) -> SafeString:
    """A list's grade with its category; 'ungraded' (too few games); a dash (no list).

    A filter rather than an included template: a history has a row for every list.
    """
    if point is None:
        return mark_safe(_NO_LIST)
    if point.grade is None:
        return mark_safe('<span class="none">ungraded</span>')
    return format_html('{}<span class="cat-small">{}</span>', point.grade, point.category)


@register.simple_tag
def grade_chart(history: Sequence[HistoryRow]) -> SafeString:
    """The history as a line per rate; '' when there is nothing to draw."""
    series = {style.rate: _points(history, style.rate) for style in STYLES}
    points = [p for found in series.values() for p in found]
    if not points:
        return mark_safe("")
    frame = _Frame.around(points)
    return format_html(
        '<svg viewBox="0 0 {} {}" role="img" aria-labelledby="chart-title chart-desc" '
        'focusable="false" font-family="system-ui, sans-serif" font-size="{}">'
        '<title id="chart-title">Grade history</title><desc id="chart-desc">{}</desc>'
        "{}{}{}</svg>",
        WIDTH,
        HEIGHT,
        FONT,
        _description(series),
        frame.axes(),
        _legend(series),
        format_html_join("", "{}", ((_line(s, series[s.rate], frame),) for s in STYLES)),
    )


def _points(history: Sequence[HistoryRow], rate: Rate) -> list[HistoryPoint]:
    found = [row.standard if rate is Rate.STANDARD else row.rapid for row in history]
    graded = [p for p in found if p is not None and p.grade is not None]
    return sorted(graded, key=lambda p: p.list_id)


def _when(point: HistoryPoint) -> float:
    """A list's place on the time axis, in years."""
    parsed = ListId.parse(point.list_id)
    return parsed.year + (parsed.month - 1) / 12


@dataclass(frozen=True)
class _Frame:
    """Scales from years and grades to the drawing's units."""

    first: float
    last: float
    low: int
    high: int
    step: int

    @classmethod
    def around(cls, points: Sequence[HistoryPoint]) -> _Frame:
        years = [_when(p) for p in points]
        grades = [p.grade or 0 for p in points]
        span = max(grades) - min(grades)
        step = 10 if span <= 40 else 20 if span <= 100 else 50
        low = step * math.floor((min(grades) - 5) / step)
        high = step * math.ceil((max(grades) + 5) / step)
        first, last = min(years), max(years)
        return cls(first - 0.25, last + 0.25, max(0, low), high, step)

    def x(self, year: float) -> float:
        return LEFT + (year - self.first) / (self.last - self.first) * (WIDTH - LEFT - RIGHT)

    def y(self, grade: float) -> float:
        return TOP + (self.high - grade) / (self.high - self.low) * (HEIGHT - TOP - BOTTOM)

    def axes(self) -> SafeString:
        grid = format_html_join(
            "",
            '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#d8dde3"/>'
            '<text x="{}" y="{}" text-anchor="end" fill="#555e68">{}</text>',
            (
                (LEFT, WIDTH - RIGHT, _n(self.y(g)), _n(self.y(g)), LEFT - 6, _n(self.y(g) + 4), g)
                for g in range(self.low, self.high + 1, self.step)
            ),
        )
        return format_html("{}{}", grid, self._years())

    def _years(self) -> SafeString:
        span = range(math.floor(self.first), math.ceil(self.last) + 1)
        years = [y for y in span if self.first <= y + 0.5 <= self.last]  # at the July lists
        every = max(1, math.ceil(len(years) / 6))
        return format_html_join(
            "",
            '<text x="{}" y="{}" text-anchor="middle" fill="#555e68">{}</text>',
            ((_n(self.x(y + 0.5)), HEIGHT - 8, y) for y in years[::every]),
        )


def _n(value: float) -> str:
    """A coordinate to one place (format_html escapes its arguments as text first)."""
    return f"{value:.1f}"


def _line(style: Style, points: Sequence[HistoryPoint], frame: _Frame) -> SafeString:
    """A polyline per run of consecutive lists, and a mark at every list."""
    runs = _runs(points, style.months)
    lines = format_html_join(
        "",
        '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5"{}/>',
        (
            (
                " ".join(f"{_n(frame.x(_when(p)))},{_n(frame.y(p.grade or 0))}" for p in run),
                style.colour,
                format_html(' stroke-dasharray="{}"', style.dash) if style.dash else "",
            )
            for run in runs
            if len(run) > 1
        ),
    )
    marks = format_html_join("", "{}", ((_mark(style, frame, p),) for p in points))
    return format_html('<g aria-hidden="true">{}{}</g>', lines, marks)


def _runs(points: Sequence[HistoryPoint], months: int) -> list[list[HistoryPoint]]:
    runs: list[list[HistoryPoint]] = []
    for point in points:
        if runs and (_when(point) - _when(runs[-1][-1])) * 12 <= months + 0.5:
            runs[-1].append(point)
        else:
            runs.append([point])
    return runs


def _mark(style: Style, frame: _Frame, point: HistoryPoint) -> SafeString:
    x, y = frame.x(_when(point)), frame.y(point.grade or 0)
    if style.rate is Rate.STANDARD:
        return format_html('<circle cx="{}" cy="{}" r="4" fill="{}"/>', _n(x), _n(y), style.colour)
    return format_html(
        '<rect x="{}" y="{}" width="8" height="8" fill="#fff" stroke="{}" stroke-width="2"/>',
        _n(x - 4),
        _n(y - 4),
        style.colour,
    )


def _legend(series: dict[Rate, list[HistoryPoint]]) -> SafeString:
    shown = [s for s in STYLES if series[s.rate]]
    return format_html_join(
        "",
        '<g aria-hidden="true"><line x1="{0}" x2="{1}" y1="14" y2="14" stroke="{2}" '
        'stroke-width="2.5"{3}/><text x="{4}" y="18" fill="#1b1f23">{5}</text></g>',
        (
            (
                LEFT + 110 * k,
                LEFT + 110 * k + 26,
                s.colour,
                format_html(' stroke-dasharray="{}"', s.dash) if s.dash else "",
                LEFT + 110 * k + 32,
                s.rate.value.capitalize(),
            )
            for k, s in enumerate(shown)
        ),
    )


def _description(series: dict[Rate, list[HistoryPoint]]) -> str:
    parts = []
    for rate, points in series.items():
        if points:
            first, last = points[0], points[-1]
            parts.append(
                f"{rate.value} grades in {len(points)} lists, from {first.grade} "
                f"({first.label}) to {last.grade} ({last.label})"
            )
    text = "; ".join(parts)
    return f"{text[:1].upper()}{text[1:]}. The table of grades gives every figure."
