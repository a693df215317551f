"""A write's references checked once per value, not once per row (SQLite).

SQLite enforces a foreign key by looking its row up for every row inserted: a season's
200,000 games look up their event, their file and both players, four lookups a game,
though a turn's 4,000 games name 32 events and files and a few thousand players. With
the check on, a national season's import took 1.4 s longer (8%, issue 25, measured).

So an importer's turn may be written with SQLite's enforcement off
(``checked_together``), and the rows it inserted are checked before it commits: each
reference column's distinct values among the new rows, looked up once each. A value
with no row to name raises IntegrityError, as SQLite's own check would, and the turn is
rolled back. PostgreSQL keeps its own enforcement: there nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.apps import apps
from django.db import IntegrityError, connection, models

Marks = dict[type[models.Model], int]
_BY_ID = {
    True: " NOT INDEXED",
    False: "",
}  # SQLite's words; PostgreSQL reads new rows by id  # model -> the highest id before the write


@contextmanager
def checked_together() -> Iterator[bool]:
    """SQLite's enforcement off while the block runs, when it can be: on SQLite, outside
    any transaction (SQLite ignores the switch inside one, and the check then stays on).
    Yields whether it is off: the block must then ``check_new_rows`` before it commits."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield False
        return
    with connection.constraint_checks_disabled():
        off = not _enforced()
        yield off


def _enforced() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA foreign_keys")
        (on,) = cursor.fetchone()
    return bool(on)


def _referring() -> list[type[models.Model]]:
    """The registry's tables with references, whose new rows a check looks at."""
    return [
        model
        for model in apps.get_app_config("registry").get_models()
        if _references(model) and isinstance(model._meta.pk, models.AutoField)
    ]


def _references(model: type[models.Model]) -> list[models.ForeignKey[models.Model, models.Model]]:
    return [
        field
        for field in model._meta.concrete_fields
        if isinstance(field, models.ForeignKey) and field.db_constraint
    ]


def marks() -> Marks:
    """The highest id of each table with references, before a write: the rows above it
    are the write's."""
    quote = connection.ops.quote_name
    found: Marks = {}
    with connection.cursor() as cursor:
        for model in _referring():
            cursor.execute(
                f"SELECT MAX({quote(model._meta.pk.column)}) FROM {quote(model._meta.db_table)}"
            )
            (highest,) = cursor.fetchone()
            found[model] = int(highest or 0)
    return found


def check_new_rows(before: Marks) -> None:
    """Every reference of the rows inserted since ``before`` names a row: IntegrityError,
    naming the first row that does not, otherwise. One statement a table: its new rows
    read by id (``NOT INDEXED``: else SQLite reads a reference's whole index for them),
    each reference looked up by the key it names (on SQLite). PostgreSQL, which checks
    references itself, runs it for a file written alone, so that it is refused alone."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model, mark in before.items():
            table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
            missing = " OR ".join(
                f"(c.{quote(field.column)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                f"{quote(field.target_field.model._meta.db_table)} p WHERE "
                f"p.{quote(field.target_field.column)} = c.{quote(field.column)}))"
                for field in _references(model)
            )
            cursor.execute(
                f"SELECT c.{pk} FROM {table} AS c{_BY_ID[connection.vendor == 'sqlite']} "
                f"WHERE c.{pk} > %s AND ({missing}) LIMIT 1",
                [mark],
            )
            found = cursor.fetchone()
            if found is not None:
                raise IntegrityError(
                    f"FOREIGN KEY constraint failed: row {found[0]} of "
                    f"{model._meta.db_table} names a row that is not on record"
                )
