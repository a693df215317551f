"""Value converters shared by the readers: each returns a value or raises BadValue."""

from __future__ import annotations

import math
from datetime import date
from functools import lru_cache

from ecfgrading.engine.codes import GradingCode, check_letter, code_letter

# A date outside these years is a typing mistake, not a chess event or a birth.
FIRST_YEAR = 1900
LAST_YEAR = 2099
# No PIN, index, board or grade needs more; int() refuses over 4300 digits anyway.
MAX_DIGITS = 9
# Above any grade ever published (the strongest players stand near 290): a typing
# mistake or a placeholder such as 999, never a grade.
MAX_GRADE = 400


class BadValue(ValueError):
    """A value that does not convert: the problem code and what was expected."""

    def __init__(self, code: str, expected: str) -> None:
        super().__init__(expected)
        self.code = code
        self.expected = expected


def text(value: str) -> str:
    return value


def whole(value: str) -> int:
    if value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS:
        return int(value)
    raise BadValue("bad-number", "a whole number")


def decimal(value: str) -> float:
    """A non-negative number of minutes or seconds, such as 90 or 1.5."""
    if value.isascii() and value.replace(".", "", 1).isdigit():
        number = float(value)
        if math.isfinite(number):
            return number
    raise BadValue("bad-number", "a number such as 90 or 1.5")


@lru_cache(maxsize=4096)  # a file repeats its few dates thousands of times
def day(value: str) -> date:
    """dd/mm/yyyy, or d/m/yyyy (results-file.md)."""
    parts = value.split("/")
    if len(parts) != 3 or not _date_shape(*parts):
        raise BadValue("bad-date", "a date dd/mm/yyyy")
    dd, mm, yyyy = (int(part) for part in parts)
    if not FIRST_YEAR <= yyyy <= LAST_YEAR:
        raise BadValue("bad-date", f"a date dd/mm/yyyy in {FIRST_YEAR}..{LAST_YEAR}")
    try:
        return date(yyyy, mm, dd)
    except ValueError:
        raise BadValue("bad-date", "a day that exists, dd/mm/yyyy") from None


def _date_shape(dd: str, mm: str, yyyy: str) -> bool:
    digits = f"{dd}{mm}{yyyy}"
    return (
        digits.isascii()
        and digits.isdigit()
        and 0 < len(dd) <= 2
        and 0 < len(mm) <= 2
        and len(yyyy) == 4
    )


def format_day(value: date) -> str:
    return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"


def grading_code(value: str) -> GradingCode:
    """G28: six digits and the right check letter; the two mistakes get two codes."""
    cleaned = value.strip().upper()
    digits, letter = cleaned[:6], cleaned[6:]
    if not (digits.isascii() and digits.isdigit() and len(digits) == 6 and len(letter) == 1):
        raise BadValue("bad-code", "six digits and a check letter (G28)")
    number = int(digits)
    if code_letter(number) != letter:  # GradingCode.parse's check, without its regex
        expected = f"check letter {check_letter(digits)} after {digits} (G28)"
        raise BadValue("bad-check-letter", expected)
    return GradingCode(number)
