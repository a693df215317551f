"""A served worker's PostgreSQL statements prepared after five sends (issue 25).

A public page's dozen statements are the same for every player, club or event: only
their values change. Planning them was most of the server's time on a cold player page
(2.8 ms of 4.1 by ``EXPLAIN ANALYZE``), so the workers ``ecfgrading serve`` forks send
values apart from the statement (psycopg's server-side binding), and psycopg prepares
a statement once a connection has sent it five times: the server plans it no more.

Only the served workers, not imports, grading runs or other commands. Those measured
no faster with it (the thirteenth steps of issue 25), and their statements can be
large: a value sent apart counts against PostgreSQL's 65,535 parameters a statement,
where Django's own ``bulk_create`` and ``__in`` on PostgreSQL never split a statement.
Django turns preparing off by default, for poolers that cannot keep prepared
statements: PgBouncer must be in session mode in front of served workers
(docs/deploy.md).
"""

from __future__ import annotations

from django.db import connections
from django.db.utils import ConnectionHandler

POSTGRESQL = "django.db.backends.postgresql"
PREPARED_AFTER = 5  # sends of one statement on a connection (psycopg's threshold)


def prepare_page_statements(handler: ConnectionHandler = connections) -> None:
    """Connections made from now on, to PostgreSQL, prepare what they send repeatedly;
    those already open are closed (a served worker opens its own after the fork)."""
    for alias in handler:
        config = handler.settings[alias]  # the dictionary its connections are made from
        if config["ENGINE"] == POSTGRESQL:
            options = config.setdefault("OPTIONS", {})
            options.setdefault("server_side_binding", True)
            options.setdefault("prepare_threshold", PREPARED_AFTER)
    for opened in handler.all(initialized_only=True):
        if opened.settings_dict["ENGINE"] == POSTGRESQL:
            opened.close()  # opened again, on first use, with the options
