"""One token that changes whenever anything a public page shows may have changed.

Published versions never change (G26), so a page is a function of its URL, of what
has been published, received and identified since, and of the site's today
(``lookups.clock``). The token is read in one query of indexed maxima; cached pages and
ETags are keyed by it, so nothing goes stale: a new publication, an accepted file, a
merge, a correction or a new day changes the token.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connection
from django.db.models import Model

from ecfgrading.lookups.clock import today
from ecfgrading.registry.models import (
    Amendment,
    Club,
    ClubChange,
    ClubMembership,
    County,
    Event,
    Game,
    IdentityChange,
    ListVersion,
    PendingIdentification,
    Player,
    PlayerAlias,
    Sequence,
    Submission,
)

# (table, expression, condition): maxima of ids and of modification times; a change of
# status updates no id, so times and counts by status are in too.
_PARTS: tuple[tuple[type[Model], str, str], ...] = (
    (ListVersion, "MAX(id)", ""),
    (ListVersion, "MAX(published_at)", ""),
    (ListVersion, "COUNT(*)", "status = 'published'"),
    (Submission, "MAX(id)", ""),
    # A file accepted (at once or on a retry) writes its event (updated_at below) and its
    # games; a rejected one shows nowhere. No count of accepted files, then: on
    # PostgreSQL it scanned the files' rows, wide with their bytes, on every request.
    (Game, "MAX(id)", ""),
    (PendingIdentification, "MAX(resolved_at)", ""),
    (Event, "MAX(updated_at)", ""),
    (Player, "MAX(updated_at)", ""),
    (Player, "MAX(id)", ""),
    (PlayerAlias, "MAX(id)", ""),
    (IdentityChange, "MAX(id)", ""),
    (Club, "MAX(id)", ""),
    (ClubChange, "MAX(id)", ""),  # a club, or a membership, edited in the admin
    (County, "MAX(updated_at)", ""),  # a county's code or name edited in the admin
    (ClubMembership, "MAX(id)", ""),
    (Amendment, "MAX(id)", ""),  # the public amendments page (a version carries them
    (Amendment, "COUNT(*)", ""),  # at publication, which moves the versions' parts)
    (Sequence, "SUM(last_value)", ""),  # the registry's epoch: a restore or a flush
)


_REMEMBERED: ContextVar[str | None] = ContextVar("data_token", default=None)


@contextmanager
def one_token() -> Iterator[str]:
    """Within the block (one request), every ``data_token()`` is the first one read: a
    page and the services it calls agree on the state, and pay for the query once."""
    token = _read()
    mark = _REMEMBERED.set(token)
    try:
        yield token
    finally:
        _REMEMBERED.reset(mark)


def data_token() -> str:
    """A short hex digest of the state public pages are made from: one query."""
    remembered = _REMEMBERED.get()
    return remembered if remembered is not None else _read()


def _read() -> str:
    selects = ", ".join(
        f"(SELECT {expr} FROM {model._meta.db_table}{f' WHERE {where}' if where else ''})"
        for model, expr, where in _PARTS
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {selects}")
        row = cursor.fetchone()
    # The site's today too: what pages reason from it (lookups.clock) changes with the day.
    return hashlib.sha1(repr((row, today())).encode()).hexdigest()[:16]
