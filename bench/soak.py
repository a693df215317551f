"""Imports at once: several importers and graders on one database for a bounded time.

    .venv/bin/python bench/soak.py [--size tiny|default] [--seed 2009] [--seasons 1]
                                   [--importers 2] [--graders 1] [--seconds 300]
                                   [--postgres URL]

The demo federation's files (``ecfgrading.demo.generate``; the first ``--seasons`` of
its three, in the order received) are split among ``--importers`` processes, each
running ``ecfgrading results import`` on its share in order, while ``--graders``
processes run ``ecfgrading grade --list 2010-07`` (standard and rapid in turn) until the
importers are done. The files of one event go to the same importer, so that a second
submission never overtakes its first. Then the same files are imported by one process,
in order, into a second fresh database, and the two outcomes are compared: players
(name, date of birth, clubs, games), open identification cases, clubs and files
accepted, up to the order in which new codes are issued.

Everything runs on loopback databases made for the run: two SQLite files in a
temporary ECFGRADING_HOME each, or with ``--postgres URL`` two scratch databases on
that URL's server, created and dropped. Every process is bounded: at ``--seconds`` the
ones still running are stopped and the comparison is skipped.

The module also serves tests/e2e/test_concurrency.py: ``Database`` runs the real
``ecfgrading`` command against one database, ``read_outcome`` reads what an import left
there, ``scratch_database`` makes a PostgreSQL database for a run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

# The console script installed beside the interpreter (pip install -e . puts it there).
ECFGRADING = Path(sys.executable).with_name("ecfgrading")
GRADED_LIST = "2010-07"  # the list the demo's first season counts for
SHOWN = 10  # differences printed per kind
KINDS = ("players", "cases", "clubs", "files")  # what two outcomes are compared on


# --- one database and the command run against it ------------------------------------------


@dataclass(frozen=True)
class Database:
    """Where one run keeps its data: a SQLite file under ``home``, or PostgreSQL at ``url``."""

    home: Path
    url: str | None = None

    @property
    def label(self) -> str:
        return "postgresql" if self.url else "sqlite"

    def env(self) -> dict[str, str]:
        """The caller's environment pointed at this database; output unbuffered, so that a
        reader sees each file's report when it is printed."""
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        env.update(ECFGRADING_HOME=str(self.home), PYTHONUNBUFFERED="1")
        if self.url:
            env["DATABASE_URL"] = self.url
        return env

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``ecfgrading ARGS`` to the end, its output captured."""
        return subprocess.run(
            [str(ECFGRADING), *args],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def start(self, *args: str) -> subprocess.Popen[str]:
        """``ecfgrading ARGS`` started; its output (stderr included) read line by line."""
        return subprocess.Popen(
            [str(ECFGRADING), *args],
            env=self.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )

    def connect(self) -> Any:
        """A DB-API connection of its own: what the processes left, read directly."""
        if self.url is None:
            return sqlite3.connect(self.home / "ecfgrading.sqlite3")
        import psycopg

        return psycopg.connect(self.url)


def must(done: subprocess.CompletedProcess[str]) -> str:
    """The output of a command that has to succeed; its whole output when it did not."""
    if done.returncode != 0:
        command = " ".join(Path(arg).name for arg in done.args)
        raise RuntimeError(f"{command} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


@contextmanager
def scratch_database(server_url: str, name: str) -> Iterator[str]:
    """A new empty database ``name`` on the server of ``server_url``, dropped after."""
    import psycopg

    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        raise ValueError(f"expected a plain lower-case database name, got {name!r}")
    parts = urlsplit(server_url)
    # The maintenance database: the URL's own may not exist, and is never dropped.
    admin_url = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# --- what an import left ------------------------------------------------------------------


class Person(NamedTuple):
    """A player on record as a comparison sees him: everything but his code."""

    surname: str
    forenames: str
    born: str  # '' when not on record
    clubs: tuple[str, ...]
    games: int  # games recorded for him, superseded ones left out


class Case(NamedTuple):
    """An open identification case."""

    name: str
    born: str
    club: str
    games: int  # games waiting for the decision
    candidates: tuple[str, ...]  # the candidates' names, sorted


@dataclass(frozen=True)
class Outcome:
    """Players, open cases, clubs and files of one database, without codes or ids."""

    players: Counter[Person]
    cases: Counter[Case]
    clubs: Counter[str]
    files: Counter[tuple[str, str]]  # (file name, submission status)

    def statuses(self, status: str) -> Counter[str]:
        return Counter({name: n for (name, state), n in self.files.items() if state == status})

    @property
    def accepted(self) -> Counter[str]:
        return self.statuses("accepted")

    def twice(self) -> list[tuple[str, str, str]]:
        """People on record twice: one name and one date of birth under two codes."""
        held = Counter((p.surname, p.forenames, p.born) for p in self.players.elements())
        return sorted(person for person, n in held.items() if n > 1 and person[2])

    def differences(self, other: Outcome, kinds: Sequence[str] = KINDS) -> list[str]:
        """What is here and not there, and the other way, kind by kind (none: the same)."""
        lines: list[str] = []
        for kind in kinds:
            ours, theirs = getattr(self, kind), getattr(other, kind)
            lines += _only(f"{kind} only in the first", ours - theirs)
            lines += _only(f"{kind} only in the second", theirs - ours)
        return lines


def _only(title: str, extra: Counter[Any]) -> list[str]:
    if not extra:
        return []
    shown = [f"  {item} x{n}" for item, n in sorted(extra.items(), key=str)[:SHOWN]]
    if len(extra) > SHOWN:
        shown.append(f"  ... {len(extra) - SHOWN} more")
    return [f"{title} ({sum(extra.values())}):", *shown]


def read_outcome(database: Database) -> Outcome:
    """Read the registry's tables directly (the same SQL on SQLite and PostgreSQL)."""
    with closing(database.connect()) as db:

        def rows(sql: str) -> list[tuple[Any, ...]]:
            return list(db.execute(sql).fetchall())

        names = {
            pid: (surname, forenames, _day(born))
            for pid, surname, forenames, born in rows(
                "SELECT id, surname, forenames, date_of_birth FROM registry_player"
                " WHERE merged_into_id IS NULL"
            )
        }
        clubs = rows(
            "SELECT m.player_id, c.name FROM registry_clubmembership m"
            " JOIN registry_club c ON c.id = m.club_id"
        )
        games = rows(
            "SELECT player1_id, player2_id, pending1_id, pending2_id FROM registry_game"
            " WHERE not_graded_reason <> 'superseded'"
        )
        cases = rows(
            "SELECT id, name, date_of_birth, club_name, candidates"
            " FROM registry_pendingidentification WHERE status = 'open'"
        )
        return Outcome(
            players=_people(names, clubs, games),
            cases=_cases(cases, games, names),
            clubs=Counter(name for (name,) in rows("SELECT name FROM registry_club")),
            files=Counter(
                (Path(filename).name, status)
                for filename, status in rows("SELECT filename, status FROM registry_submission")
            ),
        )


def _day(value: Any) -> str:
    return "" if value is None else str(value)  # a date on PostgreSQL, text on SQLite


def _people(
    names: dict[int, tuple[str, str, str]],
    clubs: list[tuple[Any, ...]],
    games: list[tuple[Any, ...]],
) -> Counter[Person]:
    club_sets: dict[int, set[str]] = {}
    for pid, club in clubs:
        club_sets.setdefault(pid, set()).add(club)
    played = Counter(pid for row in games for pid in row[:2] if pid is not None)
    return Counter(
        Person(*name, tuple(sorted(club_sets.get(pid, ()))), played[pid])
        for pid, name in names.items()
    )


def _cases(
    cases: list[tuple[Any, ...]],
    games: list[tuple[Any, ...]],
    names: dict[int, tuple[str, str, str]],
) -> Counter[Case]:
    waiting = Counter(cid for row in games for cid in row[2:] if cid is not None)
    found = Counter[Case]()
    for cid, name, born, club, candidates in cases:
        chosen = json.loads(candidates) if isinstance(candidates, str) else candidates
        known = (names.get(c["player_id"], ("?", "?", "")) for c in chosen)
        listed = tuple(sorted(f"{surname}, {forenames}" for surname, forenames, _ in known))
        found[Case(name, _day(born), club, waiting[cid], listed)] += 1
    return found


# --- the soak --------------------------------------------------------------------------------


class Child:
    """One child process of the soak (a grader's runs one after another) and its output,
    read as it comes so that a full pipe never stops it."""

    def __init__(self, role: str, process: subprocess.Popen[str]) -> None:
        self.role = role
        self.lines: list[str] = []
        self.exits: list[int] = []
        self._follow(process)

    def _follow(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self._reader = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._reader.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        self.lines += (line.rstrip("\n") for line in process.stdout)

    def running(self) -> bool:
        return self.process.poll() is None

    def again(self, process: subprocess.Popen[str]) -> None:
        """The next run of a finished grader."""
        self._finish()
        self._follow(process)

    def stop(self, deadline: float) -> None:
        """Wait until the deadline; past it, SIGTERM, then SIGKILL."""
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._finish()

    def _finish(self) -> None:
        self._reader.join()
        self.exits.append(self.process.returncode)


@dataclass(frozen=True)
class Season:
    """The files to import, in the order received, and the list they start from."""

    start_list: bytes
    files: tuple[tuple[str, str, bytes], ...]  # (file name, event code, bytes)


def demo_files(size_name: str, seed: int, seasons: int) -> Season:
    from ecfgrading.demo import SIZES, generate
    from ecfgrading.demo.seasons import DEMO_SEASONS

    federation = generate(SIZES[size_name], seed)
    chosen = set(DEMO_SEASONS[:seasons])
    files = tuple(
        (f"{f.folder}-{f.filename}.txt", f.event_code, f.data)
        for f in federation.files
        if f.season in chosen
    )
    return Season(federation.start_list, files)


def shares(season: Season, importers: int) -> list[list[str]]:
    """Contiguous shares of the files in the order received, one per importer; the files
    of one event follow the first of them into its share."""
    size = -(-len(season.files) // importers)
    owner: dict[str, int] = {}
    out: list[list[str]] = [[] for _ in range(importers)]
    for n, (name, event, _) in enumerate(season.files):
        share = owner.setdefault(event, min(n // size, importers - 1))
        out[share].append(name)
    return out


def prepare(database: Database, folder: Path) -> None:
    from ecfgrading.demo.startlist import FILENAME, LIST_ID

    must(database.run("init"))
    must(database.run("lists", "import", str(folder / FILENAME), "--list", LIST_ID))


def soak(args: argparse.Namespace, season: Season, folder: Path, stack: ExitStack) -> None:
    labels = ("together", "received", "committed")
    together, received, committed = (make_database(args, stack, label) for label in labels)
    for database in (together, received, committed):
        prepare(database, folder)
    deadline = time.monotonic() + args.seconds
    started = time.monotonic()
    split = [[str(folder / name) for name in share] for share in shares(season, args.importers)]
    children = run_together(together, args.graders, split, deadline)
    report_children(children, time.monotonic() - started)
    if time.monotonic() >= deadline:
        print(f"stopped at the time limit ({args.seconds:g} s): no comparison")
        return
    at_once = read_outcome(together)
    print(summary("at once", at_once))
    names = [name for name, _, _ in season.files]
    # Against the order received: what the issue asks; the order of identification
    # differs, so cases that hang on it (a first entry naming a player) can differ.
    alone = one_importer(received, [folder / n for n in names], deadline, "in the order received")
    compare(at_once, alone)
    # Against the order the importers committed: serialisable imports leave no difference.
    done = commit_order(together)
    replay = [folder / n for n in done + [n for n in names if n not in done]]
    compare(at_once, one_importer(committed, replay, deadline, "in the order committed"))


def one_importer(database: Database, paths: list[Path], deadline: float, order: str) -> Outcome:
    started = time.monotonic()
    left = max(1.0, deadline - time.monotonic())
    done = database.run("results", "import", *map(str, paths), timeout=left)
    seconds = time.monotonic() - started
    outcome = read_outcome(database)
    print(summary(f"one importer, {order} ({seconds:.1f} s, exit {done.returncode})", outcome))
    return outcome


def commit_order(database: Database) -> list[str]:
    """File names in the order their imports committed: the audit entry each accepted file
    writes inside its transaction, under the registry lock, numbers them in that order."""
    with closing(database.connect()) as db:
        entries = db.execute(
            "SELECT object_id FROM registry_auditlog WHERE action = 'import results'"
            " AND object_type = 'registry.submission' ORDER BY id"
        ).fetchall()
        names = dict(db.execute("SELECT id, filename FROM registry_submission").fetchall())
    return [Path(names[int(number)]).name for (number,) in entries]


def make_database(args: argparse.Namespace, stack: ExitStack, label: str) -> Database:
    home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"soak-{label}-")))
    if not args.postgres:
        return Database(home)
    name = f"ecfgrading_soak_{label}"
    return Database(home, stack.enter_context(scratch_database(args.postgres, name)))


def run_together(
    database: Database, graders: int, split: list[list[str]], deadline: float
) -> list[Child]:
    """The importers on their shares, and graders over and over until those are done."""
    importers = [
        Child(f"importer {n + 1}", database.start("results", "import", *share))
        for n, share in enumerate(split)
        if share
    ]
    grading = [Child(f"grader {n + 1}", grade(database, n)) for n in range(graders)]
    turn = graders
    while time.monotonic() < deadline and any(child.running() for child in importers):
        for grader in grading:
            if not grader.running():
                grader.again(grade(database, turn))
                turn += 1
        time.sleep(0.2)
    for child in importers + grading:
        child.stop(deadline)
    return importers + grading


def grade(database: Database, turn: int) -> subprocess.Popen[str]:
    rate = ("standard", "rapid")[turn % 2]
    return database.start("grade", "--list", GRADED_LIST, "--rate", rate)


_ACCEPTED = re.compile(r"^\s+accepted\b")
_REJECTED = re.compile(r"^\s+REJECTED\b")
_SKIPPED = re.compile(r": already accepted as submission \d+; skipped$")
_BUSY = re.compile(r"busy|locked|retr(y|ied|ying)|try again", re.IGNORECASE)
_NOTABLE = re.compile(rf"{_BUSY.pattern}|^Error:|^Traceback|Error\b", re.IGNORECASE)


def report_children(children: Sequence[Child], elapsed: float) -> None:
    print(f"{len(children)} processes at once, {elapsed:.1f} s")
    for child in children:
        lines = child.lines
        counts = {
            "accepted": sum(bool(_ACCEPTED.match(line)) for line in lines),
            "rejected": sum(bool(_REJECTED.match(line)) for line in lines),
            "skipped": sum(bool(_SKIPPED.search(line)) for line in lines),
            "busy or retry lines": sum(bool(_BUSY.search(line)) for line in lines),
            "errors": sum(line.startswith("Error:") for line in lines),
            "tracebacks": sum(line.startswith("Traceback") for line in lines),
        }
        said = ", ".join(f"{what} {n}" for what, n in counts.items() if n)
        exits = ", ".join(f"{code} x{n}" for code, n in sorted(Counter(child.exits).items()))
        print(f"  {child.role}: {len(child.exits)} run(s), exit {exits}; {said or 'silent'}")
        notable = {line.strip()[:160]: None for line in lines if _NOTABLE.search(line)}
        print("".join(f"    | {line}\n" for line in list(notable)[:SHOWN]), end="")


def summary(title: str, outcome: Outcome) -> str:
    files = Counter(state for (_, state), n in outcome.files.items() for _ in range(n))
    return (
        f"{title}: players {sum(outcome.players.values()):,}, open cases "
        f"{sum(outcome.cases.values()):,}, clubs {sum(outcome.clubs.values()):,}, files "
        + ", ".join(f"{state} {n:,}" for state, n in sorted(files.items()))
        + f"; on record twice: {len(outcome.twice())}"
    )


def compare(at_once: Outcome, alone: Outcome) -> None:
    found = at_once.differences(alone)
    print("\n".join(["  differences (first: at once):", *found]) if found else "  no difference")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", choices=("tiny", "default"), default="tiny")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--seasons", type=int, choices=(1, 2, 3), default=1)
    parser.add_argument("--importers", type=int, default=2, help="importer processes (1-8)")
    parser.add_argument("--graders", type=int, default=1, help="grader processes (0-4)")
    parser.add_argument("--seconds", type=float, default=300, help="time limit (10-1800)")
    parser.add_argument("--postgres", metavar="URL", help="PostgreSQL server instead of SQLite")
    args = parser.parse_args(argv)
    bounds = {"importers": (1, 8), "graders": (0, 4), "seconds": (10, 1800)}
    for name, (low, high) in bounds.items():
        if not low <= getattr(args, name) <= high:
            parser.error(f"expected --{name} between {low} and {high}, got {getattr(args, name)}")
    if args.postgres and urlsplit(args.postgres).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error(f"expected a loopback server (127.0.0.1), got {args.postgres}")
    return args


def main(argv: list[str] | None = None) -> None:
    from ecfgrading.demo.startlist import FILENAME

    args = parse(argv)
    season = demo_files(args.size, args.seed, args.seasons)
    print(
        f"demo {args.size}, seed {args.seed}, {args.seasons} season(s): {len(season.files)} "
        f"files; {args.importers} importers, {args.graders} graders, on "
        f"{'PostgreSQL' if args.postgres else 'SQLite'}"
    )
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="soak-files-")))
        (folder / FILENAME).write_bytes(season.start_list)
        for name, _, data in season.files:
            (folder / name).write_bytes(data)
        soak(args, season, folder, stack)


if __name__ == "__main__":
    main()
