"""Players as the federation's rating API finds them: by code, by membership number, by
the start of a name, and by names that sound alike (issue 10, compatibility).

A player is anyone on record, graded or not (the federation's API answers for members
with no games too); a merged code names its survivor (G28). Names match a prefix of
``Player.name_key`` (``matching.names.search_key``) by an indexed byte range. Sound-alike
names are the same Soundex code or a close rapidfuzz ratio, over an index of every
unmerged player's names built once per data token.

Privacy: players are read by ``ratings.PLAYER_COLUMNS`` only (never a date of birth).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Max, Q
from rapidfuzz import fuzz

from ecfgrading.errors import NotFound
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.memberships import shown_clubs
from ecfgrading.lookups.player import locate
from ecfgrading.lookups.ratings import (
    PLAYER_COLUMNS,
    Club,
    RatingsError,
    clubs_of,
    code_text,
    full_name,
    lists_in_force,
    season_of,
)
from ecfgrading.matching.names import (
    SIMILAR_FORENAME,
    SurnameSet,
    fold,
    prefix_successor,
    search_prefix,
    surname_key,
)
from ecfgrading.registry.merges import surviving_ids
from ecfgrading.registry.models import Game, Player

MAX_FOUND = 500  # players a name search answers with, in name order
MAX_SOUNDING = 100  # players a sound-alike search answers with, best first
SURNAME_CUTOFF = 80.0  # rapidfuzz ratio for surnames that sound alike without one Soundex
FORENAME_CUTOFF = SIMILAR_FORENAME  # "Jon" and "John"


# -- players --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerInfo:
    """What the federation's API says about a player besides his ratings."""

    code: str
    name: str
    member_no: str
    fide_no: int | None
    gender: str
    nation: str
    date_last_game: dt.date | None  # his latest graded game of either rate
    clubs: tuple[Club, ...]  # most recently quoted first


def player_info(code: str) -> PlayerInfo:
    """The player a code names, with or without its check letter (merged codes name their
    survivor, G28); PlayerNotFound otherwise."""
    return _infos([locate(code).player_id])[0]


def player_by_member_no(number: str) -> PlayerInfo:
    """The player with this membership number (one not merged into another)."""
    wanted = number.strip()
    held = Q(membership_no=wanted) | Q(membership_no=wanted.upper())  # by its index
    found = Player.objects.filter(held, merged_into__isnull=True)
    pk = found.values_list("id", flat=True).first() if wanted else None
    if pk is None:
        raise NotFound(f"no player on record has the membership number {number!r}")
    return _infos([pk])[0]


def players_named(stem: str) -> list[PlayerInfo]:
    """Players whose surname starts with ``stem``, or with 'Surname, Fore' whose surname is
    Surname and whose forenames start with Fore; case, accents and spaces ignored."""
    prefix = search_prefix(" ".join(stem.split()))
    if not prefix or prefix.startswith(","):
        raise RatingsError(
            f"expected the start of a surname, e.g. 'smi' or 'smith,+jo'; got {stem!r}"
        )
    matching = Player.objects.filter(
        name_key__gte=prefix, name_key__lt=prefix_successor(prefix), merged_into__isnull=True
    ).order_by("name_key", "code")
    return _infos(list(matching.values_list("id", flat=True)[:MAX_FOUND]))


def _infos(ids: Sequence[int]) -> list[PlayerInfo]:
    """Players by id, in the order given: six queries for any number."""
    rows = {row[0]: row for row in Player.objects.filter(id__in=ids).values_list(*PLAYER_COLUMNS)}
    season = season_of(lists_in_force())
    shown = shown_clubs(ids, season, limit=None) if season is not None and ids else {}
    last = _last_games(ids)
    return [_info(rows[pk], clubs_of(shown.get(pk, ())), last.get(pk)) for pk in ids if pk in rows]


def _info(row: tuple[object, ...], clubs: tuple[Club, ...], last: dt.date | None) -> PlayerInfo:
    _pk, code, surname, forenames, _key, sex, fide_id, membership_no, nation = row
    return PlayerInfo(
        code=code_text(int(code)),  # type: ignore[call-overload]
        name=full_name(str(surname), str(forenames)),
        member_no=str(membership_no),
        fide_no=fide_id,  # type: ignore[arg-type]
        gender=str(sex),
        nation=str(nation),
        date_last_game=last,
        clubs=clubs,
    )


def _last_games(ids: Sequence[int]) -> dict[int, dt.date]:
    """Each player's latest graded game, his merged records' games included (G28). The
    games are found by player only (``graded`` filters the aggregate), so that each side
    is read by its own index, not by the index of every graded game."""
    final = surviving_ids(Player.merges())
    wanted = set(ids)
    records = {pk: pk for pk in ids} | {pk: end for pk, end in final.items() if end in wanted}
    last: dict[int, dt.date] = {}
    for side in ("player1_id", "player2_id"):
        games = Game.objects.filter(**{f"{side}__in": list(records)}).order_by().values_list(side)
        latest = games.annotate(day=Max("game_date", filter=Q(graded=True)))
        for pid, day in latest:
            end = records[pid]
            if day is not None:
                last[end] = max(day, last.get(end, day))
    return last


# -- players by sound ------------------------------------------------------------------------


def players_sounding(words: str) -> list[PlayerInfo]:
    """Players whose names sound like one or two words given in any order: a surname
    alone, or a surname and a forename. 'Sounds like' is the same Soundex code, or a
    rapidfuzz ratio of at least SURNAME_CUTOFF (forenames: FORENAME_CUTOFF)."""
    given = [fold(word).replace(" ", "") for word in words.replace("+", " ").split()]
    given = [word for word in given if word]
    if not 1 <= len(given) <= 2:
        raise RatingsError(
            f"expected one or two words of a name, e.g. 'john+smythe'; got {words!r}"
        )
    index = _sound_index()
    scored: dict[int, float] = {}
    orders = [given] if len(given) == 1 else [given, given[::-1]]
    for surname, *forename in orders:
        for pid, score in index.matches(surname, forename[0] if forename else None):
            scored[pid] = max(score, scored.get(pid, 0.0))
    best = sorted(scored, key=lambda pid: (-scored[pid], index.keys[pid]))[:MAX_SOUNDING]
    return _infos(best)


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
