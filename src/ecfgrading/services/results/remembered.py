"""The team's identification decisions, remembered and applied (issue 24, case 3).

A decision (a case linked, a case made a new player, a merge) is kept as a ``NameAlias``:
the file's spelling of the name, its club and its event, naming the player. An import
loads those its file's players may meet and lets them identify whom the matcher could
not (the rule is ``matching.remembered``'s); the report says "identified as the team
decided on <date>".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from typing import Any

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.periods import season_of
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.identification import same_person
from ecfgrading.matching.identify import Decision, Received, RecordIndex
from ecfgrading.matching.names import fold_club, fold_club_code
from ecfgrading.matching.remembered import (
    Remembered,
    as_decision,
    recall,
    spelling_key,
    undecided,
)
from ecfgrading.registry.bulk import in_chunks
from ecfgrading.registry.merges import surviving_id
from ecfgrading.registry.models import (
    ClubMembership,
    Event,
    NameAlias,
    PendingIdentification,
    Player,
)
from ecfgrading.services.people import width
from ecfgrading.services.results.import_report import RememberedPlayer
from ecfgrading.services.results.records import columns_sql, select_rows, table_sql


def recall_decisions(
    event_code: str,
    received: Mapping[int, Received],
    decisions: Mapping[int, Decision],
    index: RecordIndex,
) -> tuple[dict[int, Decision], tuple[RememberedPlayer, ...]]:
    """The file's decisions (PIN -> decision) with the team's remembered ones applied,
    and the players they identified, for the report.

    Only the players the matcher left undecided are looked up (``recall`` answers for no
    one else): most files have none, and ask the database nothing here (issue 25: a
    national demo's imports spent an eighth of their time reading decisions for players
    their codes had identified)."""
    open_ = {pin: entry for pin, entry in received.items() if undecided(decisions[pin])}
    remembered = _remembered_for(open_.values()) if open_ else []
    if not remembered:
        return dict(decisions), ()
    event_id = Event.objects.filter(code=event_code).values_list("id", flat=True).first()
    applied = dict(decisions)
    told: list[RememberedPlayer] = []
    for pin, entry in open_.items():
        one = recall(entry, decisions[pin], event_id, remembered)
        record = index.record(one.player_id) if one is not None else None
        if one is None or record is None:
            continue  # no decision, or its player is not on record as himself
        applied[pin] = as_decision(entry, one)
        code = str(GradingCode(record.code)) if record.code is not None else ""
        on = f"{one.decided_on:%d/%m/%Y}"
        told.append(RememberedPlayer(pin, entry.written, code, record.written, on))
    return applied, tuple(told)


def _remembered_for(entries: Iterable[Received]) -> list[Remembered]:
    """The decisions remembered for these spellings, in any event, merges followed."""
    if not _any_remembered():
        return []  # none at all (a new registry): the file's spellings need not be folded
    rows = _aliases(sorted({spelling_key(entry.written) for entry in entries}))
    if not rows:
        return []
    merges = Player.merges()
    return [
        Remembered(surviving_id(merges, player), event, key, code, name, _local_day(at))
        for player, event, key, code, name, at in rows
    ]


_ALIAS_COLUMNS = ("player", "event", "spelling_key", "club_code", "club_name", "decided_at")


def _aliases(keys: list[str]) -> list[tuple[Any, ...]]:
    """The remembered decisions of these spelling keys, as _ALIAS_COLUMNS. A plain
    statement: it runs for every file with a player the matcher left undecided, and
    building it through the ORM, and converting its rows, cost four times what the
    database takes to answer it (issue 25, py-spy on the national demo)."""
    columns = columns_sql(NameAlias, *_ALIAS_COLUMNS)
    where = columns_sql(NameAlias, "spelling_key")
    statement = f"SELECT {columns} FROM {table_sql(NameAlias)} t WHERE {where} IN ({{ids}})"
    return [row for chunk in in_chunks(keys) for row in select_rows(statement, chunk)]


def _local_day(at: datetime) -> date:
    """The day a decision was taken, where the team is: a plain statement gives SQLite's
    time as a naive UTC datetime, PostgreSQL's as an aware one."""
    if timezone.is_naive(at):
        at = timezone.make_aware(at, UTC)
    return timezone.localtime(at).date()


def _any_remembered() -> bool:
    """Whether the team remembered any decision: a plain statement, run for every file
    with a player the matcher left undecided, once a turn in a turn (``asked_once``)."""
    known = _KNOWN.get()
    if known is not None and known:
        return known[0]
    table = connection.ops.quote_name(NameAlias._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} LIMIT 1")
        found = cursor.fetchone() is not None
    if known is not None:
        known.append(found)
    return found


# Inside ``asked_once``: whether any decision is remembered, once asked.
_KNOWN: ContextVar[list[bool] | None] = ContextVar("any_remembered", default=None)


@contextmanager
def asked_once() -> Iterator[None]:
    """Inside, whether the team remembered any decision is asked of the database once:
    for an importer's turn, which holds the registry lock that every writer of
    remembered decisions takes (the queue's decisions, merges), and writes none itself.
    A season's import asked 1,147 times (issue 25)."""
    token = _KNOWN.set([])
    try:
        yield
    finally:
        _KNOWN.reset(token)


# --- remembering ----------------------------------------------------------------------

_MERGE = str(NameAlias.Decision.MERGE)

# One remembered spelling: event id, spelling key, club code, club name (cut to their
# columns), the row's unique key (name_alias_one_per_spelling).
_Spelling = tuple[int, str, str, str]
Decided = tuple[list[PendingIdentification], Player, str]  # one person's cases, whom, how


def remember_cases(decided: Iterable[Decided], user: Any) -> int:
    """The team's decisions, each on the cases of one person (``same_person``), are
    remembered, in the order taken: the latest decision on a spelling wins. A handful of
    statements for a whole session of decisions, not a few for each. How many rows."""
    rows: dict[_Spelling, NameAlias] = {}
    at = timezone.now()
    for cases, player, decision in decided:
        done = set()
        for case in cases:
            event = case.submission.event_id
            key = same_person(case)
            if event is None or key in done:
                continue
            done.add(key)
            code, club = fold_club_code(case.club_code), fold_club(case.club_name)
            _add(rows, _row(case.name, code, club, event, player, decision, user, at, case))
    return _save(rows)


def remember_merge(gone: Player, kept: Player, user: Any) -> int:
    """A merge is remembered as the absorbed record's name, at each club he was seen with
    in each event he played in, naming the survivor: a resubmission of those events
    spelling him as his record did finds the survivor, not a third record."""
    events = dict(
        Event.objects.filter(Q(games__player1=gone) | Q(games__player2=gone))
        .distinct()
        .values_list("id", "end_date")
    )
    memberships = ClubMembership.objects.filter(player=gone).select_related("club")
    written = full_name(gone.surname, gone.forenames)
    rows: dict[_Spelling, NameAlias] = {}
    at = timezone.now()
    made = 0
    for event, end in events.items():
        season = season_of(end)
        clubs = [
            (fold_club_code(m.club.code or ""), fold_club(m.club.name))
            for m in memberships
            if m.first_season <= season <= m.last_season
        ] or [("", "")]
        for code, name in clubs:
            _add(rows, _row(written, code, name, event, kept, _MERGE, user, at))
            made += 1
    _save(rows)
    return made


def _row(
    spelling: str,
    club_code: str,
    club_name: str,
    event: int,
    player: Player,
    decision: str,
    user: Any,
    at: datetime,
    case: PendingIdentification | None = None,
) -> NameAlias:
    """One spelling at one club in one event is ``player`` (unsaved)."""
    return NameAlias(
        event_id=event,
        spelling_key=spelling_key(spelling)[: width(NameAlias, "spelling_key")],
        club_code=club_code[: width(NameAlias, "club_code")],
        club_name=club_name[: width(NameAlias, "club_name")],
        spelling=spelling[: width(NameAlias, "spelling")],
        player=player,
        decision=decision,
        case=case,
        decided_by=user if getattr(user, "pk", None) is not None else None,
        decided_at=at,
    )


def _add(rows: dict[_Spelling, NameAlias], row: NameAlias) -> None:
    """A later decision on the same spelling replaces an earlier one."""
    rows.pop(_spelling(row), None)  # keeps the order taken: the latest last
    rows[_spelling(row)] = row


def _spelling(row: NameAlias) -> _Spelling:
    return (row.event_id, row.spelling_key, row.club_code, row.club_name)


_DECIDED = ("spelling", "player", "decision", "case", "decided_by", "decided_at")


def _save(rows: dict[_Spelling, NameAlias]) -> int:
    """The rows written: a spelling remembered before is updated in place (the latest
    decision wins), a new one inserted; one query finds which are which."""
    if not rows:
        return 0
    keys = sorted({key for _, key, _, _ in rows})
    for chunk in in_chunks(keys):
        found = NameAlias.objects.filter(spelling_key__in=chunk)
        for pk, event, key, code, name in found.order_by().values_list(
            "id", "event_id", "spelling_key", "club_code", "club_name"
        ):
            if (row := rows.get((event, key, code, name))) is not None:
                row.id = pk
    kept = [row for row in rows.values() if row.id is not None]
    NameAlias.objects.bulk_update(kept, _DECIDED)
    NameAlias.objects.bulk_create([row for row in rows.values() if row.id is None])
    return len(rows)
