"""A session of the team's decisions is remembered in a few statements, not a few for
each decision (issue 25), with what deciding one by one remembered: the latest decision
on a spelling wins, and a spelling remembered before is updated in place."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.lookups.identification import open_cases
from ecfgrading.registry.models import NameAlias, PendingIdentification, Player
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.results.remembered import remember_cases
from tests.services.results_text import results_file
from tests.services.test_remembered_identification import BLOGGS, player, two_john_smiths

pytestmark = pytest.mark.django_db

# Three people the matcher cannot tell from the two John Smiths of Newtown on record.
ASKED = [
    "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown",
    "#PIN=3#NAME=Smith, John#CLUB NAME=Oldtown",
    "#PIN=4#NAME=Smith, John#CLUB NAME=Midtown",
]
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=1#SCORE=01#PIN2=3#ROUND=2#GAME DATE=12/05/2013",
    "#PIN1=4#SCORE=55#PIN2=1#ROUND=3#GAME DATE=13/05/2013",
]


def waiting() -> list[PendingIdentification]:
    import_results(results_file([BLOGGS, *ASKED], GAMES), filename="v1.txt")
    return sorted(open_cases(), key=lambda case: case.pin)


def remembered() -> list[tuple[str, str, int]]:
    rows = NameAlias.objects.order_by("club_name")
    return [(row.club_name, row.decision, row.player_id) for row in rows]


def test_a_sessions_decisions_are_one_look_up_and_one_insert() -> None:
    first, _ = two_john_smiths()
    cases = waiting()
    assert [case.pin for case in cases] == [2, 3, 4]

    with CaptureQueriesContext(connection) as sent:
        made = remember_cases([([case], first, "link") for case in cases], user=None)

    assert made == 3
    assert len(sent.captured_queries) == 2  # which are remembered already; the new rows
    assert remembered() == [
        ("midtown", "link", first.id),
        ("newtown", "link", first.id),
        ("oldtown", "link", first.id),
    ]


def test_the_latest_decision_on_a_spelling_wins_in_one_session() -> None:
    first, second = two_john_smiths()
    newtown = waiting()[0]

    remember_cases([([newtown], first, "link"), ([newtown], second, "link")], user=None)

    assert remembered() == [("newtown", "link", second.id)]


def test_a_spelling_remembered_before_is_updated_in_place() -> None:
    first, _ = two_john_smiths()
    newtown, oldtown, _ = waiting()
    remember_cases([([newtown], first, "link")], user=None)
    before = NameAlias.objects.get()
    other = player(100009, "Smith", "John")

    remember_cases([([newtown], other, "new"), ([oldtown], other, "new")], user=None)

    assert remembered() == [("newtown", "new", other.id), ("oldtown", "new", other.id)]
    assert NameAlias.objects.get(club_name="newtown").id == before.id
    assert NameAlias.objects.get(club_name="newtown").decided_at >= before.decided_at
    assert Player.objects.filter(surname="Smith").count() == 3
