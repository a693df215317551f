"""Events chased and events received (grading help: checking, items a and c)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.timezone import localtime

from ecfgrading.engine.periods import ListId
from ecfgrading.lookups.reports.common import TeamReport
from ecfgrading.registry.models import Event, Game, Submission

ACCEPTED = Submission.Status.ACCEPTED


@dataclass(frozen=True)
class OverdueEvent:
    code: str
    name: str
    kind: str
    end_date: date
    deadline: date
    days_overdue: int
    officer: str


@dataclass(frozen=True)
class OverdueReport(TeamReport):
    today: date
    events: tuple[OverdueEvent, ...]

    def to_text(self) -> str:
        lines = [f"Results overdue on {self.today.isoformat()}: {len(self.events)} events"]
        lines += [
            f"  {e.days_overdue:4d} days  {e.code} {e.name} ({_kind(e.kind)}), ended "
            f"{e.end_date.isoformat()}, due {e.deadline.isoformat()}; officer {e.officer or '-'}"
            for e in self.events
        ]
        return "\n".join(lines)


@dataclass(frozen=True)
class ReceivedEvent:
    code: str
    name: str
    kind: str
    start_date: date
    end_date: date
    rate: str
    games_graded: int
    submission_index: int | None
    received_at: datetime


@dataclass(frozen=True)
class ReceivedReport(TeamReport):
    season_end_year: int
    season_start: date
    season_end: date
    events: tuple[ReceivedEvent, ...]

    def to_text(self) -> str:
        lines = [
            f"Events received for grading, season {self.season_start.isoformat()}.."
            f"{self.season_end.isoformat()}: {len(self.events)}"
        ]
        lines += [_received_line(e) for e in self.events]
        return "\n".join(lines)


def events_overdue(today: date) -> OverdueReport:
    """The chase list: registered events past their results deadline with no results
    accepted, oldest deadline first."""
    events = (
        Event.objects.filter(status=Event.Status.REGISTERED, results_deadline__lt=today)
        .exclude(Exists(_accepted()))
        .select_related("grading_officer")
        .order_by("results_deadline", "code")
    )
    return OverdueReport(today, tuple(_overdue(event, today) for event in events))


def events_received(season_end_year: int) -> ReceivedReport:
    """Events that ended in the season (1 June to 31 May) with results accepted,
    in the order their latest accepted results arrived."""
    # The season is the P0 of that year's July list.
    season = ListId(season_end_year, 7).p0()
    latest = _accepted().order_by("-submission_index", "-received_at")
    events = (
        Event.objects.filter(end_date__range=(season.start, season.end))
        .filter(Exists(_accepted()))
        .annotate(
            latest_index=Subquery(latest.values("submission_index")[:1]),
            latest_received=Subquery(latest.values("received_at")[:1]),
            graded_games=Coalesce(Subquery(_graded_count()), 0),
        )
        .order_by("latest_received", "code")
    )
    return ReceivedReport(
        season_end_year, season.start, season.end, tuple(_received(e) for e in events)
    )


def _accepted() -> QuerySet[Submission]:
    return Submission.objects.filter(event=OuterRef("pk"), status=ACCEPTED)


def _graded_count() -> QuerySet[Game]:
    # Superseded games are marked not graded, so this counts the latest results only.
    games = Game.objects.filter(event=OuterRef("pk"), graded=True).order_by()
    return games.values("event").annotate(n=Count("pk")).values("n")


def _overdue(event: Event, today: date) -> OverdueEvent:
    assert event.results_deadline is not None  # filtered on it
    return OverdueEvent(
        event.code,
        event.name,
        event.kind,
        event.end_date,
        event.results_deadline,
        (today - event.results_deadline).days,
        _officer(event),
    )


def _received(event: Event) -> ReceivedEvent:
    return ReceivedEvent(
        event.code,
        event.name,
        event.kind,
        event.start_date,
        event.end_date,
        event.rate,
        event.graded_games,
        event.latest_index,
        event.latest_received,
    )


def _officer(event: Event) -> str:
    """The name the event gave, else the grading officer's account."""
    if event.officer_name:
        return event.officer_name
    user = event.grading_officer
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _received_line(e: ReceivedEvent) -> str:
    return (
        f"  {localtime(e.received_at):%Y-%m-%d %H:%M}  {e.code} {e.name} "
        f"({_kind(e.kind)}, {e.rate}), {e.start_date.isoformat()}..{e.end_date.isoformat()}: "
        f"{e.games_graded} games graded, submission {e.submission_index or '-'}"
    )


def _kind(kind: str) -> str:
    return str(Event.Kind(kind).label) if kind in Event.Kind.values else kind
