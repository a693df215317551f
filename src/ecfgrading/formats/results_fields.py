"""The field names of a results file, where each belongs, and how its value converts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.lexer import LINE_FIELDS, PLAYER_LINE, RESULT_LINE, TABLE_KEYS, Token
from ecfgrading.formats.problems import ProblemLog
from ecfgrading.formats.results_model import Colour, PartKind, WhiteOn
from ecfgrading.formats.values import BadValue, day, decimal, text, whole


def score(value: str) -> ResultCode:
    try:
        return ResultCode.from_text(value)
    except ValueError:
        raise BadValue("bad-score", "10, 01, 55, 1d, d1 or dd") from None


_COLOURS = {"WHITE": Colour.WHITE, "W": Colour.WHITE, "BLACK": Colour.BLACK, "B": Colour.BLACK}


def colour(value: str) -> Colour:
    try:
        return _COLOURS[value.upper()]
    except KeyError:
        raise BadValue("bad-colour", "WHITE, BLACK, W or B") from None


def white_on(value: str) -> WhiteOn:
    try:
        return WhiteOn(value.upper())
    except ValueError:
        raise BadValue("bad-white-on", "ALL, ODD, EVEN, NONE or UNKNOWN") from None


def round_number(value: str) -> int:
    if value.isascii() and value.isdigit() and len(value) <= 2 and 1 <= int(value) <= 99:
        return int(value)
    raise BadValue("bad-round", "a whole number from 1 to 99")


@dataclass(frozen=True)
class FieldSpec:
    """A field: its name in messages, the attribute it fills, its converter."""

    name: str
    attr: str
    convert: Callable[[str], Any] = text
    repeatable: bool = False


def _table(*specs: tuple[Sequence[str], FieldSpec]) -> Mapping[str, FieldSpec]:
    """Field keys are names upper-cased without spaces; aliases share one spec."""
    return MappingProxyType({key: spec for keys, spec in specs for key in keys})


def _one(name: str, attr: str, convert: Callable[[str], Any] = text) -> tuple[list[str], FieldSpec]:
    return [name.replace(" ", "")], FieldSpec(name, attr, convert)


EVENT_FIELDS = _table(
    _one("EVENT CODE", "code"),
    _one("SUBMISSION INDEX", "submission_index", whole),
    _one("EVENT NAME", "name"),
    _one("EVENT DATE", "event_date", day),
    (
        ["FINALRESULTDATE", "FINALRESULTSDATE"],
        FieldSpec("FINAL RESULT DATE", "final_result_date", day),
    ),
    _one("RESULTS OFFICER", "results_officer"),
    (
        ["RESULTSOFFICERADDRESS"],
        FieldSpec("RESULTS OFFICER ADDRESS", "results_officer_address", text, True),
    ),
    _one("TREASURER", "treasurer"),
    (["TREASURERADDRESS"], FieldSpec("TREASURER ADDRESS", "treasurer_address", text, True)),
    _one("MINUTES FOR GAME", "minutes_for_game", decimal),
    _one("MOVES FIRST SESSION", "moves_first", whole),
    _one("MINUTES FIRST SESSION", "minutes_first", decimal),
    _one("MOVES SECOND SESSION", "moves_second", whole),
    _one("MINUTES SECOND SESSION", "minutes_second", decimal),
    _one("MINUTES REST OF GAME", "minutes_rest", decimal),
    _one("SECONDS PER MOVE", "increment", decimal),
    _one("ENVIRONMENT", "environment"),
    _one("ADJUDICATED", "adjudicated"),
    _one("INFORM GRAND PRIX", "inform_grand_prix"),
    _one("INFORM FIDE", "inform_fide"),
    _one("INFORM CHESSMOVES", "inform_chessmoves"),
    _one("INFORM UNION", "inform_union"),
)

PLAYER_FIELDS = _table(
    _one("PIN", "pin", whole),
    (["REF", "ECFCODE", "BCFCODE"], FieldSpec("ECF CODE", "code_text")),
    _one("NAME", "name"),
    _one("SURNAME", "surname"),
    _one("FORENAME", "forename"),
    _one("INITIALS", "initials"),
    _one("GENDER", "gender"),
    _one("TITLE", "title"),
    _one("DATE OF BIRTH", "date_of_birth", day),
    _one("CLUB CODE", "club_code"),
    (["CLUBNAME", "CLUB"], FieldSpec("CLUB NAME", "club_name")),
    _one("CLUB COUNTY", "club_county"),
    (["ECFNO", "BCFNO"], FieldSpec("ECF NO", "membership_no")),
    _one("FIDE NO", "fide_no"),
    _one("COMMENT", "comment"),
)

PART_FIELDS = _table(
    _one("WHITE ON", "white_on", white_on),
    _one("RESULTS DATE", "results_date", day),
)

RESULT_FIELDS = _table(
    _one("PIN1", "pin1", whole),
    _one("SCORE", "score", score),
    _one("PIN2", "pin2", whole),
    _one("COLOUR", "colour", colour),
    _one("GAME DATE", "game_date", day),
    _one("BOARD", "board", whole),
    _one("ROUND", "round", round_number),
    _one("COMMENT", "comment"),
)

# Section headers; a part header's value is the part's name.
EVENT_DETAILS = "EVENTDETAILS"
PLAYER_LIST = "PLAYERLIST"
PART_HEADERS: Mapping[str, PartKind] = MappingProxyType(
    {kind.value.replace(" ", ""): kind for kind in PartKind}
)

ALL_FIELDS = frozenset(
    (*EVENT_FIELDS, *PLAYER_FIELDS, *PART_FIELDS, *RESULT_FIELDS, *PART_HEADERS, *TABLE_KEYS)
) | {EVENT_DETAILS, PLAYER_LIST}


def collect(
    tokens: Sequence[Token], specs: Mapping[str, FieldSpec], log: ProblemLog
) -> tuple[dict[str, Any], dict[str, int]]:
    """Converted values by attribute, and the line each attribute was first given on."""
    values: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for token in tokens:
        spec = specs[token.key]
        attr = spec.attr
        if attr in lines and not spec.repeatable:
            expected = f"once in a set (first on line {lines[attr]})"
            log.add("repeated-field", token.line, token.name, expected, token.value or "")
            continue
        lines.setdefault(attr, token.line)
        try:
            value = spec.convert(token.value or "")
        except BadValue as bad:
            log.add(bad.code, token.line, token.name, bad.expected, token.value or "")
            continue
        if spec.repeatable:
            values.setdefault(attr, []).append(value)
        else:
            values[attr] = value
    return values, lines


Converter = Callable[[str], Any]


def _line_specs(kind: str, specs: Mapping[str, FieldSpec]) -> tuple[tuple[str, Converter], ...]:
    """Each field's attribute and converter: a padded text value is stripped, as ``lex``
    strips a field's value; a line repeats few other values (PINs, dates) thousands of
    times a season, so those are converted once."""
    chosen = ((specs[name.replace(" ", "")], padded) for name, padded in LINE_FIELDS[kind])
    return tuple((spec.attr, _line_converter(spec.convert, padded)) for spec, padded in chosen)


def _line_converter(convert: Converter, padded: bool) -> Converter:
    if padded:
        assert convert is text, "a padded line value is text"
        return str.strip
    return convert if hasattr(convert, "cache_info") else lru_cache(maxsize=4096)(convert)


_LINE_SPECS = {
    RESULT_LINE: _line_specs(RESULT_LINE, RESULT_FIELDS),
    PLAYER_LINE: _line_specs(PLAYER_LINE, PLAYER_FIELDS),
}
# Each shape's fields in order: the attribute and the converter of each.
LINE_ATTRS = {kind: tuple(attr for attr, _ in specs) for kind, specs in _LINE_SPECS.items()}
LINE_CONVERTERS = {
    kind: tuple(convert for _, convert in specs) for kind, specs in _LINE_SPECS.items()
}


def collect_line(token: Token) -> tuple[dict[str, Any], dict[str, int]] | None:
    """``collect`` of a line token, whose fields are distinct; None when a value does not
    convert (``collect`` of its fields reports it)."""
    fields = token.fields or ()
    try:
        values = {
            attr: convert(given)
            for (attr, convert), given in zip(_LINE_SPECS[token.key], fields, strict=True)
            if given is not None
        }
    except BadValue:
        return None
    return values, dict.fromkeys(values, token.line)


def names_by_attr(specs: Mapping[str, FieldSpec]) -> Mapping[str, str]:
    """Attribute -> the field name used in messages."""
    return MappingProxyType({spec.attr: spec.name for spec in specs.values()})
