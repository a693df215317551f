"""Direct members (issue 11, item 4): a member record linked to his player and to a login,
and the mailing of his games received for grading before the July list and again before
the August list (the seeds' help, f). What his pages show is ``lookups.direct_members``.

A member's number, class and e-mail address are private: they appear on his own pages
and in mail to him, never on a public page.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from ecfgrading.engine.periods import ListId
from ecfgrading.lookups.direct_members import MemberGames, games_received
from ecfgrading.lookups.roles import Role
from ecfgrading.lookups.versions import is_published
from ecfgrading.progress import Progress
from ecfgrading.registry.models import AuditLog, DirectMember, ListVersion
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.accounts import create_user
from ecfgrading.services.errors import ErrorKind, ServiceError, user_input
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


def _list(list_id: str) -> ListId:
    with user_input(MemberError):
        return ListId.parse(list_id)


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
    initial = any(is_published(lid, rate, ListVersion.INITIAL) for rate in lid.rates())
    august = any(is_published(lid, rate, ListVersion.AUGUST) for rate in lid.rates())
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
