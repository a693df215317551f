"""A version's stored game points packed as columns in one value (PackedGamePoints, G17):
written with the rows by the run that computes the version, read by later lists' loads."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from ecfgrading.registry.models import PackedGamePoints

# A stored game's row as a list's load reads it (lookups.list_inputs): the game's id (0
# for none), the player's, the date as days since 1970-01-01, the recording order (G15)
# and the points (G12). Packed one column after another, each in its own type.
_COLUMNS: tuple[tuple[str, np.dtype[Any]], ...] = (
    ("played", np.dtype("<i8")),
    ("player_id", np.dtype("<i8")),
    ("day", np.dtype("<i8")),
    ("sequence", np.dtype("<i8")),
    ("points", np.dtype("<f8")),
)
STORED_ROW = np.dtype(list(_COLUMNS))
_ROW_BYTES = sum(kind.itemsize for _name, kind in _COLUMNS)

# zlib's fastest level: a national version's 10 MB of columns in 0.09 s to 2.7 MB, read
# back in 0.04 s; its best level saves a tenth more for five times the time (measured).
_LEVEL = 1


def pack_points(columns: Mapping[str, np.ndarray]) -> tuple[int, bytes]:  # type: ignore[type-arg]
    """The rows of ``columns`` (STORED_ROW's fields, ``day`` as days or dates) packed:
    how many, and the value."""
    rows = len(columns["player_id"])
    packer = zlib.compressobj(_LEVEL)
    parts = []  # compressed a column at a time: no copy of them all at once
    for name, kind in _COLUMNS:
        values = np.asarray(columns[name])
        if len(values) != rows:
            raise ValueError(f"expected {rows} values of every column, got {len(values)} {name}")
        if values.dtype.kind == "M":
            values = values.astype("datetime64[D]").astype(np.int64)
        parts.append(packer.compress(np.ascontiguousarray(values, dtype=kind).data))
    parts.append(packer.flush())
    return rows, b"".join(parts)


def unpack_points(rows: int, data: bytes | memoryview) -> np.ndarray:  # type: ignore[type-arg]
    """Packed rows as a structured array of STORED_ROW, in the order they were packed
    (by player, date and recording order, for a version's: ``keep_packed``)."""
    raw = zlib.decompress(data)
    if len(raw) != rows * _ROW_BYTES:
        raise ValueError(f"expected {rows} packed rows ({rows * _ROW_BYTES} bytes), got {len(raw)}")
    out = np.empty(rows, dtype=STORED_ROW)
    offset = 0
    for name, kind in _COLUMNS:
        out[name] = np.frombuffer(raw, dtype=kind, count=rows, offset=offset)
        offset += rows * kind.itemsize
    return out


def keep_packed(version_id: int, columns: Mapping[str, np.ndarray]) -> None:  # type: ignore[type-arg]
    """The version's stored game points of its P0 (period 0 of ``columns``, the rows just
    written to StoredGamePoints) packed in its one row, replacing any it had (a published
    version's is refused, as its rows are: VersionRow). Packed by player, date and
    recording order (G15), the order a load reads them in: sorted once here, not at
    every later list's load."""
    own = np.flatnonzero(np.asarray(columns["period"]) == 0)
    player, day, sequence = (
        np.asarray(columns[name])[own] for name in ("player_id", "date", "sequence")
    )
    own = own[np.lexsort((sequence, day, player))]
    rows, data = pack_points(
        {
            "played": np.asarray(columns["game_id"])[own],
            "player_id": np.asarray(columns["player_id"])[own],
            "day": np.asarray(columns["date"])[own],
            "sequence": np.asarray(columns["sequence"])[own],
            "points": np.asarray(columns["points"])[own],
        }
    )
    PackedGamePoints.objects.filter(version_id=version_id).delete()
    PackedGamePoints.objects.create(version_id=version_id, rows=rows, data=data)


def packed_points(version_ids: list[int]) -> dict[int, np.ndarray]:  # type: ignore[type-arg]
    """Version id -> its packed stored game points, for those of ``version_ids`` that
    have them."""
    found = PackedGamePoints.objects.filter(version_id__in=version_ids)
    return {
        version_id: unpack_points(rows, data)
        for version_id, rows, data in found.values_list("version_id", "rows", "data")
    }
