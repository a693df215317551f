"""Problems a reader finds in a file, and ``Problems``, every one of them in line order."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, TypeVar

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class ProblemKind:
    """What a problem code means, how serious it is, and how its message reads."""

    severity: Severity
    description: str
    template: str = "expected {field} {expected}, got {got}"


def _error(description: str, template: str | None = None) -> ProblemKind:
    return ProblemKind("error", description, template or ProblemKind.template)


def _warning(description: str, template: str | None = None) -> ProblemKind:
    return ProblemKind("warning", description, template or ProblemKind.template)


_BARE = "expected {expected}, got {got}"

# Stable codes: services, the CLI and the web show and filter problems by these.
PROBLEM_CODES: MappingProxyType[str, ProblemKind] = MappingProxyType(
    {
        # Both readers.
        "empty-file": _error("the file holds nothing to read", _BARE),
        "bad-encoding": _error(
            "a line that is neither UTF-8 nor Windows-1252, or mixes the two", _BARE
        ),
        "mixed-encoding": _warning(
            "Windows-1252 lines in a UTF-8 file: each such line is read as Windows-1252", _BARE
        ),
        "more-problems": _error("more problems than a report lists: fix these first", _BARE),
        "more-warnings": _warning("more warnings than a report lists", _BARE),
        "bad-code": _error("a grading code not of six digits and a check letter (G28)"),
        "bad-check-letter": _error("a grading code whose check letter is wrong (G28)"),
        "bad-number": _error("a value that should be a whole number is not"),
        # Results file: layout.
        "unknown-field": _error("a field name results-file.md does not define", _BARE),
        "misplaced-field": _error("a known field in a section where it does not belong", _BARE),
        "missing-section": _error("EVENT DETAILS or PLAYER LIST is missing", _BARE),
        "section-order": _error(
            "a section out of the order EVENT DETAILS, PLAYER LIST, results", _BARE
        ),
        "missing-finish": _error("no #FINISH: the file may be cut short", _BARE),
        "stray-text": _warning("text outside any field, ignored", _BARE),
        "bad-table": _error("a table without columns, or not closed by TABLE END", _BARE),
        "table-size": _error("table values not a multiple of the number of columns", _BARE),
        # Results file: sets and values.
        "missing-field": _error("a mandatory field is missing or empty"),
        "field-order": _error(
            "PIN, or PIN1, SCORE, PIN2, not first and in that order in a set", _BARE
        ),
        "repeated-field": _error("a field given twice in one set"),
        "bad-date": _error("a date not dd/mm/yyyy, or a day that does not exist"),
        "bad-score": _error("a SCORE not 10, 01, 55, 1d, d1 or dd"),
        "bad-colour": _error("a COLOUR not WHITE, BLACK, W or B"),
        "bad-round": _error("a ROUND not 1..99"),
        "bad-white-on": _error("a WHITE ON not ALL, ODD, EVEN, NONE or UNKNOWN"),
        "bad-gender": _warning("a GENDER not M or F"),
        "bad-club-code": _warning("a CLUB CODE not of 4 characters"),
        "field-not-for-part": _warning("BOARD outside MATCH RESULTS, or ROUND outside SECTION"),
        # Results file: the event.
        "no-time-control": _error("no time control combination (G2)", _BARE),
        "two-time-controls": _error("fields of more than one time control combination (G2)", _BARE),
        "incomplete-time-control": _error("a time control combination lacks a field (G2)", _BARE),
        "dates-reversed": _error("FINAL RESULT DATE before EVENT DATE"),
        # The federation's pattern (formats/event_codes.py), in the form, the file and the API.
        "bad-event-code": _error(
            "an EVENT CODE not of letters and digits beginning with a letter", "{expected}"
        ),
        # Issue 24, case 4: the rate of play an event was registered with is the contract.
        "rate-not-registered": _error(
            "a time control whose rate of play is not the one the event was registered with",
            "expected {expected}, got {got}: ask the grading team to correct the event if it"
            " was registered at the wrong rate",
        ),
        "not-graded": _warning(
            "rate of play or environment not graded (G1, G2)",
            "expected {expected}, got {got}: nothing in this file will be graded",
        ),
        # Results file: players and games.
        "duplicate-pin": _error("a PIN used for two players"),
        "missing-name": _error("a player without NAME or SURNAME", _BARE),
        "no-code-or-club": _error("a player with neither a grading code nor a club", _BARE),
        "unknown-pin": _error("a result naming a PIN that is not in the player list"),
        "plays-himself": _error("PIN1 and PIN2 are the same player"),
        "repeated-pairing": _error("the same pair meets twice in one round", _BARE),
        "date-outside-event": _warning("a game dated outside EVENT DATE..FINAL RESULT DATE"),
        # Results file: checked by the import service against the database.
        # The issue makes this an error: linking games to the wrong player corrupts grades.
        "code-of-another-player": _error("a grading code on record under another name", _BARE),
        "stale-submission-index": _error("SUBMISSION INDEX not above the last one received"),
        "code-not-on-record": _warning(
            "a well-formed grading code not on record: the player is created with it", _BARE
        ),
        "import-conflict": _error(
            "the database refused the file; nothing was imported",
            "the database refused the file: {got}; nothing was imported",
        ),
        # Results file: held against the registry's columns and records (services/results/
        # checks.py), so that what would fail or be cut on one database is reported on both.
        "cut-short": _warning(
            "free text (a COMMENT, a part's name) longer than the registry stores: it is kept"
            " cut short"
        ),
        "future-event": _error(
            "an EVENT DATE after today",
            "expected {field} {expected}, got {got}: results of games not yet played",
        ),
        # An event abroad a direct member reports (services/abroad.py, issue 24).
        "date-outside-window": _error(
            "an event abroad dated before the lists still to come, or after today"
        ),
        "games-already-received": _warning(
            "graded games already on record under another event code (the same players,"
            " day, round and result): they would count twice",
            "expected {expected}, got {got}: they would count twice. If this file corrects"
            " that event, send it under that code with a higher SUBMISSION INDEX; else the"
            " grading team decides whether it corrects that event, only its new games"
            " count, or it is rejected",
        ),
        "withdrawn": _error("a stored file rejected by hand, never imported", _BARE),
        # Player details, in both files (services/people.py reads them for the registry).
        "too-long": _error("a name or number longer than the registry stores"),
        "bad-fide-id": _warning("a FIDE id not of 1 to 10 digits: it is not stored"),
        # An upload (services/officers.py): kept, rejected, never read.
        "not-text": _error("a binary file (a spreadsheet, a picture, an archive)", _BARE),
        # FIDE TRF (formats/trf.py): the same results model, read from fixed columns.
        "trf-line": _error("a TRF line whose columns cannot be read", _BARE),
        "trf-mismatch": _error("a game the two players' lines of a TRF give differently", _BARE),
        "trf-not-rated": _warning(
            "a game a TRF marks not rated (W, D, L): left out, not graded",
            "expected {expected}, got {got}: a game the pairing program marks not rated is"
            " left out and not graded",
        ),
        # Grading-list CSV.
        "unknown-header": _error("a header that is neither grading-list layout", _BARE),
        "bad-csv": _error("a record the CSV reader cannot read (say, a huge field)", _BARE),
        "bad-row-length": _error("a row without the 20 columns of the header", _BARE),
        "bad-category": _error("a category not X, A, B, C, D or E"),
        "bad-sex": _warning("a Sex not M or F"),
        "bad-nation": _warning("a Nation not of 3 letters"),
        "duplicate-code": _error("a grading code on two rows, or under two PINs"),
        "out-of-range": _error(
            "a number outside what a list or the registry holds (a grade, a junior age, a"
            " BOARD, minutes of a time control)"
        ),
        "grade-without-category": _error("a grade without its category, or the reverse (G23)"),
        "name-without-comma": _warning("a Name without a comma: all of it is taken as the surname"),
    }
)


@dataclass(frozen=True)
class Problem:
    """One problem, with where it is, what was expected and the bad value."""

    code: str
    severity: Severity
    line: int
    field: str
    expected: str
    got: str
    message: str

    @classmethod
    def make(cls, code: str, line: int, field: str, expected: str, got: str) -> Problem:
        kind = PROBLEM_CODES[code]
        field, got = printable(field), printable(got)
        shown = repr(got) if got else "nothing"
        text = kind.template.format(field=field, expected=expected, got=shown)
        return cls(code, kind.severity, line, field, expected, got, f"{text} (line {line})")

    def __str__(self) -> str:
        return self.message


MAX_SHOWN = 200  # characters of a bad value kept in a problem


def printable(text: str) -> str:
    """A value from a file as a report may store and show it: control characters (a NUL
    cannot be stored in PostgreSQL's text or jsonb) escaped, and at most MAX_SHOWN long."""
    text = text[: MAX_SHOWN * 2]  # enough to fill MAX_SHOWN once escaped
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


@dataclass(frozen=True)
class Problems:
    """Every problem of one file, in line order: what reading or checking it found."""

    problems: tuple[Problem, ...] = ()

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    @property
    def ok(self) -> bool:
        """True when nothing stops the file being accepted (warnings allowed)."""
        return not self.errors

    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)


class StopReading(Exception):
    """Raised by a strict log at the first error; readers catch it (``log``: the log
    that stopped, for a reader that has not got it yet)."""

    def __init__(self, message: str, log: ProblemLog) -> None:
        super().__init__(message)
        self.log = log


MAX_PROBLEMS = 1000  # problems listed per file; the rest are counted (a junk file)


@dataclass
class ProblemLog:
    """The problems found so far while one file is read, at most ``limit`` of them listed.

    Past the limit a problem is only counted, so that 50 MB of junk gives a report of a
    thousand lines and a count, not two million lines.
    """

    strict: bool = False
    problems: list[Problem] = field(default_factory=list)
    limit: int = MAX_PROBLEMS
    omitted_errors: int = 0
    omitted_warnings: int = 0
    first_omitted_line: int = 0

    def add(self, code: str, line: int, field: str, expected: str, got: str) -> None:
        severity = PROBLEM_CODES[code].severity
        if len(self.problems) < self.limit or (self.strict and severity == "error"):
            problem = Problem.make(code, line, field, expected, got)
            self.problems.append(problem)
            if self.strict and severity == "error":
                raise StopReading(problem.message, self)
            return
        self.first_omitted_line = self.first_omitted_line or line
        if severity == "error":
            self.omitted_errors += 1
        else:
            self.omitted_warnings += 1

    def report(self) -> Problems:
        return Problems(tuple(sorted([*self.problems, *self._omitted()], key=lambda p: p.line)))

    def _omitted(self) -> list[Problem]:
        """One problem standing for those not listed (an error if any of them is)."""
        errors, warnings = self.omitted_errors, self.omitted_warnings
        if not errors + warnings:
            return []
        code = "more-problems" if errors else "more-warnings"
        expected = f"at most {self.limit:,} problems listed in one report"
        got = f"{errors:,} more errors and {warnings:,} more warnings from here on"
        return [Problem.make(code, self.first_omitted_line, "", expected, got)]


def decoded(data: bytes, strict: bool, limit: int = MAX_PROBLEMS) -> tuple[str, ProblemLog]:
    """Bytes as text, and a problem log that already names the lines that could not be
    read faithfully (an error) and the Windows-1252 lines of a UTF-8 file (a warning)."""
    from ecfgrading.formats.encoding import decode

    result = decode(data)
    log = ProblemLog(strict, limit=limit)
    lines = result.text.split("\n") if result.bad_lines or result.fallback_lines else []
    expected = "UTF-8 or Windows-1252 text, one encoding per line"
    for number in result.bad_lines:
        log.add("bad-encoding", number, "", expected, lines[number - 1].strip())
    if result.fallback_lines:
        first = result.fallback_lines[0]
        count = len(result.fallback_lines)
        plural = "s" if count > 1 else ""
        got = f"{count} line{plural} in Windows-1252, first {lines[first - 1].strip()!r}"
        log.add("mixed-encoding", first, "", "a file in one encoding", got)
    return result.text, log


T = TypeVar("T")


def read_decoded(
    data: bytes,
    strict: bool,
    limit: int,
    read: Callable[[str, ProblemLog], tuple[T | None, Problems]],
) -> tuple[T | None, Problems]:
    """``data`` decoded (``decoded``) and read by ``read``. Never raises: a line in no
    encoding stops a strict reading there, with its problem, and nothing is read."""
    try:
        text, log = decoded(data, strict, limit)
    except StopReading as stopped:
        return None, stopped.log.report()
    return read(text, log)
