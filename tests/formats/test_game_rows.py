"""A part's games sent by the reading process as rows (results_model.GameRows, issue 25):
the part that comes back is the part sent, its games made records only when asked for,
and what the importer reads of the rows (``rows_of``) is what it read of the records
(tests/services/test_sent_games.py: what it writes and checks of them)."""

from __future__ import annotations

import pickle
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from ecfgrading.formats import GameResult, PartKind, ResultsPart
from ecfgrading.formats.results_model import GameRows, rows_of
from tests.formats.strategies import games, parts


def sent(part: ResultsPart) -> ResultsPart:
    back = pickle.loads(pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
    assert isinstance(back, ResultsPart)
    return back


@given(parts)
def test_a_part_sent_is_the_part(part: ResultsPart) -> None:
    back = sent(part)
    assert isinstance(back.games, GameRows)
    assert back == part and part == back
    assert hash(back) == hash(part)
    assert back.games == part.games and part.games == back.games
    assert repr(back) == repr(part)
    assert (back.kind, back.name, back.white_on, back.results_date, back.line) == (
        part.kind,
        part.name,
        part.white_on,
        part.results_date,
        part.line,
    )


@given(st.lists(games, min_size=1, max_size=6), st.integers(1, 9999))
def test_games_sent_as_rows_are_made_again_field_by_field(
    found: list[GameResult], line: int
) -> None:
    """Every field, the line (never compared) included, in the order ``__init__`` gives."""
    made = tuple(replace(game, line=line + n) for n, game in enumerate(found))
    back = sent(ResultsPart(PartKind.SECTION, games=made)).games
    assert len(back) == len(made)
    assert [vars(game) for game in back] == [vars(game) for game in made]
    assert [list(vars(game)) for game in back] == [list(vars(game)) for game in made]
    assert back[0] == made[0] and back[-1] == made[-1] and back[1:] == made[1:]
    assert [game.line for game in back] == [game.line for game in made]


@given(parts)
def test_the_importer_reads_the_rows_without_making_records(part: ResultsPart) -> None:
    """A part's rows are its games' fields, read from the records or, for a part sent,
    the rows as they came, no record made of them."""
    back = sent(part)
    assert isinstance(back.games, GameRows)
    assert rows_of(back.games) is back.games.rows
    assert len(back.games) == len(part.games)
    assert back.games._games is None  # nothing asked for a record yet
    assert (
        rows_of(back.games)
        == rows_of(part.games)
        == tuple(
            (g.pin1, g.score, g.pin2, g.colour, g.game_date, g.board, g.round, g.comment, g.line)
            for g in part.games
        )
    )
