"""Grading codes (G28): six digits and a check letter."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.pickled import by_fields

LAST_CODE = 999_999  # G28: six digits
_SHAPE = re.compile(r"^(\d{6})([A-Z])$")


class InvalidCode(ValueError):
    """A grading code of the wrong shape or with a wrong check letter."""


def check_letter(digits: int | str, rules: RuleSet = ECF_2009) -> str:
    """G28: digits weighted 7,6,5,4,3,2; the sum modulo 11 indexes the letters."""
    text = f"{int(digits):06d}"
    if len(text) != len(rules.code_weights):
        raise InvalidCode(f"expected six digits, got {text!r}")
    total = sum(int(d) * w for d, w in zip(text, rules.code_weights, strict=True))
    return rules.code_letters[total % 11]


def _partial_sums(weights: tuple[int, ...]) -> tuple[int, ...]:
    """The weighted digit sums of 000..999 under ``weights`` (three of them)."""
    return tuple(
        sum(int(d) * w for d, w in zip(f"{n:03d}", weights, strict=True)) for n in range(1000)
    )


# check_letter under ECF_2009 of a code's first and last three digits: a code's letter is
# then two look-ups and a sum, not six (a list of 37,000 players works out 37,000 letters).
_HIGH_SUMS = _partial_sums(ECF_2009.code_weights[:3])
_LOW_SUMS = _partial_sums(ECF_2009.code_weights[3:])


def code_letter(number: int) -> str:
    """check_letter(number) under ECF_2009, for a number of 0 to LAST_CODE."""
    high, low = divmod(number, 1000)
    return ECF_2009.code_letters[(_HIGH_SUMS[high] + _LOW_SUMS[low]) % 11]


@by_fields
@dataclass(frozen=True, order=True)
class GradingCode:
    """A valid grading code such as ``233310H``."""

    number: int

    def __post_init__(self) -> None:
        if not 0 <= self.number <= LAST_CODE:
            raise InvalidCode(f"expected six digits, got {self.number}")

    @property
    def letter(self) -> str:
        return code_letter(self.number)

    def __str__(self) -> str:
        return f"{self.number:06d}{self.letter}"

    @classmethod
    def parse(cls, text: str) -> GradingCode:
        """Read a code, raising InvalidCode that says what was expected."""
        cleaned = text.strip().upper()
        match = _SHAPE.match(cleaned)
        if match is None:
            raise InvalidCode(
                f"expected a grading code of six digits and a check letter, got {text!r}"
            )
        code = cls(int(match.group(1)))
        if code.letter != match.group(2):
            raise InvalidCode(
                f"wrong check letter in {cleaned!r}: expected {code.letter!r}, "
                f"got {match.group(2)!r}"
            )
        return code


def code_text(number: int | None) -> str:
    """123456 -> '123456A': the full code with its check letter (G28); '' for none."""
    return "" if number is None else _code_text(number)


# A code never changes its letter: lists and reports spell the same codes thousands of
# times, so each is worked out once (there are at most a million of them).
@functools.lru_cache(maxsize=LAST_CODE + 1)
def _code_text(number: int) -> str:
    return str(GradingCode(number))


def is_valid_code(text: str) -> bool:
    try:
        GradingCode.parse(text)
    except InvalidCode:
        return False
    return True


def next_code(last_issued: int) -> GradingCode:
    """G28: codes are issued in sequence and never reused.

    ``last_issued`` is the high-water mark the registry keeps, so a code whose
    player was merged or deleted is never issued again.
    """
    return GradingCode(last_issued + 1)
