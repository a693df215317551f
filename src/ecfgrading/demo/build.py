"""Build the demo federation in the database: its history replayed in date order.

The starting list 2009-07 is loaded; then, step by step, the results files received by
each list's cut-off are imported, the identifications the import queued are decided,
and the list versions are computed, each under the rule set of its date (G31), and
published: rapid 2010-01; July 2010 initial; late results and a corrected file, then the
August versions; rapid 2011-01 and July 2011 (the last ecf-2009 lists); from 2012-01 both
rates every January (initial only, G43) and July (initial and August) under ecf-2012, and
from 2015-01 under ecf-2015, to August 2015. Last, the first results of 2015-16 are
imported and identified but graded in no list: what players' pages show as received for
the next list.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import datetime as dt
import gc
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Q

from ecfgrading.demo.generator import DemoFile, Federation, FederationStats, generate
from ecfgrading.demo.logins import create_demo_logins, hashed_ahead
from ecfgrading.demo.registration import register_events
from ecfgrading.demo.schedule import ListRun, Step, steps, world_today
from ecfgrading.demo.startlist import FILENAME, LIST_ID
from ecfgrading.demo.summary import DemoSummary, ImportCounts, PublishedList, Stopwatch
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.errors import Conflict
from ecfgrading.lookups.identification import open_cases
from ecfgrading.progress import Progress
from ecfgrading.registry.models import Club, Event, Game, PendingIdentification, Player
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import ListImportError, import_grade_list
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.ingest import ImportResult, import_files
from ecfgrading.services.results.queue import Deciding, PendingError, deciding
from ecfgrading.services.results.reading import reader_kept

ACTOR = "demo"


class DemoError(Conflict):
    """The demo could not be built: its starting list was refused (a used database?)."""


def build_demo(
    home: Path, *, size: str = "default", seed: int = 2009, progress: Progress | None = None
) -> DemoSummary:
    """Generate the demo federation, write its files under ``home/'demo'``, and replay it;
    last, write its world's date to ``home/'today'`` (``write_today``).

    The database must hold no lists yet (run it on a fresh ``ecfgrading init``).
    """
    with reader_kept():  # forked while this process is small (services.results.reading)
        return _build(home, size, seed, progress)


def _build(home: Path, size: str, seed: int, progress: Progress | None) -> DemoSummary:
    watch = Stopwatch()
    with watch.step("generate"):
        federation = generate(size, seed, progress)
        stats = federation.stats()
        # Its games are in its files now: the played events (a national demo's 1.2
        # million games) are let go before the imports need the memory.
        federation = replace(federation, events=())
        give_back_freed_memory()
    folder = home / "demo"
    with watch.step("save files"):
        federation = federation.saved(folder)
    history = _History(federation, stats, progress)
    hashed = hashed_ahead()  # on the second core while the history is replayed
    with watch.step(f"load list {LIST_ID}"):
        history.load_list()
    with watch.step("register events"):
        register_events(federation, ACTOR)
    for step in steps():
        history.play(step, watch)
    with watch.step("demo logins"):
        logins = create_demo_logins(hashed)
    gc.unfreeze()  # the build's objects are the collector's again (give_back_freed_memory)
    write_today(home)
    return replace(history.summary(home, folder, watch), logins=logins)


def write_today(home: Path) -> Path:
    """The world's date in the home, where the settings read it (``SITE_TODAY``): a site
    served from this home reasons from 2015, not from the day the demo was built."""
    path = home / settings.SITE_TODAY_FILENAME
    path.write_text(f"{world_today().isoformat()}\n")
    return path


@dataclass
class _History:
    """The grading team's year, replayed: what it has imported, decided and published."""

    federation: Federation
    stats: FederationStats
    progress: Progress | None
    waiting: list[DemoFile] = field(default_factory=list)
    # The demo's grading team knows its players: who each queued PIN is, and their codes.
    received: dict[int, DemoFile] = field(default_factory=dict)  # submission id -> file
    codes: dict[int, str] = field(default_factory=dict)  # player -> code on record
    counts: ImportCounts = field(default_factory=ImportCounts)
    rejected: list[str] = field(default_factory=list)
    lists: list[PublishedList] = field(default_factory=list)
    # The first queued player on record is put on record again, then merged (G28).
    twice: _Twice = field(default_factory=lambda: _Twice())

    def __post_init__(self) -> None:
        self.waiting = list(self.federation.files)
        people = self.federation.people
        self.codes = {
            player: str(GradingCode(int(people.code[player])))
            for player in range(len(people))
            if self.federation.listed[player]
        }

    def load_list(self) -> None:
        self._report(f"load list {LIST_ID}", 0, 1)
        try:
            result = import_grade_list(
                self.federation.start_list,
                list_id=LIST_ID,
                filename=FILENAME,
                actor=ACTOR,
                published_at=_publication(ListRun(LIST_ID, Rate.STANDARD, "initial")),
            )
        except ListImportError as error:
            raise DemoError(f"{error} (build the demo on a fresh database)") from None
        if not result.ok:
            problems = "; ".join(str(problem) for problem in result.report.errors[:5])
            raise DemoError(f"the starting list {FILENAME} was refused: {problems}")
        self._report(f"load list {LIST_ID}", 1, 1)

    def play(self, step: Step, watch: Stopwatch) -> None:
        with watch.step(f"import for {step.title}"):
            self.import_until(step)
        with watch.step(f"identify for {step.title}"):
            self.decide_pending()
            self.merge_twice()
        for run in step.lists:
            with watch.step(f"grade {run.rate} {run.list_id} {run.version}"):
                self.grade(run)

    # -- importing ------------------------------------------------------------------------

    def import_until(self, step: Step) -> None:
        """Every file received by the step's cut-off, in the order received."""
        batch = [f for f in self.waiting if f.received <= step.cutoff]
        self.waiting = [f for f in self.waiting if f.received > step.cutoff]
        stage = f"import for {step.title}"
        results = import_files(
            ((f.filename, f.data) for f in batch),
            sender=ACTOR,
            progress=lambda done, total, _: self._report(stage, done, total),
        )
        for demo_file, result in zip(batch, results, strict=True):
            self._note(demo_file, result)

    def _note(self, demo_file: DemoFile, result: ImportResult) -> None:
        report = result.report
        self.received[result.submission_id] = demo_file
        for new in report.new_players:
            self.codes[demo_file.pins[new.pin]] = new.code
        if not result.accepted:
            self.rejected.append(demo_file.filename)
        self.counts = replace(
            self.counts,
            files=self.counts.files + 1,
            accepted=self.counts.accepted + int(result.accepted),
            rejected=self.counts.rejected + int(not result.accepted),
            queued=self.counts.queued + len(report.pending),
        )

    # -- the pending queue ----------------------------------------------------------------

    def decide_pending(self) -> None:
        """Link each queued player to the player he is, or put him on record as new."""
        # What deciding reads of a case: not its file's bytes and report, which
        # ``select_related`` would copy into every case (hundreds of MB at national size).
        cases = list(open_cases().select_related(None).only(*_CASE_FIELDS))
        with deciding("identifying the demo's queued players", actor=ACTOR) as session:
            session.load_open()  # the whole queue is decided: loaded in one go
            known = (self._truth(case) for case in cases)
            session.expect(self.codes[p] for p in known if p is not None and p in self.codes)
            for done, case in enumerate(cases):
                if done % 100 == 0:
                    self._report("identify", done, len(cases))
                self._decide(session, case)
        self._report("identify", len(cases), len(cases))

    def _decide(self, session: Deciding, case: PendingIdentification) -> None:
        player = self._truth(case)
        code = self.codes.get(player) if player is not None else _top_candidate(case)
        if self.twice.take(player, code):
            code = None  # as if the team missed him: a second record, merged later
        if code is not None:
            try:
                session.resolve(case.id, code=code)
                self.counts = replace(self.counts, linked=self.counts.linked + 1)
                return
            except PendingError:
                pass  # he is the opponent in these games: not the same player after all
        made = session.resolve(case.id, create=True)
        self.counts = replace(self.counts, created=self.counts.created + 1)
        if self.twice.second_of(made.ref):
            return  # his code stays the first record's, which the merge keeps
        if player is not None:
            self.codes[player] = made.ref

    def merge_twice(self) -> None:
        """The team finds the player it put on record twice and merges the second record
        into the first before the next grading run (G28): the demo's merged record,
        whose games count for the first record in every list, as if linked."""
        if self.twice.pair is None or self.twice.merged:
            return
        second, first = self.twice.pair
        merge_players(second, first, why=TWICE_WHY, actor=ACTOR)
        self.twice.merged = True
        self.counts = replace(self.counts, merged=self.counts.merged + 1)

    def _truth(self, case: PendingIdentification) -> int | None:
        demo_file = self.received.get(case.submission_id)
        return demo_file.pins.get(case.pin) if demo_file else None

    # -- lists ----------------------------------------------------------------------------

    def grade(self, run: ListRun) -> None:
        stage = f"grade {run.rate} {run.list_id} {run.version}"
        self._report(stage, 0, 2)
        give_back_freed_memory()
        computed = compute_version(run.list_id, run.rate, run.version, actor=ACTOR)
        self._report(stage, 1, 2)
        publish_version(
            run.list_id, run.rate, computed.version, actor=ACTOR, published_at=_publication(run)
        )
        self._report(stage, 2, 2)
        published = {c: n for c, n in computed.categories.items() if c != "none"}
        self.lists.append(
            PublishedList(
                run.list_id,
                str(run.rate),
                computed.version,
                computed.published,
                computed.players,
                computed.games,
                computed.rule_set,
                published,
            )
        )

    # -- the end --------------------------------------------------------------------------

    def summary(self, home: Path, folder: Path, watch: Stopwatch) -> DemoSummary:
        return DemoSummary(
            home=home,
            folder=folder,
            start_list=folder / FILENAME,
            results_folder=folder / "results",
            size=self.federation.size.name,
            seed=self.federation.seed,
            federation=self.stats,
            players=Player.objects.filter(merged_into__isnull=True).count(),
            clubs=Club.objects.count(),
            events=Event.objects.count(),
            imports=replace(self.counts, games=_games_recorded(), graded=_games_graded()),
            lists=tuple(self.lists),
            timings=tuple(watch.laps),
            peaks=tuple(watch.peaks),
            cpu=tuple(watch.cpu),
            rejected_files=tuple(self.rejected),
        )

    def _report(self, stage: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total, stage)


_CASE_FIELDS = ("id", "submission_id", "pin", "candidates")

TWICE_WHY = "the same player was put on record a second time, as new, from a results file"


@dataclass
class _Twice:
    """The demo's first queued case of a player on record, decided as a new player, as a
    busy team might: a second record of him, which the team then finds and merges."""

    first: str | None = None  # his code on record
    pair: tuple[str, str] | None = None  # (second record, first record)
    merged: bool = False

    def take(self, player: int | None, code: str | None) -> bool:
        """Whether this case, of ``player`` known as ``code``, makes the second record."""
        if self.first is not None or player is None or code is None:
            return False
        self.first = code
        return True

    def second_of(self, code: str) -> bool:
        """Whether the record just made as ``code`` is that second record."""
        if self.first is None or self.pair is not None:
            return False
        self.pair = (code, self.first)
        return True


def give_back_freed_memory() -> None:
    """What the imports freed handed back to the system before a grading run's arrays
    are made: the C library keeps freed memory for reuse, and the run's arrays, mapped
    apart, came on top of it (the national demo's peak 520 -> 499 MB, measured; issue
    25). Nothing where the C library is not glibc.

    What survives the collection is frozen (``gc.freeze``): the demo's federation, its
    view of the registry and what it has noted are walked by no later pass. The 51 full
    passes of a national build, 34 of them here, walked them all each time: 22 s of its
    CPU (measured). The imports, finding objects frozen, leave them so
    (``collector.fewer_collections``)."""
    gc.collect()
    gc.freeze()
    name = ctypes.util.find_library("c")
    trim = getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    if trim is not None:
        trim(0)


def _top_candidate(case: PendingIdentification) -> str | None:
    """The best-scoring candidate's code: the choice without better knowledge."""
    candidates: Iterable[dict[str, Any]] = case.candidates or []
    best = max(candidates, key=lambda c: c.get("score", 0), default=None)
    if best is None:
        return None
    player = Player.objects.filter(id=best.get("player_id")).first()
    return player.ref if player else None


def _games_recorded() -> int:
    """Games on record, a replaced submission's counted once (its latest)."""
    return Game.objects.exclude(not_graded_reason="superseded").count()


def _games_graded() -> int:
    waiting = Q(player1__isnull=True) | Q(player2__isnull=True)
    return Game.objects.filter(graded=True).exclude(waiting).count()


def _publication(run: ListRun) -> dt.datetime:
    """When the federation would have published it: a list in mid-month (15 July, 15
    January), its August revision at the end of August (G27)."""
    listed = ListId.parse(run.list_id)
    day = (
        dt.date(listed.year, 8, 28)
        if run.version == "august"
        else dt.date(listed.year, listed.month, 15)
    )
    return dt.datetime.combine(day, dt.time(9), tzinfo=dt.UTC)
