"""Games already on record, found by what was played, not by how names are spelt.

A game's fingerprint is its two players as identified on record (their ids, after
identification), its day, its round and its result, with the two players in one order
and the result turned round with them: a file resent under a new code, with surnames
spelt otherwise, its players' codes given or not, or as part of a larger file (or a
smaller one), gives the same fingerprints as the file on record (issue 24, case 1).

Finding them costs one query a file (by the players' ids, indexed), not one a game.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache

from django.db import connection, models

from ecfgrading.engine.types import GRADED_RESULTS, RESULT_TEXT
from ecfgrading.formats.results_model import ResultsFile, rows_of
from ecfgrading.registry.bulk import IN_CHUNK, current, padded
from ecfgrading.registry.models import Game, Submission
from ecfgrading.services.results.write import event_dates, games_asked

# (lower player id, higher player id, day, round or None, result from the lower id's side)
Fingerprint = tuple[int, int, date, int | None, str]


def fingerprint(one: int, two: int, day: date, round_: int | None, result: str) -> Fingerprint:
    """'10' from the other side is '01', '1d' is 'd1'; '55' and 'dd' stay."""
    if two < one:
        return two, one, day, round_, result[::-1]
    return one, two, day, round_, result


@dataclass(frozen=True)
class Holding:
    """An accepted file of another event holding some of the games looked for."""

    submission_id: int
    event_id: int | None
    event_code: str
    submission_index: int | None
    games: int  # how many of the games looked for it holds

    @property
    def name(self) -> str:
        """'XX12345 (submission 3)', as reports name a file of an event."""
        return f"{self.event_code} (submission {self.submission_index or '?'})"


def file_fingerprints(results: ResultsFile, linked: Mapping[int, int]) -> Counter[Fingerprint]:
    """The graded games of a file between two players identified on record (``linked``:
    PIN -> player id); a game with a player not (yet) on record has no fingerprint."""
    event = results.event
    last_day = event_dates(event)[1] if event.event_date or event.final_result_date else None
    found: Counter[Fingerprint] = Counter()
    # A season's 200,000 games come through here: the result's text from each side
    # looked up rather than asked of the code and turned round (issue 25).
    sides, player = _SIDES, linked.get
    for part in results.parts:
        for pin1, score, pin2, _, day, _, round_, _, _ in rows_of(part.games):
            side = sides.get(score)
            one, two = player(pin1), player(pin2)
            day = day or last_day  # G3: undated, the event's last day
            if side is None or one is None or two is None or day is None:
                continue  # not graded, or a player not on record: no fingerprint
            if two < one:
                found[two, one, day, round_, side[1]] += 1
            else:
                found[one, two, day, round_, side[0]] += 1
    return found


# A graded result's text from PIN1's side and from PIN2's ('fingerprint'); ungraded
# results (G1) have none.
_SIDES = {code: (RESULT_TEXT[code], RESULT_TEXT[code][::-1]) for code in GRADED_RESULTS}


def held_elsewhere(wanted: Counter[Fingerprint], event_code: str) -> list[Holding]:
    """The accepted files of events other than ``event_code`` holding any of ``wanted``,
    each with how many (a game the file gives twice counts twice only if held twice),
    most first."""
    held, about = _held(wanted, event_code)
    if not held:
        return []  # the common case: nothing to match the file's games against
    asked = _by_game(wanted)  # once, not once a holder
    holdings = [
        Holding(sid, *about[sid], games=sum(matched(asked, found).values()))
        for sid, found in held.items()
    ]
    return sorted((h for h in holdings if h.games), key=lambda h: (-h.games, h.submission_id))


def held_anywhere(wanted: Counter[Fingerprint], event_code: str) -> Counter[Fingerprint]:
    """The games of ``wanted`` on record in accepted files of other events, all together."""
    held, _ = _held(wanted, event_code)
    if not held:
        return Counter()
    return matched(_by_game(wanted), sum(held.values(), Counter()))


_About = tuple[int | None, str, int | None]  # a file's event id, event code and index


def _held(
    wanted: Counter[Fingerprint], event_code: str
) -> tuple[dict[int, Counter[Fingerprint]], dict[int, _About]]:
    """Submission id -> the graded games between ``wanted``'s players in its days, of
    every accepted file of an event other than ``event_code``."""
    if not wanted:
        return {}, {}
    ones, twos, days, _, _ = zip(*wanted, strict=True)  # columns, for C to go through
    games_asked(zip(ones, twos, strict=True))  # a game of this turn's files
    rows = _games_between(set(ones).union(twos), min(days), max(days))
    held: dict[int, Counter[Fingerprint]] = defaultdict(Counter)
    about: dict[int, _About] = {}
    accepted = Submission.Status.ACCEPTED
    for one, two, day, round_, result, graded, sid, status, code, index, event_id in rows:
        if graded and status == accepted and code != event_code:
            held[sid][fingerprint(one, two, day, round_, result)] += 1
            about[sid] = (event_id, code, index)
    return held, about


_Game = tuple[int, int, date, str]  # a fingerprint without its round
_Asked = dict[_Game, "Counter[int | None]"]


def matched(asked: _Asked, held: Counter[Fingerprint]) -> Counter[Fingerprint]:
    """The games asked for (``_by_game``) that ``held`` holds, each at most as often as
    it is held. A round matches the same round; a game without one (a file that gives
    none) matches a game of any round, as often as those left over allow."""
    found: Counter[Fingerprint] = Counter()
    for game, rounds in _by_game(held).items():  # a holder's few, not all those asked
        wanted = asked.get(game)
        if wanted is None:
            continue
        for round_, count in _match_rounds(wanted, rounds).items():
            found[(*game[:3], round_, game[3])] = count
    return found


def _by_game(games: Counter[Fingerprint]) -> _Asked:
    grouped: dict[_Game, Counter[int | None]] = defaultdict(Counter)
    for (one, two, day, round_, result), count in games.items():
        grouped[(one, two, day, result)][round_] += count
    return grouped


def _match_rounds(asked: Counter[int | None], held: Counter[int | None]) -> Counter[int | None]:
    """How many of each asked round are held: the same round first, then a round given
    on one side only against what is left on the other."""
    found = asked & held
    if len(asked) == 1 and asked == found:  # the common case: one round, all held
        return found
    asked, held = asked - found, held - found  # no round is left on both sides now
    free = held.pop(None, 0)  # held games without a round: any asked round matches them
    unrounded = min(asked.pop(None, 0), sum(held.values()) + free)
    free -= max(0, unrounded - sum(held.values()))  # the rounded held games go first
    if unrounded:
        found[None] += unrounded
    for round_, count in sorted(asked.items()):
        taken = min(count, free)
        if taken:
            found[round_] += taken
            free -= taken
    return found


def submission_games(submission_id: int) -> dict[int, Fingerprint]:
    """Game id -> fingerprint of the graded games on record of one file between two
    players on record."""
    rows = Game.objects.filter(
        submission_id=submission_id,
        graded=True,
        player1__isnull=False,
        player2__isnull=False,
    ).values_list("id", "player1_id", "player2_id", "game_date", "round", "result")
    return {pk: fingerprint(*row) for pk, *row in rows}


_Row = tuple[int, int, date, int | None, str, bool, int, str, str, int | None, int | None]


def _games_between(players: set[int], first: date, last: date) -> list[_Row]:
    """Every graded game on record between two of ``players`` from ``first`` to
    ``last``, with its file's status, event code and index: one statement (one per
    IN_CHUNK players of the first side). Only the players' indexes in SQL: filtering on
    rate or status there led SQLite to scan a whole rate instead; ``graded`` is the
    index's second column, and with it the days bound the scan of each player's games
    (issue 25: a player's games of every season were read before, 0.9 -> 0.5 ms a file
    on the national demo). A plain statement: it runs for every file checked, and
    building it through the ORM costs more than the database takes."""
    ids = sorted(players)
    others = padded(ids)  # the second side: each chunk of the first asks for all
    db = current()
    when = [db.ops.adapt_datefield_value(day) for day in (first, last)]
    rows: list[_Row] = []
    with db.cursor() as cursor:
        for start in range(0, len(ids), IN_CHUNK):
            chunk = padded(ids[start : start + IN_CHUNK])
            sql = _between_sql(db.vendor, len(chunk), len(others))
            cursor.execute(sql, [*chunk, *others, True, *when])
            rows += [_typed(row) for row in cursor.fetchall()]
    return rows


# PostgreSQL plans _games_between by the games table's statistics. Without them (a new
# registry, autovacuum off or not run yet) it reads a season's games by their date for
# each file: 30 ms a file where 0.5 ms will do, a fifth of a national season's import.
# An importer that has written as many games as the table held when they were last
# taken, and at least STATISTICS_EVERY, takes them again (as autovacuum would).
STATISTICS_EVERY = 10_000


class GameStatistics:
    """The games an importer wrote since the games table's statistics were taken."""

    def __init__(self) -> None:
        self.written, self.due = 0, STATISTICS_EVERY

    def wrote(self, games: int) -> bool:
        """``games`` more written; whether the statistics were taken again (never on
        SQLite, whose plan for _games_between needs none). Called between turns, outside
        the importers' lock: ANALYZE waits for another session's ANALYZE of the table."""
        self.written += games
        if connection.vendor != "postgresql" or self.written < self.due:
            return False
        table = Game._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
            cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [table])
            (held,) = cursor.fetchone()
        self.written, self.due = 0, max(STATISTICS_EVERY, int(held))
        return True


def _typed(row: tuple) -> _Row:  # type: ignore[type-arg]
    """SQLite answers dates as text in a plain statement."""
    day = row[2] if isinstance(row[2], date) else date.fromisoformat(str(row[2]))
    return (row[0], row[1], day, row[3], row[4], bool(row[5]), *row[6:])


@cache
def _between_sql(vendor: str, first: int, second: int) -> str:
    """The statement for ``first`` players of one side and ``second`` of the other (a few
    padded counts, made once each: a season checks 1,500 files)."""
    quote = connection.ops.quote_name
    first_side, second_side = (", ".join(["%s"] * count) for count in (first, second))

    def column(model: type[models.Model], alias: str, name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, models.Field)
        return f"{alias}.{quote(field.column)}"

    def game(name: str) -> str:
        return column(Game, "g", name)

    def sent(name: str) -> str:
        return column(Submission, "s", name)

    selected = [
        *(game(name) for name in ("player1", "player2", "game_date", "round", "result")),
        *(game(name) for name in ("graded", "submission")),
        *(sent(name) for name in ("status", "event_code", "submission_index", "event")),
    ]
    return (
        f"SELECT {', '.join(selected)} "
        f"FROM {quote(Game._meta.db_table)} g JOIN {quote(Submission._meta.db_table)} s "
        f"ON s.{quote(Submission._meta.pk.column)} = {game('submission')} "
        f"WHERE {game('player1')} IN ({first_side}) AND {game('player2')} IN ({second_side}) "
        f"AND {game('graded')} = %s AND {game('game_date')} BETWEEN %s AND %s"
    )
