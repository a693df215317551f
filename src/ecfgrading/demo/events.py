"""Events as they were played: who met whom, when, and how it went.

These are the demo's own records, by player index; ``files`` turns each into the
results file an organiser would have sent, where players are PINs with names and codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from functools import cache
from typing import overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ecfgrading.demo.people import People
from ecfgrading.demo.places import Club
from ecfgrading.demo.sizes import DemoSize
from ecfgrading.engine.rateplay import Session, TimeControl
from ecfgrading.formats.results_model import Colour, PartKind, WhiteOn

Rng = np.random.Generator


class EventKind(StrEnum):
    LEAGUE = "league"
    COUNTY = "county matches"
    CLUB = "club championship"
    CONGRESS = "congress"
    RAPIDPLAY = "rapidplay"
    JUNIOR = "junior"
    LIGHTNING = "lightning"
    ONLINE = "online"

    @property
    def prefix(self) -> str:
        """The event code's two letters: 'CG100012' is a congress of 2009-10."""
        return _PREFIXES[self]


_PREFIXES = {
    EventKind.LEAGUE: "LG",
    EventKind.COUNTY: "CM",
    EventKind.CLUB: "CC",
    EventKind.CONGRESS: "CG",
    EventKind.RAPIDPLAY: "RP",
    EventKind.JUNIOR: "JR",
    EventKind.LIGHTNING: "LT",
    EventKind.ONLINE: "OL",
}


@dataclass(frozen=True, slots=True)  # a national demo holds 1.2 million of them
class Played:
    """One game; ``code`` is a ResultCode value from ``first``'s side (PIN1)."""

    first: int
    second: int
    code: int
    day: date
    colour: Colour | None = None  # PIN1's, when the file gives colours
    board: int | None = None
    round: int | None = None


COLOURS: tuple[Colour | None, ...] = (None, Colour.WHITE, Colour.BLACK)
# A game's columns in ``Games.rows``; 0 stands for None in colour, board and round.
FIRST, SECOND, CODE, DAY, COLOUR, BOARD, ROUND = range(7)


@cache
def _day(ordinal: int) -> date:
    return date.fromordinal(ordinal)


class Games(Sequence[Played]):
    """A part's games as one small array, a row a game (``FIRST`` .. ``ROUND``), read as
    ``Played`` values. A national demo plays 1.2 million games: held as objects until
    their files are written, they were half of the generator's memory."""

    __slots__ = ("rows",)

    def __init__(self, rows: NDArray[np.int32]) -> None:
        self.rows = rows

    @classmethod
    def of(
        cls,
        first: ArrayLike,
        second: ArrayLike,
        codes: ArrayLike,
        day: date,
        *,
        colour: Colour | None = None,
        board: ArrayLike | None = None,
        round: int | None = None,
    ) -> Games:
        """Games played on ``day``: the players and result codes side by side."""
        codes = np.asarray(codes)
        rows = np.empty((len(codes), 7), dtype=np.int32)
        rows[:, FIRST], rows[:, SECOND], rows[:, CODE] = first, second, codes
        rows[:, DAY], rows[:, COLOUR] = day.toordinal(), COLOURS.index(colour)
        rows[:, BOARD] = 0 if board is None else board
        rows[:, ROUND] = round or 0
        return cls(rows)

    @classmethod
    def boards(
        cls, home: NDArray[np.int64], away: NDArray[np.int64], codes: ArrayLike, days: list[date]
    ) -> list[Games]:
        """Matches, one a row of ``home``, ``away`` and ``codes`` (boards 1, 2, 3...), the
        row's match played on its day: each match's games, as ``of`` makes them."""
        matches, boards = home.shape
        rows = np.empty((matches, boards, 7), dtype=np.int32)
        rows[..., FIRST], rows[..., SECOND], rows[..., CODE] = home, away, codes
        rows[..., DAY] = np.array([day.toordinal() for day in days])[:, np.newaxis]
        rows[..., COLOUR], rows[..., BOARD], rows[..., ROUND] = 0, np.arange(1, boards + 1), 0
        return [cls(match) for match in rows]

    @classmethod
    def from_played(cls, games: Iterable[Played]) -> Games:
        rows = [_row(game) for game in games]
        return cls(np.array(rows, dtype=np.int32).reshape(len(rows), 7))

    @classmethod
    def join(cls, parts: Iterable[Games]) -> Games:
        """The games of ``parts`` one after the other."""
        rows = [part.rows for part in parts]
        return cls(np.concatenate(rows) if rows else np.empty((0, 7), dtype=np.int32))

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> Played: ...

    @overload
    def __getitem__(self, index: slice) -> Games: ...

    def __getitem__(self, index: int | slice) -> Played | Games:
        if isinstance(index, slice):
            return Games(self.rows[index])
        return _played(self.rows[index].tolist())

    def __iter__(self) -> Iterator[Played]:
        return map(_played, self.rows.tolist())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Games):
            return NotImplemented
        return bool(np.array_equal(self.rows, other.rows))

    def __hash__(self) -> int:
        return hash(self.rows.tobytes())

    def __repr__(self) -> str:
        return f"Games({len(self)} games)"

    @property
    def days(self) -> NDArray[np.int32]:
        """Each game's day, as an ordinal (``date.toordinal``)."""
        return self.rows[:, DAY]

    @property
    def codes(self) -> NDArray[np.int32]:
        return self.rows[:, CODE]

    def players(self) -> list[int]:
        """Every game's PIN1 and PIN2 player, in order: players in order of appearance."""
        players: list[int] = self.rows[:, :2].ravel().tolist()
        return players


def _row(game: Played) -> tuple[int, ...]:
    colour = COLOURS.index(game.colour)
    day = game.day.toordinal()
    return (game.first, game.second, game.code, day, colour, game.board or 0, game.round or 0)


def _played(row: list[int]) -> Played:
    first, second, code, day, colour, board, round_ = row
    return Played(first, second, code, _day(day), COLOURS[colour], board or None, round_ or None)


@dataclass(frozen=True)
class PlayedPart:
    kind: PartKind
    name: str
    games: Games
    white_on: WhiteOn | None = None
    results_date: date | None = None


@dataclass(frozen=True)
class PlayedEvent:
    code: str
    name: str
    kind: EventKind
    season: int
    control: TimeControl
    parts: tuple[PlayedPart, ...]
    county: str  # where it was played: its officer and treasurer live there
    received: date = date.min  # set once the event is over (schedule)
    late: bool = False  # received only after the initial July list
    order: tuple[int, ...] = field(default=(), compare=False)  # the player list's order

    @property
    def first_day(self) -> date:
        return _day(int(self._days.min()))

    @property
    def last_day(self) -> date:
        return _day(int(self._days.max()))

    @property
    def _days(self) -> NDArray[np.int32]:
        return np.concatenate([part.games.days for part in self.parts if part.games])

    @property
    def games(self) -> int:
        return sum(len(part.games) for part in self.parts)

    def players(self) -> list[int]:
        """The player list: ``order`` when given, then anyone else in order of appearance."""
        seen = dict.fromkeys(self.order)
        if self.parts:
            sides = np.concatenate([part.games.rows[:, :2] for part in self.parts])
            seen.update(dict.fromkeys(sides.ravel().tolist()))
        return list(seen)


class EventCodes:
    """Issues event codes: kind, season's ending year and a serial ('LG100003')."""

    def __init__(self) -> None:
        self._issued: dict[tuple[EventKind, int], int] = {}

    def issue(self, kind: EventKind, season: int) -> str:
        serial = self._issued.get((kind, season), 0) + 1
        self._issued[(kind, season)] = serial
        return f"{kind.prefix}{(2009 + season) % 100:02d}{serial:04d}"


@dataclass
class World:
    """What every event generator draws from."""

    rng: Rng
    seed: int
    size: DemoSize
    people: People
    clubs: list[Club]
    counties: list[str]
    codes: EventCodes = field(default_factory=EventCodes)
    _juniors: dict[int, np.ndarray] = field(default_factory=dict)
    _counties: dict[int, np.ndarray] = field(default_factory=dict)

    def juniors(self, season: int) -> np.ndarray:
        """Who is a junior this season (computed once: every file asks)."""
        if season not in self._juniors:
            self._juniors[season] = self.people.juniors(season)
        return self._juniors[season]

    def county_of(self, season: int) -> np.ndarray:
        """Each player's county in a season (that of his club or location)."""
        if season not in self._counties:
            county_index = {name: i for i, name in enumerate(self.counties)}
            by_club = np.array([county_index[club.county] for club in self.clubs])
            self._counties[season] = by_club[self.people.club[:, season]]
        return self._counties[season]

    def pick(self, options: list[TimeControl], weights: tuple[float, ...]) -> TimeControl:
        return options[int(self.rng.choice(len(options), p=np.array(weights) / sum(weights)))]


# -- time controls (G2) ------------------------------------------------------------------

# 'MOVES FIRST SESSION=30, MINUTES FIRST SESSION=75, MINUTES REST OF GAME=15': T = 90.
LEAGUE_CONTROLS = [
    TimeControl((Session(75.0, 30),), rest_minutes=15.0),
    TimeControl((Session(80.0, 35),), rest_minutes=15.0),
    TimeControl.game(75.0, 10.0),
]
CONGRESS_CONTROLS = [
    TimeControl((Session(90.0, 36),), rest_minutes=15.0),
    TimeControl.game(90.0, 30.0),
    TimeControl((Session(100.0, 40), Session(50.0, 20)), rest_minutes=15.0),
]
CLUB_CONTROLS = [TimeControl((Session(90.0, 36),), rest_minutes=15.0), TimeControl.game(100.0)]
COUNTY_CONTROLS = [
    TimeControl((Session(120.0, 40),), rest_minutes=30.0),
    TimeControl((Session(105.0, 35),), rest_minutes=20.0),
]
RAPID_CONTROLS = [TimeControl.game(30.0), TimeControl.game(25.0, 10.0)]
JUNIOR_STANDARD_CONTROLS = [TimeControl.game(75.0), TimeControl.game(60.0, 15.0)]
LIGHTNING_CONTROLS = [TimeControl.game(5.0), TimeControl.game(5.0, 3.0)]
ONLINE_CONTROLS = [
    TimeControl((Session(10.0),), increment_seconds=5.0, environment="ONLINE"),
    TimeControl((Session(15.0),), increment_seconds=10.0, environment="ONLINE"),
]
