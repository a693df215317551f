"""Writing an accepted results file: one transaction, bulk statements, no query per game."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ecfgrading.engine.rateplay import TimeControl, rate_of_play
from ecfgrading.engine.types import NotGraded, Rate
from ecfgrading.formats.results_model import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
)
from ecfgrading.matching.identify import Decision, DecisionKind, PlayerRecord
from ecfgrading.registry.models import (
    AuditLog,
    Event,
    Game,
    PendingIdentification,
    Player,
    PlayRate,
    Submission,
)
from ecfgrading.registry.numbering import issue_codes, reserve_game_sequence
from ecfgrading.services.bulk import insert_rows
from ecfgrading.services.results.feedback import Candidate, Feedback, NewPlayer, WaitingPlayer
from ecfgrading.services.results.records import record_of
from ecfgrading.services.results.registry_cache import RegistryCache


@dataclass
class Plan:
    """A file read, checked and identified, ready to write (or to reject)."""

    results: ResultsFile | None
    feedback: Feedback
    decisions: dict[int, Decision] = field(default_factory=dict)


_PART = {PartKind.MATCH: "match", PartKind.SECTION: "section", PartKind.OTHER: "other"}
_KIND = {PartKind.MATCH: Event.Kind.LEAGUE, PartKind.SECTION: Event.Kind.CONGRESS}
_COLOUR = {Colour.WHITE: "W", Colour.BLACK: "B", None: ""}


def write_plan(
    plan: Plan, submission: Submission, cache: RegistryCache, *, user: Any, actor: str
) -> list[PlayerRecord]:
    """Write everything of an accepted file; returns the players it put on record."""
    results, feedback = plan.results, plan.feedback
    assert results is not None  # only files that read are written
    event = upsert_event(results)
    feedback.superseded_games = supersede(event.code)
    clubs = clubs_of(results.players, cache)
    players, created = place_players(plan, clubs, cache)
    pending = queue_pending(plan, submission, players)
    pairs = {(players[pin], club) for pin, club in clubs.items() if pin in players}
    cache.note_memberships(pairs, _season(event.end_date))
    cache.note_births(
        {
            players[e.pin]: e.date_of_birth
            for e in results.players
            if e.date_of_birth and e.pin in players
        }
    )
    write_games(results, event, submission, players, pending, feedback)
    _accept(submission, event, feedback)
    AuditLog.record(
        "import results",
        submission,
        user=user,
        actor=actor or "import",
        event=event.code,
        games=sum(feedback.graded.values()),
    )
    return created


# --- the event ---------------------------------------------------------------------------


def upsert_event(results: ResultsFile) -> Event:
    details = results.event
    control = details.time_control or TimeControl()
    assessed = rate_of_play(control)
    event = Event.objects.filter(code=details.code).first() or Event(code=details.code)
    if not event.pk:
        event.kind = _guess_kind(results)
    event.name = details.name
    event.start_date, event.end_date = _event_dates(details)
    event.rate = assessed.value if isinstance(assessed, Rate) else PlayRate.NONE
    event.not_graded_reason = "" if isinstance(assessed, Rate) else assessed.value
    event.environment = control.environment
    _store_time_control(event, control)
    event.officer_name = details.results_officer
    event.status = Event.Status.RECEIVED
    event.save()
    return event


def _event_dates(details: EventDetails) -> tuple[date, date]:
    end = details.final_result_date or details.event_date
    start = details.event_date or end
    assert start is not None and end is not None  # mandatory fields, checked by the reader
    return start, end


def _guess_kind(results: ResultsFile) -> str:
    kinds = {part.kind for part in results.parts}
    only = kinds.pop() if len(kinds) == 1 else None
    return str(_KIND[only]) if only in _KIND else str(Event.Kind.OTHER)


def _store_time_control(event: Event, control: TimeControl) -> None:
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
    earlier = Submission.objects.filter(event_code=event_code, status=Submission.Status.ACCEPTED)
    replaced = Game.objects.filter(submission__in=earlier).exclude(not_graded_reason="superseded")
    count = replaced.update(graded=False, not_graded_reason="superseded")
    earlier.update(status=Submission.Status.SUPERSEDED)
    return count


def _accept(submission: Submission, event: Event, feedback: Feedback) -> None:
    feedback.accepted = True
    submission.event = event
    submission.event_code = event.code
    submission.submission_index = feedback.submission_index
    submission.status = Submission.Status.ACCEPTED
    submission.report = feedback.as_dict()
    submission.save(update_fields=["event", "event_code", "submission_index", "status", "report"])


# --- clubs and players ----------------------------------------------------------------


def clubs_of(entries: tuple[PlayerEntry, ...], cache: RegistryCache) -> dict[int, int]:
    """PIN -> club id: by CLUB CODE, else by CLUB NAME, created when new (with county)."""
    return {
        entry.pin: cache.club(entry.club_code, entry.club_name, entry.club_county.strip())
        for entry in entries
        if entry.club_code.strip() or entry.club_name.strip()
    }


def place_players(
    plan: Plan, clubs: dict[int, int], cache: RegistryCache
) -> tuple[dict[int, int], list[PlayerRecord]]:
    """PIN -> player id for every identified or new player; the new ones as records."""
    assert plan.results is not None
    entries = plan.results.players_by_pin()
    players: dict[int, int] = {}
    new: list[tuple[PlayerEntry, Player, bool]] = []
    fresh = [pin for pin, d in plan.decisions.items() if d.kind is DecisionKind.CREATE_NEW]
    codes = iter(issue_codes(len(fresh))) if fresh else iter(())
    for pin, decision in plan.decisions.items():
        if decision.kind is DecisionKind.LINK and decision.player_id is not None:
            players[pin] = decision.player_id
            plan.feedback.linked += 1
        elif decision.kind is DecisionKind.CREATE_WITH_CODE and decision.code is not None:
            new.append((entries[pin], _new_player(entries[pin], decision.code.number), True))
        elif decision.kind is DecisionKind.CREATE_NEW:
            new.append((entries[pin], _new_player(entries[pin], next(codes).number), False))
    Player.objects.bulk_create([player for _, player, _ in new])
    _saved_ids(new)
    records = []
    for entry, player, was_given in new:
        players[entry.pin] = player.id
        plan.feedback.new_players.append(
            NewPlayer(entry.pin, entry.full_name, player.ref, was_given)
        )
        club_code, club_name = cache.club_names.get(clubs.get(entry.pin, -1), ("", ""))
        records.append(record_of(player, club_code, club_name))
    return players, records


def _saved_ids(new: list[tuple[PlayerEntry, Player, bool]]) -> None:
    """bulk_create sets ids on PostgreSQL and SQLite; fetch them where a backend does not."""
    missing = [player for _, player, _ in new if player.id is None]
    if missing:
        ids = dict(
            Player.objects.filter(code__in=[p.code for p in missing]).values_list("code", "id")
        )
        for player in missing:
            player.id = ids[player.code]


def _new_player(entry: PlayerEntry, code: int) -> Player:
    surname, forenames = split_name(entry)
    return Player(
        code=code,
        surname=surname,
        forenames=forenames,
        sex=entry.gender.upper() if entry.gender.upper() in ("M", "F") else "",
        date_of_birth=entry.date_of_birth,
        fide_id=fide_id(entry.fide_no),
        membership_no=entry.membership_no[:20],
    )


def split_name(entry: PlayerEntry) -> tuple[str, str]:
    """'Surname, Forenames' or the older SURNAME / FORENAME / INITIALS fields."""
    if entry.name:
        surname, _, forenames = entry.name.partition(",")
    else:
        surname = entry.surname
        forenames = " ".join(part for part in (entry.forename, entry.initials) if part)
    return surname.strip()[:100], forenames.strip()[:100]


def fide_id(text: str) -> int | None:
    """A FIDE number as the registry keeps it; anything else is not one."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None


def queue_pending(
    plan: Plan, submission: Submission, players: dict[int, int]
) -> dict[int, PendingIdentification]:
    """Doubtful identities wait in the queue with their candidates and scores."""
    assert plan.results is not None
    entries = plan.results.players_by_pin()
    rows = {
        pin: _pending_row(submission, entries[pin], decision.candidates)
        for pin, decision in plan.decisions.items()
        if decision.kind is DecisionKind.PENDING
    }
    PendingIdentification.objects.bulk_create(rows.values())
    if any(row.id is None for row in rows.values()):
        ids = dict(submission.pending_identifications.values_list("pin", "id"))
        for pin, row in rows.items():
            row.id = ids[pin]
    return rows


def _pending_row(
    submission: Submission, entry: PlayerEntry, candidates: tuple[tuple[int, int], ...]
) -> PendingIdentification:
    surname, forenames = split_name(entry)
    return PendingIdentification(
        submission=submission,
        pin=entry.pin,
        name=entry.full_name[:200],
        surname=surname[:100],
        forenames=forenames[:100],
        sex=entry.gender[:1].upper(),
        date_of_birth=entry.date_of_birth,
        code_text=entry.code_text[:20],
        club_code=entry.club_code[:10],
        club_name=entry.club_name[:100],
        fide_no=entry.fide_no[:20],
        membership_no=entry.membership_no[:20],
        candidates=[{"player_id": pid, "score": score} for pid, score in candidates],
    )


def _season(day: date) -> int:
    """The season (1 June .. 31 May) by the year it ends."""
    return day.year + 1 if day.month >= 6 else day.year


# --- games ----------------------------------------------------------------------------


_GAME_COLUMNS = (
    "event_id", "submission_id", "player1_id", "player2_id", "pending1_id", "pending2_id",
    "result", "game_date", "date_given", "round", "board", "part_kind", "part_name", "colour",
    "rate", "graded", "not_graded_reason", "line", "sequence", "comment",
)  # fmt: skip


def write_games(
    results: ResultsFile,
    event: Event,
    submission: Submission,
    players: dict[int, int],
    pending: dict[int, PendingIdentification],
    feedback: Feedback,
) -> None:
    games = list(results.games())
    sequence = iter(reserve_game_sequence(len(games)))
    waiting = {pin: row.id for pin, row in pending.items()}
    rows = [
        _game_row(
            part.kind, part.name, game, event, submission.id, players, waiting, next(sequence)
        )
        for part, game in games
    ]
    insert_rows(Game, _GAME_COLUMNS, rows)
    _count(rows, feedback)
    _waiting_players(pending, rows, feedback)


def _game_row(
    kind: PartKind,
    part_name: str,
    game: GameResult,
    event: Event,
    submission_id: int,
    players: dict[int, int],
    waiting: dict[int, int],
    sequence: int,
) -> tuple[Any, ...]:
    """One row in _GAME_COLUMNS order."""
    reason = _not_graded(game, event)
    return (
        event.id,
        submission_id,
        players.get(game.pin1),
        players.get(game.pin2),
        waiting.get(game.pin1),
        waiting.get(game.pin2),
        game.score.text,
        game.game_date or event.end_date,  # G3
        game.game_date is not None,
        game.round,
        game.board,
        _PART[kind],
        part_name[:200],
        _COLOUR[game.colour],
        event.rate,
        reason == "",
        reason,
        game.line,
        sequence,
        game.comment[:200],
    )


def _not_graded(game: GameResult, event: Event) -> str:
    """G1, G2: the event's reason first (lightning, online), then defaults."""
    if event.not_graded_reason:
        return str(event.not_graded_reason)
    return "" if game.score.graded else NotGraded.DEFAULT.value


_PENDING1, _PENDING2, _RATE, _GRADED, _REASON = 4, 5, 14, 15, 16  # positions in a row


def _count(rows: list[tuple[Any, ...]], feedback: Feedback) -> None:
    waits = [r[_PENDING1] is not None or r[_PENDING2] is not None for r in rows]
    pairs = list(zip(rows, waits, strict=True))
    feedback.graded = dict(Counter(r[_RATE] for r, w in pairs if r[_GRADED] and not w))
    feedback.not_graded = dict(Counter(r[_REASON] for r in rows if not r[_GRADED]))
    feedback.waiting = sum(1 for r, w in pairs if r[_GRADED] and w)


def _waiting_players(
    pending: dict[int, PendingIdentification], rows: list[tuple[Any, ...]], feedback: Feedback
) -> None:
    games = Counter(r[_PENDING1] for r in rows) + Counter(r[_PENDING2] for r in rows)
    known = _candidate_names({c["player_id"] for row in pending.values() for c in row.candidates})
    for pin, row in sorted(pending.items()):
        candidates = tuple(
            Candidate(c["player_id"], *known.get(c["player_id"], ("?", "?")), c["score"])
            for c in row.candidates
        )
        feedback.pending.append(WaitingPlayer(pin, row.name, games[row.id], candidates))


def _candidate_names(ids: set[int]) -> dict[int, tuple[str, str]]:
    return {p.id: (p.ref, p.name) for p in Player.objects.filter(id__in=ids)}
