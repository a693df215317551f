"""A file read ahead comes to the importer with its games as rows (results_model.GameRows,
issue 25): the games it writes and the fingerprints it checks against the records are
those of the file read here, game for game."""

from __future__ import annotations

import pickle
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecfgrading.engine.types import GRADED_RESULTS, RESULT_TEXT, NotGraded
from ecfgrading.formats import Colour, PartKind, ResultsFile, ResultsPart
from ecfgrading.formats.results_model import EventDetails, GameRows
from ecfgrading.registry.models import Event, Game, PlayRate, Submission
from ecfgrading.services.people import width
from ecfgrading.services.results.same_games import file_fingerprints
from ecfgrading.services.results.write import games_together, write_games
from tests.formats.strategies import parts

pytestmark = pytest.mark.django_db

EVENT = EventDetails(
    code="AB12345", event_date=date(2013, 5, 11), final_result_date=date(2013, 5, 12)
)


def sent(results: ResultsFile) -> ResultsFile:
    back = pickle.loads(pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL))
    assert all(isinstance(part.games, GameRows) for part in back.parts)
    return back


def players_of(results: ResultsFile) -> dict[int, int]:
    """Every other PIN a player on record; the rest not (a game with one has no
    fingerprint)."""
    pins = sorted(
        {pin for part in results.parts for game in part.games for pin in (game.pin1, game.pin2)}
    )
    return {pin: number for number, pin in enumerate(pins, 1) if number % 2}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(parts, max_size=3))
def test_the_games_written_are_those_of_the_file_read_here(found: list[ResultsPart]) -> None:
    results = ResultsFile(event=EVENT, parts=tuple(found))
    event = Event(id=7, code=EVENT.code, end_date=date(2013, 5, 12), rate=PlayRate.STANDARD)
    submission = Submission(id=9)
    players = players_of(results)
    with games_together():  # the rows are made, and not inserted
        here = write_games(results, event, submission, players, {})
        there = write_games(sent(results), event, submission, players, {})
    assert len(here) == len(there) == sum(len(part.games) for part in found)
    # The same rows but for the numbers each write reserved, one after the other.
    assert [row._replace(sequence=0) for row in there] == [row._replace(sequence=0) for row in here]
    assert [row.sequence for row in there] == [row.sequence + len(here) for row in here]


def expected_rows(results: ResultsFile, event: Event, players: dict[int, int]) -> list[tuple]:
    """Each game's row made plainly, a game at a time (G1, G2: the event's reason first,
    then the result's; G3: an undated game on the event's last day), but its number."""
    rows = []
    for part in results.parts:
        for game in part.games:
            reason = event.not_graded_reason or (
                "" if game.score in GRADED_RESULTS else NotGraded.DEFAULT.value
            )
            rows.append(
                (
                    event.id,
                    9,
                    players.get(game.pin1),
                    players.get(game.pin2),
                    None,
                    None,
                    RESULT_TEXT[game.score],
                    game.game_date or event.end_date,
                    0 if game.game_date is None else 1,
                    game.round,
                    game.board,
                    {PartKind.MATCH: "match", PartKind.SECTION: "section"}.get(part.kind, "other"),
                    part.name[: width(Game, "part_name")],
                    {Colour.WHITE: "W", Colour.BLACK: "B", None: ""}[game.colour],
                    event.rate,
                    0 if reason else 1,
                    reason,
                    game.line,
                    game.comment[: width(Game, "comment")],
                )
            )
    return rows


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(parts, max_size=3),
    st.sampled_from(["", NotGraded.DEFAULT.value]),
    st.sampled_from(["", "short", "x" * 250, "é" * 201]),
)
def test_each_row_is_the_game_made_plainly(
    found: list[ResultsPart], reason: str, long: str
) -> None:
    """Each row, from a file read ahead, is what the game's own fields make of it, a long
    comment cut to its column, numbered in order."""
    if found and found[0].games:  # a comment longer than its column, now and then
        first = found[0]
        games = (replace(first.games[0], comment=long), *first.games[1:])
        found = [replace(first, games=games), *found[1:]]
    results = ResultsFile(event=EVENT, parts=tuple(found))
    event = Event(
        id=7,
        code=EVENT.code,
        end_date=date(2013, 5, 12),
        rate=PlayRate.RAPID,
        not_graded_reason=reason,
    )
    players = players_of(results)
    with games_together():
        written = write_games(sent(results), event, Submission(id=9), players, {})
    assert [row[:18] + row[19:] for row in written] == expected_rows(results, event, players)
    numbers = [row.sequence for row in written]
    if numbers:
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))


@given(st.lists(parts, max_size=3))
def test_the_fingerprints_are_those_of_the_file_read_here(found: list[ResultsPart]) -> None:
    results = ResultsFile(event=EVENT, parts=tuple(found))
    players = players_of(results)
    assert file_fingerprints(sent(results), players) == file_fingerprints(results, players)
