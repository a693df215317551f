"""Players identified before the registry lock, checked again under it (issue 8).

An importer identifies a file's players while another may be writing, then takes the
lock and brings its view up to date. Whatever arrived in between must be seen: a file it
concerns is identified again, one it does not keeps its decisions. Here the other
importer's file is written in exactly that gap, from the lock's first moment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ecfgrading.registry.models import Game, PendingIdentification, Player
from ecfgrading.services.results import ingest
from ecfgrading.services.results.ingest import ResultsImporter
from tests.services.test_import_state import BLOGGS, a_file, importer, newcomer

pytestmark = pytest.mark.django_db

JONES = "#PIN=1#BCF CODE=102807J#NAME=Jones, Mary#CLUB NAME=Dover"


@pytest.fixture
def in_the_gap(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], Any]], None]:
    """Run ``write`` once, just after the next importer takes the registry lock and
    before it catches up: after its players were identified."""
    waiting: list[Callable[[], Any]] = []
    original = ingest.take_registry_lock

    def take() -> None:
        original()
        while waiting:
            waiting.pop()()

    monkeypatch.setattr(ingest, "take_registry_lock", take)
    return waiting.append


def test_a_newcomer_written_in_the_gap_is_linked_not_created_twice(
    in_the_gap: Callable[[Callable[[], Any]], None], identifications: list[ResultsImporter]
) -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    late, other = importer(), importer()
    assert len(late.index) == len(other.index) == 1
    ned = newcomer(2, "Newman, Ned", "01/02/2003")
    in_the_gap(lambda: other.import_file(a_file("BB00002", BLOGGS, ned), "b.txt"))
    assert late.import_file(a_file("AA00001", BLOGGS, ned), "a.txt").accepted
    assert Player.objects.filter(surname="Newman").count() == 1
    assert Game.objects.filter(player2__surname="Newman").count() == 2
    assert identifications.count(late) == 2  # before the lock, and again under it


def test_a_birth_date_learnt_in_the_gap_is_read_before_deciding(
    in_the_gap: Callable[[Callable[[], Any]], None],
) -> None:
    """Amy Young on record without a birth date; in the gap a file gives hers (2005). The
    late file's Amy Young born in 2006 is then another girl, not a case to decide."""
    Player.objects.create(code=100001, surname="Young", forenames="Amy")
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    late, other = importer(), importer()
    assert len(late.index) == 2
    known = a_file("AA00001", BLOGGS, newcomer(2, "Young, Amy", "01/01/2005", club="Dover"))
    in_the_gap(lambda: other.import_file(known, "a.txt"))
    amy = a_file("BB00002", BLOGGS, newcomer(2, "Young, Amy", "02/02/2006", club="Deal"))
    assert late.import_file(amy, "b.txt").accepted
    assert Player.objects.filter(surname="Young").count() == 2
    assert not PendingIdentification.objects.exists()


def test_a_file_the_gap_does_not_concern_keeps_its_identification(
    in_the_gap: Callable[[Callable[[], Any]], None], identifications: list[ResultsImporter]
) -> None:
    """The other file has other players, coded: nothing the late file read changed."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    Player.objects.create(code=102807, surname="Jones", forenames="Mary")
    late, other = importer(), importer()
    assert len(late.index) == len(other.index) == 2
    ann = newcomer(2, "Archer, Ann", club="Deal")
    in_the_gap(lambda: other.import_file(a_file("BB00002", JONES, ann), "b.txt"))
    assert late.import_file(a_file("AA00001", BLOGGS, newcomer(2, "Zeller, Zoe")), "a.txt").accepted
    assert identifications.count(late) == 1
    assert Player.objects.filter(surname__in=["Archer", "Zeller"]).count() == 2
