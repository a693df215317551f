"""Events abroad on record are recoded by migration 0013_events_abroad_codes_withdrawal
(issue 24, case 7): ``X`` + membership number + first day becomes ``XA`` + a number in
sequence, in the event, its submission (code, file and checksum) and the member's result;
the old code is held nowhere a page reads."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("registry", "0012_county_association_code")
AFTER = ("registry", "0013_events_abroad_codes_withdrawal")


def _file(code: str) -> bytes:
    """The head of a file the member's form built under the old rule."""
    return (
        f"#EVENT DETAILS\n#EVENT CODE={code}\n#SUBMISSION INDEX=1\n"
        "#EVENT NAME=Reykjavik Open (Iceland)\n#PLAYER LIST\n"
        "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#ECF NO=DM1001\n#FINISH\n"
    ).encode()


@pytest.fixture
def executor(transactional_db: None) -> Iterator[MigrationExecutor]:
    """The schema at 0012; every migration applied again afterwards."""
    found = MigrationExecutor(connection)
    found.migrate([BEFORE])
    yield MigrationExecutor(connection)
    found = MigrationExecutor(connection)
    found.migrate(found.loader.graph.leaf_nodes())


def _old_records(apps: Any) -> dict[str, Any]:
    """Member DM1001's two results from abroad: one accepted (its event and submission on
    record), one waiting; and a registered event that already holds XA000001."""
    player = apps.get_model("registry", "Player").objects.create(
        code=261619, surname="Bloggs", forenames="Joe"
    )
    member = apps.get_model("registry", "DirectMember").objects.create(
        player=player, number="DM1001"
    )
    event_model = apps.get_model("registry", "Event")
    days = {"start_date": "2013-03-01", "end_date": "2013-03-09", "rate": "standard"}
    event_model.objects.create(code="XA000001", name="Registered before the rule", **days)
    event = event_model.objects.create(code="XDM1001-130301", name="Reykjavik Open", **days)
    submission = apps.get_model("registry", "Submission").objects.create(
        event=event,
        event_code="XDM1001-130301",
        submission_index=1,
        raw=_file("XDM1001-130301"),
        sha256=hashlib.sha256(_file("XDM1001-130301")).hexdigest(),
        status="accepted",
        report={"event_code": "XDM1001-130301", "problems": []},
    )
    results = apps.get_model("registry", "ForeignResult").objects
    accepted = results.create(
        member=member, event_name="Reykjavik Open", country="Iceland", status="accepted",
        start_date="2013-03-01", end_date="2013-03-09", raw=_file("XDM1001-130301"),
        submission=submission,
    )  # fmt: skip
    waiting = results.create(
        member=member, event_name="Bunratty Masters", country="Ireland",
        start_date="2013-02-15", end_date="2013-02-17", raw=_file("XDM1001-130215"),
    )  # fmt: skip
    return {"event": event.pk, "submission": submission.pk, "results": (accepted.pk, waiting.pk)}


def test_events_abroad_on_record_are_recoded_without_the_membership_number(
    executor: MigrationExecutor,
) -> None:
    made = _old_records(executor.loader.project_state([BEFORE]).apps)

    executor.migrate([AFTER])

    apps = executor.loader.project_state([AFTER]).apps
    event = apps.get_model("registry", "Event").objects.get(pk=made["event"])
    submission = apps.get_model("registry", "Submission").objects.get(pk=made["submission"])
    results = apps.get_model("registry", "ForeignResult").objects
    accepted, waiting = (results.get(pk=pk) for pk in made["results"])
    # Oldest first; XA000001 is held by a registered event, so it is passed over.
    assert (accepted.event_code, waiting.event_code) == ("XA000002", "XA000003")
    assert event.code == "XA000002"
    assert (submission.event_code, bytes(submission.raw)) == ("XA000002", _file("XA000002"))
    assert submission.sha256 == hashlib.sha256(_file("XA000002")).hexdigest()
    assert submission.report["event_code"] == "XA000002"
    assert bytes(accepted.raw) == _file("XA000002")
    assert bytes(waiting.raw) == _file("XA000003")
    assert not apps.get_model("registry", "Event").objects.filter(code__contains="DM1001").exists()
    counter = apps.get_model("registry", "Sequence").objects.get(name="abroad-event")
    assert counter.last_value == 3
