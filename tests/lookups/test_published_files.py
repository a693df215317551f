"""A published version's files are the same bytes for ever (G26; issue 24, case 14).

Versions are published through the service (``publish_version``), which freezes what
their files show; the registry is then changed in every way a file could read it (a
membership ended, a club renamed, a club joined, a player renamed, a FIDE id added, a
later version of the previous list and the list's own august version published) and the
files, read again from the export and through /downloads/, are compared byte for byte.
"""

from __future__ import annotations

import os
import shutil
import time
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from ecfgrading.engine.types import Rate
from ecfgrading.formats import parse_grade_list
from ecfgrading.lookups import list_files
from ecfgrading.lookups.exports import export_list
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PublishedSnapshot,
)
from ecfgrading.registry.models.snapshots import SnapshotFrozenError
from ecfgrading.services.grading.compute import publish_version
from ecfgrading.services.team.memberships import end_membership

pytestmark = pytest.mark.django_db

STANDARD, RAPID = Rate.STANDARD, Rate.RAPID
FORMATS = ("csv", "json", "xlsx")
# Every file that holds the 2010-07 initial versions, by name (lookups.list_files).
FIXED_FILES = (
    "grades201007-standard-initial",
    "grades201007-rapid-initial",
    "grades201007-initial",
)


def when(month: int, day: int, year: int = 2010) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


def draft(list_id: str, rate: Rate, name: str, grades: dict[Player, int]) -> ListVersion:
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    made = ListVersion.objects.create(grading_list=grading_list, name=name)
    ListEntry.objects.bulk_create(
        ListEntry(
            version=made, player=who, grade=grade, category="A", games_counted=30, published=True
        )
        for who, grade in grades.items()
    )
    return made


def publish(list_id: str, rate: Rate, name: str, grades: dict[Player, int], on: datetime) -> None:
    draft(list_id, rate, name, grades)
    publish_version(list_id, rate, name, allow_unanchored=True, published_at=on)


def join(who: Player, club: Club, first: int, last: int) -> ClubMembership:
    return ClubMembership.objects.create(
        player=who, club=club, first_season=first, last_season=last
    )


@pytest.fixture(autouse=True)
def _own_home(settings: Any, tmp_path: Path) -> None:
    """Files kept on disk (``lookups.list_files``) under a home of the test's own."""
    settings.HOME = tmp_path


@pytest.fixture
def published() -> dict[str, Any]:
    """Standard 2009-07 (Grade1), then 2010-07 initial of both rates, published."""
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe", sex="M")
    smith = Player.objects.create(code=233310, surname="Smith", forenames="Jane", sex="F")
    anytown = Club.objects.create(name="Anytown")
    library = Club.objects.create(name="Riverside Library", is_location=True)
    ended = join(bloggs, anytown, 2008, 2010)
    join(bloggs, library, 2010, 2010)
    join(smith, anytown, 2009, 2010)
    publish("2009-07", STANDARD, "initial", {bloggs: 145, smith: 60}, when(7, 1, 2009))
    publish("2010-07", STANDARD, "initial", {bloggs: 150, smith: 95}, when(7, 1))
    publish("2010-07", RAPID, "initial", {bloggs: 152, smith: 90}, when(7, 1))
    return {"bloggs": bloggs, "smith": smith, "anytown": anytown, "ended": ended}


def every_file() -> dict[str, bytes]:
    return {
        f"{name}.{fmt}": export_list("2010-07", rates=_rates(name), version="initial", fmt=fmt)
        for name in FIXED_FILES
        for fmt in FORMATS
    }


def _rates(name: str) -> list[Rate] | None:
    return [rate for rate in Rate if rate.value in name] or None


def downloaded(client: Client, names: list[str]) -> dict[str, bytes]:
    cache.clear()  # made again, not served from the shared cache
    shutil.rmtree(list_files.kept_root(), ignore_errors=True)  # nor from this server's disk
    found = {}
    for name in names:
        response = client.get(f"/downloads/{name}")
        assert response.status_code == 200, (name, response.content[:200])
        found[name] = response.content
    return found


def rename(who: Player, surname: str, **fields: Any) -> None:
    found = Player.objects.get(id=who.id)
    found.surname = surname
    for name, value in fields.items():
        setattr(found, name, value)
    found.save()


def change_everything_a_file_reads(found: dict[str, Any]) -> None:
    bloggs, smith = found["bloggs"], found["smith"]
    end_membership(str(bloggs.ref), found["ended"].id, on=date(2010, 9, 1), user=None)
    Club.objects.filter(id=found["anytown"].id).update(name="Anytown and District")
    join(smith, Club.objects.create(name="Newtown"), 2010, 2010)  # now quoted in 2010
    rename(bloggs, "Blogs", fide_id=400041, nation="SCO")
    # A later version of the previous list: Grade1 read now would be 149, not 145.
    publish("2009-07", STANDARD, "august", {bloggs: 149, smith: 61}, when(8, 15, 2009))
    # The list's own august version: read now, the initial file would carry its grades.
    publish("2010-07", STANDARD, "august", {bloggs: 160, smith: 97}, when(8, 15))
    publish("2010-07", RAPID, "august", {bloggs: 162, smith: 91}, when(8, 15))


def test_a_published_versions_files_are_the_same_bytes_after_the_registry_changes(
    published: dict[str, Any], client: Client
) -> None:
    """Issue 24, case 14: a published list file changed after a membership was ended.

    On the code before, each file was written from the registry as it is: the ended
    membership, the renamed club and player and the later versions all changed them."""
    before = every_file()
    served = downloaded(client, list(before))
    change_everything_a_file_reads(published)
    assert every_file() == before
    assert downloaded(client, list(before)) == served == before


def test_the_frozen_file_shows_the_registry_as_it_was_at_publication(
    published: dict[str, Any],
) -> None:
    """Issue 24, case 14: frozen means what was on record then, not nothing: the club
    ended later, the old surname and Grade1 from the previous list's version then."""
    change_everything_a_file_reads(published)
    data = export_list("2010-07", rates=[STANDARD], version="initial", fmt="csv")
    grade_list, report = parse_grade_list(data.decode("latin-1"))
    assert report.ok, report
    assert grade_list is not None
    rows = {str(row.code): row for row in grade_list.rows}
    bloggs = rows["261619B"]
    assert bloggs.name == "Bloggs, Joe"
    assert bloggs.clubs == ("Riverside Library*", "Anytown")  # the later first season first
    assert bloggs.fide_code == ""
    assert bloggs.standard.previous == 145
    assert rows["233310H"].clubs == ("Anytown",)


def test_the_current_file_is_the_frozen_files_of_the_versions_it_holds(
    published: dict[str, Any], client: Client
) -> None:
    """Issue 24, case 14: grades201007.csv holds each rate's current version; once the
    august versions are published it is their frozen file, whatever changes later."""
    change_everything_a_file_reads(published)
    august = export_list("2010-07", version="august", fmt="csv")
    rename(published["smith"], "Smythe")
    assert downloaded(client, ["grades201007.csv"])["grades201007.csv"] == august
    assert b"Smythe" not in august


def test_a_snapshot_is_never_changed_or_deleted(published: dict[str, Any]) -> None:
    """Issue 24, case 14: the snapshot is frozen with the version."""
    snapshot = PublishedSnapshot.objects.first()
    assert snapshot is not None
    with pytest.raises(SnapshotFrozenError):
        snapshot.save()
    with pytest.raises(SnapshotFrozenError):
        PublishedSnapshot.objects.update(rule_set="other")
    with pytest.raises(SnapshotFrozenError):
        snapshot.delete()


def test_only_other_deployments_kept_files_long_unused_are_forgotten() -> None:
    """Each deployment keeps its files in a folder of its own: a worker warming removes
    the other folders no file was written to for a week, and keeps its own whatever its
    age (a published version's files do not change)."""
    root = list_files.kept_root()
    own = list_files._own_folder("build-now")
    old_other, recent_other = root / "old-deployment", root / "recent-deployment"
    for folder in (own, old_other, recent_other):
        folder.mkdir(parents=True)
        (folder / "file.csv").write_bytes(b"kept")
    eight_days_ago = time.time() - 8 * 24 * 3600
    for folder in (own, old_other):
        os.utime(folder, (eight_days_ago, eight_days_ago))
    six_days_ago = time.time() - 6 * 24 * 3600
    os.utime(recent_other, (six_days_ago, six_days_ago))

    assert list_files.forget_stale("build-now") == [old_other]
    assert sorted(p.name for p in root.iterdir()) == sorted([own.name, recent_other.name])
    assert (own / "file.csv").read_bytes() == b"kept"
