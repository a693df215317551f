"""Amendments: corrections the grading team makes between versions of a list (issue 11,
item 6), recorded and audited here, carried by the first version of their rate published
after them (any rate when they name none). ``lookups.amendments`` shows them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from ecfgrading.registry.models import Amendment, AuditLog, Event, Feedback, ListVersion, Player


def record_amendment(
    *,
    what: str,
    why: str,
    user: Any = None,
    actor: str = "",
    player: Player | None = None,
    event: Event | None = None,
    rate: str = "",
    feedback: Feedback | None = None,
) -> Amendment:
    """Note one correction (and audit it); the next version published carries it."""
    amendment = Amendment.objects.create(
        what=what, why=why, made_by=user, player=player, event=event, rate=rate, feedback=feedback
    )
    codes = {"player": player.ref} if player is not None else {}
    codes |= {"event": event.code} if event is not None else {}
    AuditLog.record("amendment", amendment, user=user, actor=actor, what=what, why=why, **codes)
    return amendment


def carry_pending(version: ListVersion) -> int:
    """At publication (G26): the amendments made before it that no version carries yet
    are carried by this one, if of its rate or of none. Returns how many."""
    assert version.published_at is not None
    rate = version.grading_list.rate
    waiting = Amendment.objects.filter(
        Q(rate=rate) | Q(rate=""), version__isnull=True, made_at__lte=version.published_at
    )
    return waiting.update(version=version)
