"""Importers take turns: a batch writes a turn's worth of files at once (issue 8).

In its turn an importer writes the files it read and identified after its last turn,
and stores the next ones; it reads and identifies those while another importer may have
its turn, and keeps them current while it waits. Whatever was written between a file's
identification and its writing, by this importer's own files of the same turn or by
another's, must be seen: a file it concerns is identified again, one it does not keeps
its decisions, and the outcome is that of importing the files one by one.
"""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings

from ecfgrading.registry.bulk import insert_rows
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    Event,
    Game,
    IdentityChange,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.services.changes import current_mark
from ecfgrading.services.locks import Busy, Turn
from ecfgrading.services.locks import _file_turn as file_turn
from ecfgrading.services.results import ingest, records
from ecfgrading.services.results import view as view_module
from ecfgrading.services.results.ingest import TURN_FILES, ResultsImporter, import_files
from ecfgrading.services.results.registry_cache import RegistryCache
from tests.garbage import garbage_kept
from tests.services.results_text import results_file
from tests.services.test_import_state import BLOGGS, a_file, game, importer, newcomer

JONES = "#PIN=1#BCF CODE=102807J#NAME=Jones, Mary#CLUB NAME=Dover"


@pytest.mark.django_db
def test_a_newcomer_of_two_files_in_one_turn_is_created_once(
    identifications: list[ResultsImporter],
) -> None:
    """Both files are identified before either is written; the second, concerned by
    what the first wrote, is identified again in the turn and links Ned."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    ned = newcomer(2, "Newman, Ned", "01/02/2003")
    files = [("a.txt", a_file("AA00001", BLOGGS, ned)), ("b.txt", a_file("BB00002", BLOGGS, ned))]
    assert all(result.accepted for result in import_files(files))
    assert Player.objects.filter(surname="Newman").count() == 1
    assert Game.objects.filter(player2__surname="Newman").count() == 2
    assert len(identifications) == 3  # a, b, and b again after a was written


@pytest.mark.django_db
def test_identified_again_only_the_players_what_was_written_concerns(
    identified_here: list[str],
) -> None:
    """b's Ned is concerned by the Ned a created; b's Bloggs, linked by his code, is
    not: of b's two players only Ned is identified again."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    ned = newcomer(2, "Newman, Ned", "01/02/2003")
    files = [("a.txt", a_file("AA00001", BLOGGS, ned)), ("b.txt", a_file("BB00002", BLOGGS, ned))]
    assert all(result.accepted for result in import_files(files))
    # a's two, b's two before a was written, and b's Ned again.
    assert sorted(identified_here) == ["Bloggs, Joe"] * 2 + ["Newman, Ned"] * 3
    assert Player.objects.filter(surname="Newman").count() == 1


@pytest.mark.django_db
def test_files_in_one_turn_that_share_no_one_are_identified_once_each(
    identifications: list[ResultsImporter],
) -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    Player.objects.create(code=102807, surname="Jones", forenames="Mary")
    files = [
        ("a.txt", a_file("AA00001", BLOGGS, newcomer(2, "Archer, Ann"))),
        ("b.txt", a_file("BB00002", JONES, newcomer(2, "Zeller, Zoe"))),
    ]
    assert all(result.accepted for result in import_files(files))
    assert len(identifications) == 2
    assert Player.objects.filter(surname__in=["Archer", "Zeller"]).count() == 2


def refused_bb00002(monkeypatch: pytest.MonkeyPatch) -> None:
    """The database refuses event BB00002's games: a board no column takes, slipped in
    under the checks as a writer's bug would (CHECK (board >= 0)). Called after any spy
    on the writer's inserts (``games_inserted``), which it calls in turn."""
    import ecfgrading.services.results.write as writer

    before = writer.insert_rows  # another test's spy, say

    def spoil(model: Any, columns: tuple[str, ...], rows: list[Any], **how: Any) -> None:
        spoilt = set(Event.objects.filter(code="BB00002").values_list("id", flat=True))
        rows = [row._replace(board=-1) if row.event_id in spoilt else row for row in rows]
        before(model, columns, rows, **how)

    monkeypatch.setattr(writer, "insert_rows", spoil)


def three_files() -> list[tuple[str, bytes]]:
    """a gives the newcomer Ann; b gives Ann and the newcomer Ned; c gives Ned. Bloggs
    is on record."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    ann, ned = newcomer(2, "Archer, Ann", "01/02/2003"), newcomer(3, "Newman, Ned", "03/04/2005")
    return [
        ("a.txt", a_file("AA00001", BLOGGS, ann)),
        ("b.txt", a_file("BB00002", BLOGGS, ann, ned)),
        ("c.txt", a_file("CC00003", BLOGGS, ned.replace("#PIN=3", "#PIN=2"))),
    ]


def three_files_b_refused(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    """``three_files``, b refused (refused_bb00002)."""
    refused_bb00002(monkeypatch)
    return three_files()


def _imports_audited() -> list[tuple[str, str]]:
    """Each import's audit entry, in the order written: its file and its event."""
    entries = AuditLog.objects.filter(action="import results").order_by("id")
    files = dict(Submission.objects.values_list("id", "filename"))
    return [(files[int(entry.object_id)], entry.details["event"]) for entry in entries]


@pytest.mark.django_db
def test_a_turns_audit_entries_are_written_together_in_the_files_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 25: a turn's files' audit entries wait for its end with its games, and go
    in together (four rows: one statement on either database), each naming its file
    and event, in the order of the files, the rejected one's among them."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    names = ("Archer, Ann", "Newman, Ned", "Carter, Cy", "Dale, Di")
    files = [
        (f"{n}.txt", a_file(f"AU0000{n}", BLOGGS, newcomer(2, name)))
        for n, name in enumerate(names, 1)
    ]
    # The third names a PIN2 not on its list: an error of its own, rejected.
    files[2] = (
        "3.txt",
        results_file([BLOGGS, newcomer(2, names[2])], [game(1, 3)], code="AU00003"),
    )
    statements: list[str] = []

    def audited(execute: Any, sql: str, *args: Any) -> Any:
        if "registry_auditlog" in sql and sql.lstrip().upper().startswith("INSERT"):
            statements.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(audited):
        outcomes = import_files(files)
    assert [outcome.accepted for outcome in outcomes] == [True, True, False, True]
    entries = AuditLog.objects.filter(action__in=["import results", "reject results"])
    files_of = dict(Submission.objects.values_list("id", "filename"))
    written = [
        (files_of[int(e.object_id)], e.action, e.details["event"]) for e in entries.order_by("id")
    ]
    assert written == [
        ("1.txt", "import results", "AU00001"),
        ("2.txt", "import results", "AU00002"),
        ("3.txt", "reject results", "AU00003"),
        ("4.txt", "import results", "AU00004"),
    ]
    assert len(statements) == 1


@pytest.mark.django_db
def test_a_file_the_database_refuses_in_a_turn_rolls_back_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A turn's files are written without a savepoint each (issue 25). The database
    refuses b, a board no column takes slipped in under the checks as a writer's bug
    would: the turn is rolled back and written again, a savepoint a file, and what stands
    is what importing the files one by one leaves: a and c, Ann and Ned once each."""
    outcomes = import_files(three_files_b_refused(monkeypatch))
    assert [outcome.accepted for outcome in outcomes] == [True, False, True]
    assert [problem.code for problem in outcomes[1].report.errors] == ["import-conflict"]
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"a.txt": "accepted", "b.txt": "rejected", "c.txt": "accepted"}
    assert sorted(Event.objects.values_list("code", flat=True)) == ["AA00001", "CC00003"]
    games = Game.objects.values_list("event__code", "player2__surname")
    assert sorted(games) == [("AA00001", "Archer"), ("CC00003", "Newman")]
    assert sorted(Player.objects.values_list("surname", flat=True)) == [
        "Archer",
        "Bloggs",
        "Newman",
    ]
    assert _imports_audited() == [("a.txt", "AA00001"), ("c.txt", "CC00003")]  # b's rolled back
    # The view kept is the registry's: a later file's Ned is linked, not made again.
    later = a_file("DD00004", BLOGGS, newcomer(2, "Newman, Ned", "03/04/2005"))
    assert import_files([("d.txt", later)])[0].accepted
    assert Player.objects.filter(surname="Newman").count() == 1
    assert Game.objects.filter(player2__surname="Newman").count() == 2


@pytest.mark.django_db
def test_a_batch_longer_than_a_turn_gives_the_people_of_files_imported_one_by_one() -> None:
    """Newcomers recur across turns (file k and k + 1 share one) and within them; the
    batch must leave what importing each file alone, in order, leaves."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    count = TURN_FILES * 2 + 3
    people = [newcomer(2, f"Newman, Ned{k // 2}", f"01/02/{2000 + k // 2}") for k in range(count)]
    files = [(f"{k}.txt", a_file(f"EV{k:05d}", BLOGGS, people[k])) for k in range(count)]
    assert all(result.accepted for result in import_files(files))
    # Hand count: files 2j and 2j + 1 share Ned{j}, so ceil(count / 2) newcomers.
    assert Player.objects.filter(surname="Newman").count() == (count + 1) // 2
    assert not PendingIdentification.objects.exists()
    assert Game.objects.count() == count


@pytest.mark.django_db
def test_what_a_batch_learns_of_players_on_record_is_written_each_turn_and_seen_by_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a batch's files learn of a player on record (a season with his club, his
    date of birth), and the notes telling other importers so, are written at the end of
    each turn: the batch's view, marked past its own notes, reads none of its players
    again; once the batch is done it is marked as the database stands and, like another
    importer's view brought up to date, holds what a fresh load reads."""
    reloaded: list[int] = []

    def reload_records(index: Any, player_ids: Any) -> Any:
        reloaded.extend(player_ids)
        return records.reload_records(index, player_ids)

    monkeypatch.setattr(view_module, "reload_records", reload_records)
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    walsall = Club.objects.create(name="Walsall")
    ClubMembership.objects.create(player=bloggs, club=walsall, first_season=2012, last_season=2012)
    other = importer()
    assert len(other.index) == 1  # loaded before the batch
    born = f"{BLOGGS}#DATE OF BIRTH=03/04/1970"
    count = TURN_FILES + 3  # two turns
    files = [
        (f"{k}.txt", a_file(f"EV{k:05d}", born, newcomer(2, f"Newman, Ned{k}")))
        for k in range(count)
    ]
    assert all(result.accepted for result in import_files(files))
    assert reloaded == []  # its own notes were not taken for another importer's
    bloggs.refresh_from_db()
    assert bloggs.date_of_birth == date(1970, 4, 3)
    # The files' events end on 12/05/2013, in the season 2012-13 (named 2013).
    membership = ClubMembership.objects.get(player=bloggs, club=walsall)
    assert (membership.first_season, membership.last_season) == (2012, 2013)
    assert IdentityChange.objects.filter(player_id=bloggs.id).exists()
    other.view.catch_up()
    assert bloggs.id in reloaded  # the other importer read him again
    fresh_index, fresh_cache = records.load_record_index(), RegistryCache.load()
    with ingest.shared_view() as view:
        for seen in (view, other.view):
            assert seen.mark == current_mark()
            for pid in Player.objects.values_list("id", flat=True):
                assert seen.index.record(pid) == fresh_index.record(pid)
            assert seen.cache.memberships == fresh_cache.memberships
            assert seen.cache.births_known == fresh_cache.births_known


@pytest.mark.django_db
def test_a_file_rejected_after_a_resent_one_leaves_the_view_as_the_database_stands() -> None:
    """A file sent again within a turn writes what waits (superseding reads the games
    on record), the notes of players changed among it; a file rejected later in the turn
    brings the view up to date. The view must not take the importer's own notes for
    another's and read Bloggs again from rows that lack what was learnt since and still
    waits: his date of birth, and his seasons with Walsall widened further."""
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    walsall = Club.objects.create(name="Walsall")
    ClubMembership.objects.create(player=bloggs, club=walsall, first_season=2013, last_season=2013)
    first = a_file("EV00000", BLOGGS, newcomer(2, "Zed, Zak"), day="12/05/2013")
    assert import_files([("ev0.txt", first)])[0].accepted
    born = f"{BLOGGS}#DATE OF BIRTH=03/04/1970"
    unknown = results_file([BLOGGS, newcomer(2, "Cy, Carter")], [game(1, 3)], code="CC00003")
    files = [  # seasons are named by the year they end (1 June .. 31 May)
        ("a.txt", a_file("AA00001", BLOGGS, newcomer(2, "Archer, Ann"), day="12/05/2014")),
        ("b.txt", a_file("EV00000", born, newcomer(2, "Zed, Zak"), day="12/05/2015", index=2)),
        ("c.txt", unknown),  # a game of PIN 3, whom the file does not name: rejected
        ("d.txt", a_file("DD00004", BLOGGS, newcomer(2, "Dale, Di"), day="12/05/2012")),
    ]
    assert [result.accepted for result in import_files(files)] == [True, True, False, True]
    membership = ClubMembership.objects.get(player=bloggs, club=walsall)
    assert (membership.first_season, membership.last_season) == (2012, 2015)
    bloggs.refresh_from_db()
    assert bloggs.date_of_birth == date(1970, 4, 3)
    fresh_index, fresh_cache = records.load_record_index(), RegistryCache.load()
    with ingest.shared_view() as view:
        assert view.mark == current_mark()
        assert view.index.record(bloggs.id) == fresh_index.record(bloggs.id)
        assert view.cache.memberships == fresh_cache.memberships


@pytest.mark.django_db
def test_a_waiting_file_is_identified_again_while_waiting_not_in_the_turn(
    identifications: list[ResultsImporter],
) -> None:
    """Another importer writes Ned while this one waits with Ned's file read: waiting,
    it catches up and identifies the file again; in its turn nothing is left to do."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    late, other = importer(), importer()
    ned = newcomer(2, "Newman, Ned", "01/02/2003")
    submission = ingest.store_raw(a_file("AA00001", BLOGGS, ned), "a.txt", "", None)
    ready = late._prepare(submission)
    assert other.import_file(a_file("BB00002", BLOGGS, ned), "b.txt").accepted
    late._refresh([ready])
    assert identifications.count(late) == 2
    late._refresh([ready])  # nothing new: nothing identified again
    assert identifications.count(late) == 2
    assert late._write(ready).accepted
    assert identifications.count(late) == 2
    assert Player.objects.filter(surname="Newman").count() == 1
    assert Submission.objects.get(id=submission.id).status == Submission.Status.ACCEPTED


# The turn itself, beside a database file ------------------------------------------------


def test_a_turn_waits_for_the_one_before_doing_useful_work_meanwhile(tmp_path: Path) -> None:
    path, order = str(tmp_path / "db-turn"), []
    holding, done = threading.Event(), threading.Event()

    def first() -> None:
        with file_turn(path, "first", None):
            order.append("first in")
            holding.set()
            done.wait(5)
            order.append("first out")

    thread = threading.Thread(target=first)
    thread.start()
    holding.wait(5)
    meanwhile: list[float] = []

    def useful() -> None:
        meanwhile.append(time.monotonic())
        if len(meanwhile) == 3:
            done.set()  # the first importer ends its turn only now

    with file_turn(path, "second", useful):
        order.append("second in")
    thread.join()
    assert order == ["first in", "first out", "second in"]
    assert len(meanwhile) >= 3


@override_settings(LOCK_TIMEOUT=1)
def test_a_turn_that_never_comes_is_a_clear_error(tmp_path: Path) -> None:
    path = str(tmp_path / "db-turn")
    what = "a.txt: not stored, nothing was imported"
    with file_turn(path, "first", None), pytest.raises(Busy) as raised, file_turn(path, what, None):
        pass  # pragma: no cover - never entered
    assert str(raised.value) == (
        "a.txt: not stored, nothing was imported: the database stayed busy for 1 s "
        "(another import or grading run was writing); nothing was changed, try again "
        "(ECFGRADING_LOCK_TIMEOUT sets the wait)"
    )


@pytest.mark.django_db
def test_a_batch_cut_short_leaves_no_watch_open_on_the_view_it_keeps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process keeps its view (the web's uploads share one): a batch that ends in an
    error with files still waiting must not leave their watches noting every change."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = [
        (f"{k}.txt", a_file(f"EV{k:05d}", BLOGGS, newcomer(2, f"Newman, Ned{k}"))) for k in range(4)
    ]
    original, writes = ResultsImporter._import_locked, []

    def write(self: ResultsImporter, ready: Any, **how: Any) -> Any:
        writes.append(ready)
        if len(writes) >= 2:  # from the second file on: a hold written again fails too
            raise Busy("the second file: busy")
        return original(self, ready, **how)

    monkeypatch.setattr(ResultsImporter, "_import_locked", write)
    with pytest.raises(Busy):
        import_files(files)
    with ingest.shared_view() as view:
        # The hold that failed was rolled back and the view, which had taken in what the
        # rollback removed, forgotten; the turn before the error written again: what the
        # view holds is what the database does.
        assert view.mark == current_mark()
        assert view.index._watching == []  # the waiting files' watches closed
    # The four files were written in one turn, one transaction: the error took back the
    # first file's write too, and all four wait, stored, for a retry.
    assert not Player.objects.filter(surname="Newman").exists()
    assert Submission.objects.filter(status=Submission.Status.RECEIVED).count() == 4


@pytest.mark.sqlite
@pytest.mark.django_db
def test_the_wal_is_checkpointed_once_every_few_turns_not_after_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQLite: a checkpoint writes every page the turns since changed (issue 25); after
    CHECKPOINT_TURNS turns of a database, one, and the count starts again; while the
    last one still runs, the next turn asks again."""
    from ecfgrading.services import locks

    started: list[str] = []
    running = False

    def aside(database: str) -> bool:  # counted, not run: the databases are made up
        if running:
            return False
        started.append(database)
        return True

    monkeypatch.setattr(locks, "checkpoint_aside", aside)

    def checkpoints(turns: int, database: str) -> int:
        started.clear()
        for _ in range(turns):
            with locks._checkpointed_after(database):
                pass
        return len(started)

    every = locks.CHECKPOINT_TURNS
    assert every > 1
    assert checkpoints(every - 1, "/a/db.sqlite3") == 0
    assert checkpoints(1, "/b/db.sqlite3") == 0  # another database counts its own turns
    assert checkpoints(1, "/a/db.sqlite3") == 1
    assert checkpoints(2 * every, "/a/db.sqlite3") == 2
    running = True
    assert checkpoints(every, "/a/db.sqlite3") == 0  # the last one still runs
    running = False
    assert checkpoints(1, "/a/db.sqlite3") == 1  # the very next turn starts it


@pytest.mark.sqlite
def test_a_checkpoint_aside_copies_the_wal_into_the_file_and_one_runs_at_a_time(
    tmp_path: Path,
) -> None:
    """The thread's own connection copies what another connection committed to the WAL
    (which no one else checkpointed) into the database file; a second checkpoint asked
    for while the first runs starts nothing."""
    from ecfgrading.services import locks

    file = tmp_path / "wal.sqlite3"
    path = str(file)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t (x TEXT)")
    writer.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 2000)  # ~1 MB
    before = file.stat().st_size
    holder = threading.Event()
    release = threading.Event()

    class Slow(threading.Thread):  # stands for a checkpoint still running
        def run(self) -> None:
            holder.set()
            release.wait(10)

    slow = Slow()
    slow.start()
    holder.wait(10)
    locks._CHECKPOINTING[path] = slow
    try:
        assert not locks.checkpoint_aside(path)  # one at a time
    finally:
        release.set()
        slow.join()
    assert locks.checkpoint_aside(path)
    locks._CHECKPOINTING[path].join(10)
    after = file.stat().st_size  # before the writer closes: its close would checkpoint
    writer.close()
    assert before < 100_000 < after  # the table's pages are in the file


@pytest.mark.sqlite
def test_a_checkpoint_of_a_database_gone_meanwhile_makes_no_empty_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The thread opens the file as it is: one removed since the turn (a test's database
    torn down) is not made again, empty; the checkpoint is reported not done."""
    from ecfgrading.services import locks

    path = str(tmp_path / "gone.sqlite3")
    assert locks.checkpoint_aside(path)
    locks._CHECKPOINTING[path].join(10)
    assert not (tmp_path / "gone.sqlite3").exists()
    assert f"checkpoint of {path} not done" in caplog.text


# Turns held in one transaction while nobody waits (issue 25) -----------------------------


@pytest.fixture
def commits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each commit of the test's connection, counted."""
    from django.db import connection

    counted: list[int] = []
    original = connection.commit

    def commit() -> None:
        counted.append(1)
        original()

    monkeypatch.setattr(connection, "commit", commit)
    return counted


def five_files_a_turn_each(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    """Five files of a turn each (TURN_FILES 1): six turns, the first storing the first
    file, each next writing one and storing the next, the last writing the fifth.
    Files 2j and 2j + 1 share the newcomer Ned{j}."""
    monkeypatch.setattr(ingest, "TURN_FILES", 1)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    people = [newcomer(2, f"Newman, Ned{k // 2}", f"01/02/{2000 + k // 2}") for k in range(5)]
    return [(f"{k}.txt", a_file(f"EV{k:05d}", BLOGGS, people[k])) for k in range(5)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("hold", "expected"), [(60.0, 1), (0.0, 6)])
def test_turns_are_committed_together_while_no_other_importer_waits(
    monkeypatch: pytest.MonkeyPatch, commits: list[int], hold: float, expected: int
) -> None:
    """While nobody waits and the hold lasts, the six turns are one commit; a hold of no
    time commits each turn. Either way, what one import of each file in turn leaves."""
    files = five_files_a_turn_each(monkeypatch)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", hold)
    commits.clear()
    assert all(result.accepted for result in import_files(files))
    assert len(commits) == expected
    assert Player.objects.filter(surname="Newman").count() == 3  # Ned0, Ned1, Ned2
    assert Game.objects.count() == 5


@pytest.mark.django_db(transaction=True)
def test_a_hold_ends_with_the_turn_another_importer_waits_for(
    monkeypatch: pytest.MonkeyPatch, commits: list[int]
) -> None:
    """Another importer waiting (services.locks.Turn.wanted) gets its turn as soon as
    the turn being written is committed: six turns, six commits."""
    files = five_files_a_turn_each(monkeypatch)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    original = ingest.importers_turn

    @contextmanager
    def wanted(what: str, meanwhile: Any = None) -> Iterator[Turn]:
        with original(what, meanwhile) as turn:
            turn.wanted = lambda: True
            yield turn

    monkeypatch.setattr(ingest, "importers_turn", wanted)
    commits.clear()
    assert all(result.accepted for result in import_files(files))
    assert len(commits) == 6


@pytest.mark.django_db(transaction=True)
def test_a_file_refused_in_a_later_turn_of_a_hold_is_rejected_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """b, in the hold's third turn, is refused (a board no column takes): the hold is
    rolled back whole and its turns written again one by one, b then rejected alone;
    what stands is what importing a, b and c one by one leaves."""
    monkeypatch.setattr(ingest, "TURN_FILES", 1)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    outcomes = import_files(three_files_b_refused(monkeypatch))
    assert [outcome.accepted for outcome in outcomes] == [True, False, True]
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"a.txt": "accepted", "b.txt": "rejected", "c.txt": "accepted"}
    assert sorted(Event.objects.values_list("code", flat=True)) == ["AA00001", "CC00003"]
    assert sorted(Player.objects.values_list("surname", flat=True)) == [
        "Archer",
        "Bloggs",
        "Newman",
    ]
    assert Submission.objects.count() == 3  # each stored once, though stored again


@pytest.mark.django_db(transaction=True)
def test_an_error_in_a_later_turn_of_a_hold_leaves_the_turns_before_it_committed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug (or a lock) while writing the third file: the hold is rolled back and its
    turns written again one by one, so that what stands is what committing each turn
    leaves: the first two files accepted, the third stored for a retry, the fourth (to
    be stored in the third file's turn) not yet stored, and the error raised."""
    files = five_files_a_turn_each(monkeypatch)[:4]
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    original = ResultsImporter._import_locked

    def write(self: ResultsImporter, ready: Any, **how: Any) -> Any:
        if ready.submission.filename == "2.txt":
            raise Busy("2.txt: busy")
        return original(self, ready, **how)

    monkeypatch.setattr(ResultsImporter, "_import_locked", write)
    with pytest.raises(Busy):
        import_files(files)
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"0.txt": "accepted", "1.txt": "accepted", "2.txt": "received"}
    assert Player.objects.filter(surname="Newman").count() == 1  # Ned0, of 0 and 1


def wanted_while_another_waits(
    take: Callable[[str, Callable[[], None] | None], AbstractContextManager[Turn]],
) -> None:
    """The holder of a turn taken by ``take(what, meanwhile)`` sees a waiter (Turn.wanted)
    from its first try until it has the turn, and no one after."""
    waiting = threading.Event()

    def second() -> None:
        with take("second", waiting.set):
            pass

    with take("first", None) as turn:
        assert not turn.wanted()
        thread = threading.Thread(target=second)
        thread.start()
        assert waiting.wait(5)
        assert turn.wanted()
    thread.join(5)
    with take("third", None) as turn:
        assert not turn.wanted()  # the second had its turn: nobody waits now


def test_a_turn_is_wanted_while_another_importer_waits_for_it(tmp_path: Path) -> None:
    wanted_while_another_waits(partial(file_turn, str(tmp_path / "db-turn")))


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_advisory_turn_is_wanted_while_another_importer_waits_for_it() -> None:
    """PostgreSQL: the waiters' shared advisory lock, seen by the holder; each thread
    on a connection of its own, closed after."""
    from django.db import connection

    from ecfgrading.services.locks import importers_turn

    @contextmanager
    def take(what: str, meanwhile: Callable[[], None] | None) -> Iterator[Turn]:
        try:
            with importers_turn(what, meanwhile) as turn:
                yield turn
        finally:
            if what == "second":
                connection.close()  # that thread's own

    wanted_while_another_waits(take)


@pytest.mark.django_db(transaction=True)
def test_a_resumed_file_in_a_failed_hold_is_written_again_not_taken_for_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """a was left received by an interrupted run, and the batch resumes it from its
    submission. In the hold a is accepted, then b is refused: the hold is rolled back,
    and a, written again, is accepted (not reported as done before while left waiting);
    b is rejected alone."""
    refused_bb00002(monkeypatch)
    monkeypatch.setattr(ingest, "TURN_FILES", 1)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    ann, ned = newcomer(2, "Archer, Ann", "01/02/2003"), newcomer(3, "Newman, Ned", "03/04/2005")
    a = a_file("AA00001", BLOGGS, ann)
    left = ingest.store_raw(a, "a.txt", "", None)  # left received by an interrupted run
    outcomes = import_files([("a.txt", a), ("b.txt", a_file("BB00002", BLOGGS, ann, ned))])
    assert [(o.submission_id == left.id, o.accepted, o.already) for o in outcomes] == [
        (True, True, False),
        (False, False, False),
    ]
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"a.txt": "accepted", "b.txt": "rejected"}


@pytest.mark.django_db(transaction=True)
def test_a_hold_whose_wait_for_the_lock_runs_out_says_so_after_one_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry lock's wait runs out in a hold's second turn (the first only stores
    0.txt, taking no registry lock): the first turn is written again and committed, and
    Busy names the second turn's file, kept for a retry, after that one wait, as for
    turns of their own; not a second wait by writing the failed turn again."""
    files = five_files_a_turn_each(monkeypatch)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    waits: list[int] = []

    def busy() -> None:
        waits.append(1)
        raise Busy("busy")

    monkeypatch.setattr(ingest, "take_registry_lock", busy)
    with pytest.raises(Busy) as raised:
        import_files(files)
    assert len(waits) == 1
    (kept,) = Submission.objects.all()
    assert (kept.filename, kept.status) == ("0.txt", "received")
    assert str(raised.value).startswith(f"0.txt: not imported (kept as submission {kept.id})")


@pytest.mark.django_db(transaction=True)
def test_files_that_fail_to_come_end_the_batch_after_those_before_are_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch given lazily (import_many) whose fourth file cannot be had, in a hold of
    turns of one file: the files of the turns made up before (the first two; the third's
    turn was being made up) are written and their outcomes told, then the error is
    raised, not taken for a failed hold's (which would end the batch quietly)."""
    files = five_files_a_turn_each(monkeypatch)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)

    def given() -> Iterator[tuple[str, bytes, None]]:
        for name, data in files[:3]:
            yield name, data, None
        raise OSError("3.txt: cannot be read")

    told = []
    with pytest.raises(OSError, match=r"3\.txt"), ingest.shared_view() as view:
        for outcome in ResultsImporter(view=view).import_many(given()):
            told.append(outcome)
    assert [outcome.accepted for outcome in told] == [True, True]
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"0.txt": "accepted", "1.txt": "accepted"}


# --- a turn's games written together (issue 25) ------------------------------------------

SMITH = "#PIN=2#BCF CODE=102807J#NAME=Smith, Jane#CLUB NAME=Dover"
TWO_GAMES = [game(1, 2, "11/05/2013"), game(2, 1, "12/05/2013").replace("#ROUND=1", "#ROUND=2")]


@pytest.fixture
def games_inserted(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Each insert of games: the event codes of its rows, in order."""
    import ecfgrading.services.results.write as writer

    calls: list[list[str]] = []

    def spy(model: Any, columns: tuple[str, ...], rows: list[Any], **how: Any) -> None:
        if model is Game:
            codes = dict(Event.objects.values_list("id", "code"))
            calls.append([codes[row.event_id] for row in rows])
        insert_rows(model, columns, rows, **how)

    monkeypatch.setattr(writer, "insert_rows", spy)
    return calls


def on_record() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    Player.objects.create(code=102807, surname="Smith", forenames="Jane")


@pytest.mark.django_db
def test_the_games_of_a_turns_files_are_written_together_at_its_end(
    games_inserted: list[list[str]],
) -> None:
    """Three files of one turn, no two with a game between the same players: their games
    go in together once the turn's files are written, in the files' order."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    names = ["Archer, Ann", "Cole, Cy", "Dunn, Di"]
    files = [
        (f"{k}.txt", a_file(f"EV{k:05d}", BLOGGS, newcomer(2, name)))
        for k, name in enumerate(names)
    ]
    assert all(outcome.accepted for outcome in import_files(files))
    assert games_inserted == [["EV00000", "EV00001", "EV00002"]]
    assert list(Game.objects.order_by("id").values_list("event__code", flat=True)) == [
        "EV00000",
        "EV00001",
        "EV00002",
    ]


@pytest.mark.django_db
def test_games_of_a_file_earlier_in_the_turn_are_found_sent_again_under_another_code(
    games_inserted: list[list[str]],
) -> None:
    """Issue 24, case 1, within one turn: YY2's games are XX1's, which wait to be written
    with the turn's games when YY2 is checked. They are written first, and YY2 is told."""
    on_record()  # Smith's id is the higher: XX1 gives him first, YY2 Bloggs
    smith_first = [SMITH.replace("#PIN=2", "#PIN=1"), BLOGGS.replace("#PIN=1", "#PIN=2")]
    first = results_file(smith_first, [game(1, 2)], code="XX1")
    again = results_file([BLOGGS, SMITH], [game(2, 1)], code="YY2", name="Anytown (again)")
    outcomes = import_files([("a.txt", first), ("b.txt", again)])
    assert [outcome.accepted for outcome in outcomes] == [True, True]  # a warning
    assert [(p.code, p.got) for p in outcomes[1].report.warnings] == [
        ("games-already-received", "1 of its 1 graded games, on record under XX1 (submission 1)")
    ]
    assert games_inserted == [["XX1"], ["YY2"]]


@pytest.mark.django_db
def test_games_between_other_players_than_those_waiting_leave_them_waiting(
    games_inserted: list[list[str]],
) -> None:
    """XX1 (Bloggs and Smith) and YY2 (Bloggs and Jones), of one turn, all on record:
    checking YY2 asks for games between its players, none of which wait, so the turn's
    games still go in together."""
    on_record()
    jones = "#PIN=2#BCF CODE=233310H#NAME=Jones, Mary#CLUB NAME=Dover"
    Player.objects.create(code=233310, surname="Jones", forenames="Mary")
    first = results_file([BLOGGS, SMITH], [game(1, 2)], code="XX1")
    other = results_file([BLOGGS, jones], [game(1, 2)], code="YY2", name="Anytown Rapid")
    outcomes = import_files([("a.txt", first), ("b.txt", other)])
    assert [outcome.accepted for outcome in outcomes] == [True, True]
    assert [p.code for p in outcomes[1].report.warnings] == []
    assert games_inserted == [["XX1", "YY2"]]


@pytest.mark.django_db
def test_a_lock_wait_running_out_as_the_turns_games_are_written_is_busy_after_one_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The database stays locked as the turn's games go in: no refusal, so not written
    again a file at a time (another wait each); Busy names the turn's files, kept."""
    from django.db import OperationalError

    import ecfgrading.services.results.write as writer

    waits: list[int] = []

    def locked(model: Any, columns: tuple[str, ...], rows: list[Any], **how: Any) -> None:
        waits.append(len(rows))
        raise OperationalError("database is locked")

    monkeypatch.setattr(writer, "insert_rows", locked)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    names = ["Archer, Ann", "Cole, Cy"]
    files = [
        (f"{k}.txt", a_file(f"EV{k:05d}", BLOGGS, newcomer(2, name)))
        for k, name in enumerate(names)
    ]
    with pytest.raises(Busy) as raised:
        import_files(files)
    assert waits == [2]  # the two files' games, once
    kept = list(Submission.objects.order_by("id").values_list("id", "status"))
    assert [status for _, status in kept] == ["received", "received"]
    ids = " ".join(str(pk) for pk, _ in kept)
    assert f"ecfgrading results retry {ids}" in str(raised.value)


@pytest.mark.django_db
def test_a_later_submission_in_the_same_turn_supersedes_the_earlier_ones_games() -> None:
    """XX1's second submission, in the turn of its first (its game of other players, so
    that checking it asks for none of the first's): the first's games, waiting to be
    written with the turn's, are written before they are marked superseded."""
    on_record()
    first = results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1")
    second = results_file([BLOGGS, newcomer(2, "Archer, Ann")], [game(1, 2)], code="XX1", index=2)
    outcomes = import_files([("a.txt", first), ("b.txt", second)])
    assert [outcome.accepted for outcome in outcomes] == [True, True]
    games = Game.objects.order_by("id").values_list(
        "submission__submission_index", "graded", "not_graded_reason"
    )
    assert list(games) == [(1, False, "superseded"), (1, False, "superseded"), (2, True, "")]


@pytest.mark.django_db
def test_a_row_refused_when_the_turns_games_are_written_rejects_its_file_alone(
    monkeypatch: pytest.MonkeyPatch, games_inserted: list[list[str]]
) -> None:
    """b's games are refused only once the turn's games are written together, of no one
    file: the turn is written again a file at a time, and b alone is rejected."""
    refused_bb00002(monkeypatch)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = [
        ("a.txt", a_file("AA00001", BLOGGS, newcomer(2, "Archer, Ann", "01/02/2003"))),
        ("b.txt", a_file("BB00002", newcomer(1, "Ng, Ed"), newcomer(2, "Orr, Oz"))),
        ("c.txt", a_file("CC00003", BLOGGS, newcomer(2, "Cole, Cy", "03/04/2005"))),
    ]
    outcomes = import_files(files)
    assert [outcome.accepted for outcome in outcomes] == [True, False, True]
    assert [problem.code for problem in outcomes[1].report.errors] == ["import-conflict"]
    assert games_inserted[0] == ["AA00001", "BB00002", "CC00003"]  # together, refused
    games = Game.objects.values_list("event__code", "player2__surname")
    assert sorted(games) == [("AA00001", "Archer"), ("CC00003", "Cole")]


# --- the cycle collector paused over a batch (issue 25) -------------------------------


def _seen_at_each_write(monkeypatch: pytest.MonkeyPatch, look: Callable[[], Any]) -> list[Any]:
    """What ``look`` saw each time the importer wrote a file."""
    seen: list[Any] = []
    write = ResultsImporter._write

    def spied(self: ResultsImporter, *args: Any, **kwargs: Any) -> Any:
        seen.append(look())
        return write(self, *args, **kwargs)

    monkeypatch.setattr(ResultsImporter, "_write", spied)
    return seen


def _named(garbage: list[Any]) -> set[str]:
    return {type(thing).__qualname__ for thing in garbage}


@pytest.mark.django_db
def test_a_batch_is_imported_with_the_collector_paused_and_leaves_no_cycles(
    monkeypatch: pytest.MonkeyPatch, collector_on: None
) -> None:
    """The collector is off while a batch is written and on again after it; and the
    batch makes no cyclic garbage for it to have collected: every object it made went
    with its last reference."""
    monkeypatch.setattr(ingest, "TURN_FILES", 1)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    files = three_files()
    collecting = _seen_at_each_write(monkeypatch, gc.isenabled)
    with garbage_kept() as garbage:
        outcomes = import_files(files)
        gc.collect()
        cycles = _named(garbage)
    assert [outcome.accepted for outcome in outcomes] == [True, True, True]
    assert collecting and not any(collecting)
    assert gc.isenabled()
    assert cycles == set()


@pytest.mark.django_db
def test_what_a_refused_file_leaves_in_cycles_is_collected_in_the_batch(
    monkeypatch: pytest.MonkeyPatch, collector_on: None
) -> None:
    """A file the database refuses leaves cycles (its error's traceback holds the frames
    that hold it, and the rows they wrote): collected before the batch goes on, not
    kept until it ends, which a batch with many refused would feel."""
    monkeypatch.setattr(ingest, "TURN_FILES", 1)
    monkeypatch.setattr(ingest, "HOLD_SECONDS", 60.0)
    files = three_files_b_refused(monkeypatch)
    with garbage_kept() as garbage:
        collected = _seen_at_each_write(monkeypatch, lambda: _named(garbage))
        outcomes = import_files(files)  # no pass of ours: the batch's own
    assert [outcome.accepted for outcome in outcomes] == [True, False, True]
    # The hold wrote a, then b, which was refused; nothing was collected meanwhile. The
    # hold's turns were then written again one by one: by a's second writing, the first,
    # b's refusal's error, its traceback and the rows its frames held had been collected.
    assert collected[:2] == [set(), set()]
    assert {"IntegrityError", "traceback", "GameRow"} <= collected[2]
    assert gc.isenabled()
