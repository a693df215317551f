"""G29's conversions: from an ECF grade, a FIDE rating or a national Elo.

The lists and help pages show the seeds' table (``conversion_table``); a program asks about
one figure. Every figure comes from the engine's formulas under the rule set, unrounded
(an ECF grade from a FIDE rating is rarely whole) and never clamped: the note about the
minimum published FIDE rating goes beside it (G29). The table's rows are the same figures
(``convert``), rounded as the seeds print them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from ecfgrading.engine.conversions import (
    below_fide_minimum,
    ecf_to_fide,
    ecf_to_national_elo,
    fide_to_ecf,
    national_elo_to_ecf,
)
from ecfgrading.engine.rules import ECF_2009, RuleSet

# The seeds' illustrative conversion table (G29): ECF 60 to 270 in steps of 10.
CONVERSION_GRADES = range(60, 271, 10)


class Scale(StrEnum):
    """What a figure is: the query parameter that gives it."""

    ECF = "ecf"
    FIDE = "fide"
    ELO = "elo"  # national Elo


@dataclass(frozen=True)
class Converted:
    """One figure on the three scales."""

    given: Scale
    ecf: float
    fide: float
    national_elo: float
    below_fide_minimum: bool


def conversions(
    *, ecf: float | None = None, fide: float | None = None, elo: float | None = None
) -> ConversionTable[Converted]:
    """Each figure given on every scale, a row each (ECF, FIDE, Elo); with none, the seeds'
    table (ECF 60 to 270 in steps of 10), unrounded."""
    asked = {Scale.ECF: ecf, Scale.FIDE: fide, Scale.ELO: elo}
    given = [convert(scale, value) for scale, value in asked.items() if value is not None]
    rows = tuple(given) or tuple(convert(Scale.ECF, grade) for grade in CONVERSION_GRADES)
    return ConversionTable(rows, *_formulas(ECF_2009))


def convert(scale: Scale, value: float, rules: RuleSet = ECF_2009) -> Converted:
    """G29: ECF = (FIDE - 650) / 8 = (Elo - 600) / 8, and back."""
    if scale is Scale.ECF:
        grade = float(value)
    elif scale is Scale.FIDE:
        grade = fide_to_ecf(value, rules)
    else:
        grade = national_elo_to_ecf(value, rules)
    fide = ecf_to_fide(grade, rules)
    return Converted(
        given=scale,
        ecf=grade,
        fide=fide,
        national_elo=ecf_to_national_elo(grade, rules),
        below_fide_minimum=below_fide_minimum(fide, rules),
    )


# The seeds' table, as the pages show it ----------------------------------------------------


@dataclass(frozen=True)
class Conversion:
    """One row of the conversion table (G29), in whole numbers."""

    ecf: int
    fide: int
    national_elo: int
    below_fide_minimum: bool


Row = TypeVar("Row", Converted, Conversion)


@dataclass(frozen=True)
class ConversionTable(Generic[Row]):
    """Rows of figures (unrounded for a program, whole for a page) with G29's formulas."""

    rows: tuple[Row, ...]
    fide_formula: str  # ECF × 8 + 650 = FIDE
    national_formula: str
    note: str  # The minimum published FIDE Elo is 1200


def conversion_table(
    rules: RuleSet = ECF_2009, grades: range = CONVERSION_GRADES
) -> ConversionTable[Conversion]:
    """G29: FIDE and national Elo equivalents of ECF grades, with the seeds' note."""
    return ConversionTable(tuple(conversion(grade, rules) for grade in grades), *_formulas(rules))


def _formulas(rules: RuleSet) -> tuple[str, str, str]:
    """G29's formulas and the note on the minimum published FIDE rating, in words."""
    factor = _whole(rules.elo_factor)
    return (
        f"ECF × {factor} + {_whole(rules.fide_offset)} = FIDE",
        f"ECF × {factor} + {_whole(rules.national_elo_offset)} = national Elo",
        f"The minimum published FIDE Elo is {_whole(rules.fide_minimum)}",
    )


def conversion(grade: int, rules: RuleSet = ECF_2009) -> Conversion:
    """An ECF grade's row of the table: ``convert``'s figures, whole."""
    found = convert(Scale.ECF, grade, rules)
    return Conversion(grade, round(found.fide), round(found.national_elo), found.below_fide_minimum)


def _whole(value: float) -> int:
    """A rule's number as players read it: the rule set keeps floats for the arithmetic."""
    return round(float(value))
