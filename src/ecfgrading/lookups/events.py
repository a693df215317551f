"""Events received for grading, and each event's results (the seeds' published list).

"A list of Events Received for Grading is published ... so that players can alert us to
possible missing events." An event is listed once its results are received (status
received or graded), in the season of its last day (1 June .. 31 May), with its dates,
rate of play, kind, games graded and not graded, and status. Games replaced by a later
submission of the event are not its results any more and are counted nowhere.

Only public facts are read: never the grading officer's name or address, nor anything
of a player but his code and name (a player not yet identified shows the name the file
gave).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.db.models.functions import Lower

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.periods import season_of
from ecfgrading.errors import NotFound, ServiceError
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.paging import PER_PAGE, Page, bounds
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import Event, Game, NotGradedReason, PlayRate, Result

PUBLIC_STATUSES = (Event.Status.RECEIVED, Event.Status.GRADED)
_SEASON = re.compile(r"^(\d{4})-(\d{2})$")
# 'Kent v Sussex (U160)': the home team, the away team and a note.
_MATCH = re.compile(r"^(?P<home>.+?)\s+vs?\.?\s+(?P<away>.+?)(?:\s+\((?P<note>[^()]*)\))?$", re.I)


class EventNotFound(NotFound):
    """No event has that code."""


class BadSeason(ServiceError):
    """A season not written like 2011-12."""


class EventSort(StrEnum):
    DATE = "date"  # the last day, latest first, grouped by month
    NAME = "name"

    @classmethod
    def parse(cls, text: str | None) -> EventSort:
        return next((sort for sort in cls if sort.value == text), cls.DATE)


def season_label(season: int) -> str:
    """2012 -> '2011-12': a season is named by the year it ends (1 June .. 31 May)."""
    return f"{season - 1}-{season % 100:02d}"


def parse_season(text: str) -> int:
    """'2011-12' -> 2012."""
    match = _SEASON.match(text.strip())
    if match is None or (int(match.group(1)) + 1) % 100 != int(match.group(2)):
        raise BadSeason(f"expected a season such as 2011-12, got {text.strip()!r}")
    return int(match.group(1)) + 1


def season_days(season: int) -> tuple[dt.date, dt.date]:
    """Its first and last day."""
    return dt.date(season - 1, 6, 1), dt.date(season, 5, 31)


@dataclass(frozen=True)
class SeasonCount:
    label: str  # 2011-12
    events: int


@dataclass(frozen=True)
class EventSummary:
    """A row of the events received."""

    code: str
    name: str
    kind: str
    kind_label: str
    start_date: dt.date
    end_date: dt.date
    rate: str  # standard, rapid or none (not graded)
    not_graded_reason: str
    rate_label: str
    status: str
    status_label: str
    games_graded: int
    games_not_graded: int

    @property
    def month(self) -> str:
        """May 2012: the month its last day falls in, which groups the list."""
        return f"{self.end_date:%B %Y}"

    @property
    def games(self) -> int:
        return self.games_graded + self.games_not_graded


@dataclass(frozen=True)
class EventsReceived:
    season: str | None  # 2011-12; None when nothing has been received
    seasons: tuple[SeasonCount, ...]  # every season with events received, latest first
    sort: EventSort
    page: Page[EventSummary]


def events_received(
    season: str | None = None,
    *,
    sort: EventSort = EventSort.DATE,
    page: int = 1,
    per_page: int = PER_PAGE,
) -> EventsReceived:
    """One page of a season's events received (default: the latest season with any)."""
    seasons = _seasons()
    chosen = parse_season(season) if season else max(seasons, default=None)
    counted = tuple(SeasonCount(season_label(s), n) for s, n in sorted(seasons.items())[::-1])
    if chosen is None:
        return EventsReceived(None, counted, sort, Page((), 1, per_page, 0))
    events = _received().filter(end_date__range=season_days(chosen))
    by_date = (F("end_date").desc(), F("start_date").desc(), F("code").asc())
    order = by_date if sort is EventSort.DATE else (Lower("name").asc(), F("code").asc())
    total = events.count()
    number = min(page, max(1, -(-total // per_page)))
    start, end = bounds(number, per_page)
    rows = list(events.order_by(*order)[start:end])
    counts = _game_counts([event.id for event in rows])
    found = tuple(_summary(event, counts.get(event.id, (0, 0))) for event in rows)
    return EventsReceived(season_label(chosen), counted, sort, Page(found, number, per_page, total))


def _received() -> QuerySet[Event]:
    return Event.objects.filter(status__in=PUBLIC_STATUSES).only(*_SUMMARY_FIELDS)


_SUMMARY_FIELDS = (
    "id", "code", "name", "kind", "start_date", "end_date", "rate", "not_graded_reason", "status",
)  # fmt: skip


def _seasons() -> dict[int, int]:
    """Season -> events received in it, counted once per data token (a group of every
    event received: 5 ms of a page on PostgreSQL at national size, issue 25)."""
    return dict(_seasons_under(data_token()))


def forget_seasons() -> None:
    """Drop the seasons counted (tests: a rolled-back database may come back to the same
    data token with other events)."""
    _seasons_under.cache_clear()


@functools.lru_cache(maxsize=4)
def _seasons_under(token: str) -> tuple[tuple[int, int], ...]:
    """One query, counting by last day (plain dates: SQLite would extract a year or a
    month by calling back into Python for every row); ``token`` only keys the cache (a
    status changed moves the events' ``updated_at``, and so the token)."""
    days = (
        Event.objects.filter(status__in=PUBLIC_STATUSES)
        .values_list("end_date")
        .annotate(n=Count("id"))
        .order_by()
    )
    seasons: dict[int, int] = {}
    for day, n in days:
        season = season_of(day)
        seasons[season] = seasons.get(season, 0) + n
    return tuple(seasons.items())


def _game_counts(event_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Event -> (graded, not graded) games, superseded results left out: one query."""
    if not event_ids:
        return {}
    rows = (
        _current_games()
        .filter(event_id__in=event_ids)
        .values("event_id")
        .annotate(
            counted=Count("id", filter=Q(graded=True)), left=Count("id", filter=Q(graded=False))
        )
        .values_list("event_id", "counted", "left")
        .order_by()
    )
    return {pk: (graded, other) for pk, graded, other in rows}


def _current_games() -> QuerySet[Game]:
    """The results as they stand: those replaced by a later submission are left out."""
    return Game.objects.exclude(not_graded_reason=NotGradedReason.SUPERSEDED)


def _summary(event: Event, counts: tuple[int, int]) -> EventSummary:
    return EventSummary(
        code=event.code,
        name=event.name,
        kind=event.kind,
        kind_label=event.get_kind_display(),
        start_date=event.start_date,
        end_date=event.end_date,
        rate=event.rate,
        not_graded_reason=event.not_graded_reason,
        rate_label=rate_label(event.rate, event.not_graded_reason),
        status=event.status,
        status_label=event.get_status_display(),
        games_graded=counts[0],
        games_not_graded=counts[1],
    )


def rate_label(rate: str, reason: str) -> str:
    """'standard', 'rapid', or 'not graded: lightning' (G2)."""
    if rate != PlayRate.NONE:
        return rate
    return f"not graded: {NotGradedReason(reason).label.lower()}" if reason else "not graded"


# -- one event ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One player of a game: linked by his code once identified."""

    code: str | None  # 123456A; None while the player is not yet identified
    name: str


@dataclass(frozen=True)
class GameRow:
    round: int | None
    board: int | None
    date: dt.date
    date_given: bool
    first: Side  # PIN1
    second: Side  # PIN2
    result: str  # the file's SCORE: 10, 01, 55, 1d, d1, dd
    result_label: str  # 1-0, 0-1, ½-½, 1-0 by default...
    colour: str  # PIN1's colour: W, B, or '' when not known
    graded: bool
    not_graded_reason: str
    reason_label: str  # why it is not graded, in words

    @property
    def first_colour(self) -> str:
        return {"W": "white", "B": "black"}.get(self.colour, "")

    @property
    def second_colour(self) -> str:
        return {"W": "black", "B": "white"}.get(self.colour, "")


@dataclass(frozen=True)
class Round:
    number: int | None  # None: the file gave no round
    games: tuple[GameRow, ...]

    @property
    def date(self) -> dt.date | None:
        """The day every game was played, when the file gave one day for all of them."""
        days = {(game.date, game.date_given) for game in self.games}
        return next(iter(days))[0] if len(days) == 1 and next(iter(days))[1] else None

    @property
    def all_graded(self) -> bool:
        return all(game.graded for game in self.games)


@dataclass(frozen=True)
class Part:
    """A part of the results: a section by rounds, a match by boards, or other games."""

    kind: str  # section, match or other
    name: str
    home: str  # a match's teams, as its name gives them ('Kent v Sussex')
    away: str
    rounds: tuple[Round, ...]  # a section's rounds; one round (None) for a match or others


@dataclass(frozen=True)
class EventDetail:
    code: str
    name: str
    kind: str
    kind_label: str
    start_date: dt.date
    end_date: dt.date
    season: str
    rate: str
    not_graded_reason: str
    rate_label: str
    time_control: str
    status: str
    status_label: str
    games_graded: int
    games_not_graded: int
    parts: tuple[Part, ...]


def find_event(code: str) -> str:
    """The event's code as recorded (codes are matched ignoring case)."""
    wanted = code.strip()
    found = Event.objects.filter(code=wanted).values_list("code", flat=True).first()
    if found is None:
        found = Event.objects.filter(code__iexact=wanted).values_list("code", flat=True).first()
    if found is None:
        raise EventNotFound(f"No event has the code {wanted!r}. See the events received.")
    return found


def event_detail(code: str) -> EventDetail:
    """The event with its results by part: two queries."""
    event = Event.objects.filter(code=code).first()
    if event is None:
        raise EventNotFound(f"No event has the code {code!r}. See the events received.")
    games = _games_of(event)
    parts = _parts(games)
    graded = sum(1 for _, row in games if row.graded)
    return EventDetail(
        code=event.code,
        name=event.name,
        kind=event.kind,
        kind_label=event.get_kind_display(),
        start_date=event.start_date,
        end_date=event.end_date,
        season=season_label(season_of(event.end_date)),
        rate=event.rate,
        not_graded_reason=event.not_graded_reason,
        rate_label=rate_label(event.rate, event.not_graded_reason),
        time_control=time_control_text(event),
        status=event.status,
        status_label=event.get_status_display(),
        games_graded=graded,
        games_not_graded=len(games) - graded,
        parts=parts,
    )


_GAME_COLUMNS = (
    "part_kind", "part_name", "round", "board", "game_date", "date_given", "result",
    "colour", "graded", "not_graded_reason",
    "player1__code", "player1__surname", "player1__forenames", "pending1__name",
    "player2__code", "player2__surname", "player2__forenames", "pending2__name",
)  # fmt: skip
_PartKey = tuple[str, str]  # kind, name
_RESULTS = dict(Result.choices)
_REASONS = dict(NotGradedReason.choices)


def _games_of(event: Event) -> list[tuple[_PartKey, GameRow]]:
    """The event's results as they stand, in the order they were recorded: one query."""
    return [_game(*row) for row in _EVENT_GAMES.rows(event.id)]


_EVENT_GAMES = Statement(
    lambda event_id: (
        _current_games().filter(event_id=event_id).order_by("sequence").values_list(*_GAME_COLUMNS)
    )
)


def _game(
    kind: str, part: str, round: int | None, board: int | None, day: dt.date, given: bool,
    result: str, colour: str, graded: bool, reason: str, *sides: Any,
) -> tuple[_PartKey, GameRow]:  # fmt: skip
    row = GameRow(
        round=round,
        board=board,
        date=day,
        date_given=given,
        first=_side(*sides[:4]),
        second=_side(*sides[4:]),
        result=result,
        result_label=_RESULTS[result],
        colour=colour,
        graded=graded,
        not_graded_reason=reason,
        reason_label=_REASONS.get(reason, "") if reason else "",
    )
    return (kind or str(Game.Part.OTHER), part), row


def _side(
    code: int | None, surname: str | None, forenames: str | None, pending: str | None
) -> Side:
    """A player on record by his code and name; one not yet identified by the file's name."""
    if code is not None:
        return Side(code_text(code), full_name(surname, forenames))
    return Side(None, pending or "")


def _parts(games: list[tuple[_PartKey, GameRow]]) -> tuple[Part, ...]:
    """Parts in the order the file gave them; a section's games by round, a match's by
    board, other games by date."""
    grouped: dict[_PartKey, list[GameRow]] = {}
    for key, row in games:
        grouped.setdefault(key, []).append(row)
    return tuple(_part(kind, name, rows) for (kind, name), rows in grouped.items())


def _part(kind: str, name: str, rows: list[GameRow]) -> Part:
    home, away = _teams(name) if kind == Game.Part.MATCH else ("", "")
    if kind == Game.Part.SECTION:
        numbers = sorted({row.round for row in rows}, key=lambda n: (n is None, n or 0))
        rounds = tuple(Round(n, tuple(r for r in rows if r.round == n)) for n in numbers)
        return Part(kind, name, home, away, rounds)
    if kind == Game.Part.MATCH:
        ordered = sorted(rows, key=lambda row: (row.board is None, row.board or 0))
    else:
        ordered = sorted(rows, key=lambda row: row.date)
    return Part(kind, name, home, away, (Round(None, tuple(ordered)),))


def _teams(name: str) -> tuple[str, str]:
    """'Kent v Sussex (U160)' -> ('Kent', 'Sussex'): home first, as match results are
    written (PIN1 is the home player)."""
    match = _MATCH.match(name.strip())
    if match is None:
        return "", ""
    return match.group("home"), match.group("away")


def time_control_text(event: Event) -> str:
    """The time control as the results file gave it, in words."""
    control = event.time_control()
    return "" if control is None else str(control)
