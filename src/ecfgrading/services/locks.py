"""One writer of identities at a time, and a clear message when waiting takes too long.

Identification reads what is on record and then writes new players; two imports doing
that at once would each create the same newcomer. Whatever changes who is on record (an
import, a queue decision, a merge, a list import) therefore holds the registry lock for
its transaction: an advisory lock on PostgreSQL; on SQLite the write lock that every
transaction takes at BEGIN IMMEDIATE (settings) is already that lock. Importers also
take turns (importers_turn), which orders them for speed and changes nothing else.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, closing, contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from django.conf import settings
from django.db import OperationalError, connection

# The registry's lock itself lies beneath the services (its admin takes it too).
from ecfgrading.registry.locking import REGISTRY_LOCK_KEY as REGISTRY_LOCK_KEY
from ecfgrading.registry.locking import take_registry_lock as take_registry_lock
from ecfgrading.services.errors import Conflict

log = logging.getLogger(__name__)

# pg_advisory_lock key of the importers' turn (importers_turn): "ECFT".
TURN_KEY = 0x45434654
# pg_advisory_lock_shared key held by importers waiting for the turn (Turn.wanted): "ECFW".
WAITING_KEY = 0x45434657
TURN_POLL = 0.0005  # seconds between two tries for the turn
MEANWHILE_EVERY = 0.005  # seconds between two calls of a waiter's useful work
SQLITE_AUTOCHECKPOINT = 1000  # pages: SQLite's default, restored after a turn
# An importer's turns between two checkpoints of the WAL (SQLite): 512 files. The WAL
# grows to some hundreds of MB at national size (on disk; SQLite removes it when the
# last connection closes), and each checkpoint copies fewer pages written again.
CHECKPOINT_TURNS = 16
CHECKPOINT_WAIT = 5.0  # seconds a checkpoint's connection waits for a busy database
_BUSY_SQLSTATES = {"55P03", "40P01"}  # lock_not_available, deadlock_detected


class Busy(Conflict):
    """Another writer held the database for longer than ECFGRADING_LOCK_TIMEOUT."""


@contextmanager
def busy_as_error(what: str) -> Iterator[None]:
    """A lock wait that ran out becomes a Busy error naming what could not be done."""
    try:
        yield
    except OperationalError as error:
        if not is_busy(error):
            raise
        raise busy_error(what) from None


def busy_error(what: str) -> Busy:
    return Busy(
        f"{what}: the database stayed busy for {settings.LOCK_TIMEOUT} s (another "
        "import or grading run was writing); nothing was changed, try again "
        "(ECFGRADING_LOCK_TIMEOUT sets the wait)"
    )


def is_busy(error: BaseException) -> bool:
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) in _BUSY_SQLSTATES:
        return True
    return "database is locked" in str(error) or "lock timeout" in str(error)


def _nobody() -> bool:
    return False


@dataclass
class Turn:
    """An importer's turn as its holder sees it. ``wanted()``: whether another importer
    waits for it now (the waiters hold a shared lock, the holder tries it exclusively),
    so that a batch writes turn after turn in one transaction while nobody does
    (services.results.ingest). ``turns``: how many of its batch's turns it wrote, the
    count the WAL's checkpoints go by."""

    wanted: Callable[[], bool] = _nobody
    turns: int = 1


@contextmanager
def importers_turn(what: str, meanwhile: Callable[[], None] | None = None) -> Iterator[Turn]:
    """This importer's turn to write: several files back to back, then another's turn.

    The registry lock alone keeps imports correct; the turn only orders them, for speed.
    Waiting in the database's own way is slow: SQLite's busy handler sleeps in growing
    steps (1, 2, 5 ... 100 ms) while the lock may stand free, and a writer that wins it
    back file after file leaves each waiter one stale file to catch up on. So importers
    queue for a turn instead: a lock file beside the SQLite database, or a session
    advisory lock on PostgreSQL, tried every half millisecond, so that the next importer
    starts within a millisecond of the last one's end; and while it waits it runs
    ``meanwhile`` every few milliseconds (an importer brings its view up to date and
    identifies its waiting files again, work its turn is then spared).

    On SQLite a turn's commits are not checkpointed one by one: the WAL is copied into
    the database after the turn, by a thread of this process while it goes on, and while
    another importer may be writing. ``what`` names
    what was not done when the wait ran out (Busy, after ECFGRADING_LOCK_TIMEOUT).
    An importer waiting for the turn says so (Turn.wanted), beside the lock file in
    ``-waiting`` or by a shared advisory lock."""
    if connection.vendor == "postgresql":
        with _advisory_turn(what, meanwhile) as turn:
            yield turn
        return
    name = str(connection.settings_dict["NAME"])
    if name == ":memory:" or "mode=memory" in name or connection.in_atomic_block:
        yield Turn()  # nobody else can write here, or the caller's transaction holds the lock
        return
    with _checkpointed_after(name) as turn, _file_turn(f"{name}-turn", what, meanwhile, turn):
        yield turn


@contextmanager
def _file_turn(
    path: str, what: str, meanwhile: Callable[[], None] | None, turn: Turn | None = None
) -> Iterator[Turn]:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    waiting = os.open(f"{path.removesuffix('-turn')}-waiting", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _wait(lambda: _flocked(descriptor), what, meanwhile, partial(_flock_shared, waiting))
        turn = turn or Turn()
        turn.wanted = lambda: not _flocked(waiting, release=True)
        try:
            yield turn
        finally:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
    finally:
        os.close(waiting)
        os.close(descriptor)


def _flocked(descriptor: int, *, release: bool = False) -> bool:
    """The file locked exclusively, if no one holds it (``release``: let go at once)."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    if release:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
    return True


@contextmanager
def _flock_shared(descriptor: int) -> Iterator[None]:
    """Shared with the other waiters, while this one waits."""
    fcntl.flock(descriptor, fcntl.LOCK_SH)
    try:
        yield
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_UN)


@contextmanager
def _checkpointed_after(database: str) -> Iterator[Turn]:
    """The turn's commits leave the WAL to be checkpointed after the turn (entered before
    the turn is taken, so that it leaves after the turn is given back), once every
    CHECKPOINT_TURNS turns of this process, by a thread of its own (checkpoint_aside): a
    checkpoint writes each page the turns changed, and a season's turns change the same
    index pages again and again, so that one checkpoint a turn wrote them 97 times, with
    a sync each (issue 25)."""
    turn = Turn()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint = 0")
    try:
        yield turn
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA wal_autocheckpoint = {SQLITE_AUTOCHECKPOINT}")
    turns = _TURNS_UNCHECKPOINTED.get(database, 0) + turn.turns
    if turns >= CHECKPOINT_TURNS and checkpoint_aside(database):
        turns = 0
    _TURNS_UNCHECKPOINTED[database] = turns


# Turns since this process last checkpointed a database's WAL (by its file name). What
# it leaves meanwhile is checkpointed by the next, or by SQLite when its last connection
# closes; the WAL holds a few turns' pages, some megabytes.
_TURNS_UNCHECKPOINTED: dict[str, int] = {}


def checkpoint_aside(database: str) -> bool:
    """The WAL of the SQLite file ``database`` copied into it by a thread of this process
    on a connection of its own, while the importer goes on: SQLite copies and syncs
    without holding Python's lock, so on a second core (issue 25: the checkpoints were
    a tenth of a national demo's imports, done in line). A passive checkpoint, which
    waits for no writer and no reader; one at a time for a database: False, starting
    nothing, while the last one still runs (the next turn asks again). The thread is
    waited for when the process ends."""
    running = _CHECKPOINTING.get(database)
    if running is not None and running.is_alive():
        return False
    thread = threading.Thread(
        target=_checkpoint, args=(database,), name=f"checkpoint {database}", daemon=False
    )
    _CHECKPOINTING[database] = thread
    thread.start()
    return True


def _checkpoint(database: str) -> None:
    """The checkpoint itself, on the database file as it is (``mode=rw``: a file gone
    meanwhile is not made again, empty), waiting a few seconds at most for the schema:
    the process waits for this thread when it ends."""
    where = f"{Path(database).resolve().as_uri()}?mode=rw"
    try:
        with closing(sqlite3.connect(where, uri=True, timeout=CHECKPOINT_WAIT)) as db:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error as error:  # the next one, or the last connection's close, copies
        log.warning("checkpoint of %s not done: %s", database, error)


# The checkpoint thread last started for each database (checkpoint_aside).
_CHECKPOINTING: dict[str, threading.Thread] = {}


@contextmanager
def _advisory_turn(what: str, meanwhile: Callable[[], None] | None) -> Iterator[Turn]:
    def taken() -> bool:
        return _selected("SELECT pg_try_advisory_lock(%s)", TURN_KEY)

    _wait(taken, what, meanwhile, _advisory_waiting)
    try:
        yield Turn(wanted=_advisory_wanted)
    finally:
        _selected("SELECT pg_advisory_unlock(%s)", TURN_KEY)


def _selected(sql: str, *keys: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(sql, keys)
        return bool(cursor.fetchone()[0])


@contextmanager
def _advisory_waiting() -> Iterator[None]:
    """Shared with the other waiters, while this one waits (taken at once, but for the
    one statement a holder's look holds it whole)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock_shared(%s)", [WAITING_KEY])
    try:
        yield
    finally:
        _selected("SELECT pg_advisory_unlock_shared(%s)", WAITING_KEY)


def _advisory_wanted() -> bool:
    """Whether another importer waits: the waiters' shared lock cannot be taken whole."""
    return not _selected(
        "SELECT CASE WHEN pg_try_advisory_lock(%s) THEN pg_advisory_unlock(%s) ELSE false END",
        WAITING_KEY,
        WAITING_KEY,
    )


def _wait(
    taken: Callable[[], bool],
    what: str,
    meanwhile: Callable[[], None] | None,
    waiting: Callable[[], AbstractContextManager[None]] = nullcontext,
) -> None:
    """Until ``taken()`` (tried every TURN_POLL s), ``meanwhile`` every MEANWHILE_EVERY s;
    in ``waiting()`` from the first try refused until taken, so that the holder knows."""
    if taken():
        return
    deadline = time.monotonic() + settings.LOCK_TIMEOUT
    useful_at = 0.0
    with waiting():
        while not taken():
            now = time.monotonic()
            if now > deadline:
                raise busy_error(what)
            if meanwhile is not None and now >= useful_at:
                meanwhile()
                useful_at = time.monotonic() + MEANWHILE_EVERY
            else:
                time.sleep(TURN_POLL)
