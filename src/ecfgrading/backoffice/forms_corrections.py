"""The grading team's correction forms (issue 24, case 2): they check what was typed;
``services.team.corrections`` decides and does the work."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.validators import RegexValidator

from ecfgrading.registry.models import Player, Result
from ecfgrading.registry.models.choices import Sex

ACTIONS = ("result", "remove", "move")  # what can be done to a game
_REF = re.compile(r"^FB-[A-Z0-9]{1,17}$", re.IGNORECASE)  # a query's reference


def query_ref(text: str) -> str:
    """A query's reference as given in an address (any case), or "" when it is none."""
    ref = text.strip().upper()
    return ref if _REF.match(ref) else ""


class CorrectionForm(forms.Form):
    """What every correction carries: why (public), and the query that asked for it."""

    why = forms.CharField(
        label="Why",
        max_length=500,
        required=False,
        help_text="Shown with the correction on the public amendments page.",
    )
    query = forms.CharField(
        required=False,
        max_length=20,
        widget=forms.HiddenInput,
        validators=[RegexValidator(_REF, "expected a query's reference, like FB-7K3M9QXA")],
    )


class ResultForm(CorrectionForm):
    result = forms.ChoiceField(
        label="The result should be",
        choices=Result.choices,
        help_text="From the side of the player named first.",
    )


class RemoveForm(CorrectionForm):
    """Nothing more than why: the game is removed."""


class MoveForm(CorrectionForm):
    side = forms.TypedChoiceField(label="The side of", coerce=int, choices=[(1, "1"), (2, "2")])
    code = forms.CharField(
        label="was played by (grading code)",
        max_length=10,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text="The player who really played it, e.g. 102807J.",
    )

    def name_sides(self, first: str, second: str) -> None:
        self.fields["side"].choices = [(1, first), (2, second)]  # type: ignore[attr-defined]


_PLAYER = {name: Player._meta.get_field(name) for name in ("surname", "forenames", "nation")}


class DetailsForm(CorrectionForm):
    surname = forms.CharField(label="Surname", max_length=_PLAYER["surname"].max_length)
    forenames = forms.CharField(
        label="Forenames", max_length=_PLAYER["forenames"].max_length, required=False
    )
    sex = forms.ChoiceField(label="Sex", choices=Sex.choices, required=False)
    date_of_birth = forms.DateField(
        label="Date of birth (private)",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    fide_id = forms.IntegerField(label="FIDE id", required=False, min_value=1)
    membership_no = forms.CharField(
        label="Membership number (private)", max_length=20, required=False
    )
    nation = forms.CharField(
        label="Nation", max_length=_PLAYER["nation"].max_length, help_text="e.g. ENG, WLS, IRL."
    )
    club = forms.CharField(
        label="Add a club (code or name on record)",
        max_length=100,
        required=False,
        help_text="He plays for it from this season.",
    )
    replacing = forms.TypedChoiceField(
        label="in place of", coerce=int, empty_value=None, required=False
    )

    def __init__(self, memberships: list[tuple[int, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "none: beside his clubs"), *memberships]
        self.fields["replacing"].choices = choices  # type: ignore[attr-defined]
