"""The time control's fields are named once (engine.rateplay.CONTROL_FIELDS, the results
file's header fields); the officers' and members' forms take theirs from it (issue 20:
the field list was written three times)."""

from __future__ import annotations

from django.http import QueryDict

from ecfgrading.backoffice.forms import CONTROL_LABELS, EventForm, time_control_from
from ecfgrading.backoffice.forms_members import SECOND_SESSION, AbroadEventForm
from ecfgrading.engine.rateplay import CONTROL_FIELDS, TimeControlInput

# results-file.md, EVENT DETAILS: the time-control fields in the order it gives them.
HEADER = (
    "minutes_for_game",
    "moves_first_session",
    "minutes_first_session",
    "moves_second_session",
    "minutes_second_session",
    "minutes_rest_of_game",
    "seconds_per_move",
)


def test_every_control_field_has_a_label_and_nothing_else_has() -> None:
    assert list(CONTROL_LABELS) == list(CONTROL_FIELDS) == list(HEADER)
    assert all(label.strip() for label in CONTROL_LABELS.values())


def test_the_registration_form_asks_for_every_control_field_in_the_files_order() -> None:
    form = EventForm()
    assert [field.name for field in form.time_fields] == list(HEADER)
    assert [field.label for field in form.time_fields] == [CONTROL_LABELS[n] for n in HEADER]


def test_an_event_abroad_asks_for_one_session_then_the_rest() -> None:
    assert set(SECOND_SESSION) < set(CONTROL_FIELDS)  # names the fields it leaves out
    asked = [field.name for field in AbroadEventForm().time_fields]
    assert asked == [
        "minutes_for_game",
        "moves_first_session",
        "minutes_first_session",
        "minutes_rest_of_game",
        "seconds_per_move",
    ]


def test_every_control_field_typed_reaches_the_time_control() -> None:
    typed = {name: str(10 + number) for number, name in enumerate(HEADER)}
    expected = TimeControlInput(**{name: int(value) for name, value in typed.items()})
    query = QueryDict(mutable=True)
    query.update(typed)
    assert time_control_from(query) == expected
    form = EventForm(typed | {"code": "XX1", "name": "Open", "kind": "congress"})
    form.is_valid()  # the dates are missing: the time control is read all the same
    assert form.time_control() == expected
