"""Rating conversions (G29) between ECF grades, FIDE ratings and national Elo."""

from __future__ import annotations

from ecfgrading.engine.rules import ECF_2009, RuleSet


def ecf_to_fide(grade: float, rules: RuleSet = ECF_2009) -> float:
    """G29: FIDE = ECF x 8 + 650 (not clamped; see ``below_fide_minimum``)."""
    return grade * rules.elo_factor + rules.fide_offset


def fide_to_ecf(rating: float, rules: RuleSet = ECF_2009) -> float:
    """G29: ECF = (FIDE - 650) / 8."""
    return (rating - rules.fide_offset) / rules.elo_factor


def ecf_to_national_elo(grade: float, rules: RuleSet = ECF_2009) -> float:
    """G29: national Elo = ECF x 8 + 600."""
    return grade * rules.elo_factor + rules.national_elo_offset


def national_elo_to_ecf(rating: float, rules: RuleSet = ECF_2009) -> float:
    """G29: ECF = (Elo - 600) / 8."""
    return (rating - rules.national_elo_offset) / rules.elo_factor


def below_fide_minimum(rating: float, rules: RuleSet = ECF_2009) -> bool:
    """G29: the minimum published FIDE rating is 1200; shown as a note, never clamped."""
    return rating < rules.fide_minimum
