"""The one walk along chains of merges (``merged_into``), for players and clubs alike.

Pure: it reads mappings, never the database, so models and services share it (G28: a
merged record's code keeps resolving to the record it now counts for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeVar


def surviving_id(merged_into: Mapping[int, int], pk: int) -> int:
    """The record ``pk`` counts for: the end of its chain in ``merged_into`` (id -> id).

    A cycle, which only a hand edit can make, stops the walk at the first record met
    twice: each record on it then counts for itself, not for another one.
    """
    seen: set[int] = set()
    while pk in merged_into and pk not in seen:
        seen.add(pk)
        pk = merged_into[pk]
    return pk


def surviving_ids(merged_into: Mapping[int, int]) -> dict[int, int]:
    """Every merged record's id -> the id of the record it counts for."""
    return {pk: surviving_id(merged_into, pk) for pk in merged_into}


class Mergeable(Protocol):
    @property
    def merged_into_id(self) -> int | None: ...


Record = TypeVar("Record", bound=Mergeable)


def surviving_records(records: Mapping[int, Record]) -> dict[int, Record]:
    """Each record (by id) -> the record it counts for; ``records`` must hold whole chains."""
    merged_into = {
        pk: record.merged_into_id
        for pk, record in records.items()
        if record.merged_into_id is not None
    }
    return {pk: records[surviving_id(merged_into, pk)] for pk in records}
