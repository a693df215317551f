"""Domain words as types: rates of play, result codes, categories, sources."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Rate(StrEnum):
    """Rate of play; the two are graded completely separately (rules, section 1)."""

    STANDARD = "standard"
    RAPID = "rapid"

    @property
    def other(self) -> Rate:
        return Rate.RAPID if self is Rate.STANDARD else Rate.STANDARD


class NotGraded(StrEnum):
    """Why a game or an event is recorded but not graded (G1, G2)."""

    DEFAULT = "default"
    LIGHTNING = "lightning"
    ONLINE = "online"
    CORRESPONDENCE = "correspondence"
    NO_CLOCK = "no-clock"


class ResultCode(IntEnum):
    """SCORE codes of a results file, from the side of PIN1 (G1).

    The integer values are what the engine's columnar inputs carry.
    """

    WIN = 0  # '10'
    LOSS = 1  # '01'
    DRAW = 2  # '55'
    DEFAULT_WIN = 3  # '1d'
    DEFAULT_LOSS = 4  # 'd1'
    DOUBLE_DEFAULT = 5  # 'dd'

    @classmethod
    def from_text(cls, text: str) -> ResultCode:
        """Read a results-file SCORE; raises ValueError for anything else."""
        try:
            return _CODE_BY_TEXT[text.strip().lower()]
        except KeyError:
            raise ValueError(
                f"expected SCORE 10, 01, 55, 1d, d1 or dd, got {text.strip()!r}"
            ) from None

    @property
    def text(self) -> str:
        return RESULT_TEXT[self]

    @property
    def graded(self) -> bool:
        """G1: defaults, byes and walkovers are recorded but never graded."""
        return self in GRADED_RESULTS  # a set: a season's import asks 500,000 times (issue 25)

    @property
    def score1(self) -> float:
        """PIN1's score s (1 win, 0.5 draw, 0 loss); defaults score as their winner."""
        return _SCORE1[self]


# A results file's SCORE text of each code, and the codes graded (G1): looked up
# directly where a season's games go by one at a time (the importer's rows, issue 25).
RESULT_TEXT = {
    ResultCode.WIN: "10",
    ResultCode.LOSS: "01",
    ResultCode.DRAW: "55",
    ResultCode.DEFAULT_WIN: "1d",
    ResultCode.DEFAULT_LOSS: "d1",
    ResultCode.DOUBLE_DEFAULT: "dd",
}
_CODE_BY_TEXT = {text: code for code, text in RESULT_TEXT.items()}
GRADED_RESULTS = frozenset({ResultCode.WIN, ResultCode.LOSS, ResultCode.DRAW})
_SCORE1 = {
    ResultCode.WIN: 1.0,
    ResultCode.LOSS: 0.0,
    ResultCode.DRAW: 0.5,
    ResultCode.DEFAULT_WIN: 1.0,
    ResultCode.DEFAULT_LOSS: 0.0,
    ResultCode.DOUBLE_DEFAULT: 0.0,
}


class Category(StrEnum):
    """Grade categories (G23, G39); NONE means not published ("ungraded")."""

    X = "X"
    A = "A"
    B = "B"
    C = "C"
    D = "D"
    E = "E"
    F = "F"  # ecf-2015 only (G39, G40)
    NONE = ""


class StartSource(StrEnum):
    """Where a starting grade came from (G4..G11)."""

    PREVIOUS = "previous"
    OTHER_RATE = "other-rate"
    ASSIGNED = "assigned"
    ESTIMATED = "estimated"


class Flag(StrEnum):
    """Flags an outcome carries for the grading team."""

    UNANCHORED = "unanchored"  # G11
