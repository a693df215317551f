"""A player's records: his own and those merged into him (G28), and which survivor each
merged record counts for."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ecfgrading.engine.inputs import IntArray
from ecfgrading.registry.merges import surviving_ids
from ecfgrading.registry.models import Player


class Survivors:
    """Merged records (``merged_into``) and the surviving player each one counts for."""

    def __init__(self) -> None:
        self.final: dict[int, int] = surviving_ids(Player.merges())
        merged = sorted(self.final)
        self._merged = np.array(merged, dtype=np.int64)  # sorted: found by binary search
        self._ends = np.array([self.final[pid] for pid in merged], dtype=np.int64)

    def map(self, player_ids: IntArray) -> IntArray:
        """Each id's survivor, for a whole column at once (a national run's 400,000 games'
        sides: a few milliseconds, where a Python loop over them took half a second)."""
        if not self.final:
            return player_ids
        ids = np.asarray(player_ids, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._merged, ids), len(self._merged) - 1)
        return np.where(self._merged[at] == ids, self._ends[at], ids)

    def pick(self, values: dict[int, Any]) -> dict[int, Any]:
        """One value per survivor: his own record's first, else an absorbed record's.

        Own records (nearly all of a national list's 40,000) are taken in one sort of
        plain ids, the few merged ones after them: a sort keyed by a Python function per
        id took 30 ms a call, four calls a grading run.
        """
        own = sorted(pid for pid in values if pid not in self.final)
        chosen = {pid: values[pid] for pid in own}
        for pid in sorted(pid for pid in values if pid in self.final):
            chosen.setdefault(self.final[pid], values[pid])
        return chosen

    def survivor(self, player_id: int) -> int:
        """The player a record counts for: itself unless it was merged."""
        return self.final.get(player_id, player_id)

    def records(self, player_id: int) -> tuple[int, ...]:
        """His own record first, then those merged into him (through chains), by id."""
        absorbed = sorted(pid for pid, end in self.final.items() if end == player_id)
        return (player_id, *absorbed)

    def holders(self, player_ids: Iterable[int]) -> dict[int, int]:
        """Every record of these players (their own, and those merged into them) -> the
        player it counts for."""
        wanted = set(player_ids)
        absorbed = {pid: end for pid, end in self.final.items() if end in wanted}
        return {pid: pid for pid in wanted} | absorbed
