"""The grading team's workflows (issue 11, item 3), through Django's test client on the
real database: identification, starting grades, compute and publish, queries, chasing,
and ending a club membership. Each change is previewed first and audited."""

from __future__ import annotations

import datetime as dt
import re
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ecfgrading.engine import GradingCode, Rate
from ecfgrading.engine.periods import season_of
from ecfgrading.lookups.exports import export_list
from ecfgrading.lookups.memberships import shown_clubs
from ecfgrading.registry.models import (
    Amendment,
    AuditLog,
    ChaseRecord,
    Club,
    ClubMembership,
    Event,
    Feedback,
    Game,
    GradingList,
    IdentityChange,
    ListVersion,
    OutboxMessage,
    PendingIdentification,
    Player,
    StartingGradeAssignment,
)
from ecfgrading.services.feedback import NewFeedback, submit_feedback
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.mail import deliver_due
from ecfgrading.services.results.ingest import import_files, import_results
from tests.backoffice import cases_team
from tests.backoffice.conftest import Mailbox, signed_in
from tests.e2e.federation import Federation
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall"
TWO_GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#GAME DATE=12/05/2013",
]
HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)


def audited(action: str, user: Any) -> list[AuditLog]:
    return list(AuditLog.objects.filter(action=action, user=user))


def games_of(player: Player) -> int:
    return Game.objects.filter(player1=player).count() + Game.objects.filter(player2=player).count()


# Identification -------------------------------------------------------------------------


@pytest.fixture
def smiths() -> tuple[Player, Player, PendingIdentification]:
    """Two John Smiths in two clubs, and a third in a file, of Newtown: a case."""
    first = Player.objects.create(code=100001, surname="Smith", forenames="John")
    second = Player.objects.create(code=100002, surname="Smith", forenames="John")
    for player, name in ((first, "Anytown"), (second, "Otherton")):
        club = Club.objects.create(name=name)
        ClubMembership.objects.create(player=player, club=club, first_season=2012, last_season=2012)
    entry = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
    outcome = import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="spring.txt")
    assert outcome.accepted
    return first, second, PendingIdentification.objects.get()


def test_the_queue_shows_a_case_and_its_page_puts_the_candidates_side_by_side(
    team: Any, smiths: tuple[Player, Player, PendingIdentification]
) -> None:
    first, second, case = smiths
    client = signed_in(team)

    queue = client.get(reverse("backoffice:team_identify")).content.decode()
    page = client.get(reverse("backoffice:team_case", kwargs={"case_id": case.id}))

    assert "1 open case" in queue and "spring.txt (pin 2)" in queue
    text = page.content.decode()
    assert text.count('class="candidate"') == 2
    assert "Anytown" in text and "Otherton" in text and "Newtown" in text
    assert "2 games waiting" in text
    assert f"Link to {first.ref}" in text and f"Link to {second.ref}" in text


def test_linking_a_case_is_previewed_changing_nothing_then_done_and_audited(
    team: Any, smiths: tuple[Player, Player, PendingIdentification]
) -> None:
    first, _, case = smiths
    client = signed_in(team)
    url = reverse("backoffice:team_case_preview", kwargs={"case_id": case.id})

    preview = client.get(url, {"action": "link", "code": first.ref}).content.decode()

    assert (
        f"The 2 games waiting for Smith, John (pin 2 of spring.txt) are given to "
        f"Smith, John ({first.ref})." in preview
    )
    assert "The club Newtown is added to Smith, John&#x27;s memberships." in preview
    case.refresh_from_db()
    assert case.status == PendingIdentification.Status.OPEN

    done = client.post(
        reverse("backoffice:team_case_decide", kwargs={"case_id": case.id}),
        {"action": "link", "code": first.ref},
    )

    assert done.status_code == 302
    case.refresh_from_db()
    assert (case.status, case.resolved_player, case.resolved_by) == ("linked", first, team)
    assert (
        Game.objects.filter(player2=first).count() + Game.objects.filter(player1=first).count() == 2
    )
    assert len(audited("resolve identification", team)) == 1
    assert "No open cases" in client.get(reverse("backoffice:team_identify")).content.decode()


def test_a_case_made_a_new_player_keeps_his_games(
    team: Any, smiths: tuple[Player, Player, PendingIdentification]
) -> None:
    _, _, case = smiths
    client = signed_in(team)
    url = reverse("backoffice:team_case_preview", kwargs={"case_id": case.id})
    preview = client.get(url, {"action": "new"}).content.decode()
    assert (
        "A new player Smith, John is put on record and is issued the next grading code" in preview
    )

    client.post(
        reverse("backoffice:team_case_decide", kwargs={"case_id": case.id}), {"action": "new"}
    )

    case.refresh_from_db()
    made = case.resolved_player
    assert case.status == "created" and made is not None
    assert made.code not in (100001, 100002)
    assert (
        Game.objects.filter(player1=made).count() + Game.objects.filter(player2=made).count() == 2
    )


def test_a_link_to_an_unknown_code_says_so_and_changes_nothing(
    team: Any, smiths: tuple[Player, Player, PendingIdentification]
) -> None:
    _, _, case = smiths
    url = reverse("backoffice:team_case_decide", kwargs={"case_id": case.id})

    nobody = str(GradingCode(999998))  # well formed, held by no one

    response = signed_in(team).post(url, {"action": "link", "code": nobody})

    assert response.status_code == 404  # the case page again, with its kind's status
    expected = f"Expected the grading code of a player on record, got &#x27;{nobody}&#x27;"
    assert expected in response.content.decode()
    case.refresh_from_db()
    assert case.status == "open"


def test_a_merge_is_previewed_then_recorded_as_an_amendment_and_the_old_code_resolves(
    team: Any, smiths: tuple[Player, Player, PendingIdentification]
) -> None:
    first, second, _ = smiths
    second.date_of_birth = date(1970, 4, 1)
    second.save()
    client = signed_in(team)
    url = reverse("backoffice:team_merge")

    preview = client.get(url, {"absorbed": second.ref, "into": first.ref}).content.decode()

    assert (
        f"The code {second.ref} is never issued again and keeps leading to {first.ref}" in preview
    )
    assert f"{first.ref} takes from {second.ref} what his record lacks: date of birth." in preview
    assert Player.objects.get(id=second.id).merged_into is None

    done = client.post(url, {"absorbed": second.ref, "into": first.ref, "why": "one person"})

    assert done.status_code == 302
    assert Player.objects.get(id=second.id).merged_into == first
    (amendment,) = Amendment.objects.all()
    assert amendment.player == first and amendment.why == "one person"
    assert amendment.what == f"Smith, John ({second.ref}) merged into Smith, John ({first.ref})"
    assert len(audited("merge players", team)) == 1
    page = client.get(reverse("backoffice:team_player", kwargs={"code": second.ref}))
    assert f"{second.ref} was merged: it leads to {first.ref}" in page.content.decode()


# Starting grades -------------------------------------------------------------------------


def test_g30_a_fide_rating_of_1850_is_shown_as_150_before_it_is_saved(team: Any) -> None:
    player = Player.objects.create(code=100001, surname="Abroad", forenames="Anna")
    client = signed_in(team)
    form = {"code": player.ref, "rate": "standard", "valid_from": "2013-07", "fide": 1850}

    shown = client.post(reverse("backoffice:team_assignments"), form).content.decode()

    # G29: (1850 - 650) / 8 = 150.
    assert "FIDE 1850 converted by G29, (1850 - 650) / 8 (G30)" in shown
    assert "a starting standard grade of 150.0 from list 2013-07" in shown
    assert not StartingGradeAssignment.objects.exists()

    client.post(reverse("backoffice:team_assignments"), form | {"confirm": "1"})

    (saved,) = StartingGradeAssignment.objects.all()
    assert (saved.grade, saved.reason, saved.created_by) == (150.0, "FIDE 1850", team)
    assert len(audited("assign starting grade", team)) == 1


def test_a_starting_grade_needs_a_grade_or_a_fide_rating_not_both(team: Any) -> None:
    player = Player.objects.create(code=100001, surname="Abroad", forenames="Anna")
    form = {"code": player.ref, "rate": "rapid", "valid_from": "2013-07"}

    both = signed_in(team).post(
        reverse("backoffice:team_assignments"), form | {"grade": "120", "fide": "1850"}
    )

    assert both.status_code == 400
    # The service's refusal, in the failure notice (capitalised), as the save would say it.
    assert "Expected either a grade or a FIDE rating" in both.content.decode()
    assert not StartingGradeAssignment.objects.exists()


# Compute and publish ----------------------------------------------------------------------


@pytest.fixture
def known() -> Player:
    """Known, 150 in the standard list 2009-07, wins 5 and draws 5 against players of
    150 in 2009-10: (5 x 200 + 5 x 150) / 10 = 175 in 2010-07 (G12)."""
    fed = Federation()
    player = fed.player("Known", "Kim")
    csv = HEADER + f'{player.ref},"Known, Kim",F,,A,150,148,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))
    games = fed.against(player, ["10"] * 5 + ["55"] * 5, 150, date(2009, 10, 3))
    assert all(o.accepted for o in import_files([fed.event(games)]))
    return player


def test_a_draft_is_computed_shown_with_who_changes_and_why_then_published(
    team: Any, known: Player
) -> None:
    client = signed_in(team)
    form = {"list_id": "2010-07", "rate": "standard", "version": ""}

    computed = client.post(reverse("backoffice:team_lists"), form)

    draft_url = reverse(
        "backoffice:team_draft",
        kwargs={"list_id": "2010-07", "rate": "standard", "version": "initial"},
    )
    assert computed.status_code == 302 and computed["Location"] == draft_url
    version = ListVersion.objects.get(grading_list__list_id="2010-07")
    assert version.status == "draft"
    page = client.get(draft_url).content.decode()
    assert "Who changes since standard 2009-07 initial" in page
    difference = page.split('id="difference"')[1]
    row = difference.split(f"({known.ref})")[1].split("</tr>")[0]
    assert ">150A<" in row and ">+25<" in row
    assert "games in the latest period 30 → 10" in row
    jumps = page.split('id="jumps"')[1].split('id="integrity"')[0]
    assert "Large jumps (25 or more)" in jumps and f"Known, Kim ({known.ref})" in jumps
    assert "Publish this version" in page

    publish_url = reverse(
        "backoffice:team_publish",
        kwargs={"list_id": "2010-07", "rate": "standard", "version": "initial"},
    )
    confirm = client.get(publish_url).content.decode()
    assert "can never be changed again" in confirm
    version.refresh_from_db()
    assert version.status == "draft"

    published = client.post(publish_url)

    assert published.status_code == 302
    version.refresh_from_db()
    assert version.status == "published"
    assert len(audited("compute list", team)) == 1
    assert len(audited("publish list", team)) == 1
    assert "immutable" in client.get(draft_url).content.decode()


def test_a_published_version_carries_the_amendments_noted_since_the_last(
    team: Any, known: Player
) -> None:
    other = Player.objects.create(code=200001, surname="Other", forenames="Olive")
    client = signed_in(team)
    client.post(
        reverse("backoffice:team_merge"),
        {"absorbed": other.ref, "into": known.ref, "why": "same person"},
    )
    client.post(reverse("backoffice:team_lists"), {"list_id": "2010-07", "rate": "standard"})
    client.post(
        reverse(
            "backoffice:team_publish",
            kwargs={"list_id": "2010-07", "rate": "standard", "version": "initial"},
        )
    )

    (amendment,) = Amendment.objects.all()
    assert amendment.version == ListVersion.objects.get(grading_list__list_id="2010-07")


def test_a_list_with_nothing_to_grade_is_refused_with_the_reason(team: Any) -> None:
    response = signed_in(team).post(
        reverse("backoffice:team_lists"), {"list_id": "2030-07", "rate": "standard"}
    )

    assert response.status_code == 409  # the form again, with its kind's status
    assert "nothing to grade" in response.content.decode()


# Queries ------------------------------------------------------------------------------


def _feedback(email: str = "sam@home.example") -> str:
    player = Player.objects.get_or_create(code=100001, surname="Sender", forenames="Sam")[0]
    report = NewFeedback(
        kind="wrong-result",
        player_code=player.ref,
        message="My win in round 3 is shown as a loss.",
        name="Sam Sender",
        email=email,
    )
    return submit_feedback(report)


def test_answering_and_resolving_a_query_updates_its_public_status_mails_and_amends(
    team: Any,
) -> None:
    ref = _feedback()
    client = signed_in(team)
    url = reverse("backoffice:team_query", kwargs={"ref": ref})
    form = {
        "answer": "Thank you: the result is corrected.",
        "status": "resolved",
        "what": "Round 3 result corrected to a win",
        "why": "reported by the player, confirmed by the organiser",
    }

    response = client.post(url, form)

    assert response.status_code == 302
    feedback = Feedback.objects.get(ref=ref)
    assert (feedback.status, feedback.answer) == ("resolved", form["answer"])
    assert feedback.resolved_at is not None
    (mail,) = OutboxMessage.objects.all()
    assert (mail.kind, mail.to) == ("answer", "sam@home.example")
    assert ref in mail.subject and form["answer"] in mail.body_text
    assert "<p>Thank you: the result is corrected.</p>" in mail.body_html
    assert f"/feedback/{ref}/" in mail.body_text
    (amendment,) = Amendment.objects.all()
    assert (amendment.feedback, amendment.what) == (feedback, form["what"])
    assert len(audited("feedback.answered", team)) == 1
    public = Client().get(reverse("web:feedback-status", kwargs={"ref": ref})).content.decode()
    assert "Resolved" in public and form["answer"] in public
    assert "sam@home.example" not in public and "Sam Sender" not in public

    client.post(url, form | {"what": "", "why": ""})  # saved again: no second mail
    assert OutboxMessage.objects.count() == 1


def test_a_query_is_not_closed_without_an_answer(team: Any) -> None:
    ref = _feedback()
    url = reverse("backoffice:team_query", kwargs={"ref": ref})

    response = signed_in(team).post(url, {"answer": "", "status": "declined"})

    assert response.status_code == 400
    assert "Expected an answer for the sender" in response.content.decode()
    assert Feedback.objects.get(ref=ref).status == "open"
    assert not OutboxMessage.objects.exists()


def test_a_query_assigned_to_a_team_member_is_in_progress_and_filtered_by_status(
    team: Any,
) -> None:
    ref, other = _feedback(), _feedback(email="")
    client = signed_in(team)

    client.post(reverse("backoffice:team_query_assign", kwargs={"ref": ref}), {"member": team.id})

    feedback = Feedback.objects.get(ref=ref)
    assert (feedback.assigned_to, feedback.status) == (team, "in-progress")
    assert len(audited("feedback.assigned", team)) == 1
    listed = client.get(reverse("backoffice:team_queries"), {"status": "in-progress"})
    assert ref in listed.content.decode() and other not in listed.content.decode()


def test_an_answer_to_a_sender_without_an_address_is_mailed_to_no_one(team: Any) -> None:
    ref = _feedback(email="")
    url = reverse("backoffice:team_query", kwargs={"ref": ref})

    signed_in(team).post(url, {"answer": "We are looking into it.", "status": "in-progress"})

    assert Feedback.objects.get(ref=ref).answer == "We are looking into it."
    assert not OutboxMessage.objects.exists()


# Chasing ------------------------------------------------------------------------------


def confirm_chase(client: Client, event: Event) -> Any:
    """The Chase button's confirm page, then its button (issue 24, case 14)."""
    url = reverse("backoffice:team_chase_event", kwargs={"event_id": event.id})
    page = client.get(url).content.decode()
    key = re.search(r'name="key" value="([^"]+)"', page)
    assert key is not None, page
    return client.post(url, {"key": key[1]})


def test_an_overdue_event_is_chased_by_mail_to_its_officer_and_the_chase_recorded(
    team: Any, officer: Any
) -> None:
    today = timezone.localdate()
    event = Event.objects.create(
        code="LATE1",
        name="Late Congress",
        rate="standard",
        start_date=today - dt.timedelta(days=40),
        end_date=today - dt.timedelta(days=39),
        results_deadline=today - dt.timedelta(days=11),
        grading_officer=officer,
    )
    client = signed_in(team)
    before = client.get(reverse("backoffice:team_chase")).content.decode()
    assert "LATE1 Late Congress" in before and ">11<" in before and ">never<" in before

    response = confirm_chase(client, event)

    assert response.status_code == 302
    (mail,) = OutboxMessage.objects.all()
    assert (mail.kind, mail.to) == ("chase", "olga@club.example")
    assert "LATE1" in mail.subject and "11 days overdue" in mail.body_text
    (record,) = ChaseRecord.objects.all()
    assert (record.event, record.chased_by, record.message) == (event, team, mail)
    assert len(audited("chase", team)) == 1
    after = client.get(reverse("backoffice:team_chase")).content.decode()
    assert "(1 in all)" in after and "olga@club.example" in after


def test_an_event_not_overdue_is_not_chased(team: Any, officer: Any) -> None:
    today = timezone.localdate()
    event = Event.objects.create(
        code="SOON1",
        name="Soon Congress",
        rate="standard",
        start_date=today,
        end_date=today,
        results_deadline=today + dt.timedelta(days=28),
        grading_officer=officer,
    )

    client = signed_in(team)
    url = reverse("backoffice:team_chase_event", kwargs={"event_id": event.id})
    client.get(url)
    client.post(url, {"key": "k" * 32})

    assert not ChaseRecord.objects.exists() and not OutboxMessage.objects.exists()


# Memberships ---------------------------------------------------------------------------


def test_c2_a_membership_ended_by_hand_is_no_longer_shown_but_kept(team: Any) -> None:
    season = season_of(timezone.localdate())
    player = Player.objects.create(code=100001, surname="Lapsed", forenames="Larry")
    old = Club.objects.create(code="OLDC", name="Old Club")
    new = Club.objects.create(code="NEWC", name="New Club")
    for club in (old, new):
        ClubMembership.objects.create(
            player=player, club=club, first_season=season, last_season=season
        )
    membership = ClubMembership.objects.get(club=old)
    assert [c.name for c in shown_clubs([player.id], season)[player.id]] == ["New Club", "Old Club"]
    client = signed_in(team)
    url = reverse(
        "backoffice:team_end_membership",
        kwargs={"code": player.ref, "membership_id": membership.id},
    )
    assert "stays on record" in client.get(url).content.decode()

    client.post(url)

    membership.refresh_from_db()
    assert membership.ended_on == timezone.localdate()
    assert [c.name for c in shown_clubs([player.id], season)[player.id]] == ["New Club"]
    assert IdentityChange.objects.filter(player_id=player.id).exists()
    assert len(audited("end membership", team)) == 1
    page = client.get(reverse("backoffice:team_player", kwargs={"code": player.ref}))
    assert "no: ended" in page.content.decode()


# CSRF ---------------------------------------------------------------------------------

POSTED = [
    "team_case_decide",
    "team_merge",
    "team_assignments",
    "team_lists",
    "team_publish",
    "team_query",
    "team_query_assign",
    "team_chase_event",
    "team_end_membership",
]


@pytest.mark.parametrize("name", POSTED)
def test_team_forms_refuse_a_post_without_the_csrf_token(
    name: str, team: Any, officer: Any, member: Any, other_officer: Any
) -> None:
    users = {"officer": officer, "member": member, "other officer": other_officer, "team": team}
    objects = cases_team.prepare(users)
    _, arguments, _ = cases_team.CASES[name]
    client = signed_in(team, enforce_csrf_checks=True)

    response = client.post(reverse(f"backoffice:{name}", kwargs=arguments(objects)), {})

    assert response.status_code == 403
    assert b"CSRF" in response.content


def test_the_compute_form_proposes_the_list_after_the_latest(team: Any) -> None:
    def proposed() -> tuple[str, str, str]:
        form = signed_in(team).get(reverse("backoffice:team_lists")).context["form"]
        return form["list_id"].value(), form["rate"].value(), form["version"].value()

    grading_list = GradingList.objects.create(list_id="2012-07", rate="standard")
    ListVersion.objects.create(
        grading_list=grading_list,
        name="initial",
        status="published",
        published_at=dt.datetime(2012, 7, 15, tzinfo=dt.UTC),
    )
    assert proposed() == ("2012-07", "rapid", "initial")  # July: the rapid list too

    rapid = GradingList.objects.create(list_id="2012-07", rate="rapid")
    draft = ListVersion.objects.create(grading_list=rapid, name="initial")
    assert proposed() == ("2012-07", "rapid", "initial")  # the draft in progress

    draft.status, draft.published_at = "published", dt.datetime(2012, 7, 15, tzinfo=dt.UTC)
    draft.save()
    # G31: from 2012-01 a January list publishes both rates, standard first.
    assert proposed() == ("2013-01", "standard", "initial")


def test_a_guessed_case_number_or_membership_is_not_found(
    team: Any, smiths: tuple[Player, Player, PendingIdentification]
) -> None:
    first, second, case = smiths
    client = signed_in(team)
    gone = {"case_id": case.id + 1}
    theirs = ClubMembership.objects.get(player=second)
    end = {"code": first.ref, "membership_id": theirs.id}  # a membership of another player

    assert client.get(reverse("backoffice:team_case", kwargs=gone)).status_code == 404
    assert client.get(reverse("backoffice:team_case_preview", kwargs=gone)).status_code == 404
    decide = client.post(reverse("backoffice:team_case_decide", kwargs=gone), {"action": "new"})
    assert decide.status_code == 404
    assert client.post(reverse("backoffice:team_end_membership", kwargs=end)).status_code == 404
    theirs.refresh_from_db()
    assert theirs.ended_on is None


def test_the_answer_and_the_chase_reach_a_real_smtp_server_through_the_outbox(
    team: Any, officer: Any, smtp: Mailbox
) -> None:
    ref = _feedback()
    today = timezone.localdate()
    late = Event.objects.create(
        code="LATE2",
        name="Later Congress",
        rate="standard",
        start_date=today - dt.timedelta(days=60),
        end_date=today - dt.timedelta(days=60),
        results_deadline=today - dt.timedelta(days=32),
        grading_officer=officer,
    )
    client = signed_in(team)
    answer = "Thank you: the result is corrected.\n\nIt counts in the next list."
    client.post(
        reverse("backoffice:team_query", kwargs={"ref": ref}),
        {"answer": answer, "status": "resolved"},
    )
    confirm_chase(client, late)

    delivered = deliver_due()

    assert delivered.sent == 2
    by_recipient = dict(zip([r[0] for r in smtp.recipients], smtp.messages, strict=True))
    answered = by_recipient["sam@home.example"]
    assert ref in answered["Subject"]
    text = answered.get_body(preferencelist=("plain",))
    html = answered.get_body(preferencelist=("html",))
    assert text is not None and answer in text.get_content().replace("\r\n", "\n")
    assert html is not None and "<p>It counts in the next list.</p>" in html.get_content()
    chased = by_recipient["olga@club.example"]
    assert chased["Subject"] == "Results overdue: LATE2 Later Congress"


def test_c2_an_ended_membership_leaves_the_public_player_page_and_the_next_list_export(
    team: Any, known: Player
) -> None:
    club = Club.objects.create(code="LEFT", name="Leftover Chess Club")
    membership = ClubMembership.objects.create(
        player=known, club=club, first_season=2010, last_season=2010
    )
    compute_version("2010-07", Rate.STANDARD)
    publish_version("2010-07", Rate.STANDARD, "initial")
    public = reverse("web:player", kwargs={"code": known.ref})
    assert "Leftover Chess Club" in Client().get(public).content.decode()
    assert b"Leftover Chess Club" in export_list("2010-07", rates=[Rate.STANDARD])

    signed_in(team).post(
        reverse(
            "backoffice:team_end_membership",
            kwargs={"code": known.ref, "membership_id": membership.id},
        )
    )

    assert "Leftover Chess Club" not in Client().get(public).content.decode()
    # A published version's file never changes (issue 24, case 14): the next one's does.
    initial = export_list("2010-07", rates=[Rate.STANDARD], version="initial")
    assert b"Leftover Chess Club" in initial
    compute_version("2010-07", Rate.STANDARD, "august")
    publish_version("2010-07", Rate.STANDARD, "august")
    assert b"Leftover Chess Club" not in export_list("2010-07", rates=[Rate.STANDARD])
