"""The published lists: every version, which are current, the catalogue (G26, G27).

A player's current grade in a rate is his entry in the latest published version of the
latest list of that rate; a July list's ``august`` version is its definitive one (G27).
One small query: list versions are few (a handful a year). The catalogue is what the lists
page, its JSON twin and /api/v1/lists all show; each list's files are named by
``list_files``. Every version carries the name of the rule set it was computed under
(G31, ``ListVersion.rules_name``), which every page and file showing it names too.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.lookups import versions as version_names
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import ListVersion

_MONTHS = {1: "January", 7: "July"}


@dataclass(frozen=True)
class VersionInfo:
    """One published version of one list."""

    id: int
    list_id: str
    rate: Rate
    name: str
    published_at: dt.datetime
    rules_name: str  # G31: the rule set it was computed under, e.g. ecf-2012

    @property
    def month_label(self) -> str:
        """July 2012"""
        return list_label(self.list_id)

    @property
    def words(self) -> str:
        """initial version, August version, revision 2"""
        return version_names.version_words(self.name)

    @property
    def label(self) -> str:
        """July 2012 standard list, August version"""
        return f"{self.month_label} {self.rate.value} list, {self.words}"


@dataclass(frozen=True)
class CurrentList:
    """The latest list of a rate with its published versions, oldest first."""

    rate: Rate
    list_id: str
    versions: tuple[VersionInfo, ...]

    @property
    def current(self) -> VersionInfo:
        """The latest published version: the current grades (G26)."""
        return self.versions[-1]

    @property
    def august(self) -> VersionInfo | None:
        """The definitive August version of a July list (G27), once published."""
        return next((v for v in self.versions if v.name == ListVersion.AUGUST), None)

    @property
    def season(self) -> int:
        return ListId.parse(self.list_id).season()

    @property
    def label(self) -> str:
        return list_label(self.list_id)

    @property
    def words(self) -> str:
        """The list and its current version in words: 'January 2015', 'July 2015, revised
        in August', 'July 2015, revised in August and on 3 October 2015' (G26, G27)."""
        later = [v for v in self.versions if v.name != ListVersion.INITIAL]
        august = [v for v in later if v.name == ListVersion.AUGUST]
        dates = [_day(v.published_at) for v in later if v.name != ListVersion.AUGUST]
        revised = ["in August"] * bool(august) + ([f"on {dates[-1]}"] if dates else [])
        return f"{self.label}, revised {' and '.join(revised)}" if revised else self.label


def _day(moment: dt.datetime) -> str:
    """3 October 2015, in the federation's time zone."""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%B %Y}"


def list_label(list_id: str) -> str:
    parsed = ListId.parse(list_id)
    return f"{_MONTHS.get(parsed.month, parsed.month)} {parsed.year}"


def published_versions() -> list[VersionInfo]:
    """Every published version, in list order then version order (initial, august, revN)."""
    found = [
        VersionInfo(pk, lid, Rate(r), name, at, rules)
        for pk, lid, r, name, at, rules in _PUBLISHED.rows()
    ]
    return sorted(found, key=lambda v: (v.list_id, v.rate.value, version_names.rank(v.name)))


_PUBLISHED = Statement(
    lambda: ListVersion.objects.filter(status=ListVersion.Status.PUBLISHED).values_list(
        "id", "grading_list__list_id", "grading_list__rate", "name", "published_at", "rules_name"
    )
)


def lists_by_rate(found: list[VersionInfo] | None = None) -> dict[Rate, list[CurrentList]]:
    """Every list with a published version, latest first, by rate."""
    grouped: dict[tuple[Rate, str], list[VersionInfo]] = {}
    for version in published_versions() if found is None else found:
        grouped.setdefault((version.rate, version.list_id), []).append(version)
    by_rate: dict[Rate, list[CurrentList]] = {Rate.STANDARD: [], Rate.RAPID: []}
    for (rate, list_id), found_versions in sorted(grouped.items(), key=lambda kv: kv[0][1]):
        by_rate[rate].insert(0, CurrentList(rate, list_id, tuple(found_versions)))
    return by_rate


def current_lists() -> dict[Rate, CurrentList]:
    """The latest list of each rate that has a published version."""
    return {rate: lists[0] for rate, lists in lists_by_rate().items() if lists}


def current_season(current: dict[Rate, CurrentList] | None = None) -> int | None:
    """The season of the latest current list: the reference for club lapsing (C2)."""
    found = current_lists() if current is None else current
    seasons = [each.season for each in found.values()]
    return max(seasons, default=None)


def current_lists_shown() -> list[CurrentList]:
    """What the home page shows: one current list of each rate, standard first. A rapid
    list replaces the one before it (G26), so the January rapid list is not current once
    the July one is out."""
    return list(current_lists().values())


# The catalogue ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedVersion:
    """A published version as the catalogue lists it."""

    info: VersionInfo
    current: bool  # the latest published version of its list and rate (G26)


@dataclass(frozen=True)
class PublishedList:
    """One list (July 2012) with its published versions of every rate."""

    list_id: str
    versions: tuple[ListedVersion, ...]  # standard first, then rapid; oldest first (G26)

    @property
    def label(self) -> str:
        return list_label(self.list_id)


@dataclass(frozen=True)
class Catalogue:
    """Every published list, and the current list of each rate."""

    lists: tuple[PublishedList, ...]  # latest first
    current: tuple[CurrentList, ...]  # standard first


def catalogue(found: list[VersionInfo] | None = None) -> Catalogue:
    """Every published list and version, latest list first: one query."""
    versions = published_versions() if found is None else found
    by_list: dict[str, list[VersionInfo]] = {}
    for version in versions:
        by_list.setdefault(version.list_id, []).append(version)
    lists = tuple(_published_list(list_id, by_list[list_id]) for list_id in sorted(by_list)[::-1])
    current = tuple(latest[0] for latest in lists_by_rate(versions).values() if latest)
    return Catalogue(lists, current)


def _published_list(list_id: str, versions: list[VersionInfo]) -> PublishedList:
    ordered = sorted(versions, key=lambda v: v.rate is not Rate.STANDARD)  # stable: G26 order
    latest = {v.rate: v for v in ordered}
    return PublishedList(list_id, tuple(ListedVersion(v, latest[v.rate] is v) for v in ordered))
