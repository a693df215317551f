"""The FIDE Tournament Report File (TRF-16), the report every pairing program writes,
read into the results model the results-file reader produces (issue 11, item 8).

A TRF has fixed columns. Lines start with a three-digit code: ``012`` the event's name,
``042``/``052`` its first and last days, ``122`` the time control, ``132`` the rounds'
dates, and one ``001`` line per player::

    001 SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR
        then per round, from column 92, ten columns each: "OOOO c r "
        (opponent's start rank, colour w/b, result)

A TRF carries no event code, no submission index and no club, so the caller gives the
first two (the officer picks his registered event) and may give the time control the
event was registered with; players are identified by FIDE id and name. Each game stands
on both players' lines: it is read once, from the lower start rank's side, and the other
line must agree. Results (G1): ``1 = 0`` are games; ``+ -`` forfeits are recorded as
defaults (1d, d1, dd), never graded; ``W D L`` (played, "not rated" by the pairing
program) are left out with a warning; byes (``H F U Z``, or no opponent) are not games.
Pure: no Django, no I/O; every problem is collected with its line number.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date

from ecfgrading.engine.rateplay import Session, TimeControl
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.names import full_name
from ecfgrading.formats.problems import (
    MAX_PROBLEMS,
    ProblemLog,
    Problems,
    read_decoded,
)
from ecfgrading.formats.results_model import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
)

Reading = tuple[ResultsFile | None, Problems]

# Columns of a 001 line (TRF-16, 1-based inclusive, as the FIDE handbook gives them).
_RANK, _SEX, _TITLE, _NAME = (5, 8), (10, 10), (11, 13), (15, 47)
_FED, _FIDE_ID, _BIRTH = (54, 56), (58, 68), (70, 79)
_FIRST_ROUND, _ROUND_WIDTH = 92, 10  # round r: opponent 92+10(r-1)..+3, colour +5, result +7
_ROUND = re.compile(r"^ {0,3}(\d{1,4}| {4}) ([wb\- ]) ([10=+\-WDLHFUZ ])$", re.IGNORECASE)

_PLAYED = {"1": ResultCode.WIN, "0": ResultCode.LOSS, "=": ResultCode.DRAW}
_FORFEIT = {"+": ResultCode.DEFAULT_WIN, "-": ResultCode.DEFAULT_LOSS}
_NOT_RATED = {"W", "D", "L"}
_MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}


_PLAYER_LINE = re.compile(rb"^001 [ 0-9]{3}[0-9] ")


def is_trf(data: bytes) -> bool:
    """A TRF by its content: a 001 line with a start rank in its columns near the top (a
    results file is ``#`` fields; a letter that mentions "001" has no such columns)."""
    head = data[:8192].removeprefix(b"\xef\xbb\xbf").splitlines()[:200]
    if any(line.lstrip().startswith(b"#") for line in head[:5]):
        return False
    return any(_PLAYER_LINE.match(line) for line in head)


@dataclass(frozen=True)
class TrfEvent:
    """What a TRF lacks and the caller knows: the event's code and submission index, and
    the time control it was registered with (the 122 line is free text)."""

    code: str
    submission_index: int
    time_control: TimeControl | None = None


@dataclass(frozen=True)
class _Round:
    number: int
    opponent: int | None  # None: a bye or not paired
    colour: str  # "w", "b" or ""
    result: str  # one character, upper case; "" when blank
    line: int


@dataclass
class _Player:
    entry: PlayerEntry
    rounds: dict[int, _Round] = field(default_factory=dict)


def read_trf_bytes(
    data: bytes, event: TrfEvent, *, strict: bool = False, max_problems: int = MAX_PROBLEMS
) -> Reading:
    """Read a TRF's bytes (UTF-8, else Windows-1252: formats.encoding). Never raises: a
    line in no encoding stops a strict reading there, with its problem."""
    return read_decoded(
        data, strict, max_problems, lambda text, log: parse_trf(text, event, log=log)
    )


def parse_trf(text: str, event: TrfEvent, *, log: ProblemLog | None = None) -> Reading:
    """The file as a results file of one section, and the report of every problem. None
    when it holds no 001 line at all."""
    log = log or ProblemLog()
    lines = text.lstrip("\ufeff").split("\n")
    heads: dict[str, tuple[int, str]] = {}
    players: dict[int, _Player] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        code = line[:3]
        if code == "001":
            _read_player(line, number, players, log)
        elif code in ("012", "042", "052", "122", "132") and code not in heads:
            heads[code] = (number, line)
    if not players:
        log.add("empty-file", 1, "", "a TRF with 001 player lines", text[:40].strip())
        return None, log.report()
    details = _event(heads, event, log)
    games = tuple(_games(players, _round_dates(heads), log))
    part = ResultsPart(PartKind.SECTION, name=details.name, games=games, line=1)
    entries = tuple(p.entry for p in players.values())
    return ResultsFile(details, entries, (part,)), log.report()


# --- players ------------------------------------------------------------------------------


def _cut(line: str, columns: tuple[int, int]) -> str:
    return line[columns[0] - 1 : columns[1]].strip()


def _read_player(line: str, number: int, players: dict[int, _Player], log: ProblemLog) -> None:
    rank_text = _cut(line, _RANK)
    if not rank_text.isdigit():
        log.add("trf-line", number, "001", "a start rank in columns 5-8", rank_text)
        return
    rank = int(rank_text)
    if rank in players:
        first = players[rank].entry.line
        log.add("duplicate-pin", number, "start rank", f"unique (line {first})", rank_text)
        return
    name = _cut(line, _NAME)
    if not name:
        log.add("missing-name", number, "name", "a name in columns 15-47", "")
    entry = PlayerEntry(
        pin=rank,
        name=_comma_name(name),
        gender=_sex(_cut(line, _SEX)),
        title=_cut(line, _TITLE),
        date_of_birth=_birth(line, number, log),
        fide_no=_fide_id(_cut(line, _FIDE_ID)),
        comment=_cut(line, _FED),
        line=number,
    )
    players[rank] = _Player(entry, dict(_rounds(line, number, log)))


def _comma_name(name: str) -> str:
    """TRF writes ``Surname,Forenames``; the registry reads ``Surname, Forenames``."""
    surname, comma, given = name.partition(",")
    return full_name(surname.strip(), given.strip()) if comma else name


def _sex(text: str) -> str:
    return {"m": "M", "w": "F", "f": "F"}.get(text.lower(), "")


def _fide_id(text: str) -> str:
    """0 (or nothing) means no FIDE id; services/people.py checks the rest."""
    return "" if text.strip("0") == "" else text


def _birth(line: str, number: int, log: ProblemLog) -> date | None:
    text = _cut(line, _BIRTH)
    if not text or text.strip("0./- ") == "":
        return None
    found = _day(text)
    if found is None:
        log.add("bad-date", number, "birth date", "YYYY/MM/DD in columns 70-79", text)
    return found


def _rounds(line: str, number: int, log: ProblemLog) -> Iterator[tuple[int, _Round]]:
    start, count = _FIRST_ROUND - 1, 0
    while start < len(line.rstrip()):
        count += 1
        cell = line[start : start + _ROUND_WIDTH - 1].ljust(_ROUND_WIDTH - 1)[:8]
        match = _ROUND.match(cell)
        if match is None:
            expected = f"round {count}: opponent, colour w/b, result 1 = 0 + - W D L H F U Z"
            log.add("trf-line", number, f"round {count}", expected, cell.strip())
        else:
            yield count, _round(count, match, number)
        start += _ROUND_WIDTH


def _round(count: int, match: re.Match[str], number: int) -> _Round:
    opponent_text, colour, result = match.group(1).strip(), match.group(2), match.group(3)
    opponent = int(opponent_text) if opponent_text and int(opponent_text) else None
    return _Round(count, opponent, colour.strip("- ").lower(), result.strip().upper(), number)


# --- games ------------------------------------------------------------------------------


def _games(
    players: dict[int, _Player], dates: dict[int, date], log: ProblemLog
) -> Iterator[GameResult]:
    """Each game once, from the lower start rank's line, checked against the other's."""
    for rank in sorted(players):
        for played in players[rank].rounds.values():
            other = played.opponent
            if other is None or played.result in ("H", "F", "U", "Z", ""):
                continue  # a bye, or not paired: not a game
            if other == rank:
                where = f"round {played.number}"
                log.add("plays-himself", played.line, where, "another player", str(other))
                continue
            if other not in players:
                expected = "the start rank of a player on a 001 line"
                log.add("unknown-pin", played.line, f"round {played.number}", expected, str(other))
                continue
            if other < rank:
                continue  # read from the other's line
            mirror = _mirror(played, players[other], rank, log)
            if mirror is not None:
                yield from _game(rank, other, played, mirror, dates.get(played.number), log)


def _mirror(played: _Round, other: _Player, rank: int, log: ProblemLog) -> _Round | None:
    """The other player's side of the game, when it agrees (opponent, colour, result)."""
    mirror = other.rounds.get(played.number)
    colours = {"w": "b", "b": "w", "": ""}
    both_forfeited = played.result == "-" and mirror is not None and mirror.result == "-"
    if (
        mirror is not None
        and mirror.opponent == rank
        and mirror.colour == colours[played.colour]
        and (mirror.result == _MIRROR.get(played.result) or both_forfeited)
    ):
        return mirror
    shown = f"{mirror.opponent or 0} {mirror.colour or '-'} {mirror.result}" if mirror else ""
    expected = (
        f"round {played.number} of start rank {other.entry.pin} against {rank},"
        f" as line {played.line} gives it"
    )
    log.add("trf-mismatch", other.entry.line, f"round {played.number}", expected, shown)
    return None


def _game(
    rank: int, other: int, played: _Round, mirror: _Round, day: date | None, log: ProblemLog
) -> Iterator[GameResult]:
    """The game from ``rank``'s side, unless the pairing program marked it not rated."""
    result = played.result
    if result in _NOT_RATED:
        expected = f"a rated game in round {played.number} ({rank} against {other})"
        log.add("trf-not-rated", played.line, f"round {played.number}", expected, result)
        return
    if result == "-" and mirror.result == "-":
        score = ResultCode.DOUBLE_DEFAULT
    else:
        score = {**_PLAYED, **_FORFEIT}[result]
    colour = {"w": Colour.WHITE, "b": Colour.BLACK}.get(played.colour)
    yield GameResult(
        rank, score, other, colour=colour, game_date=day, round=played.number, line=played.line
    )


# --- the event --------------------------------------------------------------------------


def _event(heads: dict[str, tuple[int, str]], event: TrfEvent, log: ProblemLog) -> EventDetails:
    name_line, name = _head(heads, "012")
    if not name:
        log.add("missing-field", name_line, "012", "the event's name", "")
    first = _head_day(heads, "042", log)
    last = _head_day(heads, "052", log) or first
    if first is None:
        log.add("missing-field", _head(heads, "042")[0], "042", "the first day, YYYY/MM/DD", "")
    control = event.time_control or _control(heads, log)
    if first and last and last < first:
        log.add("dates-reversed", heads["052"][0], "052", f"on or after {first}", str(last))
    return EventDetails(
        code=event.code,
        submission_index=event.submission_index,
        name=name,
        event_date=first,
        final_result_date=last,
        time_control=control,
        line=name_line,
    )


def _head(heads: dict[str, tuple[int, str]], code: str) -> tuple[int, str]:
    number, line = heads.get(code, (1, ""))
    return number, line[4:].strip()


def _head_day(heads: dict[str, tuple[int, str]], code: str, log: ProblemLog) -> date | None:
    number, text = _head(heads, code)
    if not text:
        return None
    found = _day(text)
    if found is None:
        log.add("bad-date", number, code, "a date such as 2013/05/11", text)
    return found


_NUMBERS = re.compile(r"\d+")


def _day(text: str) -> date | None:
    """YYYY/MM/DD (TRF-16), also with dots or dashes, or DD.MM.YYYY as older files have."""
    parts = _NUMBERS.findall(text)
    if len(parts) != 3:
        return None
    if len(parts[0]) == 4:
        year, month, day = parts
    elif len(parts[2]) == 4:
        day, month, year = parts
    else:
        return None
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


_GAME_PLUS = re.compile(r"^(\d+)\s*(?:min|m|')?\s*(?:\+\s*(\d+)\s*(?:sec|s|\"|'')?)?$", re.I)


def _control(heads: dict[str, tuple[int, str]], log: ProblemLog) -> TimeControl | None:
    """The 122 line when it is minutes for the game and an increment (``90+30``,
    ``60 min + 30 sec``); other forms need the control given with the event."""
    number, text = _head(heads, "122")
    match = _GAME_PLUS.match(text.strip())
    if match is None:
        expected = "a time control such as 90+30 (minutes + seconds a move), or the event's own"
        log.add("no-time-control", number, "122", expected, text)
        return None
    increment = float(match.group(2) or 0)
    return TimeControl((Session(float(match.group(1))),), increment_seconds=increment)


def _round_dates(heads: dict[str, tuple[int, str]]) -> dict[int, date]:
    """The 132 line's dates of the rounds (YY/MM/DD from column 92), where it gives them."""
    _, line = heads.get("132", (0, ""))
    found: dict[int, date] = {}
    start, number = _FIRST_ROUND - 1, 1
    while start < len(line):
        cell = line[start : start + 8].strip()
        parts = _NUMBERS.findall(cell)
        if len(parts) == 3 and len(parts[0]) == 2:
            with contextlib.suppress(ValueError):  # not a day: the game goes undated
                found[number] = date(2000 + int(parts[0]), int(parts[1]), int(parts[2]))
        start, number = start + _ROUND_WIDTH, number + 1
    return found
