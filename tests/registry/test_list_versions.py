"""G26: a published list version is immutable; corrections make a new version."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from ecfgrading.registry.models import (
    GradingList,
    ListEntry,
    ListVersion,
    PublishedVersionError,
    StoredGamePoints,
    StoredPeriodTotal,
    assert_version_editable,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(make_player):
    return make_player()


@pytest.fixture
def published(draft_version, player, publish) -> ListVersion:
    ListEntry.objects.create(version=draft_version, player=player, grade=150, category="A")
    StoredGamePoints.objects.create(
        version=draft_version, player=player, date=date(2010, 1, 9), points=190.0
    )
    StoredPeriodTotal.objects.create(version=draft_version, player=player, n=1, total=190.0)
    return publish(draft_version)


def test_a_draft_takes_entries_one_by_one_and_in_bulk(draft_version, make_player) -> None:
    players = [make_player(f"Player{i}") for i in range(3)]
    ListEntry.objects.bulk_create(ListEntry(version=draft_version, player=p) for p in players)
    ListEntry.objects.filter(version=draft_version).update(grade=120)
    entry = ListEntry.objects.filter(version=draft_version).first()
    entry.grade = 121
    entry.save()
    entry.delete()

    assert ListEntry.objects.filter(version=draft_version, grade=120).count() == 2
    assert_version_editable(draft_version)


def test_an_entry_of_a_published_version_cannot_be_changed(published) -> None:
    entry = ListEntry.objects.get(version=published)
    entry.grade = 151

    with pytest.raises(PublishedVersionError, match="published and immutable"):
        entry.save()
    with pytest.raises(PublishedVersionError):
        entry.delete()
    assert ListEntry.objects.get(version=published).grade == 150


@pytest.mark.parametrize("model", [ListEntry, StoredGamePoints, StoredPeriodTotal])
def test_bulk_updates_and_deletes_refuse_a_published_version(published, model) -> None:
    with pytest.raises(PublishedVersionError):
        model.objects.filter(version=published).delete()
    with pytest.raises(PublishedVersionError):
        model.objects.all().update(player=model.objects.get().player)

    assert model.objects.filter(version=published).count() == 1


def test_bulk_create_refuses_a_published_version(published, make_player) -> None:
    with pytest.raises(PublishedVersionError):
        StoredPeriodTotal.objects.bulk_create(
            [StoredPeriodTotal(version=published, player=make_player("Late"), n=3, total=300.0)]
        )


def test_the_helper_refuses_a_published_version_by_row_or_by_id(published) -> None:
    stale = ListVersion.objects.get(pk=published.pk)
    stale.status = ListVersion.Status.DRAFT  # an out-of-date copy says draft

    for version in (published, published.pk, stale):
        with pytest.raises(PublishedVersionError, match="make a new version"):
            assert_version_editable(version)


def test_a_published_version_cannot_be_edited_unpublished_or_deleted(published) -> None:
    published.report = {"note": "changed"}
    with pytest.raises(PublishedVersionError):
        published.save()
    with pytest.raises(PublishedVersionError):
        ListVersion.objects.filter(pk=published.pk).update(status="draft")
    with pytest.raises(PublishedVersionError):
        published.delete()
    with pytest.raises(PublishedVersionError):
        ListVersion.objects.all().delete()

    assert ListVersion.objects.get(pk=published.pk).is_published


def test_a_correction_is_a_new_version_beside_the_published_one(published, player) -> None:
    august = ListVersion.objects.create(grading_list=published.grading_list, name="august")
    ListEntry.objects.create(version=august, player=player, grade=152, category="A")

    grades = ListEntry.objects.filter(player=player).order_by("version_id")
    assert [entry.grade for entry in grades] == [150, 152]


def test_deleting_a_draft_removes_what_it_stored(draft_version, player) -> None:
    ListEntry.objects.create(version=draft_version, player=player)
    draft_version.delete()

    assert not ListEntry.objects.exists()


def test_a_list_version_name_is_unique_within_its_list(draft_version) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        ListVersion.objects.create(grading_list=draft_version.grading_list, name="initial")


def test_a_published_version_needs_its_publication_date(draft_version) -> None:
    draft_version.status = ListVersion.Status.PUBLISHED
    with pytest.raises(IntegrityError), transaction.atomic():
        draft_version.save()


def test_a_standard_list_is_a_july_list() -> None:
    GradingList.objects.create(list_id="2011-01", rate="rapid")
    with pytest.raises(IntegrityError), transaction.atomic():
        GradingList.objects.create(list_id="2011-01", rate="standard")


def test_list_and_version_names_are_validated() -> None:
    with pytest.raises(ValidationError, match="2010-07"):
        GradingList(list_id="2010-6", rate="rapid").full_clean()
    january = GradingList.objects.create(list_id="2011-01", rate="rapid")
    with pytest.raises(ValidationError, match="July"):
        ListVersion(grading_list=january, name="august").full_clean()
    with pytest.raises(ValidationError):
        ListVersion(grading_list=january, name="rev0").full_clean()
    ListVersion(grading_list=january, name="rev12").full_clean()
