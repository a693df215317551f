"""A seeded federation over the three rule sets, June 2009 to June 2016 (G31..G42).

About 120 players start from a published list for July 2009 (a CSV, as the federation's
own ``gradesYYYYMM.csv``) or join later, and play standard and rapid events each month;
each event is one results file, received by the cut-off of the list whose last
half-year (H0, G32) it lies in. The players are drawn so that the federation holds what
the rule sets treat differently:

- heavy players with 30 or more standard games in a half-year (X under ecf-2012, G36),
  some of them heavy in alternate half-years only (30 or more in P0 but not in H0: A,
  the 30 most recent under ecf-2012, G35, all of P0 under ecf-2015, G37);
- rapid enthusiasts with 30 or more rapid games in a half-year (X in both earlier sets);
- regular and casual players short of the target (brought forward: notional games
  G14, most recent games G15/G35, whole half-years and pro rata G38);
- sparse players with a handful of games in three years (F under ecf-2015, G39, G40);
- returners who stop for one to five half-years and come back (P1/P2 read from lists
  a year and two years back, G34; estimated again with their history, G10);
- juniors on the list and joining later, some ageing out during the span (G7, G20,
  G42), and adult newcomers with no code (estimated, G7..G9);
- games of every half-year, the 7-month transition half-year June-December 2011 too.

Everything is decided by ``random.Random(seed)``: the same seed gives the same bytes.
Players on the starting list are given by code in every file; newcomers by name, club
and date of birth only, all surnames far apart, so that identification creates each
newcomer once and links him after (no identification case is left for a person).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import IntEnum, StrEnum

from ecfgrading.engine import GradingCode, Rate

SEED = 2016
START_LIST_ID = "2009-07"  # the published list the federation starts from
FIRST_CODE = 300_001
FIRST_MONTH = date(2009, 6, 1)  # events from here ...
LAST_MONTH = date(2016, 6, 1)  # ... to the end of this month
HALF_YEARS = 14  # G32: Jun-Nov 2009 .. Jan-Jun 2016, the transition one included


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


SURNAMES = _words("""
Abbott Bamford Carver Dalton Eastwood Fairbairn Gallagher Hadley Ingram Jarvis Kendrick
Lambert Mackenzie Nesbitt Oakley Pickering Quayle Radcliffe Sherwood Tennant Underhill
Vickers Wainwright Ashdown Blackburn Cartwright Drummond Ellison Fenwick Goodall Holloway
Ireton Jennings Kirkwood Lockhart Merriman Northcott Osborne Pemberton Quilter Rowntree
Stainton Thackeray Upjohn Villiers Whitfield Youngman Alderton Brocklehurst Cholmondeley
Dimmock Eversley Fothergill Grimshaw Haworth Illingworth Jowett Kershaw Lumsden Mountford
Nuttall Ormerod Pilkington Ramsbottom Sutcliffe Tattersall Uttley Vasey Wolstenholme
Bairstow Crowther Dewhurst Entwistle Fielden Greenhalgh Hargreaves Ibbotson Jagger Knowles
Longbottom Marsden Naylor Pickles Sugden Thwaites Varley Whiteley Ackroyd Brearley
Cawthorne Dobson Emmott Firth Gaukroger Holroyd Ineson Judson Kilburn Lister Mitchell
Normington Priestley Redman Schofield Townend Walmsley Buckley Clegg Duckworth Eccles
Farrar Garside Halstead Jessop Kitching Leadbeater Moorhouse Nettleton Pollard Shackleton
Tomlinson Brooksbank Cockcroft Dyson Greenwood
""")  # pairwise rapidfuzz ratio below 80: no newcomer looks like anyone else
FORENAMES = _words("""
Adam Brian Carol Derek Elaine Frank Gillian Harold Irene James Keith Linda Martin Norma
Oliver Pauline Robert Sandra Trevor Ursula Victor Wendy
""")
CLUBS = ("Anytown", "Bigcity", "Castleton", "Dunford", "Eastbridge", "Fenley")

STANDARD_CONTROL = "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n#MINUTES REST OF GAME=30"
LEAGUE_CONTROL = "#MINUTES FOR GAME=75\n#SECONDS PER MOVE=15"  # 90: standard
CLUB_CONTROL = "#MINUTES FOR GAME=60"  # exactly 60: standard (G2)
RAPID_CONTROL = "#MINUTES FOR GAME=25\n#SECONDS PER MOVE=10"  # 35: rapid
QUICK_CONTROL = "#MINUTES FOR GAME=15"  # exactly 15: rapid (G2)


class Level(IntEnum):
    """How keen a player is on a rate in one half-year."""

    NONE = 0
    SPARSE = 1  # an event now and then, a round or three of it
    LOW = 2
    MID = 3
    HIGH = 4
    HEAVY = 5  # club nights every week as well: 30 or more games a half-year


# Chance of playing in one event (congress, rapidplay) or one evening (league, club).
CONGRESS = {Level.SPARSE: 0.08, Level.LOW: 0.15, Level.MID: 0.35, Level.HIGH: 0.6, Level.HEAVY: 0.8}
LEAGUE = {Level.LOW: 0.1, Level.MID: 0.3, Level.HIGH: 0.5, Level.HEAVY: 0.7}
NIGHTS = {Level.HEAVY: 0.9}


class Kind(StrEnum):
    REGULAR = "regular"
    HEAVY = "heavy"  # standard club nights
    RAPID_FAN = "rapid-fan"  # rapid club nights
    CASUAL = "casual"
    SPARSE = "sparse"
    RETURNER = "returner"  # stops for a while and comes back
    JUNIOR = "junior"  # on the starting list
    NEW_JUNIOR = "new-junior"
    NEWCOMER = "newcomer"


# How many of each, in the order their codes (on the starting list) are issued.
KINDS = (
    (Kind.REGULAR, 34),
    (Kind.HEAVY, 8),
    (Kind.RAPID_FAN, 6),
    (Kind.CASUAL, 16),
    (Kind.SPARSE, 12),
    (Kind.RETURNER, 12),
    (Kind.JUNIOR, 10),
    (Kind.NEW_JUNIOR, 8),
    (Kind.NEWCOMER, 12),
)
NEW = (Kind.NEW_JUNIOR, Kind.NEWCOMER)  # not on the starting list, no code in files


@dataclass(frozen=True)
class Person:
    """A member of the synthetic federation."""

    key: int
    surname: str
    forenames: str
    club: str
    kind: Kind
    born: date | None
    code: int | None  # on the starting list; newcomers get theirs from the system
    standard: int | None  # grade in the starting list (2009-07)
    rapid: int | None
    strength: float  # playing strength in grading points in June 2009
    growth: float  # points gained a year (juniors improve)
    levels: tuple[tuple[Level, Level], ...]  # (standard, rapid) in each half-year

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.forenames}"

    @property
    def ref(self) -> str | None:
        return None if self.code is None else str(GradingCode(self.code))

    def level(self, rate: Rate, half_year: int) -> Level:
        return self.levels[half_year][0 if rate is Rate.STANDARD else 1]

    def strength_on(self, day: date) -> float:
        return self.strength + self.growth * (day - FIRST_MONTH).days / 365.25


@dataclass(frozen=True)
class Game:
    """One result as a file gives it: PIN1's person, SCORE, PIN2's person."""

    order: int  # recording order over the whole federation (G15, G35 tie-break)
    player1: int  # person keys
    player2: int
    score: str  # 10, 01, 55 or a default 1d, d1
    day: date
    rate: Rate


@dataclass(frozen=True)
class ResultsFile:
    """One event's results file, as received."""

    name: str
    code: str
    rate: Rate
    games: tuple[Game, ...]
    data: bytes

    @property
    def final(self) -> date:
        return max(game.day for game in self.games)


@dataclass(frozen=True)
class EraFederation:
    people: tuple[Person, ...]
    files: tuple[ResultsFile, ...]  # in the order received

    @property
    def games(self) -> Iterator[Game]:
        for results in self.files:
            yield from results.games

    def received(self, after: date, by: date) -> list[ResultsFile]:
        """The files whose last game lies after ``after`` and on or before ``by``: those
        received by one cut-off and not by the one before."""
        return [results for results in self.files if after < results.final <= by]

    def start_list(self) -> bytes:
        """The published list for July 2009 (results-file.md section 2)."""
        rows = [_list_row(person) for person in self.people if person.code is not None]
        return (CSV_HEADER + "".join(rows)).encode()


CSV_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)


def _list_row(person: Person) -> str:
    age = _age(person.born, date(2009, 8, 31))
    junior = "" if age is None or age > 17 else str(age)
    standard = ("C", str(person.standard), str(person.standard), "30") if person.standard else ""
    rapid = ("D", str(person.rapid), str(person.rapid), "15") if person.rapid else ""
    fields = [
        person.ref or "",
        f'"{person.name}"',
        "M",
        junior,
        *(standard or ("", "", "", "")),
        *(rapid or ("", "", "", "")),
        person.club,
        *[""] * 5,
        "",
        "ENG",
    ]
    return ",".join(fields) + "\n"


def _age(born: date | None, on: date) -> int | None:
    if born is None:
        return None
    return on.year - born.year - int((on.month, on.day) < (born.month, born.day))


# --- the calendar of play -----------------------------------------------------------------


def half_year_of(day: date) -> int:
    """G32's half-years numbered from 0 (June-November 2009) to 13 (January-June 2016):
    December-May and June-November to May 2011, then June-December 2011, then calendar
    halves."""
    if day < date(2011, 6, 1):
        return _months(FIRST_MONTH, day) // 6
    if day <= date(2011, 12, 31):
        return 4
    return 5 + _months(date(2012, 1, 1), day) // 6


def _months(start: date, day: date) -> int:
    return (day.year - start.year) * 12 + day.month - start.month


def months() -> Iterator[date]:
    day = FIRST_MONTH
    while day <= LAST_MONTH:
        yield day
        day = date(day.year + day.month // 12, day.month % 12 + 1, 1)


def weekdays(month: date, weekday: int) -> list[date]:
    """Every ``weekday`` (Monday 0) of the month."""
    day = month + timedelta(days=(weekday - month.weekday()) % 7)
    found = []
    while day.month == month.month:
        found.append(day)
        day += timedelta(days=7)
    return found


# --- the people -----------------------------------------------------------------------------


def _people(rng: random.Random) -> tuple[Person, ...]:
    surnames = rng.sample(SURNAMES, sum(n for _, n in KINDS))
    people: list[Person] = []
    code = FIRST_CODE
    for kind, n in KINDS:
        for _ in range(n):
            key = len(people)
            listed = kind not in NEW
            person = _person(rng, key, surnames[key], kind, code if listed else None)
            people.append(person)
            code += int(listed)
    return tuple(people)


def _person(rng: random.Random, key: int, surname: str, kind: Kind, code: int | None) -> Person:
    junior = kind in (Kind.JUNIOR, Kind.NEW_JUNIOR)
    if junior:  # aged 8..17 in August 2009 (JUNIOR) or 4..11 (joining later)
        low, high = (1992, 2001) if kind is Kind.JUNIOR else (1998, 2005)
        born: date | None = date(rng.randint(low, high), rng.randint(1, 12), rng.randint(1, 28))
    elif kind is Kind.NEWCOMER or rng.random() < 0.3:  # newcomers are found by birth date
        born = date(rng.randint(1945, 1990), rng.randint(1, 12), rng.randint(1, 28))
    else:
        born = None
    strength = rng.gauss(90, 20) if junior else rng.gauss(140, 30)
    listed = code is not None
    standard = round(strength + rng.gauss(0, 8)) if listed else None
    rapid = round(strength + rng.gauss(0, 10)) if listed and rng.random() < 0.6 else None
    return Person(
        key=key,
        surname=surname,
        forenames=rng.choice(FORENAMES),
        club=rng.choice(CLUBS),
        kind=kind,
        born=born,
        code=code,
        standard=max(standard, 20) if standard is not None else None,
        rapid=max(rapid, 20) if rapid is not None else None,
        strength=strength,
        growth=rng.uniform(6, 14) if junior else rng.gauss(0, 1.5),
        levels=_levels(rng, kind),
    )


def _levels(rng: random.Random, kind: Kind) -> tuple[tuple[Level, Level], ...]:
    """(standard, rapid) keenness in each half-year, by kind."""
    pick = rng.choice
    if kind is Kind.REGULAR:
        rapid = pick([Level.NONE, Level.LOW, Level.MID])
        return tuple((pick([Level.MID, Level.HIGH]), rapid) for _ in range(HALF_YEARS))
    if kind is Kind.HEAVY:  # every half-year, or every other one (A without X)
        alternate = rng.random() < 0.5
        return tuple(
            (Level.MID if alternate and h % 2 else Level.HEAVY, Level.LOW)
            for h in range(HALF_YEARS)
        )
    if kind is Kind.RAPID_FAN:
        return tuple((pick([Level.LOW, Level.MID]), Level.HEAVY) for _ in range(HALF_YEARS))
    if kind is Kind.CASUAL:
        rapid = pick([Level.NONE, Level.SPARSE, Level.LOW])
        return tuple((Level.LOW, rapid) for _ in range(HALF_YEARS))
    if kind is Kind.SPARSE:
        rapid = pick([Level.NONE, Level.SPARSE])
        return tuple((Level.SPARSE, rapid) for _ in range(HALF_YEARS))
    if kind is Kind.RETURNER:  # away for 1..5 half-years from the 2nd..10th
        away = range(start := rng.randint(1, 9), start + rng.randint(1, 5))
        keen = (pick([Level.MID, Level.HIGH]), pick([Level.LOW, Level.MID]))
        return tuple((Level.NONE, Level.NONE) if h in away else keen for h in range(HALF_YEARS))
    keen = (pick([Level.LOW, Level.MID, Level.HIGH]), pick([Level.LOW, Level.MID]))
    if kind is Kind.JUNIOR:
        return tuple(keen for _ in range(HALF_YEARS))
    first = rng.randint(1, 12)  # newcomers join in a later half-year
    return tuple(keen if h >= first else (Level.NONE, Level.NONE) for h in range(HALF_YEARS))


# --- the events -----------------------------------------------------------------------------

Played = tuple[int, str, int, date, int]  # player1, SCORE, player2, day, round


@dataclass(frozen=True)
class Part:
    """A part of a results file: SECTION, MATCH or OTHER RESULTS, and its games."""

    kind: str  # SECTION, MATCH or OTHER
    name: str
    games: tuple[Played, ...]


@dataclass(frozen=True)
class Event:
    """An event before it is written."""

    code: str
    name: str
    rate: Rate
    control: str
    parts: tuple[Part, ...]

    @property
    def games(self) -> list[Played]:
        return [game for part in self.parts for game in part.games]


class _Play:
    """Pairings and results of one month's events."""

    def __init__(self, rng: random.Random, people: Sequence[Person]) -> None:
        self.rng = rng
        self.people = people

    def keen(self, rate: Rate, half_year: int, chances: dict[Level, float]) -> list[int]:
        """Who takes part, each with his level's chance."""
        chosen = []
        for person in self.people:
            chance = chances.get(person.level(rate, half_year), 0.0)
            if self.rng.random() < chance:
                chosen.append(person.key)
        return chosen

    def result(self, a: int, b: int, day: date) -> str:
        """A result by strength, now and then a default (G1: recorded, never graded)."""
        if self.rng.random() < 0.01:
            return self.rng.choice(["1d", "d1"])
        gap = self.people[a].strength_on(day) - self.people[b].strength_on(day)
        expected = 1 / (1 + 10 ** (-gap * 8 / 400))
        draw = 0.3 * (1 - abs(2 * expected - 1))
        roll = self.rng.random()
        if roll < expected - draw / 2:
            return "10"
        return "55" if roll < expected + draw / 2 else "01"

    def pairs(self, entrants: list[int]) -> list[tuple[int, int]]:
        shuffled = entrants[:]
        self.rng.shuffle(shuffled)
        return list(zip(shuffled[0::2], shuffled[1::2], strict=False))

    def rounds(
        self, entrants: list[int], days: Sequence[date], last_round: dict[int, int]
    ) -> tuple[Played, ...]:
        """Swiss-like rounds, one per entry of ``days``; a player leaves after his
        ``last_round`` (sparse players play a round or three)."""
        games = []
        for number, day in enumerate(days, start=1):
            playing = [p for p in entrants if last_round.get(p, len(days)) >= number]
            for a, b in self.pairs(playing):
                games.append((a, self.result(a, b, day), b, day, number))
        return tuple(games)

    def congress(self, month: date, rate: Rate) -> Part:
        h = half_year_of(month)
        entrants = self.keen(rate, h, CONGRESS)
        sparse = [p for p in entrants if self.people[p].level(rate, h) is Level.SPARSE]
        last_round = {p: self.rng.randint(1, 3) for p in sparse}
        if rate is Rate.STANDARD:  # second weekend: three rounds Saturday, two Sunday
            saturday = weekdays(month, 5)[1]
            days = [saturday] * 3 + [saturday + timedelta(days=1)] * 2
        else:  # the last Saturday: six rounds
            days = [weekdays(month, 5)[-1]] * 6
        return Part("SECTION", "Open", self.rounds(entrants, days, last_round))

    def evenings(
        self, month: date, rate: Rate, weekday: int, chances: dict[Level, float], rounds: int
    ) -> list[tuple[date, tuple[Played, ...]]]:
        h = half_year_of(month)
        return [
            (day, self.rounds(self.keen(rate, h, chances), [day] * rounds, {}))
            for day in weekdays(month, weekday)
        ]

    def league(self, month: date) -> list[Part]:
        """A match part each Tuesday, and the heavy players' Thursday club nights."""
        matches = self.evenings(month, Rate.STANDARD, 1, LEAGUE, 1)
        nights = self.evenings(month, Rate.STANDARD, 3, NIGHTS, 2)
        parts = [Part("MATCH", f"League {day:%d/%m/%Y}", games) for day, games in matches]
        parts.append(Part("OTHER", "Club nights", sum((g for _, g in nights), ())))
        return parts

    def rapid(self, month: date) -> list[Part]:
        """The rapidplay, and the rapid enthusiasts' Wednesday nights."""
        nights = self.evenings(month, Rate.RAPID, 2, NIGHTS, 2)
        night_games = sum((games for _, games in nights), ())
        return [self.congress(month, Rate.RAPID), Part("OTHER", "Rapid nights", night_games)]


def _events(rng: random.Random, people: Sequence[Person]) -> list[Event]:
    """Three files a month; every other month the time controls sit on G2's limits."""
    play = _Play(rng, people)
    events = []
    for n, month in enumerate(months()):
        stamp, when = f"{month:%y%m}", f"{month:%B %Y}"
        league, rapid = (CLUB_CONTROL, QUICK_CONTROL) if n % 2 else (LEAGUE_CONTROL, RAPID_CONTROL)
        events += [
            Event(
                f"SC{stamp}",
                f"Congress {when}",
                Rate.STANDARD,
                STANDARD_CONTROL,
                (play.congress(month, Rate.STANDARD),),
            ),
            Event(f"LG{stamp}", f"League {when}", Rate.STANDARD, league, tuple(play.league(month))),
            Event(f"RP{stamp}", f"Rapid {when}", Rate.RAPID, rapid, tuple(play.rapid(month))),
        ]
    return [
        Event(e.code, e.name, e.rate, e.control, tuple(p for p in e.parts if p.games))
        for e in events
        if e.games
    ]


# --- the files ------------------------------------------------------------------------------


def _write(event: Event, people: Sequence[Person], first_order: int) -> ResultsFile:
    """The results file of an event (results-file.md), its games numbered from
    ``first_order`` in the order written."""
    keys = list(dict.fromkeys(k for a, _, b, _, _ in event.games for k in (a, b)))
    pins = {key: pin for pin, key in enumerate(keys, start=1)}
    days = [game[3] for game in event.games]
    lines = [
        "#EVENT DETAILS",
        f"#EVENT CODE={event.code}",
        "#SUBMISSION INDEX=1",
        f"#EVENT NAME={event.name}",
        f"#EVENT DATE={min(days):%d/%m/%Y}",
        f"#FINAL RESULT DATE={max(days):%d/%m/%Y}",
        "#RESULTS OFFICER=A N Grader",
        "#RESULTS OFFICER ADDRESS=1 High Street, Anytown",
        "#TREASURER=A Treasurer",
        "#TREASURER ADDRESS=2 High Street, Anytown",
        event.control,
        "#PLAYER LIST",
        *(_player_line(pins[key], people[key]) for key in keys),
    ]
    games: list[Game] = []
    for part in event.parts:
        lines.append(f"#{part.kind} RESULTS={part.name}")
        for board, (a, score, b, day, round_number) in enumerate(part.games, start=1):
            where = {"SECTION": f"#ROUND={round_number}", "MATCH": f"#BOARD={board}"}
            lines.append(
                f"#PIN1={pins[a]}#SCORE={score}#PIN2={pins[b]}{where.get(part.kind, '')}"
                f"#GAME DATE={day:%d/%m/%Y}"
            )
            games.append(Game(first_order + len(games), a, b, score, day, event.rate))
    lines.append("#FINISH")
    data = ("\n".join(lines) + "\n").encode()
    return ResultsFile(f"{event.code}.txt", event.code, event.rate, tuple(games), data)


def _player_line(pin: int, person: Person) -> str:
    fields = [f"#PIN={pin}"]
    if person.ref is not None:
        fields.append(f"#REF={person.ref}")
    fields.append(f"#NAME={person.name}")
    if person.born is not None:
        fields.append(f"#DATE OF BIRTH={person.born:%d/%m/%Y}")
    fields.append(f"#CLUB NAME={person.club}")
    return "".join(fields)


def build(seed: int = SEED) -> EraFederation:
    """The federation of ``seed``: its people and its files in the order received (by
    the last game date, then event code)."""
    rng = random.Random(seed)
    people = _people(rng)
    events = sorted(_events(rng, people), key=lambda e: (max(g[3] for g in e.games), e.code))
    files, order = [], 1
    for event in events:
        files.append(_write(event, people, order))
        order += len(event.games)
    return EraFederation(people, tuple(files))
