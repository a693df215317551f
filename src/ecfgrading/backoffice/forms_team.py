"""The grading team's forms: they check what was typed; services/team does the work."""

from __future__ import annotations

from typing import Any

from django import forms

from ecfgrading.engine import Rate
from ecfgrading.formats.values import MAX_GRADE
from ecfgrading.registry.models import Feedback
from ecfgrading.services.grading.assignments import FIDE_RATINGS, fide_formula

RATES = [(r.value, r.value) for r in Rate]


def _code(label: str, **kwargs: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=10,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        **kwargs,
    )


class LinkForm(forms.Form):
    code = _code("Grading code", help_text="The player the case is, e.g. 102807J.")


class MergeForm(forms.Form):
    absorbed = _code(
        "Merge this player", help_text="The duplicate record: his code leads to the other."
    )
    into = _code("into this player", help_text="The record that stays.")
    why = forms.CharField(
        label="Why",
        max_length=500,
        required=False,
        help_text="Shown on the public amendments page, e.g. 'two records of the same player'.",
    )


class AssignmentForm(forms.Form):
    """A starting grade (G6), by hand or from a FIDE rating (G29, G30); what was typed is
    checked once, by the assignments service, for the preview as for the save."""

    code = _code("Grading code")
    rate = forms.ChoiceField(label="Rate", choices=RATES)
    valid_from = forms.CharField(
        label="From list", max_length=7, help_text="The first list it applies to, e.g. 2013-07."
    )
    # The ranges are the browser's hint; the service's checks decide (check_assignment).
    grade = forms.DecimalField(
        label="Grade",
        required=False,
        decimal_places=1,
        widget=forms.NumberInput(attrs={"min": 0, "max": MAX_GRADE}),
    )
    fide = forms.IntegerField(
        label="or FIDE rating",
        required=False,
        widget=forms.NumberInput(attrs={"min": FIDE_RATINGS[0], "max": FIDE_RATINGS[-1]}),
        help_text=f"Converted by G29: {fide_formula()}.",
    )
    reason = forms.CharField(label="Reason", max_length=200, required=False)


class ComputeForm(forms.Form):
    list_id = forms.CharField(label="List", max_length=7, help_text="e.g. 2013-07 or 2013-01.")
    rate = forms.ChoiceField(label="Rate", choices=RATES)
    version = forms.CharField(
        label="Version",
        max_length=10,
        required=False,
        help_text="initial, august or revN; empty for the next one.",
    )


class AnswerForm(forms.Form):
    answer = forms.CharField(
        label="Answer to the sender",
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Shown on the query's public status page and e-mailed to him.",
    )
    status = forms.ChoiceField(label="Status", choices=Feedback.Status.choices)
    what = forms.CharField(
        label="Amendment: what changed",
        required=False,
        max_length=1000,
        help_text="For a resolved correction: recorded for the public amendments page.",
    )
    why = forms.CharField(label="Amendment: why", required=False, max_length=1000)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if bool(cleaned.get("what")) != bool(cleaned.get("why")):
            self.add_error("what", "expected both what changed and why, or neither")
        return cleaned


class AssignToForm(forms.Form):
    member = forms.TypedChoiceField(label="Assign to", coerce=int, empty_value=None, required=False)

    def __init__(self, members: list[Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "no one")] + [(str(u.id), u.get_username()) for u in members]
        self.fields["member"].choices = choices  # type: ignore[attr-defined]


# --- events (issue 24, case 5) ---------------------------------------------------------


def _day(label: str, *, required: bool = True) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=required,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class EventEditForm(forms.Form):
    """What the team may correct of an event; the events service checks the rest."""

    name = forms.CharField(label="Event name", max_length=200)
    rate = forms.ChoiceField(
        label="Rate", choices=RATES, help_text="Kept while the event holds accepted games."
    )
    start = _day("First day")
    end = _day("Last day")
    deadline = _day("Results due by", required=False)
    officer_name = forms.CharField(
        label="Organiser or officer, as named", max_length=200, required=False
    )


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label="Why it is withdrawn",
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Kept with the event and in the audit log.",
    )


class ReassignForm(AssignToForm):
    """The grading officer the event is given to (or no one)."""
