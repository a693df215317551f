"""Finding list versions: current (latest published), drafts, and the next name (G26)."""

from __future__ import annotations

import re

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.errors import ErrorKind, ServiceError
from ecfgrading.registry.models import GradingList, ListVersion

_REV = re.compile(r"^rev(\d+)$")
_NAME = re.compile(ListVersion.NAMES)


class VersionError(ServiceError):
    """A version that does not exist, or an operation its state forbids."""


def published(list_id: ListId | str, rate: Rate) -> ListVersion | None:
    """The current version: the latest published one (G26, G27); a player's current grade
    is the one in it."""
    return (
        ListVersion.objects.filter(
            grading_list__list_id=str(list_id),
            grading_list__rate=rate.value,
            status=ListVersion.Status.PUBLISHED,
        )
        .select_related("grading_list")
        .order_by("-published_at", "-id")
        .first()
    )


def named(list_id: ListId | str, rate: Rate, name: str) -> ListVersion:
    version = ListVersion.objects.filter(
        grading_list__list_id=str(list_id), grading_list__rate=rate.value, name=name
    ).first()
    if version is None:
        known = ", ".join(names(list_id, rate)) or "none"
        raise VersionError(
            f"expected a version of the {rate} list {list_id} ({known}), got {name!r}",
            kind=ErrorKind.NOT_FOUND,
        )
    return version


def is_published(list_id: ListId | str, rate: Rate, name: str) -> bool:
    """Whether the version ``name`` of the list is published."""
    return ListVersion.objects.filter(
        grading_list__list_id=str(list_id),
        grading_list__rate=rate.value,
        name=name,
        status=ListVersion.Status.PUBLISHED,
    ).exists()


def names(list_id: ListId | str, rate: Rate) -> list[str]:
    return list(
        ListVersion.objects.filter(
            grading_list__list_id=str(list_id), grading_list__rate=rate.value
        ).values_list("name", flat=True)
    )


def next_name(grading_list: GradingList) -> str:
    """A draft in progress keeps its name; otherwise initial, august (July), rev1, rev2..."""
    versions = list(grading_list.versions.all())
    draft = next((v for v in versions if v.status == ListVersion.Status.DRAFT), None)
    if draft is not None:
        return draft.name
    taken = {v.name for v in versions}
    if not taken:
        return ListVersion.INITIAL
    if grading_list.has_august and ListVersion.AUGUST not in taken:
        return ListVersion.AUGUST
    revisions = [int(m.group(1)) for name in taken if (m := _REV.match(name))]
    return f"rev{max(revisions, default=0) + 1}"


def version_words(name: str) -> str:
    """How a sentence names a version (G26): 'initial version', 'August version' (the
    month keeps its capital), 'revision 2'."""
    if name == ListVersion.AUGUST:
        return "August version"
    match = _REV.match(name)
    return f"revision {match.group(1)}" if match else f"{name} version"


def rank(name: str) -> int:
    """Versions follow each other: initial, august, rev1, rev2... (G26)."""
    if name == ListVersion.INITIAL:
        return 0
    if name == ListVersion.AUGUST:
        return 1
    match = _REV.match(name)
    return 1 + int(match.group(1)) if match else -1


def check_new(grading_list: GradingList, name: str) -> None:
    """A draft may only be a version that could still come next (G26)."""
    if not _NAME.match(name):
        raise VersionError(f"expected a version name initial, august or revN, got {name!r}")
    versions = list(grading_list.versions.all())
    draft = next((v for v in versions if v.status == ListVersion.Status.DRAFT), None)
    if draft is not None and draft.name != name:
        raise VersionError(
            f"draft {draft.name} of {grading_list} is in progress: publish it or compute it again",
            kind=ErrorKind.CONFLICT,
        )
    later = [v.name for v in versions if v.is_published and rank(v.name) >= rank(name)]
    if later:
        raise VersionError(
            f"expected a version after {', '.join(later)} of {grading_list}, got {name!r}: "
            f"published versions are immutable (next: {next_name(grading_list)})",
            kind=ErrorKind.CONFLICT,
        )
