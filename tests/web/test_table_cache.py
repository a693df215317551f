"""The shared cache in a table (web/table_cache.py): one statement a set, large values
compressed, and what Django's own database cache wrote still read (issue 25)."""

from __future__ import annotations

import base64
import os
import pickle
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from ecfgrading.web import table_cache
from ecfgrading.web.table_cache import COUNT_EVERY

pytestmark = pytest.mark.django_db

OURS = {"BACKEND": "ecfgrading.web.table_cache.TableCache", "LOCATION": "web_cache"}
DJANGOS = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "web_cache"}

# A page's worth of repetitive HTML, as a cached page is: (status, type, body, location).
PAGE = (200, "text/html", b"<tr><td>Smith, John</td><td>148</td></tr>\n" * 800, "")


@pytest.fixture
def both() -> Iterator[tuple[BaseCache, BaseCache]]:
    """This project's table cache and Django's own, over the same table."""
    with override_settings(CACHES={"default": OURS, "django": DJANGOS}):
        call_command("createcachetable", verbosity=0)  # the PostgreSQL pass made none
        ours, djangos = caches["default"], caches["django"]
        ours.clear()
        yield ours, djangos
        ours.clear()


def stored_text(key: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT value FROM web_cache WHERE cache_key LIKE %s", [f"%:{key}"])
        rows = cursor.fetchall()
    assert len(rows) == 1, rows
    return str(rows[0][0])


def sets_sent(work: Any) -> list[str]:
    """The statements ``work`` sent, savepoints aside."""
    with CaptureQueriesContext(connection) as captured:
        work()
    return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_a_page_reads_back_as_set_and_is_stored_compressed(
    both: tuple[BaseCache, BaseCache],
) -> None:
    ours, _ = both
    ours.set("page", PAGE)

    as_django_stores_it = base64.b64encode(pickle.dumps(PAGE, pickle.HIGHEST_PROTOCOL))
    assert ours.get("page") == PAGE
    # 34,400 bytes of body, repeated: Django's base64 of its pickle is larger still.
    assert len(stored_text("page")) < len(as_django_stores_it) / 10


def test_a_small_value_is_stored_as_django_stores_it(both: tuple[BaseCache, BaseCache]) -> None:
    ours, djangos = both
    ours.set("count", 7)
    djangos.set("django-count", 7)

    assert stored_text("count") == stored_text("django-count")
    assert ours.get("count") == 7


def test_each_reads_what_the_other_wrote(both: tuple[BaseCache, BaseCache]) -> None:
    ours, djangos = both
    djangos.set("written-by-django", PAGE)
    ours.set("written-here", PAGE)

    assert ours.get("written-by-django") == PAGE
    assert djangos.get("written-here") == PAGE
    assert ours.get_many(["written-by-django", "written-here"]) == {
        "written-by-django": PAGE,
        "written-here": PAGE,
    }


def test_a_second_set_of_a_key_replaces_its_value_in_one_row(
    both: tuple[BaseCache, BaseCache],
) -> None:
    ours, _ = both
    ours.set("page", PAGE)
    ours.set("page", "another page")

    assert ours.get("page") == "another page"
    stored_text("page")  # one row, asserted there


def test_a_set_is_one_statement_and_the_table_is_counted_once_every_so_many(
    both: tuple[BaseCache, BaseCache],
) -> None:
    ours, _ = both
    sent = [sets_sent(lambda n=n: ours.set(f"key-{n}", n)) for n in range(COUNT_EVERY + 1)]

    counted = [n for n, statements in enumerate(sent) if any("COUNT(" in s for s in statements)]
    assert counted == [0, COUNT_EVERY]
    assert all(len(statements) == 1 for n, statements in enumerate(sent) if n not in counted)
    assert "ON CONFLICT" in sent[1][0]
    assert ours.get_many([f"key-{n}" for n in range(3)]) == {"key-0": 0, "key-1": 1, "key-2": 2}


def test_past_max_entries_the_count_culls_the_table(
    both: tuple[BaseCache, BaseCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    ours, _ = both
    monkeypatch.setattr(ours, "_max_entries", 10)
    monkeypatch.setattr(ours, "_cull_frequency", 2)  # half of the entries go
    for n in range(12):
        ours.set(f"key-{n:02}", n)
    monkeypatch.setattr(ours, "_sets_uncounted", 0)  # the next set counts

    ours.set("one-more", 12)

    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM web_cache")
        left = cursor.fetchone()[0]
    # Django's cull: 12 entries over 10 lose half (6), then the new one is stored.
    assert left == 12 - 6 + 1
    assert ours.get("one-more") == 12


def test_a_timeout_of_zero_expires_at_once_and_none_never(
    both: tuple[BaseCache, BaseCache],
) -> None:
    ours, _ = both
    ours.set("gone", PAGE, timeout=0)
    ours.set("kept", PAGE, timeout=None)

    assert ours.get("gone") is None
    assert ours.get("kept") == PAGE


def test_what_is_packed_unpickles_as_itself_alone() -> None:
    small, large = "x" * 10, "x" * 10_000

    assert pickle.loads(table_cache.packed(small)) == small
    assert pickle.loads(table_cache.packed(large)) == large
    assert len(table_cache.packed(large)) < 200


def test_what_compression_would_not_shrink_is_stored_as_pickled() -> None:
    """Issue 25: a value already compressed (a list's spreadsheet, a zip archive) is not
    compressed again, nor is one too short to be probed that compression would enlarge;
    either reads back as itself."""
    random = os.urandom(table_cache.COMPRESS_PROBE * 3)
    short = os.urandom(table_cache.COMPRESS_FROM * 2)
    mixed = random + b"x" * table_cache.COMPRESS_PROBE * 10  # its start is what is probed

    for value in (random, short, mixed):
        assert table_cache.packed(value) == pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        assert pickle.loads(table_cache.packed(value)) == value
    text = "Bloggs, Joe," * table_cache.COMPRESS_PROBE
    assert len(table_cache.packed(text)) < len(text) / 10


def test_an_add_stores_only_where_no_live_entry_is_and_in_one_statement(
    both: tuple[BaseCache, BaseCache],
) -> None:
    ours, djangos = both
    ours.set("warm-up", 0)  # the first write counts the table; the adds below need not

    sent = sets_sent(lambda: ours.add("total", 5))
    assert len(sent) == 1 and "ON CONFLICT" in sent[0]
    assert ours.add("total", 7) is False  # a live entry stays as it is
    assert ours.get("total") == 5
    assert djangos.add("total", 9) is False  # as Django's own add judges it


def test_an_add_replaces_an_expired_entry_as_djangos_does(
    both: tuple[BaseCache, BaseCache],
) -> None:
    ours, djangos = both
    ours.set("old", PAGE, timeout=-10)  # expired ten seconds ago
    djangos.set("django-old", 1, timeout=-10)

    assert ours.add("old", "fresh") is True
    assert ours.add("django-old", "fresh too") is True
    assert ours.get("old") == "fresh"
    assert djangos.get("django-old") == "fresh too"
    assert djangos.add("old", "not this") is False
