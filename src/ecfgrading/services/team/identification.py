"""The identification queue's three decisions in the back office (link, create, merge),
each previewed before it is made; the queue and a case as shown are
``lookups.identification``.

The decisions themselves are the queue's and the merge's (services.results.queue,
services.merge.merge_players, which the CLI calls too): they audit them, and the merge
records its amendment (issue 11, item 6), since it changes grades already published
under two codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.lookups.identification import (
    case_on_record,
    same_person_cases,
    source,
    waiting,
)
from ecfgrading.registry.models import Game, PendingIdentification, Player
from ecfgrading.registry.numbering import player_on_record, resolve_code
from ecfgrading.services.errors import ErrorKind
from ecfgrading.services.merge import MergeError
from ecfgrading.services.results.queue import PendingError, resolve


@dataclass(frozen=True)
class Preview:
    """Exactly what a decision will do, shown before it is confirmed."""

    title: str
    lines: tuple[str, ...]


def preview_link(case_id: int, code: str) -> Preview:
    case, player = _open(case_id), player_on_record(code, PendingError)
    games = _waiting(case)
    lines = [
        f"The {_games(games)} waiting for {case.name} (pin {case.pin} of {source(case)}) "
        f"are given to {player.name} ({player.ref}).",
        *_club_line(case, player.name),
        *_same_person_lines(case),
        "The case is closed as linked; the next grading run counts the games.",
        _remembered_line(case, player.name),
    ]
    return Preview(f"Link {case.name} to {player.name} ({player.ref})", tuple(lines))


def preview_new(case_id: int) -> Preview:
    case = _open(case_id)
    code = _free_code(case.code_text)
    issued = (
        f"keeps the code {code} his file gave (no one holds it)"
        if code
        else "is issued the next grading code (G28)"
    )
    lines = [
        f"A new player {case.name} is put on record and {issued}.",
        f"The {_games(_waiting(case))} waiting for him are his.",
        *_club_line(case, case.name),
        *_same_person_lines(case),
        "The case is closed as a new player.",
        _remembered_line(case, "him"),
    ]
    return Preview(f"Create a new player {case.name}", tuple(lines))


def preview_merge(absorbed: str, into: str) -> Preview:
    gone, kept = player_on_record(absorbed, MergeError), player_on_record(into, MergeError)
    if gone.id == kept.id:
        raise MergeError(f"expected two different players, got {gone.ref} twice")
    games = Game.objects.filter(Q(player1=gone) | Q(player2=gone)).count()
    lines = [
        f"{gone.name} ({gone.ref}) becomes part of {kept.name} ({kept.ref}): his "
        f"{_games(games)} and his grades count for {kept.ref} from the next grading run.",
        f"The code {gone.ref} is never issued again and keeps leading to {kept.ref} (G28).",
        *_filled_in(kept, gone),
        "The merge is recorded as an amendment, shown on the public amendments page "
        "with the next version published.",
    ]
    return Preview(f"Merge {gone.ref} into {kept.ref}", tuple(lines))


def link(case_id: int, code: str, *, user: Any) -> Player:
    """Give the case's games to the player holding ``code`` (audited by the queue)."""
    return resolve(case_id, code=code, user=user)


def create(case_id: int, *, user: Any) -> Player:
    """Put the case's player on record as a new player (audited by the queue)."""
    return resolve(case_id, create=True, user=user)


def _open(case_id: int) -> PendingIdentification:
    case = case_on_record(case_id)
    if case.status != PendingIdentification.Status.OPEN:
        raise PendingError(
            f"case {case_id} was already decided ({case.status})", kind=ErrorKind.CONFLICT
        )
    return case


def _waiting(case: PendingIdentification) -> int:
    return Game.objects.filter(waiting(case)).count()


def _same_person_lines(case: PendingIdentification) -> list[str]:
    """The other open cases of the same person, decided with this one (issue 24)."""
    others = same_person_cases(case)[1:]
    if not others:
        return []
    games = sum(_waiting(one) for one in others)
    numbers = ", ".join(str(one.id) for one in others)
    return [
        f"The same person (spelling, club and event) waits in case {numbers} with "
        f"{_games(games)}: decided with this one."
    ]


def _remembered_line(case: PendingIdentification, name: str) -> str:
    event = case.submission.event.code if case.submission.event else "its event"
    club = case.club_name or case.club_code
    at = f" at {club}" if club else ""
    return (
        f"The decision is remembered: later files of {event} giving '{case.name}'{at} "
        f"come in identified as {name}, as the team decided today."
    )


def _games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def _club_line(case: PendingIdentification, name: str) -> list[str]:
    club = case.club_name or case.club_code
    return [f"The club {club} is added to {name}'s memberships."] if club else []


def _free_code(text: str) -> str:
    """The code the file gave, if well formed and held by no one (as the queue does)."""
    try:
        given = GradingCode.parse(text) if text else None
    except InvalidCode:
        return ""
    return str(given) if given is not None and resolve_code(given) is None else ""


def _filled_in(kept: Player, gone: Player) -> list[str]:
    words = {
        "date_of_birth": "date of birth",
        "fide_id": "FIDE id",
        "sex": "sex",
        "membership_no": "membership number",
    }
    taken = [
        label for name, label in words.items() if not getattr(kept, name) and getattr(gone, name)
    ]
    if not taken:
        return []
    return [f"{kept.ref} takes from {gone.ref} what his record lacks: {', '.join(taken)}."]
