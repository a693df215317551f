"""A direct member as his own pages show him (issue 11, item 4): the member record of a
login, and the games received for grading for a list, from his side of the board; the
July list his page shows first.

A member's number, class and e-mail address are private: they appear on his own pages
and in mail to him, never on a public page. Making a member and mailing him his games
are ``services.members``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.errors import user_input
from ecfgrading.lookups.breakdown import DETAIL_COLUMNS, GameDetail, detail, opponents
from ecfgrading.lookups.records import Survivors
from ecfgrading.lookups.versions import is_published
from ecfgrading.registry.models import DirectMember, Game, ListVersion, Player
from ecfgrading.registry.models.choices import NotGradedReason


def member_of(account: Any) -> DirectMember | None:
    """The member record of a signed-in member; None while his login is linked to none
    (a state his page explains, not a refusal)."""
    return (
        DirectMember.objects.filter(user_id=getattr(account, "pk", None))
        .select_related("player")
        .first()
    )


@dataclass(frozen=True)
class ReceivedGame:
    """One game as a member's page and mail show it, from his side of the board."""

    date: dt.date
    event_code: str
    event_name: str
    rate: str
    opponent: str  # 'Surname, Forenames (123456A)', or 'being identified'
    colour: str  # white, black or ''
    score: str  # 1, ½ or 0
    received_at: dt.datetime
    not_graded: str = ""  # why the game does not count, when it does not (G1)


@dataclass(frozen=True)
class MemberGames:
    """A member's games received for one list, by rate."""

    list_id: str
    start: dt.date
    end: dt.date
    by_rate: tuple[tuple[str, tuple[ReceivedGame, ...]], ...]
    published: tuple[str, ...]  # versions of the list already published, e.g. 'initial'

    @property
    def count(self) -> int:
        return sum(len(games) for _, games in self.by_rate)


def games_received(player: Player, list_id: str) -> MemberGames:
    """The games on record for the list's latest period (P0) with the player on either
    side, from every record merged into his (G28), by date as recorded; games of
    replaced files are left out (a higher submission index replaces them)."""
    lid = _list(list_id)
    period = lid.p0()
    survivors = Survivors()
    rows = _rows(survivors.records(player.pk), period.start, period.end, survivors.final)
    names = opponents({d.opponent_of(player.pk) for d, _, _ in rows.values()})
    by_rate = tuple(
        (
            rate.value,
            tuple(
                _received(d, at, why, player.pk, names)
                for d, at, why in rows.values()
                if d.rate == rate.value
            ),
        )
        for rate in lid.rates()
    )
    published = tuple(
        name
        for name in (ListVersion.INITIAL, ListVersion.AUGUST)
        if any(is_published(lid, rate, name) for rate in lid.rates())
    )
    return MemberGames(str(lid), period.start, period.end, by_rate, published)


def _list(list_id: str) -> ListId:
    with user_input():
        return ListId.parse(list_id)


def _rows(
    records: Sequence[int], start: dt.date, end: dt.date, final: Mapping[int, int]
) -> dict[int, tuple[GameDetail, dt.datetime, str]]:
    """Game id -> (detail, when its file arrived), one query a side; ``final`` maps a
    merged record to the player it counts for (G28)."""
    found: dict[int, tuple[GameDetail, dt.datetime, str]] = {}
    for side in ("player1_id", "player2_id"):
        rows = (
            Game.objects.filter(
                **{f"{side}__in": records}, game_date__gte=start, game_date__lte=end
            )
            .exclude(not_graded_reason="superseded")
            .values_list(*DETAIL_COLUMNS, "submission__received_at", "not_graded_reason")
        )
        for row in rows:
            found[row[0]] = (detail(row[:-2], final), row[-2], str(row[-1]))
    ordered = sorted(found.items(), key=lambda item: (item[1][0].date, item[0]))
    return dict(ordered)


def _received(
    game: GameDetail, received_at: dt.datetime, why: str, player_id: int, names: dict[int, Any]
) -> ReceivedGame:
    other = game.opponent_of(player_id)
    opponent = names.get(other) if other is not None else None
    score = game.score_of(player_id)
    return ReceivedGame(
        date=game.date,
        event_code=game.event_code,
        event_name=game.event_name,
        rate=game.rate,
        opponent=f"{opponent.name} ({opponent.code})" if opponent else "being identified",
        colour=game.colour_of(player_id),
        score={1.0: "1", 0.5: "½", 0.0: "0"}.get(score, str(score)),
        received_at=received_at,
        not_graded=NotGradedReason(why).label if why else "",
    )


def default_list(today: dt.date) -> str:
    """The July list a member's page shows first: the one whose latest period holds
    ``today``'s season, or the next one after the latest published standard list."""
    season_list = _july(ListId.grading(today, Rate.STANDARD))
    latest = (
        ListVersion.objects.filter(
            status=ListVersion.Status.PUBLISHED, grading_list__rate=Rate.STANDARD.value
        )
        .order_by("-grading_list__list_id")
        .values_list("grading_list__list_id", flat=True)
        .first()
    )
    if latest is None:
        return str(season_list)
    after = _july(ListId.parse(latest).next(Rate.STANDARD))
    return str(min(after, season_list))


def _july(lid: ListId) -> ListId:
    """The July list at or after a list: memberships go by the season's July lists (G27),
    also since standard lists are half-yearly (G31)."""
    return lid if lid.has_august else lid.next()
