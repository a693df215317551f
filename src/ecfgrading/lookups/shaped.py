"""Read statements built and compiled once per shape, then run with each call's values.

A cold page's statements are the same for every player but for their values (his ids,
the lists' versions, a date), yet Django built each queryset and compiled it to SQL
again for every page: a quarter of a cold player page's time (py-spy, issue 25), more
than its statements took to run on SQLite. A ``Statement`` builds its queryset once for
each shape of its arguments (a list's length rounded up to a power of two, as
``registry.bulk.padded`` does), with a marker in place of each value, and keeps the SQL
Django compiled, the position of each marker among its parameters and the columns'
converters. A call puts its values where the markers were and runs the SQL: the same
statement, parameters and converted rows as building the queryset with those values
would give (tests compare the two), without building it.

The arguments a statement takes are plain values compared with columns: integers (ids,
codes, seasons), text, dates, and lists of them for ``__in``; ``build`` passes them to
Django as they are, and works nothing out from them (a season three before the one given
is an argument of its own). A value it works out all the same is found, as far as two
builds with markers numbered apart and spaced differently can find it, and that shape is
never kept. Anything else, an empty list, a list longer than LONGEST, an integer outside
32 bits, a shape whose markers Django did not pass through as they were (an integer
column whose range a marker is outside of, where Django answers without asking), or a
build that fails on its markers, is built and run as a queryset each time: slower, not
wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.core.exceptions import EmptyResultSet, FullResultSet, ValidationError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import QuerySet
from django.db.models.query import ValuesListIterable

from ecfgrading.registry.bulk import padded

Row = tuple[Any, ...]
_INT_RANGE = (-(2**31), 2**31 - 1)  # an integer column's range on every database
# Markers: integers counting down from the top of a small integer column's range (inside
# every integer column's range on every database, a positive one's too: Django answers
# "nothing" or "everything" for a value outside a column's range without asking), text no
# value holds, and days before any federation's history. The second build's are numbered
# from _SECOND and spaced _SPACING apart: a value worked out from one argument (a marker
# plus or minus a constant) or from two (their difference) then differs between the builds.
_INT_MARK = 2**15 - 1
_TEXT_MARK = "\x00shaped {}\x00"
_DATE_MARK = date(1, 1, 1)
_MOST_MARKERS = 4_000  # a shape with more values is built each time
_SECOND, _SPACING = 5_000, 3
_KINDS = (int, str, date)
# A longer list is built each time: its statement takes longer to run than to build, and
# rounded up it could pass a database's limit of values a statement.
LONGEST = 1_024
# Shapes kept by each connection (each thread has its own): past this, the oldest is
# dropped, and compiled again if asked for.
KEPT_SHAPES = 1_000


class Statement:
    """A ``values_list`` query of its arguments, compiled once per shape (see above).

    ``build`` makes the queryset from the arguments alone: the same arguments must give
    the same SQL and values, so it reads nothing else (no clock, no settings)."""

    def __init__(self, build: Callable[..., QuerySet[Any]]) -> None:
        self.build = build

    def rows(self, *args: Any) -> list[Row]:
        """The rows of ``build(*args)``, as iterating it would give them."""
        values = [_plain(arg) for arg in args]
        if any(value is None for value in values):
            return self._built(args)
        connection = connections[DEFAULT_DB_ALIAS]
        shapes: dict[Any, _Compiled | None] = connection.__dict__.setdefault(_SHAPES, {})
        key = (self, tuple(_shape(value) for value in values))
        compiled = shapes.get(key, _UNKNOWN)
        if compiled is _UNKNOWN:
            while len(shapes) >= KEPT_SHAPES:
                shapes.pop(next(iter(shapes)), None)
            compiled = shapes[key] = _compiled(self.build, values, connection)
        found = None if compiled is None else compiled.run(values, connection)
        return self._built(args) if found is None else found

    def _built(self, args: Sequence[Any]) -> list[Row]:
        return list(self.build(*args))


_SHAPES = "_ecfgrading_shaped_statements"
_UNKNOWN: Any = object()  # a shape not compiled yet


def _plain(arg: Any) -> Any:
    """``arg`` as a statement takes it (a list padded to its shape), or None if it is not
    one of the values a statement takes."""
    if isinstance(arg, (list, tuple, set, frozenset)):
        items = list(arg)
        if not items or len(items) > LONGEST or not all(_scalar(item) for item in items):
            return None
        if len({type(item) for item in items}) != 1:
            return None
        return padded(sorted(items) if isinstance(arg, (set, frozenset)) else items, least=1)
    return arg if _scalar(arg) else None


def _scalar(value: Any) -> bool:
    if isinstance(value, bool) or type(value) not in _KINDS:
        return False  # a datetime is a date too, but not one: compared otherwise
    return not isinstance(value, int) or _INT_RANGE[0] <= value <= _INT_RANGE[1]


def _shape(value: Any) -> tuple[type, int]:
    if isinstance(value, list):
        return type(value[0]), len(value)
    return type(value), -1


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]  # with markers where the values go
    # (parameter, argument, item or -1, the class Django wrapped the value in or None)
    slots: tuple[tuple[int, int, int, type | None], ...]
    compiler: Any  # the SQLCompiler, for its columns' converters
    converters: dict[int, Any]

    def run(self, values: list[Any], connection: BaseDatabaseWrapper) -> list[Row] | None:
        """The rows for ``values``; None for a value its column cannot hold, for which
        Django answers without asking (and PostgreSQL would refuse a small integer)."""
        params = list(self.params)
        for position, argument, item, wrap in self.slots:
            value = _adapted(values[argument] if item < 0 else values[argument][item], connection)
            if wrap is not None and wrap.__name__ == "Int2" and not -(2**15) <= value < 2**15:
                return None
            params[position] = value if wrap is None else wrap(value)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if not self.converters:
            return rows
        return [tuple(row) for row in self.compiler.apply_converters(rows, self.converters)]


def _compiled(
    build: Callable[..., QuerySet[Any]], values: list[Any], connection: BaseDatabaseWrapper
) -> _Compiled | None:
    """The statement of ``values``' shape, or None when it cannot be kept (see above).

    Built twice, with two sets of markers: a parameter is a value's place if it holds
    that value's marker both times, and a constant if it is the same both times. Any
    other (a value the builder worked something out from, as a season three before the
    one given) makes the shape one built each time."""
    count = sum(len(value) if isinstance(value, list) else 1 for value in values)
    if count > _MOST_MARKERS:
        return None
    first, second = (
        _built_marked(build, values, connection, at, spacing)
        for at, spacing in ((0, 1), (_SECOND, _SPACING))
    )
    if first is None or second is None or first[1] != second[1]:
        return None
    compiler, sql, params, where = first
    slots, left = [], set(where)
    for position, (param, other) in enumerate(zip(params, second[2], strict=True)):
        found, again = where.get(_key(param)), second[3].get(_key(other))
        if found != again or (found is None and param != other):
            return None  # a value's place in one build only, or a value worked out from it
        if found is not None:  # a value Django passes twice is put in both places
            wrap = type(param) if type(param) not in _KINDS else None  # psycopg's Int4
            slots.append((position, *found, wrap))
            left.discard(_key(param))
    fields = [column[0] for column in compiler.select[: compiler.col_count]]
    if left or compiler.has_composite_fields(fields):
        return None  # a marker Django changed or left out: its value would be lost
    return _Compiled(sql, tuple(params), tuple(slots), compiler, compiler.get_converters(fields))


def _built_marked(
    build: Callable[..., QuerySet[Any]],
    values: list[Any],
    connection: BaseDatabaseWrapper,
    at: int,
    spacing: int,
) -> tuple[Any, str, tuple[Any, ...], dict[Any, tuple[int, int]]] | None:
    """(compiler, SQL, parameters, where each marker goes) of ``build`` given markers
    numbered from ``at``, ``spacing`` apart; None if Django answers without asking the
    database, or refuses a marker where it takes the value (text for a number)."""
    marks, where = _marked(values, connection, at, spacing)
    try:
        query = build(*marks)
        compiler = query.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
    except (EmptyResultSet, FullResultSet, TypeError, ValueError, ValidationError):
        return None
    if query._iterable_class is not ValuesListIterable:
        raise TypeError(f"expected a values_list query (tuples), got {query._iterable_class}")
    return compiler, sql, tuple(params), where


def _marked(
    values: list[Any], connection: BaseDatabaseWrapper, at: int, spacing: int
) -> tuple[list[Any], dict[Any, tuple[int, int]]]:
    """Arguments of ``values``' shape with a distinct marker for each value, numbered from
    ``at`` and ``spacing`` apart, and where each marker's parameter (as Django will pass
    it) goes: (argument, item or -1)."""
    count = at
    where: dict[Any, tuple[int, int]] = {}

    def mark(kind: type, argument: int, item: int) -> Any:
        nonlocal count
        count += spacing
        marker: Any
        if kind is int:
            marker = _INT_MARK - count
        elif kind is str:
            marker = _TEXT_MARK.format(count)
        else:
            marker = _DATE_MARK + timedelta(days=count)
        key = _key(_adapted(marker, connection))
        assert key is not None  # a marker is an int, a str or a date
        where[key] = (argument, item)
        return marker

    marks = [
        [mark(type(value[0]), argument, item) for item in range(len(value))]
        if isinstance(value, list)
        else mark(type(value), argument, -1)
        for argument, value in enumerate(values)
    ]
    return marks, where


def _key(param: Any) -> tuple[type, Any] | None:
    """A parameter as a marker is found by: its kind and value (an integer Django wrapped
    for psycopg, as ``Int4``, by its value)."""
    if isinstance(param, bool):
        return None
    if isinstance(param, int):
        return int, int(param)
    if isinstance(param, str):
        return str, str(param)
    if isinstance(param, date):
        return date, param
    return None


def _adapted(value: Any, connection: BaseDatabaseWrapper) -> Any:
    """A value as Django passes it to the database for a column of its kind."""
    if type(value) is date:
        return connection.ops.adapt_datefield_value(value)
    return value
