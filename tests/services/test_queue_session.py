"""Deciding many identification cases in one session (``services.results.queue.deciding``,
issue 25): each decision has the outcome it would have alone, audit included, and a
refused one changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.db.models import Q

from ecfgrading.engine.codes import GradingCode
from ecfgrading.lookups.identification import open_cases
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    Game,
    IdentityChange,
    NameAlias,
    PendingIdentification,
    Player,
)
from ecfgrading.services.results import queue
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.results.queue import PendingError, deciding, resolve
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall"
FATHER = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
SON = "#PIN=3#NAME=Smith, John#CLUB NAME=Newtown"  # played his father in round 3
NEWCOMER = "#PIN=4#NAME=Brown, Ann#CLUB NAME=Riverside"  # neither Ann Brown on record
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
    "#PIN1=2#SCORE=10#PIN2=3#ROUND=3#GAME DATE=12/05/2013",
    "#PIN1=4#SCORE=01#PIN2=1#ROUND=3#GAME DATE=12/05/2013",
]
# In a second event, the newcomer Ann again.
LATER = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe",
    "#PIN=2#NAME=Brown, Ann#CLUB NAME=Riverside",
]
LATER_GAMES = ["#PIN1=2#SCORE=55#PIN2=1#ROUND=1#GAME DATE=19/05/2013"]


def on_record() -> Player:
    """Joe Bloggs, two John Smiths of Newtown and two Ann Browns of Riverside: a person
    must choose between namesakes of one club."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    smiths = namesakes("Smith", "John", "Newtown", (100001, 100002))
    namesakes("Brown", "Ann", "Riverside", (100011, 100012))
    return smiths[0]


def namesakes(surname: str, forenames: str, club_name: str, codes: tuple[int, ...]) -> list[Player]:
    club, _ = Club.objects.get_or_create(name=club_name)
    made = [Player.objects.create(code=c, surname=surname, forenames=forenames) for c in codes]
    for one in made:
        ClubMembership.objects.create(player=one, club=club, first_season=2013, last_season=2013)
    return made


def queued() -> dict[str, int]:
    """Two files of two events: father, son and Ann in the first, Ann in the second."""
    import_results(results_file([BLOGGS, FATHER, SON, NEWCOMER], GAMES), filename="a.txt")
    import_results(
        results_file(LATER, LATER_GAMES, code="XX12346", start="19/05/2013", end="19/05/2013"),
        filename="b.txt",
    )
    cases = {(c.submission.filename, c.pin): c.id for c in open_cases()}
    return {
        "father": cases[("a.txt", 2)],
        "son": cases[("a.txt", 3)],
        "ann": cases[("a.txt", 4)],
        "ann again": cases[("b.txt", 2)],
    }


def decide_all(decide: Any, ids: dict[str, int], father: Player) -> list[str]:
    """The team's afternoon: the father linked; the son first taken for his father
    (refused: they played each other), then put on record; Ann, neither namesake, put on
    record, and her second case linked to the code she was given."""
    said = [decide(ids["father"], code=father.ref).ref]
    with pytest.raises(PendingError, match="opponent"):
        decide(ids["son"], code=father.ref)
    said.append(decide(ids["son"], create=True).ref)
    ann = decide(ids["ann"], create=True)
    said.append(ann.ref)
    said.append(decide(ids["ann again"], code=ann.ref).ref)
    with pytest.raises(PendingError, match="already decided"):
        decide(ids["ann"], create=True)
    return said


def outcome() -> dict[str, Any]:
    """What the decisions left, by codes, names and PINs (not by row numbers)."""

    def code(pk: int | None) -> int | None:
        return Player.objects.get(id=pk).code if pk is not None else None

    games = Game.objects.order_by("submission__filename", "round", "id")
    cases = PendingIdentification.objects.order_by("submission__filename", "pin")
    audit = AuditLog.objects.filter(action="resolve identification").order_by("id")
    case_pins = {c.id: (c.submission.filename, c.pin) for c in cases}
    return {
        "games": [(code(g.player1_id), code(g.player2_id)) for g in games],
        "cases": [(c.pin, c.status, code(c.resolved_player_id)) for c in cases],
        "audit": [(case_pins[int(a.object_id)], a.actor, a.details) for a in audit],
        "aliases": sorted(
            (a.spelling, a.club_name, a.event.code, a.player.code, a.decision)
            for a in NameAlias.objects.select_related("event", "player")
        ),
        "noted": sorted(
            {code(pk) for pk in IdentityChange.objects.values_list("player_id", flat=True)}
        ),
        "memberships": sorted(
            (m.player.code, m.club.name, m.first_season, m.last_season)
            for m in ClubMembership.objects.select_related("player", "club")
        ),
    }


@pytest.mark.parametrize("whole_queue", [False, True], ids=["as it goes", "whole queue first"])
def test_a_session_leaves_what_deciding_one_by_one_leaves(whole_queue: bool) -> None:
    father = on_record()
    with transaction.atomic():
        ids = queued()
        said_alone = decide_all(lambda case, **how: resolve(case, actor="team", **how), ids, father)
        alone = outcome()
        transaction.set_rollback(True)  # the same afternoon again, in one session

    ids = queued()
    with deciding(actor="team") as session:
        if whole_queue:
            assert session.load_open() == 4
        said_together = decide_all(session.resolve, ids, father)

    assert said_together == said_alone
    assert outcome() == alone


def test_a_session_links_and_creates_as_the_team_decided() -> None:
    """Worked out by hand: no list was loaded, so the code sequence (G28) starts at 1:
    code 1 for the son, 2 for Ann, in the order decided."""
    father = on_record()
    ids = queued()

    with deciding(actor="team") as session:
        said = decide_all(session.resolve, ids, father)

    son, ann = Player.objects.get(code=1), Player.objects.get(code=2)
    assert said == [father.ref, son.ref, ann.ref, ann.ref]
    assert (son.surname, ann.surname) == ("Smith", "Brown")
    assert outcome()["games"] == [
        (261619, 100001),  # a.txt round 1: Bloggs - the father
        (100001, 261619),
        (100001, 1),  # round 3: the father - the son
        (2, 261619),  # Ann - Bloggs
        (2, 261619),  # b.txt: Ann - Bloggs
    ]
    assert outcome()["cases"] == [
        (2, "linked", 100001),
        (3, "created", 1),
        (4, "created", 2),
        (2, "linked", 2),
    ]
    assert [(pin, details) for (_, pin), _, details in outcome()["audit"]] == [
        (2, {"player": father.ref}),
        (3, {"player": son.ref}),
        (4, {"player": ann.ref}),
        (2, {"player": ann.ref}),
    ]
    assert not Game.objects.filter(Q(player1__isnull=True) | Q(player2__isnull=True)).exists()


def test_a_session_that_fails_leaves_nothing_decided() -> None:
    father = on_record()
    ids = queued()

    with pytest.raises(RuntimeError), deciding(actor="team") as session:
        session.resolve(ids["father"], code=father.ref)
        raise RuntimeError("the machine stopped")

    assert open_cases().count() == 4
    assert not AuditLog.objects.filter(action="resolve identification").exists()


def test_players_expected_are_read_at_once_and_decided_as_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``expect`` reads the players of codes about to be decided, with their clubs, in one
    go: the decisions are those taken alone, and only a code it could not read (Ann's,
    given in the session) is looked up when named."""
    father = on_record()
    with transaction.atomic():
        ids = queued()
        said_alone = decide_all(lambda case, **how: resolve(case, actor="team", **how), ids, father)
        alone = outcome()
        transaction.set_rollback(True)

    ids = queued()
    looked_up: list[str] = []
    original = queue.player_on_record

    def counted(code: str, error: Any) -> Player:
        looked_up.append(code)
        return original(code, error)

    monkeypatch.setattr(queue, "player_on_record", counted)
    nobodys = str(GradingCode(555555))
    with deciding(actor="team") as session:
        session.expect([father.ref, "not a code", nobodys])
        said = decide_all(session.resolve, ids, father)

    assert said == said_alone
    assert outcome() == alone
    ann = Player.objects.get(surname="Brown", code=2)  # the second code the session gave
    assert looked_up == [ann.ref]
