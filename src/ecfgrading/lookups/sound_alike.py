"""Players whose names sound like the words given (the federation's API's
``fuzzy_name``): one or two words in any order, a surname alone or a surname and a
forename.

A surname sounds alike when it has the same Soundex code or a rapidfuzz ratio of
SURNAME_CUTOFF or more; a forename when it starts the same way, has the same Soundex code
or a ratio of FORENAME_CUTOFF or more. The index of every unmerged player's names is
built once per data token.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz import fuzz

from ecfgrading.errors import ServiceError
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.players import PlayerInfo, player_infos
from ecfgrading.matching.names import SIMILAR_FORENAME, SurnameSet, fold, surname_key
from ecfgrading.registry.models import Player

MAX_SOUNDING = 100  # players a sound-alike search answers with, best first
SURNAME_CUTOFF = 80.0  # rapidfuzz ratio for surnames that sound alike without one Soundex
FORENAME_CUTOFF = SIMILAR_FORENAME  # "Jon" and "John"


def players_sounding(words: str) -> list[PlayerInfo]:
    """Players whose names sound like one or two words given in any order: a surname
    alone, or a surname and a forename. 'Sounds like' is the same Soundex code, or a
    rapidfuzz ratio of at least SURNAME_CUTOFF (forenames: FORENAME_CUTOFF)."""
    given = [fold(word).replace(" ", "") for word in words.replace("+", " ").split()]
    given = [word for word in given if word]
    if not 1 <= len(given) <= 2:
        raise ServiceError(
            f"expected one or two words of a name, e.g. 'john+smythe'; got {words!r}"
        )
    index = _sound_index()
    scored: dict[int, float] = {}
    orders = [given] if len(given) == 1 else [given, given[::-1]]
    for surname, *forename in orders:
        for pid, score in index.matches(surname, forename[0] if forename else None):
            scored[pid] = max(score, scored.get(pid, 0.0))
    best = sorted(scored, key=lambda pid: (-scored[pid], index.keys[pid]))[:MAX_SOUNDING]
    return player_infos(best)


def soundex(word: str) -> str:
    """American Soundex of a folded word: 'smith' and 'smythe' are both S530."""
    letters = [c for c in word.lower() if "a" <= c <= "z"]
    if not letters:
        return ""
    digits = [_SOUNDEX.get(c, "") for c in letters]
    code, previous = letters[0].upper(), digits[0]
    for letter, digit in zip(letters[1:], digits[1:], strict=True):
        if digit and digit != previous:
            code += digit
        if letter not in "hw":  # h and w do not separate letters of one code
            previous = digit
    return (code + "000")[:4]


_SOUNDEX = {
    **dict.fromkeys("bfpv", "1"),
    **dict.fromkeys("cgjkqsxz", "2"),
    **dict.fromkeys("dt", "3"),
    "l": "4",
    **dict.fromkeys("mn", "5"),
    "r": "6",
}


class _SoundIndex:
    """Unmerged players' surname keys and first forenames, grouped by surname key."""

    def __init__(self, rows: Iterable[tuple[int, str, str]]) -> None:
        self.keys: dict[int, str] = {}
        self.by_surname: dict[str, list[tuple[int, str]]] = {}
        for pk, name_key, forenames in rows:
            surname, _, _rest = name_key.partition(",")
            first = (fold(forenames).split() or [""])[0]
            self.keys[pk] = name_key
            self.by_surname.setdefault(surname, []).append((pk, first))
        self.by_sound: dict[str, list[str]] = {}
        self.surnames = SurnameSet()
        for surname in self.by_surname:
            self.by_sound.setdefault(soundex(surname), []).append(surname)
            self.surnames.add(surname)

    def matches(self, surname: str, forename: str | None) -> list[tuple[int, float]]:
        found = []
        for key, score in self._surnames(surname):
            for pk, first in self.by_surname[key]:
                fits = 100.0 if forename is None else _forename_score(forename, first)
                if fits:
                    found.append((pk, score + fits))
        return found

    def _surnames(self, wanted: str) -> list[tuple[str, float]]:
        """Surname keys that sound like ``wanted``: the same Soundex, or a close spelling."""
        key = surname_key(wanted)
        scored = {other: fuzz.ratio(key, other) for other in self.by_sound.get(soundex(key), ())}
        if key in self.by_surname:
            scored[key] = 100.0
        close = self.surnames.similar(key, SURNAME_CUTOFF, limit=len(self.by_surname))
        return [*scored.items(), *((other, s) for other, s in close if other not in scored)]


def _forename_score(wanted: str, first: str) -> float:
    """How well a forename word fits a first forename: 0 when it does not."""
    if not first:
        return 0.0
    if first.startswith(wanted) or wanted.startswith(first):
        return 100.0
    if soundex(first) == soundex(wanted):
        return 90.0
    return float(fuzz.ratio(wanted, first, score_cutoff=FORENAME_CUTOFF))


_SOUND_INDEX: dict[str, _SoundIndex] = {}  # data token -> index: the latest one only


def _sound_index() -> _SoundIndex:
    """Built once per data token (one query of every unmerged player's names)."""
    token = data_token()
    found = _SOUND_INDEX.get(token)
    if found is None:
        rows = Player.objects.filter(merged_into__isnull=True).values_list(
            "id", "name_key", "forenames"
        )
        found = _SoundIndex(rows.iterator(chunk_size=10_000))
        _SOUND_INDEX.clear()
        _SOUND_INDEX[token] = found
    return found
