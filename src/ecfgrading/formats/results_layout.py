"""Group the fields of a results file into sections and sets, before any value is read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from ecfgrading.formats.lexer import PLAYER_LINE, RESULT_LINE, Token, fields_of
from ecfgrading.formats.problems import ProblemLog
from ecfgrading.formats.results_fields import (
    ALL_FIELDS,
    EVENT_DETAILS,
    EVENT_FIELDS,
    PART_FIELDS,
    PART_HEADERS,
    PLAYER_FIELDS,
    PLAYER_LIST,
    RESULT_FIELDS,
)
from ecfgrading.formats.results_model import PartKind


class Section(IntEnum):
    """Sections in the order results-file.md gives them."""

    NONE = -1
    EVENT = 0
    PLAYERS = 1
    PART = 2


_ORDER = "EVENT DETAILS, then PLAYER LIST, then results parts; the first two once"
_SECTION_NAMES = {
    Section.EVENT: "EVENT DETAILS",
    Section.PLAYERS: "PLAYER LIST",
    Section.PART: "a results part",
}


@dataclass
class PartLayout:
    """One results part: its header, its part fields and its result sets."""

    kind: PartKind
    header: Token
    fields: list[Token] = field(default_factory=list)
    sets: list[list[Token]] = field(default_factory=list)


@dataclass
class Layout:
    """The fields of a file, grouped; nothing converted yet."""

    event_line: int = 1
    event: list[Token] = field(default_factory=list)
    players: list[list[Token]] = field(default_factory=list)
    parts: list[PartLayout] = field(default_factory=list)
    empty: bool = True


_HEADERS = frozenset({EVENT_DETAILS, PLAYER_LIST, *PART_HEADERS})
Route = Callable[[Token], None]


@dataclass
class _Grouper:
    log: ProblemLog
    layout: Layout = field(default_factory=Layout)
    section: Section = Section.NONE
    current: list[Token] | None = None  # the set being filled
    handler: Route | None = None  # where the fields of the open section go
    line_key: str | None = None  # the line tokens that are sets of the open section
    line_sets: list[list[Token]] = field(default_factory=list)  # where those sets go

    def route(self, token: Token) -> None:
        """One field: a header opens its section; any other goes to the open one."""
        if token.key in _HEADERS:
            self.handler = self.open(token)
        elif self.handler is None:
            self.handler = self.headless(token)
        else:
            self.handler(token)

    def open(self, token: Token) -> Route:
        """Start a section; returns the handler for its fields."""
        section = _section_of(token.key)
        self._check_order(token, section)
        self.section, self.current = section, None
        if section is Section.EVENT:
            self.layout.event_line = token.line
            self.line_key = None
            return self.event_field
        if section is Section.PLAYERS:
            self.line_key, self.line_sets = PLAYER_LINE, self.layout.players
            return self.player_field
        part = PartLayout(PART_HEADERS[token.key], token)
        self.layout.parts.append(part)
        self.line_key, self.line_sets = RESULT_LINE, part.sets
        return self.result_field

    def _check_order(self, token: Token, section: Section) -> None:
        if section < self.section or (section == self.section and section is not Section.PART):
            got = f"{token.name} after {_SECTION_NAMES[self.section]}"
            self.log.add("section-order", token.line, token.name, _ORDER, got)
        elif self.section is Section.NONE and section is not Section.EVENT:
            self._missing(token, "EVENT DETAILS", "#EVENT DETAILS first")
        elif section is Section.PART and self.section is Section.EVENT:
            self._missing(token, "PLAYER LIST", "#PLAYER LIST before the results")

    def _missing(self, token: Token, name: str, expected: str) -> None:
        self.log.add("missing-section", token.line, name, expected, token.name)

    def headless(self, token: Token) -> Route:
        """A field before any section: taken as EVENT DETAILS, once reported."""
        self._missing(token, "EVENT DETAILS", "#EVENT DETAILS first")
        self.section = Section.EVENT
        self.layout.event_line = token.line
        self.event_field(token)
        return self.event_field

    def event_field(self, token: Token) -> None:
        if token.key in EVENT_FIELDS:
            self.layout.event.append(token)
        else:
            self._stray(token, "EVENT DETAILS")

    def player_field(self, token: Token) -> None:
        key = token.key
        if key == "PIN":
            self.current = [token]
            self.layout.players.append(self.current)
        elif key not in PLAYER_FIELDS:
            self._stray(token, "a player set")
        elif self.current is None:
            self.log.add("field-order", token.line, "PIN", "PIN first in a player set", token.name)
        else:
            self.current.append(token)

    def line_set(self, token: Token) -> None:
        """A line token: a set of its own, unless its fields belong to another section."""
        if token.key != self.line_key:
            for field_token in fields_of(token):
                self.route(field_token)
            return
        self.current = [token]  # fields on the lines after it join it, as they would PIN
        self.line_sets.append(self.current)

    def result_field(self, token: Token) -> None:
        key = token.key
        if key in RESULT_FIELDS and self.current is not None and key != "PIN1":
            self.current.append(token)  # the common case first
        elif key == "PIN1":
            self.current = [token]
            self.layout.parts[-1].sets.append(self.current)
        elif key in PART_FIELDS:
            self.layout.parts[-1].fields.append(token)
        elif key in RESULT_FIELDS:
            self.log.add(
                "field-order", token.line, "PIN1", "PIN1 first in a result set", token.name
            )
        else:
            self._stray(token, "a result set")

    def _stray(self, token: Token, where: str) -> None:
        if not token.key:
            if token.value is not None:  # '#=value'
                self.log.add(
                    "unknown-field", token.line, "", "a field name of the results file", ""
                )
        elif token.key in ALL_FIELDS:
            self.log.add(
                "misplaced-field", token.line, token.name, f"a field of {where}", token.name
            )
        else:
            expected = "a field name of the results file"
            self.log.add("unknown-field", token.line, token.name, expected, token.name)


def _section_of(key: str) -> Section:
    if key == EVENT_DETAILS:
        return Section.EVENT
    return Section.PLAYERS if key == PLAYER_LIST else Section.PART


def group(tokens: Sequence[Token], log: ProblemLog) -> Layout:
    """Sections and sets: a player set starts at PIN, a result set at PIN1."""
    grouper = _Grouper(log)
    grouper.layout.empty = not tokens
    line_key, line_sets = grouper.line_key, grouper.line_sets
    try:
        for token in tokens:
            if token.fields is None:
                grouper.route(token)
            elif token.key == line_key:  # most lines: line_set's common case, inlined
                grouper.current = [token]
                line_sets.append(grouper.current)
                continue
            else:
                grouper.line_set(token)
            line_key, line_sets = grouper.line_key, grouper.line_sets
    finally:
        # The handler is a method of the grouper: a cycle that would keep every token
        # of the file alive until the garbage collector's next full pass.
        grouper.handler = None
    return grouper.layout
