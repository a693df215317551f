"""A player's grades in every published list since records begin (the seeds' history).

Per list and rate, the grade is the one in the list's current version (G26): its latest
published version. The rows come from one query of the player's entries, read against
the published versions (``lists.published_versions``, one small query).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ecfgrading.engine.types import Rate
from ecfgrading.lookups.lists import VersionInfo, list_label
from ecfgrading.registry.models import ListEntry

# The columns of an entry the public pages read (never anything private).
ENTRY_FIELDS = (
    "id",
    "version_id",
    "player_id",
    "grade",
    "category",
    "published",
    "games_latest",
    "games_counted",
    "junior_age",
)


@dataclass(frozen=True)
class EntryRow:
    """One list entry of the player (or of a record merged into him)."""

    id: int
    version_id: int
    player_id: int
    grade: int | None
    category: str
    published: bool  # G23: has a category; otherwise ungraded in that list
    games_latest: int
    games_counted: int
    junior_age: int | None


@dataclass(frozen=True)
class HistoryPoint:
    """A grade in one list, as its current version gives it."""

    list_id: str
    rate: Rate
    version: str
    rule_set: str  # G31: the rule set the version was computed under
    grade: int | None  # None: ungraded in this list (he had games, not enough: G23)
    category: str
    games_latest: int
    games_counted: int

    @property
    def label(self) -> str:
        return list_label(self.list_id)


@dataclass(frozen=True)
class HistoryRow:
    """One list month with the player's grade of each rate (a rate may have no list)."""

    list_id: str
    label: str
    standard: HistoryPoint | None
    rapid: HistoryPoint | None


def entry_rows(records: Sequence[int], versions: Iterable[VersionInfo]) -> list[EntryRow]:
    """The records' entries in published versions, a survivor's own before a merged
    record's (``Survivors.pick``'s order): one query."""
    ids = [v.id for v in versions]
    rows = ListEntry.objects.filter(player_id__in=records, version_id__in=ids).values_list(
        *ENTRY_FIELDS
    )
    found = [EntryRow(*row) for row in rows]
    rank = {pid: k for k, pid in enumerate(records)}
    return sorted(found, key=lambda row: (row.version_id, rank[row.player_id]))


def by_version(rows: Iterable[EntryRow]) -> dict[int, EntryRow]:
    """One entry per version: the first of ``rows`` (the survivor's own, see above)."""
    chosen: dict[int, EntryRow] = {}
    for row in rows:
        chosen.setdefault(row.version_id, row)
    return chosen


def current_versions(versions: Iterable[VersionInfo]) -> dict[tuple[str, Rate], VersionInfo]:
    """Each list's current version: the latest published (``versions`` in version order)."""
    latest: dict[tuple[str, Rate], VersionInfo] = {}
    for version in versions:
        latest[(version.list_id, version.rate)] = version
    return latest


def grade_history(
    entries: dict[int, EntryRow], versions: Iterable[VersionInfo]
) -> tuple[HistoryRow, ...]:
    """Every list in which the player has an entry, latest first, both rates side by side."""
    points: dict[str, dict[Rate, HistoryPoint]] = {}
    for (list_id, rate), version in current_versions(versions).items():
        row = entries.get(version.id)
        if row is not None:
            points.setdefault(list_id, {})[rate] = _point(list_id, rate, version, row)
    return tuple(
        HistoryRow(list_id, list_label(list_id), found.get(Rate.STANDARD), found.get(Rate.RAPID))
        for list_id, found in sorted(points.items(), reverse=True)
    )


def _point(list_id: str, rate: Rate, version: VersionInfo, row: EntryRow) -> HistoryPoint:
    return HistoryPoint(
        list_id=list_id,
        rate=rate,
        version=version.name,
        rule_set=version.rules_name,
        grade=row.grade if row.published else None,
        category=row.category if row.published else "",
        games_latest=row.games_latest,
        games_counted=row.games_counted,
    )


def latest_grade(history: Sequence[HistoryRow], rate: Rate) -> HistoryPoint | None:
    """The player's most recent grade of a rate in any list (for one ungraded now)."""
    for row in history:
        point = row.standard if rate is Rate.STANDARD else row.rapid
        if point is not None and point.grade is not None:
            return point
    return None
