"""Amendments as the public /amendments/ page shows them, with the version that first
carries each (issue 11, item 6).

An amendment is carried by the first version of its rate published after it was made
(any rate when it names none); until then the page says "in the next version". The page
names the grading team, never a person: staff accounts hold private e-mail addresses.
``services.amendments`` records them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from ecfgrading.lookups.paging import Page, bounds
from ecfgrading.registry.models import Amendment, ListVersion

PER_PAGE = 50
BY = "the grading team"
NEXT = "next"  # the version filter of amendments no version carries yet


@dataclass(frozen=True)
class VersionShown:
    """A published version that carries amendments, for the page's filter."""

    list_id: str
    rate: str
    name: str
    published: dt.date | None
    amendments: int

    @property
    def label(self) -> str:
        return f"{self.rate} {self.list_id} {self.name}"


@dataclass(frozen=True)
class AmendmentShown:
    made_on: dt.date
    by: str
    what: str
    why: str
    rate: str
    player_code: str
    player_name: str
    event_code: str
    event_name: str
    version: VersionShown | None  # None: in the next version

    @property
    def carried_by(self) -> str:
        return self.version.label if self.version else "in the next version"


@dataclass(frozen=True)
class AmendmentFilter:
    list_id: str = ""  # "2011-07"
    rate: str = ""  # "standard" or "rapid"
    version: str = ""  # "initial", "august", "rev1"... or NEXT


@dataclass(frozen=True)
class AmendmentsPage:
    page: Page[AmendmentShown]
    filters: AmendmentFilter
    versions: list[VersionShown]
    waiting: int  # amendments no version carries yet


def amendments(filters: AmendmentFilter, *, page: int = 1) -> AmendmentsPage:
    """One page of amendments, latest first, with the versions that carry any."""
    found = Amendment.objects.filter(_condition(filters))
    total = found.count()
    page = min(page, max(1, -(-total // PER_PAGE)))
    start, end = bounds(page, PER_PAGE)
    rows = found.select_related("player", "event", "version__grading_list").order_by(
        "-made_at", "-id"
    )[start:end]
    versions = _versions()
    by_label = {v.label: v for v in versions}
    return AmendmentsPage(
        Page([_shown(a, by_label) for a in rows], page, PER_PAGE, total),
        filters,
        versions,
        Amendment.objects.filter(version__isnull=True).count(),
    )


def _condition(filters: AmendmentFilter) -> Q:
    """Each filter narrows; a rate keeps the waiting amendments that may go to it."""
    query = Q()
    if filters.rate:
        waiting = Q(version__isnull=True, rate__in=[filters.rate, ""])
        query &= Q(version__grading_list__rate=filters.rate) | waiting
    if filters.version == NEXT:
        return query & Q(version__isnull=True)
    if filters.list_id:
        query &= Q(version__grading_list__list_id=filters.list_id)
    if filters.version:
        query &= Q(version__name=filters.version)
    return query


def _versions() -> list[VersionShown]:
    rows = (
        ListVersion.objects.filter(status=ListVersion.Status.PUBLISHED, amendments__isnull=False)
        .annotate(carried=Count("amendments"))
        .select_related("grading_list")
        .order_by("-published_at", "-id")
    )
    return [_version(v, v.carried) for v in rows]


def _version(version: ListVersion, count: int = 0) -> VersionShown:
    published = timezone.localdate(version.published_at) if version.published_at else None
    gl = version.grading_list
    return VersionShown(gl.list_id, gl.rate, version.name, published, count)


def _shown(amendment: Amendment, versions: dict[str, VersionShown]) -> AmendmentShown:
    player, event = amendment.player, amendment.event
    version = _version(amendment.version) if amendment.version else None
    return AmendmentShown(
        made_on=timezone.localdate(amendment.made_at),
        by=BY,
        what=amendment.what,
        why=amendment.why,
        rate=amendment.rate,
        player_code=player.ref if player is not None else "",
        player_name=player.name if player is not None else "",
        event_code=event.code if event is not None else "",
        event_name=event.name if event is not None else "",
        version=versions.get(version.label, version) if version else None,
    )
