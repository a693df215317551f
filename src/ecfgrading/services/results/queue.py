"""The pending-identification queue's decision: link a doubtful player to one on record,
or put him on record as new. The queue as listed is ``lookups.identification``."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.engine.periods import season_of
from ecfgrading.registry.models import AuditLog, Game, PendingIdentification, Player
from ecfgrading.registry.numbering import issue_code, player_on_record, resolve_code
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import ErrorKind, ServiceError
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.people import from_case, normalise
from ecfgrading.services.results.registry_cache import RegistryCache


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
    """Link a case to the player holding ``code``, or create a new player (G28 code)."""
    if (code is None) == (not create):
        raise PendingError(
            "expected either a grading code to link the case to or a new player, "
            "not both or neither"
        )
    with busy_as_error(f"deciding case {case_id}"), transaction.atomic():
        take_registry_lock()  # it changes who is on record: one such writer at a time
        case = _open_case(case_id)
        player = _new_player(case) if create else _player(code or "")
        _link_games(case, player)
        _join_club(case, player)
        note_changed([player.id])
        case.status = (
            PendingIdentification.Status.CREATED if create else PendingIdentification.Status.LINKED
        )
        case.resolved_player, case.resolved_by, case.resolved_at = player, user, timezone.now()
        case.save(update_fields=["status", "resolved_player", "resolved_by", "resolved_at"])
        AuditLog.record("resolve identification", case, user=user, actor=actor, player=player.ref)
    return player


def _open_case(case_id: int) -> PendingIdentification:
    case = PendingIdentification.objects.select_for_update().filter(id=case_id).first()
    if case is None:
        raise PendingError(
            f"expected the number of an open identification case, got {case_id}",
            kind=ErrorKind.NOT_FOUND,
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


def _link_games(case: PendingIdentification, player: Player) -> None:
    clash = Game.objects.filter(
        Q(pending1=case, player2=player) | Q(pending2=case, player1=player)
    ).exists()
    if clash:
        raise PendingError(
            f"{player.ref} is the opponent in this player's games: not the same",
            kind=ErrorKind.CONFLICT,
        )
    Game.objects.filter(pending1=case).update(player1=player)
    Game.objects.filter(pending2=case).update(player2=player)
