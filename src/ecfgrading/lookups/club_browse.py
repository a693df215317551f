"""Ways into the club lookup besides typing (issue 23, item 11): examples drawn from the
clubs on record, so that each finds something, and A-Z lists of clubs and of counties.

Both read the club index (``clubs.club_index``: built once per data token), so they cost
no query of their own; the examples are worked out once per index.

The examples follow one rule, stated here because a page shows them as advice:

- *the start of a name*: the first word that most club names begin with (a town with
  several clubs; ties go to the earlier word alphabetically), cut to four letters;
- *a word inside the name*: the later word (four letters or more) that most club names
  contain, as typed in lower case;
- *a club code*: the code of the first club, alphabetically, found by the first example;
- *a county*: the first word of the name of the county with the most clubs.

Locations and clubs merged into another are left out: an example should lead to a club
with members.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ecfgrading.lookups.clubs import ClubIndex, ClubMatch, CountyRef, _folded, club_index
from ecfgrading.lookups.paging import MAX_PER_PAGE, Page, bounds

OTHER = "other"  # names that begin with a digit or a sign
LETTERS = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", OTHER)
START_LETTERS = 4


@dataclass(frozen=True)
class LookupExamples:
    """What the lookup suggests typing; None where the records offer no example."""

    start: str | None  # 'cant': the first letters of several clubs' names
    word: str | None  # 'knights': a word inside several names
    code: str | None  # '1CAN'
    county: str | None  # 'kent'


_EXAMPLES: weakref.WeakKeyDictionary[ClubIndex, LookupExamples] = weakref.WeakKeyDictionary()


def lookup_examples() -> LookupExamples:
    """The examples for the records as they stand (the module's rule)."""
    index = club_index()
    found = _EXAMPLES.get(index)
    if found is None:
        found = _EXAMPLES[index] = _examples(index)
    return found


def _examples(index: ClubIndex) -> LookupExamples:
    names = {
        pk: _folded(row.name).split()
        for pk, row in index.clubs.items()
        if not row.is_location and row.merged_into_id is None and _folded(row.name)
    }
    first = _most_common(words[0] for words in names.values())
    later = _most_common(
        w for words in names.values() for w in set(words[1:]) if len(w) >= 4 and w.isalpha()
    )
    coded = sorted(
        (" ".join(words), index.clubs[pk].code or "")
        for pk, words in names.items()
        if words[0] == first and (index.clubs[pk].code or "").isalnum()
    )
    county = _most_common_county(index)
    return LookupExamples(
        start=first[:START_LETTERS] if first else None,
        word=later,
        code=coded[0][1].upper() if coded else None,
        county=_folded(index.county_names[county]).split()[0] if county is not None else None,
    )


def _most_common(words: Iterable[str]) -> str | None:
    """The word met most often; ties go to the earlier alphabetically."""
    counts = Counter(words)
    return min(counts, key=lambda w: (-counts[w], w)) if counts else None


def _most_common_county(index: ClubIndex) -> int | None:
    named = [pk for pk in index.county_names if _folded(index.county_names[pk])]
    if not named:
        return None
    return min(
        named, key=lambda pk: (-len(index.of_county.get(pk, ())), _folded(index.county_names[pk]))
    )


# -- A to Z ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClubsByLetter:
    """One letter's clubs (every club and location on record, merged ones too), a page."""

    letter: str  # A..Z, or OTHER
    page: Page[ClubMatch]

    @property
    def label(self) -> str:
        return "a digit or a sign" if self.letter == OTHER else self.letter


def letter_of(name: str) -> str:
    """The A-Z list a name is under: its first letter, accents and case ignored."""
    first = _folded(name)[:1].upper()
    return first if "A" <= first <= "Z" else OTHER


def club_letters() -> dict[str, int]:
    """How many clubs each letter's list holds (0 for a letter no name begins with)."""
    counts = Counter(letter_of(row.name) for row in club_index().clubs.values())
    return {letter: counts.get(letter, 0) for letter in LETTERS}


def clubs_by_letter(letter: str, *, page: int = 1, per_page: int = MAX_PER_PAGE) -> ClubsByLetter:
    """The clubs whose names begin with ``letter`` (A-Z, any case, or 'other'), by name;
    each club on record is under exactly one letter."""
    wanted = letter.strip().upper() if len(letter.strip()) == 1 else letter.strip().lower()
    if wanted not in LETTERS:
        wanted = "A"
    index = club_index()
    found = sorted(
        (_folded(row.name), pk) for pk, row in index.clubs.items() if letter_of(row.name) == wanted
    )
    pages = max(1, -(-len(found) // per_page))
    number = min(max(page, 1), pages)
    start, end = bounds(number, per_page)
    shown = tuple(index.match("club", pk) for _, pk in found[start:end])
    return ClubsByLetter(wanted, Page(shown, number, per_page, len(found)))


def counties_by_name() -> list[CountyRef]:
    """Every county on record, by name, with how many clubs are affiliated to it."""
    index = club_index()
    ordered = sorted(index.county_names, key=lambda pk: (_folded(index.county_names[pk]), pk))
    return [index.county(pk) for pk in ordered]
