"""The registry as an importer sees it: the index of players for identification and the
cache of clubs and memberships, kept in step with the database.

Loading them costs seconds at national size, so a process keeps one view and brings it up
to date before each file: inside the write transaction, holding the registry lock, it
reads what others changed since its mark (services.changes) and reloads only those
players. Identification then sees exactly what is on record, whatever other processes
imported meanwhile and however the files were batched: importing files one after the
other gives the same people in any interleaving, up to the order codes are issued in.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace

from django.db import connection

from ecfgrading.matching.identify import PlayerRecord, RecordIndex
from ecfgrading.services.changes import Mark, changes_since, current_mark
from ecfgrading.services.results.records import load_record_index, reload_records
from ecfgrading.services.results.registry_cache import RegistryCache
from ecfgrading.services.results.write import Touched


class RegistryView:
    """An index and a cache of the registry, valid as of ``mark``."""

    def __init__(self) -> None:
        self._index: RecordIndex | None = None
        self._cache: RegistryCache | None = None
        self._mark = Mark()
        self.lock = threading.RLock()  # one import at a time per view (threaded servers)

    @property
    def index(self) -> RecordIndex:
        if self._index is None:
            self._load()
        assert self._index is not None
        return self._index

    @property
    def cache(self) -> RegistryCache:
        if self._cache is None:
            self._load()
        assert self._cache is not None
        return self._cache

    def catch_up(self) -> None:
        """Bring in what others changed since the mark (a full load if it cannot be)."""
        if self._index is None:
            return  # loaded, current, on first use
        changes = changes_since(self._mark)
        if changes.mark == self._mark:
            return  # nothing new: the common case for a process importing alone
        if not changes.mark.follows(self._mark):
            self.drop()  # another database, a restore, or rows a rollback took back
            return
        players = changes.players
        if changes.clubs_changed:  # rare: staff edited a club or a membership (the admin)
            self.cache.reload_clubs()
            players = players | self.cache.forget_members_of(changes.clubs_changed)
        reloaded = reload_records(self.index, players)
        self.cache.catch_up(changes, reloaded)
        # A player who only joined a club meanwhile (the common change, a new season's
        # first games) is not read again: the new membership, read whole, says it all.
        joined = {
            (player, club)
            for _, player, club, _, _ in changes.memberships
            if player not in changes.players
        }
        self._index_clubs(joined, {})
        self._mark = changes.mark

    def took(self, touched: Touched) -> None:
        """What this importer itself just wrote, under the registry lock: applied in
        memory, and the mark moved past it (no one else can have written meanwhile, so
        the ids the write gave are the highest; read only when the database kept them)."""
        index = self.index
        records = {record.id: record for record in touched.created}
        for player_id, born in touched.births.items():
            known = records.get(player_id) or index.record(player_id)
            if known is not None and known.date_of_birth is None:
                records[player_id] = replace(known, date_of_birth=born)
        self._index_clubs(touched.clubs, records)
        written = touched.written
        self._mark = self._mark.past(written) if written is not None else current_mark()

    def wrote(self, written: Mark) -> None:
        """The mark moved past rows this importer wrote under the registry lock apart
        from a file's ``took``: a turn's notes of players changed, each time the rows
        waiting in the turn are written (services.results.write.games_together)."""
        self._mark = self._mark.past(written)

    def _index_clubs(
        self, pairs: Iterable[tuple[int, int]], records: dict[int, PlayerRecord]
    ) -> None:
        """Players (by id) with clubs (by id) among their clubs, each record indexed once;
        ``records`` holds records already changed in memory, not yet indexed."""
        index, names = self.index, self.cache.club_names
        for player_id, club in pairs:
            code, name = names.get(club, ("", ""))
            known = records.get(player_id) or index.record(player_id)
            if known is not None:
                joined = _joined(known, code, name)
                if joined is not known:  # most pairs: a club the player has, nothing to do
                    records[player_id] = joined
        for player_id, record in records.items():
            # By value: the index holds its own copy of a record it was given (with its
            # club sets shared, matching.identify), the same player as he stands.
            if record != index.record(player_id):
                index.replace(record)

    @property
    def mark(self) -> Mark:
        """What the view has seen of each table (tests compare it with ``current_mark``)."""
        return self._mark

    def drop(self) -> None:
        """Forget everything (a failed write may have left rows a rollback removed)."""
        self._index, self._cache, self._mark = None, None, Mark()

    def _load(self) -> None:
        mark = current_mark()  # first: rows added while loading are replayed, not missed
        self._index, self._cache, self._mark = load_record_index(), RegistryCache.load(), mark


def _joined(record: PlayerRecord, code: str, name: str) -> PlayerRecord:
    """The record with the club among its clubs, as stored (a location without its '*');
    the very same record when it has it already."""
    name = name.removesuffix("*").strip()
    if name in record.club_names and (not code or code in record.club_codes):
        return record
    return _with_club(record, code, name)


def _with_club(record: PlayerRecord, code: str, name: str) -> PlayerRecord:
    codes = (record.club_codes | {code}) if code else record.club_codes
    return record.with_clubs(codes, record.club_names | {name})


_VIEWS: dict[str, RegistryView] = {}
_VIEWS_LOCK = threading.Lock()


@contextmanager
def shared_view() -> Iterator[RegistryView]:
    """This process's view of the default database, held for one import at a time."""
    with _VIEWS_LOCK:
        view = _VIEWS.setdefault(connection.alias, RegistryView())
    with view.lock:
        yield view
