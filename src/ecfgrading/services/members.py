"""Direct members (issue 11, item 4): a member record linked to his player and to a login,
the games received for grading for a list, and the mailing of those games before the
July list and again before the August list (the seeds' help, f).

A member's number, class and e-mail address are private: they appear on his own pages
and in mail to him, never on a public page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.lookups.breakdown import DETAIL_COLUMNS, GameDetail, detail, opponents
from ecfgrading.lookups.records import Survivors
from ecfgrading.progress import Progress
from ecfgrading.registry.models import AuditLog, DirectMember, Game, ListVersion, Player
from ecfgrading.registry.models.choices import NotGradedReason
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.accounts import Role, create_user, has_role
from ecfgrading.services.errors import Conflict, ErrorKind, NotFound, ServiceError
from ecfgrading.services.mail import queue_mail

BEFORE = ("initial", "august")  # the two mailings of a July list (the seeds' help, f)


class MemberError(ServiceError):
    """A member record that cannot be made or found."""


# --- the member record ----------------------------------------------------------------


def create_member(
    code: str,
    number: str,
    *,
    email: str = "",
    member_class: str = "",
    username: str = "",
    password: str | None = None,
    joined_on: dt.date | None = None,
    user: Any = None,
    actor: str = "",
) -> DirectMember:
    """A direct member for the player holding ``code``, with a login in the member role
    when ``username`` is given (``accounts.create_user``)."""
    player = player_on_record(code, MemberError)
    number = number.strip()
    if not number:
        raise MemberError("expected a membership number, got nothing")
    with transaction.atomic():
        account = None
        if username:
            account = create_user(
                username,
                role=Role.MEMBER,
                email=email,
                password=password,
                first_name=player.forenames,
                last_name=player.surname,
                actor=actor,
            )
        try:
            with transaction.atomic():
                member = DirectMember.objects.create(
                    player=player,
                    number=number,
                    member_class=member_class,
                    email=email,
                    user=account,
                    joined_on=joined_on,
                )
        except IntegrityError:
            raise MemberError(
                f"expected a player and a membership number not yet a member's,"
                f" got {player.ref} and {number!r}",
                kind=ErrorKind.CONFLICT,
            ) from None
        AuditLog.record("create direct member", member, user=user, actor=actor, player=player.ref)
    return member


def link_account(member: DirectMember, account: Any, *, user: Any = None, actor: str = "") -> None:
    """Give a member record its login (one login, one member)."""
    if not has_role(account, Role.MEMBER):
        raise MemberError(f"expected a login in the member role, got {account.get_username()!r}")
    member.user = account
    try:
        with transaction.atomic():
            member.save(update_fields=["user"])
    except IntegrityError:
        raise Conflict(
            f"expected a login of no other member, got {account.get_username()!r}"
        ) from None
    AuditLog.record("link member account", member, user=user, actor=actor, account=account.pk)


def member_of(account: Any) -> DirectMember:
    """The member record of a signed-in member (NotFound when the login has none)."""
    member = (
        DirectMember.objects.filter(user_id=getattr(account, "pk", None))
        .select_related("player")
        .first()
    )
    if member is None:
        raise NotFound(
            "expected a login linked to a direct member's record, got none: ask the grading team"
        )
    return member


# --- games received for a list ----------------------------------------------------------


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
        if any(_published(lid, rate, name) for rate in lid.rates())
    )
    return MemberGames(str(lid), period.start, period.end, by_rate, published)


def _list(list_id: str) -> ListId:
    try:
        return ListId.parse(list_id)
    except ValueError as error:
        raise MemberError(str(error)) from None


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


def _published(lid: ListId, rate: Rate, name: str) -> bool:
    return ListVersion.objects.filter(
        grading_list__list_id=str(lid),
        grading_list__rate=rate.value,
        name=name,
        status=ListVersion.Status.PUBLISHED,
    ).exists()


# --- the mailing before a list -----------------------------------------------------------


@dataclass(frozen=True)
class GamesMailing:
    """What one run of the games mailing did, or would do (a dry run)."""

    list_id: str
    before: str
    queued: int  # messages queued now (or that would be)
    already: int  # members whose message for this mailing was queued before
    no_address: int  # members without an e-mail address
    recipients: tuple[str, ...]  # membership numbers mailed now (or that would be)
    dry_run: bool = False

    def to_text(self) -> str:
        verb = "would queue" if self.dry_run else "queued"
        return (
            f"games before the {self.before} {self.list_id} list: {verb} {self.queued},"
            f" {self.already} already queued before, {self.no_address} members without e-mail"
        )


def mailing_key(list_id: str, before: str, number: str) -> str:
    """One message per member and mailing, however often it is started."""
    return f"games:{list_id}:{before}:{number}"


def check_mailing(list_id: str, before: str) -> ListId:
    """The mailing before the initial list goes before it is published; the one before
    the August list after the initial list is and before the August one is (G27)."""
    lid = _list(list_id)
    if not lid.has_august:
        raise MemberError(
            f"expected a July list (members are mailed before July and August), got {lid}"
        )
    if before not in BEFORE:
        raise MemberError(f"expected --before initial or august, got {before!r}")
    initial = any(_published(lid, rate, ListVersion.INITIAL) for rate in lid.rates())
    august = any(_published(lid, rate, ListVersion.AUGUST) for rate in lid.rates())
    if before == "initial" and initial:
        raise MemberError(
            f"expected the {lid} list not yet published, got its initial version published:"
            " mail before the August list instead"
        )
    if before == "august" and (august or not initial):
        state = "its August version published" if august else "no initial version published yet"
        raise MemberError(
            f"expected the {lid} list between its initial and August versions, got {state}"
        )
    return lid


def mail_games(
    list_id: str, before: str, *, dry_run: bool = False, progress: Progress | None = None
) -> GamesMailing:
    """Queue, for every direct member with an e-mail address, his games received for the
    list (plain text and HTML), keyed so that running it again sends nothing twice."""
    lid = check_mailing(list_id, before)
    members = list(DirectMember.objects.select_related("player").order_by("number"))
    queued = already = no_address = 0
    mailed: list[str] = []
    for done, member in enumerate(members):
        if progress:
            progress(done, len(members), member.number)
        if not member.email:
            no_address += 1
            continue
        key = mailing_key(str(lid), before, member.number)
        if _queued(key):
            already += 1
            continue
        if not dry_run:
            _queue_games(member, games_received(member.player, str(lid)), before, key)
        queued += 1
        mailed.append(member.number)
    if progress:
        progress(len(members), len(members), "")
    return GamesMailing(str(lid), before, queued, already, no_address, tuple(mailed), dry_run)


def _queued(key: str) -> bool:
    from ecfgrading.registry.models import OutboxMessage

    return OutboxMessage.objects.filter(key=key).exists()


def _queue_games(member: DirectMember, games: MemberGames, before: str, key: str) -> None:
    context = {"member": member, "player": member.player, "games": games, "before": before}
    subject = f"Your games received for the {games.list_id} {before} grading list"
    queue_mail(
        "games",
        member.email,
        subject,
        render_to_string("backoffice/mail/games_email.txt", context),
        html=render_to_string("backoffice/mail/games_email.html", context),
        key=key,
    )


def default_list(today: dt.date) -> str:
    """The July list a member's page shows first: the one whose latest period holds
    ``today``'s season, or the next one after the latest published standard list."""
    season_list = ListId.grading(today, Rate.STANDARD)
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
    after = ListId.parse(latest).next(Rate.STANDARD)
    return str(min(after, season_list))
