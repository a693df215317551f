"""EVENT DETAILS: mandatory fields, the time control (G2) and whether it is graded."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ecfgrading.engine.rateplay import Session, TimeControl, rate_of_play
from ecfgrading.engine.types import NotGraded
from ecfgrading.formats.event_codes import event_code_problem, normal_event_code
from ecfgrading.formats.lexer import Token
from ecfgrading.formats.problems import ProblemLog, printable
from ecfgrading.formats.results_fields import EVENT_FIELDS, collect, names_by_attr
from ecfgrading.formats.results_model import EventDetails
from ecfgrading.formats.values import format_day

_NAMES = names_by_attr(EVENT_FIELDS)
_MANDATORY = (
    "code",
    "submission_index",
    "name",
    "event_date",
    "final_result_date",
    "results_officer",
    "results_officer_address",
    "treasurer",
    "treasurer_address",
)
_GAME = "minutes_for_game"  # combination (a)
_SESSIONS = ("moves_first", "minutes_first", "moves_second", "minutes_second", "minutes_rest")
_TIME_CONTROL = (_GAME, *_SESSIONS, "increment", "environment")
_ANY_CONTROL = (
    "a time control: MINUTES FOR GAME, or MOVES FIRST SESSION and MINUTES FIRST SESSION"
    " with MINUTES REST OF GAME or a second session"
)


def build_event(tokens: Sequence[Token], header_line: int, log: ProblemLog) -> EventDetails:
    """EventDetails from the EVENT DETAILS fields, reporting what is missing or wrong."""
    values, lines = collect(tokens, EVENT_FIELDS, log)
    _require(values, lines, header_line, log)
    _check_code(values, lines, log)
    _check_index(values, lines, log)
    _check_dates(values, lines, log)
    control = time_control(values, lines, header_line, log)
    if control is not None:
        _check_graded(control, lines, header_line, log)
    for attr in _TIME_CONTROL:
        values.pop(attr, None)
    for attr in ("results_officer_address", "treasurer_address"):
        values[attr] = tuple(values.get(attr, ()))
    field_lines = MappingProxyType({_NAMES[attr]: line for attr, line in lines.items()})
    return EventDetails(**values, time_control=control, line=header_line, field_lines=field_lines)


def _require(values: dict[str, Any], lines: dict[str, int], header: int, log: ProblemLog) -> None:
    for attr in _MANDATORY:
        if attr not in lines:
            log.add("missing-field", header, _NAMES[attr], "in EVENT DETAILS", "")
        elif values.get(attr) == "":
            log.add("missing-field", lines[attr], _NAMES[attr], "with a value", "")


def _check_code(values: dict[str, Any], lines: dict[str, int], log: ProblemLog) -> None:
    """The federation's pattern (formats.event_codes): a code is part of addresses and
    file names, so 'A/B', '../X' or '#X' must never reach the registry (issue 24)."""
    code = values.get("code")
    if code and (problem := event_code_problem(code)):
        said = printable(problem.removesuffix("."))  # it shows the code: a NUL is escaped
        log.add("bad-event-code", lines["code"], _NAMES["code"], said, code)
    elif code:
        values["code"] = normal_event_code(code)  # 'cg130098' is CG130098


def _check_index(values: dict[str, Any], lines: dict[str, int], log: ProblemLog) -> None:
    """SUBMISSION INDEX is 1 for the first file of an event (results-file.md)."""
    if values.get("submission_index") == 0:
        name = _NAMES["submission_index"]
        log.add("bad-number", lines["submission_index"], name, "1 or more", "0")


def _check_dates(values: dict[str, Any], lines: dict[str, int], log: ProblemLog) -> None:
    first, last = values.get("event_date"), values.get("final_result_date")
    if first is not None and last is not None and last < first:
        expected = f"on or after EVENT DATE {format_day(first)}"
        name = _NAMES["final_result_date"]
        log.add("dates-reversed", lines["final_result_date"], name, expected, format_day(last))


def time_control(
    values: dict[str, Any], lines: dict[str, int], header: int, log: ProblemLog
) -> TimeControl | None:
    """Exactly one of the three combinations (results-file.md), as an engine TimeControl."""
    given = [attr for attr in _SESSIONS if attr in lines]
    if _GAME in lines and given:
        got = f"MINUTES FOR GAME (line {lines[_GAME]}) and {_NAMES[given[0]]}"
        log.add("two-time-controls", lines[given[0]], _NAMES[given[0]], "one time control", got)
        return None
    if _GAME not in lines and not given:
        log.add("no-time-control", header, _NAMES[_GAME], _ANY_CONTROL, "")
        return None
    if given and not _complete(lines, log):
        return None
    if any(attr in lines and attr not in values for attr in (_GAME, *given)):
        return None  # a value that did not convert, already reported
    return TimeControl(
        _sessions(values, lines) if given else (Session(values[_GAME]),),
        rest_minutes=values.get("minutes_rest", 0.0),
        increment_seconds=values.get("increment", 0.0),
        environment=values.get("environment") or "OTB",
    )


def _complete(lines: dict[str, int], log: ProblemLog) -> bool:
    """Combinations (b) and (c): a first session, then a rest of game or a second session."""
    needed = ["moves_first", "minutes_first"]
    needed += ["moves_second", "minutes_second"] if _has_second(lines) else ["minutes_rest"]
    missing = [attr for attr in needed if attr not in lines]
    if missing:
        line = min(lines[attr] for attr in _SESSIONS if attr in lines)
        expected = f"{_NAMES[missing[0]]} with the other session fields"
        log.add("incomplete-time-control", line, _NAMES[missing[0]], expected, "")
    return not missing


def _has_second(lines: dict[str, int]) -> bool:
    return "moves_second" in lines or "minutes_second" in lines


def _sessions(values: dict[str, Any], lines: dict[str, int]) -> tuple[Session, ...]:
    first = Session(values["minutes_first"], values["moves_first"])
    if not _has_second(lines):
        return (first,)
    return first, Session(values["minutes_second"], values["moves_second"])


def _check_graded(
    control: TimeControl, lines: dict[str, int], header: int, log: ProblemLog
) -> None:
    """G1, G2: lightning, online or correspondence events are recorded but not graded."""
    rate = rate_of_play(control)
    if not isinstance(rate, NotGraded):
        return
    attr = "environment" if rate is not NotGraded.LIGHTNING else _first_given(lines)
    expected = "a rate of play that is graded (standard or rapid)"
    log.add("not-graded", lines.get(attr, header), _NAMES[attr], expected, rate.value)


def _first_given(lines: dict[str, int]) -> str:
    given = [attr for attr in (_GAME, *_SESSIONS) if attr in lines]
    return min(given, key=lines.__getitem__)
