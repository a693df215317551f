"""The back office's forms: they validate input; the services do the work."""

from __future__ import annotations

from typing import Any

from django import forms

from ecfgrading.engine.rateplay import CONTROL_FIELDS, TimeControlInput
from ecfgrading.formats.event_codes import event_code_problem, normal_event_code
from ecfgrading.registry.models import Event
from ecfgrading.services.officers import results_due_words

# The label of each of the time control's fields (engine.rateplay.CONTROL_FIELDS).
CONTROL_LABELS = {
    "minutes_for_game": "Minutes for the game",
    "moves_first_session": "Moves in the first session",
    "minutes_first_session": "Minutes for the first session",
    "moves_second_session": "Moves in the second session",
    "minutes_second_session": "Minutes for the second session",
    "minutes_rest_of_game": "Minutes for the rest of the game",
    "seconds_per_move": "Seconds added per move",
}


def _minutes(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=1000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tc"}),
    )


class TimeControlForm(forms.Form):
    """Dates and a time control, as an event's results file gives them (G2 decides its
    rate): the registration form and a direct member's event abroad share it."""

    control_fields: tuple[str, ...] = CONTROL_FIELDS  # in the results file's order

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.control_fields:
            self.fields[name] = _minutes(CONTROL_LABELS[name])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and end < start:
            self.add_error("end", f"expected the last day on or after the first, {start}")
        if not (cleaned.get("minutes_for_game") or cleaned.get("minutes_first_session")):
            self.add_error(
                "minutes_for_game",
                "expected the minutes for the game, or the first session's moves and minutes",
            )
        return cleaned

    @property
    def time_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.control_fields]

    def time_control(self) -> TimeControlInput:
        data = self.cleaned_data if self.is_bound and hasattr(self, "cleaned_data") else {}
        return TimeControlInput(**{name: data.get(name) for name in self.control_fields})


class EventForm(TimeControlForm):
    """An event to register: the time control decides its rate of play (G2)."""

    code = forms.CharField(
        label="Event code",
        max_length=20,
        help_text="The code the federation gave the event, as in the results file.",
    )
    name = forms.CharField(label="Event name", max_length=200)
    kind = forms.ChoiceField(label="Kind", choices=Event.Kind.choices)
    start = forms.DateField(
        label="First day", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    end = forms.DateField(
        label="Last day",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["end"].help_text = f"The results are due {results_due_words()} after it."

    @property
    def event_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("code", "name", "kind", "start", "end")]

    def clean_code(self) -> str:
        """The federation's pattern (issue 24, case 5), said at the field."""
        code: str = self.cleaned_data["code"]
        if problem := event_code_problem(code):
            raise forms.ValidationError(problem)
        return normal_event_code(code)


def time_control_from(query: Any) -> TimeControlInput:
    """A time control from a query string (the rate-of-play preview), ignoring junk."""
    values: dict[str, int | None] = {}
    for name in CONTROL_FIELDS:
        text = str(query.get(name, "")).strip()
        values[name] = int(text) if text.isdigit() and int(text) <= 1000 else None
    return TimeControlInput(**values)


class UploadForm(forms.Form):
    results = forms.FileField(
        label="Results file",
        help_text=(
            "The text file your grading program wrote (.txt), one event per file; or the"
            " FIDE report (.trf) your pairing program wrote."
        ),
    )
    event = forms.ChoiceField(
        label="Event, for a FIDE report (.trf)",
        required=False,
        help_text="A TRF does not name the event: choose it. A results file names its own.",
    )

    def __init__(
        self, *args: Any, events: list[tuple[str, str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["event"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "(a results file names its event)"), *(events or [])]


class SubmitForm(forms.Form):
    """The checked file sent back for import: what was checked is what is imported, and
    the import checks it all again."""

    filename = forms.CharField(max_length=255)
    content = forms.CharField(max_length=2 * 1024 * 1024, strip=False)
    event = forms.CharField(max_length=20, required=False)  # the event of a TRF
