"""Whether the database the settings name is there to work on: reached, made, migrated.

Every entry point but ``ecfgrading init`` (and the demo, which runs it) works on a
database that exists. Asking first turns "no such table" and connection tracebacks into
a message that says what to do, and keeps SQLite from creating an empty file on connect.
"""

from __future__ import annotations

from pathlib import Path

from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

from ecfgrading.services.errors import ServiceError

INIT = "run `ecfgrading init`"


class DatabaseNotReady(ServiceError):
    """The database cannot be reached, or was never made or migrated."""


def check_database(*, creating: bool = False) -> None:
    """Raise DatabaseNotReady, saying what to do, unless the database can be worked on.

    ``creating``: the caller makes the database itself (init), so only the server must
    answer; otherwise a SQLite file must exist before it is opened, or opening makes it.
    """
    if not creating and _sqlite_file_missing():
        raise DatabaseNotReady(f"no database here: {INIT} (expected {_where()})")
    _connect()
    if creating:
        return
    if "registry_player" not in connection.introspection.table_names():
        raise DatabaseNotReady(f"no database here: {INIT} ({_where()} holds no tables)")
    if _unapplied_migrations():
        raise DatabaseNotReady(f"the database needs migrating: {INIT} ({_where()})")


def _sqlite_file_missing() -> bool:
    name = str(connection.settings_dict["NAME"])
    if connection.vendor != "sqlite" or connection.creation.is_in_memory_db(name):
        return False
    return not Path(name).is_file()


def _connect() -> None:
    try:
        connection.ensure_connection()
    except DatabaseError as error:
        raise DatabaseNotReady(_unreachable(error)) from None


def _unreachable(error: DatabaseError) -> str:
    if connection.vendor == "sqlite":
        return f"cannot open {_where()}: {error}; check ECFGRADING_HOME or DATABASE_URL"
    name = connection.settings_dict["NAME"]
    return (
        f"cannot connect to {_where()}, which DATABASE_URL names ({_reason(error)}): check "
        f"DATABASE_URL, that the server is running there and that the database exists "
        f"(`createdb {name}`, then {INIT})"
    )


def _reason(error: DatabaseError) -> str:
    """libpq's own words, without its "connection to server ... failed:" preamble."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    first = lines[0].rsplit(" failed: ", 1)[-1].removeprefix("FATAL:").strip() if lines else ""
    return "; ".join([first, *lines[1:]])


def _where() -> str:
    """The database in words, never its password."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"the SQLite file {settings['NAME']}"
    host = settings["HOST"] or "localhost"
    port = f":{settings['PORT']}" if settings["PORT"] else ""
    return f"the PostgreSQL database {settings['NAME']!r} on {host}{port}"


def _unapplied_migrations() -> bool:
    executor = MigrationExecutor(connection)
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))
