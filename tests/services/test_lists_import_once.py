"""What the list import works out once per list (each club name, the memberships of the
players on record, the cycle collector paused) still holds row by row.

The CSV texts are written by hand; every expected value is read off them.
"""

from __future__ import annotations

import gc

import pytest

from ecfgrading.engine.types import Rate
from ecfgrading.registry.models import Club, ClubMembership, ListEntry, Player, PlayerAlias
from ecfgrading.services.lists.imports import import_grade_list

pytestmark = pytest.mark.django_db

HEADER = (
    b"Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    b"ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\r\n"
)
WIDE = "W" * 101  # Club.name holds 100 characters
JUST_FITS = "F" * 100


def csv(*rows: str) -> bytes:
    return HEADER + "".join(f"{row}\r\n" for row in rows).encode()


def load(data: bytes):
    return import_grade_list(
        data, list_id="2009-07", rates=[Rate.STANDARD], filename="grades200907.csv"
    )


def memberships(code: int) -> list[tuple[str, bool, int, int]]:
    found = ClubMembership.objects.filter(player__code=code)
    columns = ("club__name", "club__is_location", "first_season", "last_season")
    return sorted(found.values_list(*columns))


def test_a_club_name_too_wide_is_a_problem_on_every_row_naming_it() -> None:
    data = csv(
        f'261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,{WIDE},,,,,,,ENG',  # line 2
        f'233310H,"Smith, Jane",F,,C,95,,12,,,,,{JUST_FITS}*,,,,,,,',  # line 3: fits
        f'100001K,"Brown, Ann",F,,D,88,,7,,,,,Anytown,{WIDE}*,,,,,,',  # line 4
        f'150000E,"Green, Tom",M,,D,80,,9,,,,,{WIDE},,,,,,,',  # line 5
    )

    result = load(data)

    assert not result.imported
    assert [(p.code, p.line, p.field, p.got) for p in result.report.errors] == [
        ("too-long", 2, "ClubNam", WIDE),
        ("too-long", 4, "ClubNam", WIDE),  # the asterisk says location; the name is cut of it
        ("too-long", 5, "ClubNam", WIDE),
    ]
    assert (Player.objects.count(), Club.objects.count(), ListEntry.objects.count()) == (0, 0, 0)


def test_a_new_club_written_several_ways_is_created_once_as_first_written() -> None:
    data = csv(
        '261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,Newtown   Chess,,,,,,,',
        '233310H,"Smith, Jane",F,,C,95,,12,,,,,NEWTOWN CHESS,Newtown Chess*,,,,,,',
        '100001K,"Brown, Ann",F,,D,88,,7,,,,, newtown chess ,,,,,,,',
    )

    result = load(data)

    assert result.imported, result.report
    assert result.clubs_created == 2
    assert sorted(Club.objects.values_list("name", "is_location")) == [
        ("Newtown Chess", False),
        ("Newtown Chess", True),
    ]
    assert result.memberships_created == 4
    assert memberships(233310) == [
        ("Newtown Chess", False, 2009, 2009),
        ("Newtown Chess", True, 2009, 2009),
    ]
    assert memberships(100001) == [("Newtown Chess", False, 2009, 2009)]


def test_players_on_record_have_their_memberships_extended_beside_new_players() -> None:
    anytown, oldtown = Club.objects.create(name="Anytown"), Club.objects.create(name="Oldtown")
    bloggs = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    ClubMembership.objects.create(player=bloggs, club=anytown, first_season=2007, last_season=2007)
    ClubMembership.objects.create(player=bloggs, club=oldtown, first_season=2006, last_season=2006)
    data = csv(
        '261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,Anytown,Otherton,,,,,,',
        '233310H,"Smith, Jane",F,,C,95,,12,,,,,Anytown,,,,,,,',
    )

    result = load(data)

    assert result.imported, result.report
    assert (result.players_created, result.clubs_created, result.memberships_created) == (1, 1, 2)
    assert memberships(261619) == [
        ("Anytown", False, 2007, 2009),  # extended to the list's season
        ("Oldtown", False, 2006, 2006),  # not in the list: left as it was
        ("Otherton", False, 2009, 2009),
    ]
    assert memberships(233310) == [("Anytown", False, 2009, 2009)]


def test_a_merged_codes_row_extends_the_surviving_players_membership() -> None:
    anytown = Club.objects.create(name="Anytown")
    survivor = Player.objects.create(code=500000, surname="Bloggs", forenames="Joseph")
    PlayerAlias.objects.create(code=261619, player=survivor)
    ClubMembership.objects.create(
        player=survivor, club=anytown, first_season=2010, last_season=2010
    )

    result = load(csv('261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,Anytown,Otherton,,,,,,'))

    assert result.imported, result.report
    assert (result.players_created, result.memberships_created) == (0, 1)
    assert memberships(500000) == [
        ("Anytown", False, 2009, 2010),  # the list's season is earlier: the first is moved
        ("Otherton", False, 2009, 2009),
    ]
    assert ClubMembership.objects.count() == 2


@pytest.mark.parametrize("grade", ["150", "15O"], ids=["accepted", "rejected"])
def test_an_import_leaves_the_cycle_collector_as_it_found_it(grade: str) -> None:
    before = (gc.isenabled(), gc.get_threshold())

    result = load(csv(f'261619B,"Bloggs, Joe",M,,A,{grade},148,35,,,,,Anytown,,,,,,,'))

    assert result.imported == (grade == "150")
    assert (gc.isenabled(), gc.get_threshold()) == before
