"""Player sets, result sets and parts, from grouped fields to values."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ecfgrading.engine.codes import GradingCode
from ecfgrading.formats.lexer import PLAYER_LINE, RESULT_LINE, Token, fields_of, plain
from ecfgrading.formats.problems import ProblemLog
from ecfgrading.formats.results_checks import (
    PartContext,
    check_game,
    check_pairing,
    check_player,
    check_unique_code,
    check_unique_pin,
    game_problems,
    player_problems,
)
from ecfgrading.formats.results_fields import (
    LINE_ATTRS,
    LINE_CONVERTERS,
    PART_FIELDS,
    PLAYER_FIELDS,
    RESULT_FIELDS,
    collect,
    collect_line,
)
from ecfgrading.formats.results_layout import PartLayout
from ecfgrading.formats.results_model import (
    GameResult,
    PlayerEntry,
    ResultsPart,
    game_at_once,
    player_in_order,
)
from ecfgrading.formats.values import BadValue, grading_code


def build_players(sets: Sequence[Sequence[Token]], log: ProblemLog) -> tuple[PlayerEntry, ...]:
    """Every player set whose PIN is readable; a PIN used twice is reported."""
    players: list[PlayerEntry] = []
    first_lines: dict[int, int] = {}
    first_pins: dict[int, tuple[int, int]] = {}
    for tokens in sets:
        player = quick_player(tokens[0]) if len(tokens) == 1 else None
        player = player or build_player(tokens, log)
        if player is not None:
            check_unique_pin(player, first_lines, log)
            if player.code is not None:
                check_unique_code(player, first_pins, log)
            players.append(player)
    return tuple(players)


def build_player(tokens: Sequence[Token], log: ProblemLog) -> PlayerEntry | None:
    tokens, read = _line_read(tokens)
    values, lines = read or collect(tokens, PLAYER_FIELDS, log)
    if "pin" not in values:
        return None
    code = _code(values.get("code_text", ""), lines, tokens, log)
    player = PlayerEntry(**values, code=code, line=tokens[0].line)
    check_player(player, lines, log)
    return player


def _code(
    text: str, lines: dict[str, int], tokens: Sequence[Token], log: ProblemLog
) -> GradingCode | None:
    """G28; an invalid code stays in ``code_text`` for the grading team to see."""
    if not text:
        return None
    try:
        return _grading_code(text)
    except BadValue as bad:
        line = lines["code_text"]
        name = next(t.name for t in plain(tokens) if t.line == line and t.key in _CODE_KEYS)
        log.add(bad.code, line, name, bad.expected, text)
        return None


# A season's files quote the same players' codes again and again.
_grading_code = lru_cache(maxsize=65536)(grading_code)
_CODE_KEYS = frozenset(key for key, spec in PLAYER_FIELDS.items() if spec.attr == "code_text")


def build_part(layout: PartLayout, context: PartContext, log: ProblemLog) -> ResultsPart:
    values, _ = collect(layout.fields, PART_FIELDS, log)
    met: dict[tuple[int, int, int], int] = {}
    games: list[GameResult] = []
    for tokens in layout.sets:
        game = quick_game(tokens[0], context) if len(tokens) == 1 else None
        game = game or build_game(tokens, context, log)
        if game is not None:
            if game.round is not None:
                check_pairing(game, met, log)
            games.append(game)
    name = layout.header.value or ""
    return ResultsPart(layout.kind, name, games=tuple(games), line=layout.header.line, **values)


def build_game(tokens: Sequence[Token], context: PartContext, log: ProblemLog) -> GameResult | None:
    values, lines = _game_fields(tokens, log)
    if not ("pin1" in values and "score" in values and "pin2" in values):
        return None
    game = GameResult(**values, line=tokens[0].line)
    check_game(game, lines, context, log)
    return game


def _game_fields(tokens: Sequence[Token], log: ProblemLog) -> tuple[dict[str, Any], dict[str, int]]:
    tokens, read = _line_read(tokens)
    if read is not None:
        return read
    _check_order(tokens, log)
    return collect(tokens, RESULT_FIELDS, log)


Read = tuple[dict[str, Any], dict[str, int]]  # collect's values and lines


def _line_read(tokens: Sequence[Token]) -> tuple[Sequence[Token], Read | None]:
    """A set that is one line token alone, read whole; else its fields, to collect."""
    first = tokens[0]
    if first.fields is None:
        return tokens, None
    read = collect_line(first) if len(tokens) == 1 else None
    return (tokens, read) if read is not None else ([*fields_of(first), *tokens[1:]], None)


def _check_order(tokens: Sequence[Token], log: ProblemLog) -> None:
    """PIN1, SCORE, PIN2 first and in that order (results-file.md)."""
    if len(tokens) >= 3 and tokens[1].key == "SCORE" and tokens[2].key == "PIN2":
        return
    keys = [token.key for token in tokens]
    wanted = 1  # where the next mandatory field belongs
    for key, before in (("SCORE", "PIN1"), ("PIN2", "SCORE")):
        if key not in keys:
            log.add("missing-field", tokens[0].line, key, "in every result set", "")
            continue
        found = keys.index(key)
        if found != wanted:
            got = tokens[wanted].name if wanted < len(tokens) else ""
            log.add("field-order", tokens[found].line, key, f"{key} right after {before}", got)
        wanted = found + 1


# Most sets are one line in the writer's shape with nothing wrong: these read them
# without the per-field bookkeeping that reports problems, and give None for anything
# else (a value that does not convert, a problem a check finds), which is then read by
# build_player or build_game from the start, reporting what it finds.
_PIN, _BORN = LINE_CONVERTERS[PLAYER_LINE][0], LINE_CONVERTERS[PLAYER_LINE][-1]
# The texts of a player line (all but PIN and DATE OF BIRTH), in the order of the line's
# shape, which is that of PlayerEntry's fields too; stripped, as lexing a field strips it.
_PLAYER_TEXTS = slice(1, -1)
if LINE_ATTRS[PLAYER_LINE][_PLAYER_TEXTS] != (
    "code_text",
    "name",
    "surname",
    "forename",
    "initials",
    "gender",
    "title",
    "club_code",
    "club_name",
    "club_county",
    "membership_no",
    "fide_no",
    "comment",
):
    raise TypeError("quick_player reads a player line of another shape")
_PIN1, _SCORE, _PIN2, _COLOUR, _DAY, _BOARD, _ROUND = LINE_CONVERTERS[RESULT_LINE]
ResultFields = tuple[str, str, str, str | None, str | None, str | None, str | None]


def quick_player(token: Token) -> PlayerEntry | None:
    """A player line that ``build_player`` would read without a problem, or None."""
    fields = token.fields
    if token.key != PLAYER_LINE or fields is None:
        return None
    (
        code_text,
        name,
        surname,
        forename,
        initials,
        gender,
        title,
        club_code,
        club_name,
        club_county,
        membership_no,
        fide_no,
        comment,
    ) = ["" if text is None else text.strip() for text in fields[_PLAYER_TEXTS]]
    born = fields[-1]
    try:
        pin = _PIN(fields[0])  # type: ignore[arg-type]  # never absent in the shape
        date_of_birth = None if born is None else _BORN(born)
        code = _grading_code(code_text) if code_text else None
    except BadValue:
        return None
    player = player_in_order(
        pin,
        code_text,
        code,
        name,
        surname,
        forename,
        initials,
        gender,
        title,
        date_of_birth,
        club_code,
        club_name,
        club_county,
        membership_no,
        fide_no,
        comment,
        token.line,
    )
    return None if player_problems(player) else player


def quick_game(token: Token, part: PartContext) -> GameResult | None:
    """A result line that ``build_game`` would read without a problem, or None."""
    if token.key != RESULT_LINE:
        return None
    fields: ResultFields = token.fields  # type: ignore[assignment]  # the shape's, read whole
    pin1, score, pin2, colour, day, board, round_ = fields
    try:
        game = game_at_once(
            _PIN1(pin1),
            _SCORE(score),
            _PIN2(pin2),
            None if colour is None else _COLOUR(colour),
            None if day is None else _DAY(day),
            None if board is None else _BOARD(board),
            None if round_ is None else _ROUND(round_),
            token.line,
        )
    except BadValue:
        return None
    return None if game_problems(game, day is not None, part) else game
