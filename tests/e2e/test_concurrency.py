"""Imports at once, in two runs and after a kill end as one import of the batch ends
(issue 8, items 1, 2 and 7): the same players, games, open cases, clubs and files.

Real processes of the installed ``ecfgrading`` command on a real database made for each
run: a SQLite file under an ECFGRADING_HOME of its own, or on the PostgreSQL pass a
database created on DATABASE_URL's server and dropped after. Outcomes are read from the
tables and compared without codes ("up to the order in which new codes are issued").

The 40 files are written here so that every identification across files is known:

- ten newcomers without a code but with a date of birth play in files of both halves:
  whichever file comes first creates each, every later one links him (name and date of
  birth agree); four of them play for a new club, Newtown, in both halves;
- two Smiths are on the list, and a 'Smith, J' of another club plays in each half: he
  could be either, so each time he is queued;
- the batching case of item 2, kept in the first half (a half is imported in order): four
  junior files give the listed juniors Young and Little their dates of birth; then a
  congress file gives 'Young, Tom' without a code, with his date of birth, at another
  club (the listed Young: linked), and 'Little, Amy' with another date of birth (someone
  else: a new player). An index that missed the dates the junior files recorded queues
  both; later files give the juniors by code without a date of birth.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import pytest
from bench.soak import Case, Database, Outcome, Person, must, read_outcome, scratch_database

from ecfgrading.engine.codes import GradingCode
from ecfgrading.services.locks import WAITING_KEY
from ecfgrading.services.results.ingest import TURN_FILES
from tests.services.results_text import results_file

LIST_OPTIONS = ("--list", "2012-07", "--rate", "standard")  # the starting list
FIRST_CODE = 100_001
FIRST_EVENT = date(2012, 9, 1)  # a week apart, to May 2013: one season
FILES = 40
HALF = FILES // 2

# --- the batch ------------------------------------------------------------------------------


class Someone(NamedTuple):
    surname: str
    forenames: str
    club: str
    born: date | None = None


ADULTS = (
    Someone("Adams", "Alan", "Anytown"),
    Someone("Baker", "Brian", "Anytown"),
    Someone("Clark", "Colin", "Bigcity"),
    Someone("Davies", "David", "Bigcity"),
    Someone("Evans", "Edward", "Castleton"),
    Someone("Fisher", "Frank", "Castleton"),
    Someone("Green", "George", "Dunford"),
    Someone("Hill", "Henry", "Dunford"),
    Someone("Irwin", "Ian", "Anytown"),
    Someone("Jones", "Jack", "Bigcity"),
    Someone("Smith", "John", "Anytown"),
    Someone("Smith", "James", "Bigcity"),
)
TOM = Someone("Young", "Tom", "Anytown", date(2001, 4, 2))
AMY = Someone("Little", "Amy", "Anytown", date(2002, 6, 9))
SAM = Someone("Small", "Sam", "Bigcity", date(2000, 1, 15))
JUNIORS = (TOM, AMY, SAM)
ON_LIST = ADULTS + JUNIORS  # codes FIRST_CODE on, in this order; no dates of birth
NEWCOMERS = (
    Someone("Newman", "Nina", "Anytown", date(1980, 1, 1)),
    Someone("Oliver", "Otto", "Bigcity", date(1975, 2, 3)),
    Someone("Parker", "Paula", "Castleton", date(1990, 5, 6)),
    Someone("Quinn", "Quentin", "Dunford", date(1968, 7, 8)),
    Someone("Reed", "Rosa", "Anytown", date(1985, 9, 10)),
    Someone("Stone", "Stella", "Bigcity", date(1971, 11, 12)),
    Someone("Turner", "Tina", "Castleton", date(1995, 12, 13)),
    Someone("Upton", "Ursula", "Dunford", date(1962, 3, 14)),
)
YOUNG_NEWCOMERS = (
    Someone("Kidd", "Kim", "Anytown", date(2003, 5, 5)),
    Someone("Child", "Chris", "Anytown", date(2002, 2, 2)),
)
NEWCOMER_NAMES = {who.surname for who in NEWCOMERS + YOUNG_NEWCOMERS}
NEW_CLUB = "Newtown"  # where the newcomers of every other file play
# The congress (file 5): Young at another club, and another Amy Little.
TOM_AT_CONGRESS = TOM._replace(club="Congress Hall")
OTHER_AMY = Someone("Little", "Amy", "Congress Hall", date(1975, 3, 3))
SMITH_J = Someone("Smith", "J", "Faraway")
JUNIOR_FILES_WITH_BIRTHS = range(4)  # files 1-4
CONGRESS = 4  # file 5
JUNIOR_FILES_WITHOUT_BIRTHS = (11, HALF + 7)  # one in each half
SMITH_J_FILES = (9, HALF + 4)  # one in each half


class Entry(NamedTuple):
    """A player set of a file: who, with his code or not, with his date of birth or not."""

    who: Someone
    coded: bool
    born: bool
    club: str

    def line(self, pin: int) -> str:
        fields = [f"#PIN={pin}"]
        if self.coded:
            fields.append(f"#REF={GradingCode(FIRST_CODE + ON_LIST.index(self.who))}")
        fields.append(f"#NAME={self.who.surname}, {self.who.forenames}")
        if self.born and self.who.born:
            fields.append(f"#DATE OF BIRTH={self.who.born:%d/%m/%Y}")
        return "".join([*fields, f"#CLUB NAME={self.club}"])


def coded(who: Someone, *, born: bool = False) -> Entry:
    return Entry(who, coded=True, born=born, club=who.club)


def newcomer(who: Someone, club: str | None = None) -> Entry:
    return Entry(who, coded=False, born=True, club=club or who.club)


def roster(n: int) -> list[Entry]:
    """Who plays in file ``n`` (0-based)."""
    young = [newcomer(who) for who in YOUNG_NEWCOMERS]
    if n in JUNIOR_FILES_WITH_BIRTHS:
        return [*(coded(who, born=True) for who in JUNIORS), *young]
    if n in JUNIOR_FILES_WITHOUT_BIRTHS:
        return [*(coded(who) for who in JUNIORS), *young]
    club = NEW_CLUB if n % 2 else None
    adults = [coded(ADULTS[(3 * n + k) % len(ADULTS)]) for k in range(3)]
    newcomers = [newcomer(NEWCOMERS[(3 * n + k) % len(NEWCOMERS)], club) for k in range(3)]
    if n == CONGRESS:
        return [newcomer(TOM_AT_CONGRESS), newcomer(OTHER_AMY), *adults[:2], *newcomers[:2]]
    return [*adults, *newcomers, *([newcomer(SMITH_J)] if n in SMITH_J_FILES else [])]


SCORES = ("10", "55", "01")


def results(n: int) -> tuple[str, bytes]:
    """File ``n``: everyone plays everyone once, on the event's one day."""
    entries = roster(n)
    day = f"{FIRST_EVENT + timedelta(weeks=n):%d/%m/%Y}"
    pairs = [(a, b) for a in range(1, len(entries) + 1) for b in range(a + 1, len(entries) + 1)]
    games = [
        f"#PIN1={a}#SCORE={SCORES[k % 3]}#PIN2={b}#GAME DATE={day}"
        for k, (a, b) in enumerate(pairs)
    ]
    code = f"CC{n + 1:04d}"
    data = results_file(
        [entry.line(pin) for pin, entry in enumerate(entries, start=1)],
        games,
        code=code,
        name=f"Concurrency {n + 1}",
        start=day,
        end=day,
        part="#OTHER RESULTS=Games",
    )
    return f"{n + 1:02d}-{code}.txt", data


CSV_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)


def start_list() -> bytes:
    rows = [
        f'{GradingCode(FIRST_CODE + k)},"{who.surname}, {who.forenames}",M,,C,120,118,20,'
        f",,,,{who.club},,,,,,,ENG\n"
        for k, who in enumerate(ON_LIST)
    ]
    return (CSV_HEADER + "".join(rows)).encode()


@dataclass(frozen=True)
class Batch:
    """The starting list and the results files on disk, in the order of one import."""

    start_list: Path
    files: tuple[str, ...]

    @property
    def halves(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self.files[:HALF], self.files[HALF:]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    folder = tmp_path_factory.mktemp("batch")
    (folder / "grades201207.csv").write_bytes(start_list())
    paths = []
    for n in range(FILES):
        name, data = results(n)
        (folder / name).write_bytes(data)
        paths.append(str(folder / name))
    return Batch(folder / "grades201207.csv", tuple(paths))


# --- databases ------------------------------------------------------------------------------


@pytest.fixture(
    scope="module",
    params=[
        # SQLite files whatever DATABASE_URL says: run in the SQLite pass only.
        pytest.param("sqlite", marks=pytest.mark.sqlite),
        pytest.param("postgresql", marks=pytest.mark.postgresql),
    ],
)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


Fresh = Callable[[str], Database]


@pytest.fixture(scope="module")
def fresh(backend: str, batch: Batch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fresh]:
    """Makes databases initialised with the starting list; PostgreSQL ones dropped after."""
    with ExitStack() as stack:

        def make(label: str) -> Database:
            home = tmp_path_factory.mktemp(label)
            url = None
            if backend == "postgresql":
                server = os.environ["DATABASE_URL"]
                name = f"{urlsplit(server).path.strip('/')}_{label}_{os.getpid()}".lower()
                url = stack.enter_context(scratch_database(server, name))
            database = Database(home, url)
            must(database.run("init"))
            must(database.run("lists", "import", str(batch.start_list), *LIST_OPTIONS))
            return database

        yield make


def imported(database: Database, files: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """``results import`` of the files, which must all be accepted (exit status 0)."""
    done = database.run("results", "import", *files)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def one_run(fresh: Fresh, batch: Batch) -> Outcome:
    """The reference: the whole batch imported by one process, in order."""
    database = fresh("one_run")
    imported(database, batch.files)
    return read_outcome(database)


# --- what one run gives, worked out from the identification rules ---------------------------


def test_the_congress_links_the_junior_whose_birth_date_the_junior_files_gave(
    one_run: Outcome,
) -> None:
    # Young: 4 games in each of six junior files of five, 5 in the congress of six. The
    # congress entry scores 50 (surname) + 30 (forenames) - 10 (another club) + 25 (the
    # date of birth the junior files recorded) = 95: linked.
    tom = Person("Young", "Tom", "2001-04-02", ("Anytown", "Congress Hall"), 6 * 4 + 5)
    # The other Amy Little's date of birth differs from the listed one's: nobody on
    # record can be her, so she is new, with her congress games only.
    other_amy = Person("Little", "Amy", "1975-03-03", ("Congress Hall",), 5)
    amy = Person("Little", "Amy", "2002-06-09", ("Anytown",), 6 * 4)
    assert (one_run.players[tom], one_run.players[other_amy], one_run.players[amy]) == (1, 1, 1)


def test_smith_j_is_queued_in_each_half_and_each_newcomer_created_once(
    one_run: Outcome, batch: Batch
) -> None:
    # 'Smith, J' at Faraway: initials only (10) and another club (-10) with the surname's
    # 50 give John and James 50 each, a tie: queued, his 6 games (files of 7) waiting.
    smith_j = Case("Smith, J", "", "Faraway", 6, ("Smith, James", "Smith, John"))
    assert one_run.cases == Counter({smith_j: 2})
    # 15 listed, 8 + 2 newcomers and the other Amy Little: each once.
    assert sum(one_run.players.values()) == len(ON_LIST) + 10 + 1
    assert one_run.twice() == []
    newcomers = {p.surname: p.clubs for p in one_run.players if p.surname in NEWCOMER_NAMES}
    assert newcomers["Newman"] == ("Anytown", NEW_CLUB)  # Newtown in file 6, home in 9
    assert one_run.clubs[NEW_CLUB] == 1
    assert one_run.accepted == Counter(Path(name).name for name in batch.files)


# --- at once, in two runs, after a kill ------------------------------------------------------


def test_two_imports_at_once_give_what_one_import_gives(
    fresh: Fresh, batch: Batch, one_run: Outcome
) -> None:
    database = fresh("at_once")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda half: database.run("results", "import", *half), batch.halves))
    for done in runs:
        assert done.returncode == 0, done.stdout + done.stderr
    together = read_outcome(database)
    assert together.twice() == []
    differences = together.differences(one_run)
    assert not differences, "\n".join(differences)


def test_a_batch_in_two_runs_gives_what_one_run_gives(
    fresh: Fresh, batch: Batch, one_run: Outcome
) -> None:
    database = fresh("two_runs")
    imported(database, batch.files[:4])  # the four junior files
    imported(database, batch.files[4:])  # the congress file first
    differences = read_outcome(database).differences(one_run)
    assert not differences, "\n".join(differences)


ACCEPTED = re.compile(r"^\s+accepted\b")
SKIPPED = re.compile(r"^(?P<file>.+): already accepted as submission (?P<id>\d+); skipped$")
KILL_WAIT = 120  # seconds: a run that never reports a file is killed anyway


def test_a_batch_killed_mid_way_resumes_to_what_one_run_gives(
    fresh: Fresh, batch: Batch, one_run: Outcome
) -> None:
    database = fresh("killed")
    killed = kill_while_a_file_is_received(database, batch.files)
    assert killed.returncode == -signal.SIGKILL, killed.stdout
    assert 0 < len(submissions(database, "accepted")) < FILES  # killed mid-way

    # What the kill left received is listed, and a retry imports it: the files the batch
    # had stored and not yet written, at most those of one turn and of the next.
    left = submissions(database, "received")
    assert len(left) <= 2 * TURN_FILES
    listed = must(database.run("results", "interrupted"))
    for number, name in left.items():
        assert any(str(number) in line and name in line for line in listed.splitlines())
    if left:
        must(database.run("results", "retry", *map(str, left)))
    assert submissions(database, "received") == {}

    # The whole batch again: what is on record is skipped, saying so; the rest imported.
    done = submissions(database, "accepted")
    again = imported(database, batch.files)
    skipped = {
        int(m["id"]): Path(m["file"]).name
        for m in map(SKIPPED.match, again.stdout.splitlines())
        if m
    }
    assert skipped == done
    resumed = read_outcome(database)
    differences = resumed.differences(one_run, kinds=("players", "cases", "clubs"))
    assert not differences, "\n".join(differences)
    assert resumed.accepted == one_run.accepted


def test_a_killed_batch_run_again_resumes_without_a_retry(
    fresh: Fresh, batch: Batch, one_run: Outcome
) -> None:
    """The officer simply runs the batch again: the files the kill left waiting are
    imported from their stored submissions, none is left waiting or stored twice."""
    database = fresh("killed_rerun")
    killed = kill_while_a_file_is_received(database, batch.files)
    assert killed.returncode == -signal.SIGKILL, killed.stdout
    left = submissions(database, "received")
    assert left, "the kill was meant to leave a file waiting"
    imported(database, batch.files)
    assert submissions(database, "received") == {}
    with closing(database.connect()) as db:
        (stored,) = db.execute("SELECT count(*) FROM registry_submission").fetchone()
    assert stored == FILES  # each file once: the waiting ones were not stored again
    resumed = read_outcome(database)
    differences = resumed.differences(one_run, kinds=("players", "cases", "clubs"))
    assert not differences, "\n".join(differences)
    assert resumed.accepted == one_run.accepted


def kill_while_a_file_is_received(
    database: Database, files: Sequence[str]
) -> subprocess.CompletedProcess[str]:
    """Start the import; once it reports a file accepted, SIGKILL it as soon as it has
    stored another file and not yet decided it. What it printed. Another importer seems
    to wait all along, so that the batch commits each turn rather than holding the
    database for several (services.results.ingest.HOLD_SECONDS): killed mid-way, it
    has turns committed and files stored, not yet written."""
    with another_importer_waiting(database):
        return _killed_while_a_file_is_received(database, files)


@contextmanager
def another_importer_waiting(database: Database) -> Iterator[None]:
    """What an importer waiting for its turn holds (services.locks.Turn.wanted): a shared
    lock on the file beside the database's turn file, or a shared advisory lock."""
    if database.url is None:
        with (database.home / "ecfgrading.sqlite3-waiting").open("a+b") as waiting:
            fcntl.flock(waiting.fileno(), fcntl.LOCK_SH)
            yield
        return
    with closing(database.connect()) as db:
        db.execute("SELECT pg_advisory_lock_shared(%s)", [WAITING_KEY])
        db.commit()  # the session's lock stays until the connection closes
        yield


def _killed_while_a_file_is_received(
    database: Database, files: Sequence[str]
) -> subprocess.CompletedProcess[str]:
    process = database.start("results", "import", *files)
    watchdog = threading.Timer(KILL_WAIT, process.kill)
    watchdog.start()
    assert process.stdout is not None
    printed = []
    try:
        for line in process.stdout:
            printed.append(line)
            if ACCEPTED.match(line):
                break
        with closing(database.connect()) as db:
            while process.poll() is None and not undecided(db):
                time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
        printed += process.stdout.read()
        process.wait()
    finally:
        watchdog.cancel()
    return subprocess.CompletedProcess(process.args, process.returncode, "".join(printed))


def undecided(db: Any) -> int:
    """Files stored and not yet accepted or rejected (committed rows only)."""
    query = "SELECT count(*) FROM registry_submission WHERE status = 'received'"
    return int(db.execute(query).fetchone()[0])


def submissions(database: Database, status: str) -> dict[int, str]:
    """Submission id -> file name, of the submissions in ``status``."""
    with closing(database.connect()) as db:
        rows = db.execute(
            f"SELECT id, filename FROM registry_submission WHERE status = '{status}'"
        ).fetchall()
    return {number: Path(filename).name for number, filename in rows}
