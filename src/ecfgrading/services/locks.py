"""One writer of identities at a time, and a clear message when waiting takes too long.

Identification reads what is on record and then writes new players; two imports doing
that at once would each create the same newcomer. Whatever changes who is on record (an
import, a queue decision, a merge, a list import) therefore holds the registry lock for
its transaction: an advisory lock on PostgreSQL; on SQLite the write lock that every
transaction takes at BEGIN IMMEDIATE (settings) is already that lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import OperationalError, connection

from ecfgrading.services.errors import Conflict

# pg_advisory_xact_lock key: "ECFG" in ASCII, the registry's one lock.
REGISTRY_LOCK_KEY = 0x45434647
_BUSY_SQLSTATES = {"55P03", "40P01"}  # lock_not_available, deadlock_detected


class Busy(Conflict):
    """Another writer held the database for longer than ECFGRADING_LOCK_TIMEOUT."""


def take_registry_lock() -> None:
    """Hold the registry lock until the surrounding transaction ends."""
    if not connection.in_atomic_block:
        raise RuntimeError("the registry lock is held by a transaction: call it in atomic()")
    if connection.vendor != "postgresql":
        return  # SQLite: BEGIN IMMEDIATE took the database's single write lock
    with connection.cursor() as cursor:
        # The wait is bounded by lock_timeout, which settings give every connection.
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [REGISTRY_LOCK_KEY])


@contextmanager
def busy_as_error(what: str) -> Iterator[None]:
    """A lock wait that ran out becomes a Busy error naming what could not be done."""
    try:
        yield
    except OperationalError as error:
        if not is_busy(error):
            raise
        raise Busy(
            f"{what}: the database stayed busy for {settings.LOCK_TIMEOUT} s (another "
            "import or grading run was writing); nothing was changed, try again "
            "(ECFGRADING_LOCK_TIMEOUT sets the wait)"
        ) from None


def is_busy(error: BaseException) -> bool:
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) in _BUSY_SQLSTATES:
        return True
    return "database is locked" in str(error) or "lock timeout" in str(error)
