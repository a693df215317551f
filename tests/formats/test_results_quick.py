"""A set on one line in the writer's shape with nothing wrong is read by a quick path
(formats.results_sets: quick_player, quick_game) that gives way to the full reading at
anything unusual, so that every problem is still found, on its line, in the same words.
The records it makes (results_model.game_at_once, player_at_once) are the records
``__init__`` makes."""

from __future__ import annotations

import pickle
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import date

import pytest
from hypothesis import given

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats import Colour, GameResult, PartKind, PlayerEntry, parse_results
from ecfgrading.formats.lexer import PLAYER_LINE, RESULT_LINE, Token, lex
from ecfgrading.formats.problems import ProblemLog
from ecfgrading.formats.results_checks import PartContext
from ecfgrading.formats.results_model import _defaults, game_at_once, player_at_once
from ecfgrading.formats.results_sets import quick_game, quick_player
from tests.formats.samples import line_of, results_text
from tests.formats.strategies import games, players
from tests.formats.test_results_lines import assert_read_alike

# The event of samples.EVENT, and the PINs of samples.PLAYERS.
SECTION = PartContext(
    PartKind.SECTION, frozenset({1, 2, 3, 4}), date(2013, 5, 11), date(2013, 5, 12)
)


def token_of(line: str) -> Token:
    (token,) = lex(line + "\n#FINISH\n", ProblemLog())
    return token


# -- records made at once ---------------------------------------------------------------


def assert_same_record(made: object, built: object) -> None:
    assert made == built
    assert hash(made) == hash(built)
    assert repr(made) == repr(built)
    assert list(vars(made).items()) == list(vars(built).items())  # the same fields, in order
    assert pickle.loads(pickle.dumps(made)) == built


@given(games)
def test_a_game_made_at_once_is_the_game_init_makes(game: GameResult) -> None:
    game = replace(game, comment="")  # a line in the writer's shape has no comment
    fields = {name: value for name, value in vars(game).items() if name != "comment"}
    made = game_at_once(**fields)
    assert_same_record(made, game)
    assert made.line == game.line  # not compared by ==
    assert replace(made, pin1=7) == replace(game, pin1=7)


@given(players())
def test_a_player_made_at_once_is_the_player_init_makes(player: PlayerEntry) -> None:
    made = player_at_once(vars(player))
    assert_same_record(made, player)
    assert made.line == player.line
    assert asdict(made) == asdict(player)


def test_a_player_field_left_out_takes_its_default() -> None:
    made = player_at_once({"pin": 1, "name": "Able, Ann", "line": 9})
    assert_same_record(made, PlayerEntry(1, name="Able, Ann", line=9))
    assert (made.code, made.club_code, made.date_of_birth) == (None, "", None)


def bytes_each(make: Callable[[int], object]) -> float:
    tracemalloc.start()
    try:
        kept = [make(number) for number in range(1000, 3000)]
        size, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return size / len(kept)


def test_records_made_at_once_take_little_more_room_than_inits() -> None:
    """Their dicts share the keys of the class's records: a dict object (64 bytes) more
    than __init__'s values stored in the record, not a table of keys of its own too
    (about 170 bytes more again for a game)."""

    def game(number: int) -> GameResult:
        return game_at_once(
            pin1=number,
            score=ResultCode.WIN,
            pin2=2,
            colour=None,
            game_date=None,
            board=None,
            round=None,
            line=number,
        )

    def init_game(number: int) -> GameResult:
        return GameResult(number, ResultCode.WIN, 2, line=number)

    assert bytes_each(game) <= bytes_each(init_game) + 100
    player = bytes_each(lambda number: player_at_once({"pin": number, "line": number}))
    assert player <= bytes_each(lambda number: PlayerEntry(number, line=number)) + 100


def test_a_record_whose_init_does_more_than_set_fields_is_refused() -> None:
    @dataclass(frozen=True)
    class Checked:
        number: int

        def __post_init__(self) -> None:
            assert self.number >= 0

    with pytest.raises(TypeError, match="Checked is made by its __init__ only"):
        _defaults(Checked)


# -- the quick path and the full reading -------------------------------------------------


def test_a_clean_result_line_is_read_by_the_quick_path() -> None:
    token = token_of("#PIN1=3#SCORE=d1#PIN2=4#COLOUR=b#GAME DATE=12/5/2013#ROUND=2")
    assert token.key == RESULT_LINE
    expected = GameResult(3, ResultCode.DEFAULT_LOSS, 4, Colour.BLACK, date(2013, 5, 12), None, 2)
    game = quick_game(token, SECTION)
    assert game == expected
    assert game is not None and game.line == 1


def test_a_clean_player_line_is_read_by_the_quick_path() -> None:
    line = (
        "#PIN=2#ECF CODE= 102807j #NAME=Baker, Bob#GENDER=m#CLUB CODE=1SKR#DATE OF BIRTH=2/3/2001"
    )
    token = token_of(line)
    assert token.key == PLAYER_LINE
    expected = PlayerEntry(
        2,
        code_text="102807j",
        code=GradingCode(102807),
        name="Baker, Bob",
        gender="m",
        club_code="1SKR",
        date_of_birth=date(2001, 3, 2),
    )
    player = quick_player(token)
    assert player == expected
    assert player is not None and player.line == 1


# Result lines in the writer's shape, each with one problem: (the line, the part's
# header, the problem's code).
RESULT_PROBLEMS = {
    "unknown PIN1": ("#PIN1=9#SCORE=10#PIN2=2", "SECTION", "unknown-pin"),
    "unknown PIN2": ("#PIN1=1#SCORE=10#PIN2=0", "SECTION", "unknown-pin"),
    "plays himself": ("#PIN1=2#SCORE=55#PIN2=2", "SECTION", "plays-himself"),
    "after the event": (
        "#PIN1=1#SCORE=10#PIN2=2#GAME DATE=13/05/2013",
        "SECTION",
        "date-outside-event",
    ),
    "board in a section": ("#PIN1=1#SCORE=10#PIN2=2#BOARD=1", "SECTION", "field-not-for-part"),
    "round in a match": ("#PIN1=1#SCORE=10#PIN2=2#ROUND=1", "MATCH", "field-not-for-part"),
    "other without a date": ("#PIN1=1#SCORE=10#PIN2=2", "OTHER", "missing-field"),
    "bad score": ("#PIN1=1#SCORE=11#PIN2=2", "SECTION", "bad-score"),
    "bad colour": ("#PIN1=1#SCORE=10#PIN2=2#COLOUR=GREY", "SECTION", "bad-colour"),
    "no such day": ("#PIN1=1#SCORE=10#PIN2=2#GAME DATE=29/02/2013", "SECTION", "bad-date"),
    "round 0": ("#PIN1=1#SCORE=10#PIN2=2#ROUND=0", "SECTION", "bad-round"),
}


@pytest.mark.parametrize(
    ("line", "part", "code"), RESULT_PROBLEMS.values(), ids=RESULT_PROBLEMS.keys()
)
def test_a_result_line_with_a_problem_is_read_in_full(line: str, part: str, code: str) -> None:
    kind = PartKind[part]
    assert token_of(line).key == RESULT_LINE
    assert quick_game(token_of(line), replace(SECTION, kind=kind)) is None
    text = results_text(results=f"#{kind.value}=A\n{line}\n")
    _, report = parse_results(text)
    assert (code, line_of(text, line)) in [(p.code, p.line) for p in report]
    assert_read_alike(text)


PLAYER_PROBLEMS = {
    "no code nor club": ("#PIN=1#NAME=Able, Ann", "no-code-or-club"),
    "no name": ("#PIN=1#ECF CODE=233310H", "missing-name"),
    "wrong check letter": ("#PIN=1#ECF CODE=233310J#NAME=Able, Ann", "bad-check-letter"),
    "not a code": ("#PIN=1#ECF CODE=2333#NAME=Able, Ann", "bad-code"),
    "gender": ("#PIN=1#ECF CODE=233310H#NAME=Able, Ann#GENDER=X", "bad-gender"),
    "club code": ("#PIN=1#NAME=Able, Ann#CLUB CODE=ABCDE", "bad-club-code"),
    "birth": ("#PIN=1#NAME=Able, Ann#CLUB NAME=Here#DATE OF BIRTH=30/02/2001", "bad-date"),
}


@pytest.mark.parametrize(("line", "code"), PLAYER_PROBLEMS.values(), ids=PLAYER_PROBLEMS.keys())
def test_a_player_line_with_a_problem_is_read_in_full(line: str, code: str) -> None:
    assert token_of(line).key == PLAYER_LINE
    assert quick_player(token_of(line)) is None
    text = results_text(players=f"#PLAYER LIST\n{line}\n#PIN=2#NAME=Baker, Bob#CLUB=Here\n")
    _, report = parse_results(text)
    assert (code, line_of(text, line)) in [(p.code, p.line) for p in report]
    assert_read_alike(text)


def test_clean_lines_are_still_checked_against_each_other() -> None:
    clean = "#PIN=1#ECF CODE=233310H#NAME=Able, Ann"
    games = "#PIN1=1#SCORE=10#PIN2=2#ROUND=1\n#PIN1=2#SCORE=01#PIN2=1#ROUND=1\n"
    text = results_text(
        players=f"#PLAYER LIST\n{clean}\n#PIN=2#ECF CODE=233310H#NAME=Baker, Bob\n{clean}\n",
        results=f"#SECTION RESULTS=A\n{games}",
    )
    _, report = parse_results(text)
    found = [(p.code, p.line) for p in report]
    assert ("duplicate-code", line_of(text, "Baker")) in found
    assert ("duplicate-pin", line_of(text, clean, 2)) in found
    assert ("repeated-pairing", line_of(text, "#PIN1=2")) in found
    assert_read_alike(text)
