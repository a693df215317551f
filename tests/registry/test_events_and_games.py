"""Results files are kept byte for byte; events, games and identities stay consistent."""

from datetime import date

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Q

from ecfgrading.registry.models import Club, Game, PendingIdentification, Submission

pytestmark = pytest.mark.django_db


def accepted(make_submission, index: int = 1) -> Submission:
    return make_submission(submission_index=index, status=Submission.Status.ACCEPTED)


def test_two_accepted_files_cannot_share_an_event_code_and_index(make_submission) -> None:
    accepted(make_submission)

    with pytest.raises(IntegrityError), transaction.atomic():
        accepted(make_submission)


@pytest.mark.parametrize("status", ["received", "rejected", "superseded"])
def test_files_not_accepted_may_repeat_an_index(make_submission, status) -> None:
    accepted(make_submission)
    make_submission(status=status)
    make_submission(status=status)

    assert Submission.objects.filter(event_code="XX12345", submission_index=1).count() == 3


def test_a_higher_index_is_accepted_beside_the_superseded_file(make_submission) -> None:
    first = accepted(make_submission)
    first.status = Submission.Status.SUPERSEDED
    first.save()
    accepted(make_submission, index=2)
    accepted(make_submission, index=1)  # the same index again, now the first is superseded

    assert Submission.objects.filter(status="accepted").count() == 2


def test_a_file_is_kept_byte_for_byte_even_when_rejected(make_submission) -> None:
    raw = b"\xef\xbb\xbf#EVENT DETAILS\r\n#EVENT NAME=Caf\xe9 \x93Open\x94\r\n#FINISH#\r\ntail"
    submission = make_submission(raw=raw, event_code="", submission_index=None, status="rejected")

    stored = Submission.objects.get(pk=submission.pk)
    assert bytes(stored.raw) == raw
    assert stored.size == len(raw)
    assert stored.event is None


def test_an_event_not_graded_says_why(event) -> None:
    event.rate = "none"
    with pytest.raises(IntegrityError), transaction.atomic():
        event.save()

    event.not_graded_reason = "lightning"
    event.save()


def test_an_event_ends_on_or_after_its_first_day(event) -> None:
    event.end_date = date(2013, 5, 10)
    with pytest.raises(IntegrityError), transaction.atomic():
        event.save()


@pytest.fixture
def game_fields(event, make_submission):
    return {
        "event": event,
        "submission": accepted(make_submission),
        "result": "10",
        "game_date": date(2013, 5, 11),
        "rate": "standard",
        "graded": True,
        "line": 17,
    }


def test_a_player_cannot_play_himself(game_fields, make_player) -> None:
    player = make_player()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(player1=player, player2=player, sequence=1, **game_fields)


def test_each_side_of_a_game_is_a_player_or_a_pending_identification(
    game_fields, make_player
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(player1=make_player(), sequence=1, **game_fields)


def test_resolving_an_identification_fills_in_its_games(game_fields, make_player) -> None:
    known, newcomer = make_player("Bloggs"), make_player("Smith", "Jane")
    pending = PendingIdentification.objects.create(
        submission=game_fields["submission"], pin=2, name="Smith, Jane", club_name="Anytown"
    )
    game = Game.objects.create(player1=known, pending2=pending, sequence=1, **game_fields)

    Game.objects.filter(pending2=pending).update(player2=newcomer)
    pending.status, pending.resolved_player = PendingIdentification.Status.LINKED, newcomer
    pending.save()

    game.refresh_from_db()
    assert (game.player1, game.player2) == (known, newcomer)
    assert str(game) == f"{known} 1-0 {newcomer}, 2013-05-11"


def test_a_resolved_identification_names_its_player(game_fields) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        PendingIdentification.objects.create(
            submission=game_fields["submission"], pin=2, name="Smith, Jane", status="linked"
        )


def test_a_game_is_graded_or_says_why_not(game_fields, make_player) -> None:
    players = {"player1": make_player(), "player2": make_player()}
    default = {**game_fields, **players, "result": "1d", "graded": False}
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(sequence=1, **default)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(sequence=2, **game_fields, **players, not_graded_reason="default")

    Game.objects.create(sequence=3, **default, not_graded_reason="default")


def test_clubs_known_by_name_only_need_no_code() -> None:
    Club.objects.create(name="Anytown")
    Club.objects.create(name="Othertown")
    Club.objects.create(code="7WAL", name="Walthamstow", is_location=True)

    assert str(Club.objects.get(code="7WAL")) == "Walthamstow*"
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(code="7WAL", name="Another")
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(code="", name="Blank code")


@pytest.mark.django_db
def test_each_side_of_a_game_has_one_index_with_graded_and_date() -> None:
    """Issue 25: a side's games are found, and his latest graded game read, through one
    index per side; the foreign keys' own indexes are gone (no more indexes to write)."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Game._meta.db_table)
    indexes = [c["columns"] for c in found.values() if c["index"] and not c["primary_key"]]
    for side in ("player1_id", "player2_id"):
        assert [cols for cols in indexes if cols[0] == side] == [[side, "graded", "game_date"]]


@pytest.mark.django_db
def test_a_players_latest_graded_game_is_read_through_the_sides_index() -> None:
    """The rating API's query (``lookups.players._last_games``): on SQLite from the index
    alone (a covering index); PostgreSQL, told not to scan the table (its statistics of
    an empty test table would), reads it through the same index."""
    for side in ("player1_id", "player2_id"):
        latest = Game.objects.filter(**{f"{side}__in": [1, 2]}).order_by().values_list(side)
        query = latest.annotate(day=Max("game_date", filter=Q(graded=True)))
        plan = _plan(*query.query.sql_with_params())
        index = f"game_{side[:7]}_graded_idx"
        if connection.vendor == "sqlite":
            assert f"COVERING INDEX {index}" in plan, plan
        else:
            assert index in plan, plan


def _plan(sql: str, params: tuple[object, ...]) -> str:
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        else:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}", params)
        return " ".join(str(row[-1]) for row in cursor.fetchall())
