"""Grading codes spelled in full (G28): the one ``code_text`` lists, reports and the
federation's API shapes all use."""

from __future__ import annotations

import pytest

from ecfgrading.engine.codes import code_text


# G28's examples that must validate (grading-rules.md), as numbers on record.
@pytest.mark.parametrize(
    ("number", "text"),
    [(233310, "233310H"), (102807, "102807J"), (155624, "155624B"), (261619, "261619B")],
)
def test_g28_a_code_is_spelled_with_its_check_letter(number: int, text: str) -> None:
    assert code_text(number) == text


def test_g28_a_short_number_keeps_its_leading_zeros() -> None:
    # 000042: 4x3 + 2x2 = 16; 16 mod 11 = 5 -> 'F' (ABCDEFGHJKL)
    assert code_text(42) == "000042F"


def test_no_code_is_spelled_as_nothing() -> None:
    assert code_text(None) == ""
