"""Write a results file that reads back to the same values."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from ecfgrading.engine.rateplay import TimeControl
from ecfgrading.formats.results_model import (
    EventDetails,
    GameResult,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
)
from ecfgrading.formats.values import format_day

Value = str | int | float | date | None


def write_results(results: ResultsFile) -> str:
    """The file's text, one set per line, LF line endings, ending with ``#FINISH``.

    Raises ValueError for a text value a results file cannot carry: one holding '#'
    or a line break, or with spaces around it (readers trim them).
    """
    lines = ["#EVENT DETAILS", *_event_lines(results.event)]
    if results.players or results.parts:
        lines.append("#PLAYER LIST")
        lines += [_player_line(player) for player in results.players]
    for part in results.parts:
        lines += _part_lines(part)
    lines.append("#FINISH")
    return "\n".join(lines) + "\n"


def _field(name: str, value: Value) -> str:
    """``#NAME=value``; '' when the value is None (the field is absent)."""
    if value is None:
        return ""
    if isinstance(value, date):
        return f"#{name}={format_day(value)}"
    if isinstance(value, float):
        return f"#{name}={_number(value)}"
    return f"#{name}={_checked(str(value))}"


def _flag(name: str, value: str | None) -> str:
    """Fields such as ``#INFORM FIDE`` that may be given without a value."""
    if value == "":
        return f"#{name}"
    return _field(name, value)


def _checked(text: str) -> str:
    if "#" in text or "\n" in text or "\r" in text or text != text.strip():
        raise ValueError(f"expected a value without '#', line breaks or edge spaces, got {text!r}")
    return text


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _lines(*fields: str) -> list[str]:
    return [field for field in fields if field]


def _event_lines(event: EventDetails) -> list[str]:
    return _lines(
        _field("EVENT CODE", event.code),
        _field("SUBMISSION INDEX", event.submission_index),
        _field("EVENT NAME", event.name),
        _field("EVENT DATE", event.event_date),
        _field("FINAL RESULT DATE", event.final_result_date),
        _field("RESULTS OFFICER", event.results_officer),
        *(_field("RESULTS OFFICER ADDRESS", line) for line in event.results_officer_address),
        _field("TREASURER", event.treasurer),
        *(_field("TREASURER ADDRESS", line) for line in event.treasurer_address),
        *_time_control_fields(event.time_control),
        _flag("ADJUDICATED", event.adjudicated),
        _flag("INFORM GRAND PRIX", event.inform_grand_prix),
        _flag("INFORM FIDE", event.inform_fide),
        _flag("INFORM CHESSMOVES", event.inform_chessmoves),
        _flag("INFORM UNION", event.inform_union),
    )


def _time_control_fields(control: TimeControl | None) -> Iterator[str]:
    """Combination (a), (b) or (c) of results-file.md, then increment and environment."""
    if control is None:
        return
    sessions = control.sessions
    if len(sessions) == 1 and sessions[0].moves is None and not control.rest_minutes:
        yield _field("MINUTES FOR GAME", float(sessions[0].minutes))
    else:
        yield from _session_fields(control)
    if control.increment_seconds:
        yield _field("SECONDS PER MOVE", float(control.increment_seconds))
    if control.environment != "OTB":
        yield _field("ENVIRONMENT", control.environment)


def _session_fields(control: TimeControl) -> Iterator[str]:
    for ordinal, session in zip(("FIRST", "SECOND"), control.sessions, strict=False):
        yield _field(f"MOVES {ordinal} SESSION", session.moves)
        yield _field(f"MINUTES {ordinal} SESSION", float(session.minutes))
    if control.rest_minutes or len(control.sessions) == 1:
        yield _field("MINUTES REST OF GAME", float(control.rest_minutes))


def _player_line(player: PlayerEntry) -> str:
    return "".join(
        (
            _field("PIN", player.pin),
            _field("ECF CODE", player.code_text or None),
            *(_field(name, value or None) for name, value in _player_texts(player)),
            _field("DATE OF BIRTH", player.date_of_birth),
        )
    )


def _player_texts(player: PlayerEntry) -> tuple[tuple[str, str], ...]:
    return (
        ("NAME", player.name),
        ("SURNAME", player.surname),
        ("FORENAME", player.forename),
        ("INITIALS", player.initials),
        ("GENDER", player.gender),
        ("TITLE", player.title),
        ("CLUB CODE", player.club_code),
        ("CLUB NAME", player.club_name),
        ("CLUB COUNTY", player.club_county),
        ("ECF NO", player.membership_no),
        ("FIDE NO", player.fide_no),
        ("COMMENT", player.comment),
    )


def _part_lines(part: ResultsPart) -> list[str]:
    header = f"#{part.kind.value}={_checked(part.name)}" if part.name else f"#{part.kind.value}"
    white_on = part.white_on.value if part.white_on else None
    head = _lines(header, _field("WHITE ON", white_on), _field("RESULTS DATE", part.results_date))
    return head + [_game_line(game) for game in part.games]


def _game_line(game: GameResult) -> str:
    return "".join(
        (
            _field("PIN1", game.pin1),
            _field("SCORE", game.score.text),
            _field("PIN2", game.pin2),
            _field("COLOUR", game.colour.value if game.colour else None),
            _field("GAME DATE", game.game_date),
            _field("BOARD", game.board),
            _field("ROUND", game.round),
            _field("COMMENT", game.comment or None),
        )
    )
