"""The import report a grading officer gets for a results file (text, JSON, dict): what
the seeds call the feedback confirming it was processed. Not the public's Grading
Feedback Form, which is ``services.feedback``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from ecfgrading.formats.problems import Problem
from ecfgrading.lookups.identification import Candidate


@dataclass(frozen=True)
class NewPlayer:
    """A player the import put on record, with the code he now holds."""

    pin: int
    name: str
    code: str
    code_given: bool  # the file gave a well-formed code not yet on record


@dataclass(frozen=True)
class WaitingPlayer:
    """A player in the pending-identification queue and the games waiting for him."""

    pin: int
    name: str
    games: int
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class RememberedPlayer:
    """A player identified by a decision the team made before (issue 24, case 3)."""

    pin: int
    name: str  # as the file wrote it
    code: str  # the player's code on record
    player: str  # his name on record
    decided_on: str  # dd/mm/yyyy, the day the team decided

    def said(self) -> str:
        return (
            f"{self.name} (PIN {self.pin}) identified as the team decided on "
            f"{self.decided_on}: {self.player} {self.code}"
        )


@dataclass(frozen=True)
class Written:
    """What the writer put on record for one accepted file (rolled back, it is dropped)."""

    event_id: int
    event_code: str
    superseded_games: int = 0  # earlier submissions' games this file replaced
    graded: Mapping[str, int] = field(default_factory=dict)  # rate -> games graded
    not_graded: Mapping[str, int] = field(default_factory=dict)  # reason -> games
    waiting: int = 0  # games waiting for a pending identification
    linked: int = 0  # players identified as players on record
    new_players: tuple[NewPlayer, ...] = ()
    pending: tuple[WaitingPlayer, ...] = ()


@dataclass(frozen=True)
class ImportReport:
    """Everything the import says about one file."""

    filename: str
    event_code: str = ""
    event_name: str = ""
    submission_id: int | None = None
    submission_index: int | None = None
    accepted: bool = False
    checked_only: bool = False
    already: bool = False  # these very bytes were accepted before: skipped
    problems: tuple[Problem, ...] = ()
    graded: Mapping[str, int] = field(default_factory=dict)  # rate -> games graded
    not_graded: Mapping[str, int] = field(default_factory=dict)  # reason -> games
    waiting: int = 0  # games waiting for a pending identification
    linked: int = 0  # players identified as players on record
    new_players: tuple[NewPlayer, ...] = ()
    pending: tuple[WaitingPlayer, ...] = ()
    superseded_games: int = 0
    remembered: tuple[RememberedPlayer, ...] = ()  # identified by the team's decisions

    def accepting(self, written: Written) -> ImportReport:
        """The report of a file whose writes were committed."""
        return replace(
            self,
            accepted=True,
            superseded_games=written.superseded_games,
            graded=written.graded,
            not_graded=written.not_graded,
            waiting=written.waiting,
            linked=written.linked,
            new_players=written.new_players,
            pending=written.pending,
        )

    def with_problem(self, problem: Problem) -> ImportReport:
        return replace(self, problems=(*self.problems, problem))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        """What ``dataclasses.asdict`` gives, the problems sorted by line, and ``ok``."""
        data: dict[str, Any] = _plain(replace(self, problems=()))  # the problems once
        data["problems"] = [_plain(p) for p in sorted(self.problems, key=_by_line)]
        data["ok"] = self.ok
        return data

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, default=str)

    def to_text(self) -> str:
        return "\n".join(_text_lines(self))


_LEAVES = (str, int, float)  # bool and the enums of text among them


def _plain(value: Any) -> Any:
    """``dataclasses.asdict`` of a report's values without its deep copy of every leaf: a
    report's leaves are all immutable (text, numbers, None), and each accepted file's
    report is made once (issue 25). Leaves first: asking a type that is no dataclass
    for its fields formats an AttributeError and drops it, a season's 140,000 times."""
    if value is None or isinstance(value, _LEAVES):
        return value
    kind = type(value)
    try:
        names = _FIELDS[kind]
    except KeyError:
        record = is_dataclass(value) and not isinstance(value, type)
        names = _FIELDS[kind] = tuple(f.name for f in fields(value)) if record else None
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, tuple | list):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    return value


# A report's types -> their fields' names (None: no dataclass), asked once each: a
# season's 1,500 reports asked ``fields`` of each of their records (issue 25).
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _by_line(problem: Problem) -> tuple[int, str]:
    return (problem.line, problem.code)


def _status(report: ImportReport) -> str:
    if report.checked_only:
        return "checked: no errors" if report.ok else "checked: would be rejected"
    return "accepted" if report.accepted else "REJECTED: nothing was imported"


def _text_lines(report: ImportReport) -> list[str]:
    if report.already:
        return [
            f"{report.filename}: already accepted as submission {report.submission_id}; skipped"
        ]
    title = " ".join(s for s in (report.event_code, report.event_name) if s)
    lines = [f"{report.filename}: {title or '(event unknown)'}", f"  {_status(report)}"]
    if report.submission_id is not None:
        lines.append(f"  kept on record as submission {report.submission_id}")
    lines += _count_lines(report)
    lines += [f"  new player {p.name}: {p.code}" for p in report.new_players]
    lines += [f"  {p.said()}" for p in report.remembered]
    for waiting in report.pending:
        found = ", ".join(f"{c.name} {c.code} ({c.score})" for c in waiting.candidates)
        lines.append(
            f"  pending: {waiting.name} (PIN {waiting.pin}), {waiting.games} games waiting;"
            f" candidates: {found or 'none'}"
        )
    lines += [f"  {p.severity}: {p.message}" for p in sorted(report.problems, key=_by_line)]
    return lines


def _count_lines(report: ImportReport) -> list[str]:
    out = [f"  graded {rate}: {n} games" for rate, n in sorted(report.graded.items())]
    out += [f"  not graded ({why}): {n} games" for why, n in sorted(report.not_graded.items())]
    if report.waiting:
        out.append(f"  waiting for identification: {report.waiting} games")
    if report.superseded_games:
        out.append(f"  replaced {report.superseded_games} games of earlier submissions")
    if report.linked:
        out.append(f"  players identified on record: {report.linked}")
    return out
