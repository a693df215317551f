"""Closed sets of stored values, spelled exactly as the engine spells them."""

from django.db import models

from ecfgrading.engine.types import Category, NotGraded, Rate, ResultCode, StartSource


class RateChoice(models.TextChoices):
    """The rate of a list (rules, section 1)."""

    STANDARD = Rate.STANDARD.value, "Standard"
    RAPID = Rate.RAPID.value, "Rapid"


class PlayRate(models.TextChoices):
    """The rate of play of an event or a game; NONE when it is not graded (G2)."""

    STANDARD = Rate.STANDARD.value, "Standard"
    RAPID = Rate.RAPID.value, "Rapid"
    NONE = "none", "Not graded"


class NotGradedReason(models.TextChoices):
    """Why an event or a game is recorded but not graded (G1, G2)."""

    DEFAULT = NotGraded.DEFAULT.value, "Default, bye or walkover"
    LIGHTNING = NotGraded.LIGHTNING.value, "Lightning"
    ONLINE = NotGraded.ONLINE.value, "Online"
    CORRESPONDENCE = NotGraded.CORRESPONDENCE.value, "Correspondence"
    NO_CLOCK = NotGraded.NO_CLOCK.value, "No clocks"
    # Replaced by a later submission of the same event; kept on record.
    SUPERSEDED = "superseded", "Superseded by a later submission"
    # Removed by a correction (issue 24, case 2): kept on record, never graded again.
    REMOVED = "removed", "Removed by the grading team"


class Result(models.TextChoices):
    """A results file's SCORE, from the side of player 1 (G1)."""

    WIN = ResultCode.WIN.text, "1-0"
    LOSS = ResultCode.LOSS.text, "0-1"
    DRAW = ResultCode.DRAW.text, "½-½"
    DEFAULT_WIN = ResultCode.DEFAULT_WIN.text, "1-0 by default"
    DEFAULT_LOSS = ResultCode.DEFAULT_LOSS.text, "0-1 by default"
    DOUBLE_DEFAULT = ResultCode.DOUBLE_DEFAULT.text, "double default"


class CategoryChoice(models.TextChoices):
    """Grade categories (G23); blank: not published."""

    X = Category.X.value, "X"
    A = Category.A.value, "A"
    B = Category.B.value, "B"
    C = Category.C.value, "C"
    D = Category.D.value, "D"
    E = Category.E.value, "E"
    NONE = Category.NONE.value, "Ungraded"


class StartSourceChoice(models.TextChoices):
    """Where a starting grade came from (G4..G11)."""

    PREVIOUS = StartSource.PREVIOUS.value, "Previous grade"
    OTHER_RATE = StartSource.OTHER_RATE.value, "Other rate"
    ASSIGNED = StartSource.ASSIGNED.value, "Assigned"
    ESTIMATED = StartSource.ESTIMATED.value, "Estimated"


class Sex(models.TextChoices):
    MALE = "M", "Male"
    FEMALE = "F", "Female"
    UNKNOWN = "", "Unknown"


class Colour(models.TextChoices):
    WHITE = "W", "White"
    BLACK = "B", "Black"
    UNKNOWN = "", "Unknown"
