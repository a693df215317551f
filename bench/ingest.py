"""Time reading and importing a national season of results files, made by the demo.

    .venv/bin/python bench/ingest.py [--size national] [--games N] [--players N]
                                     [--seed 2009] [--skip-import] [--postgres URL]
                                     [--max-files N] [--season-dir DIR] [--code SRC]
                                     [--scratch NAME] [--skip-sqlite] [--skip-parse]
                                     [--at-once] [--repeat N] [--profile PREFIX]

The season is the first of the demo federation (``ecfgrading.demo.generate``, the same
one ``ecfgrading demo --size national --seed 2009`` builds): the starting list 2009-07
and every results file of 2009-10, in the order received. ``--games`` and ``--players``
change the size's games a season and players on record; the events follow from them.

(a) parse and check: ``read_results_bytes`` over every file, in games per second;
(b) import into SQLite: a fresh ECFGRADING_HOME (DATABASE_URL unset), ``migrate``, the
    starting list through ``import_grade_list``, then every file through
    ``services.results.import_files``, one batch as ``results import`` runs it (or the
    first ``--max-files``); then one small file more, with the process's view of the
    registry warm and cold (the web's single upload);
(c) the same on PostgreSQL with ``--postgres URL``, in a scratch database (``--scratch``,
    ``ecfgrading_bench`` by default) created and dropped on that URL's server;
(e) beside each import, its floor, measured in the same child: the rows the import
    writes (one submission holding each file's bytes, every game, one club membership per
    player entry) inserted plainly into tables made like the registry's, with their
    indexes, in one transaction: ``executemany`` on a fresh SQLite file in WAL mode with
    a 256 MB page cache, or COPY into fresh tables of the scratch PostgreSQL database;
    then the import's time over the floor's;
(d) with ``--at-once``, ``--repeat`` times on each database: two importers at once, each
    a process importing one half of the files (contiguous in the order received, the
    files of one event in one half), against one importer doing both halves; each starts
    from a fresh copy of one database holding the starting list. The two are run in
    turn, the one that goes first alternating, so that other load on the machine falls
    on both alike.

Each import runs in a child process of its own, because Django reads its database
settings once per process. The season is written to a temporary directory for them, or
to ``--season-dir`` (written by the first run, read by later ones, so that every run
imports the very same bytes). ``--code SRC`` makes the children import ``ecfgrading``
from SRC (put first on PYTHONPATH): an older commit's ``src`` (``git archive COMMIT |
tar -x -C DIR``) is then timed on the same files by the same script.

``--profile PREFIX`` runs each child's ``import_files`` under cProfile, writes its stats
to ``PREFIX.sqlite.prof`` (or ``.postgresql.prof``) and prints their top entries by
cumulative and by own time. The profiler slows the import (about 2x): its times are not
the bench's figures; run without it to measure.

Beside each import, the statements it sent and their time, then the kinds (verb and
table) that took longest: the four costliest, or as many as the environment variable
``BENCH_KINDS`` says (``BENCH_KINDS=40`` lists them all).
"""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

MARK = "BENCH-RESULT "  # a child's last line of output: its figures as JSON
SCRATCH = "ecfgrading_bench"
SEASON = "season.json"  # what the season directory holds, and the figures of its making


@dataclass(frozen=True)
class Row:
    """One line of the table: what was timed, where, how much and how long."""

    step: str
    database: str = "-"
    amount: str = "-"
    seconds: float | None = None
    rate: str = "-"


# The season ------------------------------------------------------------------------------


def season_on_disk(directory: Path, size: Any, seed: int) -> dict[str, Any]:
    """The demo's first season in ``directory``: written unless an earlier run did, for
    the same size and seed. Its description (``season.json``) is returned."""
    described = directory / SEASON
    wanted = {"size": size.name, "seed": seed}
    if described.exists():
        info: dict[str, Any] = json.loads(described.read_text(encoding="utf-8"))
        if {key: info.get(key) for key in wanted} != wanted:
            raise SystemExit(f"{directory} holds another season ({info}); expected {wanted}")
        return info
    if directory.exists() and any(directory.iterdir()):
        raise SystemExit(f"expected {directory} empty or holding a season of this script")
    directory.mkdir(parents=True, exist_ok=True)
    info = {**wanted, **write_season(size, seed, directory)}
    described.write_text(json.dumps(info, indent=1), encoding="utf-8")
    return info


def write_season(size: Any, seed: int, directory: Path) -> dict[str, Any]:
    """The list, the results files, and ``order``: their names and event codes in the
    order received. The figures of the season, for the table."""
    from ecfgrading.demo import generate
    from ecfgrading.demo.seasons import DEMO_SEASONS, season_label
    from ecfgrading.demo.startlist import FILENAME, LIST_ID

    federation = generate(size, seed)
    files = [f for f in federation.files if f.season == DEMO_SEASONS[0]]
    (directory / FILENAME).write_bytes(federation.start_list)
    results = directory / "results"
    results.mkdir()
    for demo_file in files:
        (results / demo_file.filename).write_bytes(demo_file.data)
    order = "".join(f"{f.filename}\t{f.event_code}\n" for f in files)
    (directory / "order").write_text(order, encoding="utf-8")
    return {
        "list_file": FILENAME,
        "list_id": LIST_ID,
        "label": season_label(DEMO_SEASONS[0]),
        "generated": sum(event.games for event in federation.events),
        "generate_seconds": federation.seconds,
        "games": sum(f.games for f in files),
        "files": len(files),
        "entries": sum(len(f.pins) for f in files),
        "uncoded": sum(f.uncoded for f in files),
    }


def season_rows(info: dict[str, Any]) -> list[Row]:
    return [
        Row(
            f"generate demo ({info['size']})",
            "-",
            f"{info['generated']:,} games",
            info["generate_seconds"],
        ),
        Row(f"  season {info['label']}", "-", f"{info['games']:,} games, {info['files']:,} files"),
        Row("  player entries", "-", f"{info['entries']:,}, {info['uncoded']:,} without a code"),
    ]


def ordered_files(directory: Path) -> list[tuple[str, str]]:
    """(file name, event code) of every results file, in the order received."""
    lines = (directory / "order").read_text(encoding="utf-8").splitlines()
    return [(name, event) for name, event in (line.split("\t") for line in lines if line)]


def halves(files: list[tuple[str, str]], count: int) -> list[list[str]]:
    """Contiguous shares of the files in the order received; the files of one event
    follow the first of them into its share (a second submission never overtakes its
    first), as bench/soak.py splits them."""
    size = -(-len(files) // count)
    owner: dict[str, int] = {}
    out: list[list[str]] = [[] for _ in range(count)]
    for n, (name, event) in enumerate(files):
        out[owner.setdefault(event, min(n // size, count - 1))].append(name)
    return out


# (a) parse and check ----------------------------------------------------------------------


def parse_rows(directory: Path, info: dict[str, Any]) -> list[Row]:
    from ecfgrading.formats import read_grade_list_bytes, read_results_bytes

    datas = [(directory / "results" / name).read_bytes() for name, _ in ordered_files(directory)]
    start, cpu_start = time.perf_counter(), time.process_time()
    games, problems = 0, 0
    for data in datas:
        results, report = read_results_bytes(data)
        problems += len(report)
        games += sum(1 for _ in results.games()) if results is not None else 0
    files, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    list_csv = (directory / info["list_file"]).read_bytes()
    start = time.perf_counter()
    grade_list, _ = read_grade_list_bytes(list_csv)
    rows = len(grade_list.rows) if grade_list is not None else 0
    csv = time.perf_counter() - start
    return [
        Row("parse + check results", "-", f"{games:,} games", files, _per(games, files, "games")),
        Row("  CPU", "-", f"{games:,} games", cpu, _per(games, cpu, "games")),
        Row("  problems found", "-", f"{problems:,}"),
        Row("parse list CSV", "-", f"{rows:,} rows", csv, _per(rows, csv, "rows")),
    ]


def _per(count: int, seconds: float, unit: str) -> str:
    return f"{count / seconds:,.0f} {unit}/s" if seconds > 0 else "-"


# (b), (c) imports, run in a child process -------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One database for a child: its environment (home, URL, code) and its label."""

    label: str
    env: dict[str, str]


def child_command(directory: Path, *args: str) -> list[str]:
    return [sys.executable, str(Path(__file__)), "--worker", str(directory), *args]


def run_child(target: Target, directory: Path, *args: str) -> list[dict[str, Any]]:
    """Run ``--worker`` on the season in ``directory``; its figures, or a failure row."""
    done = subprocess.run(
        child_command(directory, *args),
        env=target.env,
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    return _figures(done.returncode, done.stdout)


def _figures(returncode: int, stdout: str) -> list[dict[str, Any]]:
    lines = [line for line in stdout.splitlines() if line.startswith(MARK)]
    if returncode != 0 or not lines:
        return [{"step": f"import failed (exit {returncode})"}]
    figures: list[dict[str, Any]] = json.loads(lines[-1][len(MARK) :])
    return figures


def as_rows(target: Target, figures: list[dict[str, Any]]) -> list[Row]:
    shown = ("step", "amount", "seconds", "rate")
    return [
        Row(database=target.label, **{k: v for k, v in row.items() if k in shown})
        for row in figures
    ]


def child_env(code: Path | None, **extra: str) -> dict[str, str]:
    """The caller's environment without DATABASE_URL, with ``code`` first on the path."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(code), env.get("PYTHONPATH")]))
    return {**env, **extra}


@contextmanager
def sqlite_target(code: Path | None, template: Path | None = None) -> Iterator[Target]:
    """A fresh ECFGRADING_HOME, empty or a copy of ``template``'s, removed after."""
    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-home-") as home:
        if template is not None:
            shutil.copytree(template, home, dirs_exist_ok=True)
        yield Target("sqlite", child_env(code, ECFGRADING_HOME=home))


@contextmanager
def postgres_target(
    code: Path | None, url: str, name: str, template: str | None = None
) -> Iterator[Target]:
    """Database ``name`` on the server of ``url``, empty or a copy of ``template``,
    dropped after."""
    with (
        scratch_database(url, name, template) as scratch_url,
        tempfile.TemporaryDirectory(prefix="ecfgrading-bench-home-") as home,
    ):
        env = child_env(code, ECFGRADING_HOME=home, DATABASE_URL=scratch_url)
        yield Target("postgresql", env)


@contextmanager
def scratch_database(url: str, name: str, template: str | None = None) -> Iterator[str]:
    """``name`` on the server of ``url``, new for the run and dropped after."""
    import psycopg

    for plain in (name, template or name):
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", plain):
            raise SystemExit(f"expected a plain lower-case database name, got {plain!r}")
    parts = urlsplit(url)
    # The maintenance database: the URL's own may not exist, and is never dropped.
    admin_url = parts._replace(path="/postgres").geturl()
    copy = f" TEMPLATE {template}" if template else ""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}{copy}")
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name}")


# (d) two importers at once, against one doing both halves ---------------------------------

MakeTarget = Callable[[str], Any]  # a name -> a context manager giving a fresh Target


def at_once_rows(directory: Path, make: MakeTarget, repeat: int) -> list[Row]:
    """``repeat`` pairs of runs: one importer on every file, and two at once on the two
    halves, from copies of one prepared database; their medians and every run."""
    seconds: dict[str, list[float]] = {"one": [], "two": []}
    rows: list[Row] = []
    label = "-"
    for turn in range(repeat):
        for how in ("one", "two") if turn % 2 == 0 else ("two", "one"):
            with make(f"{how}") as target:
                label = target.label
                taken, said = _one(target, directory) if how == "one" else _two(target, directory)
            seconds[how].append(taken)
            name = "one importer, both halves" if how == "one" else "two importers at once"
            rows.append(Row(f"  run {turn + 1}: {name}", label, said, taken))
    for how, name in (("one", "one importer, both halves"), ("two", "two importers at once")):
        if seconds[how]:
            median = statistics.median(seconds[how])
            rows.append(Row(f"{name} (median of {repeat})", label, "", median))
    return rows


def _one(target: Target, directory: Path) -> tuple[float, str]:
    figures = run_child(target, directory, "--share", "1/1")
    return _span(figures), _accepted(figures)


def _two(target: Target, directory: Path) -> tuple[float, str]:
    children = [
        subprocess.Popen(
            child_command(directory, "--share", f"{k}/2"),
            env=target.env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in (1, 2)
    ]
    figures = []
    for child in children:
        stdout, _ = child.communicate()
        figures += _figures(child.returncode, stdout)
    return _span(figures), _accepted(figures)


def _span(figures: list[dict[str, Any]]) -> float:
    """From the first child's start of importing to the last one's end (wall clock)."""
    timed = [row for row in figures if "started" in row]
    if not timed or len(timed) != len(figures):
        return float("nan")  # a child failed: its row says so
    return max(row["ended"] for row in timed) - min(row["started"] for row in timed)


def _accepted(figures: list[dict[str, Any]]) -> str:
    failed = [row["step"] for row in figures if row["step"].startswith("import failed")]
    if failed:
        return "; ".join(failed)
    accepted = sum(row.get("accepted", 0) for row in figures)
    files = sum(row.get("files", 0) for row in figures)
    cpu = sum(row.get("cpu", 0.0) for row in figures)
    return f"{accepted:,} of {files:,} files accepted, CPU {cpu:.1f} s"


# The child -------------------------------------------------------------------------------


def worker(directory: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """In the child: migrate and load the list (a fresh database), and import the files
    (all, the first ``--max-files``, or one ``--share``); the figures."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "ecfgrading.settings"
    import django
    from django.core.management import call_command

    django.setup()
    info = json.loads((directory / SEASON).read_text(encoding="utf-8"))
    files = ordered_files(directory)
    if args.share:
        number, count = (int(part) for part in args.share.split("/"))
        names = halves(files, count)[number - 1]
        return [_share(directory, names, args.share)]
    import ecfgrading

    code = Path(ecfgrading.__file__).parent.parent  # which tree the figures are of
    rows = [_timed("migrate", lambda: call_command("migrate", verbosity=0), f"code {code}")]
    rows.append(_list_import((directory / info["list_file"]).read_bytes(), info))
    if args.prepare:
        return rows
    names = [name for name, _ in files]
    paths = [directory / "results" / name for name in names]
    chosen = paths[: args.max_files] if args.max_files else paths
    marks = _highest_ids()  # the rows the batch adds are those above
    batch, own = _results_import(chosen, args.profile, marks)
    return with_floor(rows + batch, chosen, own)


def _timed(step: str, run: Any, amount: str) -> dict[str, Any]:
    start = time.perf_counter()
    run()
    return {"step": step, "amount": amount, "seconds": time.perf_counter() - start}


def _list_import(data: bytes, info: dict[str, Any]) -> dict[str, Any]:
    from ecfgrading.services.lists.imports import import_grade_list

    start = time.perf_counter()
    result = import_grade_list(
        data, list_id=info["list_id"], filename=info["list_file"], actor="bench"
    )
    seconds = time.perf_counter() - start
    rows = result.players_created + result.players_updated + result.players_unchanged
    entries = sum(result.entries.values())
    return {
        "step": "list import",
        "amount": f"{rows:,} rows, {entries:,} entries",
        "seconds": seconds,
        "rate": _per(rows, seconds, "rows"),
    }


def _share(directory: Path, names: list[str], share: str) -> dict[str, Any]:
    """One importer's share, in one batch as ``results import`` runs it."""
    from ecfgrading.services.results import import_files

    files = [(name, (directory / "results" / name).read_bytes()) for name in names]
    started = time.time()  # wall clock: two processes' spans are compared
    with cpu_used() as used:
        results = import_files(files, sender=f"bench {share}")
    ended = time.time()
    return {
        "step": f"share {share}",
        "seconds": ended - started,
        "started": started,
        "ended": ended,
        "cpu": sum(used),
        "files": len(files),
        "accepted": sum(1 for result in results if result.accepted),
    }


def _results_import(
    paths: list[Path], profile: str | None = None, marks: dict[str, int] | None = None
) -> tuple[list[dict[str, Any]], dict[str, list[tuple[Any, ...]]] | None]:
    """The batch's figures; with ``marks``, the rows it wrote (``own_rows``), read back
    before the single files after it add theirs."""
    from ecfgrading.services.results import import_files

    files = [(path.name, path.read_bytes()) for path in paths]
    games = sum(data.count(b"#PIN1=") for _, data in files)  # one line per game
    start = time.perf_counter()

    def progress(done: int, total: int, filename: str) -> None:
        if done % 100 == 0 and done:
            elapsed = time.perf_counter() - start
            print(f"  {done:,}/{total:,} files, {elapsed:.0f} s", file=sys.stderr, flush=True)

    # One batch, as `results import` runs it: the players on record are indexed once.
    with cpu_used() as used, profiled(profile), counted() as statements:
        results = import_files(files, sender="bench", progress=progress)
    seconds = time.perf_counter() - start
    accepted = sum(1 for result in results if result.accepted)
    ours, server = used
    own = own_rows(marks) if marks is not None else None
    return [
        {
            "step": "results import",
            "amount": f"{games:,} games",
            "seconds": seconds,
            "rate": _per(games, seconds, "games"),
        },
        {"step": "  files accepted", "amount": f"{accepted:,} of {len(paths):,}"},
        {
            "step": "  statements sent",
            "amount": f"{statements.count:,}, {statements.count / max(len(paths), 1):.1f} a file",
            "seconds": sum(statements.seconds.values()),
        },
        *statements.costliest(int(os.environ.get("BENCH_KINDS", "4"))),
        {
            "step": "  CPU: importer + database server",
            "amount": f"{ours:.1f} s + {server:.1f} s",
            "seconds": ours + server,
            "rate": _per(games, ours + server, "games"),
        },
        *_single_file(files),
    ], own


@dataclass
class Sent:
    """The statements sent (an executemany counts once) and the seconds they took, by
    kind: their verb and table ('INSERT registry_game'), the time from the call to its
    return, Django's wrapping included."""

    count: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def costliest(self, top: int = 4) -> list[dict[str, Any]]:
        """A row of the table for each of the ``top`` kinds that took longest."""
        kinds = sorted(self.seconds, key=self.seconds.__getitem__, reverse=True)[:top]
        return [
            {"step": f"    {kind}", "amount": f"{self.counts[kind]:,} statements",
             "seconds": self.seconds[kind]}
            for kind in kinds
        ]  # fmt: skip


_KIND = re.compile(
    r'\s*(INSERT(?: OR \w+)? INTO|UPDATE|DELETE FROM|SELECT .*? FROM)\s+"?(\w+)', re.S
)


@functools.lru_cache(maxsize=4096)
def _kind(sql: str) -> str:
    """The statement's verb and table; cached, for the count not to weigh on what it
    counts (a season sends 26,000 statements of a few hundred texts)."""
    found = _KIND.match(sql)
    if found is None:
        return sql.split(None, 1)[0].upper() if sql.strip() else "?"
    verb = found.group(1).split()[0]
    return f"{verb} {found.group(2)}"


@contextmanager
def counted() -> Iterator[Sent]:
    """The statements this process sends meanwhile, and their time by kind."""
    from django.db import connection

    sent = Sent()

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.count += 1
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            kind = _kind(sql)
            sent.seconds[kind] = sent.seconds.get(kind, 0.0) + time.perf_counter() - start
            sent.counts[kind] = sent.counts.get(kind, 0) + 1

    with connection.execute_wrapper(count):
        yield sent


@contextmanager
def profiled(path: str | None) -> Iterator[None]:
    """cProfile over the block, its stats written to ``path`` (nothing without one)."""
    if not path:
        yield
        return
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()
        profiler.dump_stats(path)


def print_profile(path: Path, top: int = 30) -> None:
    """A child's profile: the top entries by cumulative time, then by own time."""
    import pstats

    if not path.exists():
        print(f"no profile at {path} (the child failed?)")
        return
    for order in ("cumulative", "tottime"):
        print(f"--- {path.name}: top {top} by {order}")
        pstats.Stats(str(path), stream=sys.stdout).sort_stats(order).print_stats(top)


@contextmanager
def cpu_used() -> Iterator[list[float]]:
    """CPU seconds taken meanwhile by this process and by its PostgreSQL server process
    (read from /proc, the server being on this machine; 0 on SQLite, whose work is this
    process's). Unlike the wall clock, hardly moved by other work on a shared machine."""
    used = [0.0, 0.0]
    backend = _backend_ticks()
    start, server = time.process_time(), backend()
    try:
        yield used
    finally:
        used[0], used[1] = time.process_time() - start, backend() - server


def _backend_ticks() -> Callable[[], float]:
    from django.db import connection

    if connection.vendor != "postgresql":
        return lambda: 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return process_seconds(pid)


def process_seconds(pid: int | None) -> Callable[[], float]:
    """CPU seconds of a process of this machine, a PostgreSQL server's (0 without one)."""
    if pid is None:
        return lambda: 0.0
    stat = Path(f"/proc/{pid}/stat")

    def seconds() -> float:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0  # a server elsewhere, or not ours to read
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime

    return seconds


def _single_file(files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """One small file more, as an officer's upload in the running web process: with the
    process's view of the registry already loaded (warm), and after it is dropped (cold,
    as the first upload after a start). Code older than the view (``--code``) loads the
    players for every call: both are cold there."""
    from ecfgrading.services.results import import_results

    shared_view: Any
    try:
        from ecfgrading.services.results.view import shared_view
    except ImportError:  # older code (--code): no view to keep
        shared_view = None

    name, data = min(files, key=lambda item: item[1].count(b"#PIN1="))
    rows = []
    for step, cold in (("one small file (warm)", False), ("one small file (cold)", True)):
        if cold and shared_view is not None:
            with shared_view() as view:
                view.drop()
        renamed = re.sub(rb"#EVENT CODE=[^#\r\n]*", f"#EVENT CODE=BENCH{int(cold)}".encode(), data)
        start = time.perf_counter()
        result = import_results(renamed, filename=f"again-{name}", sender="bench")
        seconds = time.perf_counter() - start
        games = data.count(b"#PIN1=")
        outcome = "accepted" if result.accepted else "REJECTED"
        rows.append({"step": step, "amount": f"{games} games, {outcome}", "seconds": seconds})
    return rows


# (e) the floor: the import's rows inserted plainly -----------------------------------------

# The registry's tables the floor copies (with their indexes), and the columns it fills.
FLOOR_TABLES = {
    "registry_submission": (
        "event_code", "submission_index", "raw", "filename", "sha256", "sender_name",
        "received_at", "status", "report", "duplicates",
    ),
    "registry_game": (
        "event_id", "submission_id", "player1_id", "player2_id", "result", "game_date",
        "date_given", "round", "board", "part_kind", "part_name", "colour", "rate", "graded",
        "not_graded_reason", "line", "sequence", "comment",
    ),
    "registry_clubmembership": ("player_id", "club_id", "first_season", "last_season"),
}  # fmt: skip
FLOOR_PAGE_CACHE_KIB = 256 * 1024


def with_floor(
    rows: list[dict[str, Any]],
    paths: list[Path],
    own: dict[str, list[tuple[Any, ...]]] | None = None,
) -> list[dict[str, Any]]:
    """The import's rows, then the floor of its write and the ratio, beside it; with
    ``own``, the very rows the import wrote (``own_rows``), also their floor and the
    ratio to that."""
    floor, floor_cpu = _floor(paths)
    imported = next((row for row in rows if row["step"] == "results import"), None)
    cpu = next((row for row in rows if row["step"].startswith("  CPU")), None)
    at = rows.index(imported) + 1 if imported else len(rows)
    added = [floor, _ratio("  import / floor", imported, cpu, floor, floor_cpu)]
    if own is not None:
        again, again_cpu = _floor(paths, own, OWN_COLUMNS)
        again["step"] = "  floor: the import's own rows, read back"
        turned, turned_cpu = _floor(paths, own, OWN_COLUMNS, turns=True)
        turned["step"] = "  floor: its own rows, committed a turn at a time"
        added += [
            again,
            _ratio("  import / floor of its own rows", imported, cpu, again, again_cpu),
            turned,
            _ratio(
                "  import / floor committed a turn at a time", imported, cpu, turned, turned_cpu
            ),
        ]
    return [*rows[:at], *added, *rows[at:]]


def _ratio(
    step: str,
    imported: dict[str, Any] | None,
    cpu: dict[str, Any] | None,
    floor: dict[str, Any],
    floor_cpu: float,
) -> dict[str, Any]:
    said = {"step": step, "amount": "-"}
    if imported and cpu and floor["seconds"] and floor_cpu:
        wall, used = imported["seconds"] / floor["seconds"], cpu["seconds"] / floor_cpu
        said["amount"] = f"{wall:.1f}x wall clock, {used:.1f}x CPU"
    return said


def _floor(
    paths: list[Path],
    tables: dict[str, list[tuple[Any, ...]]] | None = None,
    named: dict[str, tuple[str, ...]] = FLOOR_TABLES,
    *,
    turns: bool = False,
) -> tuple[dict[str, Any], float]:
    """The floor's row of the table, and its CPU seconds (this process and, on
    PostgreSQL, its server process), as the import's are counted; of ``tables`` in
    ``named``'s columns (by default the rows ``floor_rows`` makes of the files), in one
    transaction or, with ``turns``, in one a turn of the import's (``in_turns``)."""
    from django.db import connection

    tables = tables if tables is not None else floor_rows(paths)
    games = len(tables["registry_game"])
    entries = len(tables["registry_clubmembership"])
    insert = _floor_postgresql if connection.vendor == "postgresql" else _floor_sqlite
    seconds, cpu = insert(in_turns(tables) if turns else [tables], named)
    row = {
        "step": "  floor: same rows inserted plainly",
        "amount": f"{len(paths):,} files, {games:,} games, {entries:,} entries, CPU {cpu:.1f} s",
        "seconds": seconds,
        "rate": _per(games, seconds, "games"),
    }
    return row, cpu


# The own rows' floor also fills the games' queued players: a game waiting for the queue
# has no player id, which the table's checks refuse without one.
OWN_COLUMNS = {
    **FLOOR_TABLES,
    "registry_game": (*FLOOR_TABLES["registry_game"], "pending1_id", "pending2_id"),
}


def _highest_ids() -> dict[str, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        marks = {}
        for table in FLOOR_TABLES:
            cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
            marks[table] = int(cursor.fetchone()[0])
    return marks


def own_rows(marks: dict[str, int]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows the import added to the floor's tables (ids above ``marks``), read back
    as stored, in the order written: the players' real ids (a season's games fall all
    over the players' indexes, where ``floor_rows`` gives each game two new players, at
    their end), the real reports, only the memberships it made (issue 25)."""
    from django.db import connection

    tables: dict[str, list[tuple[Any, ...]]] = {}
    with connection.cursor() as cursor:
        for table, columns in OWN_COLUMNS.items():
            cursor.execute(
                f"SELECT {', '.join(columns)} FROM {table} WHERE id > %s ORDER BY id",
                [marks[table]],
            )
            tables[table] = [tuple(map(_plain, row)) for row in cursor.fetchall()]
    return tables


def _plain(value: Any) -> Any:
    """A value as the floor's own connection takes it: dates and times as text on
    SQLite, whose module no longer adapts them by default; JSON as its text."""
    from django.db import connection

    if isinstance(value, dict | list):
        return json.dumps(value)
    if connection.vendor != "postgresql" and hasattr(value, "isoformat"):
        return value.isoformat(" ") if hasattr(value, "hour") else value.isoformat()
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def floor_rows(paths: list[Path]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows an import of ``paths`` writes, in FLOOR_TABLES' columns: each file with its
    bytes, each game (one line each), one membership per player entry."""
    import hashlib

    files: list[tuple[Any, ...]] = []
    games: list[tuple[Any, ...]] = []
    members: list[tuple[Any, ...]] = []
    for number, path in enumerate(paths, start=1):
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        files.append((f"E{number}", 1, data, path.name, digest, "bench", "2009-10-01 12:00:00",
                      "accepted", "{}", "none"))  # fmt: skip
        for line in range(data.count(b"#PIN1=")):
            n = len(games)
            games.append((number, number, 2 * n + 1, 2 * n + 2, "10", "2009-10-01", True,
                          line % 9 + 1, line % 12 + 1, "section", "Open", "W", "S", True, "",
                          line + 20, n + 1, ""))  # fmt: skip
        for _ in range(data.count(b"#PIN=")):
            members.append((len(members) + 1, len(members) % 997 + 1, 2009, 2009))
    return {
        "registry_submission": files,
        "registry_game": games,
        "registry_clubmembership": members,
    }


Tables = dict[str, list[tuple[Any, ...]]]


def in_turns(tables: Tables) -> list[Tables]:
    """The rows as the import commits them (issue 25): a turn's files (TURN_FILES of
    them, in the order written), each with its games, a share of the memberships each.
    A turn's commit writes every page its rows changed; the players' indexes of the games
    are changed all over, so that most of their pages are written again each turn, where
    one transaction writes each once."""
    from ecfgrading.services.results.ingest import TURN_FILES

    files, games = tables["registry_submission"], tables["registry_game"]
    at = OWN_COLUMNS["registry_game"].index("submission_id")
    order = list(dict.fromkeys(game[at] for game in games))  # the files, as written
    turn_of = {submission: n // TURN_FILES for n, submission in enumerate(order)}
    count = max(1, -(-max(len(files), len(order)) // TURN_FILES))
    turns: list[Tables] = [{table: [] for table in tables} for _ in range(count)]
    for game in games:
        turns[turn_of[game[at]]]["registry_game"].append(game)
    for table in ("registry_submission", "registry_clubmembership"):
        rows = tables[table]
        for n in range(count):
            turns[n][table] = rows[n * len(rows) // count : (n + 1) * len(rows) // count]
    return turns


def _floor_sqlite(
    turns: list[Tables], named: dict[str, tuple[str, ...]] = FLOOR_TABLES
) -> tuple[float, float]:
    """Inserted with executemany, a transaction for each of ``turns``, on a fresh file
    (WAL, 256 MB cache), into tables and indexes made by the registry's own statements;
    the log copied into the file every CHECKPOINT_TURNS transactions, as the import's
    turns do (services.locks), and once at the end."""
    import sqlite3

    from django.db import connection

    from ecfgrading.services.locks import CHECKPOINT_TURNS

    with connection.cursor() as cursor:
        marks = ", ".join(["%s"] * len(turns[0]))
        cursor.execute(
            f"SELECT sql FROM sqlite_master WHERE tbl_name IN ({marks}) AND sql IS NOT NULL "
            "ORDER BY type DESC",  # tables before their indexes
            list(turns[0]),
        )
        schema = [sql for (sql,) in cursor.fetchall()]
    with tempfile.TemporaryDirectory(prefix="ecfgrading-bench-floor-") as scratch:
        db = sqlite3.connect(Path(scratch) / "floor.sqlite3", isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute(f"PRAGMA cache_size=-{FLOOR_PAGE_CACHE_KIB}")
        for sql in schema:
            db.execute(sql)
        start = time.perf_counter()
        with cpu_used() as used:
            for number, tables in enumerate(turns, start=1):
                db.execute("BEGIN")
                for table, rows in tables.items():
                    columns = ", ".join(named[table])
                    marks = ", ".join(["?"] * len(named[table]))
                    db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
                db.execute("COMMIT")
                if number % CHECKPOINT_TURNS == 0 or number == len(turns):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        seconds = time.perf_counter() - start
        db.close()
    return seconds, sum(used)


def _floor_postgresql(
    turns: list[Tables], named: dict[str, tuple[str, ...]] = FLOOR_TABLES
) -> tuple[float, float]:
    """COPY, a transaction for each of ``turns``, into fresh tables made LIKE the
    registry's, indexes and all (foreign keys aside), in the scratch database; dropped
    after."""
    from django.db import connection

    copies = {table: f"floor_{table}" for table in turns[0]}
    with connection.cursor() as cursor:
        for table, copy in copies.items():
            cursor.execute(f"CREATE TABLE {copy} (LIKE {table} INCLUDING ALL)")
    try:
        raw = connection.connection
        start = time.perf_counter()
        with cpu_used() as used, raw.cursor() as cursor:
            for tables in turns:
                with raw.transaction():
                    for table, rows in tables.items():
                        columns = ", ".join(named[table])
                        with cursor.copy(f"COPY {copies[table]} ({columns}) FROM STDIN") as copy:
                            for row in rows:
                                copy.write_row(row)
        seconds = time.perf_counter() - start
    finally:
        with connection.cursor() as cursor:
            for copy in copies.values():
                cursor.execute(f"DROP TABLE IF EXISTS {copy}")
    return seconds, sum(used)


# The table -------------------------------------------------------------------------------

HEADER = ("step", "database", "amount", "seconds", "rate")


def cells(row: Row) -> tuple[str, ...]:
    seconds = "-" if row.seconds is None else f"{row.seconds:.2f}"
    return (row.step, row.database, row.amount, seconds, row.rate)


def print_table(rows: list[Row]) -> None:
    lines = [HEADER, *(cells(row) for row in rows)]
    widths = [max(len(line[k]) for line in lines) for k in range(len(HEADER))]
    for n, line in enumerate(lines):
        padded = [
            cell.ljust(width) if k < 2 else cell.rjust(width)
            for k, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        print("  ".join(padded))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def parse(argv: list[str] | None) -> argparse.Namespace:
    from ecfgrading.demo.sizes import SIZES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", choices=SIZES, default="national", help="a demo size")
    parser.add_argument("--games", type=int, help="games a season (default: the size's)")
    parser.add_argument("--players", type=int, help="players in all (default: the size's)")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--skip-import", action="store_true", help="no (b) and (c)")
    parser.add_argument("--skip-parse", action="store_true", help="no (a)")
    parser.add_argument("--skip-sqlite", action="store_true", help="no SQLite (b), (d)")
    parser.add_argument("--postgres", metavar="URL", help="also import into PostgreSQL")
    parser.add_argument("--scratch", default=SCRATCH, help="PostgreSQL scratch database name")
    parser.add_argument("--max-files", type=int, default=0, help="import only N results files")
    parser.add_argument("--season-dir", type=Path, help="keep the season here, for later runs")
    parser.add_argument("--code", type=Path, help="the children's ecfgrading from this src/")
    parser.add_argument("--at-once", action="store_true", help="(d): two importers at once")
    parser.add_argument("--repeat", type=int, default=3, help="pairs of runs for (d)")
    parser.add_argument("--profile", metavar="PREFIX", help="cProfile the imports to PREFIX.*")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--share", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.code is not None and not (args.code / "ecfgrading").is_dir():
        parser.error(f"expected --code to name a src/ folder holding ecfgrading, got {args.code}")
    return args


def main(argv: list[str] | None = None) -> None:
    if argv is None and "--worker" in sys.argv:
        args = argparse.Namespace(**_worker_args(sys.argv[1:]))
    else:
        args = parse(argv)
    if args.worker is not None:
        print(MARK + json.dumps(worker(args.worker, args)), flush=True)
        return
    with ExitStack() as stack:
        directory = args.season_dir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="ecfgrading-bench-season-"))
        )
        info = season_on_disk(directory, chosen_size(args), args.seed)
        rows = season_rows(info)
        if not args.skip_parse:
            rows += parse_rows(directory, info)
        if not args.skip_import:
            rows += import_rows(args, directory)
        if args.at_once:
            rows += prepared_rows(args, directory)
    print_table(rows)


def _worker_args(argv: list[str]) -> dict[str, Any]:
    """A child's arguments, parsed without importing ecfgrading (whose code it chooses)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", type=Path)
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("--share")
    parser.add_argument("--max-files", type=int, default=0)
    parser.add_argument("--profile")
    return vars(parser.parse_args(argv))


def import_rows(args: argparse.Namespace, directory: Path) -> list[Row]:
    """(b) and (c): a fresh database each, the list, then the files."""
    extra = ["--max-files", str(args.max_files)]
    rows: list[Row] = []
    if not args.skip_sqlite:
        with sqlite_target(args.code) as target:
            rows += as_rows(target, run_child(target, directory, *extra, *_profile(args, target)))
    if args.postgres:
        with postgres_target(args.code, args.postgres, args.scratch) as target:
            rows += as_rows(target, run_child(target, directory, *extra, *_profile(args, target)))
    return rows


def _profile(args: argparse.Namespace, target: Target) -> list[str]:
    """The child's profiling argument; its top entries are printed once it is done."""
    if not args.profile:
        return []
    path = Path(f"{args.profile}.{target.label}.prof").resolve()
    path.unlink(missing_ok=True)
    atexit.register(print_profile, path)
    return ["--profile", str(path)]


def prepared_rows(args: argparse.Namespace, directory: Path) -> list[Row]:
    """(d) on each database, from a copy of one database prepared with the list."""
    rows: list[Row] = []
    if not args.skip_sqlite:
        with sqlite_target(args.code) as prepared:
            rows += as_rows(prepared, run_child(prepared, directory, "--prepare"))
            home = Path(prepared.env["ECFGRADING_HOME"])
            rows += at_once_rows(directory, lambda _: sqlite_target(args.code, home), args.repeat)
    if args.postgres:
        template = f"{args.scratch}_prepared"
        with postgres_target(args.code, args.postgres, template) as prepared:
            rows += as_rows(prepared, run_child(prepared, directory, "--prepare"))

            def copy(how: str) -> Any:
                name = f"{args.scratch}_{how}"
                return postgres_target(args.code, args.postgres, name, template)

            rows += at_once_rows(directory, copy, args.repeat)
    return rows


def chosen_size(args: argparse.Namespace) -> Any:
    from ecfgrading.demo.sizes import SIZES

    size = SIZES[args.size]
    if args.games is not None:
        size = replace(size, name=f"{size.name}, {args.games:,} games", games=args.games)
    if args.players is not None:
        size = replace(size, name=f"{size.name}, {args.players:,} players", players=args.players)
    return size


if __name__ == "__main__":
    main()
