"""Numbers the registry issues: grading codes (G28) and the recording order of games.

Each counter is a locked row, so two imports running at once never get the same
number, and a high-water mark, so a number whose record was deleted or merged is
never issued again.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from ecfgrading.engine.codes import GradingCode, next_code
from ecfgrading.registry.models import Player, PlayerAlias, Sequence


def issue_code() -> GradingCode:
    """G28: the next grading code in sequence, with its check letter."""
    return issue_codes(1)[0]


def issue_codes(count: int) -> list[GradingCode]:
    """``count`` consecutive new codes, for importing many new players at once."""
    with transaction.atomic():
        counter = _locked(Sequence.GRADING_CODES)
        # Codes loaded from a published list were issued before this system existed.
        last = max(counter.last_value, _highest_code_on_record())
        codes = []
        for _ in range(count):
            code = next_code(last)
            codes.append(code)
            last = code.number
        _store(counter, last)
    return codes


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


def _highest_code_on_record() -> int:
    players = Player.objects.aggregate(high=Max("code"))["high"] or 0
    aliases = PlayerAlias.objects.aggregate(high=Max("code"))["high"] or 0
    return max(players, aliases)
