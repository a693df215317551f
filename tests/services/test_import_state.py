"""Imports that see what is on record now: another importer's players, birth dates and
clubs, and files left behind by an interrupted run (issue 8)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ecfgrading.engine.codes import GradingCode
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    County,
    Event,
    Game,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.services.changes import changes_since, current_mark
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
from ecfgrading.services.results.records import load_record_index
from ecfgrading.services.results.registry_cache import RegistryCache
from ecfgrading.services.results.view import RegistryView
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall"


def newcomer(pin: int, name: str, born: str = "", club: str = "Anytown") -> str:
    birth = f"#DATE OF BIRTH={born}" if born else ""
    return f"#PIN={pin}#NAME={name}#CLUB NAME={club}{birth}"


def game(pin1: int, pin2: int, day: str = "11/05/2013") -> str:
    return f"#PIN1={pin1}#SCORE=10#PIN2={pin2}#ROUND=1#GAME DATE={day}"


def a_file(code: str, *players: str, day: str = "", index: int = 1) -> bytes:
    """The first player plays each of the others; ``day``: the event's one day, and
    its games' (else the file's usual dates)."""
    pins = list(range(1, len(players) + 1))
    games = [game(pins[0], pin, *([day] if day else [])) for pin in pins[1:]]
    dates = {"start": day, "end": day} if day else {}
    return results_file(list(players), games, code=code, index=index, **dates)


def stored(report: dict[str, Any]) -> Any:
    """A report as the database gives it back (JSON: tuples come back as lists)."""
    return json.loads(json.dumps(report))


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


def test_a_batch_run_again_imports_a_file_it_left_received_from_that_submission() -> None:
    """A killed batch leaves files stored and waiting; running it again imports each
    from the submission kept, so nothing is left waiting, nor stored twice."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    data = a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned"))
    left = store_raw(data, "left.txt", "officer", None)  # as a killed import leaves it
    first, copy = import_files([("left.txt", data), ("left-copy.txt", data)])
    assert (first.submission_id, first.accepted, first.already) == (left.id, True, False)
    assert (copy.submission_id, copy.already) == (left.id, True)
    assert interrupted() == []
    assert Submission.objects.count() == 1 and Game.objects.count() == 1


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


# --- holding costs no speed: what each file asks the database (issue 8) ------------------


def test_after_its_own_write_a_view_is_marked_as_the_database_stands() -> None:
    """The mark a view moves to after its own write is worked out from the ids the write
    gave, not read again: it must be what ``current_mark`` reads, for each table the
    write added to (a new player, club and membership; a birth date and a season learnt
    in place)."""
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    walsall = Club.objects.create(name="Walsall")
    ClubMembership.objects.create(player=bloggs, club=walsall, first_season=2012, last_season=2012)
    view = RegistryView()
    before = current_mark()
    born = f"{BLOGGS}#DATE OF BIRTH=03/04/1970"  # the records lack it: learnt in place
    data = a_file("AA00001", born, newcomer(2, "Newman, Ned", club="Newtown"))
    assert ResultsImporter(view=view).import_file(data, "a.txt").accepted
    after = current_mark()
    # The file added to every table a view marks but aliases: season 2013 widened the
    # Walsall membership (2012 only), Ned and his club and membership are new.
    assert (after.player, after.club, after.membership) > (before.player, before.club, 0)
    assert after.membership > before.membership and after.change > before.change
    assert after.alias == before.alias
    assert view.mark == after


def test_a_file_into_a_warm_view_reads_the_mark_twice_and_no_status_apart() -> None:
    """Per file, the mark tells what others changed: read once before the lock (to catch
    up while another importer writes) and once under it (what he wrote since); whether
    the stored file still waits is asked by the UPDATE that accepts it, not apart."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    warm = importer()
    assert warm.import_file(a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned")), "a").accepted
    second = a_file("BB00002", BLOGGS, newcomer(2, "Newman, Ned"), newcomer(3, "Old, Olga"))
    with CaptureQueriesContext(connection) as seen:
        assert warm.import_file(second, "b").accepted
    sql = [query["sql"] for query in seen.captured_queries]
    marks = [q for q in sql if "MAX" in q and "registry_identitychange" in q]
    assert len(marks) == 2
    by_id = 'FROM "registry_submission" WHERE "registry_submission"."id" ='
    assert not [q for q in sql if q.startswith("SELECT") and by_id in q]
    settled = [q for q in sql if q.startswith('UPDATE "registry_submission"') and "accepted" in q]
    assert len(settled) == 1 and "received" in settled[0]


def _event_reads(sql: list[str]) -> list[str]:
    """The statements that read the events table (the checks' and the writer's)."""
    return [q for q in sql if q.startswith("SELECT") and 'FROM "registry_event"' in q]


def test_a_new_events_file_looks_for_its_event_once_and_one_on_record_is_updated() -> None:
    """The checks ask the records for the file's event under the lock; when it is not
    there, the writer creates it without looking again (a season's 1,500 new events).
    A file of an event on record is still read whole by the writer and updates it."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    warm = importer()
    with CaptureQueriesContext(connection) as new:
        assert warm.import_file(a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned")), "a").accepted
    assert len(_event_reads([q["sql"] for q in new.captured_queries])) == 1
    players = [BLOGGS, newcomer(2, "Newman, Ned"), newcomer(3, "Old, Olga")]
    again = results_file(players, [game(1, 2), game(1, 3)], code="AA00001", index=2)
    with CaptureQueriesContext(connection) as known:
        result = warm.import_file(again, "b")
    assert result.accepted, result.report.errors
    assert len(_event_reads([q["sql"] for q in known.captured_queries])) == 2
    assert Event.objects.filter(code="AA00001").count() == 1
    assert Submission.objects.filter(event_code="AA00001", status="superseded").count() == 1


def test_a_file_done_elsewhere_meanwhile_leaves_nothing_of_the_late_import() -> None:
    """The late import finds out only when it marks the file accepted; everything it
    wrote is rolled back, and its view, which had taken some of it in, starts afresh."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    data = a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned", club="Newtown"))
    left = store_raw(data, "x", "", None)
    late = importer()
    assert len(late.index) == 1  # loaded before the other process imported the file
    first = importer().import_stored(left)
    assert first.accepted
    again = late.import_stored(left)
    assert again.already and again.accepted
    assert Game.objects.count() == 1 and Player.objects.filter(surname="Newman").count() == 1
    assert Club.objects.filter(name="Newtown").count() == 1
    assert AuditLog.objects.filter(action="import results").count() == 1
    left.refresh_from_db()
    assert left.status == Submission.Status.ACCEPTED
    assert left.report == stored(first.report.as_dict())
    # The late view still serves: Ned is on record, linked, not created again.
    assert late.import_file(a_file("BB00002", BLOGGS, newcomer(2, "Newman, Ned")), "b").accepted
    assert Player.objects.filter(surname="Newman").count() == 1


def test_a_file_rejected_elsewhere_meanwhile_keeps_that_report() -> None:
    """A code held by another name is an error found under the lock; a late run of the
    same stored file reports it done, rewriting nothing."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    wrong = "#PIN=1#BCF CODE=261619B#NAME=Zebedee, Zak#CLUB NAME=Walsall"
    left = store_raw(a_file("AA00001", wrong, newcomer(2, "Newman, Ned")), "x", "", None)
    late = importer()
    assert len(late.index) == 1
    first = importer().import_stored(left)
    assert not first.accepted
    again = late.import_stored(left)
    assert again.already and not again.accepted
    left.refresh_from_db()
    assert left.status == Submission.Status.REJECTED
    assert left.report == stored(first.report.as_dict())
    assert not Game.objects.exists() and not Player.objects.filter(surname="Newman").exists()


def test_views_after_another_importers_file_hold_what_a_fresh_load_reads() -> None:
    """The importer that wrote a file applies it in memory; the other reloads the players
    it changed (their clubs, seasons and birth dates read once for index and cache).
    Both must then hold what loading everything afresh would."""
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    walsall = Club.objects.create(name="Walsall")
    ClubMembership.objects.create(player=bloggs, club=walsall, first_season=2012, last_season=2012)
    first, second = importer(), importer()
    assert len(first.index) == len(second.index) == 1
    born = f"{BLOGGS}#DATE OF BIRTH=03/04/1970"
    data = a_file("AA00001", born, newcomer(2, "Newman, Ned", "01/02/2003", club="Newtown"))
    assert first.import_file(data, "a.txt").accepted
    second.view.catch_up()
    fresh_index, fresh_cache = load_record_index(), RegistryCache.load()
    for view in (first.view, second.view):
        assert view.mark == current_mark()
        for pid in Player.objects.values_list("id", flat=True):
            assert view.index.record(pid) == fresh_index.record(pid)
        assert view.cache.memberships == fresh_cache.memberships
        assert view.cache.births_known == fresh_cache.births_known
        assert view.cache.club_names == fresh_cache.club_names


def test_members_seen_again_and_a_club_that_learns_its_code_are_indexed_as_loaded() -> None:
    """A club known by name whose code a file gives has its code added to the records of
    its members already on record as they are seen, in this file (Bloggs) or a later one
    (Smith), as a fresh load reads them."""
    walsall = Club.objects.create(name="Walsall")
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    for member in (bloggs, smith):
        ClubMembership.objects.create(
            player=member, club=walsall, first_season=2013, last_season=2013
        )
    ours = importer()
    assert ours.index.record(bloggs.id).club_codes == frozenset()  # type: ignore[union-attr]
    coded = BLOGGS + "#CLUB CODE=7WAL"
    assert ours.import_file(a_file("AA00001", coded, newcomer(2, "Newman, Ned")), "a").accepted
    sam = f"#PIN=1#BCF CODE={GradingCode(100001)}#NAME=Smith, Sam#CLUB NAME=Walsall"
    assert ours.import_file(a_file("AA00002", sam, newcomer(2, "Oldman, Olly")), "b").accepted
    fresh = load_record_index()
    for member in (bloggs, smith):
        assert ours.view.index.record(member.id) == fresh.record(member.id)
        assert ours.view.index.record(member.id).club_codes == {"7WAL"}  # type: ignore[union-attr]


def test_a_player_who_only_joined_a_club_is_brought_in_without_reading_him_again() -> None:
    """The commonest change another importer's file brings: a player on record seen at a
    club new to him. The new membership, read whole, updates index and cache alike."""
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    walsall = Club.objects.create(name="Walsall")
    ClubMembership.objects.create(player=bloggs, club=walsall, first_season=2012, last_season=2012)
    first, second = importer(), importer()
    assert len(second.index) == 1
    at_dover = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Dover"
    assert first.import_file(a_file("AA00001", at_dover, newcomer(2, "Newman, Ned")), "a").accepted
    changes = changes_since(second.view.mark)
    dover = ClubMembership.objects.get(player=bloggs, club__name="Dover")
    assert bloggs.id not in changes.players  # not read again...
    assert (dover.id, bloggs.id, dover.club_id, 2013, 2013) in changes.memberships  # ...but joined
    second.view.catch_up()
    fresh_index, fresh_cache = load_record_index(), RegistryCache.load()
    assert second.view.index.record(bloggs.id) == fresh_index.record(bloggs.id)
    assert second.view.index.record(bloggs.id).club_names == {"Walsall", "Dover"}  # type: ignore[union-attr]
    assert second.view.cache.memberships == fresh_cache.memberships
    assert second.view.mark == current_mark()


def test_the_index_loaded_holds_each_survivor_with_his_clubs_sets_shared() -> None:
    """``load_record_index`` reads by plain statements (issue 25): each surviving player
    with his date of birth and his clubs' codes and names, one set object for the
    members of one club; a player merged away is not there, and his code leads to the
    survivor; a player of no club has none."""
    dover = Club.objects.create(code="KNT1", name="Dover")
    ann = Player.objects.create(code=100001, surname="Archer", forenames="Ann",
                                date_of_birth=date(1990, 5, 17))  # fmt: skip
    bob = Player.objects.create(code=100002, surname="Baker", forenames="Bob")
    gone = Player.objects.create(code=100003, surname="Archer", forenames="A")
    cid = Player.objects.create(code=100004, surname="Cook", forenames="Cid")
    for player in (ann, bob, gone):
        ClubMembership.objects.create(
            player=player, club=dover, first_season=2012, last_season=2012
        )
    merge_players("100003C", "100001K", actor="test")

    index = load_record_index()
    one, two, three = (index.record(p.id) for p in (ann, bob, cid))
    assert one is not None and two is not None and three is not None
    assert (one.code, one.surname, one.forenames, one.date_of_birth) == (
        100001, "Archer", "Ann", date(1990, 5, 17))  # fmt: skip
    assert one.club_codes == {"KNT1"} and one.club_names == {"Dover"}
    assert one.club_codes is two.club_codes and one.club_names is two.club_names
    assert three.club_codes == frozenset() and three.club_names == frozenset()
    assert index.record(gone.id) is None and index.holder(100003) == one
    assert len(index) == 3


def test_a_club_given_its_code_elsewhere_is_found_by_it_not_created_again() -> None:
    """Another importer (or the back office) gave a club on record its code in place: no
    row is added, so this importer's view never reads the club again. A file naming the
    club by that code, and by another spelling of its name, joins its player to that
    club, rather than being refused for creating a second club with the code."""
    walsall = Club.objects.create(name="Walsall")
    ours = importer()
    assert ours.view.cache.club_by_code == {}  # loaded before the code was given
    Club.objects.filter(id=walsall.id).update(code="7WAL")
    coded = "#PIN=1#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall Chess Club"
    outcome = ours.import_file(a_file("AA00001", coded, newcomer(2, "Newman, Ned")), "a")
    assert outcome.accepted, outcome.report
    assert Club.objects.filter(code="7WAL").get().id == walsall.id
    bloggs = Player.objects.get(surname="Bloggs")
    assert list(ClubMembership.objects.filter(player=bloggs).values_list("club", flat=True)) == [
        walsall.id
    ]


def test_a_county_given_to_a_club_elsewhere_is_not_overwritten_by_a_file() -> None:
    """A club's county learnt from a file fills only a county the record lacks: one set
    meanwhile elsewhere (another importer, the back office) stands."""
    walsall = Club.objects.create(name="Walsall", code="7WAL")
    ours = importer()
    assert ours.view.cache.club_county[walsall.id] is None
    staffs = County.objects.create(name="Staffordshire")
    Club.objects.filter(id=walsall.id).update(county=staffs)
    coded = "#PIN=1#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall#CLUB COUNTY=Kent"
    assert ours.import_file(a_file("AA00001", coded, newcomer(2, "Newman, Ned")), "a").accepted
    assert Club.objects.get(id=walsall.id).county_id == staffs.id


def test_a_club_found_by_name_keeps_the_code_given_it_elsewhere() -> None:
    """A file names a club by its name and a code of its own; the club was given another
    code meanwhile by someone else. The code on record stands, the player joins the club,
    and the importer's records of the club's members learn the code on record."""
    walsall = Club.objects.create(name="Walsall")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    ClubMembership.objects.create(player=smith, club=walsall, first_season=2013, last_season=2013)
    ours = importer()
    assert ours.view.cache.club_coded == set()  # loaded before the code was given
    Club.objects.filter(id=walsall.id).update(code="7WAL")
    named = "#PIN=1#NAME=Bloggs, Joe#CLUB CODE=WALS#CLUB NAME=Walsall"
    sam = f"#PIN=2#BCF CODE={GradingCode(100001)}#NAME=Smith, Sam#CLUB NAME=Walsall"
    assert ours.import_file(a_file("AA00001", named, sam), "a").accepted
    assert list(Club.objects.values_list("id", "code")) == [(walsall.id, "7WAL")]
    bloggs = Player.objects.get(surname="Bloggs")
    assert ClubMembership.objects.get(player=bloggs).club_id == walsall.id
    assert ours.view.index.record(smith.id) == load_record_index().record(smith.id)
    assert ours.view.index.record(smith.id).club_codes == {"7WAL"}  # type: ignore[union-attr]


def test_a_code_given_elsewhere_finds_its_club_before_a_name_finds_another() -> None:
    """A file names a club by a code given in place elsewhere and by another club's
    name: the code decides, as it would for a cache loaded now, and the other club is
    not given the code (which the database would refuse, rejecting the file)."""
    walsall, dudley = Club.objects.create(name="Walsall"), Club.objects.create(name="Dudley")
    ours = importer()
    assert ours.view.cache.club_coded == set()
    Club.objects.filter(id=walsall.id).update(code="7WAL")
    named = "#PIN=1#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Dudley"
    outcome = ours.import_file(a_file("AA00001", named, newcomer(2, "Newman, Ned")), "a")
    assert outcome.accepted, outcome.report
    bloggs = Player.objects.get(surname="Bloggs")
    assert ClubMembership.objects.get(player=bloggs).club_id == walsall.id
    assert Club.objects.get(id=dudley.id).code is None


def test_a_club_learnt_alone_keeps_the_code_it_was_given_elsewhere_in_the_cache() -> None:
    """``club`` asked alone (as the queue's decisions do) of a club given a code in place
    since the cache was loaded: the code on record stands, in the database and in the
    cache, which no longer takes the file's code for the club's."""
    walsall = Club.objects.create(name="Walsall")
    cache = RegistryCache.load_clubs()
    Club.objects.filter(id=walsall.id).update(code="7WAL")
    assert cache.club("WALS", "Walsall", "") == walsall.id
    assert Club.objects.get(id=walsall.id).code == "7WAL"
    assert cache.club_names[walsall.id] == ("7WAL", "Walsall")
    assert "WALS" not in cache.club_by_code and cache.club_by_code["7WAL"] == walsall.id


def test_a_code_and_a_county_learnt_together_leave_the_cache_as_stored() -> None:
    """A file teaches a club its code (given another elsewhere meanwhile) and its county
    (still empty): the county is written, the code on record stands, and the cache holds
    both as a cache loaded now would."""
    walsall = Club.objects.create(name="Walsall")
    ours = importer()
    assert ours.view.cache.club_county[walsall.id] is None
    Club.objects.filter(id=walsall.id).update(code="7WAL")
    named = "#PIN=1#NAME=Bloggs, Joe#CLUB CODE=WALS#CLUB NAME=Walsall#CLUB COUNTY=Kent"
    assert ours.import_file(a_file("AA00001", named, newcomer(2, "Newman, Ned")), "a").accepted
    stored = Club.objects.get(id=walsall.id)
    assert stored.code == "7WAL" and stored.county is not None and stored.county.name == "Kent"
    fresh, cache = RegistryCache.load_clubs(), ours.view.cache
    assert cache.club_county[walsall.id] == fresh.club_county[walsall.id]
    assert cache.club_names[walsall.id] == fresh.club_names[walsall.id]
    assert cache.club_by_code.get("WALS") is None


# Staff edit a club or a player in place in the admin, while an importer (a served site's,
# say) keeps its view: no row is added, so only the notes the admin leaves tell it.


def edit_club(admin_client: Client, club: Club, **changed: Any) -> None:
    form = {"code": club.code or "", "name": club.name, "county": club.county_id or ""}
    form |= {"is_location": "on"} if club.is_location else {}
    form |= changed
    response = admin_client.post(reverse("admin:registry_club_change", args=[club.pk]), form)
    assert response.status_code == 302, response.content.decode()[:800]


def test_a_club_renamed_in_the_admin_is_found_by_its_new_name_by_a_running_importer(
    admin_client: Client,
) -> None:
    """A file naming the club as staff renamed it joins its player to that club, as an
    importer started now would, rather than creating a second club of the new name; the
    club's members are indexed with the new name, and the old name finds nothing."""
    walsall = Club.objects.create(name="Walsall")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    ClubMembership.objects.create(player=smith, club=walsall, first_season=2013, last_season=2013)
    ours = importer()
    assert ours.view.cache.club_by_name == {"walsall": walsall.id}
    edit_club(admin_client, walsall, name="Walsall Wood")
    named = "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall Wood"
    outcome = ours.import_file(a_file("AA00001", named, newcomer(2, "Newman, Ned")), "a")
    assert outcome.accepted, outcome.report
    assert Club.objects.filter(name="Walsall Wood").count() == 1
    bloggs = Player.objects.get(surname="Bloggs")
    assert ClubMembership.objects.get(player=bloggs).club_id == walsall.id
    fresh, cache = RegistryCache.load_clubs(), ours.view.cache
    assert cache.club_by_name == fresh.club_by_name
    assert cache.club_names == fresh.club_names
    assert ours.view.index.record(smith.id) == load_record_index().record(smith.id)
    assert ours.view.index.record(smith.id).club_names == {"Walsall Wood"}  # type: ignore[union-attr]
    assert ours.view.mark == current_mark()


def test_a_club_given_another_code_in_the_admin_leaves_no_member_with_the_old_one(
    admin_client: Client,
) -> None:
    """A code corrected in the admin (7WAL to 7WWD): the club's members are indexed with
    the new code only, as a fresh load reads them, and the cache finds the club by it."""
    walsall = Club.objects.create(name="Walsall", code="7WAL")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    ClubMembership.objects.create(player=smith, club=walsall, first_season=2013, last_season=2013)
    ours = importer()
    assert ours.view.index.record(smith.id).club_codes == {"7WAL"}  # type: ignore[union-attr]
    edit_club(admin_client, walsall, code="7WWD")
    ours.view.catch_up()
    assert ours.view.index.record(smith.id).club_codes == {"7WWD"}  # type: ignore[union-attr]
    assert ours.view.index.record(smith.id) == load_record_index().record(smith.id)
    assert ours.view.cache.club_by_code == {"7WWD": walsall.id}


def test_a_player_renamed_in_the_admin_is_read_again_by_a_running_importer(
    admin_client: Client,
) -> None:
    """His record in a running importer's index is his record as the admin left it."""
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    ours = importer()
    assert ours.view.index.record(smith.id).surname == "Smith"  # type: ignore[union-attr]
    change = reverse("admin:registry_player_change", args=[smith.pk])
    form = {
        "surname": "Smyth",
        "forenames": "Samuel",
        "sex": smith.sex,
        "nation": smith.nation,
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }
    response = admin_client.post(change, form)
    assert response.status_code == 302, response.content.decode()[:800]
    ours.view.catch_up()
    record = ours.view.index.record(smith.id)
    assert record == load_record_index().record(smith.id)
    assert record is not None and (record.surname, record.forenames) == ("Smyth", "Samuel")


def edit_player(admin_client: Client, player: Player, **changed: Any) -> None:
    """The player's admin page posted with his details and memberships as stored, but
    for ``changed`` (``memberships``: their clubs' ids in place of those stored)."""
    born = player.date_of_birth.strftime("%Y-%m-%d") if player.date_of_birth else ""
    form: dict[str, Any] = {
        "surname": player.surname,
        "forenames": player.forenames,
        "sex": player.sex,
        "date_of_birth": born,
        "nation": player.nation,
    }
    stored = list(ClubMembership.objects.filter(player=player).order_by("id"))
    clubs = changed.pop("memberships", [m.club_id for m in stored])
    form |= {"memberships-TOTAL_FORMS": len(stored), "memberships-INITIAL_FORMS": len(stored)}
    for n, (membership, club) in enumerate(zip(stored, clubs, strict=True)):
        row = {"id": membership.id, "player": player.id, "club": club}
        row |= {"first_season": membership.first_season, "last_season": membership.last_season}
        form |= {f"memberships-{n}-{name}": value for name, value in row.items()}
    form |= changed
    change = reverse("admin:registry_player_change", args=[player.pk])
    response = admin_client.post(change, form)
    assert response.status_code == 302, response.content.decode()[:800]


def test_a_membership_moved_to_another_club_in_the_admin_is_forgotten_by_an_importer(
    admin_client: Client,
) -> None:
    """Staff move Smith's membership from Walsall to Dudley below his record. A running
    importer then holds his memberships as stored, and a file placing him at Walsall
    gives him a membership there, leaving Dudley's seasons as they were (the importer
    had widened Dudley's, taking it for Walsall's)."""
    walsall, dudley = Club.objects.create(name="Walsall"), Club.objects.create(name="Dudley")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    ClubMembership.objects.create(player=smith, club=walsall, first_season=2012, last_season=2012)
    ours = importer()
    assert (smith.id, walsall.id) in ours.view.cache.memberships
    edit_player(admin_client, smith, memberships=[dudley.id])
    ours.view.catch_up()
    assert ours.view.cache.memberships == RegistryCache.load().memberships
    assert ours.view.index.record(smith.id) == load_record_index().record(smith.id)
    sam = f"#PIN=1#BCF CODE={GradingCode(100001)}#NAME=Smith, Sam#CLUB NAME=Walsall"
    outcome = ours.import_file(a_file("AA00001", sam, newcomer(2, "Newman, Ned")), "a")
    assert outcome.accepted, outcome.report
    held = ClubMembership.objects.filter(player=smith)
    seasons = {m.club_id: (m.first_season, m.last_season) for m in held}
    assert seasons[dudley.id] == (2012, 2012) and walsall.id in seasons


def test_a_membership_changed_on_its_own_admin_page_is_forgotten_by_an_importer(
    admin_client: Client,
) -> None:
    walsall, dudley = Club.objects.create(name="Walsall"), Club.objects.create(name="Dudley")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    held = ClubMembership.objects.create(
        player=smith, club=walsall, first_season=2012, last_season=2012
    )
    ours = importer()
    assert ours.view.index.record(smith.id).club_names == {"Walsall"}  # type: ignore[union-attr]
    form = {"player": smith.id, "club": dudley.id, "first_season": 2012, "last_season": 2012}
    change = reverse("admin:registry_clubmembership_change", args=[held.pk])
    assert admin_client.post(change, form).status_code == 302
    ours.view.catch_up()
    assert ours.view.cache.memberships == RegistryCache.load().memberships
    assert ours.view.index.record(smith.id).club_names == {"Dudley"}  # type: ignore[union-attr]


def test_a_date_of_birth_cleared_in_the_admin_is_forgotten_by_a_running_importer(
    admin_client: Client,
) -> None:
    """Otherwise the next file giving his date of birth would not write it (G20)."""
    smith = Player.objects.create(
        code=100001, surname="Smith", forenames="Sam", date_of_birth=date(1970, 4, 3)
    )
    ours = importer()
    assert smith.id in ours.view.cache.births_known
    edit_player(admin_client, smith, date_of_birth="")
    ours.view.catch_up()
    assert ours.view.cache.births_known == RegistryCache.load().births_known == set()
    assert ours.view.index.record(smith.id) == load_record_index().record(smith.id)


def test_a_player_deleted_in_the_admin_leaves_a_running_importers_index(
    admin_client: Client,
) -> None:
    """A record added by mistake, deleted (not the newest: the newest id would fall, and
    the view would load afresh anyway)."""
    mistake = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    Player.objects.create(code=100002, surname="Jones", forenames="Jim")
    walsall = Club.objects.create(name="Walsall")
    ClubMembership.objects.create(player=mistake, club=walsall, first_season=2012, last_season=2012)
    ours = importer()
    assert ours.view.index.record(mistake.id) is not None
    assert (mistake.id, walsall.id) in ours.view.cache.memberships
    delete = reverse("admin:registry_player_delete", args=[mistake.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    ours.view.catch_up()
    assert ours.view.index.record(mistake.id) is None
    assert len(ours.view.index) == len(load_record_index()) == 1
    assert ours.view.cache.memberships == RegistryCache.load().memberships == {}


def test_memberships_deleted_from_the_admins_list_are_forgotten_by_an_importer(
    admin_client: Client,
) -> None:
    """The list's "delete selected" action (a queryset, not one record)."""
    walsall, dudley = Club.objects.create(name="Walsall"), Club.objects.create(name="Dudley")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Sam")
    held = [
        ClubMembership.objects.create(player=smith, club=club, first_season=2012, last_season=2012)
        for club in (walsall, dudley)
    ]
    ours = importer()
    assert len(ours.view.cache.memberships) == 2
    form = {"action": "delete_selected", "_selected_action": [m.pk for m in held], "post": "yes"}
    response = admin_client.post(reverse("admin:registry_clubmembership_changelist"), form)
    assert response.status_code == 302 and not ClubMembership.objects.exists()
    ours.view.catch_up()
    assert ours.view.cache.memberships == {}
    assert ours.view.index.record(smith.id) == load_record_index().record(smith.id)
    assert ours.view.index.record(smith.id).club_names == frozenset()  # type: ignore[union-attr]
