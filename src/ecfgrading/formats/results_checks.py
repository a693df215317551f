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


def check_player(player: PlayerEntry, lines: dict[str, int], log: ProblemLog) -> None:
    """Every player needs a name and a code or a club (results-file.md)."""
    if not player.full_name:
        log.add("missing-name", player.line, "NAME", "NAME or SURNAME for every player", "")
    if not (player.code_text or player.club_code or player.club_name):
        expected = "a grading code (REF, ECF CODE, BCF CODE) or a club (CLUB CODE, CLUB NAME)"
        log.add("no-code-or-club", player.line, "ECF CODE", expected, "")
    if player.gender and player.gender.upper() not in ("M", "F"):
        log.add("bad-gender", lines["gender"], "GENDER", "M or F", player.gender)
    if player.club_code and len(player.club_code) != 4:
        log.add("bad-club-code", lines["club_code"], "CLUB CODE", "4 characters", player.club_code)


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
    """Checks of one game against the player list, the event's days and its part."""
    for attr, pin in (("pin1", game.pin1), ("pin2", game.pin2)):
        if pin not in part.pins:
            name = attr.upper()
            log.add("unknown-pin", lines[attr], name, "a PIN of the player list", str(pin))
    if game.pin1 == game.pin2:
        log.add("plays-himself", lines["pin2"], "PIN2", "a player other than PIN1", str(game.pin2))
    _check_day(game, lines, part, log)
    _check_part_fields(game, lines, part.kind, log)


def _check_day(game: GameResult, lines: dict[str, int], part: PartContext, log: ProblemLog) -> None:
    played, first, last = game.game_date, part.first_day, part.last_day
    if played is None or first is None or last is None or first <= played <= last:
        return
    expected = f"from {format_day(first)} to {format_day(last)}"
    log.add("date-outside-event", lines["game_date"], "GAME DATE", expected, format_day(played))


def _check_part_fields(
    game: GameResult, lines: dict[str, int], kind: PartKind, log: ProblemLog
) -> None:
    if kind is PartKind.OTHER and "game_date" not in lines:
        log.add("missing-field", game.line, "GAME DATE", "in every OTHER RESULTS game", "")
    if game.board is not None and kind is not PartKind.MATCH:
        log.add(
            "field-not-for-part", lines["board"], "BOARD", "only in MATCH RESULTS", str(game.board)
        )
    if game.round is not None and kind is not PartKind.SECTION:
        log.add(
            "field-not-for-part",
            lines["round"],
            "ROUND",
            "only in SECTION RESULTS",
            str(game.round),
        )


def check_pairing(game: GameResult, met: dict[tuple[int, int, int], int], log: ProblemLog) -> None:
    """The same two players meet at most once in a round."""
    if game.round is None:
        return
    key = (game.round, min(game.pin1, game.pin2), max(game.pin1, game.pin2))
    first = met.get(key)
    if first is None:
        met[key] = game.line
    else:
        expected = f"one game per pair in round {game.round} (first on line {first})"
        log.add("repeated-pairing", game.line, "ROUND", expected, f"{game.pin1} v {game.pin2}")


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
