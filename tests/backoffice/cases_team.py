"""Permission cases of the team pages, merged into test_permissions.CASES: URL name ->
(method, URL arguments from the prepared objects, expected status by role). Every team
page admits the grading team only: the public goes to the login page, anyone else 403."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    Event,
    Feedback,
    Game,
    GradingList,
    ListVersion,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.registry.numbering import reserve_game_sequence
from tests.backoffice.permission_table import NO_ARGS, TEAM, Case, open_to


def _team(status: int) -> dict[str, int | str]:
    """Team only, where the team's request without data is answered ``status``."""
    return open_to() | {"team": status}


def _case(o: dict[str, Any]) -> dict[str, Any]:
    return {"case_id": o["case"].id}


def _version(o: dict[str, Any]) -> dict[str, Any]:
    return {"list_id": "2012-07", "rate": "standard", "version": "initial"}


def _query(o: dict[str, Any]) -> dict[str, Any]:
    return {"ref": o["feedback"].ref}


def _player(o: dict[str, Any]) -> dict[str, Any]:
    return {"code": o["player"].ref}


CASES: dict[str, Case] = {
    "team_identify": ("get", NO_ARGS, TEAM),
    "team_case": ("get", _case, TEAM),
    # Without an action the case page says what is expected.
    "team_case_preview": ("get", _case, _team(400)),
    "team_case_decide": ("post", _case, _team(400)),
    "team_merge": ("get", NO_ARGS, TEAM),
    "team_assignments": ("get", NO_ARGS, TEAM),
    "team_lists": ("get", NO_ARGS, TEAM),
    "team_draft": ("get", _version, TEAM),
    "team_publish": ("get", _version, TEAM),
    "team_queries": ("get", NO_ARGS, TEAM),
    "team_query": ("get", _query, TEAM),
    # An empty choice assigns the query to no one.
    "team_query_assign": ("post", _query, _team(302)),
    "team_chase": ("get", NO_ARGS, TEAM),
    "team_chase_event": ("post", lambda o: {"event_id": o["late_event"].id}, _team(302)),
    "team_players": ("get", NO_ARGS, TEAM),
    "team_player": ("get", _player, TEAM),
    "team_end_membership": (
        "get",
        lambda o: {"code": o["player"].ref, "membership_id": o["membership"].id},
        TEAM,
    ),
    # Corrections (issue 24, case 2); without an action the page says what is expected.
    "team_game": ("get", lambda o: {"game_id": o["game"].id}, TEAM),
    "team_game_correct": ("get", lambda o: {"game_id": o["game"].id}, _team(400)),
    "team_player_games": ("get", _player, TEAM),
    "team_player_details": ("get", _player, TEAM),
    # Files holding games on record elsewhere (issue 24, case 1): a post without a
    # decision goes back to the list saying what was expected.
    "team_duplicates": ("get", NO_ARGS, TEAM),
    "team_duplicates_decide": ("post", lambda o: {"submission_id": 1}, _team(302)),
    # Events corrected by the team (issue 24, case 5): a post without data is refused
    # with what was expected; an empty choice gives the event to no officer.
    "team_events": ("get", NO_ARGS, TEAM),
    "team_event": ("get", lambda o: {"event_id": o["late_event"].id}, TEAM),
    "team_event_edit": ("post", lambda o: {"event_id": o["late_event"].id}, _team(400)),
    "team_event_withdraw": ("post", lambda o: {"event_id": o["late_event"].id}, _team(400)),
    "team_event_reassign": ("post", lambda o: {"event_id": o["late_event"].id}, _team(302)),
}


def prepare(users: dict[str, Any]) -> dict[str, Any]:
    """A player with a club, an open case naming him, a query, an overdue event of
    officer olga, and a draft list version."""
    player = Player.objects.create(code=100001, surname="Smith", forenames="John")
    club = Club.objects.create(code="ANYT", name="Anytown")
    membership = ClubMembership.objects.create(
        player=player, club=club, first_season=2012, last_season=2012
    )
    sent = Submission.objects.create(raw=b"", sha256="1" * 64, filename="smith.txt")
    case = PendingIdentification.objects.create(
        submission=sent, pin=2, name="Smith, J", candidates=[{"player_id": player.id, "score": 90}]
    )
    feedback = Feedback.objects.create(ref="FB-PERM0001", kind="other", message="Why?")
    late = Event.objects.create(
        code="LATE1",
        name="Late Congress",
        rate="standard",
        start_date=dt.date(2011, 5, 1),
        end_date=dt.date(2011, 5, 2),
        results_deadline=dt.date(2011, 5, 30),
        grading_officer=users["officer"],
    )
    grading_list = GradingList.objects.create(list_id="2012-07", rate="standard")
    ListVersion.objects.create(grading_list=grading_list, name="initial")
    game = Game.objects.create(
        event=late,
        submission=sent,
        player1=player,
        player2=Player.objects.create(code=100002, surname="Jones", forenames="Jim"),
        result="10",
        game_date=dt.date(2011, 5, 1),
        rate="standard",
        graded=True,
        line=1,
        sequence=reserve_game_sequence(1)[0],
    )  # a game to correct (issue 24, case 2)
    return {
        "game": game,
        "player": player,
        "membership": membership,
        "case": case,
        "feedback": feedback,
        "late_event": late,
    }
