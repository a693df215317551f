"""Draft list versions as the grading team sees them before publishing (G26, G27): the
latest versions computed, the version the compute form proposes next, and a version's
reports beside its difference from the version before it (``lookups.differences``).

Computing and publishing are ``services.grading.compute``, called by
``services.team.publishing``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ecfgrading.engine import ListId, Rate
from ecfgrading.errors import user_input
from ecfgrading.lookups import versions
from ecfgrading.lookups.differences import Difference, difference
from ecfgrading.lookups.reports import (
    AttentionReport,
    IntegrityReport,
    JumpsReport,
    OverdueReport,
    events_overdue,
    integrity,
    large_jumps,
    unanchored_and_zero,
)
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import GradingList, ListVersion


@dataclass(frozen=True)
class VersionRow:
    list_id: str
    rate: str
    name: str
    status: str
    computed_at: Any
    published_at: Any


@dataclass(frozen=True)
class Choice:
    """What the compute form proposes: the latest list's next version (G26)."""

    list_id: str
    rate: str
    version: str


@dataclass(frozen=True)
class DraftPage:
    list_id: str
    rate: str
    version: str
    status: str
    run: dict[str, Any]
    jumps: JumpsReport
    integrity: IntegrityReport
    attention: AttentionReport
    overdue: OverdueReport
    difference: Difference
    notes: tuple[str, ...] = field(default=())

    @property
    def is_draft(self) -> bool:
        return self.status == ListVersion.Status.DRAFT


def recent_versions(limit: int = 20) -> list[VersionRow]:
    rows = ListVersion.objects.select_related("grading_list").order_by("-id")[:limit]
    return [
        VersionRow(
            v.grading_list.list_id,
            v.grading_list.rate,
            v.name,
            v.status,
            v.computed_at,
            v.published_at,
        )
        for v in rows
    ]


def default_choice(today: date) -> Choice:
    """A draft in progress, else the list after the latest one (January lists are rapid
    only, July lists standard first), else a July list of this year: its initial version."""
    draft = (
        ListVersion.objects.filter(status=ListVersion.Status.DRAFT)
        .select_related("grading_list")
        .order_by("-id")
        .first()
    )
    if draft is not None:
        return Choice(draft.grading_list.list_id, draft.grading_list.rate, draft.name)
    latest = GradingList.objects.order_by("-list_id").values_list("list_id", flat=True).first()
    if latest is None:
        return Choice(f"{today.year}-07", Rate.STANDARD.value, ListVersion.INITIAL)
    lid = ListId.parse(latest)
    made = set(GradingList.objects.filter(list_id=latest).values_list("rate", flat=True))
    missing = [rate for rate in lid.rates() if rate.value not in made]
    if missing:
        return Choice(latest, missing[0].value, ListVersion.INITIAL)
    following = lid.next()
    return Choice(str(following), following.rates()[0].value, ListVersion.INITIAL)


def draft_page(list_id: str, rate: Rate, version: str, *, today: date) -> DraftPage:
    """A version's reports and its difference from the version before it."""
    target = versions.named(_list(list_id), rate, version)
    return DraftPage(
        list_id=list_id,
        rate=rate.value,
        version=version,
        status=target.status,
        run=target.report,
        jumps=large_jumps(list_id, rate, version=version),
        integrity=integrity(list_id, rate, version=version),
        attention=unanchored_and_zero(list_id, rate, version=version),
        overdue=events_overdue(today),
        difference=difference(target),
    )


def _list(list_id: str) -> ListId:
    with user_input(VersionError):
        return ListId.parse(list_id)
