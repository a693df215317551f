"""The grading team's correction pages (issue 24, case 2), through Django's test client:
from a query to the game it is about, a preview that changes nothing, then the
correction confirmed, audited, amended and answered; a player's details likewise."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ecfgrading.registry.models import Amendment, AuditLog, Feedback, Game, Player
from ecfgrading.services.feedback import NewFeedback, submit_feedback
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import signed_in
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    """Bloggs beat Smith in round 1 of CG130001 (both on record)."""
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    smith = Player.objects.create(code=100001, surname="Smith", forenames="Jane")
    entries = [
        f"#PIN=1#BCF CODE={bloggs.ref}#NAME=Bloggs, Joe",
        f"#PIN=2#BCF CODE={smith.ref}#NAME=Smith, Jane",
    ]
    games = ["#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013"]
    data = results_file(entries, games, code="CG130001", name="Anytown Congress")
    assert import_results(data, filename="a.txt").accepted
    return Game.objects.get()


def wrong_result(player: Player) -> str:
    return submit_feedback(
        NewFeedback(
            kind="wrong-result",
            player_code=player.ref,
            event="Anytown Congress, round 1",
            message="I won round 1, it shows a loss.",
            email="jane@home.example",
        )
    )


def test_a_query_leads_to_its_game_whose_result_is_previewed_then_corrected(
    team: Any, game: Game
) -> None:
    """Issue 24, case 2: query page -> game -> preview (nothing changes) -> confirm."""
    ref = wrong_result(game.player2)
    client = signed_in(team)

    query_page = client.get(reverse("backoffice:team_query", args=[ref])).content.decode()
    game_url = reverse("backoffice:team_game", args=[game.id])
    assert f"{game_url}?query={ref}" in query_page

    assert client.get(game_url, {"query": ref}).status_code == 200
    correct = reverse("backoffice:team_game_correct", args=[game.id])
    preview = client.get(correct, {"action": "result", "result": "01", "query": ref})
    assert preview.status_code == 200
    shown = preview.content.decode()
    assert "This will happen:" in shown and "becomes 0-1 (was 1-0)" in shown
    assert f"reported in query {ref}" in shown  # the reason proposed
    game.refresh_from_db()
    assert game.result == "10" and not Amendment.objects.exists()

    done = client.post(
        correct, {"action": "result", "result": "01", "query": ref, "why": "the wall chart"}
    )

    assert done.status_code == 302
    assert done["Location"] == reverse("backoffice:team_query", args=[ref])
    game.refresh_from_db()
    assert game.result == "01"
    feedback = Feedback.objects.get(ref=ref)
    assert feedback.status == "resolved" and "corrected from 1-0 to 0-1" in feedback.answer
    amendment = Amendment.objects.get()
    assert (amendment.feedback, amendment.why) == (feedback, "the wall chart")
    assert AuditLog.objects.get(action="game.result").user == team
    after = client.get(done["Location"]).content.decode()
    assert "is resolved. The sender is told by e-mail." in after
    public = Client().get("/amendments/").content.decode()
    assert "corrected from 1-0 to 0-1" in public


def test_a_correction_without_a_reason_is_refused_and_changes_nothing(
    team: Any, game: Game
) -> None:
    correct = reverse("backoffice:team_game_correct", args=[game.id])

    response = signed_in(team).post(correct, {"action": "remove", "why": ""})

    assert response.status_code == 400
    assert "Expected a reason (why)" in response.content.decode()
    game.refresh_from_db()
    assert game.graded and not Amendment.objects.exists()


def test_an_unknown_action_or_game_is_said_not_a_server_error(team: Any, game: Game) -> None:
    client = signed_in(team)
    correct = reverse("backoffice:team_game_correct", args=[game.id])

    unknown = client.get(correct, {"action": "delete"})
    missing = client.get(reverse("backoffice:team_game", args=[game.id + 99]))
    no_code = client.get(correct, {"action": "move", "side": "2", "code": ""})
    bad_code = client.get(correct, {"action": "move", "side": "2", "code": "12345"})

    assert unknown.status_code == 400
    assert "Expected an action among result, remove, move, got &#x27;delete&#x27;" in (
        unknown.content.decode()
    )
    assert missing.status_code == 404
    assert no_code.status_code == 400
    assert bad_code.status_code == 400


def test_removing_a_game_from_its_page(team: Any, game: Game) -> None:
    client = signed_in(team)
    correct = reverse("backoffice:team_game_correct", args=[game.id])
    assert "is removed" in client.get(correct, {"action": "remove"}).content.decode()

    client.post(correct, {"action": "remove", "why": "never played"})

    game.refresh_from_db()
    assert (game.graded, game.not_graded_reason) == (False, "removed")
    page = client.get(reverse("backoffice:team_game", args=[game.id])).content.decode()
    assert "cannot be corrected again" in page


def test_a_players_details_are_previewed_then_corrected(team: Any, game: Game) -> None:
    """Issue 24, case 2: the form starts from the record; the preview changes nothing."""
    smith = game.player2
    assert smith is not None
    client = signed_in(team)
    url = reverse("backoffice:team_player_details", args=[smith.ref])
    form = client.get(url)
    assert form.status_code == 200 and 'value="Smith"' in form.content.decode()
    wanted = {"surname": "Smyth", "forenames": "Jane", "sex": "F", "nation": "ENG"}

    preview = client.get(url, wanted | {"preview": "1"})

    assert "His surname becomes Smyth (was Smith)." in preview.content.decode()
    smith.refresh_from_db()
    assert smith.surname == "Smith"

    done = client.post(url, wanted | {"why": "her own spelling"})

    assert done.status_code == 302
    smith.refresh_from_db()
    assert (smith.surname, smith.sex) == ("Smyth", "F")
    assert Amendment.objects.get().what == (
        "Details of Smith, Jane (100001K) corrected: surname Smith → Smyth; sex (none) → F"
    )


def test_the_player_page_leads_to_his_games_and_each_to_its_correction(
    team: Any, game: Game
) -> None:
    client = signed_in(team)
    bloggs = game.player1
    assert bloggs is not None
    page = client.get(reverse("backoffice:team_player", args=[bloggs.ref])).content.decode()
    games_url = reverse("backoffice:team_player_games", args=[bloggs.ref])
    assert games_url in page

    listed = client.get(games_url).content.decode()

    assert reverse("backoffice:team_game", args=[game.id]) in listed
    assert "Anytown Congress (CG130001), round 1" in listed


@pytest.mark.parametrize(
    ("name", "data"),
    [("team_game_correct", {"action": "remove", "why": "x"}), ("team_player_details", {})],
)
def test_correction_forms_refuse_a_post_without_the_csrf_token(
    name: str, data: dict[str, str], team: Any, game: Game
) -> None:
    argument = game.id if name == "team_game_correct" else game.player1.ref  # type: ignore[union-attr]
    client = signed_in(team, enforce_csrf_checks=True)

    response = client.post(reverse(f"backoffice:{name}", args=[argument]), data)

    assert response.status_code == 403
    game.refresh_from_db()
    assert game.graded


def test_a_post_without_a_reason_shows_the_preview_again_to_be_confirmed(
    team: Any, game: Game
) -> None:
    correct = reverse("backoffice:team_game_correct", args=[game.id])

    response = signed_in(team).post(correct, {"action": "result", "result": "55", "why": ""})

    text = response.content.decode()
    assert response.status_code == 400
    assert "This will happen:" in text and "Confirm: Correct the result to ½-½" in text


BAD_GAME_INPUTS = [
    {"action": "result", "result": "2-0"},
    {"action": "result", "result": "01", "query": "../etc/passwd"},
    {"action": "result", "result": "01", "query": "<script>alert(1)</script>"},
    {"action": "move", "side": "x", "code": "100002"},
    {"action": "move", "side": "1", "code": "'; DROP TABLE registry_game; --"},
    {"action": "remove", "query": "FB-" + "9" * 40},
]
BAD_DETAILS = [
    {"date_of_birth": "31/02/2015"},
    {"date_of_birth": "2999-01-01"},
    {"fide_id": "99999999999999999999"},
    {"surname": "x" * 500},
    {"surname": ""},
    {"sex": "Q"},
    {"replacing": "abc"},
    {"club": "Nowhere at all"},
    {"nation": "ENGLAND"},
]


@pytest.mark.parametrize("data", BAD_GAME_INPUTS)
def test_bad_game_corrections_are_refused_with_a_message_never_a_server_error(
    team: Any, game: Game, data: dict[str, str]
) -> None:
    client = signed_in(team)
    correct = reverse("backoffice:team_game_correct", args=[game.id])

    previewed = client.get(correct, data)
    posted = client.post(correct, data | {"why": "x"})

    assert previewed.status_code == 400 and posted.status_code == 400
    game.refresh_from_db()
    assert (game.result, game.graded) == ("10", True)


@pytest.mark.parametrize("data", BAD_DETAILS)
def test_bad_details_are_refused_with_a_message_never_a_server_error(
    team: Any, game: Game, data: dict[str, str]
) -> None:
    smith = game.player2
    assert smith is not None
    url = reverse("backoffice:team_player_details", args=[smith.ref])
    good = {"surname": "Smith", "forenames": "Jane", "sex": "F", "nation": "ENG"}

    previewed = signed_in(team).get(url, good | data | {"preview": "1"})
    posted = signed_in(team).post(url, good | data | {"why": "x"})

    assert previewed.status_code == 400 and posted.status_code == 400
    smith.refresh_from_db()
    assert smith.surname == "Smith" and smith.sex == ""


def test_a_bad_query_reference_in_the_address_is_left_out(team: Any, game: Game) -> None:
    url = reverse("backoffice:team_game", args=[game.id])

    response = signed_in(team).get(url, {"query": "../x/"})

    assert response.status_code == 200
    assert "answers query" not in response.content.decode()
