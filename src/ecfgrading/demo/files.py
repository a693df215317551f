"""Played events written as the results files organisers send (results-file.md).

Organisers write players as they know them: most with grading code and full name, some
with initials or without accents, newcomers (and now and then a player whose code the
organiser did not have) by name and club only, a few with a slip in the surname. Each
file's writer has its habits: genders, counties, the older SURNAME/FORENAME fields,
CRLF line endings, Windows-1252 bytes.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import TypeVar

import numpy as np

from ecfgrading.demo.events import COLOURS, EventKind, Games, PlayedEvent, PlayedPart, World
from ecfgrading.demo.names import Name, initials, strip_accents, typo
from ecfgrading.demo.places import Club, towns
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.names import full_name
from ecfgrading.formats.results_model import (
    Colour,
    EventDetails,
    PartKind,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
    WhiteOn,
    game_at_once,
    player_at_once,
)
from ecfgrading.formats.results_writer import write_results
from ecfgrading.formats.values import format_day

Rng = np.random.Generator
T = TypeVar("T")

CODE_LEFT_OUT = 0.02  # a player on record given by name and club only
FIRST_FORENAME_ONLY = 0.08
INITIALS_ONLY = 0.05
ACCENTS_DROPPED = 0.4
TYPO = 0.04  # of entries by name only: a slip in the surname
CLUB_NAME_ONLY = 0.15  # the club by name, without its code
NO_CLUB = 0.1  # of coded players: no club given
JUNIOR_BIRTH_GIVEN = 0.85
ADULT_BIRTH_GIVEN = 0.03
FIDE_GIVEN = 0.6
STREETS = ("High Street", "Church Lane", "Station Road", "Mill Lane", "Park Road", "The Green")


@dataclass(frozen=True)
class WriterHabits:
    """What one organiser's program writes besides the mandatory fields."""

    gender: bool
    county: bool
    old_name_fields: bool  # SURNAME, FORENAME, INITIALS instead of NAME
    crlf: bool
    windows_1252: bool
    colours: bool

    @classmethod
    def draw(cls, rng: Rng, kind: EventKind) -> WriterHabits:
        chance = rng.random(6)
        return cls(
            gender=bool(chance[0] < 0.4),
            county=bool(chance[1] < (0.6 if kind in (EventKind.LEAGUE, EventKind.COUNTY) else 0.2)),
            old_name_fields=bool(chance[2] < 0.08),
            crlf=bool(chance[3] < 0.25),
            windows_1252=bool(chance[4] < 0.08),
            colours=bool(chance[5] < 0.85),
        )


@dataclass(frozen=True)
class WrittenFile:
    """A file's bytes and who each PIN really is (the demo's truth, not in the file)."""

    data: bytes
    pins: dict[int, int]
    uncoded: int  # players given without a grading code


def write_event(world: World, event: PlayedEvent, index: int = 1) -> WrittenFile:
    """The results file of ``event`` with SUBMISSION INDEX ``index``.

    Each event draws from its own generator, seeded by its code: a corrected file comes
    from the same organiser's program and writes its players the same way.
    """
    rng = np.random.default_rng([world.seed, zlib.crc32(event.code.encode())])
    habits = WriterHabits.draw(rng, event.kind)
    players = event.players()
    pins = {player: pin for pin, player in enumerate(players, start=1)}
    details = _details(rng, world, event, index)
    writer = _EntryWriter(_Doubles(rng, _MOST_DRAWS * len(players)), world, event, habits)
    lines = writer.lines(players)
    text = write_results(ResultsFile(event=details)).removesuffix(_FINISH)
    if lines or event.parts:
        text += "#PLAYER LIST\n" + "".join(line + "\n" for line in lines)
    text += parts_text(event.parts, pins, habits.colours) + _FINISH
    truth = {pin: player for player, pin in pins.items()}
    return WrittenFile(encode(text, habits), truth, writer.uncoded)


def encode(text: str, habits: WriterHabits) -> bytes:
    """UTF-8, or Windows-1252 for an old program when the text allows it."""
    if habits.crlf:
        text = text.replace("\n", "\r\n")
    if habits.windows_1252:
        try:
            return text.encode("cp1252")
        except UnicodeEncodeError:
            pass  # a name cp1252 cannot spell: this writer has moved to UTF-8
    return text.encode("utf-8")


# -- event details ------------------------------------------------------------------------


def _details(rng: Rng, world: World, event: PlayedEvent, index: int) -> EventDetails:
    officer, treasurer = _officials(rng, world, event.county)
    return EventDetails(
        code=event.code,
        submission_index=index,
        name=event.name,
        event_date=event.first_day,
        final_result_date=event.last_day,
        results_officer=officer,
        results_officer_address=(_address(rng, event.county),),
        treasurer=treasurer,
        treasurer_address=(_address(rng, event.county),),
        time_control=event.control,
        inform_grand_prix="" if event.kind is EventKind.CONGRESS else None,
    )


def _officials(rng: Rng, world: World, county: str) -> tuple[str, str]:
    """Two players of the county, written 'J R Smith' as officials sign themselves."""
    people = world.people
    drawn = rng.choice(len(people), 40)
    clubs = zip(drawn.tolist(), people.club[drawn, 0].tolist(), strict=True)
    found = [p for p, club in clubs if world.clubs[club].county == county] + [0, 1]
    officer, treasurer = (people.names[p] for p in found[:2])
    return _signature(officer), _signature(treasurer)


def _signature(name: Name) -> str:
    return f"{initials(strip_accents(name.forenames))} {name.surname}"


def _address(rng: Rng, county: str) -> str:
    places = towns(county)
    town = places[int(rng.integers(len(places)))]
    street = STREETS[int(rng.integers(len(STREETS)))]
    return f"{int(rng.integers(1, 120))} {street}, {town}"


# -- players ------------------------------------------------------------------------------


def name_fields(surname: str, forenames: str, old_fields: bool) -> str:
    """A name's fields in a player's line: NAME, or the older SURNAME, FORENAME (the
    first forename) and INITIALS (of the others, when there are others)."""
    if old_fields:
        first, *rest = forenames.split()
        initials = "".join(word[0] for word in rest)
        return f"#SURNAME={surname}#FORENAME={first}" + (
            f"#INITIALS={initials}" if initials else ""
        )
    return f"#NAME={full_name(surname, forenames)}"


@cache  # a player's code is written in every file he plays in
def _code_text(number: int) -> str:
    return str(GradingCode(number))


# The most uniform draws a player's entry takes: code, name (3), club (2), birth, FIDE id.
_MOST_DRAWS = 8


class _Doubles:
    """A generator's uniform draws, drawn a block at a time: ``next()`` gives what
    ``rng.random()`` would have, in the same order, for a fraction of the time.

    ``exactly`` hands the generator itself to a draw of another kind (a typo's integers)
    in the state the draws served so far leave it in, then goes on from its new state:
    the generator's stream is the same as if every draw had been made one by one. Draws
    left unserved at the end do not matter: the generator is not used after them.
    """

    def __init__(self, rng: Rng, block: int) -> None:
        self._rng, self._block = rng, max(1, block)
        self._fill()

    def _fill(self) -> None:
        self._state = self._rng.bit_generator.state
        self._values: list[float] = self._rng.random(self._block).tolist()
        self._served = 0

    def next(self) -> float:
        if self._served == len(self._values):
            self._fill()  # the block was drawn last: the generator is where it ends
        value = self._values[self._served]
        self._served += 1
        return value

    def exactly(self, draw: Callable[[Rng], T]) -> T:
        self._rng.bit_generator.state = self._state
        self._rng.random(self._served)  # the draws served, drawn again: the same state
        made = draw(self._rng)
        self._fill()
        return made


class _EntryWriter:
    """Writes players the way one organiser knows them."""

    def __init__(
        self, draws: _Doubles, world: World, event: PlayedEvent, habits: WriterHabits
    ) -> None:
        self.draws, self.people, self.clubs = draws, world.people, world.clubs
        self.event, self.habits, self.juniors = event, habits, world.juniors(event.season)
        self.rated = event.kind in (EventKind.CONGRESS, EventKind.COUNTY)
        self.birth_given = (JUNIOR_BIRTH_GIVEN, ADULT_BIRTH_GIVEN)
        if event.kind is EventKind.JUNIOR:
            self.birth_given = (0.95, 0.95)
        self.uncoded = 0  # players written without a code so far

    def lines(self, players: list[int]) -> list[str]:
        """Each player's line, PINs 1, 2, 3... in the order given."""
        people = self.people
        # The players' columns as Python values, read once for the whole file.
        columns = zip(
            players,
            people.code[players].tolist(),
            people.club[players, self.event.season].tolist(),
            self.juniors[players].tolist(),
            people.fide[players].tolist(),
            strict=True,
        )
        return [self._line(pin, *row) for pin, row in enumerate(columns, start=1)]

    def _line(
        self, pin: int, player: int, number: int, club_index: int, junior: bool, fide: int
    ) -> str:
        people, habits, draw = self.people, self.habits, self.draws.next
        # Draws in the order the organiser's program makes them: code, name, club, birth,
        # FIDE id (each drawn only when it can matter).
        coded = bool(number) and draw() >= CODE_LEFT_OUT
        if not coded:
            self.uncoded += 1
        club = self.clubs[club_index]
        name = self._name(people.names[player], coded)
        club_code, club_name = self._club(club, coded)
        given = self.birth_given[0] if junior else self.birth_given[1]
        birth = people.birth[player] if draw() < given else None
        fide_no = str(fide) if fide and self.rated and draw() < FIDE_GIVEN else ""
        return player_line(
            pin,
            _code_text(number) if coded else "",
            name,
            people.sex[player] if habits.gender else "",
            (club_code, club_name, club.county if habits.county and club_name else ""),
            fide_no,
            birth,
        )

    def _name(self, name: Name, coded: bool) -> str:
        """The name's fields as written; with a code it must stay consistent with the
        record."""
        surname, forenames = name.surname, name.forenames
        draw = self.draws.next
        accents, shortened, slip = draw(), draw(), draw()
        if accents < ACCENTS_DROPPED:
            surname, forenames = strip_accents(surname), strip_accents(forenames)
        if coded and shortened < INITIALS_ONLY:
            forenames = initials(forenames)
        elif coded and shortened < INITIALS_ONLY + FIRST_FORENAME_ONLY:
            forenames = forenames.split()[0]
        elif not coded and slip < TYPO:
            written = surname  # a slip a code would have caught
            surname = self.draws.exactly(lambda rng: typo(written, rng))
        return name_fields(surname, forenames, self.habits.old_name_fields)

    def _club(self, club: Club, coded: bool) -> tuple[str, str]:
        """Code and name; a player without a code needs one. A location has no code."""
        if coded and self.draws.next() < NO_CLUB:
            return "", ""
        if club.location or self.draws.next() < CLUB_NAME_ONLY:
            return "", club.name
        return club.code, club.name


def player_line(
    pin: int,
    code_text: str,
    name_fields: str,
    gender: str,
    club: tuple[str, str, str],
    fide_no: str,
    birth: date | None,
) -> str:
    """A player's line as ``write_results`` writes it (formats.results_writer), for the
    fields the demo's organisers give: PIN, code, the name's fields (``name_fields``),
    gender, club code, name and county, FIDE id, date of birth; those not given left out.

    The demo's names, clubs and towns come from its own lists: none holds what the writer
    refuses ('#', a line break, spaces at either end).
    """
    club_code, club_name, club_county = club
    return "".join(
        (
            f"#PIN={pin}",
            f"#ECF CODE={code_text}" if code_text else "",
            name_fields,
            f"#GENDER={gender}" if gender else "",
            f"#CLUB CODE={club_code}" if club_code else "",
            f"#CLUB NAME={club_name}" if club_name else "",
            f"#CLUB COUNTY={club_county}" if club_county else "",
            f"#FIDE NO={fide_no}" if fide_no else "",
            f"#DATE OF BIRTH={format_day(birth)}" if birth else "",
        )
    )


# -- results -------------------------------------------------------------------------------

_FINISH = "#FINISH\n"
_SCORES = tuple(f"#SCORE={code.text}" for code in ResultCode)  # by value
# By the colour column of the demo's games (events.COLOURS): none, white, black.
_COLOUR_FIELDS = tuple(f"#COLOUR={colour.value}" if colour else "" for colour in COLOURS)


def parts_text(parts: Sequence[PlayedPart], pins: Mapping[int, int], colours: bool) -> str:
    """The parts' lines as ``write_results`` writes them (formats.results_writer), each
    line ending in LF: the part's fields, then a line a game. ``colours``: the writer
    gives each game's COLOUR (PIN1's) when it is known."""
    lines: list[str] = []
    for part in parts:
        lines += _part_head(part)
        lines += _game_lines(part.games.rows.tolist(), pins, colours)
    return "".join(line + "\n" for line in lines)


def _part_head(part: PlayedPart) -> list[str]:
    head = [f"#{part.kind.value}={part.name}" if part.name else f"#{part.kind.value}"]
    if part.white_on is not None:
        head.append(f"#WHITE ON={part.white_on.value}")
    if part.results_date is not None:
        head.append(f"#RESULTS DATE={format_day(part.results_date)}")
    return head


def _game_lines(rows: list[list[int]], pins: Mapping[int, int], colours: bool) -> list[str]:
    """A line a game: PIN1, SCORE, PIN2, COLOUR, GAME DATE, BOARD and ROUND, those known."""
    days: dict[int, str] = {}
    lines = []
    for first, second, code, day, colour, board, round_ in rows:
        when = days.get(day)
        if when is None:
            when = days[day] = f"#GAME DATE={format_day(date.fromordinal(day))}"
        lines.append(
            f"#PIN1={pins[first]}{_SCORES[code]}#PIN2={pins[second]}"
            f"{_COLOUR_FIELDS[colour] if colours else ''}{when}"
            f"{f'#BOARD={board}' if board else ''}{f'#ROUND={round_}' if round_ else ''}"
        )
    return lines


def _check_the_writers_shape() -> None:
    """The lines written here are those ``write_results`` writes for the same values: a
    change of its shape must be made here too (checked on import, as results_model
    checks its makers)."""
    players = _sample_players()
    parts = _sample_parts()
    entries = tuple(entry for entry, _ in players)
    for colours in (True, False):
        ours = "".join(f"{line}\n" for _, line in players)
        ours += parts_text(parts, {1: 1, 2: 2, 3: 3}, colours)
        theirs = write_results(
            ResultsFile(EventDetails(), entries, tuple(_written(part, colours) for part in parts))
        )
        if not theirs.endswith(f"#PLAYER LIST\n{ours}{_FINISH}"):
            raise TypeError(f"the demo's lines are not the writer's: {ours!r} in {theirs!r}")


def _sample_players() -> list[tuple[PlayerEntry, str]]:
    """Players with each field the demo writes, and without it; each with its line."""
    birth = date(1998, 12, 1)
    # (PIN, code, (surname, forenames, older fields), the name as the writer has it, gender,
    # club, FIDE id, birth)
    samples = (
        (
            1,
            "100001A",
            ("Smith", "John", False),
            {"name": "Smith, John"},
            "M",
            ("KABC", "Ashford", "Kent"),
            "41234",
            birth,
        ),
        (
            2,
            "",
            ("Smith", "John Rob Stan", True),
            {"surname": "Smith", "forename": "John", "initials": "RS"},
            "",
            ("", "Ashford", ""),
            "",
            None,
        ),
        (
            3,
            "",
            ("Li", "Wei", True),
            {"surname": "Li", "forename": "Wei"},
            "F",
            ("", "", ""),
            "",
            None,
        ),
    )
    found = []
    for pin, code, name, written, gender, club, fide, born in samples:
        club_code, club_name, club_county = club
        entry = player_at_once(
            {
                "pin": pin,
                "code_text": code,
                **written,
                "gender": gender,
                "date_of_birth": born,
                "club_code": club_code,
                "club_name": club_name,
                "club_county": club_county,
                "fide_no": fide,
            }
        )
        line = player_line(pin, code, name_fields(*name), gender, club, fide, born)
        found.append((entry, line))
    return found


def _sample_parts() -> tuple[PlayedPart, ...]:
    """A match with boards, a section with rounds, and a part with neither."""
    day = date(2010, 3, 6)
    match = Games.of([1, 2], [2, 3], [0, 3], day, board=[1, 2])
    section = Games.of([3], [1], [2], day, colour=Colour.WHITE, round=2)
    other = Games.of([2], [1], [5], day, colour=Colour.BLACK)
    return (
        PlayedPart(PartKind.MATCH, "A v B", match, WhiteOn.ODD, day),
        PlayedPart(PartKind.SECTION, "Open", section),
        PlayedPart(PartKind.OTHER, "", other),
    )


def _written(part: PlayedPart, colours: bool) -> ResultsPart:
    """The part as the writer's model has it, PINs the players' numbers."""
    games = tuple(
        game_at_once(
            pin1=game.first,
            score=ResultCode(game.code),
            pin2=game.second,
            colour=game.colour if colours else None,
            game_date=game.day,
            board=game.board,
            round=game.round,
            line=0,
        )
        for game in part.games
    )
    return ResultsPart(part.kind, part.name, part.white_on, part.results_date, games)


_check_the_writers_shape()
