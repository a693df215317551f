"""The team's player pages (issue 24, case 14): the lookup takes a code with or without
its check letter, or a name (read as the public lookup reads it, lookups.search); a
club first quoted after the latest list is "not yet" shown, not "lapsed" (C2)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.engine import Rate
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
)
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db


def published(list_id: str, grades: dict[Player, int]) -> None:
    grading_list = GradingList.objects.create(list_id=list_id, rate=Rate.STANDARD)
    version = ListVersion.objects.create(grading_list=grading_list, name="initial")
    ListEntry.objects.bulk_create(
        ListEntry(
            version=version, player=p, grade=g, category="A", games_counted=30, published=True
        )
        for p, g in grades.items()
    )
    version.status = ListVersion.Status.PUBLISHED
    version.published_at = datetime(2012, 7, 1, tzinfo=UTC)
    version.save()


@pytest.fixture
def federation() -> dict[str, Player]:
    found = {
        "john": Player.objects.create(code=233310, surname="Smith", forenames="John"),
        "jane": Player.objects.create(code=102807, surname="Smith", forenames="Jane"),
        "jones": Player.objects.create(code=155624, surname="Jones", forenames="Bob"),
    }
    published("2012-07", {found["john"]: 150, found["jane"]: 140, found["jones"]: 130})
    return found


def player_url(who: Player) -> str:
    return reverse("backoffice:team_player", kwargs={"code": who.ref})


def test_a_code_without_its_check_letter_opens_the_player(
    team: Any, federation: dict[str, Player]
) -> None:
    """Issue 24, case 14: on the code before, '233310' was refused: a letter was needed."""
    client = signed_in(team)
    for typed in ("233310", "233310H", " 233310 h"):
        response = client.get(reverse("backoffice:team_players"), {"code": typed})
        assert (response.status_code, response["Location"]) == (
            302,
            "/backoffice/team/players/233310H/",
        ), typed


def test_a_wrong_check_letter_is_not_found_saying_why(
    team: Any, federation: dict[str, Player]
) -> None:
    response = signed_in(team).get(reverse("backoffice:team_players"), {"q": "233310A"})

    assert response.status_code == 404
    assert "its check letter is wrong (the digits 233310 take H)" in response.content.decode()


def test_a_name_lists_the_players_it_finds_with_links_to_their_pages(
    team: Any, federation: dict[str, Player]
) -> None:
    """Issue 24, case 14: on the code before, a name could not be searched here."""
    page = signed_in(team).get(reverse("backoffice:team_players"), {"q": "smith"})

    shown = page.content.decode()
    assert page.status_code == 200
    assert '2 players found for "smith"' in shown
    for who in ("john", "jane"):
        assert f'href="{player_url(federation[who])}"' in shown
    assert player_url(federation["jones"]) not in shown
    assert "150A (2012-07)" in shown


def test_a_name_read_forenames_first_finds_the_one_player(
    team: Any, federation: dict[str, Player]
) -> None:
    page = signed_in(team).get(reverse("backoffice:team_players"), {"q": "Jane Smith"})

    shown = page.content.decode()
    assert "1 player found" in shown
    assert player_url(federation["jane"]) in shown
    assert player_url(federation["john"]) not in shown


def test_a_club_first_quoted_after_the_latest_list_is_new_not_lapsed(
    team: Any, federation: dict[str, Player]
) -> None:
    """Issue 24, case 14: the latest list is 2012-07 (season 2011-12); a club first
    quoted in 2012-13 is not shown yet because it is new. On the code before, it was
    labelled "no: lapsed"."""
    john = federation["john"]
    for name, first, last in (
        ("Newtown", 2013, 2013),
        ("Oldtown", 2008, 2009),
        ("Anytown", 2011, 2012),
    ):
        club = Club.objects.create(name=name)
        ClubMembership.objects.create(player=john, club=club, first_season=first, last_season=last)

    shown = signed_in(team).get(player_url(john)).content.decode()

    rows = {
        name: shown[shown.index(f">{name}<") :][:400] for name in ("Newtown", "Oldtown", "Anytown")
    }
    assert "not yet: first quoted in 2012-13, after the latest list (2011-12)" in rows["Newtown"]
    assert "lapsed" not in rows["Newtown"]
    assert "no: lapsed" in rows["Oldtown"]
    assert "<td>yes</td>" in rows["Anytown"]
