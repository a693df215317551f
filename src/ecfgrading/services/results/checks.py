"""A results file held against the registry: what it would refuse, cut or count twice.

The reader checks a file against results-file.md. These checks find, before anything is
written, what the database would refuse on PostgreSQL and keep (or cut) on SQLite, so
that a file gets the same report on both: every value must fit its column, with one set
of limits read from the models. They also find an event not yet played and games already
on record under another event code. ``refusal_problem`` reports what the database still
refuses, in its own words, at the line that gave the refused value when it can be told.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

from django.db import connection, models
from django.db.backends.base.operations import BaseDatabaseOperations

from ecfgrading.engine.rateplay import CONTROL_FIELDS, TimeControl, rate_of_play
from ecfgrading.engine.types import NotGraded, Rate
from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_model import EventDetails, ResultsFile
from ecfgrading.formats.values import format_day
from ecfgrading.registry.models import Event, Game, Player, PlayRate, Submission
from ecfgrading.services.people import overflows, too_long
from ecfgrading.services.results.same_games import Holding, file_fingerprints, held_elsewhere
from ecfgrading.services.results.write import store_time_control

# Integer columns by field class. The PostgreSQL backend uses Django's base table as it
# is; SQLite stores any integer, so PostgreSQL's limits are the one set both obey.
_INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges

# An officer an hour ahead of the server's clock may send a one-day event on its own day
# while the server still sees the day before.
FUTURE_SLACK = timedelta(days=1)


def registry_problems(
    results: ResultsFile, linked: Mapping[int, int], *, today: date
) -> list[Problem]:
    """Every value the registry cannot hold, an event not yet played, and games already
    received under another event code; the last needs the database, one or two queries."""
    return [*value_problems(results, today=today), *resent_problems(results, linked)]


def value_problems(results: ResultsFile, *, today: date) -> list[Problem]:
    """The problems that need no database: column widths and ranges, and the date."""
    return [*_event_problems(results.event), *_game_problems(results), *_future(results, today)]


# --- columns ------------------------------------------------------------------------------


def _column(model: type[models.Model], name: str) -> models.Field:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def _event_problems(event: EventDetails) -> Iterator[Problem]:
    def at(label: str) -> int:
        return event.field_lines.get(label, event.line)

    for label, column, text in _event_texts(event):
        if problem := too_long(at(label), label, column, text):
            yield problem
    for label, column, number in _event_numbers(event):
        if problem := out_of_range(at(label), label, column, number):
            yield problem


def _event_texts(event: EventDetails) -> list[tuple[str, models.Field, str]]:
    # The EVENT CODE's width is the federation's pattern's (formats.event_codes, checked
    # by the reader), which is the registry's: tests/services/test_checks.py holds them equal.
    texts = [
        ("EVENT NAME", _column(Event, "name"), event.name),
        ("RESULTS OFFICER", _column(Event, "officer_name"), event.results_officer),
    ]
    if event.time_control is not None:
        environment = event.time_control.environment
        texts.append(("ENVIRONMENT", _column(Event, "environment"), environment))
    return texts


def _event_numbers(event: EventDetails) -> list[tuple[str, models.Field, int | None]]:
    index = _column(Submission, "submission_index")
    numbers = [("SUBMISSION INDEX", index, event.submission_index)]
    if event.time_control is not None:
        stored = Event()
        store_time_control(stored, event.time_control)  # rounded as the writer stores them
        for name in CONTROL_FIELDS:
            label = name.upper().replace("_", " ")
            numbers.append((label, _column(Event, name), getattr(stored, name)))
    return numbers


def _game_problems(results: ResultsFile) -> Iterator[Problem]:
    part_name, comment = _column(Game, "part_name"), _column(Game, "comment")
    board, round_ = _column(Game, "board"), _column(Game, "round")
    # Every game of a season passes here: the limits are looked up once a file, and a
    # value within them costs a comparison (the functions word the rare problem).
    low, high = _INTEGER_RANGES[board.get_internal_type()]
    low_round, high_round = _INTEGER_RANGES[round_.get_internal_type()]
    widest = comment.max_length or 0
    for part in results.parts:
        if problem := cut_short(part.line, part.kind.value, part_name, part.name):
            yield problem
        for game in part.games:
            if game.board is not None and not low <= game.board <= high:
                yield from _found(out_of_range(game.line, "BOARD", board, game.board))
            if game.round is not None and not low_round <= game.round <= high_round:
                yield from _found(out_of_range(game.line, "ROUND", round_, game.round))
            if len(game.comment) > widest:
                yield from _found(cut_short(game.line, "COMMENT", comment, game.comment))


def _found(problem: Problem | None) -> Iterator[Problem]:
    if problem is not None:
        yield problem


def out_of_range(line: int, label: str, column: models.Field, number: int | None) -> Problem | None:
    """A problem when ``number`` is outside what ``column`` holds on PostgreSQL."""
    if number is None:
        return None
    low, high = _INTEGER_RANGES[column.get_internal_type()]
    if low <= number <= high:
        return None
    expected = f"at most {high}" if number > high else f"at least {low}"
    return Problem.make("out-of-range", line, label, expected, str(number))


def cut_short(line: int, label: str, column: models.Field, text: str) -> Problem | None:
    """A warning when free text is wider than ``column``: the writer keeps its start."""
    if not overflows(column, text):
        return None
    expected = f"at most {column.max_length} characters (the rest is not kept)"
    return Problem.make("cut-short", line, label, expected, text)


# --- the rate of play the event was registered with -----------------------------------------

_CONTROL_LABELS = (
    "MINUTES FOR GAME",
    "MOVES FIRST SESSION",
    "MINUTES FIRST SESSION",
    "MOVES SECOND SESSION",
    "MINUTES SECOND SESSION",
    "MINUTES REST OF GAME",
    "SECONDS PER MOVE",
    "ENVIRONMENT",
)


def rate_problems(results: ResultsFile, registered: str | None) -> list[Problem]:
    """An error when the file's time control gives another rate of play (G2) than the
    event on record was registered with (``registered``, EventOnRecord.rate): the
    registered rate is the contract, and a file must not turn a standard event rapid
    (issue 24, case 4). The event is loaded only to report."""
    details = results.event
    control = details.time_control
    if control is None or not details.code:
        return []
    found = rate_of_play(control)
    given = found.value if isinstance(found, Rate) else PlayRate.NONE
    if registered is None or given == registered:
        return []
    event = Event.objects.get(code=details.code)
    given_lines = [
        details.field_lines[label] for label in _CONTROL_LABELS if label in details.field_lines
    ]
    line = min(given_lines, default=details.line)
    label = next((k for k in _CONTROL_LABELS if details.field_lines.get(k) == line), "")
    expected = f"the rate of play {event.code} was registered with, {_registered(event)}"
    return [Problem.make("rate-not-registered", line, label, expected, _rate_words(found, control))]


@dataclass(frozen=True)
class EventOnRecord:
    """What the records hold of a file's event: the rate of play it was registered with
    (None: no event on record) and the highest SUBMISSION INDEX accepted or since
    superseded (None: none)."""

    rate: str | None = None
    highest_index: int | None = None
    asked: bool = False  # whether the records were asked: if so, a rate of None says no event

    @property
    def known(self) -> bool | None:
        """Whether the event is on record; None when the records were not asked."""
        return self.rate is not None if self.asked else None


def event_on_record(event: EventDetails) -> EventOnRecord:
    """One plain statement for both (it runs for every file, under the importers' lock;
    two were a round trip more on PostgreSQL, issue 25); none for a file that gives
    neither a time control nor a SUBMISSION INDEX to hold against them."""
    code = event.code
    if not code or (event.time_control is None and event.submission_index is None):
        return EventOnRecord()
    with connection.cursor() as cursor:
        cursor.execute(_on_record_sql(connection.vendor), [code, code, *_DONE])
        registered, last = cursor.fetchone()
    return EventOnRecord(
        None if registered is None else str(registered),
        None if last is None else int(last),
        asked=True,
    )


_DONE = (str(Submission.Status.ACCEPTED), str(Submission.Status.SUPERSEDED))


@cache
def _on_record_sql(vendor: str) -> str:
    """``event_on_record``'s statement, made once (its text was made for each file)."""
    quote = connection.ops.quote_name
    event, sent = quote(Event._meta.db_table), quote(Submission._meta.db_table)
    rate, key = (quote(Event._meta.get_field(name).column) for name in ("rate", "code"))
    index, event_code, status = (
        quote(Submission._meta.get_field(name).column)
        for name in ("submission_index", "event_code", "status")
    )
    return (
        f"SELECT (SELECT {rate} FROM {event} WHERE {key} = %s), "
        f"(SELECT MAX({index}) FROM {sent} WHERE {event_code} = %s AND {status} IN (%s, %s))"
    )


def _registered(event: Event) -> str:
    """'standard (36 moves in 90 min, then 15 min)', or the rate alone when the event was
    registered without a time control."""
    control = event.time_control()
    words = event.rate if event.rate != PlayRate.NONE else f"not graded, {event.not_graded_reason}"
    return f"{words} ({control})" if control is not None else str(words)


def _rate_words(found: Rate | NotGraded, control: TimeControl) -> str:
    words = found.value if isinstance(found, Rate) else f"not graded, {found.value}"
    return f"{words} ({control})"


# --- an event not yet played ---------------------------------------------------------------


def _future(results: ResultsFile, today: date) -> list[Problem]:
    """An error, not a warning: results of games not played are a typing mistake (often
    the year), and graded they would sit in a period no list has reached."""
    event = results.event
    first = event.event_date
    if first is None or first <= today + FUTURE_SLACK:
        return []
    line = event.field_lines.get("EVENT DATE", event.line)
    expected = f"a day already played, not after {format_day(today)}"
    return [Problem.make("future-event", line, "EVENT DATE", expected, format_day(first))]


# --- the same games under another event code -----------------------------------------------


def resent_problems(results: ResultsFile, linked: Mapping[int, int]) -> list[Problem]:
    """A warning for each accepted file of another event that holds graded games of this
    one, found by who played, when, in which round and with what result (same_games), with
    how many: they would count twice. A warning, not an error: the grading team decides
    (the file corrects that event, only its new games count, or it is rejected), and a
    coincidence must not block a file.

    ``linked`` maps the PINs identified as players on record (or most likely them) to
    their ids: games sent again are between the same people, whom identification finds
    however they are spelt. One query, none when no player is on record.
    """
    if _graded_rate(results.event) is None:
        return []
    holdings = held_elsewhere(file_fingerprints(results, linked), results.event.code)
    if not holdings:
        return []  # nearly every file: its graded games not counted for nothing
    total = sum(1 for _, game in results.games() if game.score.graded)
    line = _event_code_line(results)
    return [already_received(line, holding, total) for holding in holdings]


def already_received(line: int, holding: Holding, total: int) -> Problem:
    """'4060 of its 7860 graded games, on record under CG130098 (submission 1)'."""
    expected = "games not yet on record under another event code"
    got = f"{holding.games} of its {total} graded games, on record under {holding.name}"
    return Problem.make("games-already-received", line, "EVENT CODE", expected, got)


def _graded_rate(event: EventDetails) -> Rate | None:
    """The rate the event's games are graded at; None when they are not (G1, G2), or
    when the file gives no EVENT DATE (an error of its own)."""
    rate = rate_of_play(event.time_control) if event.time_control else None
    return rate if isinstance(rate, Rate) and event.event_date else None


# --- what the database refused all the same ---------------------------------------------

# PostgreSQL names the row of a COPY that it refused ('COPY registry_game, line 2, column
# board: "40000"'), and the key of a unique constraint ('Key (code)=(261619)').
_COPY_ROW = re.compile(r"COPY (?P<table>\w+), line (?P<row>\d+)(?:, column (?P<column>\w+))?")
_KEY = re.compile(r"Key \((?P<column>\w+)\)=\((?P<value>[^)]*)\)")
_GAME_LABELS = {
    "board": "BOARD",
    "round": "ROUND",
    "comment": "COMMENT",
    "game_date": "GAME DATE",
    "colour": "COLOUR",
    "result": "SCORE",
}


def refusal_problem(results: ResultsFile, error: Exception) -> Problem:
    """What the database (or the code sequence) refused, in its own words, at the line
    that gave the refused value when the database says which, else at the EVENT CODE."""
    said = database_said(error)
    line, label = _refused_at(results, str(error))
    return Problem.make("import-conflict", line, label, "a file the registry can store", said)


def database_said(error: Exception) -> str:
    """The message on one line, without PostgreSQL's CONTEXT (rows of ours, not lines of
    the file: the problem's line says where)."""
    kept = [text.strip() for text in str(error).splitlines() if not text.startswith("CONTEXT:")]
    return " ".join(text for text in kept if text) or type(error).__name__


def _refused_at(results: ResultsFile, said: str) -> tuple[int, str]:
    copied = _COPY_ROW.search(said)
    if copied and copied["table"] == Game._meta.db_table:
        return _game_at(results, int(copied["row"]), copied["column"] or "")
    key = _KEY.search(said)
    if key and Player._meta.db_table in said and key["column"] == "code":
        for entry in results.players:
            if entry.code is not None and str(entry.code.number) == key["value"]:
                return entry.line, "ECF CODE"
    return _event_code_line(results), "EVENT CODE"


def _event_code_line(results: ResultsFile) -> int:
    return results.event.field_lines.get("EVENT CODE", results.event.line)


def _game_at(results: ResultsFile, row: int, column: str) -> tuple[int, str]:
    """The writer copies the games in the file's order, so row n is the file's n-th game."""
    for number, (part, game) in enumerate(results.games(), start=1):
        if number == row:
            if column == "part_name":
                return part.line, part.kind.value
            return game.line, _GAME_LABELS.get(column, "")
    return _event_code_line(results), "EVENT CODE"
