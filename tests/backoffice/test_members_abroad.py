"""A direct member's results from abroad (issue 24): their event's code holds nothing of
his (case 7), a '#' in the form is a message, not a server error (case 8), and a first
day outside the window of lists still to come is an error saying the window (case 14).

The site's today is 15 June 2013 (``_spring_2013``). By G32 the list that grades a game
played that day is 2013-07, whose P0 runs from 1 July 2012 to 30 June 2013; the list
before it, 2013-01, has P0 1 January to 31 December 2012. So the window of first days
is 01/01/2012 to 15/06/2013.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ecfgrading.engine import Rate
from ecfgrading.engine.rateplay import TimeControlInput
from ecfgrading.registry.models import DirectMember, Event, ForeignResult
from ecfgrading.services.abroad import AbroadEvent, AbroadGame, check_abroad
from ecfgrading.services.events import EventError, register_event
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import signed_in
from tests.backoffice.test_members import _abroad_post, _spring_2013, bloggs  # noqa: F401
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

WINDOW = "a first day from 01/01/2012 (the start of the period of the last list results sent"


def _event(start: dt.date) -> AbroadEvent:
    return AbroadEvent(
        "Reykjavik Open",
        "Iceland",
        start,
        start,
        TimeControlInput(minutes_for_game=90, seconds_per_move=30),
        (AbroadGame(1, start, "Jonsson, Petur", "win", "white", "2300123"),),
    )


def _window_errors(member: DirectMember, start: dt.date) -> list[str]:
    built = check_abroad(member, _event(start))
    return [p.message for p in built.problems if p.code == "date-outside-window"]


def _page(client: Client, **changes: str) -> tuple[int, str]:
    response = client.post(reverse("backoffice:member_abroad"), _abroad_post(**changes))
    return response.status_code, response.content.decode()


# --- case 8: a '#' in the form ----------------------------------------------------------


@pytest.mark.parametrize(
    "field", ["name", "country", "game-0-opponent"], ids=["name", "country", "opponent"]
)
@pytest.mark.parametrize("action", ["check", "submit"])
def test_a_hash_in_the_form_is_said_at_its_field_not_a_server_error(
    bloggs: DirectMember,  # noqa: F811
    member: Any,
    field: str,
    action: str,
) -> None:
    typed = "Bunratty Masters #2"

    status, text = _page(signed_in(member), **{field: typed, "action": action})

    assert status == 400
    assert 'value="Bunratty Masters #2"' in text  # the form again, as it was typed
    assert "expected no &#x27;#&#x27; (the results file marks its fields with it" in text
    assert "got &#x27;Bunratty Masters #2&#x27;" in text
    assert not ForeignResult.objects.exists()


def test_a_line_break_slipped_into_the_name_is_refused(
    bloggs: DirectMember,  # noqa: F811
    member: Any,
) -> None:
    status, text = _page(signed_in(member), name="Open\r\nEVENT CODE=ZZ1")

    assert status == 400
    assert "expected one line, got a line break" in text
    assert not ForeignResult.objects.exists()


# --- case 14: the window of first days --------------------------------------------------


def test_an_event_abroad_of_1950_is_an_error_saying_the_window(
    bloggs: DirectMember,  # noqa: F811
    member: Any,
) -> None:
    old = {"start": "1950-05-12", "end": "1950-05-12", "game-0-date": "", "game-1-date": ""}
    client = signed_in(member)

    status, checked = _page(client, **old)
    sent, refused = _page(client, **old, action="submit")

    assert status == 200
    assert "The check found errors" in checked
    assert (
        "Expected EVENT DATE a first day from 01/01/2012 (the start of the period of the last"
        " list results sent now can reach) to today, 15/06/2013, got &#x27;12/05/1950&#x27;"
    ) in checked
    assert sent == 400
    assert "Expected results without errors, got 1" in refused
    assert not ForeignResult.objects.exists()


def test_the_window_runs_from_the_period_of_the_list_before_to_the_sites_today(
    bloggs: DirectMember,  # noqa: F811
) -> None:
    assert _window_errors(bloggs, dt.date(2012, 1, 1)) == []
    assert _window_errors(bloggs, dt.date(2013, 6, 15)) == []
    (before,) = _window_errors(bloggs, dt.date(2011, 12, 31))
    assert before.startswith(f"expected EVENT DATE {WINDOW}")
    assert "got '31/12/2011' (line 5)" in before
    # After the site's today, though long past by the clock (the file's own check).
    (after,) = _window_errors(bloggs, dt.date(2014, 3, 1))
    assert "to today, 15/06/2013, got '01/03/2014'" in after


# --- case 7: codes that hold nothing of the member's ------------------------------------


def test_each_event_abroad_is_coded_xa_and_a_number_in_sequence(
    bloggs: DirectMember,  # noqa: F811
    member: Any,
    team: Any,
) -> None:
    client = signed_in(member)
    client.post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    client.post(
        reverse("backoffice:member_abroad"),
        _abroad_post("submit", name="Bunratty Masters", country="Ireland"),
    )

    first, second = ForeignResult.objects.order_by("id")

    assert (first.event_code, second.event_code) == ("XA000001", "XA000002")
    assert b"#EVENT CODE=XA000002\n" in bytes(second.raw)
    accepted = signed_in(team).post(reverse("backoffice:abroad_accept", args=[first.id]))
    assert accepted.status_code == 302
    event = Event.objects.get(code="XA000001")
    assert event.name == "Reykjavik Open (Iceland)"
    assert not Event.objects.filter(code__contains="DM1001").exists()


def test_the_public_pages_of_an_accepted_event_abroad_do_not_show_the_membership_number(
    bloggs: DirectMember,  # noqa: F811
    member: Any,
    team: Any,
) -> None:
    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    result = ForeignResult.objects.get()
    signed_in(team).post(reverse("backoffice:abroad_accept", args=[result.id]))
    public = Client()

    pages = {
        path: public.get(path)
        for path in (
            "/events/XA000001/",
            "/events/XA000001/?format=json",
            "/events/?season=2012-13",
            "/players/261619B/",
            "/players/261619B/?format=json",
            "/api/v1/events/XA000001",
            "/api/v1/players/261619B",
        )
    }

    for path, response in pages.items():
        assert response.status_code == 200, path
        assert b"DM1001" not in response.content, path
    assert b"XA000001" in pages["/events/XA000001/"].content


def test_a_code_already_held_by_an_event_is_passed_over(
    bloggs: DirectMember,  # noqa: F811
    member: Any,
) -> None:
    players = ["#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall", "#PIN=2#NAME=Smith, Jane#CLUB NAME=X"]
    held = results_file(players, ["#PIN1=1#SCORE=10#PIN2=2"], code="XA000001")
    assert import_results(held, filename="held.txt").accepted  # a file sent before the rule

    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))

    assert ForeignResult.objects.get().event_code == "XA000002"


def test_the_codes_of_events_abroad_are_not_registered() -> None:
    with pytest.raises(EventError, match="kept for direct members' events abroad"):
        register_event(
            "xa000042",
            name="Anytown Open",
            kind="congress",
            rate=Rate.STANDARD,
            start=dt.date(2013, 5, 1),
            end=dt.date(2013, 5, 2),
        )
    assert not Event.objects.exists()
