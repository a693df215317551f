"""A served worker's PostgreSQL statements prepared after five sends (web/statements.py,
issue 25); other commands' connections, and SQLite's, left as the settings make them."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import connection
from django.db.utils import ConnectionHandler

from ecfgrading.web.statements import PREPARED_AFTER, prepare_page_statements


def test_only_postgresql_connections_are_told_to_prepare() -> None:
    handler = ConnectionHandler(
        {
            "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "grading"},
            "lite": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
        }
    )

    prepare_page_statements(handler)

    assert handler["default"].settings_dict["OPTIONS"] == {
        "server_side_binding": True,
        "prepare_threshold": PREPARED_AFTER,
    }
    assert handler["lite"].settings_dict["OPTIONS"] == {}


def test_the_settings_alone_prepare_nothing() -> None:
    """Imports and grading runs send large statements: nothing is prepared for them."""
    from django.conf import settings

    options = settings.DATABASES["default"].get("OPTIONS", {})
    assert "server_side_binding" not in options
    assert "prepare_threshold" not in options


@pytest.mark.postgresql
@pytest.mark.django_db
def test_a_statement_sent_five_times_is_prepared_on_a_served_connection() -> None:
    """A page's statements are the same for every player: after the fifth, the server
    runs the plan it prepared instead of planning again. The values are sent apart, so
    one prepared statement serves every player's."""
    handler = ConnectionHandler({"default": copy.deepcopy(connection.settings_dict)})
    prepare_page_statements(handler)
    served = handler["default"]

    def prepared() -> list[str]:
        with served.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [row[0] for row in cursor.fetchall() if "registry_player" in row[0]]

    def send(code: int) -> Any:
        with served.cursor() as cursor:
            cursor.execute("SELECT id FROM registry_player WHERE code = %s", [code])
            return cursor.fetchall()

    try:
        for code in range(100001, 100001 + PREPARED_AFTER):
            send(code)
        after_five = prepared()
        send(100006)
        after_six = prepared()
    finally:
        served.close()

    assert after_five == []
    assert after_six == ["SELECT id FROM registry_player WHERE code = $1"]
