"""Corrections as data (issue 24, case 2): the grading team changes a game's result,
removes a game, gives a game's side to another player, or corrects a player's details;
each previewed, audited before and after, recorded as an amendment, optionally answering
the query that asked for it, and read by the next version computed.

The players have published grades (Bloggs 150, Smith 140, Jones 160 in standard
2013-01), so the points the next version stores for a game are worked out by hand from
G12: the opponent's grade plus 50 for a win, less 50 for a loss (the grades are within
40 of each other, so G13 caps nothing).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ecfgrading.engine import Rate
from ecfgrading.errors import ErrorKind, ServiceError
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import (
    Amendment,
    AuditLog,
    Club,
    ClubMembership,
    Feedback,
    Game,
    IdentityChange,
    OutboxMessage,
    Player,
    StoredGamePoints,
)
from ecfgrading.services.accounts import create_user
from ecfgrading.services.feedback import NewFeedback, submit_feedback
from ecfgrading.services.grading.compute import compute_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.team.corrections import (
    Asked,
    CorrectionError,
    Details,
    change_result,
    correct_details,
    move_side,
    preview_details,
    preview_move,
    preview_removal,
    preview_result,
    remove_game,
)
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)
WHY = "the organiser's wall chart shows it"


@pytest.fixture
def tess() -> Any:
    return create_user("tess", role=Role.TEAM, email="tess@team.example", password="x" * 20)


@pytest.fixture
def players() -> dict[str, Player]:
    """Three players graded in standard 2013-01: Bloggs 150, Smith 140, Jones 160."""
    made = {
        "bloggs": Player.objects.create(code=261619, surname="Bloggs", forenames="Joe"),
        "smith": Player.objects.create(code=100001, surname="Smith", forenames="Jane"),
        "jones": Player.objects.create(code=100002, surname="Jones", forenames="Jim"),
    }
    grades = {"bloggs": 150, "smith": 140, "jones": 160}
    rows = "".join(
        f'{p.ref},"{p.surname}, {p.forenames}",,,A,{grades[k]},{grades[k]},30,,,,,,,,,,,,ENG\n'
        for k, p in made.items()
    )
    import_grade_list((HEADER + rows).encode(), list_id="2013-01", rates=(Rate.STANDARD,))
    return made


@pytest.fixture
def games(players: dict[str, Player]) -> tuple[Game, Game]:
    """Bloggs beat Smith in round 1 and drew with her in round 2 (May 2013)."""
    bloggs, smith = players["bloggs"], players["smith"]
    entries = [
        f"#PIN=1#BCF CODE={bloggs.ref}#NAME=Bloggs, Joe",
        f"#PIN=2#BCF CODE={smith.ref}#NAME=Smith, Jane",
    ]
    lines = [
        "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
        "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
    ]
    assert import_results(results_file(entries, lines, code="CG130001"), filename="a.txt").accepted
    first, second = Game.objects.order_by("round")
    assert (first.player1, first.player2, first.result) == (bloggs, smith, "10")
    return first, second


def points(game: Game) -> dict[str, float]:
    """The points the latest draft of standard 2013-07 stores for the game, by surname."""
    rows = StoredGamePoints.objects.filter(
        version__grading_list__list_id="2013-07", game=game
    ).select_related("player")
    return {row.player.surname: float(row.points) for row in rows}


def asked(user: Any = None, **kwargs: Any) -> Asked:
    return Asked(WHY, user=user, **kwargs)


# Results ------------------------------------------------------------------------------


def test_a_corrected_result_is_read_corrected_by_the_next_version(
    games: tuple[Game, Game], tess: Any
) -> None:
    """Issue 24, case 2: Bloggs' win becomes a loss; the next version stores Bloggs
    140 - 50 = 90 and Smith 150 + 50 = 200 for it (was 190 and 100)."""
    game, _ = games
    compute_version("2013-07", Rate.STANDARD)
    assert points(game) == {"Bloggs": 190.0, "Smith": 100.0}

    done = change_result(game.id, "01", asked(tess))

    compute_version("2013-07", Rate.STANDARD)  # the draft again, from the registry
    assert points(game) == {"Bloggs": 90.0, "Smith": 200.0}
    game.refresh_from_db()
    assert (game.result, game.graded) == ("01", True)
    assert "corrected from 1-0 to 0-1" in done.what
    amendment = Amendment.objects.get()
    assert (amendment.event.code, amendment.rate, amendment.why) == ("CG130001", "standard", WHY)
    assert amendment.player is not None and amendment.player.surname == "Bloggs"
    entry = AuditLog.objects.get(action="game.result")
    assert (entry.details["before"], entry.details["after"]) == ({"result": "10"}, {"result": "01"})
    assert entry.user == tess and entry.details["event"] == "CG130001"


def test_a_preview_says_what_will_change_and_changes_nothing(games: tuple[Game, Game]) -> None:
    """Issue 24, case 2: the preview names the game, both sides' new results and the
    list that reads it; nothing is written."""
    game, _ = games

    preview = preview_result(game.id, "55")

    text = " ".join(preview.lines)
    assert "becomes ½-½ (was 1-0)" in text
    assert "For Bloggs, Joe (261619B): a draw (was a win)" in text
    # G32: the latest periods of 2013-07 (Jul 2012 - Jun 2013) and 2014-01 (2013) hold it.
    assert "the standard lists 2013-07 and 2014-01 (whose latest period holds 11 May" in text
    game.refresh_from_db()
    assert game.result == "10"
    assert not Amendment.objects.exists()
    assert not AuditLog.objects.filter(action__startswith="game.").exists()


def test_a_result_made_a_default_is_no_longer_graded_and_back_again(
    games: tuple[Game, Game],
) -> None:
    """Issue 24, case 2 and G1: a default is recorded and never graded."""
    game, _ = games

    change_result(game.id, "1d", asked())
    game.refresh_from_db()
    assert (game.graded, game.not_graded_reason) == (False, "default")

    change_result(game.id, "01", asked())
    game.refresh_from_db()
    assert (game.graded, game.not_graded_reason, game.result) == (True, "", "01")


def test_the_same_result_or_an_unknown_one_is_refused_with_what_was_expected(
    games: tuple[Game, Game],
) -> None:
    game, _ = games
    with pytest.raises(CorrectionError, match=r"expected a new result: game \d+ is already 1-0"):
        change_result(game.id, "10", asked())
    with pytest.raises(CorrectionError, match=r"expected a result among 10 \(1-0\).*got '2-0'"):
        preview_result(game.id, "2-0")
    with pytest.raises(CorrectionError, match="expected a reason"):
        change_result(game.id, "01", Asked("  "))
    game.refresh_from_db()
    assert game.result == "10" and not Amendment.objects.exists()


# Removal ------------------------------------------------------------------------------


def test_a_removed_game_stays_on_record_and_no_version_reads_it(games: tuple[Game, Game]) -> None:
    """Issue 24, case 2: removed, the win is not graded (reason recorded, row kept); the
    next version reads the draw only."""
    game, draw = games
    assert "is removed" in " ".join(preview_removal(game.id).lines)

    remove_game(game.id, asked())

    game.refresh_from_db()
    assert (game.graded, game.not_graded_reason, game.result) == (False, "removed", "10")
    run = compute_version("2013-07", Rate.STANDARD)
    assert run.games == 1
    assert points(game) == {}
    assert points(draw) == {"Smith": 150.0, "Bloggs": 140.0}  # a draw: the grade itself
    entry = AuditLog.objects.get(action="game.removed")
    assert entry.details["before"] == {"graded": True, "not_graded_reason": ""}
    with pytest.raises(CorrectionError, match="removed by the grading team") as again:
        remove_game(game.id, asked())
    assert again.value.kind is ErrorKind.CONFLICT


def test_a_superseded_game_cannot_be_corrected(games: tuple[Game, Game]) -> None:
    game, _ = games
    Game.objects.filter(id=game.id).update(graded=False, not_graded_reason="superseded")
    with pytest.raises(CorrectionError, match="superseded by a later submission"):
        change_result(game.id, "01", asked())


# Moving a side ------------------------------------------------------------------------


def test_a_side_given_to_another_player_counts_for_him_and_not_the_other(
    games: tuple[Game, Game], players: dict[str, Player]
) -> None:
    """Issue 24, case 2: Jones (160), not Smith, lost to Bloggs: Bloggs 160 + 50 = 210,
    Jones 150 - 50 = 100."""
    game, _ = games
    jones = players["jones"]
    preview = preview_move(game.id, 2, jones.ref)
    assert "side 2 was played by Jones, Jim (100002" in " ".join(preview.lines)

    move_side(game.id, 2, jones.ref, asked())

    compute_version("2013-07", Rate.STANDARD)
    assert points(game) == {"Bloggs": 210.0, "Jones": 100.0}
    entry = AuditLog.objects.get(action="game.moved")
    smith = players["smith"]
    assert entry.details["before"] == {"player2": smith.ref}
    assert entry.details["after"] == {"player2": jones.ref}


def test_a_side_cannot_go_to_the_opponent_or_to_its_own_player(
    games: tuple[Game, Game], players: dict[str, Player]
) -> None:
    game, _ = games
    with pytest.raises(CorrectionError, match="other than his opponent"):
        move_side(game.id, 2, players["bloggs"].ref, asked())
    with pytest.raises(CorrectionError, match="already"):
        preview_move(game.id, 2, players["smith"].ref)
    with pytest.raises(CorrectionError, match="expected side 1 or 2"):
        preview_move(game.id, 3, players["jones"].ref)
    with pytest.raises(CorrectionError, match=r"check letter|expected"):
        preview_move(game.id, 2, "100002Z")


# A player's details -------------------------------------------------------------------


def test_a_players_details_are_corrected_and_private_values_never_made_public(
    players: dict[str, Player], tess: Any
) -> None:
    """Issue 24, case 2: surname, sex and date of birth corrected; the amendment (public)
    names the date of birth without showing it; the audit log (the team's) holds it."""
    smith = players["smith"]
    wanted = Details(surname="Smyth", forenames="Jane", sex="F", date_of_birth=dt.date(1990, 4, 2))
    assert "His surname becomes Smyth (was Smith)." in preview_details(smith.ref, wanted).lines

    done = correct_details(smith.ref, wanted, asked(tess))

    smith.refresh_from_db()
    assert (smith.surname, smith.sex, smith.date_of_birth) == ("Smyth", "F", dt.date(1990, 4, 2))
    assert smith.born_noted_at is not None  # learnt now: replays of lists before leave it out
    assert "surname Smith → Smyth" in done.what and "date of birth (private)" in done.what
    assert "1990" not in done.what
    entry = AuditLog.objects.get(action="player.details")
    assert entry.details["after"]["date_of_birth"] == "1990-04-02"
    assert IdentityChange.objects.filter(player_id=smith.id).exists()  # importers reload him
    public = Client().get("/amendments/").content.decode()
    assert "Smyth" in public and "date of birth (private)" in public
    assert "1990" not in public


def test_a_club_correction_replaces_his_membership(players: dict[str, Player]) -> None:
    bloggs = players["bloggs"]
    wrong = Club.objects.create(code="WALS", name="Walsall")
    right = Club.objects.create(code="WOLV", name="Wolverhampton")
    old = ClubMembership.objects.create(
        player=bloggs, club=wrong, first_season=2013, last_season=2013
    )
    wanted = Details(surname="Bloggs", forenames="Joe", club="wolv", replacing=old.id)

    done = correct_details(bloggs.ref, wanted, asked())

    old.refresh_from_db()
    assert old.ended_on == timezone.localdate()
    joined = ClubMembership.objects.get(player=bloggs, club=right)
    assert joined.ended_on is None and joined.last_season >= 2013
    assert "club Walsall → Wolverhampton" in done.what


def test_details_as_they_are_or_unfit_for_the_record_are_refused(
    players: dict[str, Player],
) -> None:
    smith = players["smith"]
    with pytest.raises(CorrectionError, match="details: they are as given"):
        preview_details(smith.ref, Details(surname="Smith", forenames="Jane"))
    with pytest.raises(CorrectionError, match="expected a surname"):
        preview_details(smith.ref, Details(surname=" "))
    with pytest.raises(CorrectionError, match="sex"):
        preview_details(smith.ref, Details(surname="Smith", forenames="Jane", sex="Q"))
    with pytest.raises(CorrectionError, match="club on record, got 'Nowhere'"):
        preview_details(smith.ref, Details(surname="Smith", forenames="Jane", club="Nowhere"))


# A query that asked for it ------------------------------------------------------------


def test_a_correction_asked_by_a_query_answers_it_with_exactly_what_changed(
    games: tuple[Game, Game], players: dict[str, Player], tess: Any
) -> None:
    """Issue 24, case 2: the query's answer says what changed; it is resolved, its sender
    told, and the amendment is linked to it."""
    game, _ = games
    ref = submit_feedback(
        NewFeedback(
            kind="wrong-result",
            player_code=players["smith"].ref,
            event="CG130001",
            message="I won round 1 against Joe Bloggs.",
            email="jane@home.example",
        )
    )

    done = change_result(game.id, "01", asked(tess, query=ref.lower(), status_url="http://x/"))

    feedback = Feedback.objects.get(ref=ref)
    assert feedback.status == "resolved" and done.query == ref and done.mailed
    assert done.what in feedback.answer
    assert "Result of Bloggs, Joe (261619B) v Smith, Jane (100001" in feedback.answer
    amendment = Amendment.objects.get()
    assert amendment.feedback == feedback
    assert amendment.player == players["smith"]  # the query's player, who played it
    (mail,) = OutboxMessage.objects.filter(kind="answer")
    assert mail.to == "jane@home.example" and "from 1-0 to 0-1" in mail.body_text
    status = Client().get(f"/feedback/{ref}/").content.decode()
    assert "from 1-0 to 0-1" in status


def test_a_correction_naming_an_unknown_query_changes_nothing(games: tuple[Game, Game]) -> None:
    game, _ = games
    with pytest.raises(ServiceError, match="reference of a query") as refused:
        change_result(game.id, "01", asked(query="FB-NOTHERE"))
    assert refused.value.kind is ErrorKind.NOT_FOUND
    game.refresh_from_db()
    assert game.result == "10" and not Amendment.objects.exists()
