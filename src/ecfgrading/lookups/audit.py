"""The audit log as the grading team reads it (issue 11, item 7): who did what and when,
with the row before and after, filterable by player, event and person.

Entries name their object by ``object_type``/``object_id`` (indexed); entries about
something else that concerns a player or an event say so in ``details`` under the keys
``player``, ``absorbed`` (a merge) or ``event``, as codes. A filter asks the index for
the object and the JSON keys for the rest, by Django's key lookups, which both SQLite
(JSON1) and PostgreSQL (jsonb) answer; the log grows by one row per action, not per
game, so the key lookups stay cheap. ``services.audit`` writes the entries.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from ecfgrading.engine.codes import InvalidCode
from ecfgrading.lookups.paging import Page, bounds
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import AuditLog, Event, Player, Submission
from ecfgrading.registry.numbering import resolve_code

PER_PAGE = 50
_PLAYER_KEYS = ("player", "absorbed")  # details keys that carry a player's code
_SHOWN_APART = {"before", "after"}
VALUE = "value"  # the field a bare before/after value is shown as


@dataclass(frozen=True)
class Change:
    """One field of the row, before and after (None: the row had no such value)."""

    field: str
    before: Any
    after: Any


@dataclass(frozen=True)
class AuditRow:
    at: dt.datetime
    who: str
    action: str
    object: str
    changes: tuple[Change, ...]
    details: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class AuditFilter:
    player: str = ""  # a grading code
    event: str = ""  # an event code
    person: str = ""  # a user name, or an actor such as "import"

    @property
    def empty(self) -> bool:
        return not (self.player or self.event or self.person)


@dataclass(frozen=True)
class AuditPage:
    page: Page[AuditRow]
    filters: AuditFilter
    problem: str = ""  # a filter that names nothing on record, in words


def audit_entries(filters: AuditFilter, *, page: int = 1) -> AuditPage:
    """One page of the log, latest first, narrowed by the filters."""
    query, problem = _narrowed(filters)
    if problem:
        return AuditPage(Page([], 1, PER_PAGE, 0), filters, problem)
    entries = AuditLog.objects.filter(query).select_related("user")
    total = entries.count()
    page = min(page, max(1, -(-total // PER_PAGE)))
    start, end = bounds(page, PER_PAGE)
    rows = [_row(entry) for entry in entries.order_by("-at", "-id")[start:end]]
    return AuditPage(Page(rows, page, PER_PAGE, total), filters)


def _narrowed(filters: AuditFilter) -> tuple[Q, str]:
    """The filters as one condition, or why one of them matches nothing on record."""
    query = Q()
    for build, text in ((_player_q, filters.player), (_event_q, filters.event)):
        if text.strip():
            found, problem = build(text.strip())
            if problem:
                return Q(), problem
            query &= found
    if filters.person.strip():
        name = filters.person.strip()
        query &= Q(user__username__iexact=name) | Q(actor__iexact=name)
    return query, ""


def _player_q(code: str) -> tuple[Q, str]:
    """Entries on the player's row, or naming his code (or a code merged into his)."""
    try:
        player = resolve_code(code)
    except InvalidCode as bad:
        return Q(), str(bad)
    if player is None:
        return Q(), f"no player with grading code {code.upper()} is on record"
    people = Player.objects.filter(pk__in=Survivors().records(player.pk)).order_by("pk")
    ids = [str(p.pk) for p in people]
    refs = [p.ref for p in people]
    query = Q(object_type=Player._meta.label_lower, object_id__in=ids)
    for key in _PLAYER_KEYS:
        query |= Q(**{f"details__{key}__in": refs})
    return query, ""


def _event_q(code: str) -> tuple[Q, str]:
    """Entries on the event's row, on its submitted files, or naming its code."""
    event = Event.objects.filter(code__iexact=code).first()
    if event is None:
        return Q(), f"no event with code {code.upper()} is on record"
    files = Submission.objects.filter(Q(event=event) | Q(event_code=event.code))
    return (
        Q(object_type=Event._meta.label_lower, object_id=str(event.pk))
        | Q(
            object_type=Submission._meta.label_lower,
            object_id__in=[str(pk) for pk in files.values_list("pk", flat=True)],
        )
        | Q(details__event=event.code)
    ), ""


def _row(entry: AuditLog) -> AuditRow:
    details = entry.details if isinstance(entry.details, dict) else {}
    apart = _SHOWN_APART if _is_change(details) else set()
    before, after = (_fields(details.get(k)) if apart else {} for k in ("before", "after"))
    changes = tuple(Change(name, before.get(name), after.get(name)) for name in {**before, **after})
    rest = tuple((key, _text(value)) for key, value in details.items() if key not in apart)
    return AuditRow(entry.at, _who(entry), entry.action, _object(entry), changes, rest)


def _is_change(details: dict[str, Any]) -> bool:
    """Whether ``before``/``after`` are a row before and after: a lone ``before`` that is
    no row (the games mailing's cut-off date) is a detail like any other."""
    return "after" in details or isinstance(details.get("before"), dict)


def _fields(value: Any) -> dict[str, Any]:
    """An entry's ``before`` or ``after`` as fields. Entries written before issue 24
    (case 6) may hold a bare value (a user name) there: it is shown as one field."""
    if isinstance(value, dict):
        return value
    return {} if value in (None, "") else {VALUE: value}


def _who(entry: AuditLog) -> str:
    if entry.user is not None:
        name = entry.user.get_full_name()
        return f"{name} ({entry.user.get_username()})" if name else entry.user.get_username()
    return entry.actor or "system"


def _object(entry: AuditLog) -> str:
    if not entry.object_type:
        return ""
    kind = entry.object_type.rsplit(".", 1)[-1]
    return f"{kind} {entry.object_id}"


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(map(_text, value))
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    return "" if value is None else str(value)
