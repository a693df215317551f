"""The identification queue as the grading team sees it: the open cases, oldest first,
each beside the candidates the matcher proposed, and one case with its waiting games.

The decisions (link, create, merge) and their previews are the write side's
(``services.results.queue``, ``services.team.identification``, ``services.merge``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from ecfgrading.engine.types import ResultCode
from ecfgrading.errors import NotFound
from ecfgrading.lookups.profiles import Profile, profiles
from ecfgrading.matching.names import fold_club, fold_club_code
from ecfgrading.matching.remembered import spelling_key
from ecfgrading.registry.models import Game, NameAlias, PendingIdentification, Player


class CaseNotFound(NotFound):
    """No identification case has that number."""


@dataclass(frozen=True)
class Candidate:
    player_id: int
    code: str
    name: str
    score: int


@dataclass(frozen=True)
class OpenCase:
    """An open case as the person deciding it sees it."""

    id: int
    name: str  # as the file gave it
    pin: int
    club: str  # the club name, else code, the file gave ("" for none)
    source: str  # the file it came in (its name, else the submission number)
    games: int  # games waiting on the decision (of every case of the same person)
    candidates: tuple[Candidate, ...]  # as the matcher ranked them
    # The other open cases of the same person (spelling, club, event): decided with it.
    same: tuple[int, ...] = ()


@dataclass(frozen=True)
class WaitingGame:
    """A game held back until the case is decided (the case's player as "he")."""

    date: date
    event: str
    opponent: str
    score: str  # his score: 1, ½ or 0


@dataclass(frozen=True)
class CaseDetail:
    """A case as its file gave the player, and the candidates the matcher proposed."""

    id: int
    status: str
    name: str
    pin: int
    code_text: str  # the grading code the file gave, if any
    club: str
    sex: str
    born: int | None
    fide_no: str
    source: str
    games: tuple[WaitingGame, ...]
    candidates: tuple[Profile, ...]
    scores: dict[int, int]  # candidate id -> the matcher's score
    same: tuple[int, ...] = ()  # the other open cases of the same person, decided with it

    @property
    def is_open(self) -> bool:
        return self.status == PendingIdentification.Status.OPEN


def open_cases() -> QuerySet[PendingIdentification]:
    """Open cases with the number of games waiting on each, oldest first."""
    return (
        PendingIdentification.objects.filter(status=PendingIdentification.Status.OPEN)
        .select_related("submission")
        .defer("submission__raw", "submission__report")  # a copy a case, else
        .annotate(
            games=Count("games_as_player1", distinct=True)
            + Count("games_as_player2", distinct=True)
        )
        .order_by("submission__received_at", "pin")
    )


def open_case_list() -> list[OpenCase]:
    """Open cases, oldest first, with their candidates' codes and names; the cases of one
    person (``same_person``) as one, under the oldest: the team decides them once."""
    groups: dict[tuple[object, ...], list[PendingIdentification]] = {}
    for case in open_cases():
        groups.setdefault(same_person(case), []).append(case)
    ids = {c["player_id"] for cases in groups.values() for case in cases for c in case.candidates}
    known = {p.id: p for p in Player.objects.filter(id__in=ids)}
    played = _played_each_other() if any(len(cases) > 1 for cases in groups.values()) else set()
    return [
        _open_case_view(part, known) for cases in groups.values() for part in _apart(cases, played)
    ]


def _played_each_other() -> set[frozenset[int]]:
    """Pairs of open cases with a game between them: two people, whatever their names."""
    both = Game.objects.filter(
        pending1__status=PendingIdentification.Status.OPEN,
        pending2__status=PendingIdentification.Status.OPEN,
    )
    return {frozenset(pair) for pair in both.order_by().values_list("pending1", "pending2")}


def _apart(
    cases: list[PendingIdentification], played: set[frozenset[int]]
) -> list[list[PendingIdentification]]:
    """Cases of one spelling, club and event as people: the oldest with every case that
    did not play him (as ``same_person_cases`` decides them), then the rest likewise."""
    parts = []
    while cases:
        head, *others = cases
        parts.append([head, *(one for one in others if frozenset((head.id, one.id)) not in played)])
        cases = [one for one in others if one not in parts[-1]]
    return parts


def _open_case_view(cases: list[PendingIdentification], known: dict[int, Player]) -> OpenCase:
    case = cases[0]
    return OpenCase(
        id=case.id,
        name=case.name,
        pin=case.pin,
        club=case.club_name or case.club_code,
        source=source(case),
        games=sum(one.games for one in cases),  # type: ignore[attr-defined]  # open_cases
        candidates=tuple(_candidates(case.candidates, known)),
        same=tuple(one.id for one in cases[1:]),
    )


def same_person(case: PendingIdentification) -> tuple[object, ...]:
    """What makes two cases one person for the queue (issue 24, case 3): the event, the
    file's spelling of the name and its club, folded as identification folds them. A
    case without an event (none is accepted without one) is a person of its own."""
    event = case.submission.event_id
    if event is None:
        return ("case", case.id)
    club = (fold_club_code(case.club_code), fold_club(case.club_name))
    return (event, spelling_key(case.name), *club)


def same_person_cases(case: PendingIdentification) -> list[PendingIdentification]:
    """The open cases of the same person as ``case``, itself first, oldest next; not a
    case that played him (two people of one name and club: a father and son)."""
    if case.submission.event_id is None:
        return [case]
    key = same_person(case)
    opponents = Game.objects.filter(waiting(case)).values_list("pending1", "pending2")
    played = {pk for pair in opponents for pk in pair if pk is not None}
    others = (
        PendingIdentification.objects.filter(
            status=PendingIdentification.Status.OPEN, submission__event=case.submission.event_id
        )
        .exclude(id__in={case.id, *played})
        .select_related("submission")
        .order_by("submission__received_at", "pin")
    )
    return [case, *(one for one in others if same_person(one) == key)]


def _candidates(rows: Iterable[dict[str, Any]], known: dict[int, Player]) -> Iterable[Candidate]:
    for row in rows:
        player = known.get(row["player_id"])
        code, name = (player.ref, player.name) if player else ("?", "no longer on record")
        yield Candidate(row["player_id"], code, name, row["score"])


def case_on_record(case_id: int) -> PendingIdentification:
    """A case, open or decided, with its submission; CaseNotFound when none has the id."""
    case = PendingIdentification.objects.select_related("submission").filter(id=case_id).first()
    if case is None:
        raise CaseNotFound(f"expected the number of an identification case, got {case_id}")
    return case


def case_detail(case_id: int, *, today: date) -> CaseDetail:
    """One case with its waiting games and its candidates' clubs, games and grades."""
    case = case_on_record(case_id)
    scores = {int(c["player_id"]): int(c["score"]) for c in case.candidates}
    return CaseDetail(
        id=case.id,
        status=case.status,
        name=case.name,
        pin=case.pin,
        code_text=case.code_text,
        club=case.club_name or case.club_code,
        sex=case.sex,
        born=case.date_of_birth.year if case.date_of_birth else None,
        fide_no=case.fide_no,
        source=source(case),
        games=tuple(_waiting_games(case)),
        candidates=tuple(profiles(list(scores), today=today)),
        scores=scores,
        same=tuple(one.id for one in same_person_cases(case)[1:]) if _is_open(case) else (),
    )


def _is_open(case: PendingIdentification) -> bool:
    return case.status == PendingIdentification.Status.OPEN


@dataclass(frozen=True)
class RememberedDecision:
    """A decision of the team applied to later files: a spelling at a club in an event."""

    spelling: str
    club: str  # folded, as compared ('' for none)
    event: str
    code: str
    player: str
    decision: str  # how the team decided (its label)
    decided_on: date


def remembered_decisions(limit: int = 50) -> list[RememberedDecision]:
    """The latest decisions the team's identification is remembered by, newest first."""
    rows = NameAlias.objects.select_related("event", "player").order_by("-decided_at", "-id")
    return [
        RememberedDecision(
            spelling=row.spelling,
            club=row.club_name or row.club_code,
            event=row.event.code,
            code=row.player.ref,
            player=row.player.name,
            decision=row.get_decision_display(),
            decided_on=timezone.localtime(row.decided_at).date(),
        )
        for row in rows[:limit]
    ]


def source(case: PendingIdentification) -> str:
    """The file a case came in: its name, else the submission's number."""
    return case.submission.filename or f"submission {case.submission_id}"


def waiting(case: PendingIdentification) -> Q:
    """The games waiting on a case, on either side of the board."""
    return Q(pending1=case) | Q(pending2=case)


def _waiting_games(case: PendingIdentification) -> list[WaitingGame]:
    rows = (
        Game.objects.filter(waiting(case))
        .select_related("event", "player1", "player2", "pending1", "pending2")
        .order_by("game_date", "sequence")
    )
    return [_waiting_game(case, game) for game in rows]


def _waiting_game(case: PendingIdentification, game: Game) -> WaitingGame:
    first = game.pending1_id == case.id
    other = game.player2 if first else game.player1
    pending = game.pending2 if first else game.pending1
    opponent = str(other.name) if other else f"{pending.name} (also waiting)" if pending else "?"
    score1 = ResultCode.from_text(game.result).score1  # G1: from the side of PIN1
    own = score1 if first else 1.0 - score1
    return WaitingGame(game.game_date, game.event.code, opponent, _score(own))


def _score(value: float) -> str:
    return "½" if value == 0.5 else f"{value:g}"
