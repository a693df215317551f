"""Names written in Latin-1 (ISO-8859-1), for files that graders' tools read as Latin-1.

The 2009-style list file (``gradesYYYYMM.csv``) is read byte by byte as ISO-8859-1 by
the graders' tools (docs/formats.md, "Encodings"). A letter that Latin-1 has ('é', 'ø',
'ß', 'ñ') is kept; any other is written as the nearest thing Latin-1 has, never as a
silent '?':

1. its decomposition (NFKD) without the accents Latin-1 lacks: 'ś' -> 's', 'ř' -> 'r',
   'ő' -> 'o', keeping one it has: 'ệ' -> 'ê'; 'ﬁ' -> 'fi';
2. else unidecode's transliteration, as ``names.fold`` uses it: 'ł' -> 'l',
   'Œ' -> 'OE', 'Ж' -> 'Zh', '’' -> "'";
3. else (a symbol unidecode does not know) a visible '?'.

Callers count what changed (``latin1(text) != nfc(text)``) and say so. The C1 control
characters (U+0080 to U+009F) are Latin-1 but are no letters, and Windows-1252 readers
take their bytes for other characters ('€', 'Š'), so they are transliterated too.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from unidecode import unidecode

UNKNOWN = "?"


def nfc(text: str) -> str:
    """Composed form: 'e' and a combining acute are one 'é', as Latin-1 writes it."""
    return unicodedata.normalize("NFC", text)


def latin1(text: str) -> str:
    """``text`` with every character Latin-1 can write, the others transliterated."""
    composed = nfc(text)
    if all(_writable(char) for char in composed):
        return composed
    return "".join(char if _writable(char) else _transliterated(char) for char in composed)


def _writable(char: str) -> bool:
    code = ord(char)
    return code < 0x80 or 0xA0 <= code <= 0xFF


# A few thousand distinct letters in a national list, each worked out once.
@lru_cache(maxsize=4096)
def _transliterated(char: str) -> str:
    decomposed = unicodedata.normalize("NFKD", char)
    base = "".join(c for c in decomposed if not unicodedata.combining(c))
    if base and all(_writable(c) for c in base):
        marks = [c for c in decomposed if unicodedata.combining(c)]
        return _with_a_mark(base, marks) or base
    return unidecode(char) or UNKNOWN


def _with_a_mark(base: str, marks: list[str]) -> str | None:
    """The base letter with one of its accents, where Latin-1 has that letter."""
    for mark in marks:
        kept = nfc(base + mark)
        if len(kept) == 1 and _writable(kept):
            return kept
    return None
