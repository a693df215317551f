"""Numbers the registry issues: grading codes (G28), the recording order of games and
the codes of events abroad.

Each counter is a locked row, so two imports running at once never get the same
number, and a high-water mark, so a number whose record was deleted or merged is
never issued again.
"""

from __future__ import annotations

from django.db import transaction

from ecfgrading.engine.codes import LAST_CODE, GradingCode
from ecfgrading.errors import Conflict, ErrorKind, NotFound, ServiceError, user_input
from ecfgrading.formats.event_codes import abroad_code
from ecfgrading.registry.models import Event, Player, PlayerAlias, Sequence


def issue_code() -> GradingCode:
    """G28: the next grading code in sequence, with its check letter."""
    return issue_codes(1)[0]


def issue_codes(count: int) -> list[GradingCode]:
    """``count`` new codes in sequence, skipping any number already held (G28).

    The high-water mark follows what the system issued and what a list import
    loaded, never a code quoted in a results file: one mistyped 999998L would
    otherwise use up every code above it.
    """
    with transaction.atomic():
        counter = _locked(Sequence.GRADING_CODES)
        last = counter.last_value
        codes: list[GradingCode] = []
        while len(codes) < count:
            held = _held_between(last, last + count - len(codes) + 1000)
            while len(codes) < count and last < LAST_CODE:
                last += 1
                if last not in held:
                    codes.append(GradingCode(last))
                elif last >= max(held):
                    break
            if last >= LAST_CODE and len(codes) < count:
                raise CodesExhausted(
                    f"the grading codes are used up (the last is {LAST_CODE}); "
                    "the federation must extend the code format"
                )
        _store(counter, last)
    return codes


class CodesExhausted(Conflict):
    """No six-digit grading code is left to issue."""


def _held_between(low: int, high: int) -> set[int]:
    """Numbers in (low, high] held by a player or an alias."""
    players = Player.objects.filter(code__gt=low, code__lte=high).values_list("code", flat=True)
    aliases = PlayerAlias.objects.filter(code__gt=low, code__lte=high).values_list(
        "code", flat=True
    )
    return set(players) | set(aliases)


def note_codes_on_record(highest: int) -> None:
    """Raise the high-water mark after codes were loaded from outside (a list import)."""
    with transaction.atomic():
        counter = _locked(Sequence.GRADING_CODES)
        if highest > counter.last_value:
            _store(counter, highest)


def reserve_game_sequence(count: int) -> range:
    """A block of ``count`` increasing numbers for games recorded in one import."""
    with transaction.atomic():
        counter = _locked(Sequence.GAMES)
        first = counter.last_value + 1
        _store(counter, counter.last_value + count)
    return range(first, first + count)


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


def _store(counter: Sequence, value: int) -> None:
    counter.last_value = value
    counter.save(update_fields=["last_value"])
