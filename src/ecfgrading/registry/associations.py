"""Association codes: the four characters that name a county in the federation's API.

The federation's ``clubs/all_active`` gives each club the code of its association (a
county or union), and its clients rely on exactly four characters: Chess League Manager
keeps the clubs whose ``assoc_code`` equals the four-character unit code its
administrator set up. The federation's own codes are published nowhere we could find,
so ours are made by the rule below; they are ours, not the federation's.

A county's code is given when it is created, or else made from its name:

1. the name folded to plain capital letters and digits, in words, without the small
   words ``OF``, ``AND``, ``THE`` ('Isle of Wight' -> ``ISLE WIGHT``);
2. the first letter of each word but the last, then the last word, to four characters
   ('Yorkshire' -> ``YORK``, 'North Yorkshire' -> ``NYOR``, 'Sheffield & District CA'
   -> ``SDCA``); when that gives fewer than four, the words run together instead
   ('Cleveland CA' -> ``CLEV``), padded with ``X`` ('Ely' -> ``ELYX``);
3. a code already held by another county has its end replaced by a number, the
   smallest free one: ``YOR2`` ... ``YOR9``, ``YO10`` ... ``YO99``, ``Y100`` ... ``Y999``.

A code is kept when the county is renamed: clients have it in their settings.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from django.core.exceptions import ValidationError

from ecfgrading.errors import Conflict
from ecfgrading.matching.names import fold

ASSOC_CODE_LENGTH = 4
ASSOC_CODE = re.compile(r"[A-Z0-9]{4}")
PAD = "X"  # fills a name of fewer than four letters and digits
_SMALL_WORDS = frozenset({"OF", "AND", "THE"})


class AssociationCodesExhausted(Conflict):
    """Every numbered variant of a name's code is held (a thousand counties alike)."""


def validate_assoc_code(value: str) -> None:
    """Four capital letters or digits, as the federation's clients expect."""
    if not ASSOC_CODE.fullmatch(value):
        raise ValidationError(
            "expected four capital letters or digits, e.g. NORF; got %(value)r",
            code="invalid",
            params={"value": value},
        )


def assoc_code_for(name: str, taken: Collection[str]) -> str:
    """The code the rule gives a county of this name, beside the codes ``taken``."""
    base = base_code(name)
    for candidate in _variants(base):
        if candidate not in taken:
            return candidate
    raise AssociationCodesExhausted(
        f"every association code made from {name!r} ({base} and its numbered forms) is "
        "held by another county; give this county its code"
    )


def base_code(name: str) -> str:
    """Steps 1 and 2 of the rule: 'North Yorkshire' -> 'NYOR'."""
    words = fold(name).upper().split()
    words = [word for word in words if word not in _SMALL_WORDS] or words
    short = "".join(word[0] for word in words[:-1]) + (words[-1] if words else "")
    letters = short if len(short) >= ASSOC_CODE_LENGTH else "".join(words)
    return letters[:ASSOC_CODE_LENGTH].ljust(ASSOC_CODE_LENGTH, PAD)


def _variants(base: str) -> Iterator[str]:
    """Step 3: the code itself, then its end replaced by 2-9, 10-99, 100-999."""
    yield base
    for width in range(1, ASSOC_CODE_LENGTH):
        for number in range(2 if width == 1 else 10 ** (width - 1), 10**width):
            yield base[: ASSOC_CODE_LENGTH - width] + str(number)
