"""Permission cases of the members pages, merged into test_permissions.CASES: URL name ->
(method, URL arguments from the prepared objects, expected status by role).

A direct member's pages admit direct members only (his own record is found from his
login); the review of results from abroad and the outbox admit the grading team only."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from ecfgrading.engine.rateplay import TimeControlInput
from ecfgrading.registry.models import DirectMember, Player
from ecfgrading.services.abroad import AbroadEvent, AbroadGame, submit_abroad
from tests.backoffice.permission_table import NO_ARGS, TEAM, Case, open_to

MEMBER = open_to("member")


def _team(status: int) -> dict[str, int | str]:
    """Team only, where the team's request without data is answered ``status``."""
    return open_to() | {"team": status}


def _result(o: dict[str, Any]) -> dict[str, Any]:
    return {"result_id": o["abroad"].id}


CASES: dict[str, Case] = {
    "member_home": ("get", NO_ARGS, MEMBER),
    "member_abroad": ("get", NO_ARGS, MEMBER),
    "abroad_list": ("get", NO_ARGS, TEAM),
    "abroad_review": ("get", _result, TEAM),
    # Accepting imports the member's file, then shows the list again.
    "abroad_accept": ("post", _result, _team(302)),
    # A rejection without a note is refused, back on the review page.
    "abroad_reject": ("post", _result, _team(302)),
    "mail": ("get", NO_ARGS, TEAM),
    "mail_preview": ("get", NO_ARGS, TEAM),
    "mail_send": ("post", NO_ARGS, _team(302)),
    # Without a list and a mailing the form says what is expected.
    "mail_games": ("get", NO_ARGS, _team(400)),
}


def prepare(users: dict[str, Any]) -> dict[str, Any]:
    """Member mia's record and her pending results from abroad."""
    player = Player.objects.create(code=200002, surname="Member", forenames="Mia")
    member = DirectMember.objects.create(
        player=player, number="DM200002", email="mia@home.example", user=users["member"]
    )
    # Played a month ago: within the window of first days the form takes (issue 24).
    start = timezone.localdate() - dt.timedelta(days=30)
    event = AbroadEvent(
        "Reykjavik Open",
        "Iceland",
        start,
        start + dt.timedelta(days=8),
        TimeControlInput(minutes_for_game=90, seconds_per_move=30),
        (AbroadGame(1, start, "Jonsson, Petur", "win", "white", "2300123"),),
    )
    abroad = submit_abroad(member, event)
    return {"member": member, "abroad": abroad}
