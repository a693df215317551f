"""When a remembered decision of the team identifies a player (issue 24, case 3).

Pure: the decisions are built in memory, no database.
"""

from __future__ import annotations

from datetime import date

from ecfgrading.engine.codes import GradingCode
from ecfgrading.matching.identify import Decision, DecisionKind, Received
from ecfgrading.matching.names import fold_club, parse_name
from ecfgrading.matching.remembered import Remembered, recall, spelling_key

EVENT, OTHER = 1, 2
QUEUED = Decision(DecisionKind.PENDING, candidates=((7, 95), (8, 95)))


def received(written: str, club: str = "", code: GradingCode | None = None) -> Received:
    return Received(written, parse_name(written), code=code, club_name=fold_club(club))


def decided(player: int, event: int, club: str = "Newtown", day: int = 1) -> Remembered:
    return Remembered(
        player, event, spelling_key("Smith, John"), "", fold_club(club), date(2013, 5, day)
    )


def test_the_spelling_folds_case_accents_and_stops_but_not_the_forenames() -> None:
    """issue 24, case 3: 'SMITH, J.' is the file's 'Smith, J' again; 'Smith, John' is not."""
    assert spelling_key("SMITH, J.") == spelling_key("Smith, J") == "smith,j"
    assert spelling_key("Smith, John") != spelling_key("Smith, J")
    assert spelling_key("Müller, Jürgen") == "muller,jurgen"


def test_the_same_event_takes_the_latest_decision_for_the_spelling_and_club() -> None:
    """issue 24, case 3: a later decision on the same spelling replaces the earlier."""
    entry = received("Smith, John", "Newtown Chess Club")  # folded, the club agrees
    found = recall(entry, QUEUED, EVENT, [decided(7, EVENT, day=1), decided(8, EVENT, day=9)])
    assert found is not None and found.player_id == 8


def test_a_code_that_identifies_someone_is_never_overridden() -> None:
    """issue 24, case 3: a grading code is stronger evidence than a remembered spelling."""
    entry = received("Smith, John", "Newtown", code=GradingCode(100003))
    by_code = Decision(DecisionKind.LINK, 9)
    assert recall(entry, by_code, EVENT, [decided(7, EVENT)]) is None


def test_another_event_needs_the_club_given_and_agreeing() -> None:
    """issue 24, case 3: elsewhere, the same spelling at another club is someone else."""
    remembered = [decided(7, EVENT)]
    assert recall(received("Smith, John", "Otherton"), QUEUED, OTHER, remembered) is None
    found = recall(received("Smith, John", "Newtown"), QUEUED, OTHER, remembered)
    assert found is not None and found.player_id == 7


def test_another_event_asks_again_when_the_team_chose_two_players() -> None:
    """issue 24, case 3: two answers for one spelling and club are no evidence for a third."""
    remembered = [decided(7, EVENT), decided(8, 3)]
    assert recall(received("Smith, John", "Newtown"), QUEUED, OTHER, remembered) is None
