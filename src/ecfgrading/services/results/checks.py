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
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, timedelta
from functools import lru_cache

from django.db import connection, models
from django.db.backends.base.operations import BaseDatabaseOperations

from ecfgrading.engine.rateplay import CONTROL_FIELDS, rate_of_play
from ecfgrading.engine.types import Rate
from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_model import EventDetails, GameResult, ResultsFile
from ecfgrading.formats.values import format_day
from ecfgrading.matching.names import surname_key
from ecfgrading.registry.models import Event, Game, Player, Submission
from ecfgrading.services.people import from_entry, normalise, overflows, too_long
from ecfgrading.services.results.write import event_dates, store_time_control

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


def _narrowest(*columns: models.Field) -> models.Field:
    """Of the columns one value is stored in, the one that holds the least."""
    return min(columns, key=lambda column: column.max_length or 0)


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
    code = _narrowest(_column(Event, "code"), _column(Submission, "event_code"))
    texts = [
        ("EVENT CODE", code, event.code),
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

# A graded game as both a file and the registry can tell it: its day, the result from
# the first side, and the two surname keys in order. Codes are left out: a resent file
# may give them where the first gave none, and the registry issued new players theirs.
Fingerprint = tuple[date, str, str, str]


def fingerprint(day: date, result: str, one: str, two: str) -> Fingerprint:
    """From two surname keys (``matching.names.surname_key``): 'Müller' and 'MULLER' agree."""
    if two < one:
        return day, result[::-1], two, one  # '10' from the other side is '01'; '55' stays
    return day, result, one, two


def resent_problems(results: ResultsFile, linked: Mapping[int, int]) -> list[Problem]:
    """A warning when every graded game of the file is on record in one accepted file of
    another event: counted twice otherwise. A warning, not an error: the grading team may
    know better (an event given a new code), and a coincidence must not block a file.

    ``linked`` maps the PINs identified as players on record to their ids: games sent
    again are between the same people, whom identification links.
    """
    expected = "games not yet received under another event code"
    line = _event_code_line(results)
    return [
        Problem.make("games-already-received", line, "EVENT CODE", expected, holder)
        for holder in _holders(results, linked)
    ]


def _holders(results: ResultsFile, linked: Mapping[int, int]) -> list[str]:
    """'XX12345 (submission 3)' for each accepted file of another event holding them all.

    One query, by the players' ids (indexed), finds the files holding the file's first
    graded game between two linked players; only if there are any are the file's games
    compared with theirs.
    """
    # Linked PINs are in the player list, so the first game needs no surnames: they are
    # worked out (normalised again) only for the rare file that finds a holder.
    rate = _graded_rate(results.event)
    first = next((g for _, g in results.games() if _graded(g, linked)), None)
    if rate is None or first is None:
        return []
    pair = (linked[first.pin1], linked[first.pin2])
    candidates = _holding(results.event.code, rate, _day(results, first), pair)
    if not candidates:
        return []
    wanted = _fingerprints(results, _surnames(results))
    held = _games_of(candidates, min(wanted)[0], max(wanted)[0])
    return [name for sid, name in sorted(candidates.items()) if not wanted - held[sid]]


def _graded_rate(event: EventDetails) -> Rate | None:
    """The rate the event's games are graded at; None when they are not (G1, G2), or
    when the file gives no EVENT DATE (an error of its own)."""
    rate = rate_of_play(event.time_control) if event.time_control else None
    return rate if isinstance(rate, Rate) and event.event_date else None


def _surnames(results: ResultsFile) -> dict[int, str]:
    """PIN -> surname, as the registry keeps it."""
    return {entry.pin: normalise(from_entry(entry))[0].surname for entry in results.players}


def _graded(game: GameResult, players: Mapping[int, object]) -> bool:
    """Graded, between two of ``players`` (a PIN not in the list is an error of the file)."""
    return game.score.graded and game.pin1 in players and game.pin2 in players


def _day(results: ResultsFile, game: GameResult) -> date:
    return game.game_date or event_dates(results.event)[1]  # G3: undated, the last day


def _fingerprints(results: ResultsFile, surnames: dict[int, str]) -> Counter[Fingerprint]:
    keys = {pin: surname_key(surname) for pin, surname in surnames.items()}
    return Counter(
        fingerprint(_day(results, game), game.score.text, keys[game.pin1], keys[game.pin2])
        for _, game in results.games()
        if _graded(game, surnames)
    )


def _holding(code: str, rate: Rate, day: date, pair: tuple[int, int]) -> dict[int, str]:
    # Only the two players' index lookups in SQL (a day's games between two people are a
    # handful): filtering on rate or status there led SQLite to scan a whole rate instead.
    # A plain statement: it runs for every file, and building it through the ORM cost
    # ten times what the database takes to answer it.
    one, two = pair
    with connection.cursor() as cursor:
        when = connection.ops.adapt_datefield_value(day)
        cursor.execute(_holding_sql(), [one, two, two, one, when])
        rows = cursor.fetchall()
    return {
        sid: f"{event} (submission {index})"
        for game_rate, graded, sid, status, event, index in rows
        if game_rate == rate.value
        and graded
        and status == Submission.Status.ACCEPTED
        and event != code
    }


def _holding_sql() -> str:
    """The games between two players on one day, with their submissions' status, event
    code and index; columns named by the models."""
    quote = connection.ops.quote_name

    def game(name: str) -> str:
        return f"g.{quote(_column(Game, name).column)}"

    def sent(name: str) -> str:
        return f"s.{quote(_column(Submission, name).column)}"

    one, two = game("player1"), game("player2")
    return (
        f"SELECT {game('rate')}, {game('graded')}, {game('submission')}, {sent('status')}, "
        f"{sent('event_code')}, {sent('submission_index')} "
        f"FROM {quote(Game._meta.db_table)} g JOIN {quote(Submission._meta.db_table)} s "
        f"ON s.{quote(Submission._meta.pk.column)} = {game('submission')} "
        f"WHERE (({one} = %s AND {two} = %s) OR ({one} = %s AND {two} = %s)) "
        f"AND {game('game_date')} = %s"
    )


def _games_of(
    submissions: Iterable[int], first: date, last: date
) -> dict[int, Counter[Fingerprint]]:
    rows = Game.objects.filter(
        submission_id__in=list(submissions), graded=True, game_date__range=(first, last)
    ).values_list(
        "submission_id",
        "game_date",
        "result",
        "player1__surname",
        "pending1__surname",
        "player2__surname",
        "pending2__surname",
    )
    held: dict[int, Counter[Fingerprint]] = defaultdict(Counter)
    for sid, day, result, player1, pending1, player2, pending2 in rows:
        one, two = _key(player1 or pending1 or ""), _key(player2 or pending2 or "")
        held[sid][fingerprint(day, result, one, two)] += 1
    return held


_key = lru_cache(maxsize=4096)(surname_key)  # a league's few hundred names, over and over


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
