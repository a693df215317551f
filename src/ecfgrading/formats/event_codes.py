"""Event codes (issue 24): what the federation's codes look like, checked in one place for
the registration form, the results file and the API.

The federation's codes are letters then digits (results-file.md's ``XX12345``; the demo's
``CG130098``, ``LG120036``): an event code is part of addresses (``/events/<code>/``) and
file names, so nothing but letters and digits, at most 20 (the registry's column). Case
is not significant: a code is kept in capitals.
"""

from __future__ import annotations

import re

MAX_LENGTH = 20
_CODE = re.compile(r"[A-Z][A-Z0-9]{1,19}")
EXAMPLE = "CG130098"
EXPECTED = (
    f"an event code is 2 to {MAX_LENGTH} letters and digits, beginning with a letter, "
    f"e.g. {EXAMPLE}"
)


def normal_event_code(text: str) -> str:
    """The code as kept: surrounding spaces dropped, in capitals."""
    return text.strip().upper()


def event_code_problem(text: str) -> str:
    """'' for a well-formed code (after ``normal_event_code``), else what is wrong with it
    and what was expected, for the form, the file's report and the API alike."""
    code = normal_event_code(text)
    if not code:
        return f"No event code given: {EXPECTED}."
    if _CODE.fullmatch(code):
        return ""
    if len(code) > MAX_LENGTH:
        return f"'{text.strip()}' is {len(code)} characters long: {EXPECTED}."
    bad = sorted({ch for ch in code if not ch.isascii() or not ch.isalnum()})
    if bad:
        shown = " ".join(repr(ch) for ch in bad)
        return f"'{text.strip()}' holds {shown}: {EXPECTED}."
    return f"'{text.strip()}' does not begin with a letter: {EXPECTED}."


# Events played abroad that direct members report (issue 24, case 7) are coded XA and a
# number in sequence: nothing of the member's (his membership number is private). The
# registration of events keeps these codes free.
ABROAD_PREFIX = "XA"
ABROAD_DIGITS = 6
_ABROAD = re.compile(rf"{ABROAD_PREFIX}\d+")


def abroad_code(number: int) -> str:
    """The code of the ``number``-th event abroad: ``XA000042``."""
    return f"{ABROAD_PREFIX}{number:0{ABROAD_DIGITS}d}"


def is_abroad_code(text: str) -> bool:
    """Whether a code is of the form kept for events abroad (XA and digits)."""
    return _ABROAD.fullmatch(normal_event_code(text)) is not None
