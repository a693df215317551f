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
from datetime import date
from functools import lru_cache

from django.db.backends.sqlite3 import base

# Distinct statement texts remembered: the registry's hot statements are a few dozen;
# bounded, so that statements made for one use (an IN list of each length) cannot grow it.
REMEMBERED = 256


def _null(value: None) -> None:
    return value


# ``sqlite3`` binds an int, a float, a str or a bytearray as it is; any other value (None,
# a bool) it first tries to adapt: no adapter found, it asks the value's type and the
# protocol's for ``__adapt__`` and ``__conform__``, and the failed look-up on a type
# formats an AttributeError's message, only to drop it. A season's games bind about a
# million Nones and flags: 0.4 us each that way, 0.2 through an adapter found at once
# (issue 25, measured). The values bound are the same (NULL; 1 and 0).
base.Database.register_adapter(type(None), _null)
base.Database.register_adapter(bool, int)
# A date as Django's adapter stores it (its ISO text), by the method itself rather than a
# function calling it: a season's 200,000 games each bind a day (issue 25).
base.Database.register_adapter(date, date.isoformat)


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
