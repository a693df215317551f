"""Played events written as the results files organisers send (results-file.md).

Organisers write players as they know them: most with grading code and full name, some
with initials or without accents, newcomers (and now and then a player whose code the
organiser did not have) by name and club only, a few with a slip in the surname. Each
file's writer has its habits: genders, counties, the older SURNAME/FORENAME fields,
CRLF line endings, Windows-1252 bytes.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import NamedTuple

import numpy as np

from ecfgrading.demo.events import EventKind, Played, PlayedEvent, PlayedPart, World
from ecfgrading.demo.names import Name, initials, strip_accents, typo
from ecfgrading.demo.people import People
from ecfgrading.demo.places import Club, towns
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.names import full_name
from ecfgrading.formats.results_model import (
    EventDetails,
    GameResult,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
    game_at_once,
)
from ecfgrading.formats.results_writer import write_results

Rng = np.random.Generator

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
_RESULT_CODES = tuple(ResultCode)  # by value: ResultCode(n) is slow in a hot loop
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

    results: ResultsFile
    data: bytes
    pins: dict[int, int]


def write_event(world: World, event: PlayedEvent, index: int = 1) -> WrittenFile:
    """The results file of ``event`` with SUBMISSION INDEX ``index``.

    Each event draws from its own generator, seeded by its code: a corrected file comes
    from the same organiser's program and writes its players the same way.
    """
    rng = np.random.default_rng([world.seed, zlib.crc32(event.code.encode())])
    habits = WriterHabits.draw(rng, event.kind)
    players = event.players()
    pins = {player: pin for pin, player in enumerate(players, start=1)}
    juniors = world.juniors(event.season)
    writer = _EntryWriter(rng, world.people, world.clubs, event, habits, juniors)
    results = ResultsFile(
        event=_details(rng, world, event, index),
        players=tuple(writer.entry(player, pin) for player, pin in pins.items()),
        parts=tuple(_part(part, pins, habits) for part in event.parts),
    )
    truth = {pin: player for player, pin in pins.items()}
    return WrittenFile(results, encode(write_results(results), habits), truth)


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
    drawn = rng.choice(len(people), 40).tolist()
    found = [p for p in drawn if world.clubs[int(people.club[p, 0])].county == county] + [0, 1]
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


class _Written(NamedTuple):
    """A name as NAME, or as the older SURNAME, FORENAME and INITIALS fields."""

    name: str
    surname: str = ""
    forename: str = ""
    initials: str = ""


@cache  # a player's code is written in every file he plays in
def _grading_code(number: int) -> GradingCode:
    return GradingCode(number)


class _EntryWriter:
    """Writes players the way one organiser knows them."""

    def __init__(
        self,
        rng: Rng,
        people: People,
        clubs: list[Club],
        event: PlayedEvent,
        habits: WriterHabits,
        juniors: np.ndarray,
    ) -> None:
        self.rng, self.people, self.clubs = rng, people, clubs
        self.event, self.habits, self.juniors = event, habits, juniors

    def entry(self, player: int, pin: int) -> PlayerEntry:
        people, habits = self.people, self.habits
        code = self._code(player)
        club = self.clubs[int(people.club[player, self.event.season])]
        name = self._name(people.names[player], code is not None)
        club_code, club_name = self._club(club, code is not None)
        return PlayerEntry(
            pin=pin,
            code_text=str(code) if code else "",
            code=code,
            name=name.name,
            surname=name.surname,
            forename=name.forename,
            initials=name.initials,
            gender=people.sex[player] if habits.gender else "",
            date_of_birth=self._birth(player),
            club_code=club_code,
            club_name=club_name,
            club_county=club.county if habits.county and club_name else "",
            fide_no=self._fide(player),
        )

    def _code(self, player: int) -> GradingCode | None:
        number = int(self.people.code[player])
        if not number or self.rng.random() < CODE_LEFT_OUT:
            return None
        return _grading_code(number)

    def _name(self, name: Name, coded: bool) -> _Written:
        """The name as written; with a code it must stay consistent with the record."""
        surname, forenames = name.surname, name.forenames
        draw = self.rng.random(3)
        if draw[0] < ACCENTS_DROPPED:
            surname, forenames = strip_accents(surname), strip_accents(forenames)
        if coded and draw[1] < INITIALS_ONLY:
            forenames = initials(forenames)
        elif coded and draw[1] < INITIALS_ONLY + FIRST_FORENAME_ONLY:
            forenames = forenames.split()[0]
        elif not coded and draw[2] < TYPO:
            surname = typo(surname, self.rng)  # a slip a code would have caught
        if self.habits.old_name_fields:
            first, *rest = forenames.split()
            return _Written("", surname, first, "".join(word[0] for word in rest))
        return _Written(full_name(surname, forenames))

    def _club(self, club: Club, coded: bool) -> tuple[str, str]:
        """Code and name; a player without a code needs one. A location has no code."""
        if coded and self.rng.random() < NO_CLUB:
            return "", ""
        if club.location or self.rng.random() < CLUB_NAME_ONLY:
            return "", club.name
        return club.code, club.name

    def _birth(self, player: int) -> date | None:
        junior = bool(self.juniors[player])
        given = JUNIOR_BIRTH_GIVEN if junior else ADULT_BIRTH_GIVEN
        if self.event.kind is EventKind.JUNIOR:
            given = 0.95
        return self.people.birth[player] if self.rng.random() < given else None

    def _fide(self, player: int) -> str:
        fide = int(self.people.fide[player])
        rated = self.event.kind in (EventKind.CONGRESS, EventKind.COUNTY)
        return str(fide) if fide and rated and self.rng.random() < FIDE_GIVEN else ""


# -- results -------------------------------------------------------------------------------


def _part(part: PlayedPart, pins: dict[int, int], habits: WriterHabits) -> ResultsPart:
    return ResultsPart(
        kind=part.kind,
        name=part.name,
        white_on=part.white_on,
        results_date=part.results_date,
        games=tuple(_game(game, pins, habits) for game in part.games),
    )


def _game(game: Played, pins: dict[int, int], habits: WriterHabits) -> GameResult:
    # Without the frozen __init__: a national demo writes 1.2 million games.
    return game_at_once(
        pin1=pins[game.first],
        score=_RESULT_CODES[game.code],
        pin2=pins[game.second],
        colour=game.colour if habits.colours else None,
        game_date=game.day,
        board=game.board,
        round=game.round,
        line=0,
    )
