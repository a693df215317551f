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

from ecfgrading.engine.types import ResultCode
from ecfgrading.errors import NotFound
from ecfgrading.lookups.profiles import Profile, profiles
from ecfgrading.registry.models import Game, PendingIdentification, Player


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
    games: int  # games waiting on the decision
    candidates: tuple[Candidate, ...]  # as the matcher ranked them


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

    @property
    def is_open(self) -> bool:
        return self.status == PendingIdentification.Status.OPEN


def open_cases() -> QuerySet[PendingIdentification]:
    """Open cases with the number of games waiting on each, oldest first."""
    return (
        PendingIdentification.objects.filter(status=PendingIdentification.Status.OPEN)
        .select_related("submission")
        .annotate(
            games=Count("games_as_player1", distinct=True)
            + Count("games_as_player2", distinct=True)
        )
        .order_by("submission__received_at", "pin")
    )


def open_case_list() -> list[OpenCase]:
    """Open cases, oldest first, with their candidates' codes and names."""
    cases = list(open_cases())
    ids = {c["player_id"] for case in cases for c in case.candidates}
    known = {p.id: p for p in Player.objects.filter(id__in=ids)}
    return [_open_case_view(case, known) for case in cases]


def _open_case_view(case: PendingIdentification, known: dict[int, Player]) -> OpenCase:
    return OpenCase(
        id=case.id,
        name=case.name,
        pin=case.pin,
        club=case.club_name or case.club_code,
        source=source(case),
        games=case.games,  # type: ignore[attr-defined]  # annotated by open_cases
        candidates=tuple(_candidates(case.candidates, known)),
    )


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
    )


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
