"""The shared cache in a table of the database, when there is no Redis: Django's
``DatabaseCache`` with its ``set`` and ``add`` in one statement each and its larger
values compressed.

Every page made cold ends in a ``set`` of the page (``web.caching``). Django's takes
four statements in a transaction: a count of the whole table (to cull at
``MAX_ENTRIES``), a read of the key, then an insert or an update, then the commit. On
PostgreSQL, a national player page's set took 2.2 ms of a page of some 50 (issue 25),
most of it the server compressing the page's 30 KB of base64 to store it out of line.
Here a set is one upsert of the value compressed first (zlib's fastest level, a tenth
of a millisecond for a player page, a fifth of its size), and the table is counted once
every ``COUNT_EVERY`` sets of a cache object rather than at each (Django makes one
for each thread): the table may hold that many entries a thread of each worker over
``MAX_ENTRIES`` before a count culls it, where Django's may hold one. An ``add`` is the
same upsert, replacing only an expired entry (the API's meter adds a network's first
total of a day: Django's count of the table was 1.9 ms of a v2 search on PostgreSQL).

What it stores reads back through Django's own ``get``: the compressed value is pickled
as a call that decompresses it when unpickled (``_Packed``), so entries written by
Django's ``touch``, or before this backend, read as they always did.
"""

from __future__ import annotations

import base64
import datetime as dt
import pickle
import zlib
from contextlib import nullcontext
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils import timezone

# Values pickled to fewer bytes than this are stored as they are: compressing them
# would spare the database nothing.
COMPRESS_FROM = 1024
# The table is counted (and culled past MAX_ENTRIES) at a cache object's first set and
# then once every this many. Stored values name ``_unpacked`` by its module's path: keep
# both names, or entries written before a rename fail to read.
COUNT_EVERY = 100


def _unpacked(data: bytes) -> Any:
    """What ``_Packed`` unpickles to: the value it compressed."""
    return pickle.loads(zlib.decompress(data))


class _Packed:
    """A pickled value compressed, which unpickles as the value itself."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return (_unpacked, (self.data,))


class TableCache(DatabaseCache):
    """Django's database cache, each ``set`` and ``add`` one statement (see the module)."""

    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets_uncounted = 0  # the first set counts the table

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._write(key, value, timeout, version, over_live=True)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        """Store ``value`` unless ``key`` holds one that has not expired (Django's
        ``add``), in one statement: Django's counts the table and reads the key first.
        True when stored. The API's meter adds each network's first total of a day."""
        return self._write(key, value, timeout, version, over_live=False)

    def _write(
        self, key: Any, value: Any, timeout: Any, version: int | None, *, over_live: bool
    ) -> bool:
        """Upsert ``key`` over any entry it has, or (``over_live`` False) only over one
        expired before this second, as Django's database cache judges expiry. True when
        stored."""
        key = self.make_and_validate_key(key, version=version)
        stored = base64.b64encode(packed(value, self.pickle_protocol)).decode("latin1")
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        expires = _expiry(self.get_backend_timeout(timeout))
        table = connection.ops.quote_name(self._table)
        params = [key, stored, connection.ops.adapt_datetimefield_value(expires)]
        upsert = (
            f"INSERT INTO {table} (cache_key, value, expires) VALUES (%s, %s, %s) "
            "ON CONFLICT (cache_key) DO UPDATE SET value = excluded.value, "
            "expires = excluded.expires"
        )
        if not over_live:
            upsert += f" WHERE {table}.expires < %s"
            now = timezone.now().replace(microsecond=0)
            params.append(connection.ops.adapt_datetimefield_value(now))
        try:
            # One statement is atomic by itself; inside a caller's transaction, a
            # savepoint keeps a failure here from spoiling it (as Django's set does).
            inside = connection.in_atomic_block or not connection.get_autocommit()
            with (
                transaction.atomic(using=db) if inside else nullcontext(),
                connection.cursor() as cursor,
            ):
                self._cull_now_and_then(db, cursor)
                cursor.execute(upsert, params)
                return bool(cursor.rowcount == 1)
        except DatabaseError:
            return False  # a cache that cannot store forgets, as Django's does

    def _cull_now_and_then(self, db: str, cursor: Any) -> None:
        if self._sets_uncounted > 0:
            self._sets_uncounted -= 1
            return
        self._sets_uncounted = COUNT_EVERY - 1
        cursor.execute(f"SELECT COUNT(*) FROM {connections[db].ops.quote_name(self._table)}")
        entries = cursor.fetchone()[0]
        if entries > self._max_entries:
            self._cull(db, cursor, timezone.now().replace(microsecond=0), entries)


def _expiry(timeout: float | None) -> dt.datetime:
    """When an entry set now with Django's backend ``timeout`` expires, as Django's
    database cache writes it (no expiry: the latest date there is)."""
    if timeout is None:
        return dt.datetime.max.replace(microsecond=0)  # naive, as Django's: no zone to move
    zone = dt.UTC if settings.USE_TZ else None
    return dt.datetime.fromtimestamp(timeout, tz=zone).replace(microsecond=0)


def packed(value: Any, protocol: int = pickle.HIGHEST_PROTOCOL) -> bytes:
    """``value`` pickled, compressed inside its pickle when that makes it smaller."""
    pickled = pickle.dumps(value, protocol)
    if len(pickled) < COMPRESS_FROM or _compressed_already(pickled):
        return pickled
    compressed = zlib.compress(pickled, 1)
    if len(compressed) >= len(pickled):
        return pickled
    return pickle.dumps(_Packed(compressed), protocol)


# A value larger than this is compressed only if its first so many bytes are spared a
# tenth by it: a list's spreadsheet (a zip archive, 2.4 MB at national size) compressed
# again took 52 ms of its 1 s made cold, for 5 KB (issue 25).
COMPRESS_PROBE = 64 * 1024


def _compressed_already(pickled: bytes) -> bool:
    if len(pickled) <= COMPRESS_PROBE:
        return False
    return len(zlib.compress(pickled[:COMPRESS_PROBE], 1)) > COMPRESS_PROBE * 0.9
