"""Checks that look across fields or sets, and the problems of the database checks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ecfgrading.formats.problems import Problem, ProblemLog
from ecfgrading.formats.results_model import EventDetails, GameResult, PartKind, PlayerEntry
from ecfgrading.formats.values import format_day


@dataclass(frozen=True)
class PartContext:
    """What a game of a part is checked against: its kind, the PINs and the event's days."""

    kind: PartKind
    pins: frozenset[int]
    first_day: date | None = None
    last_day: date | None = None


# A problem a check finds: its code, the attribute whose line it is on (None: the set's
# first line), the field named, what was expected and what was given.
Found = tuple[str, str | None, str, str, str]


def check_player(player: PlayerEntry, lines: dict[str, int], log: ProblemLog) -> None:
    for code, attr, name, expected, got in player_problems(player):
        log.add(code, player.line if attr is None else lines[attr], name, expected, got)


def player_problems(player: PlayerEntry) -> list[Found]:
    """Every player needs a name and a code or a club (results-file.md)."""
    found: list[Found] = []
    if not player.full_name:
        found.append(("missing-name", None, "NAME", "NAME or SURNAME for every player", ""))
    if not (player.code_text or player.club_code or player.club_name):
        expected = "a grading code (REF, ECF CODE, BCF CODE) or a club (CLUB CODE, CLUB NAME)"
        found.append(("no-code-or-club", None, "ECF CODE", expected, ""))
    if player.gender and player.gender.upper() not in ("M", "F"):
        found.append(("bad-gender", "gender", "GENDER", "M or F", player.gender))
    if player.club_code and len(player.club_code) != 4:
        code = player.club_code
        found.append(("bad-club-code", "club_code", "CLUB CODE", "4 characters", code))
    return found


def check_unique_pin(player: PlayerEntry, first_lines: dict[int, int], log: ProblemLog) -> None:
    first = first_lines.get(player.pin)
    if first is None:
        first_lines[player.pin] = player.line
    else:
        expected = f"unique in the file (first used on line {first})"
        log.add("duplicate-pin", player.line, "PIN", expected, str(player.pin))


def check_unique_code(
    player: PlayerEntry, first_pins: dict[int, tuple[int, int]], log: ProblemLog
) -> None:
    """One person, one PIN: the same code under two PINs would pair him with himself."""
    if player.code is None:
        return
    first = first_pins.setdefault(player.code.number, (player.pin, player.line))
    if first[0] != player.pin:
        expected = f"a grading code on one PIN only (PIN {first[0]}, line {first[1]})"
        log.add("duplicate-code", player.line, "ECF CODE", expected, str(player.code))


def check_game(game: GameResult, lines: dict[str, int], part: PartContext, log: ProblemLog) -> None:
    for code, attr, name, expected, got in game_problems(game, "game_date" in lines, part):
        log.add(code, game.line if attr is None else lines[attr], name, expected, got)


_A_PIN = "a PIN of the player list"
# The kinds as plain names: an enum member read through its class (``PartKind.OTHER``)
# costs a lookup in the enum's machinery, and these are read for every game.
_MATCH, _SECTION, _OTHER = PartKind.MATCH, PartKind.SECTION, PartKind.OTHER


def game_problems(game: GameResult, dated: bool, part: PartContext) -> list[Found]:
    """Checks of one game against the player list, the event's days and its part;
    ``dated``: GAME DATE given (one that does not convert is reported as such, not as
    missing). A list, not a generator: the reader asks it of every game."""
    found: list[Found] = []
    pin1, pin2, pins = game.pin1, game.pin2, part.pins
    if pin1 not in pins:
        found.append(("unknown-pin", "pin1", "PIN1", _A_PIN, str(pin1)))
    if pin2 not in pins:
        found.append(("unknown-pin", "pin2", "PIN2", _A_PIN, str(pin2)))
    if pin1 == pin2:
        found.append(("plays-himself", "pin2", "PIN2", "a player other than PIN1", str(pin2)))
    played, first, last = game.game_date, part.first_day, part.last_day
    if not (played is None or first is None or last is None or first <= played <= last):
        expected = f"from {format_day(first)} to {format_day(last)}"
        found.append(("date-outside-event", "game_date", "GAME DATE", expected, format_day(played)))
    kind = part.kind
    if not dated and kind is _OTHER:
        found.append(("missing-field", None, "GAME DATE", "in every OTHER RESULTS game", ""))
    board, round_ = game.board, game.round
    if board is not None and kind is not _MATCH:
        found.append(("field-not-for-part", "board", "BOARD", "only in MATCH RESULTS", str(board)))
    if round_ is not None and kind is not _SECTION:
        found.append(
            ("field-not-for-part", "round", "ROUND", "only in SECTION RESULTS", str(round_))
        )
    return found


def check_pairing(game: GameResult, met: dict[tuple[int, int, int], int], log: ProblemLog) -> None:
    """The same two players meet at most once in a round."""
    round_ = game.round
    if round_ is None:
        return
    pin1, pin2 = game.pin1, game.pin2
    key = (round_, pin1, pin2) if pin1 <= pin2 else (round_, pin2, pin1)
    first = met.get(key)
    if first is None:
        met[key] = game.line
    else:
        expected = f"one game per pair in round {round_} (first on line {first})"
        log.add("repeated-pairing", game.line, "ROUND", expected, f"{pin1} v {pin2}")


def code_of_another_player(player: PlayerEntry, name_on_record: str) -> Problem:
    """For the import service: the code is on record under another name (an error)."""
    expected = f"a grading code of {player.full_name!r} ({player.code_text} is {name_on_record!r})"
    return Problem.make(
        "code-of-another-player", player.line, "ECF CODE", expected, player.code_text
    )


def stale_submission_index(event: EventDetails, last_received: int) -> Problem:
    """For the import service: a file must have a higher index than the last one received."""
    line = event.field_lines.get("SUBMISSION INDEX", event.line)
    expected = f"above {last_received}, the last received for {event.code}"
    got = "" if event.submission_index is None else str(event.submission_index)
    return Problem.make("stale-submission-index", line, "SUBMISSION INDEX", expected, got)
