"""Django's SQLite backend, with each statement's placeholders converted once.

Django writes statements with ``%s`` placeholders, which Python's ``sqlite3`` does not
take: its cursor turns them into ``?`` with a regular expression on every execution. A
season's import sends the same few statements thousands of times, the games' insert
among them at about a thousand placeholders each: the conversion was 4% of the import
(issue 25, py-spy). Here a statement's text is converted once and remembered; the rest
of the backend, its vendor ("sqlite") included, is Django's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django.db.backends.sqlite3 import base

# Distinct statement texts remembered: the registry's hot statements are a few dozen;
# bounded, so that statements made for one use (an IN list of each length) cannot grow it.
REMEMBERED = 256


@lru_cache(maxsize=REMEMBERED)
def qmark(query: str) -> str:
    """``query`` in ``sqlite3``'s placeholder style, as Django's cursor converts it:
    ``%s`` -> ``?``, then ``%%`` -> ``%``."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query: str, *, param_names: Sequence[str] | None = None) -> str:
        if param_names is None:  # Django's "format" style, every statement of ours
            return qmark(query)
        return str(super().convert_query(query, param_names=param_names))


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name: str | None = None) -> SQLiteCursorWrapper:
        return self.connection.cursor(factory=SQLiteCursorWrapper)  # type: ignore[no-any-return]
