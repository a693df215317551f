"""Read a results file: never raises; returns what it could read and every problem."""

from __future__ import annotations

from typing import TextIO

from ecfgrading.collector import collector_paused
from ecfgrading.formats.encoding import drop_bom
from ecfgrading.formats.lexer import expand_tables, lex
from ecfgrading.formats.problems import (
    MAX_PROBLEMS,
    ProblemLog,
    Problems,
    StopReading,
    read_decoded,
)
from ecfgrading.formats.results_checks import PartContext
from ecfgrading.formats.results_event import build_event
from ecfgrading.formats.results_fields import ALL_FIELDS
from ecfgrading.formats.results_layout import Layout, group
from ecfgrading.formats.results_model import EventDetails, PartKind, ResultsFile
from ecfgrading.formats.results_sets import build_part, build_players

Reading = tuple[ResultsFile | None, Problems]


def read_results(handle: TextIO, *, strict: bool = False) -> Reading:
    """Read from a text handle; see ``parse_results``."""
    return parse_results(handle.read(), strict=strict)


def read_results_bytes(
    data: bytes, *, strict: bool = False, max_problems: int = MAX_PROBLEMS
) -> Reading:
    """Read bytes (formats.encoding); at most ``max_problems`` listed, the rest counted.
    Never raises: a line in no encoding stops a strict reading there, with its problem."""
    return read_decoded(data, strict, max_problems, _read)


def parse_results(text: str, *, strict: bool = False) -> Reading:
    """The file (None if it holds no field at all) and the report of every problem.

    A file is returned even when the report has errors, so that later checks (the
    database's) can run: sets whose PIN, PIN1, SCORE or PIN2 cannot be read are left
    out of it, and ``report.ok`` says whether it may be imported. ``strict`` stops at
    the first error and returns no file.
    """
    return _read(drop_bom(text), ProblemLog(strict))


def _read(text: str, log: ProblemLog) -> Reading:
    try:
        with collector_paused():
            results = _build(group(expand_tables(lex(text, log), ALL_FIELDS, log), log), log)
    except StopReading:
        return None, log.report()
    return results, log.report()


def _build(layout: Layout, log: ProblemLog) -> ResultsFile | None:
    if layout.empty:
        log.add("empty-file", 1, "", "a results file of #NAME=value fields", "")
        return None
    event = build_event(layout.event, layout.event_line, log)
    players = build_players(layout.players, log)
    pins = frozenset(player.pin for player in players)
    parts = tuple(build_part(part, _context(part.kind, pins, event), log) for part in layout.parts)
    return ResultsFile(event, players, parts)


def _context(kind: PartKind, pins: frozenset[int], event: EventDetails) -> PartContext:
    return PartContext(kind, pins, event.event_date, event.final_result_date)
