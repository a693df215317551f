"""What a list import writes as plain rows (``registry.bulk``) rather than through the ORM:
the new players' times, the details a later list changes, the seasons of memberships on
record. The CSV texts are written by hand; every expected value is read off them."""

from __future__ import annotations

import pytest
from django.utils import timezone

from ecfgrading.engine.codes import GradingCode
from ecfgrading.registry.models import Club, ClubMembership, IdentityChange, Player
from ecfgrading.services.lists.imports import import_grade_list

pytestmark = pytest.mark.django_db

HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\r\n"
)
BLOGGS = '261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,Anytown,,,,,,400041,ENG\r\n'
SMITH = '233310H,"Smith, Jane",F,12,C,95,,12,,,,,Anytown,Otherton,,,,,,\r\n'


def load(*rows: str, list_id: str = "2009-07"):
    data = (HEADER + "".join(rows)).encode("iso-8859-1")
    result = import_grade_list(data, list_id=list_id, rates=["standard"])
    assert result.imported, result.report
    return result


def test_new_players_are_stamped_with_the_time_of_the_import() -> None:
    before = timezone.now()
    load(BLOGGS, SMITH)
    after = timezone.now()

    stamps = list(Player.objects.values_list("created_at", "updated_at"))
    assert len(stamps) == 2
    for created, updated in stamps:
        assert created == updated
        assert before <= created <= after


def test_a_later_list_rewrites_only_the_players_whose_details_it_changes() -> None:
    load(BLOGGS, SMITH)
    stamps = dict(Player.objects.values_list("code", "updated_at"))
    noted = set(IdentityChange.objects.values_list("id", flat=True))

    renamed = '261619B,"Bloggs-Smyth, Joseph",F,,A,152,150,30,,,,,Anytown,,,,,,400042,SCO\r\n'
    result = load(renamed, SMITH, list_id="2010-07")

    bloggs = Player.objects.get(code=261619)
    assert (bloggs.surname, bloggs.forenames, bloggs.sex) == ("Bloggs-Smyth", "Joseph", "F")
    assert (bloggs.fide_id, bloggs.nation) == (400042, "SCO")
    assert bloggs.name_key == "bloggssmyth,joseph"  # the lookups' key follows the name
    assert bloggs.updated_at > stamps[261619]
    assert Player.objects.get(code=233310).updated_at == stamps[233310]
    assert (result.players_updated, result.players_unchanged) == (1, 1)
    changes = IdentityChange.objects.exclude(id__in=noted)
    assert list(changes.values_list("player_id", flat=True)) == [bloggs.pk]


def test_many_players_changed_by_a_later_list_are_all_written() -> None:
    rows = [f'{_code(n)},"Player{n}, Test",M,,D,100,,10,,,,,,,,,,,,\r\n' for n in range(1_500)]
    load(*rows)

    load(*(row.replace(", Test", ", Tested") for row in rows), list_id="2010-07")

    assert set(Player.objects.values_list("forenames", flat=True)) == {"Tested"}
    assert Player.objects.filter(name_key__endswith=",tested").count() == 1_500


def test_an_older_list_widens_a_membership_back_to_its_season() -> None:
    load(BLOGGS, SMITH, list_id="2011-07")  # memberships of season 2011
    anytown = Club.objects.get(name="Anytown")
    smith = ClubMembership.objects.get(player__code=233310, club=anytown)
    ClubMembership.objects.filter(pk=smith.pk).update(first_season=2008, last_season=2012)

    result = load(BLOGGS, SMITH, list_id="2009-07")  # loaded later, of an earlier season

    seasons = ClubMembership.objects.order_by("player__code", "club__name").values_list(
        "player__code", "club__name", "first_season", "last_season"
    )
    assert list(seasons) == [
        (233310, "Anytown", 2008, 2012),  # held 2009 already: unchanged
        (233310, "Otherton", 2009, 2011),
        (261619, "Anytown", 2009, 2011),
    ]
    assert result.memberships_created == 0


def _code(n: int) -> str:
    """A code of the 300000s with the check letter the reader expects (G28)."""
    return str(GradingCode(300_000 + n))
