"""Freezing what a published version's files show (G26; issue 24, case 14).

Called by every publication (a computed version, a list file loaded) inside its
transaction, once the version is published: names, clubs and the versions Grade1 and the
august grades come from are kept as they are at that moment, so that the version's files
(``lookups.exports``) are the same bytes however the registry changes afterwards.

Set-based: two queries whatever the list's size (its published players, their clubs),
their rows read as the database gives them (``fetch``); a national list's 30,000 players
are frozen in a fraction of a second, not seconds of objects built row by row.
"""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter
from typing import Any

from ecfgrading.engine.types import Rate
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.exports import PLAYER_FIELDS
from ecfgrading.lookups.grades import fetch
from ecfgrading.lookups.guide import era
from ecfgrading.lookups.memberships import ClubShown, current_memberships
from ecfgrading.lookups.versions import published
from ecfgrading.registry.models import ListEntry, ListVersion, PublishedSnapshot
from ecfgrading.services.errors import Conflict


def freeze_published(version: ListVersion) -> PublishedSnapshot:
    """Keep the published version's snapshot; Conflict for a draft or one already frozen."""
    if not version.is_published:
        raise Conflict(f"expected a published list version to freeze, got {version}")
    if PublishedSnapshot.objects.filter(version=version).exists():
        raise Conflict(f"list version {version} is already frozen: it never changes")
    grading_list = version.grading_list
    target, rate = grading_list.list, Rate(grading_list.rate)
    rule_set = era(version.rules_name)  # G31: its name and words, as the guide says now
    return PublishedSnapshot.objects.create(
        version=version,
        players=_players(version, target.season()),
        previous=published(target.previous_same_rate(rate), rate),  # G4: Grade1's
        august=_august(version),
        rule_set=rule_set.name,
        rule_words=rule_set.words,
    )


def _august(version: ListVersion) -> ListVersion | None:
    """G27: the list's august version, published before this later revision of it."""
    if not version.grading_list.has_august or version.name == ListVersion.AUGUST:
        return None
    return ListVersion.objects.filter(
        grading_list=version.grading_list,
        name=ListVersion.AUGUST,
        status=ListVersion.Status.PUBLISHED,
    ).first()


def _players(version: ListVersion, season: int) -> list[list[Any]]:
    """[player id, code, 'Surname, Forenames', sex, FIDE code, nation, [clubs]] of each
    published player (G23), by name as the entries' own order gives them; public fields
    only (``PLAYER_FIELDS``)."""
    entries = ListEntry.objects.filter(version=version, published=True).order_by(
        "player__surname", "player__forenames", "player__code"
    )
    clubs = _clubs(entries, season)
    rows = fetch(entries.values_list("player_id", *PLAYER_FIELDS))
    return [
        [pk, code, full_name(surname, forenames), sex, _fide(fide_id), nation, clubs.get(pk, [])]
        for pk, code, surname, forenames, sex, fide_id, nation in rows
    ]


def _fide(fide_id: int | None) -> str:
    return "" if fide_id is None else str(fide_id)


def _clubs(entries: Any, season: int) -> dict[int, list[str]]:
    """Each player's clubs not lapsed by the list's season (``lookups.memberships``),
    most recently quoted first, each label once; a location with '*'."""
    memberships = (
        current_memberships(season)
        .filter(player_id__in=entries.values("player_id"))
        # shown_clubs' order: the most recently quoted first, then by name
        .order_by("player_id", "-last_season", "-first_season", "club__name", "club_id")
        .values_list("player_id", "club_id", "club__code", "club__name", "club__is_location")
    )
    labels: dict[int, str] = {}  # club id -> label, made once per club

    def label(row: tuple[Any, ...]) -> str:
        club = row[1]
        if club not in labels:
            labels[club] = ClubShown(*row[1:]).label
        return labels[club]

    return {
        pk: list(dict.fromkeys(map(label, found)))
        for pk, found in groupby(fetch(memberships), key=itemgetter(0))
    }
