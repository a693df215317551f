"""The grading team's audit log (issue 11, item 7): who did what and when, with the row
before and after, for changes made in the back office and by imports; filterable by
player, event and person; paginated."""

from __future__ import annotations

import base64
import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.lookups.audit import AuditFilter, audit_entries
from ecfgrading.registry.models import AuditLog, Player
from ecfgrading.services.amendments import record_amendment
from ecfgrading.services.merge import merge_players
from tests.backoffice.conftest import signed_in
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall"
SMITH = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown"
GAMES = ["#PIN1=1#SCORE=10#PIN2=2", "#PIN1=2#SCORE=55#PIN2=1"]
URL = "/backoffice/audit/"


def register(client: Any, code: str) -> None:
    client.post(
        reverse("backoffice:register"),
        {
            "code": code,
            "name": "Anytown Congress",
            "kind": "congress",
            "start": "2013-05-11",
            "end": "2013-05-12",
            "minutes_for_game": 90,
            "seconds_per_move": 30,
        },
    )


def submit(client: Any, data: bytes) -> None:
    content = base64.b64encode(data).decode()
    client.post(reverse("backoffice:submit"), {"filename": "r.txt", "content": content})


def test_registering_and_importing_write_entries_with_the_event_before_and_after(
    officer: Any,
) -> None:
    client = signed_in(officer)
    register(client, "AUD1")
    data = results_file([BLOGGS, SMITH], GAMES, code="AUD1", name="Anytown Open 2013")
    submit(client, data)

    found = audit_entries(AuditFilter(event="aud1")).page.items

    assert [row.action for row in found] == ["import results", "register event"]
    imported, registered = found
    # The import renamed the event and marked it received; its dates were as registered.
    assert {c.field: (c.before, c.after) for c in imported.changes} == {
        "name": ("Anytown Congress", "Anytown Open 2013"),
        "status": ("registered", "received"),
    }
    assert ("games", "2") in imported.details
    assert imported.who == "olga"
    # A new row: every field "after", none before.
    assert {c.field: c.after for c in registered.changes}["results_deadline"] == "2013-06-09"
    assert all(c.before is None for c in registered.changes)


def test_a_rejected_file_is_on_the_log_under_its_event_and_sender(officer: Any) -> None:
    client = signed_in(officer)
    register(client, "AUD2")
    bad = results_file([BLOGGS, SMITH], [*GAMES, "#PIN1=1#SCORE=70#PIN2=2"], code="AUD2")
    submit(client, bad)

    rows = audit_entries(AuditFilter(event="AUD2", person="olga")).page.items

    assert [row.action for row in rows] == ["reject results", "register event"]
    assert ("errors", "1") in rows[0].details


def test_the_team_filters_by_player_and_sees_amendments_and_merged_codes(
    team: Any, officer: Any
) -> None:
    submit(signed_in(team), results_file([BLOGGS, SMITH], GAMES, code="AUD3"))
    bloggs = Player.objects.get(surname="Bloggs")
    smith = Player.objects.get(surname="Smith")
    record_amendment(what="Grade 150 -> 148", why="a game counted twice", user=team, player=bloggs)
    record_amendment(what="Club changed", why="she moved", user=team, player=smith)
    AuditLog.record("merge players", bloggs, user=team, absorbed="999999A")

    page = signed_in(team).get(URL, {"player": bloggs.ref}).content.decode()

    assert page.count('<th scope="row">amendment</th>') == 1
    assert "Grade 150 -&gt; 148" in page
    assert "Club changed" not in page
    assert "merge players" in page
    assert "Audit entries 1–2 of 2" in page


def test_an_unknown_player_code_says_so(team: Any) -> None:
    page = signed_in(team).get(URL, {"player": "261619B"}).content.decode()

    assert "No player with grading code 261619B is on record." in page


def test_a_malformed_player_code_says_what_was_expected(team: Any) -> None:
    page = signed_in(team).get(URL, {"player": "12345"}).content.decode()

    assert "six digits and a check letter" in page


def test_the_log_is_paginated_fifty_to_a_page_latest_first(team: Any) -> None:
    start = dt.datetime(2013, 1, 1, tzinfo=dt.UTC)
    for n in range(51):
        AuditLog.objects.create(action=f"step {n}", actor="cli", at=start + dt.timedelta(hours=n))
    client = signed_in(team)

    first = client.get(URL, {"person": "cli"}).content.decode()
    second = client.get(URL, {"person": "cli", "page": 2}).content.decode()

    assert "Audit entries 1–50 of 51" in first
    assert ">step 50<" in first and ">step 1<" in first and ">step 0<" not in first
    assert "Audit entries 51–51 of 51" in second and ">step 0<" in second
    assert 'href="?person=cli&amp;page=2"' in first


def test_filtering_by_person_is_by_user_name_or_actor(team: Any, officer: Any) -> None:
    AuditLog.record("compute list", actor="cli")
    AuditLog.record("publish list", user=team, actor="grading")

    by_tess = [r.action for r in audit_entries(AuditFilter(person="TESS")).page.items]
    by_cli = [r.action for r in audit_entries(AuditFilter(person="cli")).page.items]

    assert by_tess == ["publish list"]
    assert by_cli == ["compute list"]


def test_g28_filtering_by_a_player_finds_entries_of_records_merged_into_him_through_a_chain(
    team: Any,
) -> None:
    """A merged into B, then B into C: the entries on A's row are C's too."""
    submit(
        signed_in(team),
        results_file(
            [BLOGGS, SMITH, "#PIN=3#NAME=Brown, Ann#CLUB NAME=Anytown"], GAMES, code="AUD9"
        ),
    )
    first, middle, last = (Player.objects.get(surname=s) for s in ("Bloggs", "Smith", "Brown"))
    record_amendment(what="Grade 150 -> 148", why="a game counted twice", user=team, player=first)
    merge_players(first.ref, middle.ref, user=team)
    merge_players(middle.ref, last.ref, user=team)

    found = audit_entries(AuditFilter(player=last.ref)).page.items

    assert any(("what", "Grade 150 -> 148") in row.details for row in found)
