"""Fields of a results file: ``#NAME=value`` tokens, with tables expanded."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from typing import NamedTuple

from ecfgrading.formats.problems import ProblemLog


class Token(NamedTuple):
    """One field: ``key`` is the name upper-cased without spaces; ``value`` None if no '='.

    A whole line in the common shape of a set is one token (``key`` RESULT_LINE or
    PLAYER_LINE, ``raw`` the line, ``fields`` its values by LINE_FIELDS, None where
    absent); ``fields_of`` gives the fields the line holds, exactly as lexing it would.
    """

    line: int
    key: str
    value: str | None
    raw: str
    fields: tuple[str | None, ...] | None = None

    @property
    def name(self) -> str:
        """The name as written, for messages: ``#Event  code=`` gives 'EVENT CODE'."""
        return " ".join(self.raw.partition("=")[0].split()).upper()


# A set as writers print it (formats.results_writer's order), one line, names in capitals:
# most lines of a file. It is one token, its values read without splitting the line into
# fields; any other line (another order, a repeated field, padded names) is lexed field by
# field. Values a shape does not pin down keep their padding, for the reader to strip.
RESULT_LINE = "#RESULT"  # never a lexed key: '#' separates fields
PLAYER_LINE = "#PLAYER"
_TEXT = "[^#]*"
_DATE = "[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}"
_NUMBER = "[0-9]{1,9}"
_SHAPES: dict[str, tuple[tuple[str, str, bool], ...]] = {  # name, value, mandatory
    RESULT_LINE: (
        ("PIN1", _NUMBER, True),
        ("SCORE", "[0-9dD]{2}", True),
        ("PIN2", _NUMBER, True),
        ("COLOUR", "[A-Za-z]{1,5}", False),
        ("GAME DATE", _DATE, False),
        ("BOARD", _NUMBER, False),
        ("ROUND", "[0-9]{1,2}", False),
    ),
    PLAYER_LINE: (
        ("PIN", _NUMBER, True),
        *((name, _TEXT, False) for name in ("ECF CODE", "NAME", "SURNAME", "FORENAME")),
        *((name, _TEXT, False) for name in ("INITIALS", "GENDER", "TITLE", "CLUB CODE")),
        *((name, _TEXT, False) for name in ("CLUB NAME", "CLUB COUNTY", "ECF NO", "FIDE NO")),
        ("COMMENT", _TEXT, False),
        ("DATE OF BIRTH", _DATE, False),
    ),
}
# Each shape's field names, and whether a value may be padded (the reader strips it).
LINE_FIELDS = {
    kind: tuple((name, value == _TEXT) for name, value, _ in shape)
    for kind, shape in _SHAPES.items()
}


def _pattern(shape: tuple[tuple[str, str, bool], ...]) -> re.Pattern[str]:
    fields = (f"(?:#{name}=({value}))" + ("" if needed else "?") for name, value, needed in shape)
    return re.compile("".join(fields) + r"#?\r?")


_LINES = tuple((kind, _pattern(shape).fullmatch) for kind, shape in _SHAPES.items())


def lex(text: str, log: ProblemLog) -> list[Token]:
    """Every field up to ``#FINISH``; names ignore case and spaces (results-file.md)."""
    tokens: list[Token] = []
    keys: dict[str, str] = {}  # name as written -> key; a file repeats a few dozen names
    lines = text.split("\n")
    (result, result_line), (player, player_line) = _LINES
    for number, line in enumerate(lines, 1):
        if match := result_line(line):
            tokens.append(_new(Token, (number, result, None, line, match.groups())))
            continue
        if match := player_line(line):
            tokens.append(_new(Token, (number, player, None, line, match.groups())))
            continue
        head, sep, rest = line.partition("#")
        if head.strip():
            log.add("stray-text", number, "", "a field starting with '#'", head.strip())
        if sep and _lex_line(number, rest, keys, tokens):
            return tokens
    last = max(1, len(lines) - (lines[-1] == ""))  # the line a final newline ends
    log.add("missing-finish", last, "FINISH", "#FINISH at the end of the file", "")
    return tokens


def _lex_line(number: int, rest: str, keys: dict[str, str], tokens: list[Token]) -> bool:
    """Append the fields of one line; True at ``#FINISH``."""
    segments = rest.split("#")
    if not segments[-1].strip():
        segments.pop()  # a trailing '#', as in '#FINISH#'
    for segment in segments:
        name, eq, value = segment.partition("=")
        key = keys.get(name)
        if key is None:
            key = keys[name] = name.replace(" ", "").strip().upper()
        if key == "FINISH":
            return True
        tokens.append(_new(Token, (number, key, value.strip() if eq else None, segment, None)))
    return False


def fields_of(token: Token) -> list[Token]:
    """A line token as the fields lexing its line one by one gives."""
    tokens: list[Token] = []
    _lex_line(token.line, token.raw.partition("#")[2], {}, tokens)
    return tokens


def plain(tokens: Iterable[Token]) -> Iterator[Token]:
    """Every field, line tokens taken apart."""
    for token in tokens:
        if token.fields is None:
            yield token
        else:
            yield from fields_of(token)


_new = tuple.__new__  # skips NamedTuple's Python-level __new__ on the hot path


TABLE_KEYS = frozenset({"COLUMN", "TABLESTART", "TABLEEND"})


def expand_tables(tokens: list[Token], known: Collection[str], log: ProblemLog) -> list[Token]:
    """Turn ``#COLUMN=..`` / ``#TABLE START`` / values / ``#TABLE END`` into plain fields."""
    if not any(token.key in TABLE_KEYS for token in tokens):
        return tokens
    return list(_expand(list(plain(tokens)), known, log))


def _expand(tokens: list[Token], known: Collection[str], log: ProblemLog) -> Iterator[Token]:
    stream = iter(tokens)
    columns: list[Token] = []
    table_done = False
    for token in stream:
        if token.key == "COLUMN":
            if table_done:
                columns, table_done = [], False
            columns.extend(_column(token, known, log))
        elif token.key == "TABLESTART":
            yield from _rows(_values(stream, token, log), columns, token, log)
            table_done = True
        elif token.key == "TABLEEND":
            log.add("bad-table", token.line, "TABLE END", "#TABLE START before it", "TABLE END")
        else:
            yield token


def _column(token: Token, known: Collection[str], log: ProblemLog) -> list[Token]:
    key = (token.value or "").replace(" ", "").upper()
    if key in known:
        return [token._replace(key=key)]
    log.add("unknown-field", token.line, "COLUMN", "a field name of the results file", key)
    return [token._replace(key="")]  # keeps the count of columns; its values are dropped


def _values(stream: Iterator[Token], start: Token, log: ProblemLog) -> list[Token]:
    values: list[Token] = []
    for token in stream:
        if token.key == "TABLEEND":
            return values
        values.append(token)
    last = values[-1].line if values else start.line
    log.add("bad-table", last, "TABLE END", "#TABLE END after the values", "")
    return values


def _rows(
    values: list[Token], columns: list[Token], start: Token, log: ProblemLog
) -> Iterator[Token]:
    if not columns:
        log.add("bad-table", start.line, "COLUMN", "#COLUMN fields before #TABLE START", "")
        return
    width = len(columns)
    if len(values) % width:
        line = values[-1].line
        expected = f"a multiple of {width} values (one per COLUMN)"
        log.add("table-size", line, "TABLE END", expected, str(len(values)))
    for index, value in enumerate(values):
        column = columns[index % width]
        if column.key:
            given = value.raw.strip()
            yield Token(value.line, column.key, given, f"{column.value}={given}")
