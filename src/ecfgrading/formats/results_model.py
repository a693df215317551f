"""A results file as values: event, players, parts and games (results-file.md, section 1)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from datetime import date
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import Any, overload

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rateplay import TimeControl
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.names import full_name
from ecfgrading.pickled import by_fields, made_by


class PartKind(StrEnum):
    """The three kinds of results part; the value is the field name."""

    MATCH = "MATCH RESULTS"
    SECTION = "SECTION RESULTS"
    OTHER = "OTHER RESULTS"


class Colour(StrEnum):
    """PIN1's colour."""

    WHITE = "WHITE"
    BLACK = "BLACK"


class WhiteOn(StrEnum):
    """Which boards PIN1 had white on in a part (``WHITE ON``)."""

    ALL = "ALL"
    ODD = "ODD"
    EVEN = "EVEN"
    NONE = "NONE"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class EventDetails:
    """The EVENT DETAILS fields; a missing mandatory field is '' or None (and an error)."""

    code: str = ""
    submission_index: int | None = None
    name: str = ""
    event_date: date | None = None  # first day
    final_result_date: date | None = None  # last day
    results_officer: str = ""
    results_officer_address: tuple[str, ...] = ()
    treasurer: str = ""
    treasurer_address: tuple[str, ...] = ()
    time_control: TimeControl | None = None  # carries ENVIRONMENT too
    adjudicated: str | None = None  # None: absent; '': given without a value
    inform_grand_prix: str | None = None
    inform_fide: str | None = None
    inform_chessmoves: str | None = None
    inform_union: str | None = None
    line: int = field(default=0, compare=False)
    # Canonical field name -> line of its first occurrence, for later (database) checks.
    field_lines: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Its fields, to be pickled (a file read by another process, issue 25): the
        read-only view of ``field_lines`` as the plain dict it shows."""
        return {**self.__dict__, "field_lines": dict(self.field_lines)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        lines = state["field_lines"]
        self.__dict__.update(state, field_lines=MappingProxyType(lines))


@by_fields
@dataclass(frozen=True)
class PlayerEntry:
    """One player set; ``code`` is the parsed ``code_text`` when that is a valid code."""

    pin: int
    code_text: str = ""  # REF, ECF CODE or BCF CODE, as written
    code: GradingCode | None = None
    name: str = ""  # 'Surname, Forenames'
    surname: str = ""  # the older three fields
    forename: str = ""
    initials: str = ""
    gender: str = ""
    title: str = ""
    date_of_birth: date | None = None
    club_code: str = ""
    club_name: str = ""
    club_county: str = ""
    membership_no: str = ""  # ECF NO or BCF NO
    fide_no: str = ""
    comment: str = ""
    line: int = field(default=0, compare=False)

    @property
    def full_name(self) -> str:
        """NAME, or 'Surname, Forename Initials' built from the older fields."""
        if self.name:
            return self.name
        given = " ".join(part for part in (self.forename, self.initials) if part)
        return full_name(self.surname, given)


@by_fields
@dataclass(frozen=True)
class GameResult:
    """One result set; ``score`` is from PIN1's side (G1)."""

    pin1: int
    score: ResultCode
    pin2: int
    colour: Colour | None = None
    game_date: date | None = None
    board: int | None = None
    round: int | None = None
    comment: str = ""
    line: int = field(default=0, compare=False)


# A reader makes hundreds of thousands of records (a season: 200,000 games, 80,000
# players): these make them without the frozen ``__init__``'s ``object.__setattr__`` for
# each field, most of the cost of a game. Each value is stored straight into the record's
# ``__dict__``, in the order of the fields, so that the dict shares its keys with every
# other record's as those of ``__init__`` do (a dict of its own takes 40% more room).


def game_at_once(
    pin1: int,
    score: ResultCode,
    pin2: int,
    colour: Colour | None,
    game_date: date | None,
    board: int | None,
    round: int | None,
    line: int,
) -> GameResult:
    """``GameResult(...)`` of these fields; no comment (a line in the writer's shape has
    none)."""
    game = _new(GameResult)
    stored = game.__dict__
    stored["pin1"] = pin1
    stored["score"] = score
    stored["pin2"] = pin2
    stored["colour"] = colour
    stored["game_date"] = game_date
    stored["board"] = board
    stored["round"] = round
    stored["comment"] = ""
    stored["line"] = line
    return game


def player_at_once(values: Mapping[str, Any]) -> PlayerEntry:
    """``PlayerEntry(**values)``: ``values`` holds PIN and any other fields."""
    return player_in_order(*[values.get(name, default) for name, default in _PLAYER_DEFAULTS])


def player_in_order(
    pin: int,
    code_text: str,
    code: GradingCode | None,
    name: str,
    surname: str,
    forename: str,
    initials: str,
    gender: str,
    title: str,
    date_of_birth: date | None,
    club_code: str,
    club_name: str,
    club_county: str,
    membership_no: str,
    fide_no: str,
    comment: str,
    line: int,
) -> PlayerEntry:
    """``PlayerEntry(...)`` of every field, in the order of the fields."""
    player = _new(PlayerEntry)
    stored = player.__dict__
    stored["pin"] = pin
    stored["code_text"] = code_text
    stored["code"] = code
    stored["name"] = name
    stored["surname"] = surname
    stored["forename"] = forename
    stored["initials"] = initials
    stored["gender"] = gender
    stored["title"] = title
    stored["date_of_birth"] = date_of_birth
    stored["club_code"] = club_code
    stored["club_name"] = club_name
    stored["club_county"] = club_county
    stored["membership_no"] = membership_no
    stored["fide_no"] = fide_no
    stored["comment"] = comment
    stored["line"] = line
    return player


def _defaults(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    """Each field in order, with its default (MISSING for one without); a record whose
    ``__init__`` does more than set its fields (a factory, ``__post_init__``) is refused."""
    if hasattr(cls, "__post_init__") or any(f.default_factory is not MISSING for f in fields(cls)):
        raise TypeError(f"{cls.__name__} is made by its __init__ only")
    return tuple((f.name, f.default) for f in fields(cls))


def _check_stored_in_order(cls: type[Any], made: object) -> None:
    """A maker above stores every field of ``cls``, in the order of its fields."""
    if list(vars(made)) != [f.name for f in fields(cls)]:
        raise TypeError(f"the maker of {cls.__name__} does not store its fields in order")


_new = object.__new__
_PLAYER_DEFAULTS = _defaults(PlayerEntry)
_check_stored_in_order(PlayerEntry, player_at_once({"pin": 0}))
_check_stored_in_order(GameResult, game_at_once(0, ResultCode.WIN, 0, None, None, None, None, 0))


# A game's fields in order: a ``GameRows`` row.
GameFields = tuple[
    int, ResultCode, int, Colour | None, date | None, int | None, int | None, str, int
]
_GAME_FIELDS = tuple(f.name for f in fields(GameResult))
_values_of_game = attrgetter(*_GAME_FIELDS)
_game_made = made_by(GameResult)


class GameRows(Sequence[GameResult]):
    """A part's games as a reading process sends them (issue 25): each game the tuple of
    its fields, in order (``GameFields``), made a ``GameResult`` only when one is asked for.
    The importer writes the rows and takes their fingerprints as they are (``rows_of``):
    a season's 200,000 games were made again as records, field by field, to be read so
    once. Equal to the tuple of the same games."""

    __slots__ = ("_games", "rows")

    def __init__(self, rows: tuple[GameFields, ...]) -> None:
        self.rows = rows
        self._games: tuple[GameResult, ...] | None = None

    def games(self) -> tuple[GameResult, ...]:
        """The games as records, made once."""
        if self._games is None:
            made = _game_made
            self._games = tuple([made(*row) for row in self.rows])
        return self._games

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> GameResult: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[GameResult, ...]: ...
    def __getitem__(self, index: int | slice) -> GameResult | tuple[GameResult, ...]:
        return self.games()[index]

    def __iter__(self) -> Iterator[GameResult]:
        return iter(self.games())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GameRows):
            return self.games() == other.games()
        if isinstance(other, tuple):
            return self.games() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.games())

    def __repr__(self) -> str:
        return repr(self.games())

    def __reduce__(self) -> tuple[type[GameRows], tuple[tuple[GameFields, ...]]]:
        return GameRows, (self.rows,)


def rows_of(games: Sequence[GameResult]) -> tuple[GameFields, ...]:
    """Each game's fields in order: the rows themselves of games sent as rows."""
    if isinstance(games, GameRows):
        return games.rows
    values = _values_of_game
    return tuple([values(game) for game in games])


@dataclass(frozen=True)
class ResultsPart:
    """MATCH, SECTION or OTHER RESULTS: a name, part fields and games. Pickled with its
    games as rows (``GameRows``), and so copied (``copy``, ``deepcopy``): read its games
    as a sequence, not as a tuple."""

    kind: PartKind
    name: str = ""
    white_on: WhiteOn | None = None
    results_date: date | None = None
    games: Sequence[GameResult] = ()
    line: int = field(default=0, compare=False)

    def __reduce_ex__(self, protocol: Any) -> Any:
        if type(self) is not ResultsPart:
            return object.__reduce_ex__(self, protocol)
        sent = GameRows(rows_of(self.games))
        return ResultsPart, (
            self.kind,
            self.name,
            self.white_on,
            self.results_date,
            sent,
            self.line,
        )


@dataclass(frozen=True)
class ResultsFile:
    """A whole results file; line numbers are kept but never compared."""

    event: EventDetails
    players: tuple[PlayerEntry, ...] = ()
    parts: tuple[ResultsPart, ...] = ()

    def games(self) -> Iterator[tuple[ResultsPart, GameResult]]:
        for part in self.parts:
            for game in part.games:
                yield part, game

    def players_by_pin(self) -> dict[int, PlayerEntry]:
        """The first player of each PIN (a repeated PIN is an error of the file)."""
        found: dict[int, PlayerEntry] = {}
        for player in self.players:
            found.setdefault(player.pin, player)
        return found
