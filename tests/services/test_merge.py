"""Two records of one person, merged: the survivor's grade is built from both (G4, G17)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from ecfgrading.engine import Rate
from ecfgrading.lookups.explain import breakdowns
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import Club, ClubMembership, ListEntry, Player
from ecfgrading.registry.numbering import resolve_code
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.merge import MergeError, merge_players
from ecfgrading.services.results.ingest import import_files
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db

HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)


def test_a_duplicate_record_merged_in_brings_its_games_to_the_survivors_grade() -> None:
    fed = Federation()
    known = fed.player("Known", "Kim")
    duplicate = fed.player("Knowne", "Kim", born=date(1980, 1, 1))  # a second record
    csv = HEADER + f'{known.ref},"Known, Kim",F,,A,150,148,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))
    # The duplicate draws 10 games against 150s in 2009-10: as Known (S 150, G4)
    # each counts 150, so Known's 2010-07 grade is 150, not an estimate.
    games = fed.against(duplicate, ["55"] * 9 + ["10"], 150, date(2009, 10, 3))
    assert all(o.accepted for o in import_files([fed.event(games)]))
    merge_players(duplicate.ref, known.ref)

    compute_version("2010-07", Rate.STANDARD)
    entry = ListEntry.objects.get(player=known, version__grading_list__list_id="2010-07")
    assert (entry.start_grade, entry.start_source) == (150, "previous")
    assert entry.unrounded == pytest.approx((9 * 150 + 200) / 10)
    assert not ListEntry.objects.filter(player=duplicate).exists()
    survivor = Player.objects.get(id=known.id)
    assert survivor.date_of_birth == date(1980, 1, 1)  # filled in
    # ... learnt by the merge, before 2010-07 was computed: a replay of it reads it too
    assert survivor.born_noted_at is not None and survivor.born_noted_at < entry.version.computed_at


def test_the_absorbed_records_previous_grade_becomes_the_survivors() -> None:
    fed = Federation()
    old = fed.player("Old", "Record")
    new = fed.player("Old", "Record")  # created again by an import, then found out
    csv = HEADER + f'{old.ref},"Old, Record",M,,A,120,118,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))
    games = fed.against(new, ["55"] * 5, 130, date(2009, 10, 3))
    import_files([fed.event(games)])
    merge_players(old.ref, new.ref)  # the survivor is the newer record here

    compute_version("2010-07", Rate.STANDARD)
    entry = ListEntry.objects.get(player=new, version__grading_list__list_id="2010-07")
    assert (entry.start_grade, entry.start_source) == (120, "previous")  # G4, not estimated


def test_the_survivors_breakdown_shows_the_absorbed_records_games_as_his() -> None:
    fed = Federation()
    known, duplicate = fed.player("Known", "Kim"), fed.player("Knowne", "Kim")
    opponent = fed.opponent(Rate.STANDARD, 150)
    games = [(duplicate, "55", opponent, date(2009, 10, 3))]
    import_files([fed.event(games)])
    merge_players(duplicate.ref, known.ref)
    compute_version("2010-07", Rate.STANDARD)
    publish_version("2010-07", Rate.STANDARD, "initial")
    (explanation, _names) = breakdowns(known.ref, "2010-07")[0]
    (line,) = explanation.games
    assert (line.opponent_id, line.score, line.opponent_start) == (opponent.id, 0.5, 150)


def test_a_merge_needs_two_different_players() -> None:
    fed = Federation()
    one = fed.player("One", "A")
    with pytest.raises(MergeError, match="two different players"):
        merge_players(one.ref, one.ref)
    with pytest.raises(MergeError, match="expected the grading code of a player on record"):
        merge_players("155624B", one.ref)


# One walk along chains of merges (G28), for players and clubs ------------------------------


def test_a_player_merged_twice_counts_for_the_last_survivor_everywhere() -> None:
    fed = Federation()
    first, middle, last = fed.player("First"), fed.player("Middle"), fed.player("Last")
    merge_players(first.ref, middle.ref)
    merge_players(middle.ref, last.ref)  # first -> middle -> last

    assert resolve_code(first.ref) == last
    assert Player.objects.get(pk=first.pk).surviving() == last
    assert Survivors().final == {first.id: last.id, middle.id: last.id}


def test_a_column_of_records_maps_each_to_its_survivor_at_once() -> None:
    """``Survivors.map`` on a whole column (a grading run's games' sides, G28): merged
    records to the last survivor, every other id, below, between or above the merged
    ones, to itself."""
    fed = Federation()
    before, first, middle, between, last, after = (
        fed.player(name) for name in ("Before", "First", "Middle", "Between", "Last", "After")
    )
    merge_players(first.ref, middle.ref)
    merge_players(middle.ref, last.ref)
    merge_players(between.ref, after.ref)
    ids = [before.id, first.id, middle.id, between.id, last.id, after.id, first.id, 10**9]
    expected = [before.id, last.id, last.id, after.id, last.id, after.id, last.id, 10**9]
    assert Survivors().map(np.array(ids, dtype=np.int64)).tolist() == expected


def test_a_list_row_of_a_player_merged_twice_is_the_last_survivors_entry() -> None:
    fed = Federation()
    first, middle, last = fed.player("First"), fed.player("Middle"), fed.player("Last")
    merge_players(first.ref, middle.ref)
    merge_players(middle.ref, last.ref)
    csv = HEADER + f'{first.ref},"First, A",M,,A,150,148,30,,,,,,,,,,,,ENG\n'

    import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))

    assert list(ListEntry.objects.values_list("player_id", "grade")) == [(last.id, 150)]


def test_a_cycle_of_merged_players_stops_with_each_counting_for_himself() -> None:
    fed = Federation()
    one, two = fed.player("One"), fed.player("Two")
    merge_players(one.ref, two.ref)
    Player.objects.filter(pk=two.pk).update(merged_into=one)  # a hand edit: one <-> two

    assert (resolve_code(one.ref), resolve_code(two.ref)) == (one, two)
    assert Survivors().final == {one.id: one.id, two.id: two.id}


def test_a_list_naming_a_club_merged_twice_makes_a_member_of_the_last_club() -> None:
    last = Club.objects.create(code="7LST", name="Lastly")
    middle = Club.objects.create(name="Middleton", merged_into=last)
    Club.objects.create(name="Firstly", merged_into=middle)  # Firstly -> Middleton -> Lastly
    joe = Federation().player("Bloggs", "Joe")
    csv = HEADER + f'{joe.ref},"Bloggs, Joe",M,,A,150,148,30,,,,,Firstly,Middleton,,,,,,ENG\n'

    import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))

    memberships = ClubMembership.objects.values_list("player_id", "club_id", "first_season")
    assert list(memberships) == [(joe.id, last.id, 2009)]  # P0 of 2009-07 ends in May 2009
    assert Club.objects.count() == 3  # no club made for a merged club's name


def test_a_cycle_of_merged_clubs_stops_with_each_club_counting_for_itself() -> None:
    aville = Club.objects.create(name="Aville")
    bton = Club.objects.create(name="Bton", merged_into=aville)
    Club.objects.filter(pk=aville.pk).update(merged_into=bton)  # a hand edit: Aville <-> Bton
    joe = Federation().player("Bloggs", "Joe")
    csv = HEADER + f'{joe.ref},"Bloggs, Joe",M,,A,150,148,30,,,,,Aville,Bton,,,,,,ENG\n'

    import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))

    memberships = ClubMembership.objects.values_list("player_id", "club_id")
    assert sorted(memberships) == sorted([(joe.id, aville.id), (joe.id, bton.id)])
