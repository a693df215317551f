"""Players' names, folded so that the ways officers write one name compare equal.

A results file gives a name as ``Surname, Forenames`` or in the older ``SURNAME``,
``FORENAME`` and ``INITIALS`` fields (results-file.md, section 1); the records hold a
surname and forenames. Both become a ``PersonName``: a surname key and forename tokens,
where a token of one letter is an initial.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process
from unidecode import unidecode

from ecfgrading.pickled import by_fields

_APOSTROPHES = str.maketrans("", "", "'`")  # O'Brien is written OBrien as often
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")  # hyphens, dots, commas separate words
_VOWELS = frozenset("aeiouy")
# Words that differ between the ways one club is written ('Anytown Chess Club', 'Anytown CC').
_CLUB_WORDS = frozenset({"chess", "club", "cc", "the", "and", "of", "society", "soc"})
# 'Jon'/'John' (86), 'Alan'/'Allan' (89), 'Ann'/'Anne' (86): typing slips, worth a look;
# 'Jane'/'John' (50): different people.
SIMILAR_FORENAME = 75.0


# A season's entries and the records they are matched with repeat a few thousand
# surnames and forenames: each is folded once (a fifth of identification otherwise).
_FOLDED = 1 << 16


@lru_cache(maxsize=_FOLDED)
def fold(text: str) -> str:
    """Lower case and plain letters: 'Müller' -> 'muller', 'Smith-Jones' -> 'smith jones'."""
    plain = text if text.isascii() else unidecode(text)  # unidecode turns ’ into '
    return " ".join(_NOT_ALNUM.sub(" ", plain.lower().translate(_APOSTROPHES)).split())


def surname_key(surname: str) -> str:
    """The folded surname without spaces: 'Smith-Jones', 'Smith Jones', 'SmithJones' agree."""
    return fold(surname).replace(" ", "")


def search_key(surname: str, forenames: str = "") -> str:
    """What player lookups match by prefix: 'Smith-Jones', 'John Paul' ->
    'smithjones,johnpaul' (case, accents, spaces and hyphens do not matter)."""
    return f"{surname_key(surname)},{fold(forenames).replace(' ', '')}"


def search_prefix(query: str) -> str:
    """The key prefix a lookup asks for: 'smi' -> 'smi', 'Smith, J' -> 'smith,j'."""
    surname, comma, forenames = query.partition(",")
    if not comma:
        return surname_key(surname)
    return f"{surname_key(surname)},{fold(forenames).replace(' ', '')}"


def prefix_successor(prefix: str) -> str:
    """The least key above every key that starts with ``prefix``, in byte order: keys are
    ASCII letters, digits and one comma, so the last character plus one bounds them, and
    ``prefix <= key < prefix_successor(prefix)`` is an index range."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


@lru_cache(maxsize=8192)  # a few thousand clubs, named on every record: fold each once
def fold_club(name: str) -> str:
    """A club name folded, without the words that vary ('Anytown C.C.' -> 'anytown')."""
    words = fold(name.replace(".", "")).split()  # 'C.C.' is 'CC', not two words
    kept = [word for word in words if word not in _CLUB_WORDS]
    return " ".join(kept or words)


def fold_club_code(code: str) -> str:
    return code.strip().upper()


@lru_cache(maxsize=_FOLDED)
def forename_tokens(forenames: str) -> tuple[str, ...]:
    """'John R.' -> ('john', 'r'); 'J.R.' and 'JR' -> ('j', 'r')."""
    tokens: list[str] = []
    for word in fold(forenames).split():
        tokens.extend(_initials_run(word))
    return tuple(tokens)


def _initials_run(word: str) -> tuple[str, ...]:
    # No forename of two or three letters lacks a vowel, so 'JR' is two initials run together.
    if 1 < len(word) <= 3 and _VOWELS.isdisjoint(word):
        return tuple(word)
    return (word,)


@by_fields  # a season's 80,000 names sent by the reading process (ecfgrading.pickled)
@dataclass(frozen=True, slots=True)
class PersonName:
    """A name ready to compare: the surname key and the forename tokens in order."""

    surname: str
    forenames: tuple[str, ...] = ()

    @property
    def first_forename(self) -> str:
        """'' when no forename is known: such a name is compared with every forename."""
        return self.forenames[0] if self.forenames else ""


def parse_name(text: str) -> PersonName:
    """The NAME field, 'Surname, Forenames'; without a comma it is all surname."""
    surname, _, forenames = text.partition(",")
    return PersonName(surname_key(surname), forename_tokens(forenames))


def name_from_fields(surname: str, forename: str = "", initials: str = "") -> PersonName:
    """The older SURNAME, FORENAME and INITIALS fields as one name."""
    given = forename_tokens(forename)
    letters = tuple(fold(initials).replace(" ", ""))
    # Some writers repeat the forename's initial in INITIALS ('John', 'JR'), others do not
    # ('John', 'R'); both mean John R.
    leading = tuple(token[0] for token in given)
    if given and letters[: len(leading)] == leading:
        letters = letters[len(leading) :]
    return PersonName(surname_key(surname), given + letters)


class Agreement(Enum):
    """How two sets of forenames compare, strongest first."""

    SAME = "same forenames"  # 'John Robert' and 'John Robert'
    FIRST = "same first forename"  # 'John' and 'John R'
    INITIALS = "consistent initials"  # 'J R' and 'John Robert'
    UNKNOWN = "no forename on one side"  # consistent, but says nothing
    SIMILAR = "similar first forename"  # 'Jon' and 'John': a slip, or another person
    CONFLICT = "different forenames"  # 'Jane' and 'John'

    @property
    def consistent(self) -> bool:
        """'Forename or initial consistent' in the issue's sense (a code's name check)."""
        return self in _CONSISTENT


_CONSISTENT = frozenset({Agreement.SAME, Agreement.FIRST, Agreement.INITIALS, Agreement.UNKNOWN})


def forename_agreement(ours: tuple[str, ...], theirs: tuple[str, ...]) -> Agreement:
    """Compare forenames token by token; the longer side may carry more names."""
    if not ours or not theirs:
        return Agreement.UNKNOWN
    if all(_tokens_agree(a, b) for a, b in zip(ours, theirs, strict=False)):
        if len(ours[0]) > 1 and ours[0] == theirs[0]:
            return Agreement.SAME if ours == theirs else Agreement.FIRST
        return Agreement.INITIALS
    if _similar_first(ours[0], theirs[0]):
        return Agreement.SIMILAR
    return Agreement.CONFLICT


def first_forenames_may_agree(ours: str, theirs: str) -> bool:
    """False when two names with these first forenames can only be in CONFLICT."""
    return _tokens_agree(ours, theirs) or _similar_first(ours, theirs)


def _tokens_agree(a: str, b: str) -> bool:
    return a == b or ((len(a) == 1 or len(b) == 1) and a[0] == b[0])


def _similar_first(a: str, b: str) -> bool:
    # The same initial is required: the index looks only under the entry's first initial.
    return a[0] == b[0] and fuzz.ratio(a, b, score_cutoff=SIMILAR_FORENAME) > 0


def names_agree(ours: PersonName, theirs: PersonName) -> bool:
    """The issue's test for a code: the same surname, forenames or initials consistent."""
    return (
        ours.surname == theirs.surname
        and forename_agreement(ours.forenames, theirs.forenames).consistent
    )


# -- fuzzy surname lookup ----------------------------------------------------------------


def _letter_mask(key: str) -> int:
    """Bit i: letter i occurs; bit 26 + i: it occurs twice or more.

    One insertion or deletion changes one letter's count by one and so flips at most one
    of these bits: the bits in which two masks differ never exceed the edits between the
    keys. Digits share the letters' bits, which only loosens the bound.
    """
    mask = 0
    for char in set(key):
        letter = (ord(char) - 97) % 26
        mask |= 1 << letter if key.count(char) == 1 else (1 << letter) | (1 << (26 + letter))
    return mask


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0; pyproject still allows 1.26
        counted: npt.NDArray[np.uint8] = np.bitwise_count(values)
        return counted
    as_bytes = _BYTE_BITS[values.view(np.uint8)].reshape(len(values), 8)
    summed: npt.NDArray[np.uint8] = as_bytes.sum(axis=1, dtype=np.uint8)
    return summed


def _edit_budget(length: int, other: int, cutoff: float) -> int:
    """The most insertions and deletions ``ratio`` allows: it is 100 * (1 - edits / total)."""
    return int((100.0 - cutoff) * (length + other) / 100.0 + 1e-9)


class _SameLength:
    """Keys of one length with their letter masks, in an array that grows by doubling."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self._masks: npt.NDArray[np.uint64] = np.zeros(64, dtype=np.uint64)

    def add(self, key: str) -> None:
        count = len(self.keys)
        if count == len(self._masks):
            self._masks = np.resize(self._masks, 2 * count)
        self._masks[count] = _letter_mask(key)
        self.keys.append(key)

    def within(self, mask: int, budget: int) -> list[str]:
        """Keys whose masks differ from ``mask`` in at most ``budget`` bits."""
        differing = _popcount(self._masks[: len(self.keys)] ^ np.uint64(mask))
        keys = self.keys
        return [keys[i] for i in np.flatnonzero(differing <= budget).tolist()]


class SurnameSet:
    """The distinct surname keys on record, searchable by rapidfuzz ``ratio``.

    Scanning 20,000 keys with rapidfuzz costs about a millisecond. Two bounds rule out
    almost every key first without losing any that could reach the cutoff: an insertion
    or deletion changes the length by one and flips at most one bit of a letter mask, so
    neither the difference in length (keys are grouped by length) nor the bits in which
    their letter masks differ (a numpy scan) can exceed the edits the cutoff allows.
    """

    def __init__(self) -> None:
        self._by_length: dict[int, _SameLength] = {}
        self._known: set[str] = set()

    def __len__(self) -> int:
        return len(self._known)

    def __contains__(self, key: object) -> bool:
        return key in self._known

    def add(self, key: str) -> None:
        if key not in self._known:
            self._by_length.setdefault(len(key), _SameLength()).add(key)
            self._known.add(key)

    def similar(self, key: str, cutoff: float, limit: int = 20) -> list[tuple[str, float]]:
        """Keys other than ``key`` whose ratio to it is at least ``cutoff``, best first."""
        possible = [other for other in self._possible(key, cutoff) if other != key]
        found = process.extract(
            key, possible, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff, limit=None
        )
        ranked = sorted(((other, score) for other, score, _ in found), key=_best_first)
        return ranked[:limit]

    def _possible(self, key: str, cutoff: float) -> list[str]:
        mask, possible = _letter_mask(key), []
        for length, same in self._by_length.items():
            budget = _edit_budget(length, len(key), cutoff)
            if abs(length - len(key)) <= budget:
                possible.extend(same.within(mask, budget))
        return possible


def similar_to_any(key: str, others: Iterable[str], cutoff: float) -> bool:
    """Whether any of ``others`` has a ratio to ``key`` of at least ``cutoff``, as
    ``SurnameSet.similar`` would find it (``key`` itself counts)."""
    return (
        process.extractOne(key, others, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff)
        is not None
    )


def _best_first(pair: tuple[str, float]) -> tuple[float, str]:
    return -pair[1], pair[0]
