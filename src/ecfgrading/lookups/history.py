"""A player's grades in every published list since records begin (the seeds' history).

Per list and rate, the grade is the one in the list's current version (G26): its latest
published version. Beside it, the grades of the list's earlier versions where they
differ (the initial grade a July list's August version revised, G27), and what the
registry records of why (``revision_reasons``): an amendment carried by the later version,
or games graded by it that the earlier one did not have (results received, or players
identified, after it was published). The rows come from one query of the player's
entries, read against the published versions (``lists.published_versions``, one small
query); the reasons from one query of his amendments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ecfgrading.engine.types import Rate
from ecfgrading.lookups.lists import VersionInfo, list_label
from ecfgrading.lookups.shaped import Statement
from ecfgrading.lookups.versions import version_words
from ecfgrading.registry.models import Amendment, ListEntry

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
class VersionGrade:
    """His grade in one published version of a list (G26)."""

    version: str  # initial, august, revN
    grade: int | None  # None: not published in it (G23), or no entry
    category: str
    games_latest: int  # G24: games of the list's latest period the version graded


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
    # The list's versions, oldest first, where his grade or category changed (G26, G27):
    # one (the current) when no later version changed it.
    steps: tuple[VersionGrade, ...] = ()
    reasons: tuple[str, ...] = ()  # why a later version changed it, as recorded

    @property
    def label(self) -> str:
        return list_label(self.list_id)

    @property
    def revised(self) -> bool:
        """A later version of the list gives another grade than its first (G27)."""
        return len(self.steps) > 1

    @property
    def earlier(self) -> tuple[VersionGrade, ...]:
        """The grades later versions replaced, oldest first."""
        return self.steps[:-1]


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
    found = [EntryRow(*row) for row in _ENTRIES.rows(records, ids)]
    rank = {pid: k for k, pid in enumerate(records)}
    return sorted(found, key=lambda row: (row.version_id, rank[row.player_id]))


# Sorted by ``entry_rows``, so unordered here: the model's order joins players to sort by
# name.
_ENTRIES = Statement(
    lambda records, ids: (
        ListEntry.objects.filter(player_id__in=records, version_id__in=ids)
        .order_by()
        .values_list(*ENTRY_FIELDS)
    )
)


def by_version(rows: Iterable[EntryRow]) -> dict[int, EntryRow]:
    """One entry per version: the first of ``rows`` (the survivor's own, see above)."""
    chosen: dict[int, EntryRow] = {}
    for row in rows:
        chosen.setdefault(row.version_id, row)
    return chosen


def list_versions(
    versions: Iterable[VersionInfo],
) -> dict[tuple[str, Rate], tuple[VersionInfo, ...]]:
    """Each list's published versions, oldest first (``versions`` in version order); the
    last is its current version (G26)."""
    by_list: dict[tuple[str, Rate], list[VersionInfo]] = {}
    for version in versions:
        by_list.setdefault((version.list_id, version.rate), []).append(version)
    return {key: tuple(found) for key, found in by_list.items()}


def current_versions(versions: Iterable[VersionInfo]) -> dict[tuple[str, Rate], VersionInfo]:
    """Each list's current version: the latest published (``versions`` in version order)."""
    return {key: found[-1] for key, found in list_versions(versions).items()}


def grade_history(
    entries: Mapping[int, EntryRow], versions: Iterable[VersionInfo]
) -> tuple[HistoryRow, ...]:
    """Every list in which the player has an entry, latest first, both rates side by side."""
    points: dict[str, dict[Rate, HistoryPoint]] = {}
    for (list_id, rate), listed in list_versions(versions).items():
        row = entries.get(listed[-1].id)
        if row is not None:
            points.setdefault(list_id, {})[rate] = _point(listed, row, entries)
    return tuple(
        HistoryRow(list_id, list_label(list_id), found.get(Rate.STANDARD), found.get(Rate.RAPID))
        for list_id, found in sorted(points.items(), reverse=True)
    )


def _point(
    listed: Sequence[VersionInfo], row: EntryRow, entries: Mapping[int, EntryRow]
) -> HistoryPoint:
    version = listed[-1]
    return HistoryPoint(
        list_id=version.list_id,
        rate=version.rate,
        version=version.name,
        rule_set=version.rules_name,
        grade=row.grade if row.published else None,
        category=row.category if row.published else "",
        games_latest=row.games_latest,
        games_counted=row.games_counted,
        steps=_steps(listed, entries),
    )


def _steps(
    listed: Sequence[VersionInfo], entries: Mapping[int, EntryRow]
) -> tuple[VersionGrade, ...]:
    """His grade in each version of a list, keeping a version only where it changed."""
    steps: list[VersionGrade] = []
    for version in listed:
        step = _version_grade(version.name, entries.get(version.id))
        if not steps or (step.grade, step.category) != (steps[-1].grade, steps[-1].category):
            steps.append(step)
        else:
            steps[-1] = replace(step, version=steps[-1].version)  # the first to give it
    return tuple(steps)


def _version_grade(name: str, row: EntryRow | None) -> VersionGrade:
    if row is None or not row.published:
        return VersionGrade(name, None, "", row.games_latest if row else 0)
    return VersionGrade(name, row.grade, row.category, row.games_latest)


# -- why a later version changed a grade ---------------------------------------------------


def revision_reasons(
    history: Sequence[HistoryRow], records: Sequence[int], versions: Iterable[VersionInfo]
) -> tuple[HistoryRow, ...]:
    """``history`` with the reasons the registry records for each revised grade: the
    amendments about him carried by a later version of the list (one query), and the
    change in the games of the list's latest period each version graded (G24)."""
    revised = [p for row in history for p in (row.standard, row.rapid) if p and p.revised]
    if not revised:
        return tuple(history)
    later = {
        v.id: (v.list_id, v.rate, v.name)
        for (list_id, rate), listed in list_versions(versions).items()
        for v in listed[1:]
        if any(p.list_id == list_id and p.rate is rate for p in revised)
    }
    found = Amendment.objects.filter(player_id__in=list(records), version_id__in=list(later))
    notes: dict[tuple[str, Rate, str], list[str]] = {}
    for version_id, what, why in found.order_by("made_at", "id").values_list(
        "version_id", "what", "why"
    ):
        list_id, rate, name = later[version_id]
        notes.setdefault((list_id, rate, name), []).append(_amended(what, why))
    return tuple(_with_reasons(row, notes) for row in history)


def _amended(what: str, why: str) -> str:
    return f"a correction: {what.rstrip('.')}" + (f" ({why.rstrip('.')})" if why else "")


def _with_reasons(row: HistoryRow, notes: Mapping[tuple[str, Rate, str], list[str]]) -> HistoryRow:
    return replace(
        row,
        standard=_explained(row.standard, notes),
        rapid=_explained(row.rapid, notes),
    )


def _explained(
    point: HistoryPoint | None, notes: Mapping[tuple[str, Rate, str], list[str]]
) -> HistoryPoint | None:
    if point is None or not point.revised:
        return point
    reasons = [
        reason
        for before, after in zip(point.steps, point.steps[1:], strict=False)
        for reason in _step_reasons(
            before, after, notes.get((point.list_id, point.rate, after.version), [])
        )
    ]
    return replace(point, reasons=tuple(reasons))


def _step_reasons(before: VersionGrade, after: VersionGrade, amended: Sequence[str]) -> list[str]:
    """What the registry records of one change: amendments, then games gained or lost."""
    more = after.games_latest - before.games_latest
    name = version_words(after.version)
    reasons = [f"{name}: {note}" for note in amended]
    if more > 0:
        reasons.append(
            f"{name}: {more} more game{'s' if more != 1 else ''} graded, from results "
            f"received or players identified after the {version_words(before.version)} "
            "was published"
        )
    elif more < 0:
        reasons.append(f"{name}: {-more} game{'s' if more != -1 else ''} fewer graded")
    if not reasons:
        reasons.append(
            f"{name}: the same games, and no amendment about the player; the recalculation "
            "with other players' later results changed starting grades estimated from the "
            "season's games (G7-G9), which this grade is calculated from (G13)"
        )
    return reasons


def latest_grade(history: Sequence[HistoryRow], rate: Rate) -> HistoryPoint | None:
    """The player's most recent grade of a rate in any list (for one ungraded now)."""
    for row in history:
        point = row.standard if rate is Rate.STANDARD else row.rapid
        if point is not None and point.grade is not None:
            return point
    return None
