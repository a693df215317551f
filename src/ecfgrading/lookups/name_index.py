"""The names on record, in memory, for a lookup's "did you mean" (issue 23).

A lookup that finds nothing, or only a few players for a surname on record nowhere,
offers the nearest names on record: ``smiht`` -> Smith, ``jonh smith`` -> Smith, John.
Nearness is the optimal string alignment distance (rapidfuzz ``OSA``: one insertion,
deletion, substitution or swap of neighbouring letters is one edit): at most
``allowed_edits`` for the surname and one for each forename typed in full. Among names
equally near, the one more players hold comes first.

The index holds every unmerged player's surname key and names, grouped by surname key,
and the surname keys grouped by length (an edit changes a length by one at most, so only
a few lengths are compared). It is built once per data token
(``freshness.data_token``) and kept in the process: one query of the players' names.
A search of it costs about a millisecond at 60,000 players (docs/benchmarks.md).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from rapidfuzz import process
from rapidfuzz.distance import OSA

from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.name_readings import Reading
from ecfgrading.matching.names import forename_tokens, surname_key
from ecfgrading.registry.models import Player

MIN_LETTERS = 4  # shorter surnames are a few letters of many names, not a typo of one
LONG_SURNAME = 8  # from this length a surname may carry two slips
MIN_FORENAME_LETTERS = 3  # shorter forename words are only checked as prefixes


def allowed_edits(length: int) -> int:
    """Edits a surname of ``length`` letters may be from the one meant."""
    return 2 if length >= LONG_SURNAME else 1


@dataclass(frozen=True)
class Suggestion:
    """A name on record near a reading of the typed text: the query that finds it."""

    text: str  # 'Smith, Paul' (or 'Smith' when no forename was typed)
    player_ids: tuple[int, ...]
    edits: int  # from the reading typed


_Named = tuple[int, str, str]  # a player's id, surname and forenames


class NameIndex:
    """Unmerged players' names by surname key, and the surname keys by length."""

    def __init__(self, rows: Iterable[tuple[int, str, str, str]]) -> None:
        """``rows``: id, surname, forenames and ``name_key`` of each unmerged player."""
        self._people: dict[str, list[_Named]] = {}
        for player_id, surname, forenames, name_key in rows:
            key = name_key.partition(",")[0]
            self._people.setdefault(key, []).append((player_id, surname, forenames))
        self._families: dict[str, _Family] = {}  # made when first asked for
        self._by_length: dict[int, list[str]] = {}
        for key in self._people:
            self._by_length.setdefault(len(key), []).append(key)

    def __len__(self) -> int:
        return sum(len(people) for people in self._people.values())

    def is_surname(self, text: str) -> bool:
        """Whether some player on record has this surname (case and accents aside)."""
        return surname_key(text) in self._people

    def holders(self, text: str) -> int:
        """How many players on record have this surname (case and accents aside)."""
        return len(self._people.get(surname_key(text), ()))

    def suggestions(self, reading: Reading, *, unfinished: bool = False) -> list[Suggestion]:
        """Names on record within the allowed edits of ``reading`` but not equal to it,
        nearest first, then those more players hold. ``unfinished``: the text found
        players, so it may be the start of a longer name ('blackd' for Blackdale): a
        surname the text starts with ('black'), or that starts with it, is no slip."""
        found: dict[str, Suggestion] = {}
        for key, edits in self.near_surnames(reading.surname):
            if unfinished and (key.startswith(reading.surname) or reading.surname.startswith(key)):
                continue
            for text, ids, more in self._named(key, reading.forenames):
                total = edits + more
                if total and (text not in found or total < found[text].edits):
                    found[text] = Suggestion(text, ids, total)
        return sorted(found.values(), key=lambda s: (s.edits, -len(s.player_ids), s.text))

    def near_surnames(self, typed: str) -> list[tuple[str, int]]:
        """Surname keys on record within ``allowed_edits`` of ``typed``, with their edits."""
        if len(typed) < MIN_LETTERS:
            return []
        most = allowed_edits(len(typed))
        found: list[tuple[str, int]] = []
        for length in range(len(typed) - most, len(typed) + most + 1):
            keys = self._by_length.get(length, ())
            near = process.extract(typed, keys, scorer=OSA.distance, score_cutoff=most, limit=None)
            found.extend((key, int(edits)) for key, edits, _ in near)
        return found

    def _named(
        self, key: str, typed: tuple[str, ...]
    ) -> Iterable[tuple[str, tuple[int, ...], int]]:
        """The names of surname ``key`` that fit the typed forenames: text, players and
        edits in the forenames."""
        family = self._family(key)
        if not typed:
            yield family.shown, family.ids, 0
            return
        grouped: dict[str, tuple[list[int], int]] = {}
        for first, names in family.by_first.items():
            if _word_edits(typed[0], first) is None:
                continue
            for forenames, tokens, ids in names:
                fit = _forenames_fit(typed, forenames, tokens)
                if fit is not None:
                    text = f"{family.shown}, {fit[0]}"
                    grouped.setdefault(text, ([], fit[1]))[0].extend(ids)
        for text, (ids, edits) in grouped.items():
            yield text, tuple(ids), edits

    def _family(self, key: str) -> _Family:
        """The players of surname ``key`` by first forename, made when first asked for."""
        family = self._families.get(key)
        if family is None:
            family = self._families[key] = _Family(self._people[key])
        return family


class _Family:
    """The players of one surname key: its spelling most of them have, and their
    forenames (with their tokens, ``matching.names.forename_tokens``) by first token,
    each worked out when first asked for."""

    def __init__(self, people: list[_Named]) -> None:
        self._people = people

    @cached_property
    def shown(self) -> str:
        return _most_common(surname for _id, surname, _forenames in self._people)

    @cached_property
    def ids(self) -> tuple[int, ...]:
        return tuple(player_id for player_id, _surname, _forenames in self._people)

    @cached_property
    def by_first(self) -> dict[str, list[tuple[str, tuple[str, ...], list[int]]]]:
        same: dict[str, list[int]] = {}
        for player_id, _surname, forenames in self._people:
            same.setdefault(forenames, []).append(player_id)
        found: dict[str, list[tuple[str, tuple[str, ...], list[int]]]] = {}
        for forenames, ids in same.items():
            tokens = forename_tokens(forenames)
            if tokens:
                found.setdefault(tokens[0], []).append((forenames, tokens, ids))
        return found


def _most_common(surnames: Iterable[str]) -> str:
    counts: dict[str, int] = {}
    for surname in surnames:
        counts[surname] = counts.get(surname, 0) + 1
    return max(counts, key=lambda surname: (counts[surname], surname))


def _forenames_fit(
    typed: tuple[str, ...], forenames: str, tokens: tuple[str, ...]
) -> tuple[str, int] | None:
    """How the typed forename words fit a player's forenames (and their tokens), word by
    word: the words to show ('J' for an initial typed, the player's word otherwise) and
    the edits; None when they do not fit."""
    words = forenames.split()
    if len(tokens) < len(typed):
        return None
    aligned = len(words) == len(tokens)  # 'J.R.' is two tokens in one word
    shown, edits = [], 0
    for i, (wanted, token) in enumerate(zip(typed, tokens, strict=False)):
        more = _word_edits(wanted, token)
        if more is None:
            return None
        edits += more
        full = aligned and len(wanted) > 1
        shown.append(words[i] if full else wanted.upper() if len(wanted) == 1 else token.title())
    return " ".join(shown), edits


def _word_edits(wanted: str, token: str) -> int | None:
    """0 when ``token`` starts with ``wanted``; one edit for a slip in a word of three
    letters or more (against the token or its start); None otherwise."""
    if token.startswith(wanted):
        return 0
    if len(wanted) < MIN_FORENAME_LETTERS:
        return None
    edits = min(OSA.distance(wanted, token), OSA.distance(wanted, token[: len(wanted)]))
    return edits if edits <= 1 else None


_BUILT: dict[str, NameIndex] = {}  # data token -> index: the latest one only
_LOCK = threading.Lock()


def name_index() -> NameIndex:
    """The index of the names on record as the data stands (built once per data token)."""
    token = data_token()
    found = _BUILT.get(token)
    if found is None:
        rows = Player.objects.filter(merged_into__isnull=True).values_list(
            "id", "surname", "forenames", "name_key"
        )
        found = NameIndex(rows.iterator(chunk_size=10_000))
        with _LOCK:
            _BUILT.clear()
            _BUILT[token] = found
    return found
