"""A batch's files read ahead by a forked process while the importer writes (issue 25).

Reading a file needs no database; a batch's next turn is read on another core while the
importer writes the turn before. The reading that comes back must be the one made here,
every problem at its line, and the import's outcome that of reading each file here.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from dataclasses import FrozenInstanceError
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from ecfgrading import workers
from ecfgrading.matching.identify import Received
from ecfgrading.matching.names import parse_name
from ecfgrading.registry.models import Game, Player, Submission
from ecfgrading.services.results import ingest, reading
from ecfgrading.services.results.ingest import import_files
from ecfgrading.services.results.reading import ReadAhead, read_file
from ecfgrading.workers import forking_cores
from tests.services.results_text import results_file
from tests.services.test_import_state import BLOGGS, a_file, game, newcomer
from tests.services.test_turns import three_files_b_refused

pytestmark = pytest.mark.skipif(forking_cores() < 2, reason="needs a second core to fork to")

# Line 18 of this file is its game (13 lines of EVENT DETAILS, #PLAYER LIST, two players,
# #SECTION RESULTS): PIN2 names no player of the list, an error.
BAD = results_file([BLOGGS, newcomer(2, "Newman, Ned")], [game(1, 3)], code="BD00001")


NEWCOMERS = ("Adams, Ann", "Baker, Bob", "Clarke, Cy", "Dixon, Di", "Evans, Ed")
NEWCOMERS += ("Fisher, Flo", "Grant, Gus", "Hughes, Hal", "Irving, Ivy")


def _batch(files: int) -> list[tuple[str, bytes]]:
    """``files`` files of Bloggs (on record) against a newcomer of each file's own."""
    return [
        (f"f{n}.txt", a_file(f"AA{n:05}", BLOGGS, newcomer(2, NEWCOMERS[n]))) for n in range(files)
    ]


@pytest.fixture
def reads_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files read in this process (a forked worker's reads are its own)."""
    here: list[str] = []
    original = reading.read_file

    def counted(data: bytes, filename: str, event_code: str = "", today: Any = None) -> Any:
        here.append(filename)
        return original(data, filename, event_code, today)

    monkeypatch.setattr(reading, "read_file", counted)
    return here


@pytest.mark.django_db
def test_a_batch_read_ahead_imports_as_if_each_file_were_read_here(
    monkeypatch: pytest.MonkeyPatch, reads_here: list[str]
) -> None:
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    monkeypatch.setattr(ingest, "TURN_FILES", 3)  # several turns: read while writing
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = [*_batch(7), ("bad.txt", BAD), *_batch(9)[7:]]
    results = import_files(files)
    assert reads_here == []  # every file was read by the forked process
    assert [r.accepted for r in results] == [True] * 7 + [False] + [True] * 2
    (problem,) = results[7].report.errors
    assert (problem.line, problem.field) == (18, "PIN2")
    assert Game.objects.count() == 9  # one a good file
    assert Player.objects.exclude(surname="Bloggs").count() == 9  # each newcomer once
    rejected = Submission.objects.get(filename="bad.txt")
    assert rejected.status == Submission.Status.REJECTED and bytes(rejected.raw) == BAD


@pytest.mark.django_db
def test_a_batch_is_identified_ahead_by_the_reading_process(
    monkeypatch: pytest.MonkeyPatch, identified_here: list[str]
) -> None:
    """Issue 25: the reading process, forked once the importer's index is loaded,
    identifies each file's players on its copy of the index. What the importer wrote
    since concerns none of these players (Bloggs is linked by his code, each newcomer is
    of another surname): none is identified in the importer."""
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    monkeypatch.setattr(ingest, "TURN_FILES", 3)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    results = import_files(_batch(9))
    assert all(r.accepted for r in results)
    assert identified_here == []
    assert Player.objects.exclude(surname="Bloggs").count() == 9


CODER = "#PIN=3#BCF CODE=155624B#NAME=Coder, Cal#CLUB NAME=Anytown"  # not on record


@pytest.mark.django_db
def test_players_written_after_the_reader_forked_are_found_in_later_files(
    monkeypatch: pytest.MonkeyPatch, identified_here: list[str]
) -> None:
    """The reading process's index is the importer's as it was when forked: Ned (no
    code) and Cal (a code not on record yet) are new to it in the batch's last file
    too. The importer, seeing that what it wrote since concerns them, identifies those
    two again, and only them: each is linked to the player the first file created, as
    importing the files one by one would."""
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    monkeypatch.setattr(ingest, "TURN_FILES", 2)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    ned = newcomer(2, "Newman, Ned", "01/02/2003")
    later = [game(1, pin).replace("#ROUND=1", "#ROUND=2") for pin in (2, 3)]  # new games
    files = [
        ("first.txt", a_file("FF00001", BLOGGS, ned, CODER)),
        *_batch(4),
        ("last.txt", results_file([BLOGGS, ned, CODER], later, code="ZZ00009")),
    ]
    results = import_files(files)
    assert all(r.accepted for r in results)
    assert sorted(identified_here) == ["Coder, Cal", "Newman, Ned"]
    assert Player.objects.filter(surname="Newman").count() == 1
    assert list(Player.objects.filter(surname="Coder").values_list("code", flat=True)) == [155624]
    for surname in ("Newman", "Coder"):
        events = Game.objects.filter(player2__surname=surname).values_list("event__code", flat=True)
        assert sorted(events) == ["FF00001", "ZZ00009"]
    warned = [[p.code for p in r.report.problems] for r in (results[0], results[-1])]
    assert warned == [["code-not-on-record"], []]  # the last file's Cal is on record


@pytest.mark.django_db
def test_a_small_batch_is_read_here(reads_here: list[str]) -> None:
    """Forking costs more than it saves for a few files."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    assert all(r.accepted for r in import_files(_batch(3)))
    assert reads_here == ["f0.txt", "f1.txt", "f2.txt"]


@pytest.mark.django_db
def test_a_reading_lost_with_its_process_is_made_here(reads_here: list[str]) -> None:
    """The worker killed (out of memory, say): the files it was to read are read here."""
    name, data = _batch(1)[0]
    submission = ingest.store_raw(data, name, "test", None)
    with ReadAhead(reading.READ_AHEAD_FILES + 1) as ahead:
        ahead.ask([(name, data)])
        ahead.read(submission)  # the worker is up and answered
        assert reads_here == []
        pool = ahead._pool
        assert pool is not None
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        ahead.ask([(name, data)])  # refused at once, or lost with the process
        again = ahead.read(submission)
    assert reads_here == [name]
    assert again == read_file(data, name)


@pytest.mark.django_db
def test_a_file_not_asked_for_is_read_here(reads_here: list[str]) -> None:
    """A file stored with an event code of its own (a TRF's) was not read ahead as it
    will be read: it is read here, with that code."""
    name, data = _batch(1)[0]
    submission = ingest.store_raw(data, name, "test", None, event_code="xx99999")
    with ReadAhead(reading.READ_AHEAD_FILES + 1) as ahead:
        ahead.ask([(name, data)])
        ahead.read(submission)
    assert reads_here == [name]


def test_a_reading_pickled_is_the_reading() -> None:
    """What the forked process sends back, pickled there (issue 25: for the importer to
    unpickle when it takes it, not the pool's thread as it comes, holding the
    interpreter's lock while the importer writes): the same records and problems, the
    field lines still read-only; a file with errors of its own is not identified."""
    today = date(2013, 6, 1)
    made = read_file(BAD, "bad.txt", "", today)
    sent = reading._read_there(BAD, "bad.txt", today)
    assert isinstance(sent, bytes)
    back, identified = pickle.loads(sent)
    assert identified is None
    assert back == made
    assert back.report.errors == made.report.errors
    assert back.results is not None and made.results is not None
    lines = back.results.event.field_lines
    assert isinstance(lines, MappingProxyType)
    assert dict(lines) == dict(made.results.event.field_lines)
    assert lines["EVENT CODE"] == 2  # the line after #EVENT DETAILS


def test_a_reading_holds_its_player_sets_as_identification_reads_them() -> None:
    """Each set folded where the file is read (ahead, for a batch), in the order of the
    list; none for a set whose code is malformed, an error of the file. The importer
    identifies from these, so they are what it would make of each set itself."""
    malformed = "#PIN=3#BCF CODE=12345#NAME=Crook, Cy"  # five characters: no code
    made = read_file(a_file("AA00001", BLOGGS, newcomer(2, "Newman, Ned"), malformed), "sets.txt")
    assert made.results is not None
    bloggs, newman, crook = made.results.players
    assert crook.code_text and crook.code is None
    assert made.received == (Received.from_entry(bloggs), Received.from_entry(newman), None)
    assert made.received[0] is not None and made.received[0].name.surname == "bloggs"
    assert pickle.loads(pickle.dumps(made)).received == made.received


def test_a_name_pickled_is_the_same_name_and_still_frozen() -> None:
    """Names cross from the reading process as their two fields (issue 25)."""
    name = parse_name("O'Brien-Smith, Mary Jane")
    back = pickle.loads(pickle.dumps(name, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == name and hash(back) == hash(name)
    assert (back.surname, back.forenames) == (name.surname, name.forenames)
    assert back.forenames and back.first_forename == name.forenames[0]
    with pytest.raises(FrozenInstanceError):
        back.surname = "other"  # type: ignore[misc]


def _reader_pids() -> set[int]:
    assert reading._KEPT is not None
    return set(reading._KEPT._processes)  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_a_reader_kept_reads_every_batch_of_the_block(
    monkeypatch: pytest.MonkeyPatch, reads_here: list[str]
) -> None:
    """The demo's twenty batches are read by one process, forked when the block begins."""
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    pools: list[object] = []

    class Counted(workers.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pools.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(workers, "ProcessPoolExecutor", Counted)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = _batch(6)
    with reading.reader_kept():
        forked = _reader_pids()
        assert len(forked) == 1
        first = import_files(files[:3])
        second = import_files(files[3:])
        assert _reader_pids() == forked  # the same process read both batches
        assert len(pools) == 1  # and no batch forked one of its own
    assert reading._KEPT is None  # and it ended with the block
    assert reads_here == []
    assert all(r.accepted for r in (*first, *second))
    assert Game.objects.count() == 6


@pytest.mark.django_db
def test_a_reader_kept_that_died_leaves_the_next_batches_read_here(
    monkeypatch: pytest.MonkeyPatch, reads_here: list[str]
) -> None:
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = _batch(4)
    with reading.reader_kept():
        for pid in _reader_pids():
            os.kill(pid, signal.SIGKILL)
        results = import_files(files)
    assert reads_here == [name for name, _ in files]
    assert all(r.accepted for r in results)


@pytest.mark.django_db
def test_a_kept_reader_checks_dates_against_the_importers_day(
    monkeypatch: pytest.MonkeyPatch, reads_here: list[str]
) -> None:
    """The reader forked before the day changed (a demo building past midnight, a test
    setting the day): the files are checked against the importer's day, not the one
    the reader was forked with. On 1 January 2012 an event of May 2013 is not played
    yet, an error at its EVENT DATE (line 5)."""
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    with reading.reader_kept():
        monkeypatch.setattr(reading.timezone, "localdate", lambda: date(2012, 1, 1))
        results = import_files(_batch(3))
    assert reads_here == []
    for result in results:
        assert not result.accepted
        assert [(p.code, p.line) for p in result.report.errors] == [("future-event", 5)]


# A process that forks a reading process, says its pid, and waits to be killed.
_FORKS_A_READER = """
import time
from ecfgrading.workers import forked_worker
pool = forked_worker()
pool.submit(int).result()
print(*pool._processes, flush=True)
time.sleep(60)
"""


def test_a_reading_process_ends_with_the_importer_killed_outright() -> None:
    """An importer killed (SIGKILL: no clean-up runs) leaves no reading process behind:
    one would hold what it inherited, the importer's database connection among them, and
    on PostgreSQL the killed importer's session and its locks would stay open."""
    importer = subprocess.Popen(
        [sys.executable, "-c", _FORKS_A_READER], stdout=subprocess.PIPE, text=True
    )
    assert importer.stdout is not None
    reader = int(importer.stdout.readline())
    assert _alive(reader)
    importer.kill()
    importer.wait()
    deadline = time.monotonic() + 10
    while _alive(reader) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _alive(reader)
    if left:
        os.kill(reader, signal.SIGKILL)  # not left behind by this test either
    assert not left


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.django_db
def test_files_identified_ahead_are_identified_here_once_the_view_is_loaded_again(
    monkeypatch: pytest.MonkeyPatch, identified_here: list[str]
) -> None:
    """The database refuses b (a writer's bug slipped under the checks): the turn is
    rolled back, the importer's view dropped and loaded again, and the turn written
    again file by file. The reading process's index is no longer the importer's: its
    decisions are not taken, the importer identifies every file still to write itself,
    and what stands is what importing the files one by one leaves."""
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    files = three_files_b_refused(monkeypatch)
    outcomes = import_files(files)
    assert [outcome.accepted for outcome in outcomes] == [True, False, True]
    assert sorted(Player.objects.values_list("surname", flat=True)) == [
        "Archer",
        "Bloggs",
        "Newman",
    ]
    games = Game.objects.values_list("event__code", "player2__surname")
    assert sorted(games) == [("AA00001", "Archer"), ("CC00003", "Newman")]
    assert "Newman, Ned" in identified_here  # c's Ned, identified here after the drop


@pytest.mark.django_db
def test_a_batch_accepted_before_forks_no_index(
    monkeypatch: pytest.MonkeyPatch, identified_here: list[str]
) -> None:
    """Run again once done, a batch has nothing to identify: the importer loads no index
    and forks no process holding one."""
    monkeypatch.setattr(reading, "READ_AHEAD_FILES", 1)
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    files = _batch(3)
    assert all(r.accepted for r in import_files(files))
    asked: list[object] = []
    monkeypatch.setattr(ingest.ResultsImporter, "identify_on", lambda self: asked.append(self))
    again = import_files(files)
    assert all(r.already for r in again) and asked == []
