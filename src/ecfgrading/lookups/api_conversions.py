"""G29's conversions for /api/v1: from an ECF grade, a FIDE rating or a national Elo.

The help page shows the seeds' table (``guide.conversion_table``); a program asks about
one figure. Every figure comes from the engine's formulas under the rule set, unrounded
(an ECF grade from a FIDE rating is rarely whole) and never clamped: the note about the
minimum published FIDE rating goes beside it (G29).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ecfgrading.engine.conversions import (
    below_fide_minimum,
    ecf_to_fide,
    ecf_to_national_elo,
    fide_to_ecf,
    national_elo_to_ecf,
)
from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.lookups.guide import conversion_table


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


@dataclass(frozen=True)
class Conversions:
    rows: tuple[Converted, ...]
    fide_formula: str  # ECF × 8 + 650 = FIDE
    national_formula: str
    note: str  # the minimum published FIDE rating


def conversions(
    *, ecf: float | None = None, fide: float | None = None, elo: float | None = None
) -> Conversions:
    """Each figure given on every scale, a row each (ECF, FIDE, Elo); with none, the seeds'
    table (ECF 60 to 270 in steps of 10)."""
    asked = {Scale.ECF: ecf, Scale.FIDE: fide, Scale.ELO: elo}
    given = [convert(scale, value) for scale, value in asked.items() if value is not None]
    table = conversion_table(ECF_2009)
    rows = tuple(given) or tuple(convert(Scale.ECF, row.ecf) for row in table.rows)
    return Conversions(rows, table.fide_formula, table.national_formula, table.note)


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
