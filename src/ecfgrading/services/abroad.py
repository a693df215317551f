"""A direct member's results of an event played abroad (issue 11, item 4).

The seeds' FAQ allows one exception to "registered events only": direct members may
report their own results of non-registered events played outside England. The member's
form is turned into a results file in the project's format (``formats.write_results``),
checked exactly as any file is (``check_results``), and kept as a ``ForeignResult``
waiting for the grading team; the team accepts it, and it is then imported like any
file with the team member as its sender, or rejects it with a note. The member sees its
status on his page (``lookups.results_abroad``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rateplay import TimeControlInput
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.event_codes import abroad_code
from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_model import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
)
from ecfgrading.formats.results_writer import write_results
from ecfgrading.formats.values import format_day
from ecfgrading.lookups import clock
from ecfgrading.lookups.results_abroad import AbroadRow, abroad_row, result_abroad
from ecfgrading.registry.models import AuditLog, DirectMember, ForeignResult
from ecfgrading.registry.numbering import issue_abroad_code
from ecfgrading.services.errors import Conflict, ServiceError
from ecfgrading.services.locks import busy_as_error
from ecfgrading.services.mail import queue_mail
from ecfgrading.services.results.import_report import ImportReport
from ecfgrading.services.results.ingest import ImportResult, check_results, import_results

# The member's result, from his side of the board, as a results file's SCORE (G1).
SCORES = {"win": ResultCode.WIN, "draw": ResultCode.DRAW, "loss": ResultCode.LOSS}
COLOURS = {"white": Colour.WHITE, "black": Colour.BLACK, "": None}
MEMBER_PIN = 1


class AbroadError(ServiceError):
    """Results from abroad that cannot be taken: a file with errors, a decision made."""


@dataclass(frozen=True)
class AbroadGame:
    """One row of the form: a game of the member's."""

    round: int | None
    date: dt.date | None
    opponent: str  # 'Surname, Forenames'
    result: str  # win, draw or loss, for the member
    colour: str = ""  # white, black or '' (not known)
    fide_id: str = ""
    rating: int | None = None  # the opponent's rating there (FIDE or national)


@dataclass(frozen=True)
class AbroadEvent:
    """The form: the event, where and when, its time control, and the games."""

    name: str
    country: str
    start: dt.date
    end: dt.date
    control: TimeControlInput
    games: tuple[AbroadGame, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Built:
    """The results file made from a form, with its check report."""

    filename: str
    data: bytes
    report: ImportReport

    @property
    def lines(self) -> list[tuple[int, str]]:
        """The file's lines, numbered as the problems number them."""
        return list(enumerate(self.data.decode("utf-8").splitlines(), start=1))

    @property
    def problems(self) -> list[Problem]:
        return sorted(self.report.problems, key=lambda p: (p.line, p.severity != "error"))

    @property
    def ok(self) -> bool:
        return self.report.ok


# The code a file checked before it is sent carries: XA and a number no event abroad is
# given (the sequence starts at 1), so a check never names another event.
PREVIEW_CODE = abroad_code(0)


def date_window(today: dt.date) -> tuple[dt.date, dt.date]:
    """The first days an event abroad may have (issue 24, case 14): from the start of the
    period (G32) of the list before the one that grades a game played ``today`` (results
    sent late may still reach it, or its revision) to ``today``."""
    earliest = ListId.grading(today).before().p0().start
    return earliest, today


def build_file(member: DirectMember, event: AbroadEvent, code: str = PREVIEW_CODE) -> ResultsFile:
    """The results file of the member's games, in the project's format, coded ``code``
    (XA and a number in sequence: nothing of the member's, issue 24, case 7)."""
    player = member.player
    opponents = _opponents(event.games, club=abroad_club(event.country))
    name = (
        event.name
        if event.country.lower() in event.name.lower()
        else f"{event.name} ({event.country})"
    )
    details = EventDetails(
        code=code,
        submission_index=1,
        name=name,
        event_date=event.start,
        final_result_date=event.end,
        results_officer=player.name,
        # The form asks for no postal address (it is private): the member's number is
        # where the grading team finds him; he pays no fee for these games.
        results_officer_address=(f"Direct member {member.number}",),
        treasurer=player.name,
        treasurer_address=(f"Direct member {member.number}",),
        time_control=event.control.as_engine(),
    )
    me = PlayerEntry(
        pin=MEMBER_PIN,
        code_text=player.ref,
        name=player.name,
        membership_no=member.number,
        fide_no=str(player.fide_id or ""),
    )
    games = tuple(
        GameResult(
            pin1=MEMBER_PIN,
            score=SCORES[game.result],
            pin2=opponents[_who(game)].pin,
            colour=COLOURS[game.colour],
            game_date=game.date,
            round=game.round,
        )
        for game in event.games
    )
    part = ResultsPart(PartKind.SECTION, name=f"{event.country}: {event.name}"[:200], games=games)
    return ResultsFile(details, (me, *opponents.values()), (part,))


def _who(game: AbroadGame) -> tuple[str, str]:
    return (game.opponent.strip().casefold(), game.fide_id.strip())


def abroad_club(country: str) -> str:
    """The club an opponent abroad is recorded with: his country, said to be abroad (a
    player set needs a grading code or a club, and these players have neither)."""
    return f"{country.strip()} (abroad)"


def _opponents(games: tuple[AbroadGame, ...], *, club: str) -> dict[tuple[str, str], PlayerEntry]:
    """One player set per opponent (the same name and FIDE id met twice is one PIN)."""
    found: dict[tuple[str, str], PlayerEntry] = {}
    for game in games:
        key = _who(game)
        if key in found:
            continue
        rating = f"rating {game.rating} there" if game.rating else ""
        found[key] = PlayerEntry(
            pin=MEMBER_PIN + 1 + len(found),
            name=game.opponent.strip(),
            club_name=club,
            fide_no=game.fide_id.strip(),
            comment=rating,
        )
    return found


def _written(member: DirectMember, event: AbroadEvent, code: str) -> bytes:
    try:
        text = write_results(build_file(member, event, code))
    except ValueError as error:  # a name holding '#' or a line break
        raise AbroadError(f"expected names without '#' or line breaks: {error}") from None
    return text.encode("utf-8")


def check_abroad(member: DirectMember, event: AbroadEvent) -> Built:
    """Build the file and check it as any results file is checked, and its first day
    against ``date_window``; nothing is stored."""
    data = _written(member, event, PREVIEW_CODE)
    filename = "abroad-results.txt"
    (report,) = check_results([(filename, data)])
    built = Built(filename, data, report)
    window = _window_problems(built, event.start, date_window(clock.today()))
    return replace(built, report=replace(report, problems=(*report.problems, *window)))


def _window_problems(
    built: Built, start: dt.date, window: tuple[dt.date, dt.date]
) -> tuple[Problem, ...]:
    """An error when the first day is outside the window (a day after today is said once,
    by the file's own check, when it is after the clock's today too)."""
    earliest, latest = window
    future = any(p.code == "future-event" for p in built.report.problems)
    if earliest <= start <= latest or (start > latest and future):
        return ()
    line = next((n for n, text in built.lines if text.startswith("#EVENT DATE=")), 1)
    expected = (
        f"a first day from {format_day(earliest)} (the start of the period of the last"
        f" list results sent now can reach) to today, {format_day(latest)}"
    )
    return (Problem.make("date-outside-window", line, "EVENT DATE", expected, format_day(start)),)


def submit_abroad(member: DirectMember, event: AbroadEvent, *, user: Any = None) -> ForeignResult:
    """Keep the member's results for the grading team, if the file passes its check: the
    file kept is the one checked, given the next code of an event abroad."""
    built = check_abroad(member, event)
    if not built.ok:
        raise AbroadError(
            f"expected results without errors, got {len(built.report.errors)}: correct them first"
        )
    with transaction.atomic():
        code = issue_abroad_code()
        made = ForeignResult.objects.create(
            member=member,
            event_code=code,
            event_name=event.name,
            country=event.country,
            start_date=event.start,
            end_date=event.end,
            raw=_written(member, event, code),
        )
        AuditLog.record("submit results from abroad", made, user=user, games=len(event.games))
    return made


# --- the team's review and decision ---------------------------------------------------


@dataclass(frozen=True)
class Review:
    """One result from abroad as the team reviews it: the file and its check today."""

    row: AbroadRow
    built: Built


def review(result_id: int) -> Review:
    """The file as the member's form built it, checked again against today's records."""
    result = result_abroad(result_id)
    data = bytes(result.raw)
    filename = f"abroad-{result.pk}.txt"
    (report,) = check_results([(filename, data)])
    return Review(abroad_row(result), Built(filename, data, report))


def _pending(result_id: int) -> ForeignResult:
    result = result_abroad(result_id)
    if result.status != ForeignResult.Status.PENDING:
        raise Conflict(
            f"expected results waiting for a decision, got {result.get_status_display().lower()}"
        )
    return result


def _deciding(result_id: int) -> ForeignResult:
    """The results still waiting, their row locked till the caller's transaction ends:
    one decision, whoever else decides at the same moment (SQLite's write lock already
    serialises; PostgreSQL needs the row's)."""
    ForeignResult.objects.select_for_update().filter(pk=result_id).first()
    return _pending(result_id)


def accept_abroad(result_id: int, *, user: Any) -> ImportResult:
    """Import the file with the team member as its sender. A file the import rejects
    (the records changed since) stays pending, its submission kept, for a decision.

    The import is its own (it takes its turn and the registry lock); the decision, its
    audit entry and the member's mail follow in one transaction, the result locked for
    one decider. Should that fail, the file is on record and the result still pending:
    accepting again finds those bytes accepted already (``already``, imported once) and
    records the decision."""
    result = _pending(result_id)
    sender = user.get_full_name() or user.get_username()
    imported = import_results(
        bytes(result.raw), filename=f"abroad-{result.pk}.txt", sender=sender, user=user
    )
    with busy_as_error(f"accepting results from abroad {result_id}"), transaction.atomic():
        result = _deciding(result_id)
        result.submission_id = imported.submission_id
        fields = ["submission"]
        if imported.accepted:
            result.status = ForeignResult.Status.ACCEPTED
            result.decided_at, result.decided_by = timezone.now(), user
            fields += ["status", "decided_at", "decided_by"]
        result.save(update_fields=fields)
        action = (
            "accept results from abroad"
            if imported.accepted
            else "import of results from abroad rejected"
        )
        AuditLog.record(action, result, user=user, submission=imported.submission_id)
        if imported.accepted:
            _tell(result, "accepted", "They have been imported and will count in the next list.")
    return imported


def reject_abroad(result_id: int, *, user: Any, note: str) -> ForeignResult:
    """Reject with a note the member reads."""
    if not note.strip():
        raise AbroadError("expected a note saying why, for the member, got nothing")
    # One transaction: the decision, its audit entry and the member's mail (queued) are
    # written together or not at all, whatever stops it (a lock wait that ran out).
    with busy_as_error(f"rejecting results from abroad {result_id}"), transaction.atomic():
        result = _deciding(result_id)
        result.status = ForeignResult.Status.REJECTED
        result.decided_at, result.decided_by = timezone.now(), user
        result.decision_note = note.strip()
        result.save(update_fields=["status", "decided_at", "decided_by", "decision_note"])
        AuditLog.record("reject results from abroad", result, user=user, note=note.strip())
        _tell(result, "rejected", f"The grading team's note: {note.strip()}")
    return result


def _tell(result: ForeignResult, outcome: str, words: str) -> None:
    """The member hears of the decision by mail, when he gave an address."""
    member = result.member
    if not member.email:
        return
    queue_mail(
        "abroad",
        member.email,
        f"Your results from {result.event_name} were {outcome}",
        f"Dear {member.player.forenames or member.player.surname},\n\n"
        f"Your results of {result.event_name} ({result.country}, {result.start_date:%-d %B %Y})"
        f" were {outcome} by the grading team. {words}\n",
        key=f"abroad:{result.pk}:{outcome}",
    )
