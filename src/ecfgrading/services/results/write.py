"""Writing an accepted results file: one transaction, bulk statements, no query per game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

from django.db import connection, models
from django.utils import timezone

from ecfgrading.engine.periods import season_of
from ecfgrading.engine.rateplay import CONTROL_FIELDS, TimeControl, rate_of_play
from ecfgrading.engine.types import GRADED_RESULTS, RESULT_TEXT, NotGraded, Rate
from ecfgrading.formats.results_model import (
    Colour,
    EventDetails,
    PartKind,
    PlayerEntry,
    ResultsFile,
    rows_of,
)
from ecfgrading.lookups.identification import Candidate
from ecfgrading.matching.identify import Decision, DecisionKind, PlayerRecord
from ecfgrading.registry.bulk import insert_rows, update_one, update_rows
from ecfgrading.registry.inserts import insert_instances
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    Event,
    Game,
    PendingIdentification,
    Player,
    PlayRate,
    Submission,
)
from ecfgrading.registry.numbering import issue_codes, reserve_game_sequence
from ecfgrading.services.audit import EVENT_FIELDS, changed, snapshot
from ecfgrading.services.changes import Mark, note_changed
from ecfgrading.services.people import PlayerDetails, insert_new_players, width
from ecfgrading.services.results.import_report import (
    ImportReport,
    NewPlayer,
    WaitingPlayer,
    Written,
)
from ecfgrading.services.results.queue import close_superseded
from ecfgrading.services.results.records import record_of
from ecfgrading.services.results.registry_cache import RegistryCache


@dataclass(frozen=True)
class Plan:
    """A file read, checked and identified, ready to write (or to reject)."""

    results: ResultsFile | None
    report: ImportReport
    decisions: Mapping[int, Decision] = field(default_factory=dict)  # PIN -> decision
    details: Mapping[int, PlayerDetails] = field(default_factory=dict)  # PIN -> details
    # Player id -> (code, name) of the candidates of queued players, from the index they
    # were found in (the report names them); an id missing here is looked up.
    candidates: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    # False when the plan found no accepted submission of the event to supersede.
    supersedes: bool = True
    # Whether the plan found the event on record (None: not asked). A season's 1,500 new
    # events are then not looked for twice under the same lock (issue 25).
    event_known: bool | None = None


_PART = {PartKind.MATCH: "match", PartKind.SECTION: "section", PartKind.OTHER: "other"}
_KIND = {PartKind.MATCH: Event.Kind.LEAGUE, PartKind.SECTION: Event.Kind.CONGRESS}
_COLOUR = {Colour.WHITE: "W", Colour.BLACK: "B", None: ""}
# Free text the writer cuts to its column (checks warn of it first: 'cut-short').
_PART_NAME, _COMMENT = width(Game, "part_name"), width(Game, "comment")
_CASE_NAME, _CASE_CODE = (
    width(PendingIdentification, "name"),
    width(PendingIdentification, "code_text"),
)


@dataclass(frozen=True)
class Touched:
    """What a write changed of who is on record, for the importer's index."""

    created: list[PlayerRecord]  # new players
    births: dict[int, date]  # player id -> a date of birth the file gave
    # (player id, club id) seen together that the index may not hold yet: the new
    # memberships, and those of clubs that learnt their code (_Noted.indexed).
    clubs: set[tuple[int, int]]
    # The highest id the write gave each table a view marks (services.changes), 0 where
    # it added none; None when the database did not return an id (read the mark then).
    written: Mark | None = None


def write_plan(
    plan: Plan, submission: Submission, cache: RegistryCache, *, user: Any, actor: str
) -> tuple[Written, Touched]:
    """Write everything of an accepted file: what it did, and what it changed of the
    players on record.

    The submission itself is marked accepted by the importer, with its report.
    """
    results = plan.results
    assert results is not None  # only files that read are written
    event, before = upsert_event(results, plan.event_known)
    superseded = supersede(event.code) if plan.supersedes else 0
    clubs = clubs_of(results.players, cache)
    placed = place_players(plan, clubs, cache)
    pending = queue_pending(plan, submission)
    noted = _note_players(plan, placed.ids, clubs, cache, season_of(event.end_date))
    games = write_games(results, event, submission, placed.ids, pending)
    written = _written(event, superseded, placed, pending, games, plan.candidates)
    was, now = changed(before, snapshot(event, EVENT_FIELDS))  # the event's row
    audited = AuditLog.entry(
        "import results",
        submission,
        user=user,
        actor=actor or "import",
        event=event.code,
        games=sum(written.graded.values()),
        before=was,
        after=now,
    )
    audit(audited)
    ids = _highest(placed, clubs, noted)
    return written, Touched(placed.records, noted.births, noted.indexed, ids)


@dataclass(frozen=True)
class _Noted:
    births: dict[int, date]  # player id -> a date of birth the file gave
    pairs: set[tuple[int, int]]  # (player id, club id) seen together in the event
    # The pairs the importer's index may not hold: those without a membership before
    # the file, and those of clubs that learnt a code (RegistryCache.coded_since). A
    # membership on record is among its player's clubs in the index already (loaded
    # with them, or indexed when it was made): a season's 80,000 pairs were each looked
    # up in the index again, though in the seasons after the first most are on record
    # (issue 25; in the first after the starting list, 68,044 of 81,913 are new).
    indexed: set[tuple[int, int]]
    memberships: Mapping[tuple[int, int], int | None]  # pair -> its membership's id
    change: int | None  # the highest id of the rows noting changes in place (0: none)


def _note_players(
    plan: Plan, ids: dict[int, int], clubs: dict[int, int], cache: RegistryCache, season: int
) -> _Noted:
    """Each player's club in the event's season, and a date of birth the records lack;
    the players so changed in place are noted for other views in one statement."""
    pairs = {(ids[pin], club) for pin, club in clubs.items() if pin in ids}
    known, coded = cache.memberships, cache.coded_since
    indexed = {pair for pair in pairs if pair not in known or pair[1] in coded}
    widened = cache.note_memberships(pairs, season, updated)
    births = {
        ids[pin]: details.date_of_birth
        for pin, details in plan.details.items()
        if details.date_of_birth and pin in ids
    }
    born = cache.note_births(births, updated)
    change = _noted([*widened, *born])
    memberships = {pair: cache.memberships[pair].id for pair in pairs}
    return _Noted(births, pairs, indexed, memberships, change)


def _highest(placed: _Placed, clubs: dict[int, int], noted: _Noted) -> Mark | None:
    """The highest id this write can have given each marked table: the file's own clubs,
    memberships and new players include every row it added (the rest are older)."""
    found: list[list[int | None]] = [
        [record.id for record in placed.records],
        list(noted.memberships.values()),
        [noted.change],
        list(clubs.values()),
    ]
    if any(pk is None for ids in found for pk in ids):
        return None
    player, membership, change, club = (
        max((pk for pk in ids if pk is not None), default=0) for ids in found
    )
    return Mark(player=player, membership=membership, change=change, club=club)


# --- the event ---------------------------------------------------------------------------


def upsert_event(results: ResultsFile, known: bool | None = None) -> tuple[Event, dict[str, Any]]:
    """The file's event, created or brought up to date, and its row as it was before
    (empty for a new event), for the audit entry. ``known`` False: the caller found no
    such event on record, under the lock it still holds (None: look)."""
    details = results.event
    control = details.time_control or TimeControl()
    assessed = rate_of_play(control)
    found = _event_on_record(details.code) if known is not False else None
    event = found or Event(code=details.code)
    before = snapshot(event, EVENT_FIELDS) if event.pk else {}
    if not event.pk:
        event.kind = _guess_kind(results)
    event.name = details.name
    event.start_date, event.end_date = event_dates(details)
    event.rate = assessed.value if isinstance(assessed, Rate) else PlayRate.NONE
    event.not_graded_reason = "" if isinstance(assessed, Rate) else assessed.value
    event.environment = control.environment
    store_time_control(event, control)
    event.officer_name = details.results_officer
    event.status = Event.Status.RECEIVED
    if event.pk:  # a registered event (the demo's 4,600): what a file sets, by one UPDATE
        event.updated_at = timezone.now()
        update_one(Event, event.pk, {name: getattr(event, name) for name in _FILE_SETS})
    else:
        insert_instances([event])  # a season's 1,500 new events: no ORM statement each
    return event, before


# What upsert_event sets of an event on record from its file, and the time it was changed.
_FILE_SETS = (
    "name",
    "start_date",
    "end_date",
    "rate",
    "not_graded_reason",
    "environment",
    *CONTROL_FIELDS,  # store_time_control's
    "officer_name",
    "status",
    "updated_at",
)


# What upsert_event reads of an event on record, in the model's order (``from_db``'s):
# the rest of its row is set from the file.
_ON_RECORD = [f for f in Event._meta.concrete_fields if f.name in {"id", "code", *EVENT_FIELDS}]


def _event_on_record(code: str) -> Event | None:
    """The event ``code`` on record, its columns but those of ``_ON_RECORD`` deferred
    (read if ever asked for), by one plain statement: most files' events are new, and
    for the demo's 4,600 registered ones the ORM's ``get`` was a twentieth of an import
    (issue 25). None when there is none."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _ON_RECORD)
    table, where = quote(Event._meta.db_table), quote(Event._meta.get_field("code").column)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {table} WHERE {where} = %s", [code])
        row = cursor.fetchone()
    if row is None:
        return None
    return Event.from_db(connection.alias, [field.attname for field in _ON_RECORD], row)


def event_dates(details: EventDetails) -> tuple[date, date]:
    end = details.final_result_date or details.event_date
    start = details.event_date or end
    assert start is not None and end is not None  # mandatory fields, checked by the reader
    return start, end


def _guess_kind(results: ResultsFile) -> str:
    kinds = {part.kind for part in results.parts}
    only = kinds.pop() if len(kinds) == 1 else None
    return str(_KIND[only]) if only in _KIND else str(Event.Kind.OTHER)


def store_time_control(event: Event, control: TimeControl) -> None:
    """Keep the file's own combination: (a) minutes for game, (b)/(c) sessions."""
    sessions = control.sessions
    whole = len(sessions) == 1 and sessions[0].moves is None
    event.minutes_for_game = _whole(sessions[0].minutes) if whole else None
    first = sessions[0] if sessions and not whole else None
    second = sessions[1] if len(sessions) > 1 else None
    event.moves_first_session = first.moves if first else None
    event.minutes_first_session = _whole(first.minutes) if first else None
    event.moves_second_session = second.moves if second else None
    event.minutes_second_session = _whole(second.minutes) if second else None
    event.minutes_rest_of_game = _whole(control.rest_minutes) if control.rest_minutes else None
    event.seconds_per_move = _whole(control.increment_seconds) or None


def _whole(value: float) -> int:
    return round(value)


def supersede(event_code: str) -> int:
    """A higher submission index replaces every earlier result; the files stay on record."""
    games_on_record()  # an earlier file of the event may be of this very turn
    earlier = Submission.objects.filter(event_code=event_code, status=Submission.Status.ACCEPTED)
    replaced = Game.objects.filter(submission__in=earlier).exclude(not_graded_reason="superseded")
    count = replaced.update(graded=False, not_graded_reason="superseded")
    close_superseded(earlier)  # their open cases close themselves (issue 24, case 3)
    earlier.update(status=Submission.Status.SUPERSEDED)
    return count


# --- clubs and players ----------------------------------------------------------------


def clubs_of(entries: tuple[PlayerEntry, ...], cache: RegistryCache) -> dict[int, int]:
    """PIN -> club id: by CLUB CODE, else by CLUB NAME, created when new (with county)."""
    return cache.clubs(
        (entry.pin, code, entry.club_name, entry.club_county.strip())
        for entry in entries
        if (code := club_code(entry)) or entry.club_name.strip()
    )


def club_code(entry: PlayerEntry) -> str:
    """The CLUB CODE when it has the registry's four characters; else the file was warned
    (bad-club-code) and the club is found by its name."""
    code = entry.club_code.strip()
    return code if len(code) == Club._meta.get_field("code").max_length else ""


@dataclass(frozen=True)
class _Placed:
    ids: dict[int, int]  # PIN -> player id, for every identified or new player
    linked: int
    new_players: tuple[NewPlayer, ...]
    records: list[PlayerRecord]  # the new players, for the batch's index


def place_players(plan: Plan, clubs: dict[int, int], cache: RegistryCache) -> _Placed:
    """Link the identified players; create the new ones, with the code each is owed (G28)."""
    linked = {
        pin: d.player_id
        for pin, d in plan.decisions.items()
        if d.kind is DecisionKind.LINK and d.player_id is not None
    }
    new = _new_players(plan)
    insert_new_players([player for _, player, _ in new])
    records = []
    for pin, player, _ in new:
        club = cache.club_names.get(clubs.get(pin, -1), ("", ""))
        records.append(record_of(player, *club))
    assert plan.results is not None
    entries = plan.results.players_by_pin()
    told = tuple(
        NewPlayer(pin, entries[pin].full_name, player.ref, given) for pin, player, given in new
    )
    ids = {**linked, **{pin: player.id for pin, player, _ in new}}
    return _Placed(ids, len(linked), told, records)


_NewPlayer = tuple[int, Player, bool]  # PIN, unsaved record, whether the file gave the code


def _new_players(plan: Plan) -> list[_NewPlayer]:
    fresh = [pin for pin, d in plan.decisions.items() if d.kind is DecisionKind.CREATE_NEW]
    codes = iter(issue_codes(len(fresh))) if fresh else iter(())
    new = []
    for pin, decision in plan.decisions.items():
        if decision.kind is DecisionKind.CREATE_WITH_CODE and decision.code is not None:
            new.append((pin, plan.details[pin].new_player(decision.code.number), True))
        elif decision.kind is DecisionKind.CREATE_NEW:
            new.append((pin, plan.details[pin].new_player(next(codes).number), False))
    return new


def queue_pending(plan: Plan, submission: Submission) -> dict[int, PendingIdentification]:
    """Doubtful identities wait in the queue with their candidates and scores."""
    assert plan.results is not None
    entries = plan.results.players_by_pin()
    rows = {
        pin: _pending_row(submission, entries[pin], plan.details[pin], decision.candidates)
        for pin, decision in plan.decisions.items()
        if decision.kind is DecisionKind.PENDING
    }
    insert_instances(list(rows.values()))
    return rows


def _pending_row(
    submission: Submission,
    entry: PlayerEntry,
    details: PlayerDetails,
    candidates: tuple[tuple[int, int], ...],
) -> PendingIdentification:
    """The case keeps the normalised details, from which a decision may create the player."""
    return PendingIdentification(
        submission=submission,
        pin=entry.pin,
        name=entry.full_name[:_CASE_NAME],  # shown to whoever decides; the details are whole
        surname=details.surname,
        forenames=details.forenames,
        sex=details.sex,
        date_of_birth=details.date_of_birth,
        code_text=entry.code_text[:_CASE_CODE],  # a code the reader accepted, or none
        club_code=club_code(entry),
        club_name=entry.club_name.strip(),
        fide_no=str(details.fide_id or ""),
        membership_no=details.membership_no,
        candidates=[{"player_id": pid, "score": score} for pid, score in candidates],
    )


# --- games ----------------------------------------------------------------------------


class GameRow(NamedTuple):
    """One row of registry_game; the fields are its columns, in the order written."""

    event_id: int
    submission_id: int
    player1_id: int | None
    player2_id: int | None
    pending1_id: int | None
    pending2_id: int | None
    result: str
    game_date: date
    # The two flags as 1 or 0: sqlite3 binds an int as it is, a bool through an adapter
    # (the backend's; 0.20 s for 400,000 values against 0.13, a season's flags, issue 25).
    # Both databases store them as their boolean columns' true and false.
    date_given: int
    round: int | None
    board: int | None
    part_kind: str
    part_name: str
    colour: str
    rate: str
    graded: int
    not_graded_reason: str
    line: int
    sequence: int
    comment: str

    @property
    def waits(self) -> bool:
        """Graded once the queue decides who one of its players is."""
        return self.pending1_id is not None or self.pending2_id is not None


def write_games(
    results: ResultsFile,
    event: Event,
    submission: Submission,
    players: dict[int, int],
    pending: dict[int, PendingIdentification],
) -> list[GameRow]:
    """Every game of the file, a row each, in one loop without a call a game: a season's
    200,000 games come through here (issue 25)."""
    parts = results.parts
    sequence = reserve_game_sequence(sum(len(part.games) for part in parts))
    waiting = {pin: row.id for pin, row in pending.items()}
    reason = str(event.not_graded_reason)  # G1, G2: the event's reason first
    default = NotGraded.DEFAULT.value  # then defaults
    event_id, submission_id, rate, last_day = event.id, submission.id, event.rate, event.end_date
    made = tuple.__new__  # a GameRow without its constructor's frame: 200,000 a season
    texts, graded = RESULT_TEXT, GRADED_RESULTS  # looked up, not asked of each code
    rows: list[GameRow] = []
    number = sequence.start - 1
    colours = _COLOUR
    for part in parts:  # a part's games together: its kind and name taken once
        kind, part_name = _PART[part.kind], part.name[:_PART_NAME]
        # Each game's fields as a row (results_model.rows_of): as sent, for a file read
        # ahead, and unpacked at once rather than read attribute by attribute.
        for pin1, score, pin2, colour, day, board, round_, comment, line in rows_of(part.games):
            not_graded = reason or ("" if score in graded else default)
            number += 1
            rows.append(
                made(
                    GameRow,
                    (
                        event_id,
                        submission_id,
                        players.get(pin1),
                        players.get(pin2),
                        waiting.get(pin1),
                        waiting.get(pin2),
                        texts[score],
                        day or last_day,  # G3
                        0 if day is None else 1,
                        round_,
                        board,
                        kind,
                        part_name,
                        colours[colour],
                        rate,
                        0 if not_graded else 1,
                        not_graded,
                        line,
                        number,
                        comment[:_COMMENT],
                    ),
                )
            )
    assert number == sequence.stop - 1  # every number reserved given, in order
    together = _WAITING.get()
    if together is None:
        insert_rows(Game, GameRow._fields, rows)
    else:
        together.add(rows)
    return rows


class _GamesWaiting:
    """A turn's games, written together at its end (``games_together``), and what no
    one else reads meanwhile: its files' audit entries, the seasons and dates of birth
    they learnt of players on record, and the notes of those players for other importers
    (one statement a turn for each, not one a file). ``noted`` hears the highest id of
    the notes each time some are written: the importer's view, which must not take its
    own notes for another's and read those players again from rows that lack what the
    turn's later files learnt and left waiting (a file rejected later in the turn brings
    the view up to date)."""

    def __init__(self, noted: Callable[[int], None] | None = None) -> None:
        self.rows: list[GameRow] = []
        self.pairs: set[tuple[int, int]] = set()  # their players on record, lower id first
        self.audited: list[AuditLog] = []
        # (model, columns) -> rows to update by id, in the order given (update_rows)
        self.updates: dict[tuple[type[models.Model], tuple[str, ...]], list[Any]] = {}
        self.changed: list[int] = []  # players to note as changed in place
        self.noted = noted

    def add(self, rows: list[GameRow]) -> None:
        self.rows += rows
        self.pairs.update(
            (one, two) if one < two else (two, one)
            for one, two in ((row.player1_id, row.player2_id) for row in rows)
            if one is not None and two is not None
        )

    def write(self) -> None:
        rows, self.rows, self.pairs = self.rows, [], set()
        audited, self.audited = self.audited, []
        updates, self.updates = self.updates, {}
        changed, self.changed = self.changed, []
        for (model, columns), values in updates.items():
            update_rows(model, columns, values)
        highest = note_changed(changed)
        if highest and self.noted is not None:
            self.noted(highest)
        if rows:
            insert_rows(Game, GameRow._fields, rows)
        if audited:
            insert_instances(audited)


_WAITING: ContextVar[_GamesWaiting | None] = ContextVar("games_waiting", default=None)


@contextmanager
def games_together(noted: Callable[[int], None] | None = None) -> Iterator[_GamesWaiting]:
    """The games of every file written inside wait, with its audit entry, to be
    inserted together by the caller (``write()`` of what it yields) before it ends;
    should anything raise first, none are. A season's games went in three statements a
    file, between the file's other rows; a turn's together, the time of their statements
    fell from 2.5-2.8 to 1.6-1.8 s (issue 25, measured; the import as a whole moved
    less, docs/benchmarks.md). Within, whatever reads or changes the games on record
    writes those waiting first: ``games_asked`` (the games between players, when some
    of those waiting are between two of them) and ``games_on_record`` (all of them). A
    row the database refuses is refused when they are written, of no one file: the
    caller then writes the files again one by one, each with its own games. ``noted``
    hears the highest id of the notes of players changed each time some are written."""
    waiting = _GamesWaiting(noted)
    token = _WAITING.set(waiting)
    try:
        yield waiting
    finally:
        _WAITING.reset(token)


def audit(entry: AuditLog) -> None:
    """An import's audit entry (``AuditLog.entry``) written now, or, in a turn
    (``games_together``), with its games at its end: a turn's entries then keep the
    order of its files, whether accepted or rejected."""
    together = _WAITING.get()
    if together is None:
        insert_instances([entry])
    else:
        together.audited.append(entry)


def updated(model: type[models.Model], columns: tuple[str, ...], rows: Sequence[Any]) -> None:
    """Rows of ``model`` updated by id (``update_rows``) now, or, in a turn
    (``games_together``), with its games: what a file learns of players on record (a
    season, a date of birth) is read by no one else before the turn ends, and the
    importer has it in its view already."""
    together = _WAITING.get()
    if together is None:
        update_rows(model, columns, rows)
    elif rows:
        together.updates.setdefault((model, columns), []).extend(rows)


def _noted(player_ids: list[int]) -> int:
    """``note_changed`` now, or, in a turn, with its games (0: the highest id of the
    notes is then told when they are written, ``_GamesWaiting.noted``)."""
    together = _WAITING.get()
    if together is None:
        return note_changed(player_ids)
    together.changed += player_ids
    return 0


def games_asked(pairs: Iterable[tuple[int, int]]) -> None:
    """Before games between these pairs of players (lower id first) are read: those
    waiting between any of them written."""
    waiting = _WAITING.get()
    if waiting is not None and waiting.pairs and not waiting.pairs.isdisjoint(pairs):
        waiting.write()


def games_on_record() -> None:
    """Before the games on record are read or changed at large: those waiting written."""
    waiting = _WAITING.get()
    if waiting is not None:
        waiting.write()


def _tally(rows: list[GameRow]) -> tuple[dict[str, int], dict[str, int], int]:
    """Games graded per rate, not graded per reason, and graded but waiting (the queue)."""
    graded: Counter[str] = Counter()
    not_graded: Counter[str] = Counter()
    waiting = 0
    for row in rows:  # one pass: a season's every game comes through here
        if not row.graded:
            not_graded[row.not_graded_reason] += 1
        elif row.pending1_id is not None or row.pending2_id is not None:  # GameRow.waits
            waiting += 1
        else:
            graded[row.rate] += 1
    return dict(graded), dict(not_graded), waiting


def _written(
    event: Event,
    superseded: int,
    placed: _Placed,
    pending: dict[int, PendingIdentification],
    games: list[GameRow],
    names: Mapping[int, tuple[str, str]],
) -> Written:
    graded, not_graded, waiting = _tally(games)
    return Written(
        event.id,
        event.code,
        superseded_games=superseded,
        graded=graded,
        not_graded=not_graded,
        waiting=waiting,
        linked=placed.linked,
        new_players=placed.new_players,
        pending=_waiting_players(pending, games, names),
    )


def _waiting_players(
    pending: dict[int, PendingIdentification],
    rows: list[GameRow],
    names: Mapping[int, tuple[str, str]],
) -> tuple[WaitingPlayer, ...]:
    if not pending:
        return ()  # most files: no pass over their games
    games = Counter(r.pending1_id for r in rows) + Counter(r.pending2_id for r in rows)
    wanted = {c["player_id"] for row in pending.values() for c in row.candidates}
    known = {pid: names[pid] for pid in wanted if pid in names}
    known.update(_candidate_names(wanted - set(known)))
    return tuple(
        WaitingPlayer(pin, row.name, games[row.id], _candidates(row, known))
        for pin, row in sorted(pending.items())
    )


def _candidates(
    row: PendingIdentification, known: dict[int, tuple[str, str]]
) -> tuple[Candidate, ...]:
    return tuple(
        Candidate(c["player_id"], *known.get(c["player_id"], ("?", "?")), c["score"])
        for c in row.candidates
    )


def _candidate_names(ids: set[int]) -> dict[int, tuple[str, str]]:
    if not ids:
        return {}
    return {p.id: (p.ref, p.name) for p in Player.objects.filter(id__in=ids)}
