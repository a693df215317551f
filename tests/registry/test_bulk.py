"""``registry.bulk.update_rows``: rows written by id, a chunk of rows a statement on
PostgreSQL, with the same outcome as one UPDATE a row (the results import and the list
import rely on it on both databases)."""

from collections.abc import Callable
from datetime import UTC, date, datetime

import pytest
from django.db import DataError, IntegrityError, ProgrammingError, connection, transaction
from django.test.utils import CaptureQueriesContext

from ecfgrading.registry import bulk
from ecfgrading.registry.models import IdentityChange, ListEntry, ListVersion, Player

pytestmark = pytest.mark.django_db

MakePlayer = Callable[..., Player]


def _players(make_player: MakePlayer, count: int) -> list[Player]:
    return [make_player(f"Surname {n}", f"Forename {n}") for n in range(count)]


def test_it_sets_the_columns_of_the_rows_named_and_of_no_other(make_player: MakePlayer) -> None:
    one, two, three = _players(make_player, 3)

    bulk.update_rows(
        Player,
        ("surname", "date_of_birth"),
        [("Adams", date(1970, 2, 3), one.pk), ("Brown", date(1981, 12, 31), three.pk)],
    )

    found = dict(Player.objects.values_list("pk", "surname"))
    assert found == {one.pk: "Adams", two.pk: "Surname 1", three.pk: "Brown"}
    births = dict(Player.objects.values_list("pk", "date_of_birth"))
    assert births == {one.pk: date(1970, 2, 3), two.pk: None, three.pk: date(1981, 12, 31)}


def test_of_two_rows_for_one_id_the_later_wins(make_player: MakePlayer) -> None:
    one, two = _players(make_player, 2)

    rows = [("First", one.pk), ("Other", two.pk), ("Second", one.pk), ("Third", one.pk)]
    bulk.update_rows(Player, ("surname",), rows)

    assert Player.objects.get(pk=one.pk).surname == "Third"
    assert Player.objects.get(pk=two.pk).surname == "Other"


def test_the_later_row_wins_across_chunks_too(
    make_player: MakePlayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bulk, "BATCH", 2)
    one, two = _players(make_player, 2)

    # chunks: (A one, B two), (C one, D two), (E one)
    rows = [("A", one.pk), ("B", two.pk), ("C", one.pk), ("D", two.pk), ("E", one.pk)]
    bulk.update_rows(Player, ("surname",), iter(rows))

    assert dict(Player.objects.values_list("pk", "surname")) == {one.pk: "E", two.pk: "D"}


def test_texts_are_stored_exactly_whatever_their_characters(make_player: MakePlayer) -> None:
    texts = ["a,b", 'q"x', "back\\slash", "{br}", "NULL", "", "O'Neil", "Zoë Ørsted", " sp "]
    players = _players(make_player, len(texts))

    bulk.update_rows(Player, ("forenames",), zip(texts, [p.pk for p in players], strict=True))

    found = dict(Player.objects.values_list("pk", "forenames"))
    assert [found[p.pk] for p in players] == texts


def test_a_column_can_be_set_to_null_in_every_row_or_some(make_player: MakePlayer) -> None:
    one, two = _players(make_player, 2)
    Player.objects.update(fide_id=400_041, date_of_birth=date(2000, 1, 1))

    bulk.update_rows(
        Player,
        ("fide_id", "date_of_birth"),
        [(None, None, one.pk), (None, date(1999, 5, 6), two.pk)],
    )

    found = {
        pk: (fide, born)
        for pk, fide, born in Player.objects.values_list("pk", "fide_id", "date_of_birth")
    }
    assert found == {one.pk: (None, None), two.pk: (None, date(1999, 5, 6))}


def test_a_foreign_key_and_a_time_are_set(make_player: MakePlayer) -> None:
    one, two = _players(make_player, 2)
    at = datetime(2024, 3, 1, 12, 30, tzinfo=UTC)
    stamp = connection.ops.adapt_datetimefield_value(at)

    bulk.update_rows(Player, ("merged_into_id", "updated_at"), [(two.pk, stamp, one.pk)])

    merged = Player.objects.get(pk=one.pk)
    assert (merged.merged_into_id, merged.updated_at) == (two.pk, at)


def test_a_column_mixing_whole_and_fractional_numbers_is_written(
    make_player: MakePlayer, draft_version: ListVersion
) -> None:
    one, two, three = _players(make_player, 3)
    entries = [ListEntry.objects.create(version=draft_version, player=p) for p in (one, two, three)]

    rows = [(150, entries[0].pk), (151.25, entries[1].pk), (None, entries[2].pk)]
    bulk.update_rows(ListEntry, ("unrounded",), rows)

    found = dict(ListEntry.objects.values_list("pk", "unrounded"))
    assert [found[e.pk] for e in entries] == [150.0, 151.25, None]


def test_no_rows_send_no_statement() -> None:
    with CaptureQueriesContext(connection) as sent:
        bulk.update_rows(Player, ("surname",), [])

    assert sent.captured_queries == []


@pytest.mark.postgresql
def test_on_postgresql_a_chunk_of_rows_is_one_statement(make_player: MakePlayer) -> None:
    players = _players(make_player, 30)

    with CaptureQueriesContext(connection) as sent:
        bulk.update_rows(Player, ("surname", "sex"), [(f"New {p.pk}", "F", p.pk) for p in players])

    # one UPDATE, not one execution a row (Django shows an executemany as "30 times")
    assert [query["sql"][:6] for query in sent.captured_queries] == ["UPDATE"]
    assert Player.objects.filter(sex="F").count() == 30
    assert Player.objects.get(pk=players[7].pk).surname == f"New {players[7].pk}"


@pytest.mark.postgresql
def test_on_postgresql_a_text_too_long_for_its_column_is_refused_not_cut(
    make_player: MakePlayer,
) -> None:
    (one,) = _players(make_player, 1)

    with pytest.raises(DataError):
        bulk.update_rows(Player, ("membership_no",), [("M" * 21, one.pk)])  # 20 characters


def test_an_id_on_no_row_changes_nothing(make_player: MakePlayer) -> None:
    (one,) = _players(make_player, 1)
    missing = one.pk + 1_000

    bulk.update_rows(Player, ("surname",), [("Ghost", missing), ("Real", one.pk)])

    assert list(Player.objects.values_list("surname", flat=True)) == ["Real"]


def test_a_row_of_the_wrong_length_is_refused_as_a_database_error(
    make_player: MakePlayer,
) -> None:
    (one,) = _players(make_player, 1)

    with pytest.raises(ProgrammingError):
        bulk.update_rows(Player, ("surname", "sex"), [("Adams", one.pk)])  # no sex


# insert_rows -----------------------------------------------------------------------------


def test_inserted_rows_beyond_one_statement_keep_their_values_and_order() -> None:
    """One column binds 999 rows a statement on SQLite: 2,500 rows are two full
    statements and one of 502."""
    rows = [(7_000 + (n * 37) % 2_500,) for n in range(2_500)]  # not in id order
    bulk.insert_rows(IdentityChange, ("player_id",), iter(rows))
    stored = list(IdentityChange.objects.order_by("id").values_list("player_id"))
    assert stored == rows  # ids follow the rows' order


def test_a_row_of_another_width_is_refused_not_shifted_into_the_next() -> None:
    rows = [(1,), (2, 3), (4,)]
    with pytest.raises((ValueError, DataError, ProgrammingError)):
        bulk.insert_rows(IdentityChange, ("player_id",), rows)


def _player_rows(codes: list[int]) -> tuple[tuple[str, ...], list[tuple[object, ...]]]:
    """Player rows as the ORM would prepare them."""
    fields = [field for field in Player._meta.concrete_fields if not field.primary_key]
    rows = []
    for code in codes:
        player = Player(code=code, surname=f"Surname {code}", name_key=f"k{code}")
        rows.append(
            tuple(
                field.get_db_prep_save(field.pre_save(player, True), connection) for field in fields
            )
        )
    return tuple(field.column for field in fields), rows


def test_a_refused_row_leaves_none_of_the_rows_once_its_savepoint_is_rolled_back() -> None:
    """SQLite's statements are INSERT OR FAIL (no copy of each page a statement touches):
    the rows before the refused one stay, those of its own statement too, until the
    rollback that the caller's transaction or savepoint does; after it, nothing of the
    batch is left, on either database. The refused row is the 121st, in the middle of a
    statement (SQLite binds 999 values: 76 rows of Player's 13 columns a statement)."""
    before = Player.objects.count()
    codes = [500_000 + n for n in range(300)]
    codes[120] = codes[100]  # the code held twice
    columns, rows = _player_rows(codes)
    with pytest.raises(IntegrityError), transaction.atomic():
        if connection.vendor == "sqlite":
            per = connection.features.max_query_params // len(columns)
            assert 120 % per, "the refused row must not begin a statement"
            with pytest.raises(IntegrityError):
                bulk.insert_rows(Player, columns, rows)
            # OR FAIL: the refused statement's rows before it stay (a plain INSERT would
            # have undone its statement's rows itself, leaving 120 - 120 % per).
            assert Player.objects.count() == before + 120
            raise IntegrityError("rolled back as the callers do")
        bulk.insert_rows(Player, columns, rows)
    assert Player.objects.count() == before

    columns, rows = _player_rows([600_000 + n for n in range(300)])
    with transaction.atomic():
        bulk.insert_rows(Player, columns, rows)
    stored = list(Player.objects.filter(code__gte=600_000).order_by("id").values_list("code"))
    assert stored == [(600_000 + n,) for n in range(300)]


def test_update_one_writes_only_a_row_that_still_holds_what_it_expects() -> None:
    """update_one: the JSON, the enum and the foreign key's attname prepared as the ORM
    prepares them; a row that no longer waits is left alone and counted 0."""
    from ecfgrading.registry.bulk import update_one
    from ecfgrading.registry.models import Event, Submission

    event = Event.objects.create(
        code="E1", name="E", start_date=date(2010, 1, 1), end_date=date(2010, 1, 1)
    )
    waiting = Submission.objects.create(raw=b"x", filename="a.txt", sha256="a")
    received = {"status": Submission.Status.RECEIVED}
    values = {"event_id": event.id, "status": Submission.Status.ACCEPTED, "report": {"ok": [1]}}
    assert update_one(Submission, waiting.id, values, where=received) == 1
    stored = Submission.objects.get(id=waiting.id)
    assert (stored.event_id, stored.status, stored.report) == (event.id, "accepted", {"ok": [1]})
    assert update_one(Submission, waiting.id, {"status": "rejected"}, where=received) == 0
    assert Submission.objects.get(id=waiting.id).status == "accepted"
    with pytest.raises(ValueError, match=r"expected a column of registry\.Submission"):
        update_one(Submission, waiting.id, {"games": 1})


# statement shapes (issue 25: SQLite compiles each distinct text) ---------------------------


def test_rows_left_over_are_written_a_power_of_two_a_statement_largest_first() -> None:
    # 45 = 32 + 8 + 4 + 1; 130 = 49 + 49 + 32, with 49 a statement at most.
    assert list(bulk.shaped(45)) == [(0, 32), (32, 8), (40, 4), (44, 1)]
    assert list(bulk.shaped(130, most=49)) == [(0, 49), (49, 49), (98, 32)]
    assert list(bulk.shaped(7, start=98)) == [(98, 4), (102, 2), (104, 1)]
    assert list(bulk.shaped(0)) == []


def test_an_in_list_is_padded_with_its_last_value_to_a_power_of_two_eight_at_least() -> None:
    assert bulk.padded([5]) == [5] * 8
    assert bulk.padded(list(range(8))) == list(range(8))
    assert bulk.padded(list(range(9))) == [*range(9), *[8] * 7]  # 16
    assert len(bulk.padded(list(range(100)))) == 128
    assert bulk.padded([]) == []


def test_files_of_every_count_of_rows_share_a_few_statement_texts() -> None:
    """One column binds 999 rows a statement on SQLite: counts 1 to 60, each written
    alone, are statements of 1, 2, 4, 8, 16 and 32 rows, six texts, where each count
    used to be a text of its own."""
    rows = [(7_000 + n,) for n in range(60)]
    sizes: set[int] = set()
    written: list[tuple[int, ...]] = []
    for count in range(1, 61):
        with CaptureQueriesContext(connection) as queries:
            bulk.insert_rows(IdentityChange, ("player_id",), rows[:count])
        sizes.update(query["sql"].count("), (") + 1 for query in queries.captured_queries)
        written += rows[:count]
    stored = list(IdentityChange.objects.order_by("id").values_list("player_id"))
    assert stored == written
    if connection.vendor == "sqlite":  # PostgreSQL streams them by COPY
        assert sizes == {1, 2, 4, 8, 16, 32}
