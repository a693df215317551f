"""Ending a club membership by hand: the seeds' lingering lapsed club, which the team may
end before it lapses (C2). The player's page is ``lookups.profiles.team_player``."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction

from ecfgrading.registry.models import AuditLog, ClubMembership
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import Conflict, NotFound
from ecfgrading.services.locks import busy_as_error, take_registry_lock


def end_membership(code: str, membership_id: int, *, on: date, user: Any) -> ClubMembership:
    """End one of the player's memberships: public pages, the API and list files stop
    showing the club (lookups.memberships), which stays on record for identification."""
    player = player_on_record(code)
    with busy_as_error(f"ending a membership of {player.ref}"), transaction.atomic():
        take_registry_lock()  # a change to who is where, as the importers see it
        membership = (
            ClubMembership.objects.select_for_update()
            .select_related("club")
            .filter(id=membership_id, player=player)
            .first()
        )
        if membership is None:
            raise NotFound(f"expected a membership of {player.ref}, got {membership_id}")
        if membership.ended_on is not None:
            raise Conflict(f"{player.ref}'s membership of {membership.club} already ended")
        membership.ended_on = on
        membership.save(update_fields=["ended_on"])
        note_changed([player.id])  # importers load his clubs again; public pages refresh
        AuditLog.record(
            "end membership",
            membership,
            user=user,
            player=player.ref,
            club=str(membership.club),
            ended_on=on.isoformat(),
        )
    return membership
