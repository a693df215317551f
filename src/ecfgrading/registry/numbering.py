"""Numbers the registry issues: grading codes (G28), the recording order of games and
the codes of events abroad.

Each counter is a locked row, so two imports running at once never get the same
number, and a high-water mark, so a number whose record was deleted or merged is
never issued again.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from django.db import connection, transaction

from ecfgrading.engine.codes import LAST_CODE, GradingCode
from ecfgrading.errors import Conflict, ErrorKind, NotFound, ServiceError, user_input
from ecfgrading.formats.event_codes import abroad_code
from ecfgrading.registry.bulk import in_chunks
from ecfgrading.registry.models import Event, Player, PlayerAlias, Sequence


def issue_code() -> GradingCode:
    """G28: the next grading code in sequence, with its check letter."""
    return issue_codes(1)[0]


def issue_codes(count: int) -> list[GradingCode]:
    """``count`` new codes in sequence, skipping any number already held (G28).

    The high-water mark follows what the system issued and what a list import
    loaded, never a code quoted in a results file: one mistyped 999998L would
    otherwise use up every code above it. Three statements, however many codes: the
    counter read and locked, the numbers held above it, the counter moved on.
    """
    with transaction.atomic(savepoint=False):  # the lock lasts to the caller's commit
        start = _advanced(Sequence.GRADING_CODES, 0)
        codes, last = _free_codes(start, count)
        if len(codes) == count and last != start:
            _advanced(Sequence.GRADING_CODES, last - start)
    if len(codes) < count:  # raised outside, so a caller's transaction stays usable
        raise CodesExhausted(
            f"the grading codes are used up (the last is {LAST_CODE}); "
            "the federation must extend the code format"
        )
    return codes


def _free_codes(last: int, count: int) -> tuple[list[GradingCode], int]:
    """Up to ``count`` numbers after ``last`` that no one holds, and the last one looked
    at; fewer only when the codes run out."""
    codes: list[GradingCode] = []
    while len(codes) < count and last < LAST_CODE:
        high = min(last + count - len(codes) + 1000, LAST_CODE)
        held = _held_between(last, high)
        while len(codes) < count and last < high:
            last += 1
            if last not in held:
                codes.append(GradingCode(last))
    return codes, last


class CodesExhausted(Conflict):
    """No six-digit grading code is left to issue."""


def _held_between(low: int, high: int) -> set[int]:
    """Numbers in (low, high] held by a player or an alias: one statement."""
    quote = connection.ops.quote_name

    def held(model: type[Player] | type[PlayerAlias]) -> str:
        code = quote(model._meta.get_field("code").column)
        return (
            f"SELECT {code} FROM {quote(model._meta.db_table)} WHERE {code} > %s AND {code} <= %s"
        )

    with connection.cursor() as cursor:
        cursor.execute(f"{held(Player)} UNION ALL {held(PlayerAlias)}", [low, high, low, high])
        return {int(code) for (code,) in cursor.fetchall()}


def note_codes_on_record(highest: int) -> None:
    """Raise the high-water mark after codes were loaded from outside (a list import)."""
    with transaction.atomic():
        counter = _locked(Sequence.GRADING_CODES)
        if highest > counter.last_value:
            _store(counter, highest)


def reserve_game_sequence(count: int) -> range:
    """A block of ``count`` increasing numbers for games recorded in one import: one
    statement, which also holds the counter until the caller's transaction ends."""
    last = _advanced(Sequence.GAMES, count)
    return range(last - count + 1, last + 1)


def issue_abroad_code() -> str:
    """The next code of an event abroad (issue 24, case 7): XA and a number in sequence,
    never issued twice, passing over any code an event already holds."""
    with transaction.atomic():
        counter = _locked(Sequence.ABROAD_EVENTS)
        number = counter.last_value + 1
        while Event.objects.filter(code=abroad_code(number)).exists():
            number += 1
        _store(counter, number)
    return abroad_code(number)


def resolve_code(code: GradingCode | str | int) -> Player | None:
    """The surviving player a code belongs to, through aliases and merges.

    A string must carry a valid check letter (raises ``InvalidCode`` otherwise).
    """
    number = _number(code)
    player = Player.objects.filter(code=number).first()
    if player is None:
        alias = PlayerAlias.objects.select_related("player").filter(code=number).first()
        player = alias.player if alias else None
    return player.surviving() if player else None


def players_holding(numbers: Collection[int]) -> dict[int, Player]:
    """Code number -> the player on record holding it, unmerged, for many codes at once:
    what ``resolve_code`` gives for each. A code held through an alias or a merge is not
    among them (``resolve_code`` follows those)."""
    found: dict[int, Player] = {}
    for chunk in in_chunks(sorted(numbers)):
        held = Player.objects.filter(code__in=chunk, merged_into__isnull=True).order_by()
        found.update((player.code, player) for player in held)
    return found


def code_held(number: int) -> bool:
    """Whether a player or an alias holds the code ``number`` (``resolve_code`` finds
    someone): one plain statement, where ``resolve_code`` takes two ORM queries."""
    return bool(_held_between(number - 1, number))


def player_on_record(code: str, error: type[ServiceError] = NotFound) -> Player:
    """The surviving player holding ``code``; ``error`` (a ServiceError) when the code is
    malformed (kind invalid) or held by no one (kind not found)."""
    with user_input(error):
        player = resolve_code(code)
    if player is None:
        raise error(
            f"expected the grading code of a player on record, got {code!r}",
            kind=ErrorKind.NOT_FOUND,
        )
    return player


def _number(code: GradingCode | str | int) -> int:
    if isinstance(code, str):
        return GradingCode.parse(code).number
    if isinstance(code, GradingCode):
        return code.number
    return GradingCode(code).number


def _locked(name: str) -> Sequence:
    counter, _ = Sequence.objects.select_for_update().get_or_create(name=name)
    return counter


def _advanced(name: str, by: int) -> int:
    """The counter ``name`` moved on by ``by`` (0: only locked), and its new value. One
    UPDATE ... RETURNING (PostgreSQL; SQLite since 3.35), which locks the row as SELECT
    ... FOR UPDATE would; the row is made at its first use."""
    with connection.cursor() as cursor:
        cursor.execute(_advance_sql(connection.vendor), [by, name])
        row = cursor.fetchone()
    if row is None:
        Sequence.objects.get_or_create(name=name)
        return _advanced(name, by)
    return int(row[0])


@cache
def _advance_sql(vendor: str) -> str:
    """``_advanced``'s statement, made once (a season's import advances 2,500 times)."""
    quote = connection.ops.quote_name
    table = quote(Sequence._meta.db_table)
    value = quote(Sequence._meta.get_field("last_value").column)
    key = quote(Sequence._meta.get_field("name").column)
    return f"UPDATE {table} SET {value} = {value} + %s WHERE {key} = %s RETURNING {value}"


def _store(counter: Sequence, value: int) -> None:
    counter.last_value = value
    counter.save(update_fields=["last_value"])
