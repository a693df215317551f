"""A file read ahead comes to the importer with its games as rows (results_model.GameRows,
issue 25): the games it writes and the fingerprints it checks against the records are
those of the file read here, game for game."""

from __future__ import annotations

import pickle
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecfgrading.formats import ResultsFile, ResultsPart
from ecfgrading.formats.results_model import EventDetails, GameRows
from ecfgrading.registry.models import Event, PlayRate, Submission
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


@given(st.lists(parts, max_size=3))
def test_the_fingerprints_are_those_of_the_file_read_here(found: list[ResultsPart]) -> None:
    results = ResultsFile(event=EVENT, parts=tuple(found))
    players = players_of(results)
    assert file_fingerprints(sent(results), players) == file_fingerprints(results, players)
