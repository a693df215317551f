"""registry.inserts: instances written by a plain statement read back as the ORM's own."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection, models
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.registry.bulk import IN_CHUNK
from ecfgrading.registry.inserts import insert_instances, insert_returning
from ecfgrading.registry.models import (
    AuditLog,
    IdentityChange,
    PendingIdentification,
    Player,
    Sex,
    Submission,
)

pytestmark = pytest.mark.django_db


def test_each_instance_gets_the_id_of_its_own_row() -> None:
    players = [
        Player(code=100_000 + k, surname=f"Surname{k}", forenames="Ann", name_key=f"k{k}")
        for k in range(5)
    ]
    assert insert_instances(players) is players
    for player in players:
        assert player.pk is not None
        assert not player._state.adding
        assert Player.objects.get(pk=player.pk).surname == player.surname


def test_more_rows_than_one_statement_takes_keep_their_order() -> None:
    """Player has over a dozen columns, so IN_CHUNK values hold fewer rows than these."""
    count = IN_CHUNK // 10 + 7
    players = [Player(code=200_000 + k, surname=f"S{k:04d}") for k in range(count)]
    insert_instances(players)
    stored = dict(Player.objects.values_list("id", "code"))
    assert len(stored) == count
    assert all(stored[player.pk] == player.code for player in players)


def test_defaults_dates_json_and_automatic_times_are_written_as_the_orm_writes_them() -> None:
    before = timezone.now() - timedelta(seconds=1)
    entry = insert_instances([AuditLog(action="import results", details={"games": 3})])[0]
    read = AuditLog.objects.get(pk=entry.pk)
    assert read.details == {"games": 3}
    assert read.actor == ""  # the field's default
    assert before <= read.at <= timezone.now()  # default=timezone.now, aware, in UTC

    born = date(1990, 2, 28)
    player = insert_instances([Player(code=300_001, surname="Dated", date_of_birth=born)])[0]
    read_player = Player.objects.get(pk=player.pk)
    assert read_player.date_of_birth == born
    assert read_player.created_at is not None  # auto_now_add, through pre_save

    stored = insert_instances([Submission(raw=b"\x00bytes\xff", filename="a.txt", sha256="0")])[0]
    read_submission = Submission.objects.get(pk=stored.pk)
    assert bytes(read_submission.raw) == b"\x00bytes\xff"
    assert read_submission.status == Submission.Status.RECEIVED  # the model's default


def test_a_foreign_key_is_written_by_its_id_and_nothing_is_sent_for_no_rows() -> None:
    submission = Submission.objects.create(raw=b"x", filename="a.txt", sha256="1")
    case = insert_instances([PendingIdentification(submission=submission, pin=3, name="A")])[0]
    assert PendingIdentification.objects.get(pk=case.pk).submission_id == submission.pk
    assert insert_instances([IdentityChange(player_id=7)])[0].player_id == 7
    assert insert_instances([]) == []


def test_rows_of_plain_values_get_their_ids_back_in_order() -> None:
    """insert_returning: more rows than one statement takes (IN_CHUNK values, one column
    a row here), each id the id of its own row."""
    players = [Player.objects.create(code=400_000 + k, surname=f"P{k}") for k in range(3)]
    wanted = [players[k % 3].pk for k in range(IN_CHUNK + 5)]
    ids = insert_returning(IdentityChange, ("player_id",), [(pid,) for pid in wanted])
    assert len(ids) == len(wanted) == len(set(ids))
    stored = dict(IdentityChange.objects.values_list("id", "player_id"))
    assert [stored[pk] for pk in ids] == wanted
    assert insert_returning(IdentityChange, ("player_id",), []) == []


def test_a_row_of_the_wrong_width_is_refused_before_anything_is_sent() -> None:
    with pytest.raises(ValueError, match="expected rows of 1 values"):
        insert_returning(IdentityChange, ("player_id",), [(1,), (1, 2)])
    assert not IdentityChange.objects.exists()


def test_values_taken_as_they_are_are_those_the_orm_would_prepare() -> None:
    """insert_instances takes a text field's str and a flag's bool as they are, and on
    SQLite a number's int and a foreign key's id too, without the field's methods (issue
    25); any other value (an enum member, a number in a text field, text in a number
    field) goes through them. Either way the value is the one the ORM's own preparation
    gives, of the same type."""
    from django.db import connection

    from ecfgrading.registry.bulk import current
    from ecfgrading.registry.inserts import _fields, _value

    submission = Submission(raw=b"x", filename="a.txt", sha256="0", status="accepted")
    samples = [
        Player(code=123_456, surname="Plain", forenames="Ann", sex="F", fide_id=4_100_018),
        Player(code="654321", surname=7, sex=Sex.MALE, merged_into_id=5),  # type: ignore[misc]
        submission,
        Submission(raw=b"y", filename="b.txt", sha256="1", status=Submission.Status.REJECTED),
        PendingIdentification(submission_id=3, pin=True, name="Name", code_text=261619),  # type: ignore[misc]
        AuditLog(action="import results", details={"games": 3}, actor="import"),
    ]
    taken_as_is = 0
    for obj in samples:
        for column in _fields(type(obj), current()):
            field, plain, _ = column
            if not plain:
                continue  # the field's own methods, as the ORM calls them
            ours = _value(column, obj, current())
            orm = field.get_db_prep_save(field.pre_save(obj, True), connection)
            assert (type(ours), ours) == (type(orm), orm), (type(obj).__name__, field.name)
            taken_as_is += type(getattr(obj, field.attname)) in plain
    # The plain path was taken, not only the ORM's: text and flags on both databases,
    # numbers and ids too on SQLite (on PostgreSQL Django wraps them in psycopg's types).
    assert taken_as_is >= (20 if connection.vendor == "sqlite" else 12)


def test_days_and_times_made_text_plainly_are_the_backends_own() -> None:
    """On SQLite insert_instances makes a date's text and a UTC time's text itself (issue
    25): each is what the field's own preparation gives, whether set by the caller, by a
    default or at the insert (``auto_now``); a time in another zone, or naive, goes
    through the field as before. On PostgreSQL every such value goes through the field."""
    import warnings
    import zoneinfo
    from datetime import UTC, datetime

    from ecfgrading.registry.bulk import current
    from ecfgrading.registry.inserts import _ASK_THE_FIELD, _fields, _value

    london = datetime(2013, 7, 1, 12, 30, 5, 250, tzinfo=zoneinfo.ZoneInfo("Europe/London"))
    samples = [
        Player(code=1, surname="Born", date_of_birth=date(1970, 4, 3)),  # created/updated now
        Player(code=2, surname="Unborn"),
        AuditLog(action="a", at=london),  # British summer time: an hour from UTC
        AuditLog(action="b"),  # its default, now in UTC
        AuditLog(action="c", at=datetime(2013, 1, 2, 3, 4, 5, tzinfo=UTC)),
    ]
    made_here = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a naive time, had one been given
        for obj in samples:
            for column in _fields(type(obj), current()):
                field, _, text = column
                if not isinstance(field, models.DateField):  # and its DateTimeField
                    continue  # the test above
                ours = _value(column, obj, current())
                # What the insert stored is the attribute now (``auto_now`` set it).
                orm = field.get_db_prep_save(getattr(obj, field.attname), connection)
                assert (type(ours), ours) == (type(orm), orm), (type(obj).__name__, field.name)
                stored = getattr(obj, field.attname)
                made_here += (
                    text is not None and stored is not None and (text(stored) is not _ASK_THE_FIELD)
                )
    # A date of birth, the players' four creation and change times, two audit times in
    # UTC (not the one in London's summer time).
    assert made_here == (1 + 4 + 2 if connection.vendor == "sqlite" else 0)


def test_rows_left_over_come_back_in_order_through_statements_of_a_few_sizes() -> None:
    """45 rows of one column fit one statement (IN_CHUNK values). SQLite keeps statements
    compiled: they are sent as statements of 32, 8, 4 and 1 rows (registry.bulk.shaped).
    PostgreSQL keeps none, and a statement more is a round trip: one statement of 45.
    Either way the ids follow the rows."""
    player = Player.objects.create(code=410_000, surname="Shapes")
    other = Player.objects.create(code=410_001, surname="Others")
    wanted = [player.pk if k % 3 else other.pk for k in range(45)]
    with CaptureQueriesContext(connection) as queries:
        ids = insert_returning(IdentityChange, ("player_id",), [(pid,) for pid in wanted])
    sizes = [query["sql"].count("), (") + 1 for query in queries.captured_queries]
    assert sizes == ([32, 8, 4, 1] if connection.vendor == "sqlite" else [45])
    # On SQLite a row alone comes back as the connection's last row id, not RETURNING
    # (which writes what it returns to a table of its own first).
    returning = ["RETURNING" in query["sql"] for query in queries.captured_queries]
    assert returning == ([True, True, True, False] if connection.vendor == "sqlite" else [True])
    assert ids == sorted(ids) and len(set(ids)) == 45
    stored = dict(IdentityChange.objects.values_list("id", "player_id"))
    assert [stored[pk] for pk in ids] == wanted
