"""Categories and who is published (G23)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.inputs import BoolArray, IntArray
from ecfgrading.engine.rules import CategoryRule, RuleSet
from ecfgrading.engine.types import Category

# The integer code of a category in columnar outcomes is its position here.
CATEGORY_CODES: tuple[Category, ...] = tuple(Category)
_CODE = {category: code for code, category in enumerate(CATEGORY_CODES)}


def category_code(category: Category) -> int:
    return _CODE[category]


def categories(
    counts: tuple[IntArray, IntArray, IntArray],
    x_grade: BoolArray,
    junior: BoolArray,
    rules: RuleSet,
) -> NDArray[np.int8]:
    """G23: the first row of the player's table that fits; X (G16) comes first."""
    adult = _table(counts, rules.adult_categories)
    young = _table(counts, rules.junior_categories)
    chosen = np.where(junior, young, adult)
    return np.where(x_grade, _CODE[Category.X], chosen).astype(np.int8)


def _table(
    counts: tuple[IntArray, IntArray, IntArray], table: tuple[CategoryRule, ...]
) -> IntArray:
    n0, n1, n2 = counts
    n01, n012 = n0 + n1, n0 + n1 + n2
    fits = [(n0 >= row.min_n0) & (n01 >= row.min_n01) & (n012 >= row.min_n012) for row in table]
    codes = [_CODE[Category(row.category)] for row in table]
    return np.select(fits, codes, default=_CODE[Category.NONE]).astype(np.int64)
