"""The demo federation: a seeded, realistic federation's six seasons as files.

``generate(size, seed)`` draws counties, clubs and players, plays out seasons 2009-10
to 2014-15 (leagues, county matches, club championships, congresses and a congress
circuit, rapidplays, junior events, lightning and online events) and the first
tournaments of 2015-16 (``nextseason``), and writes each event as the results file its
organiser would have sent, with the day it reached the grading team. It also writes the
published list the system starts from (2009-07). Everything comes from generators seeded
by ``seed``: the same size and seed give the same bytes.
"""

from __future__ import annotations

import time
import zlib
from array import array
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ecfgrading.demo.championships import club_championships
from ecfgrading.demo.events import CODE, FIRST, SECOND, EventKind, PlayedEvent, World
from ecfgrading.demo.files import write_event
from ecfgrading.demo.nextseason import next_season_events
from ecfgrading.demo.people import People, make_people
from ecfgrading.demo.places import Club, counties, county_weights, make_clubs
from ecfgrading.demo.schedule import correction, with_receipts
from ecfgrading.demo.seasons import DEMO_SEASONS, season_label
from ecfgrading.demo.sizes import DemoSize, size_named
from ecfgrading.demo.startlist import FILENAME, list_csv, standings
from ecfgrading.demo.teams import county_matches, leagues
from ecfgrading.demo.tournaments import (
    CONGRESS,
    JUNIOR_CONGRESS,
    JUNIOR_RAPID,
    LIGHTNING,
    ONLINE,
    RAPIDPLAY,
    Format,
    circuit,
    tournaments,
)
from ecfgrading.engine.rateplay import rate_of_play
from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.progress import Progress
from ecfgrading.workers import fork_context, forking_cores

FloatArray = NDArray[np.float64]

# Shares of a season's games. Team events and club championships come first; the
# tournaments make up the rest, so a season has about the size's number of games.
TEAM_SHARES = {EventKind.LEAGUE: 0.36, EventKind.COUNTY: 0.04, EventKind.CLUB: 0.05}
CIRCUIT_SHARE = 0.06  # the congress circuit (tournaments.circuit), at most
TOURNAMENT_SHARES: tuple[tuple[Format, float, int], ...] = (
    (CONGRESS, 0.22, 1),  # (format, share, at least this many events)
    (RAPIDPLAY, 0.20, 1),
    (JUNIOR_RAPID, 0.06, 1),
    (JUNIOR_CONGRESS, 0.03, 0),
    (LIGHTNING, 0.01, 1),  # not graded (G2): a few events a season
    (ONLINE, 0.01, 1),  # not graded (G2)
)


@dataclass(frozen=True)
class DemoFile:
    """One results file as the grading team received it."""

    filename: str  # the event code, '-2' for a second submission
    event_code: str
    event_name: str
    kind: EventKind
    season: int
    submission_index: int
    received: date
    late: bool
    first_day: date  # of play: the file's EVENT DATE
    last_day: date  # its FINAL RESULT DATE
    games: int
    uncoded: int  # players given without a grading code
    # The file's bytes, deflated: a national demo's files are 140 MB as text (``data``
    # gives them back); empty once saved (``saved_at``).
    packed: bytes = field(repr=False)
    # PIN -> player: who each PIN really is. Not in the file; the demo's grading team
    # uses it to decide the identifications the import queues.
    pins: Mapping[int, int] = field(repr=False)
    # Where the file was saved (``Federation.saved``): its bytes are read from there,
    # no longer held.
    saved_at: Path | None = None

    @property
    def data(self) -> bytes:
        """The file as its organiser sent it."""
        if self.saved_at is not None:
            return self.saved_at.read_bytes()
        return zlib.decompress(self.packed)

    @property
    def folder(self) -> str:
        return season_label(self.season)


class Pins(Mapping[int, int]):
    """PIN -> player of a file whose PINs run 1, 2, 3...: the players in PIN order, as
    machine integers (a national demo's files hold half a million PINs)."""

    __slots__ = ("_players",)

    def __init__(self, pins: Mapping[int, int]) -> None:
        if sorted(pins) != list(range(1, len(pins) + 1)):
            raise ValueError(f"expected PINs 1 to {len(pins)}, got {sorted(pins)[:5]}...")
        self._players = array("i", (pins[pin] for pin in range(1, len(pins) + 1)))

    def __getitem__(self, pin: int) -> int:
        if not isinstance(pin, int) or not 1 <= pin <= len(self._players):
            raise KeyError(pin)
        return self._players[pin - 1]

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, len(self._players) + 1))

    def __len__(self) -> int:
        return len(self._players)


@dataclass(frozen=True)
class Federation:
    size: DemoSize
    seed: int
    people: People
    clubs: tuple[Club, ...]
    counties: tuple[str, ...]
    events: tuple[PlayedEvent, ...]
    files: tuple[DemoFile, ...]  # in the order received
    start_list: bytes
    listed: NDArray[np.bool_]
    seconds: float

    def write(self, folder: Path) -> list[Path]:
        """The starting list and every results file under ``folder`` (by season)."""
        folder.mkdir(parents=True, exist_ok=True)
        written = [folder / FILENAME]
        written[0].write_bytes(self.start_list)
        made: set[Path] = set()  # season folders, made once each
        for demo_file in self.files:
            path = folder / "results" / demo_file.folder / demo_file.filename
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            path.write_bytes(demo_file.data)
            written.append(path)
        return written

    def saved(self, folder: Path) -> Federation:
        """``write`` the files under ``folder``; the same federation, its files read from
        there: a national demo's files are 30 MB even deflated, held for minutes."""
        paths = self.write(folder)[1:]
        files = (
            replace(demo_file, packed=b"", saved_at=path)
            for demo_file, path in zip(self.files, paths, strict=True)
        )
        return replace(self, files=tuple(files))

    def stats(self) -> FederationStats:
        return FederationStats.of(self)


def generate(
    size: str | DemoSize = "default", seed: int = 2009, progress: Progress | None = None
) -> Federation:
    """Draw a whole demo federation; see the module docstring."""
    started = time.perf_counter()
    chosen = size_named(size) if isinstance(size, str) else size
    rng = np.random.default_rng(seed)
    world = _world(rng, seed, chosen)
    events: list[PlayedEvent] = []
    for done, season in enumerate(DEMO_SEASONS):
        _report(progress, "play seasons", done, len(DEMO_SEASONS))
        events += season_events(world, season)
    _report(progress, "play seasons", len(DEMO_SEASONS), len(DEMO_SEASONS))
    figures = standings(rng, world.people, world.clubs, _games_a_season(world.people, events))
    world.people = _top_code_listed(world.people, figures.listed)
    events = with_receipts(rng, events)
    files = _files(world, events, progress)
    world.people, started_next = next_season_events(world)
    events += started_next
    files += [_demo_file(world, event, 1) for event in started_next]
    return Federation(
        size=chosen,
        seed=seed,
        people=world.people,
        clubs=tuple(world.clubs),
        counties=tuple(world.counties),
        events=tuple(events),
        files=tuple(sorted(files, key=lambda f: (f.received, f.event_code, f.submission_index))),
        start_list=list_csv(world.people, world.clubs, figures),
        listed=figures.listed,
        seconds=time.perf_counter() - started,
    )


def _report(progress: Progress | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total, stage)


def _world(rng: np.random.Generator, seed: int, size: DemoSize) -> World:
    names = counties(size.counties)
    clubs = make_clubs(names, county_weights(size.counties) * size.players, size.club_size)
    return World(rng, seed, size, make_people(rng, size, clubs, names), clubs, names)


def season_events(world: World, season: int) -> list[PlayedEvent]:
    """One season's events: team events and the congress circuit first, then
    tournaments to fill the season."""
    size = world.size
    events = leagues(world, season, size.share(TEAM_SHARES[EventKind.LEAGUE]))
    events += county_matches(world, season, size.share(TEAM_SHARES[EventKind.COUNTY]))
    events += club_championships(world, season, size.share(TEAM_SHARES[EventKind.CLUB]))
    left = size.games - sum(event.games for event in events)
    # The circuit's weekends are congresses: they come out of the congresses' share.
    weekends = circuit(world, season, size.share(CIRCUIT_SHARE))
    events += weekends
    shares = sum(share for _, share, _ in TOURNAMENT_SHARES)
    for fmt, share, least in TOURNAMENT_SHARES:
        budget = max(0, round(left * share / shares))
        if fmt is CONGRESS:
            budget -= sum(event.games for event in weekends)
        events += tournaments(world, season, fmt, budget, least)
    return events


def _games_a_season(people: People, events: list[PlayedEvent]) -> tuple[FloatArray, FloatArray]:
    """Graded games each player played in the first demo season, standard and rapid.

    The starting list draws the seasons before the demo around these, so a player's
    category and games agree with how much he plays. Players who sat that season out
    get a guess from their keenness, at the rates they have an appetite for.
    """
    counts = {rate: np.zeros(len(people)) for rate in Rate}
    for event in events:
        rate = rate_of_play(event.control)
        if event.season != DEMO_SEASONS[0] or not isinstance(rate, Rate):
            continue
        for part in event.parts:
            rows = part.games.rows
            graded = rows[rows[:, CODE] <= 2]  # win, loss or draw: graded (G1)
            np.add.at(counts[rate], graded[:, [FIRST, SECOND]].ravel(), 1)
    absent = (counts[Rate.STANDARD] + counts[Rate.RAPID]) == 0
    standard_taste = people.league | (people.congress > 0)
    return (
        _filled(counts[Rate.STANDARD], absent & standard_taste, people),
        _filled(counts[Rate.RAPID], absent & (people.rapid > 0), people),
    )


def _filled(counts: FloatArray, guessed: NDArray[np.bool_], people: People) -> FloatArray:
    playing = counts > 0
    typical = counts[playing].mean() if playing.any() else 0.0
    guess = typical * people.keen / people.keen.mean() * 0.6
    result: FloatArray = np.where(guessed, guess, counts)
    return result


def _top_code_listed(people: People, listed: NDArray[np.bool_]) -> People:
    """The highest code on record belongs to a listed player.

    The system issues new codes above the highest it knows (G28); a player on record
    but not on the list must never hold a code above that, or the system could issue
    his code to a newcomer before his first results file arrives.
    """
    top = int(np.argmax(people.code))
    if listed[top]:
        return people
    best_listed = int(np.flatnonzero(listed)[np.argmax(people.code[listed])])
    return people.with_code_swapped(top, best_listed)


def _files(world: World, events: list[PlayedEvent], progress: Progress | None) -> list[DemoFile]:
    fixed = correction(world.rng, events)
    wanted = [(event, 1) for event in events]
    if fixed is not None:
        wanted.append((fixed[1], 2))
    files = []
    for done, demo_file in enumerate(_written(world, wanted)):
        if done % 50 == 0:
            _report(progress, "write results files", done, len(wanted))
        files.append(demo_file)
    _report(progress, "write results files", len(wanted), len(wanted))
    return files


# Below this many files they are written here; above, by a process a core (issue 25: a
# national demo's 9,300 files took 17 s on one core of a slow machine), and no more
# processes than this (the cores a container may see can be many more than its share).
FILES_ON_ONE_CORE = 500
WRITERS_AT_MOST = 8
_WRITING: tuple[World, list[tuple[PlayedEvent, int]]] | None = None  # what the workers read


def _written(world: World, wanted: list[tuple[PlayedEvent, int]]) -> Iterator[DemoFile]:
    """Each (event, SUBMISSION INDEX) as its DemoFile, in order. Each file draws from a
    generator of its own (files.write_event), so which process writes it does not change
    a byte; the workers are forked, and find the world and the events in ``_WRITING``
    without their being sent."""
    cores = min(forking_cores(), WRITERS_AT_MOST)
    if len(wanted) < FILES_ON_ONE_CORE or cores < 2:
        yield from (_demo_file(world, event, index) for event, index in wanted)
        return
    global _WRITING
    _WRITING = (world, wanted)
    pool = fork_context().Pool(cores)
    try:
        yield from pool.imap(_write_nth, range(len(wanted)), chunksize=25)
    finally:
        # Each worker writes what it was given, takes its end mark and exits, even when
        # the caller stopped early (a few seconds at most). Never killed, as ``with
        # Pool`` does: one killed while it held the task queue's lock leaves the other
        # waiting for it, and a SIGTERM handler the process had (inherited by the fork)
        # kept that one alive, so the join never returned (seen in a CI run).
        pool.close()
        pool.join()
        _WRITING = None


def _write_nth(nth: int) -> DemoFile:
    """In a worker: the ``nth`` file wanted (``_written``)."""
    assert _WRITING is not None
    world, wanted = _WRITING
    event, index = wanted[nth]
    return _demo_file(world, event, index)


def _demo_file(world: World, event: PlayedEvent, index: int) -> DemoFile:
    written = write_event(world, event, index)
    return DemoFile(
        filename=f"{event.code}.txt" if index == 1 else f"{event.code}-{index}.txt",
        event_code=event.code,
        event_name=event.name,
        kind=event.kind,
        season=event.season,
        submission_index=index,
        received=event.received,
        late=event.late,
        first_day=event.first_day,
        last_day=event.last_day,
        games=event.games,
        uncoded=written.uncoded,
        packed=zlib.compress(written.data, 1),
        pins=Pins(written.pins),
    )


@dataclass(frozen=True)
class FederationStats:
    """What a demo federation holds, for the summary and the tests."""

    players: int
    on_record: int  # before the demo starts
    listed: int  # on the starting list
    newcomers: int
    juniors: int  # 17 or under on 31 August 2010
    fide: int
    namesakes: int  # newcomers named exactly like a player of another club, on purpose
    clubs: int
    locations: int
    counties: int
    events: Mapping[str, int]
    files: int
    games: Mapping[str, int]  # by season
    graded: Mapping[str, int]  # by rate; lightning, online and defaults are not
    not_graded: Mapping[str, int]  # by reason
    draws: float  # share of played games drawn
    uncoded_entries: int
    entries: int

    @classmethod
    def of(cls, federation: Federation) -> FederationStats:
        people = federation.people
        games = Counter[str]()
        graded, not_graded = Counter[str](), Counter[str]()
        results = np.zeros(len(ResultCode), dtype=np.int64)  # games by result code
        for event in federation.events:
            games[season_label(event.season)] += event.games
            rate = rate_of_play(event.control)
            codes = np.bincount(
                np.concatenate([part.games.codes for part in event.parts]),
                minlength=len(results),
            )
            results += codes
            decided = int(codes[:3].sum())  # win, loss or draw; the rest are defaults
            if not isinstance(rate, Rate):
                _add(not_graded, rate.value, event.games)
            else:
                _add(not_graded, "default", event.games - decided)
                _add(graded, rate.value, decided)
        played = int(results[:3].sum())
        first_files = [f for f in federation.files if f.submission_index == 1]
        return cls(
            players=len(people),
            on_record=int(np.count_nonzero(people.first == 0)),
            listed=int(np.count_nonzero(federation.listed)),
            newcomers=int(np.count_nonzero(people.first > 0)),
            juniors=int(np.count_nonzero(people.juniors(2))),
            fide=int(np.count_nonzero(people.fide)),
            namesakes=len(people.namesakes),
            clubs=sum(1 for club in federation.clubs if not club.location),
            locations=sum(1 for club in federation.clubs if club.location),
            counties=len(federation.counties),
            events=dict(Counter(str(event.kind) for event in federation.events)),
            files=len(federation.files),
            games=dict(games),
            graded=dict(graded),
            not_graded=dict(not_graded),
            draws=int(results[2]) / played if played else 0.0,
            uncoded_entries=sum(f.uncoded for f in first_files),
            entries=sum(len(f.pins) for f in first_files),
        )

    def to_text(self) -> str:
        def listing(counts: Mapping[str, int]) -> str:
            return ", ".join(f"{key} {value:,}" for key, value in sorted(counts.items()))

        return "\n".join(
            [
                f"players {self.players:,} ({self.on_record:,} on record before 2009-10, "
                f"{self.listed:,} on the 2009-07 list, {self.newcomers:,} newcomers; "
                f"{self.juniors:,} juniors, {self.fide:,} with FIDE ids, "
                f"{self.namesakes} newcomers named like a player of another club)",
                f"clubs {self.clubs:,} and {self.locations:,} locations, {self.counties} counties",
                f"events: {listing(self.events)}",
                f"files {self.files:,}; games by season: {listing(self.games)}",
                f"graded: {listing(self.graded)}; not graded: {listing(self.not_graded)}; "
                f"draws {self.draws:.0%}",
                f"players given without a code: {self.uncoded_entries:,} of {self.entries:,}",
            ]
        )


def _add(counts: Counter[str], key: str, count: int) -> None:
    """``count`` more of ``key``; none leaves ``key`` out, as counting one by one would."""
    if count:
        counts[key] += count
