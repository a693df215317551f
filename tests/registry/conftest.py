"""Small builders for registry rows; each test makes only what it needs."""

import hashlib
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.utils import timezone

from ecfgrading.registry.models import (
    Event,
    GradingList,
    ListVersion,
    Player,
    Submission,
)
from ecfgrading.registry.numbering import issue_code


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    def make(surname: str = "Bloggs", forenames: str = "Joe", **fields: Any) -> Player:
        fields.setdefault("code", issue_code().number)
        return Player.objects.create(surname=surname, forenames=forenames, **fields)

    return make


@pytest.fixture
def event(db: None) -> Event:
    return Event.objects.create(
        code="XX12345",
        name="Anytown Congress 2013 Open",
        kind=Event.Kind.CONGRESS,
        moves_first_session=36,
        minutes_first_session=90,
        minutes_rest_of_game=15,
        rate="standard",
        start_date=date(2013, 5, 11),
        end_date=date(2013, 5, 12),
    )


@pytest.fixture
def make_submission(db: None) -> Callable[..., Submission]:
    def make(raw: bytes = b"#EVENT DETAILS\r\n#FINISH\r\n", **fields: Any) -> Submission:
        fields.setdefault("event_code", "XX12345")
        fields.setdefault("submission_index", 1)
        return Submission.objects.create(
            raw=raw, sha256=hashlib.sha256(raw).hexdigest(), filename="results.txt", **fields
        )

    return make


@pytest.fixture
def draft_version(db: None) -> ListVersion:
    grading_list = GradingList.objects.create(list_id="2010-07", rate="standard")
    return ListVersion.objects.create(grading_list=grading_list, name="initial")


@pytest.fixture
def publish() -> Callable[[ListVersion], ListVersion]:
    """Publish a version the way the publishing service will: a draft row turns published."""

    def publish(version: ListVersion) -> ListVersion:
        version.status = ListVersion.Status.PUBLISHED
        version.published_at = timezone.now()
        version.save()
        return version

    return publish
