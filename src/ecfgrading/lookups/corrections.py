"""Games as the grading team corrects them (issue 24, case 2): one game with both sides,
a player's games on record, and the games a query is about. Back-office reads; the
corrections themselves are ``services.team.corrections``.

A game replaced by a later submission of its event is no longer on record as a result
(its event's page leaves it out): it is not listed and cannot be corrected. A game the
team removed is listed, marked, and cannot be corrected again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from ecfgrading.errors import NotFound
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import (
    ClubMembership,
    Feedback,
    Game,
    NotGradedReason,
    Player,
    Result,
)

MAX_GAMES = 200  # a player's games listed for correction, latest first
_RESULTS = dict(Result.choices)
_REASONS = dict(NotGradedReason.choices)
_FINAL = (NotGradedReason.SUPERSEDED, NotGradedReason.REMOVED)  # no correction after these
# A player's details the team corrects (services.team.corrections), in the order it names them.
DETAIL_FIELDS = (
    "surname",
    "forenames",
    "sex",
    "date_of_birth",
    "fide_id",
    "membership_no",
    "nation",
)


@dataclass(frozen=True)
class SideShown:
    """One side of a game: a player on record, or a name still being identified."""

    code: str  # "" while the side waits in the identification queue
    name: str

    @property
    def text(self) -> str:
        return f"{self.name} ({self.code})" if self.code else f"{self.name} (being identified)"


@dataclass(frozen=True)
class GameShown:
    id: int
    date: dt.date
    event_code: str
    event_name: str
    part: str  # the section or match the results file put it in
    round: int | None
    board: int | None
    first: SideShown  # player 1: the result is from his side
    second: SideShown
    result: str  # "10", "01", "55", "1d", "d1", "dd"
    result_label: str  # "1-0", "½-½", "1-0 by default"...
    rate: str  # standard, rapid, or none
    graded: bool
    reason: str  # why not graded, in words ("" when graded)
    correctable: bool  # False once removed

    @property
    def where(self) -> str:
        """'Spring Congress (CG1234), round 3, 10 October 2015'."""
        round_ = f", round {self.round}" if self.round else ""
        return f"{self.event_name} ({self.event_code}){round_}, {_day(self.date)}"

    @property
    def title(self) -> str:
        return f"{self.first.text} v {self.second.text}, {self.where}"


def game_shown(game_id: int) -> GameShown:
    """One game on record (a superseded one is not): NotFound otherwise."""
    found = _on_record().filter(id=game_id).first()
    if found is None:
        raise NotFound(f"expected the number of a game on record, got {game_id}")
    return shown(found)


def player_games(player: Player, *, limit: int = MAX_GAMES) -> list[GameShown]:
    """His games on record (and those of records merged into him), latest first."""
    records = Survivors().records(player.id)
    games = _on_record().filter(Q(player1_id__in=records) | Q(player2_id__in=records))
    return [shown(g) for g in games.order_by("-game_date", "-sequence")[:limit]]


def query_games(feedback: Feedback) -> list[GameShown]:
    """The games of the player a query names, those of the event it names first-hand
    when its words name one (by code or name); all his games otherwise."""
    if feedback.player is None:
        return []
    games = player_games(feedback.player.surviving())
    named = [g for g in games if _names(feedback.event, g)]
    return named or games


@dataclass(frozen=True)
class DetailsShown:
    """A player's details as the correction form starts from them (private included)."""

    code: str
    name: str
    initial: dict[str, Any]  # the form's fields as on record
    memberships: tuple[tuple[int, str], ...]  # his current memberships: id, club


def player_details(player: Player) -> DetailsShown:
    initial = {name: getattr(player, name) for name in DETAIL_FIELDS}
    current = (
        ClubMembership.objects.filter(player=player, ended_on__isnull=True)
        .select_related("club")
        .order_by("-last_season", "club__name")
    )
    memberships = tuple(
        (m.id, f"{m.club} ({m.first_season}-{m.last_season})" if m.club else "") for m in current
    )
    return DetailsShown(player.ref, player.name, initial, memberships)


def shown(game: Game) -> GameShown:
    """A game read with its event and sides (select_related by the caller)."""
    reason = str(game.not_graded_reason)
    return GameShown(
        id=game.id,
        date=game.game_date,
        event_code=game.event.code,
        event_name=game.event.name,
        part=game.part_name,
        round=game.round,
        board=game.board,
        first=_side(game.player1, game.pending1),
        second=_side(game.player2, game.pending2),
        result=game.result,
        result_label=_RESULTS.get(game.result, game.result),
        rate=game.rate,
        graded=game.graded,
        reason=_REASONS.get(reason, reason) if reason else "",
        correctable=reason not in _FINAL,
    )


def _on_record() -> QuerySet[Game]:
    return Game.objects.exclude(not_graded_reason=NotGradedReason.SUPERSEDED).select_related(
        "event", "player1", "player2", "pending1", "pending2"
    )


def _side(player: Player | None, pending: object) -> SideShown:
    if player is not None:
        return SideShown(player.ref, player.name)
    return SideShown("", str(getattr(pending, "name", "")))


def _names(words: str, game: GameShown) -> bool:
    """Whether a sender's words name the game's event, by its code or its name."""
    text = words.strip().casefold()
    if not text:
        return False
    code, name = game.event_code.casefold(), game.event_name.casefold()
    return code in text or name in text or text in name


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"
