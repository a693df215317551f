"""The pending-identification queue's decision: link a doubtful player to one on record,
or put him on record as new. The queue as listed is ``lookups.identification``.

A decision is taken for every open case of the same person (the file's spelling, club
and event: ``lookups.identification.same_person``) and remembered for later files
(``services.results.remembered``); cases whose file is superseded close themselves.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.engine.periods import season_of
from ecfgrading.lookups.identification import same_person_cases
from ecfgrading.registry.models import (
    AuditLog,
    Game,
    NameAlias,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.registry.numbering import issue_code, player_on_record, resolve_code
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import ErrorKind, ServiceError
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.people import from_case, normalise
from ecfgrading.services.results.registry_cache import RegistryCache
from ecfgrading.services.results.remembered import remember_cases

# A case's status and how its decision is remembered (values: choices type as tuples).
_CREATED = (str(PendingIdentification.Status.CREATED), str(NameAlias.Decision.NEW))
_LINKED = (str(PendingIdentification.Status.LINKED), str(NameAlias.Decision.LINK))


class PendingError(ServiceError):
    """A decision that cannot be carried out (unknown case or player, already decided)."""


def resolve(
    case_id: int,
    *,
    code: str | None = None,
    create: bool = False,
    user: Any = None,
    actor: str = "",
) -> Player:
    """Link a case to the player holding ``code``, or create a new player (G28 code),
    with the other open cases of the same person; the decision is remembered."""
    if (code is None) == (not create):
        raise PendingError(
            "expected either a grading code to link the case to or a new player, "
            "not both or neither"
        )
    with busy_as_error(f"deciding case {case_id}"), transaction.atomic():
        take_registry_lock()  # it changes who is on record: one such writer at a time
        cases = _same_person(_open_case(case_id))
        player = _new_player(cases[0]) if create else _player(code or "")
        _link_games(cases, player)
        _join_club(cases[0], player)  # one person: one spelling, one club
        note_changed([player.id])
        status, how = _CREATED if create else _LINKED
        for case in cases:
            _close(case, status, player, user)
            AuditLog.record(
                "resolve identification", case, user=user, actor=actor, player=player.ref
            )
        remember_cases(cases, player, how, user)
    return player


def _same_person(case: PendingIdentification) -> list[PendingIdentification]:
    """The case and the other open cases of its person, locked (decided once)."""
    cases = same_person_cases(case)
    ids = [one.id for one in cases]
    locked = PendingIdentification.objects.select_for_update().filter(
        id__in=ids, status=PendingIdentification.Status.OPEN
    )
    still = set(locked.values_list("id", flat=True))
    return [one for one in cases if one.id in still or one.id == case.id]


def _close(case: PendingIdentification, status: str, player: Player, user: Any) -> None:
    case.status, case.resolved_player = status, player
    case.resolved_by, case.resolved_at = user, timezone.now()
    case.save(update_fields=["status", "resolved_player", "resolved_by", "resolved_at"])


def close_superseded(earlier: QuerySet[Submission]) -> int:
    """The open cases of submissions a later file of their event replaced close
    themselves, saying so: their games are no longer graded (issue 24, case 3)."""
    return PendingIdentification.objects.filter(
        submission__in=earlier, status=PendingIdentification.Status.OPEN
    ).update(status=PendingIdentification.Status.SUPERSEDED, resolved_at=timezone.now())


def _open_case(case_id: int) -> PendingIdentification:
    case = (
        PendingIdentification.objects.select_for_update()
        .select_related("submission")
        .filter(id=case_id)
        .first()
    )
    if case is None:
        raise PendingError(
            f"expected the number of an open identification case, got {case_id}",
            kind=ErrorKind.NOT_FOUND,
        )
    if case.status == PendingIdentification.Status.SUPERSEDED:
        raise PendingError(
            f"case {case_id} is closed: a later submission of its event replaced its file",
            kind=ErrorKind.CONFLICT,
        )
    if case.status != PendingIdentification.Status.OPEN:
        raise PendingError(
            f"case {case_id} was already decided ({case.status})", kind=ErrorKind.CONFLICT
        )
    return case


def _player(code: str) -> Player:
    return player_on_record(code, PendingError)


def _new_player(case: PendingIdentification) -> Player:
    """A new player keeps the well-formed code his file gave, if no one holds it (G28).

    The case holds details its file's import normalised and reported on; normalising
    them again gives the same record any import would.
    """
    details, _ = normalise(from_case(case))
    player = details.new_player(_code_for(case))
    player.save()
    return player


def _code_for(case: PendingIdentification) -> int:
    try:
        given = GradingCode.parse(case.code_text) if case.code_text else None
    except InvalidCode:
        given = None
    if given is not None and resolve_code(given) is None:
        return given.number  # held now, so the sequence will skip it
    return issue_code().number


def _join_club(case: PendingIdentification, player: Player) -> None:
    """The club the file gave joins the player's memberships, as an import would."""
    if not (case.club_code or case.club_name):
        return
    cache = RegistryCache.load_clubs()
    cache.load_memberships_of({player.id})
    club = cache.club(case.club_code, case.club_name, "")
    event = case.submission.event
    if event is not None:
        cache.note_memberships({(player.id, club)}, season_of(event.end_date))


def _link_games(cases: list[PendingIdentification], player: Player) -> None:
    ids = [case.id for case in cases]
    clash = Game.objects.filter(
        Q(pending1__in=ids, player2=player) | Q(pending2__in=ids, player1=player)
    ).exists()
    if clash:
        raise PendingError(
            f"{player.ref} is the opponent in this player's games: not the same",
            kind=ErrorKind.CONFLICT,
        )
    Game.objects.filter(pending1__in=ids).update(player1=player)
    Game.objects.filter(pending2__in=ids).update(player2=player)
