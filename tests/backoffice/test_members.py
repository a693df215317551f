"""Direct members (issue 11, item 4): a member's games received for grading, his results
from an event abroad (a form that builds a results file and checks it as any file is
checked), the grading team's accepting or rejecting them, and the members' games mailing
before the July list and again before the August list (item 5)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.lookups.direct_members import games_received
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import (
    AuditLog,
    DirectMember,
    ForeignResult,
    Game,
    GradingList,
    ListVersion,
    OutboxMessage,
    Player,
    Submission,
)
from ecfgrading.services.accounts import create_user
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.members import create_member, mail_games
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import PASSWORD, signed_in
from tests.services.results_text import RAPID, results_file

pytestmark = pytest.mark.django_db

PLAYERS = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
    "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown",
]
STANDARD_GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#COLOUR=WHITE#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#COLOUR=WHITE#ROUND=2#GAME DATE=12/05/2013",
]
RAPID_GAMES = ["#PIN1=2#SCORE=10#PIN2=1#ROUND=1#GAME DATE=18/05/2013"]


@pytest.fixture(autouse=True)
def _spring_2013(settings: Any) -> None:
    """The site's today: the events abroad below (March 2013) are within the window of
    first days the form takes (issue 24, case 14)."""
    settings.SITE_TODAY = dt.date(2013, 6, 15)


@pytest.fixture
def bloggs(member: Any) -> DirectMember:
    """Joe Bloggs, direct member DM1001 with mia's login, and three games of 2012-13."""
    for data, name in (
        (results_file(PLAYERS, STANDARD_GAMES), "open.txt"),
        (results_file(PLAYERS, RAPID_GAMES, code="XX22222", control=RAPID), "rapid.txt"),
    ):
        assert import_results(data, filename=name).accepted
    made = create_member("261619B", "DM1001", email="joe@home.example", member_class="Standard")
    made.user = member
    made.save()
    return made


def _abroad_post(action: str = "check", **changes: str) -> dict[str, str]:
    data = {
        "name": "Reykjavik Open",
        "country": "Iceland",
        "start": "2013-03-01",
        "end": "2013-03-09",
        "moves_first_session": "40",
        "minutes_first_session": "90",
        "minutes_rest_of_game": "30",
        "seconds_per_move": "30",
        "game-TOTAL_FORMS": "9",
        "game-INITIAL_FORMS": "0",
        "game-MIN_NUM_FORMS": "0",
        "game-MAX_NUM_FORMS": "9",
        "game-0-round": "1",
        "game-0-date": "2013-03-01",
        "game-0-opponent": "Jonsson, Petur",
        "game-0-fide_id": "2300123",
        "game-0-rating": "2210",
        "game-0-colour": "white",
        "game-0-result": "win",
        "game-1-round": "2",
        "game-1-date": "2013-03-02",
        "game-1-opponent": "Olafsdottir, Anna",
        "game-1-colour": "black",
        "game-1-result": "draw",
        "action": action,
    }
    return data | changes


# --- the member record and his games ---------------------------------------------------


def test_a_member_is_linked_to_his_player_and_to_a_login_in_the_member_role() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")

    made = create_member(
        "261619B", "DM1001", email="joe@home.example", username="joe", password=PASSWORD
    )

    assert made.player.ref == "261619B"
    assert made.user.username == "joe"
    assert made.user.groups.get().name == Role.MEMBER.value
    assert (made.user.first_name, made.user.last_name) == ("Joe", "Bloggs")
    assert AuditLog.objects.filter(action="create direct member", object_id=str(made.pk)).exists()
    with pytest.raises(ServiceError, match="not yet a member's"):
        create_member("261619B", "DM9999")


def test_games_received_for_a_list_are_shown_from_the_members_side(bloggs: DirectMember) -> None:
    games = games_received(bloggs.player, "2013-07")

    # G32: the 2013-07 lists' period, July 2012 to June 2013 (30 June cut-off from 2012).
    assert (games.start, games.end) == (dt.date(2012, 7, 1), dt.date(2013, 6, 30))
    standard, rapid = games.by_rate
    assert standard[0] == "standard"
    shown = [(g.date, g.score, g.colour, g.opponent) for g in standard[1]]
    smith = Player.objects.get(surname="Smith").ref
    assert shown == [
        (dt.date(2013, 5, 11), "1", "white", f"Smith, Jane ({smith})"),
        (dt.date(2013, 5, 12), "½", "black", f"Smith, Jane ({smith})"),  # Smith had white
    ]
    assert rapid[0] == "rapid"
    assert [(g.date, g.score) for g in rapid[1]] == [(dt.date(2013, 5, 18), "0")]
    assert games.count == 3
    assert games_received(bloggs.player, "2012-07").count == 0  # another season


def test_the_members_page_shows_his_games_and_links_his_public_page(
    bloggs: DirectMember, member: Any
) -> None:
    page = signed_in(member).get(reverse("backoffice:member_home") + "?list=2013-07")

    text = page.content.decode()
    assert page.status_code == 200
    assert "Standard: 2 games" in text
    assert "Rapid: 1 game" in text
    assert "Smith, Jane" in text
    assert 'href="/players/261619B/"' in text
    assert "DM1001" in text  # his own number, on his own page


def test_a_login_without_a_member_record_is_told_to_ask_the_team(member: Any) -> None:
    page = signed_in(member).get(reverse("backoffice:member_home"))

    assert page.status_code == 200  # no member record yet: his page says what to do
    assert "not linked to a direct member" in page.content.decode()


# --- results from abroad ----------------------------------------------------------------


def test_the_check_shows_the_file_built_and_its_problems_by_line(
    bloggs: DirectMember, member: Any
) -> None:
    data = _abroad_post(**{"game-1-date": "2013-03-12"})  # after the last day

    page = signed_in(member).post(reverse("backoffice:member_abroad"), data)

    text = page.content.decode()
    assert page.status_code == 200
    assert "The check found no errors" in text
    assert "#EVENT CODE=XA000000" in text  # a code is given when they are sent
    assert "#PIN=2#NAME=Jonsson, Petur#CLUB NAME=Iceland (abroad)#FIDE NO=2300123" in text
    # Lines 1-14 event, 15 player list, 16-18 players, 19 section, 20-21 the games.
    assert "#PIN1=1#SCORE=55#PIN2=3#COLOUR=BLACK#GAME DATE=12/03/2013#ROUND=2" in text
    assert '<td class="num">21</td>' in text
    assert "Expected GAME DATE from 01/03/2013 to 09/03/2013, got &#x27;12/03/2013&#x27;" in text
    assert 'value="submit"' in text
    assert not ForeignResult.objects.exists()  # a check stores nothing


def test_an_error_in_the_file_stops_the_sending(bloggs: DirectMember, member: Any) -> None:
    later = (dt.date.today() + dt.timedelta(days=60)).isoformat()
    data = _abroad_post(start=later, end=later, **{"game-0-date": later, "game-1-date": later})
    client = signed_in(member)

    checked = client.post(reverse("backoffice:member_abroad"), data).content.decode()
    sent = client.post(reverse("backoffice:member_abroad"), data | {"action": "submit"})

    assert "The check found errors" in checked
    assert "Expected EVENT DATE a day already played" in checked
    assert 'value="submit"' not in checked
    assert sent.status_code == 400  # the form again, with its kind's status
    assert "Expected results without errors, got 1" in sent.content.decode()
    assert not ForeignResult.objects.exists()


def test_a_row_half_filled_is_asked_about_and_nothing_is_built(member: Any, bloggs: Any) -> None:
    data = _abroad_post(**{"game-2-opponent": "Nobody, Known"})  # no result

    page = signed_in(member).post(reverse("backoffice:member_abroad"), data)

    assert page.status_code == 400
    assert "Game 3, your result" in page.content.decode()


def test_submitted_results_wait_for_the_team_and_the_member_sees_their_status(
    bloggs: DirectMember, member: Any
) -> None:
    client = signed_in(member)

    response = client.post(reverse("backoffice:member_abroad"), _abroad_post("submit"))

    assert response.status_code == 302
    made = ForeignResult.objects.get()
    assert (made.member, made.status, made.country) == (bloggs, "pending", "Iceland")
    assert made.event_code == "XA000001"  # the first event abroad; nothing of the member's
    assert bytes(made.raw).startswith(b"#EVENT DETAILS\n#EVENT CODE=XA000001\n")
    audit = AuditLog.objects.get(action="submit results from abroad")
    assert audit.user == member
    page = client.get(reverse("backoffice:member_home")).content.decode()
    assert "Reykjavik Open" in page
    assert "Waiting for the grading team" in page


def test_the_team_accepts_and_the_file_is_imported_with_the_team_member_as_sender(
    bloggs: DirectMember, member: Any, team: Any
) -> None:
    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    pending = ForeignResult.objects.get()
    client = signed_in(team)
    listed = client.get(reverse("backoffice:abroad_list")).content.decode()
    review = client.get(reverse("backoffice:abroad_review", args=[pending.id])).content.decode()

    response = client.post(reverse("backoffice:abroad_accept", args=[pending.id]))

    assert "Bloggs, Joe (DM1001)" in listed
    assert "#EVENT NAME=Reykjavik Open (Iceland)" in review
    assert response.status_code == 302
    pending.refresh_from_db()
    assert (pending.status, pending.decided_by) == ("accepted", team)
    submission = Submission.objects.get(pk=pending.submission_id)
    assert (submission.status, submission.sender) == ("accepted", team)
    games = Game.objects.filter(event__code="XA000001")
    assert games.count() == 2
    assert set(games.values_list("player1__code", flat=True)) == {261619}
    assert AuditLog.objects.get(action="accept results from abroad").user == team
    told = OutboxMessage.objects.get(kind="abroad")
    assert (told.to, told.subject) == (
        "joe@home.example",
        "Your results from Reykjavik Open were accepted",
    )
    page = signed_in(member).get(reverse("backoffice:member_home")).content.decode()
    assert "Accepted" in page
    again = client.post(reverse("backoffice:abroad_accept", args=[pending.id]))
    assert again.status_code == 302  # back to the review, with the refusal said
    assert Submission.objects.filter(event_code="XA000001").count() == 1


def test_the_team_rejects_with_a_note_the_member_reads(
    bloggs: DirectMember, member: Any, team: Any
) -> None:
    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    pending = ForeignResult.objects.get()
    note = "Played online: not graded."

    response = signed_in(team).post(
        reverse("backoffice:abroad_reject", args=[pending.id]), {"note": note}
    )

    assert response.status_code == 302
    pending.refresh_from_db()
    assert (pending.status, pending.decision_note) == ("rejected", note)
    assert not Game.objects.filter(event__code="XA000001").exists()
    assert AuditLog.objects.get(action="reject results from abroad").user == team
    page = signed_in(member).get(reverse("backoffice:member_home")).content.decode()
    assert "Rejected" in page
    assert note in page


def test_a_member_sees_only_his_own_results_from_abroad(bloggs: DirectMember, member: Any) -> None:
    other_player = Player.objects.create(code=300003, surname="Other", forenames="Olly")
    other_login = create_user("olly", role=Role.MEMBER, password=PASSWORD)
    other = DirectMember.objects.create(player=other_player, number="DM3003", user=other_login)
    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))

    page = signed_in(other_login).get(reverse("backoffice:member_home")).content.decode()

    assert "Reykjavik Open" not in page
    assert "DM1001" not in page
    assert "Other, Olly" in page
    assert other.results.count() == 0


@pytest.mark.parametrize("name", ["member_abroad", "abroad_accept", "abroad_reject"])
def test_member_forms_refuse_a_post_without_the_csrf_token(
    name: str, bloggs: DirectMember, member: Any, team: Any
) -> None:
    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    kwargs = {} if name == "member_abroad" else {"result_id": ForeignResult.objects.get().id}
    user = member if name == "member_abroad" else team
    client = signed_in(user, enforce_csrf_checks=True)

    response = client.post(reverse(f"backoffice:{name}", kwargs=kwargs), {})

    assert response.status_code == 403
    assert b"CSRF" in response.content


# --- the games mailing ------------------------------------------------------------------


def test_members_are_mailed_their_games_once_per_list_and_mailing(bloggs: DirectMember) -> None:
    no_mail = Player.objects.create(code=300003, surname="Other", forenames="Olly")
    DirectMember.objects.create(player=no_mail, number="DM3003")

    dry = mail_games("2013-07", "initial", dry_run=True)
    made = mail_games("2013-07", "initial")
    again = mail_games("2013-07", "initial")

    assert (dry.queued, dry.no_address, OutboxMessage.objects.count()) == (1, 1, 1)
    assert (made.queued, made.already, made.no_address) == (1, 0, 1)
    assert (again.queued, again.already) == (0, 1)
    message = OutboxMessage.objects.get()
    assert message.key == "games:2013-07:initial:DM1001"
    assert message.to == "joe@home.example"
    assert message.subject == "Your games received for the 2013-07 initial grading list"
    assert "Standard: 2 games" in message.body_text
    assert "11 May 2013  1  white  Smith, Jane" in message.body_text
    assert "Rapid: 1 game\n" in message.body_text
    assert "<caption" in message.body_html
    assert "Smith, Jane" in message.body_html


def test_the_august_mailing_goes_after_the_initial_list_and_before_the_august_one(
    bloggs: DirectMember,
) -> None:
    with pytest.raises(ServiceError, match="no initial version published yet"):
        mail_games("2013-07", "august")
    grading_list = GradingList.objects.create(list_id="2013-07", rate="standard")
    ListVersion.objects.create(
        grading_list=grading_list,
        name="initial",
        status="published",
        published_at=dt.datetime(2013, 7, 15, tzinfo=dt.UTC),
    )

    with pytest.raises(ServiceError, match="initial version published"):
        mail_games("2013-07", "initial")
    made = mail_games("2013-07", "august")

    assert made.queued == 1
    message = OutboxMessage.objects.get()
    assert message.key == "games:2013-07:august:DM1001"
    assert "go into the August list" in message.body_text
    with pytest.raises(ServiceError, match="expected a July list"):
        mail_games("2014-01", "initial")


def test_the_team_previews_the_mailing_before_handing_it_to_the_worker(
    bloggs: DirectMember, team: Any
) -> None:
    client = signed_in(team)

    preview = client.get(
        reverse("backoffice:mail_games"), {"list_id": "2013-07", "before": "initial"}
    )
    queued = client.post(
        reverse("backoffice:mail_games"), {"list_id": "2013-07", "before": "initial"}
    )

    assert preview.status_code == 200
    assert "1 member would be mailed their games" in preview.content.decode()
    assert queued.status_code == 302
    assert not OutboxMessage.objects.exists()  # the worker builds it, not the request
    from django_tasks_db.models import DBTaskResult

    task = DBTaskResult.objects.get(status="READY")
    assert task.task_path == "ecfgrading.services.mail_tasks.mail_games_task"
    assert task.args_kwargs == {"args": ["2013-07", "initial"], "kwargs": {}}
    audit = AuditLog.objects.get(action="queue members' games mailing")
    assert (audit.user, audit.details["list"], audit.details["before"]) == (
        team,
        "2013-07",
        "initial",
    )


def test_a_rejection_that_fails_before_its_end_leaves_the_results_waiting(
    bloggs: DirectMember, member: Any, team: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision, its audit entry and the member's mail are one transaction: a failure
    while the mail is queued (its last step) leaves the results pending, unaudited and
    untold, for the team to reject again."""
    import ecfgrading.services.abroad as abroad

    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    pending = ForeignResult.objects.get()

    monkeypatch.setattr(abroad, "queue_mail", _outbox_refuses)
    with pytest.raises(RuntimeError):
        abroad.reject_abroad(pending.id, user=team, note="Played online: not graded.")

    pending.refresh_from_db()
    assert (pending.status, pending.decision_note) == ("pending", "")
    assert not AuditLog.objects.filter(action="reject results from abroad").exists()
    assert not OutboxMessage.objects.filter(kind="abroad").exists()


def test_an_acceptance_whose_decision_failed_is_recorded_when_accepted_again(
    bloggs: DirectMember, member: Any, team: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import is its own; the decision, its audit entry and the mail are one
    transaction after it. A failure there leaves the file accepted and the result
    pending, untold; accepting again imports nothing twice and records the decision."""
    import ecfgrading.services.abroad as abroad

    signed_in(member).post(reverse("backoffice:member_abroad"), _abroad_post("submit"))
    pending = ForeignResult.objects.get()
    queue = abroad.queue_mail

    monkeypatch.setattr(abroad, "queue_mail", _outbox_refuses)
    with pytest.raises(RuntimeError):
        abroad.accept_abroad(pending.id, user=team)
    pending.refresh_from_db()
    assert (pending.status, pending.submission_id) == ("pending", None)
    assert not AuditLog.objects.filter(action="accept results from abroad").exists()
    (first,) = Submission.objects.filter(event_code="XA000001", status="accepted")

    monkeypatch.setattr(abroad, "queue_mail", queue)
    again = abroad.accept_abroad(pending.id, user=team)

    pending.refresh_from_db()
    assert (pending.status, pending.submission_id, again.already) == ("accepted", first.id, True)
    assert Submission.objects.filter(event_code="XA000001").count() == 1
    assert Game.objects.filter(event__code="XA000001").count() == 2
    assert AuditLog.objects.filter(action="accept results from abroad").count() == 1
    assert OutboxMessage.objects.filter(kind="abroad").count() == 1


def _outbox_refuses(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("the outbox refused the mail")
