"""The admin: every model is there, staff only, read-mostly."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    County,
    Game,
    ListEntry,
    ListVersion,
    Player,
    PlayerAlias,
    StartingGradeAssignment,
    StoredGamePoints,
    StoredPeriodTotal,
    Submission,
)

REGISTRY_MODELS = list(apps.get_app_config("registry").get_models())


def url(model, view: str, *args) -> str:
    return reverse(f"admin:registry_{model._meta.model_name}_{view}", args=args)


def test_every_registry_model_is_in_the_admin() -> None:
    missing = [m.__name__ for m in REGISTRY_MODELS if not admin.site.is_registered(m)]

    assert missing == []


@pytest.fixture
def some_of_everything(make_player, event, make_submission, draft_version, publish) -> None:
    player = make_player(date_of_birth=date(2001, 3, 2))
    club = Club.objects.create(
        code="7WAL", name="Walthamstow", county=County.objects.create(name="Essex")
    )
    ClubMembership.objects.create(player=player, club=club, first_season=2009, last_season=2010)
    PlayerAlias.objects.create(code=102807, player=player)
    submission = make_submission(event=event, status="accepted")
    game = Game.objects.create(
        event=event,
        submission=submission,
        player1=player,
        player2=make_player("Smith"),
        result="55",
        game_date=date(2013, 5, 11),
        rate="standard",
        graded=True,
        line=20,
        sequence=1,
    )
    ListEntry.objects.create(version=draft_version, player=player, grade=150, category="A")
    StoredGamePoints.objects.create(
        version=draft_version, player=player, game=game, date=game.game_date, points=150.0
    )
    StoredPeriodTotal.objects.create(version=draft_version, player=player, n=1, total=150.0)
    StartingGradeAssignment.objects.create(
        player=player, rate="standard", grade=150.0, reason="FIDE 1850", valid_from="2010-07"
    )
    AuditLog.record("publish", draft_version, actor="test", note="for the admin")
    publish(draft_version)


@pytest.mark.parametrize("model", REGISTRY_MODELS, ids=lambda m: m.__name__)
def test_every_list_page_loads_and_searches(admin_client, some_of_everything, model) -> None:
    assert admin_client.get(url(model, "changelist")).status_code == 200
    for term in ("Bloggs", "102807J", "2010"):
        assert admin_client.get(url(model, "changelist"), {"q": term}).status_code == 200
    row = model.objects.first()
    if row is not None:
        assert admin_client.get(url(model, "change", row.pk)).status_code == 200


OTHER_APPS_MODELS = [m for m in admin.site._registry if m._meta.app_label != "registry"]


@pytest.mark.parametrize("model", OTHER_APPS_MODELS, ids=lambda m: m._meta.label)
def test_other_apps_lists_load_in_the_admin_as_made_atomic(admin_client, model) -> None:
    """Django's users and groups, django-axes' and the task queue's lists, each now a
    subclass made by registry.admin.base.atomic_everywhere, still show."""
    meta = model._meta
    assert len(OTHER_APPS_MODELS) >= 4  # users, groups, axes' three, the tasks
    listed = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    assert listed.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_an_action_run_straight_from_a_list_is_one_transaction(admin_client, monkeypatch) -> None:
    """django-axes' clean-up runs from the list without a page to confirm: in one
    transaction too, as web.errors' busy page ("nothing was changed") takes it to be."""
    from axes.admin import AccessAttemptAdmin
    from axes.models import AccessAttempt
    from django.db import connection

    inside: list[bool] = []

    def cleanup(self, request, queryset) -> None:
        inside.append(connection.in_atomic_block)

    monkeypatch.setattr(AccessAttemptAdmin, "cleanup_expired_attempts", cleanup)
    attempt = AccessAttempt.objects.create(
        user_agent="test", ip_address="127.0.0.1", username="someone", http_accept="*/*",
        path_info="/admin/login/", get_data="", post_data="", failures_since_start=1,
    )  # fmt: skip
    form = {"action": "cleanup_expired_attempts", "index": 0, "_selected_action": [attempt.pk]}
    answer = admin_client.post(reverse("admin:axes_accessattempt_changelist"), form)
    assert answer.status_code == 302
    assert inside == [True]


@pytest.mark.parametrize(("role", "saved"), [("MEMBER", True), ("OFFICER", False)])
def test_a_members_record_takes_only_a_login_in_the_member_role(
    admin_client, make_player, role: str, saved: bool
) -> None:
    """As services.members.link_account did: a grading officer's login given to a member's
    record would show that member's games under the officer's name."""
    from ecfgrading.registry.models import DirectMember
    from ecfgrading.registry.roles import Role
    from ecfgrading.services.accounts import create_user

    member = DirectMember.objects.create(player=make_player("Member"), number="M1")
    login = create_user("someone", role=Role[role], password="x" * 20)
    form = {"player": member.player_id, "number": "M1", "member_class": "", "email": ""}
    answer = admin_client.post(url(DirectMember, "change", member.pk), {**form, "user": login.pk})
    member.refresh_from_db()
    assert (answer.status_code, member.user_id) == ((302, login.pk) if saved else (200, None))
    if not saved:
        said = "expected a login in the direct member role, got &#x27;someone&#x27;"
        assert said in answer.content.decode()


def test_a_members_record_whose_login_left_the_role_can_still_be_corrected(
    admin_client, make_player
) -> None:
    from ecfgrading.registry.models import DirectMember
    from ecfgrading.registry.roles import Role
    from ecfgrading.services.accounts import create_user

    login = create_user("someone", role=Role.OFFICER, password="x" * 20)
    member = DirectMember.objects.create(player=make_player("Member"), number="M1", user=login)
    form = {"player": member.player_id, "number": "M1", "member_class": "Junior", "email": ""}
    answer = admin_client.post(url(DirectMember, "change", member.pk), {**form, "user": login.pk})
    member.refresh_from_db()
    assert (answer.status_code, member.member_class, member.user_id) == (302, "Junior", login.pk)


def test_the_admin_is_for_staff_only(client, db) -> None:
    response = client.get(url(Player, "changelist"))

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_a_player_is_found_by_his_full_code(admin_client, make_player) -> None:
    player = make_player()

    response = admin_client.get(url(Player, "changelist"), {"q": player.ref})
    assert player.surname in response.content.decode()


def test_staff_see_the_date_of_birth(admin_client, make_player) -> None:
    player = make_player(date_of_birth=date(2001, 3, 2))

    response = admin_client.get(url(Player, "change", player.pk))
    assert 'value="02/03/2001"' in response.content.decode()


def test_a_date_of_birth_given_in_the_admin_is_noted_as_learnt_then(
    admin_client, make_player
) -> None:
    """A date the record lacked is learnt now: a replay of a list published before
    (regrade --as-published) leaves it out; changing a known date notes nothing."""
    player = make_player()
    form = {
        "surname": player.surname,
        "forenames": player.forenames,
        "sex": "M",
        "date_of_birth": "02/03/2001",
        "nation": "ENG",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }

    response = admin_client.post(url(Player, "change", player.pk), form)
    assert response.status_code == 302, response.content.decode()
    player.refresh_from_db()
    assert player.date_of_birth == date(2001, 3, 2) and player.born_noted_at is not None
    noted = player.born_noted_at

    admin_client.post(url(Player, "change", player.pk), {**form, "date_of_birth": "03/03/2001"})
    player.refresh_from_db()
    assert (player.date_of_birth, player.born_noted_at) == (date(2001, 3, 3), noted)


def test_a_player_added_in_the_admin_is_issued_a_code(admin_client, make_player) -> None:
    last = make_player()
    form = {
        "surname": "Newcomer",
        "forenames": "Nina",
        "sex": "F",
        "nation": "ENG",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }

    response = admin_client.post(url(Player, "add"), form)
    assert response.status_code == 302, response.content.decode()
    assert Player.objects.get(surname="Newcomer").code == last.code + 1


def test_a_published_version_is_read_only(admin_client, some_of_everything) -> None:
    version = ListVersion.objects.get()
    page = admin_client.get(url(ListVersion, "change", version.pk)).content.decode()

    assert 'name="_save"' not in page
    assert admin_client.post(url(ListVersion, "change", version.pk), {}).status_code == 403
    assert (
        admin_client.post(url(ListVersion, "delete", version.pk), {"post": "yes"}).status_code
        == 403
    )


def test_a_results_file_is_shown_and_never_edited(admin_client, some_of_everything) -> None:
    submission = Submission.objects.get()
    page = admin_client.get(url(Submission, "change", submission.pk)).content.decode()

    assert "#EVENT DETAILS" in page
    assert 'name="raw"' not in page
    assert admin_client.post(url(Submission, "change", submission.pk), {}).status_code == 403


def test_a_player_cannot_be_merged_by_editing_him_in_the_admin(admin_client, make_player) -> None:
    """A merge is audited and goes through the merge service, never the change form."""
    absorbed, survivor = make_player("Bloggs"), make_player("Blogs")
    form = {
        "surname": "Bloggs",
        "forenames": "Joe",
        "sex": "M",
        "nation": "ENG",
        "merged_into": str(survivor.pk),
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }

    response = admin_client.post(url(Player, "change", absorbed.pk), form)
    assert response.status_code == 302, response.content.decode()
    absorbed.refresh_from_db()
    assert (absorbed.sex, absorbed.merged_into_id) == ("M", None)  # saved, but not merged
    page = admin_client.get(url(Player, "change", absorbed.pk)).content.decode()
    assert 'name="merged_into"' not in page


def test_a_club_cannot_be_merged_by_editing_it_in_the_admin(admin_client, db) -> None:
    absorbed = Club.objects.create(code="7WAL", name="Walthamstow")
    survivor = Club.objects.create(code="7WAT", name="Walthamstow Town")
    form = {"code": "7WAL", "name": "Walthamstow Chess", "merged_into": str(survivor.pk)}

    response = admin_client.post(url(Club, "change", absorbed.pk), form)
    assert response.status_code == 302, response.content.decode()
    absorbed.refresh_from_db()
    assert (absorbed.name, absorbed.merged_into_id) == ("Walthamstow Chess", None)
    page = admin_client.get(url(Club, "change", absorbed.pk)).content.decode()
    assert 'name="merged_into"' not in page


def test_a_player_merged_into_another_cannot_be_deleted_in_the_admin(
    admin_client, make_player
) -> None:
    """G28: a merged-away code finds the survivor for good, which needs his record. His
    delete page names him as protected and deletes nothing, as does the list's "delete
    selected" action; the survivor's names him as protected (not as a lack of
    permission); a player merged into no one is deleted as before."""
    gone, kept, mistake = make_player("Bloggs"), make_player("Blogs"), make_player("Mistake")
    Player.objects.filter(pk=gone.pk).update(merged_into=kept)
    protected = f"Player: {gone} (merged into {kept}; his code finds him, G28)"
    selected = {"action": "delete_selected", "_selected_action": [gone.pk], "post": "yes"}

    for page in (
        admin_client.get(url(Player, "delete", gone.pk)),
        admin_client.post(url(Player, "delete", gone.pk), {"post": "yes"}),
        admin_client.post(url(Player, "changelist"), selected),
    ):
        assert page.status_code == 200
        assert protected in page.content.decode()
    assert Player.objects.filter(pk=gone.pk, merged_into=kept).exists()
    assert not LogEntry.objects.exists()  # no deletion logged
    survivors = admin_client.get(url(Player, "delete", kept.pk)).content.decode()
    assert "protected related objects" in survivors and str(gone) in survivors
    assert "permission" not in survivors
    assert admin_client.post(url(Player, "delete", mistake.pk), {"post": "yes"}).status_code == 302
    assert not Player.objects.filter(pk=mistake.pk).exists()


@pytest.mark.parametrize("selected", [False, True], ids=["delete page", "delete selected"])
@pytest.mark.parametrize("who", ["him", "another into him"])
def test_a_merge_committed_while_a_deletion_waited_for_the_lock_refuses_it(
    admin_client, make_player, monkeypatch, selected: bool, who: str
) -> None:
    """The admin showed the player deletable, then a merge committed before the deletion
    took the registry lock (PostgreSQL lets the two interleave): him merged away, or
    another merged into him (whose record his protects). The deletion, under the lock,
    refuses (403), logging nothing, rather than deleting him or failing with a server
    error."""
    import ecfgrading.registry.admin.people as people

    doomed, other = make_player("Bloggs"), make_player("Blogs")
    taken = people.take_registry_lock

    def merged_meanwhile() -> None:
        taken()
        if who == "him":
            Player.objects.filter(pk=doomed.pk).update(merged_into=other)
        else:
            Player.objects.filter(pk=other.pk).update(merged_into=doomed)

    monkeypatch.setattr(people, "take_registry_lock", merged_meanwhile)
    if selected:
        form = {"action": "delete_selected", "_selected_action": [doomed.pk], "post": "yes"}
        answer = admin_client.post(url(Player, "changelist"), form)
    else:
        answer = admin_client.post(url(Player, "delete", doomed.pk), {"post": "yes"})
    assert answer.status_code == 403
    assert Player.objects.filter(pk=doomed.pk).exists()
    assert not LogEntry.objects.exists()


@contextmanager
def _locked_elsewhere(sql: str, params: list[object]) -> Iterator[None]:
    """``sql`` run by another connection in a transaction held until the block ends, with
    this connection's waits for locks cut to 300 ms."""
    import psycopg
    from django.db import connection

    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"],
    )
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '300ms'")
    try:
        other.execute(sql, params)
        yield
    finally:
        other.close()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")  # the connection serves later tests


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_deletion_refused_for_the_lock_leaves_no_log_of_it(admin_client, make_player) -> None:
    """The list's "delete selected" while an import holds the registry lock longer than
    the wait: Django logs deletions before it deletes, in one transaction with them
    now, so the busy page's "nothing was changed" holds, the log included."""
    from ecfgrading.registry.locking import REGISTRY_LOCK_KEY

    mistake = make_player("Mistake")
    with _locked_elsewhere("SELECT pg_advisory_xact_lock(%s)", [REGISTRY_LOCK_KEY]):
        selected = {"action": "delete_selected", "_selected_action": [mistake.pk], "post": "yes"}
        answer = admin_client.post(url(Player, "changelist"), selected)
    assert answer.status_code == 409, answer.content.decode()[:500]
    assert "Saving this change: the database stayed busy" in answer.content.decode()
    assert Player.objects.filter(pk=mistake.pk).exists()
    assert not LogEntry.objects.exists()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_login_deleted_while_its_row_is_locked_leaves_no_log_of_it(admin_client) -> None:
    """Django's own list of users, not the registry's: its "delete selected" logged, then
    deleted, in two commits, so that a deletion kept waiting by another transaction left
    a log entry of a deletion never made, behind a server error. One transaction now,
    and the busy page."""
    from django.contrib.auth.models import User

    mistake = User.objects.create_user("mistake")
    locked = "SELECT id FROM auth_user WHERE id = %s FOR UPDATE"
    with _locked_elsewhere(locked, [mistake.pk]):
        selected = {"action": "delete_selected", "_selected_action": [mistake.pk], "post": "yes"}
        answer = admin_client.post(reverse("admin:auth_user_changelist"), selected)
    assert answer.status_code == 409, answer.content.decode()[:500]
    assert "Saving this change: the database stayed busy" in answer.content.decode()
    assert User.objects.filter(pk=mistake.pk).exists()
    assert not LogEntry.objects.exists()


def test_every_list_that_may_delete_deletes_in_one_transaction(admin_user, rf) -> None:
    """Each list staff may delete from, the registry's and other apps' (users, groups,
    sign-in attempts), runs its confirmed "delete selected" in one transaction with
    its log (registry.admin.base.AtomicActions), so that a lock wait running out there is
    the busy page, nothing changed (web.errors), never a log of deletions that did not
    happen."""
    from ecfgrading.registry.admin.base import AtomicActions

    request = rf.get("/admin/")
    request.user = admin_user
    deleting = {
        model._meta.label: isinstance(model_admin, AtomicActions)
        for model, model_admin in admin.site._registry.items()
        if model_admin.has_delete_permission(request)
    }
    assert {"auth.User", "auth.Group", "registry.Player", "registry.Club"} <= set(deleting)
    assert [name for name, atomic in deleting.items() if not atomic] == []
