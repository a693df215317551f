"""Imports that see what is on record now: another importer's players, birth dates and
clubs, and files left behind by an interrupted run (issue 8)."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.registry.models import Game, PendingIdentification, Player, Submission
from ecfgrading.services.errors import Conflict, NotFound
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.ingest import (
    ResultsImporter,
    import_files,
    interrupted,
    reject_waiting,
    retry,
    store_raw,
)
from ecfgrading.services.results.view import RegistryView
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall"


def newcomer(pin: int, name: str, born: str = "", club: str = "Anytown") -> str:
    birth = f"#DATE OF BIRTH={born}" if born else ""
    return f"#PIN={pin}#NAME={name}#CLUB NAME={club}{birth}"


def game(pin1: int, pin2: int, day: str = "11/05/2013") -> str:
    return f"#PIN1={pin1}#SCORE=10#PIN2={pin2}#ROUND=1#GAME DATE={day}"


def a_file(code: str, *players: str) -> bytes:
    pins = list(range(1, len(players) + 1))
    games = [game(pins[0], pin) for pin in pins[1:]]
    return results_file(list(players), games, code=code)


def importer() -> ResultsImporter:
    """An importer with a view of its own, as another process would have."""
    return ResultsImporter(view=RegistryView())


def test_a_newcomer_created_by_another_importer_is_linked_not_created_twice() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    first, second = importer(), importer()
    assert len(second.index) == 1  # loaded before the first importer's file
    ned = newcomer(2, "Newman, Ned", "01/02/2003")
    assert first.import_file(a_file("AA00001", BLOGGS, ned), "a.txt").accepted
    assert second.import_file(a_file("BB00002", BLOGGS, ned), "b.txt").accepted
    assert Player.objects.filter(surname="Newman").count() == 1
    assert Game.objects.filter(player2__surname="Newman").count() == 2


def test_a_birth_date_learnt_meanwhile_rules_a_namesake_out_in_every_importer() -> None:
    """Amy Young on record without a birth date; a file gives hers (2005); a later file's
    Amy Young born in 2006 is then another girl: a new player, not a case to decide."""
    amy = Player.objects.create(code=100001, surname="Young", forenames="Amy")
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    first, second = importer(), importer()
    assert len(second.index) == 2
    known = a_file("AA00001", BLOGGS, newcomer(2, "Young, Amy", "01/01/2005", club="Dover"))
    assert first.import_file(known, "a.txt").accepted
    other = a_file("BB00002", BLOGGS, newcomer(2, "Young, Amy", "02/02/2006", club="Deal"))
    assert second.import_file(other, "b.txt").accepted
    amy.refresh_from_db()
    assert amy.date_of_birth == date(2005, 1, 1)
    assert Player.objects.filter(surname="Young").count() == 2
    assert not PendingIdentification.objects.exists()


def test_one_batch_and_two_batches_give_the_same_people() -> None:
    """The smallest case of issue 8: the batch's own birth dates must count at once."""
    Player.objects.create(code=100001, surname="Young", forenames="Amy")
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = [
        ("a.txt", a_file("AA00001", BLOGGS, newcomer(2, "Young, Amy", "01/01/2005", "Dover"))),
        ("b.txt", a_file("BB00002", BLOGGS, newcomer(2, "Young, Amy", "02/02/2006", "Deal"))),
    ]
    outcomes = import_files(files)
    assert all(o.accepted for o in outcomes)
    assert Player.objects.filter(surname="Young").count() == 2
    assert not PendingIdentification.objects.exists()


def test_a_merge_made_meanwhile_resolves_the_absorbed_code_to_the_survivor() -> None:
    kept = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    gone = Player.objects.create(code=233310, surname="Bloggs", forenames="Joseph")
    late = importer()
    assert len(late.index) == 2
    merge_players("233310H", "261619B")
    coded = "#PIN=1#BCF CODE=233310H#NAME=Bloggs, Joe#CLUB NAME=Walsall"
    assert late.import_file(a_file("AA00001", coded, newcomer(2, "Newman, Ned")), "a").accepted
    assert Game.objects.get().player1_id in (gone.id, kept.id)
    assert late.index.holder(233310) is not None
    assert late.index.holder(233310).id == kept.id  # type: ignore[union-attr]


def test_a_file_left_received_is_listed_retried_and_then_no_longer_waiting() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    data = a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned"))
    left = store_raw(data, "left.txt", "officer", None)  # as a killed import leaves it
    assert [s.id for s in interrupted()] == [left.id]
    (outcome,) = retry([left.id])
    assert outcome.accepted and not outcome.already
    assert interrupted() == []
    assert Game.objects.count() == 1
    with pytest.raises(Conflict, match="is accepted, not waiting"):
        retry([left.id])


def test_a_file_left_received_can_be_rejected_and_stays_on_record() -> None:
    left = store_raw(b"#EVENT DETAILS\n", "left.txt", "officer", None)
    (done,) = reject_waiting([left.id], reason="sent by mistake")
    assert done.id == left.id
    left.refresh_from_db()
    assert left.status == Submission.Status.REJECTED and bytes(left.raw) == b"#EVENT DETAILS\n"
    assert left.report["problems"][0]["got"] == "sent by mistake"
    with pytest.raises(NotFound):
        reject_waiting([left.id + 1], reason="")


def test_a_stored_file_imported_meanwhile_by_another_process_is_not_imported_twice() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    left = store_raw(a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned")), "x", "", None)
    assert importer().import_stored(left).accepted
    again = importer().import_stored(left)  # a retry racing the import it retries
    assert again.already and again.accepted
    assert Game.objects.count() == 1


def test_a_batch_holding_one_file_twice_imports_it_once() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    data = a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned"))
    first, second = import_files([("a.txt", data), ("a-copy.txt", data)])
    assert first.accepted and not first.already
    assert second.already and second.submission_id == first.submission_id
    assert Submission.objects.count() == 1 and Game.objects.count() == 1
