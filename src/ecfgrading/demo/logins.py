"""The demo's back-office logins: one of the grading team, two grading officers (each
assigned some of the demo's events) and one direct member linked to a demo player.

Their passwords are known and printed at the end of the build: a demo is for trying,
and these logins exist only in a database the demo built (never made elsewhere).
"""

from __future__ import annotations

import datetime as dt
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db.models import Count

from ecfgrading.demo.registration import MISSING
from ecfgrading.demo.schedule import NEXT_SEASON
from ecfgrading.demo.seasons import season_start
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import Event, Game, Player
from ecfgrading.services.accounts import create_user
from ecfgrading.services.members import create_member

ACTOR = "demo"
# The first results of 2015-16 are on record but graded in no list (build.py): a direct
# member who played then has games received for the next list to look at.
NEXT_SEASON_STARTED = season_start(NEXT_SEASON)
EVENTS_EACH = 4  # events assigned to each demo officer, besides one that never reported


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str
    what: str  # what the login is for, in words

    def __str__(self) -> str:
        return f"{self.username:8} password {self.password:22} {self.role}: {self.what}"


# Each login's known password (printed at the end of the build).
PASSWORDS = {name: f"demo-{name}-2012" for name in ("grader", "olivia", "owen", "member")}


def hashed_ahead() -> Future[dict[str, str]]:
    """The logins' passwords hashed on a thread of their own, while the build goes on:
    a password's hash is made slow on purpose (Django's PBKDF2, 0.3-0.6 s each here),
    and hashlib lets go of Python's lock while it works, so the four take the second
    core's idle time rather than two seconds at the end of ``make demo``'s build."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="demo-passwords")
    try:
        return pool.submit(lambda: {name: make_password(word) for name, word in PASSWORDS.items()})
    finally:
        pool.shutdown(wait=False)  # the thread ends once the hashes are made


def create_demo_logins(hashed: Future[dict[str, str]] | None = None) -> tuple[DemoLogin, ...]:
    """Make the four logins; the officers get events, the member his record. ``hashed``:
    their passwords hashed ahead (``hashed_ahead``), else hashed now."""
    made = [_login("grader", Role.TEAM, "everything")]
    recent = list(
        Event.objects.filter(end_date__gte=NEXT_SEASON_STARTED)
        .exclude(code__in=[code for code, *_ in MISSING])
        .order_by("end_date", "code")
        .values_list("code", flat=True)[: 2 * EVENTS_EACH]
    )
    missing = [code for code, *_ in MISSING]
    for number, name in enumerate(("olivia", "owen")):
        codes = [missing[number], *recent[number::2]]
        user = create_user(
            name, role=Role.OFFICER, email=f"{name}@officers.example.org",
            first_name=name.capitalize(), actor=ACTOR,
        )  # fmt: skip
        Event.objects.filter(code__in=codes).update(grading_officer=user)
        made.append(
            DemoLogin(name, PASSWORDS[name], "grading officer", f"events {', '.join(codes)}")
        )
    made.append(_member())
    _set_passwords(hashed.result() if hashed is not None else None)
    return tuple(made)


def _set_passwords(hashed: dict[str, str] | None) -> None:
    """Each login's password: the logins are made without one, then given its hash."""
    hashes = hashed or {name: make_password(word) for name, word in PASSWORDS.items()}
    users = get_user_model().objects
    for name, password in hashes.items():
        users.filter(username=name).update(password=password)


def _login(name: str, role: Role, what: str) -> DemoLogin:
    create_user(name, role=role, email=f"{name}@team.example.org", actor=ACTOR)
    return DemoLogin(name, PASSWORDS[name], "grading team", what)


def _member() -> DemoLogin:
    """The player with most games received for the next list becomes a direct member."""
    busiest = (
        Game.objects.filter(game_date__gte=NEXT_SEASON_STARTED, player1__merged_into__isnull=True)
        .exclude(player1__isnull=True)
        .values("player1")
        .annotate(games=Count("id"))
        .order_by("-games", "player1")
        .first()
    )
    player = (
        Player.objects.get(pk=busiest["player1"])
        if busiest
        else Player.objects.filter(merged_into__isnull=True).order_by("code").first()
    )
    assert player is not None, "the demo has players"
    create_member(
        player.ref, f"DM{player.code:06d}", email="member@members.example.org",
        member_class="Standard", username="member", joined_on=dt.date(2009, 9, 1), actor=ACTOR,
    )  # fmt: skip
    return DemoLogin(
        "member", PASSWORDS["member"], "direct member", f"{player.name} ({player.ref})"
    )
