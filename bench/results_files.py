"""A synthetic national season as the federation receives it: a list CSV and results files.

``generate_season()`` gives the grading-list CSV of the players on record (so they have
codes: the starting list, 2009-07) and one results file per event of the season
June 2009 - May 2010, written with ``formats.write_results``:

- congresses: weekend Swiss sections, 5 rounds, with ROUND, GAME DATE and COLOUR;
- league divisions: one MATCH RESULTS part per match between club teams, with BOARD;
- club championships: all-play-all inside one club, OTHER RESULTS with GAME DATE;
- rapidplays: one-day Swiss sections of 6 rounds at a rapid time control;
- junior events: juniors only, a rapidplay or a two-day congress.

Players are mostly given by code and name (and often club), some (a few per cent) by
name and club only: the name on record, or with its accents stripped, or with initials
for forenames; a few are new players with no code. About one game in a hundred is a
default. Everything is drawn from one seeded ``numpy.random.default_rng``; the same
arguments give the same bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

import numpy as np
from numpy.typing import NDArray
from unidecode import unidecode

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rateplay import Session, TimeControl
from ecfgrading.engine.types import Category, ResultCode
from ecfgrading.formats import (
    Colour,
    EventDetails,
    GameResult,
    GradeList,
    GradeListRow,
    PartKind,
    PlayerEntry,
    RateGrade,
    ResultsFile,
    ResultsPart,
    WhiteOn,
    write_grade_list,
    write_results,
)

Rng = np.random.Generator
IntArray = NDArray[np.int64]

LIST_ID = "2009-07"  # the list the season starts from
SEASON_START = date(2009, 6, 1)
SEASON_END = date(2010, 5, 31)
LEAGUE_START = date(2009, 9, 1)  # leagues play September to April
LEAGUE_END = date(2010, 4, 30)
ACTIVE_SHARE = 1 / 3  # 20,000 of the 60,000 on record play in a season (architecture.md)
JUNIOR_SHARE = 0.10
BY_NAME_SHARE = 0.04  # players given by name and club only
NEW_PER_EVENT = 0.01  # brand-new players, as a share of an open event's entrants
DEFAULT_SHARE = 0.01

_RESULTS = tuple(ResultCode)  # by value
KINDS = ("congress", "league", "club", "rapid", "junior")
PREFIX = {"congress": "CG", "league": "LG", "club": "CC", "rapid": "RP", "junior": "JR"}
EVENT_SHARE = np.array([0.20, 0.15, 0.30, 0.20, 0.15])  # of events
SIZE = np.array([250.0, 300.0, 60.0, 150.0, 80.0])  # relative games per event

CONGRESS = TimeControl((Session(90, 36),), rest_minutes=15)  # combination (b)
LEAGUE = TimeControl.game(75, 10)  # (a), with an increment
CLUB = TimeControl((Session(100, 40), Session(50, 20)), rest_minutes=15)  # (c)
RAPID = TimeControl.game(25, 10)  # 35 minutes by G2: rapid


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


SURNAMES = _words(
    "Smith Jones Williams Taylor Brown Davies Evans Wilson Thomas Johnson Roberts Robinson "
    "Thompson Wright Walker White Edwards Hughes Green Hall Lewis Harris Clarke Patel Jackson "
    "Wood Turner Martin Cooper Hill Ward Morris Moore Clark Lee King Baker Harrison Morgan Allen "
    "James Scott Phillips Watson Davis Parker Price Bennett Young Griffiths Mitchell Kelly Cook "
    "Carter Richardson Bailey Collins Bell Shaw Murphy Miller Cox Richards Khan Marshall "
    "Anderson Simpson Ellis Adams Singh Begum Wilkinson Foster Chapman Powell Webb Rogers Gray "
    "Mason Ali Hunt Hussain Campbell Matthews Owen Palmer Holmes Mills Barnes Knight Lloyd "
    "Butler Russell Barker Fisher Stevens Jenkins Murray Dixon Harvey Graham Pearson Ahmed "
    "Fletcher Walsh Kaur Gibson Howard Andrews Stewart Elliott Reynolds Saunders Payne Fox Ford "
    "Pearce Day Brooks West Lawrence Cole Atkinson Bradley Spencer Gill Dawson Ball Burton "
    "O'Brien Watts Rose Booth Perry Ryan Grant Wells Armstrong Francis Rees Hayes Hart Hudson "
    "Newman Barrett Gordon Dunn Smith-Jones Müller Núñez Gonçalves Łukasiewicz Dvořák "
    "Søndergaard Bjørnsson Sánchez Öztürk Černý Légaré"
)
MALE = _words(
    "John David Michael Paul Andrew Peter James Robert Mark Richard Stephen Christopher Ian "
    "Alan Simon Martin Graham Nigel Brian Kevin Gary Colin Keith Anthony Philip Neil Tony Roger "
    "Geoffrey Malcolm Trevor Derek Gordon Adam Daniel Matthew Thomas Oliver Harry Jack William "
    "Samuel Joseph George Luke Ben Raj Arjun Mohammed José André François Jürgen Håkon Zoltán"
)
FEMALE = _words(
    "Sarah Susan Elizabeth Mary Helen Jane Karen Julie Anne Alison Claire Emma Rachel Lucy "
    "Hannah Sophie Emily Charlotte Amelia Olivia Jessica Priya Aisha Chloé Renée Zoë Ingrid"
)
NEW_SURNAMES = _words(
    "Abernethy Quaintance Ravenscroft Thistlewood Oakenshaw Pellingham Wetherall Kinnersley "
    "Loxley Merriweather Brackenbury Fairweather Gillingwater Hatherley Inchbold Jessop"
)
TOWNS = _words(
    "Anytown Otherton Bramford Castleby Dunmore Eastwick Fairhaven Glenholm Harwood Ivybridge "
    "Kingsmere Langley Marston Northam Oakridge Penwood Queensbury Redhill Southgate Thornbury "
    "Upton Westbury Yarmouth Ashford Bexley Carlton Dorridge Elmstead Frome Grantham Hexham "
    "Ilkley Kendal Ludlow Malvern Newent Olney Pershore Ripon Settle Tenbury Uckfield Ware "
    "Whitby Alston Bakewell Chard Dursley Ely Filey Goole Hythe Ilford Jarrow Keswick Louth"
)
CLUB_QUALIFIER = ("", "North ", "South ", "East ", "West ", "Old ", "New ", "Upper ")
CLUB_SUFFIX = ("", " CC", " Chess Club", " Knights", " Rooks", " Juniors", " Athenaeum")


@dataclass(frozen=True)
class Season:
    """The starting list's CSV and the season's results files, with what they hold."""

    list_csv: str
    files: tuple[tuple[str, bytes], ...]
    games: int  # results written, defaults included
    events: Counter[str] = field(default_factory=Counter)  # by kind
    references: Counter[str] = field(default_factory=Counter)  # code, name, new


@dataclass(frozen=True)
class Roster:
    """The players on record, as parallel arrays and names."""

    codes: IntArray
    surname: tuple[str, ...]
    forenames: tuple[str, ...]
    female: NDArray[np.bool_]
    grade: IntArray
    junior_age: IntArray  # -1: adult
    club: IntArray  # home club (an index of ``clubs``)
    clubs: tuple[str, ...]
    active: IntArray  # who plays this season
    juniors: IntArray  # active juniors

    def name(self, player: int) -> str:
        return f"{self.surname[player]}, {self.forenames[player]}"


def generate_season(
    games: int = 200_000, events: int = 1_500, players_on_record: int = 60_000, seed: int = 1
) -> Season:
    """About ``games`` results in ``events`` files, among ``players_on_record`` players."""
    rng = np.random.default_rng(seed)
    roster = make_roster(rng, players_on_record)
    writer = _Writer(rng, roster)
    kinds = rng.choice(len(KINDS), events, p=EVENT_SHARE)
    budgets = _budgets(rng, kinds, games)
    files = [
        writer.event(KINDS[kind], n, budget)
        for n, (kind, budget) in enumerate(zip(kinds, budgets, strict=True), start=1)
    ]
    return Season(
        list_csv=write_grade_list(GradeList(tuple(list_rows(rng, roster)))),
        files=tuple(files),
        games=writer.games,
        events=Counter(KINDS[kind] for kind in kinds),
        references=writer.references,
    )


def _budgets(rng: Rng, kinds: IntArray, games: int) -> IntArray:
    """Games per event: by kind, spread by a gamma draw, adding up to about ``games``."""
    weights = SIZE[kinds] * rng.gamma(4.0, 0.25, kinds.shape[0])
    return np.maximum(6, np.round(weights / weights.sum() * games)).astype(np.int64)


# Players on record -----------------------------------------------------------------------


def make_roster(rng: Rng, n: int) -> Roster:
    female = rng.random(n) < 0.12
    junior = rng.random(n) < JUNIOR_SHARE
    ages = np.where(junior, rng.integers(8, 18, n), -1)
    clubs = _club_names(max(60, n // 60))
    size = rng.pareto(2.0, len(clubs)) + 1.0
    active = np.sort(rng.choice(n, int(n * ACTIVE_SHARE), replace=False))
    adult = rng.normal(130.0, 35.0, n)
    young = -20.0 + 9.0 * ages + rng.normal(0.0, 25.0, n)
    return Roster(
        codes=np.sort(rng.choice(300_000, n, replace=False) + 100_000),  # room to issue more
        surname=tuple(SURNAMES[k] for k in rng.integers(0, len(SURNAMES), n)),
        forenames=_forenames(rng, female),
        female=female,
        grade=np.clip(np.where(junior, young, adult), 5, 270).astype(np.int64),
        junior_age=ages,
        club=rng.choice(len(clubs), n, p=size / size.sum()),
        clubs=clubs,
        active=active,
        juniors=active[junior[active]],
    )


def _forenames(rng: Rng, female: NDArray[np.bool_]) -> tuple[str, ...]:
    """A forename, and a middle name for one player in three."""
    n = int(female.shape[0])
    first, middle = rng.random(n), rng.random(n)
    has_middle = rng.random(n) < 1 / 3
    names = []
    for k in range(n):
        pool = FEMALE if female[k] else MALE
        name = pool[int(first[k] * len(pool))]
        if has_middle[k]:
            name += " " + pool[int(middle[k] * len(pool))]
        names.append(name)
    return tuple(names)


def _club_names(count: int) -> tuple[str, ...]:
    """``count`` distinct names such as 'Anytown CC' and 'North Castleby Knights'."""
    names = [
        f"{qualifier}{town}{suffix}"
        for qualifier in CLUB_QUALIFIER
        for suffix in CLUB_SUFFIX
        for town in TOWNS
    ]
    numbered = (f"{names[k % len(names)]} {k // len(names) + 1}" for k in range(count))
    return tuple(names[:count]) if count <= len(names) else tuple(numbered)


def list_rows(rng: Rng, roster: Roster) -> Iterator[GradeListRow]:
    """One row per player on record: a standard or a rapid grade, or both."""
    n = int(roster.codes.shape[0])
    rapid_only = rng.random(n) < 0.1
    has_rapid = rapid_only | (rng.random(n) < 0.4)
    games, rapid_games = rng.integers(1, 60, n), rng.integers(1, 40, n)
    previous = roster.grade + rng.integers(-12, 13, n)
    clubs = _list_clubs(rng, roster)
    for k in range(n):
        grade = int(roster.grade[k])
        standard = RateGrade() if rapid_only[k] else _rate(grade, games[k], previous[k])
        yield GradeListRow(
            GradingCode(int(roster.codes[k])),
            roster.name(k),
            "F" if roster.female[k] else "M",
            int(roster.junior_age[k]) if roster.junior_age[k] >= 0 else None,
            standard,
            _rate(grade - 8, rapid_games[k], 0) if has_rapid[k] else RateGrade(),
            clubs[k],
            str(400_000 + k) if k % 20 == 0 else "",  # a FIDE id for one in twenty
        )


def _list_clubs(rng: Rng, roster: Roster) -> list[tuple[str, ...]]:
    """The home club, and for one in five a second club; one in ten of those a location."""
    n = int(roster.codes.shape[0])
    second = np.where(rng.random(n) < 0.2, rng.integers(0, len(roster.clubs), n), -1)
    location = rng.random(n) < 0.1
    found: list[tuple[str, ...]] = []
    for k in range(n):
        home = roster.clubs[roster.club[k]]
        if second[k] < 0 or second[k] == roster.club[k]:
            found.append((home,))
            continue
        other = roster.clubs[second[k]]
        found.append((home, f"{other} Library*" if location[k] else other))
    return found


def _rate(grade: int, games: np.int64, previous: np.int64 | int) -> RateGrade:
    """A published grade; a previous grade of 0 or less is left empty."""
    before = int(previous) if previous > 0 else None
    return RateGrade(_category(int(games)), max(grade, 0), before, int(games))


def _category(games: int) -> Category:
    """Roughly G23's thresholds on games alone: enough to give every category."""
    for threshold, category in (
        (30, Category.A),
        (20, Category.B),
        (10, Category.C),
        (5, Category.D),
    ):
        if games >= threshold:
            return category
    return Category.E


# Events ----------------------------------------------------------------------------------


# An entrant: a roster index, or -1 - k for the k-th new player of the event.
Entrant = int


@dataclass
class _Game:
    """One result between two entrants; the score is drawn for the whole event at once."""

    first: Entrant
    second: Entrant
    day: date
    score: ResultCode = ResultCode.WIN
    round: int | None = None
    board: int | None = None
    colour: Colour | None = None


@dataclass
class _Part:
    kind: PartKind
    name: str
    games: list[_Game]
    white_on: WhiteOn | None = None


class _Writer:
    """Builds each event's games and writes its file; counts what it wrote."""

    def __init__(self, rng: Rng, roster: Roster) -> None:
        self.rng = rng
        self.roster = roster
        self.games = 0
        self.references: Counter[str] = Counter()
        self.new_names: list[tuple[str, str]] = []  # (name, club) of the event's new players

    def event(self, kind: str, number: int, budget: int) -> tuple[str, bytes]:
        self.new_names = []
        code = f"{PREFIX[kind]}{number:05d}"
        name, control, parts = getattr(self, f"_{kind}")(budget)
        self._score([game for part in parts for game in part.games])
        results = self._file(code, name, control, parts)
        self.games += sum(len(part.games) for part in parts)
        return f"{code}.txt", write_results(results).encode()

    # Kinds: each gives a name, a time control and the parts.

    def _congress(self, budget: int) -> tuple[str, TimeControl, list[_Part]]:
        start = self._day(SEASON_START, SEASON_END - timedelta(days=2))
        sections = int(self.rng.integers(1, 5))
        parts = self._swiss(self.roster.active, budget, sections, 5, start, 3)
        return f"{self._town()} Congress {start.year}", CONGRESS, parts

    def _rapid(self, budget: int) -> tuple[str, TimeControl, list[_Part]]:
        start = self._day(SEASON_START, SEASON_END)
        parts = self._swiss(self.roster.active, budget, int(self.rng.integers(1, 4)), 6, start, 1)
        return f"{self._town()} Rapidplay {start.year}", RAPID, parts

    def _junior(self, budget: int) -> tuple[str, TimeControl, list[_Part]]:
        start = self._day(SEASON_START, SEASON_END - timedelta(days=1))
        if self.rng.random() < 0.5:
            parts = self._swiss(self.roster.juniors, budget, 2, 6, start, 1)
            return f"{self._town()} Junior Rapidplay", RAPID, parts
        return (
            f"{self._town()} Junior Congress",
            CONGRESS,
            self._swiss(self.roster.juniors, budget, 2, 5, start, 2),
        )

    def _club(self, budget: int) -> tuple[str, TimeControl, list[_Part]]:
        size = max(4, round((1 + np.sqrt(1 + 8 * budget)) / 2))  # n(n-1)/2 games
        club = int(self.rng.choice(self.roster.club[self.roster.active]))
        entrants = self._members(club, size, set())
        pairs = [(a, b) for a in range(size) for b in range(a + 1, size)]
        days = self._days(LEAGUE_START, SEASON_END, len(pairs))
        games = self._play(entrants, pairs, days)
        title = f"{self.roster.clubs[club]} Club Championship"
        return title, CLUB, [_Part(PartKind.OTHER, "Championship", games)]

    def _league(self, budget: int) -> tuple[str, TimeControl, list[_Part]]:
        boards = int(self.rng.integers(4, 9))
        teams = max(2, round((1 + np.sqrt(1 + 8 * budget / boards)) / 2))
        club_ids = self.rng.choice(len(self.roster.clubs), teams, replace=False)
        taken: set[int] = set()
        squads = [self._members(int(club), boards, taken) for club in club_ids]
        division = int(self.rng.integers(1, 5))
        parts = self._matches(squads, club_ids, boards)
        return f"{self._town()}shire League Division {division}", LEAGUE, parts

    # Pieces.

    def _swiss(
        self, pool: IntArray, budget: int, sections: int, rounds: int, start: date, days: int
    ) -> list[_Part]:
        """Sections by strength, each round a random pairing: ``budget`` games in all."""
        size = max(4, 2 * round(budget / (sections * rounds)))  # size / 2 games a round
        size = min(size, pool.shape[0] // sections // 2 * 2)  # a small pool (juniors)
        chosen = self._with_new(self.rng.choice(pool, size * sections, replace=False))
        chosen = sorted(chosen, key=self._strength, reverse=True)
        names = ("Open", "Major", "Intermediate", "Minor")
        return [
            _Part(
                PartKind.SECTION,
                names[s],
                self._rounds(chosen, s * size, size, rounds, start, days),
            )
            for s in range(sections)
        ]

    def _rounds(
        self, chosen: Sequence[Entrant], first: int, size: int, rounds: int, start: date, days: int
    ) -> list[_Game]:
        games = []
        for r in range(rounds):
            order = self.rng.permutation(size) + first
            pairs = list(zip(order[::2].tolist(), order[1::2].tolist(), strict=True))
            played = start + timedelta(days=r * days // rounds)
            for game in self._play(chosen, pairs, [played] * len(pairs)):
                game.round, game.colour = r + 1, Colour.WHITE
                games.append(game)
        return games

    def _matches(self, squads: list[list[Entrant]], clubs: IntArray, boards: int) -> list[_Part]:
        parts = []
        fixtures = [(a, b) for a in range(len(squads)) for b in range(a + 1, len(squads))]
        for (home, away), played in zip(
            fixtures, self._days(LEAGUE_START, LEAGUE_END, len(fixtures)), strict=True
        ):
            entrants = squads[home] + squads[away]
            pairs = [(b, boards + b) for b in range(boards)]
            games = self._play(entrants, pairs, [played] * boards)
            for board, game in enumerate(games, start=1):
                game.board = board
            name = f"{self.roster.clubs[clubs[home]]} v {self.roster.clubs[clubs[away]]}"
            parts.append(_Part(PartKind.MATCH, name, games, WhiteOn.ODD))
        return parts

    def _play(
        self,
        entrants: Sequence[Entrant],
        pairs: Sequence[tuple[int, int]],
        days: Sequence[date],
    ) -> list[_Game]:
        """Games between ``entrants`` paired by position, unscored."""
        return [_Game(entrants[a], entrants[b], d) for (a, b), d in zip(pairs, days, strict=True)]

    def _score(self, games: Sequence[_Game]) -> None:
        """Results that follow the grade difference; one in a hundred is a default."""
        first = np.array([game.first for game in games])
        second = np.array([game.second for game in games])
        scores = _scores(self.rng, self._strengths(first), self._strengths(second))
        for game, score in zip(games, scores.tolist(), strict=True):
            game.score = _RESULTS[score]

    def _members(self, club: int, size: int, taken: set[int]) -> list[Entrant]:
        """``size`` active players of a club, topped up with others when it is small;
        none of ``taken`` (a player turns out for one team of a division), which grows.
        """
        active = self.roster.active
        members = [int(p) for p in active[self.roster.club[active] == club] if p not in taken]
        while len(members) < size:
            other = int(self.rng.choice(active))
            if other not in taken and other not in members:
                members.append(other)
        chosen = [members[k] for k in self.rng.choice(len(members), size, replace=False)]
        taken.update(chosen)
        return chosen

    def _with_new(self, chosen: IntArray) -> list[Entrant]:
        """Replace about one entrant in a hundred with a brand-new player."""
        fresh = self.rng.random(chosen.shape[0]) < NEW_PER_EVENT
        entrants = [int(p) for p in chosen]
        for k in np.flatnonzero(fresh):
            entrants[k] = self._new_player()
        return entrants

    def _new_player(self) -> Entrant:
        surname = NEW_SURNAMES[int(self.rng.integers(len(NEW_SURNAMES)))]
        forename = MALE[int(self.rng.integers(len(MALE)))]
        club = self.roster.clubs[int(self.rng.integers(len(self.roster.clubs)))]
        self.new_names.append((f"{surname}, {forename}", club))
        return -len(self.new_names)

    def _strength(self, entrant: Entrant) -> int:
        return int(self.roster.grade[entrant]) if entrant >= 0 else 60

    def _strengths(self, entrants: IntArray) -> NDArray[np.float64]:
        grades = self.roster.grade[np.maximum(entrants, 0)].astype(np.float64)
        return np.where(entrants >= 0, grades, 60.0)

    def _day(self, first: date, last: date) -> date:
        return first + timedelta(days=int(self.rng.integers(0, (last - first).days + 1)))

    def _days(self, first: date, last: date, count: int) -> list[date]:
        offsets = np.sort(self.rng.integers(0, (last - first).days + 1, count))
        return [first + timedelta(days=int(d)) for d in offsets]

    def _town(self) -> str:
        return TOWNS[int(self.rng.integers(len(TOWNS)))]

    # The file.

    def _file(self, code: str, name: str, control: TimeControl, parts: list[_Part]) -> ResultsFile:
        games = [game for part in parts for game in part.games]
        first, last = min(g.day for g in games), max(g.day for g in games)
        pins: dict[Entrant, int] = {}
        for game in games:
            pins.setdefault(game.first, len(pins) + 1)
            pins.setdefault(game.second, len(pins) + 1)
        return ResultsFile(
            EventDetails(
                code=code,
                submission_index=1,
                name=name,
                event_date=first,
                final_result_date=last,
                results_officer="A N Grader",
                results_officer_address=("1 High Street", "Anytown"),
                treasurer="A Treasurer",
                treasurer_address=("2 High Street, Anytown",),
                time_control=control,
            ),
            tuple(self._entry(entrant, pin) for entrant, pin in pins.items()),
            tuple(_results_part(part, pins) for part in parts),
        )

    def _entry(self, entrant: Entrant, pin: int) -> PlayerEntry:
        if entrant < 0:
            self.references["new"] += 1
            name, club = self.new_names[-entrant - 1]
            return PlayerEntry(pin, name=name, club_name=club)
        roster = self.roster
        club = roster.clubs[roster.club[entrant]]
        if self.rng.random() < BY_NAME_SHARE:
            self.references["name"] += 1
            return PlayerEntry(pin, name=self._written_name(entrant), club_name=club)
        self.references["code"] += 1
        code = str(GradingCode(int(roster.codes[entrant])))
        with_club = club if self.rng.random() < 0.7 else ""
        return PlayerEntry(pin, code_text=code, name=roster.name(entrant), club_name=with_club)

    def _written_name(self, entrant: Entrant) -> str:
        """The name on record, or with accents stripped, or initials for forenames."""
        name, draw = self.roster.name(entrant), self.rng.random()
        if draw < 0.25:
            return unidecode(name)
        if draw < 0.5:
            initials = " ".join(word[0] for word in self.roster.forenames[entrant].split())
            return f"{self.roster.surname[entrant]}, {initials}"
        return name


def _scores(rng: Rng, strength1: NDArray[np.float64], strength2: NDArray[np.float64]) -> IntArray:
    """Result codes: 50 grade points is ten-to-one odds (an ECF point is 8 Elo points)."""
    difference = strength1 - strength2
    n = int(difference.shape[0])
    expected = 1.0 / (1.0 + 10.0 ** (-difference / 50.0))
    drawn = np.minimum(
        0.3 * np.exp(-np.abs(difference) / 80.0), 2 * np.minimum(expected, 1 - expected)
    )
    u = rng.random(n)
    codes = np.full(n, int(ResultCode.LOSS))
    codes[u < expected + drawn / 2] = int(ResultCode.DRAW)
    codes[u < expected - drawn / 2] = int(ResultCode.WIN)
    defaults = rng.random(n) < DEFAULT_SHARE
    codes[defaults] = rng.choice(
        [int(ResultCode.DEFAULT_WIN), int(ResultCode.DEFAULT_LOSS), int(ResultCode.DOUBLE_DEFAULT)],
        int(defaults.sum()),
        p=[0.45, 0.45, 0.1],
    )
    return codes


def _results_part(part: _Part, pins: dict[Entrant, int]) -> ResultsPart:
    return ResultsPart(
        part.kind,
        part.name,
        white_on=part.white_on,
        games=tuple(
            GameResult(
                pins[game.first],
                game.score,
                pins[game.second],
                colour=game.colour,
                game_date=game.day,
                board=game.board,
                round=game.round,
            )
            for game in part.games
        ),
    )


def main() -> None:
    import time

    start = time.perf_counter()
    season = generate_season()
    seconds = time.perf_counter() - start
    size = sum(len(data) for _, data in season.files)
    print(
        f"{season.games:,} games in {len(season.files):,} files ({size / 1e6:.1f} MB) "
        f"in {seconds:.2f} s; events {dict(season.events)}; players {dict(season.references)}"
    )


if __name__ == "__main__":
    main()
