"""Forms of the members' pages and of the mail page: they validate input; the services
(members, abroad, mail) do the work."""

from __future__ import annotations

from typing import Any

from django import forms

from ecfgrading.backoffice.forms import TimeControlForm
from ecfgrading.engine.rateplay import CONTROL_FIELDS
from ecfgrading.services.abroad import AbroadEvent, AbroadGame

GAME_ROWS = 9  # a congress abroad is seldom longer; a longer one goes in two forms

# An event abroad gives its time control in one session at most, then the rest.
SECOND_SESSION = ("moves_second_session", "minutes_second_session")


def _number(label: str, *, high: int = 1000, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=0,
        max_value=high,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def file_text(value: str) -> None:
    """Text that goes into the results file built from the form: its fields are marked
    with '#' and end at the line's end, so neither may be in a value (issue 24, case 8)."""
    if "#" in value:
        raise forms.ValidationError(
            "expected no '#' (the results file marks its fields with it; write 'No. 2'"
            " for '#2'), got %(value)r",
            params={"value": value},
        )
    if len(value.splitlines()) > 1:
        raise forms.ValidationError(
            "expected one line, got a line break in %(value)r", params={"value": value}
        )


def _text(label: str, max_length: int, **kwargs: Any) -> forms.CharField:
    return forms.CharField(label=label, max_length=max_length, validators=[file_text], **kwargs)


def _date(label: str, *, required: bool = True) -> forms.DateField:
    return forms.DateField(
        label=label, required=required, widget=forms.DateInput(attrs={"type": "date"})
    )


class AbroadEventForm(TimeControlForm):
    """The event abroad: name, country, dates and time control (its rate by G2)."""

    control_fields = tuple(name for name in CONTROL_FIELDS if name not in SECOND_SESSION)
    name = _text("Event name", 150)
    country = _text("Country", 60)
    start = _date("First day")
    end = _date("Last day")

    @property
    def event_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("name", "country", "start", "end")]


class AbroadGameForm(forms.Form):
    """One game of the member's; a row left blank is no game."""

    round = _number("Round", high=99)
    date = _date("Date", required=False)
    opponent = _text("Opponent", 120, help_text="Surname, Forenames", required=True)
    fide_id = forms.RegexField(
        label="Opponent's FIDE id",
        regex=r"^\d{1,10}$",
        required=False,
        error_messages={"invalid": "expected the digits of a FIDE id"},
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    rating = _number("Opponent's rating", high=3000)
    colour = forms.ChoiceField(
        label="Your colour",
        required=False,
        choices=(("", "not known"), ("white", "White"), ("black", "Black")),
    )
    result = forms.ChoiceField(
        label="Your result",
        choices=(("", "choose"), ("win", "Won"), ("draw", "Drew"), ("loss", "Lost")),
    )

    def game(self) -> AbroadGame:
        data = self.cleaned_data
        return AbroadGame(
            round=data.get("round"),
            date=data.get("date"),
            opponent=data["opponent"],
            result=data["result"],
            colour=data.get("colour") or "",
            fide_id=data.get("fide_id") or "",
            rating=data.get("rating"),
        )


class _Games(forms.BaseFormSet):  # type: ignore[type-arg]
    def clean(self) -> None:
        super().clean()
        if not any(form.cleaned_data for form in self.forms if form.is_valid()):
            raise forms.ValidationError("expected at least one game, got none")


GamesFormSet = forms.formset_factory(
    AbroadGameForm, formset=_Games, extra=GAME_ROWS, max_num=GAME_ROWS, absolute_max=GAME_ROWS
)


def abroad_event(event: AbroadEventForm, games: Any) -> AbroadEvent:
    """The service's value from two valid forms (rows left blank are skipped)."""
    data = event.cleaned_data
    return AbroadEvent(
        name=data["name"],
        country=data["country"],
        start=data["start"],
        end=data["end"],
        control=event.time_control(),
        games=tuple(form.game() for form in games.forms if form.cleaned_data),
    )


class RejectForm(forms.Form):
    note = forms.CharField(
        label="Why (the member reads this)",
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class GamesMailingForm(forms.Form):
    """Members' games before a July list (initial) or its August revision."""

    list_id = forms.RegexField(
        label="List",
        regex=r"^\d{4}-07$",
        error_messages={"invalid": "expected a July list such as 2013-07"},
        help_text="A July list, e.g. 2013-07.",
    )
    before = forms.ChoiceField(
        label="Before",
        choices=[("initial", "the initial list"), ("august", "the August list")],
        widget=forms.RadioSelect,
    )
