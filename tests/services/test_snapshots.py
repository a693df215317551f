"""What publication freezes of a version (``services.lists.snapshots``; G26, issue 24)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.periods import ListId
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
)
from ecfgrading.services.errors import Conflict
from ecfgrading.services.lists.snapshots import freeze_published

pytestmark = pytest.mark.django_db

JULY = datetime(2010, 7, 1, 12, tzinfo=UTC)


def version(list_id: str, name: str, players: dict[Player, bool]) -> ListVersion:
    """A published version whose entries are published or not (G23), as given."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate="standard")
    made = ListVersion.objects.create(grading_list=grading_list, name=name)
    ListEntry.objects.bulk_create(
        ListEntry(version=made, player=who, grade=150, published=shown)
        for who, shown in players.items()
    )
    made.status, made.published_at = ListVersion.Status.PUBLISHED, JULY
    made.save(update_fields=["status", "published_at"])
    return made


def test_it_freezes_each_published_players_public_details_and_shown_clubs() -> None:
    # The 2010-07 list closes season 2010: a club last quoted in 2007 has lapsed (three
    # seasons: 2008, 2009, 2010 are shown), a location carries '*', the most recently
    # quoted club comes first. An unpublished entry (G23) is not frozen.
    ames = Player.objects.create(code=100001, surname="Ames", forenames="Ann", sex="F")
    bell = Player.objects.create(code=100002, surname="Bell", forenames="", fide_id=400041)
    cole = Player.objects.create(code=100003, surname="Cole", forenames="Cy", nation="SCO")
    town = Club.objects.create(name="Anytown")
    hall = Club.objects.create(name="Village Hall", is_location=True)
    old = Club.objects.create(name="Oldtown")
    for who, club, first, last in (
        (ames, town, 2008, 2009),
        (ames, hall, 2010, 2010),
        (ames, old, 2005, 2007),
        (bell, town, 2010, 2010),
    ):
        ClubMembership.objects.create(player=who, club=club, first_season=first, last_season=last)
    previous = version("2009-07", "initial", {ames: True})
    current = version("2010-07", "initial", {cole: False, bell: True, ames: True})

    frozen = freeze_published(current)

    assert frozen.players == [
        [ames.pk, 100001, "Ames, Ann", "F", "", "ENG", ["Village Hall*", "Anytown"]],
        [bell.pk, 100002, "Bell", "", "400041", "ENG", ["Anytown"]],
    ]
    assert (frozen.previous, frozen.august) == (previous, None)
    assert frozen.rule_set == rules_for(ListId.parse("2010-07")).name


def test_a_later_revision_freezes_the_august_version_it_follows() -> None:
    ames = Player.objects.create(code=100001, surname="Ames", forenames="Ann")
    august = version("2010-07", "august", {ames: True})
    revision = version("2010-07", "rev1", {ames: True})

    assert freeze_published(revision).august == august
    assert freeze_published(august).august is None  # G27: august is its own


def test_a_draft_or_a_frozen_version_is_refused() -> None:
    ames = Player.objects.create(code=100001, surname="Ames", forenames="Ann")
    published = version("2010-07", "initial", {ames: True})
    freeze_published(published)
    with pytest.raises(Conflict, match="already frozen"):
        freeze_published(published)
    draft = ListVersion.objects.create(grading_list=published.grading_list, name="august")
    with pytest.raises(Conflict, match="expected a published list version"):
        freeze_published(draft)
