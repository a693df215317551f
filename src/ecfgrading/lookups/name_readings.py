"""The ways a name typed in a lookup box can be read (issue 23: names as people type them).

The seeds' box asks for "the surname first followed by a comma"; people type ``john
smith``, ``smith paul``, ``smith j`` or ``j smith`` as well. A text with a comma is read
the seeds' way: the surname, then the first letters of the forenames. Without a comma
every split of its words is tried, surname first and forenames first, and all the words
as one surname (``de silva``, ``smith jones``, or the first letters ``smi``):

- ``smith paul``: surname ``smith`` with forenames starting ``paul``; forenames ``smith``
  with a surname starting ``paul``; a surname starting ``smithpaul``.
- The last word typed may be unfinished, so it is a prefix: of the forenames when the
  surname came first, of the surname when it came last (``john smi``).
- A one-letter word is an initial (``j``), and so is a run of two or three consonants
  (``jr``, ``matching.names.forename_tokens``): ``smith j r`` finds Smith, John Robert.

Names compare as ``Player.name_key`` holds them (``matching.names.search_key``): case,
accents, spaces, hyphens and apostrophes do not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecfgrading.matching.names import fold, forename_tokens, surname_key

MAX_WORDS = 6  # more words than any name has: read as one surname only
ANY = "%"  # the SQL LIKE wildcard, after an initial (keys hold only a-z, 0-9 and a comma)


@dataclass(frozen=True)
class Reading:
    """One way of reading the text: a surname, whole or its first letters, and the first
    letters of the forenames (initials or words, in order)."""

    surname: str  # a surname key: folded, no spaces
    whole: bool  # the whole surname, not its first letters
    forenames: tuple[str, ...] = ()  # folded words; one letter: an initial

    @property
    def pattern(self) -> str:
        """The forenames part of a ``name_key`` LIKE pattern, without its trailing ``%``:
        an initial may be followed by the rest of its forename ('j r' -> 'j%r')."""
        last = len(self.forenames) - 1
        return "".join(
            word + (ANY if len(word) == 1 and i < last else "")
            for i, word in enumerate(self.forenames)
        )

    @property
    def key_prefix(self) -> str:
        """The longest prefix every matching ``name_key`` starts with (an index range)."""
        if not self.whole:
            return self.surname
        return f"{self.surname},{self.pattern.partition(ANY)[0]}"

    @property
    def like(self) -> str:
        """A LIKE pattern the key must match as well, or '' when the range says it all."""
        if self.whole and ANY not in self.pattern:
            return ""
        if not self.forenames:
            return ""
        return f"{self.surname}{'' if self.whole else ANY},{self.pattern}{ANY}"


def readings(text: str) -> tuple[Reading, ...]:
    """Every reading of a lookup's text, the seeds' one first; () when no surname can be
    read (a text of punctuation, or a comma first)."""
    surname, comma, forenames = text.partition(",")
    if comma:
        key = surname_key(surname)
        return (Reading(key, True, forename_tokens(forenames)),) if key else ()
    words = fold(text).split()
    if not words:
        return ()
    found = [Reading("".join(words), False)]
    if len(words) <= MAX_WORDS:
        for split in range(1, len(words)):
            first, rest = words[:split], words[split:]
            found.append(Reading("".join(first), True, _tokens(rest)))
            found.append(Reading("".join(rest), False, _tokens(first)))
    return tuple(dict.fromkeys(found))


def _tokens(words: list[str]) -> tuple[str, ...]:
    return forename_tokens(" ".join(words))
