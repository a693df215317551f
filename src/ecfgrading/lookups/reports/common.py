"""What every report shares: finding the versions it reads, and JSON-ready values."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from datetime import date
from typing import Any

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.errors import ErrorKind, user_input
from ecfgrading.lookups import versions
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import ListEntry, ListVersion


@dataclass(frozen=True)
class Versions:
    """The version a report reads and the previous list's version it compares with."""

    current: ListVersion
    previous: ListVersion | None

    @property
    def label(self) -> str:
        return label(self.current)

    @property
    def previous_label(self) -> str | None:
        return None if self.previous is None else label(self.previous)


class TeamReport:
    """Mixin for the grading team's frozen report dataclasses (jumps, integrity...):
    ``as_dict`` gives JSON-ready values."""

    def as_dict(self) -> dict[str, Any]:
        data = jsonable(self)
        assert isinstance(data, dict)
        return data


def chosen_version(list_id: str, rate: Rate, name: str | None) -> ListVersion:
    """The named version; by default the current one (G27), else the latest draft."""
    with user_input(VersionError):
        target = ListId.parse(list_id)
    if name is not None:
        return versions.named(target, rate, name)
    found = versions.published(target, rate) or _latest_draft(target, rate)
    if found is None:
        raise VersionError(
            f"expected a computed {rate} list {target}, found no version of it",
            kind=ErrorKind.NOT_FOUND,
        )
    return found


def with_previous(list_id: str, rate: Rate, name: str | None) -> Versions:
    """G4: the previous list of the same rate, as its latest published version."""
    current = chosen_version(list_id, rate, name)
    previous_id = ListId.parse(list_id).previous_same_rate(rate)
    return Versions(current, versions.published(previous_id, rate))


def published_grades(version: ListVersion | None) -> dict[int, int]:
    """Published grades of a version by player id (none without a version)."""
    if version is None:
        return {}
    rows = ListEntry.objects.filter(version=version, published=True, grade__isnull=False)
    # No ordering: the default one joins every player only to sort by name.
    return dict(rows.order_by().values_list("player_id", "grade"))


def label(version: ListVersion) -> str:
    grading_list = version.grading_list
    return f"{grading_list.rate} {grading_list.list_id} {version.name} ({version.status})"


def jsonable(value: object) -> object:
    """Dataclasses, dates, tuples and mappings as plain JSON values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, date):  # datetimes too
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no NaN or infinity
    return value


def fmt(value: float | None, places: int = 1) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def _latest_draft(target: ListId, rate: Rate) -> ListVersion | None:
    return (
        ListVersion.objects.filter(
            grading_list__list_id=str(target),
            grading_list__rate=rate.value,
            status=ListVersion.Status.DRAFT,
        )
        .select_related("grading_list")
        .order_by("-id")
        .first()
    )
