"""Grades in the lists in force, the rating list, and players, games and clubs as the
federation's rating API finds them (issue 10), on small records built by hand.

Each test builds the lists, versions, players, clubs and games it needs, published on
dates of its choosing; expected grades, dates and points are read off those hand-made
rows or worked out by hand (G12's 40-point rule), never off the service's own output.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from itertools import count
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.engine import GradingCode
from ecfgrading.engine.types import Rate
from ecfgrading.lookups import clubs, games, grades, players, sound_alike
from ecfgrading.lookups.clubs import forget_index
from ecfgrading.lookups.memberships import shown_clubs
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    County,
    Event,
    Game,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
    Submission,
)
from ecfgrading.services.errors import NotFound, ServiceError

pytestmark = pytest.mark.django_db

LONDON = ZoneInfo("Europe/London")
_numbers = count(1)
Grade = tuple[int, str] | tuple[int, str, float]  # grade, category[, starting grade]


def person(code: int, surname: str, forenames: str = "", **fields: object) -> Player:
    return Player.objects.create(code=code, surname=surname, forenames=forenames, **fields)


def ref(player: Player) -> str:
    return str(GradingCode(player.code))


def at(day: str, hour: int = 12) -> dt.datetime:
    """A moment in the federation's time zone (Europe/London)."""
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(hour), tzinfo=LONDON)


def publish(
    list_id: str, rate: str, name: str, when: dt.datetime, grades: Mapping[Player, Grade]
) -> ListVersion:
    """A version published at ``when``, with a published entry per player."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    version = ListVersion.objects.create(grading_list=grading_list, name=name)
    ListEntry.objects.bulk_create(
        ListEntry(
            version=version,
            player=player,
            grade=grade[0],
            category=grade[1],
            start_grade=grade[2] if len(grade) > 2 else None,
            games_counted=30,
            published=True,
        )
        for player, grade in grades.items()
    )
    return _published(version, when)


def _published(version: ListVersion, when: dt.datetime) -> ListVersion:
    version.status = ListVersion.Status.PUBLISHED
    version.published_at = when
    version.save()
    return version


# The list in force on a date ----------------------------------------------------------------


@pytest.fixture
def history() -> dict[str, Player]:
    """Standard 2010-07 (initial 10 July, august 25 August 2010), standard 2011-07 (initial
    9 July 2011), rapid 2011-01 (initial 15 January 2011)."""
    ann, bob = person(100001, "Able", "Ann"), person(100002, "Baker", "Bob")
    publish("2010-07", "standard", "initial", at("2010-07-10"), {ann: (150, "A"), bob: (90, "C")})
    publish("2010-07", "standard", "august", at("2010-08-25"), {ann: (152, "A")})
    publish("2011-07", "standard", "initial", at("2011-07-09"), {ann: (160, "B"), bob: (95, "D")})
    publish("2011-01", "rapid", "initial", at("2011-01-15"), {bob: (101, "E")})
    return {"ann": ann, "bob": bob}


def in_force(day: str) -> dict[Rate, tuple[str, str, str]]:
    found = grades.lists_in_force(dt.date.fromisoformat(day))
    return {rate: (f.list_id, f.versions[0].name, f.current.name) for rate, f in found.items()}


def rating_on(code: str, rate: Rate, on: dt.date | None) -> players.Rating:
    return players.rating_on(players.locate(code), rate, on)


def test_no_list_is_in_force_before_the_first_publication(history) -> None:
    assert in_force("2010-07-09") == {}


def test_a_list_is_in_force_from_the_day_its_first_version_is_published(history) -> None:
    assert in_force("2010-07-10") == {Rate.STANDARD: ("2010-07", "initial", "initial")}


def test_between_two_versions_the_earlier_is_in_force(history) -> None:
    assert in_force("2010-08-24") == {Rate.STANDARD: ("2010-07", "initial", "initial")}
    assert in_force("2010-08-25") == {Rate.STANDARD: ("2010-07", "initial", "august")}


def test_between_two_lists_the_earlier_lists_latest_version_stays_in_force(history) -> None:
    # 1 March 2011: standard 2010-07 at its august version; rapid 2011-01 since 15 January.
    assert in_force("2011-03-01") == {
        Rate.STANDARD: ("2010-07", "initial", "august"),
        Rate.RAPID: ("2011-01", "initial", "initial"),
    }
    assert in_force("2011-07-08")[Rate.STANDARD] == ("2010-07", "initial", "august")
    assert in_force("2011-07-09")[Rate.STANDARD] == ("2011-07", "initial", "initial")


def test_without_a_date_the_current_lists_are_in_force(history) -> None:
    found = grades.lists_in_force()
    assert {r: (f.list_id, f.current.name) for r, f in found.items()} == {
        Rate.STANDARD: ("2011-07", "initial"),
        Rate.RAPID: ("2011-01", "initial"),
    }


def test_the_day_of_publication_is_the_federations_day() -> None:
    # Published at 23:30 UTC on 25 August 2010: 00:30 on the 26th in London (BST), so in
    # force from the 26th, though UTC's date is still the 25th.
    ann = person(100001, "Able", "Ann")
    late = dt.datetime(2010, 8, 25, 23, 30, tzinfo=dt.UTC)
    publish("2010-07", "standard", "initial", late, {ann: (150, "A")})
    assert in_force("2010-08-25") == {}
    assert in_force("2010-08-26") == {Rate.STANDARD: ("2010-07", "initial", "initial")}


def test_original_is_the_first_versions_grade_and_revised_the_version_in_forces(
    history,
) -> None:
    ann = history["ann"]
    on_1_sep = rating_on(ref(ann), Rate.STANDARD, dt.date(2010, 9, 1)).grades
    assert (on_1_sep.list_id, on_1_sep.version.name) == ("2010-07", "august")
    assert (on_1_sep.original, on_1_sep.original_category) == (150, "A")
    assert (on_1_sep.grade, on_1_sep.category) == (152, "A")
    on_1_aug = rating_on(ref(ann), Rate.STANDARD, dt.date(2010, 8, 1)).grades
    assert (on_1_aug.original, on_1_aug.grade) == (150, 150)


def test_a_player_left_out_of_the_version_in_force_has_no_rating_then(history) -> None:
    # Bob is in 2010-07's initial version only (G26: the august version dropped him).
    with pytest.raises(NotFound, match="not graded"):
        rating_on(ref(history["bob"]), Rate.STANDARD, dt.date(2010, 9, 1))
    assert rating_on(ref(history["bob"]), Rate.STANDARD, dt.date(2010, 8, 1))


def test_a_rating_asked_before_any_list_says_so(history) -> None:
    with pytest.raises(NotFound, match="no standard list was in force on 2009-01-01"):
        rating_on(ref(history["ann"]), Rate.STANDARD, dt.date(2009, 1, 1))


def test_a_code_without_its_letter_or_of_no_one_is_answered(history) -> None:
    assert rating_on("100001", Rate.STANDARD, None).code == ref(history["ann"])
    with pytest.raises(NotFound):
        rating_on("999998", Rate.STANDARD, None)
    wrong = "100001" + ("A" if GradingCode(100001).letter != "A" else "B")
    with pytest.raises(NotFound):
        rating_on(wrong, Rate.STANDARD, None)


# The rating list -----------------------------------------------------------------------------


def test_the_rating_list_has_every_published_player_once_with_both_rates(history) -> None:
    rows = grades.rating_rows(grades.lists_in_force(dt.date(2011, 3, 1)))
    # Ann: standard 2010-07 august only; Bob: rapid 2011-01 only (not in the august version).
    by_code = {row.code: row for row in rows}
    assert list(by_code) == [ref(history["ann"]), ref(history["bob"])]  # by name
    ann, bob = by_code[ref(history["ann"])], by_code[ref(history["bob"])]
    assert ann.standard == grades.RateGrades(150, "A", 30, 152, "A", 30)
    assert ann.rapid is None
    assert bob.standard is None
    assert bob.rapid == grades.RateGrades(101, "E", 30, 101, "E", 30)


def test_a_player_new_in_a_later_version_has_no_original_grade() -> None:
    ann, cy = person(100001, "Able", "Ann"), person(100003, "Cole", "Cy")
    publish("2012-07", "standard", "initial", at("2012-07-10"), {ann: (150, "A")})
    publish("2012-07", "standard", "august", at("2012-08-25"), {ann: (151, "A"), cy: (88, "E")})
    rows = {row.code: row for row in grades.rating_rows(grades.lists_in_force())}
    assert rows[ref(cy)].standard == grades.RateGrades(None, "", 0, 88, "E", 30)


def test_the_rating_list_costs_the_same_queries_for_two_players_or_forty() -> None:
    def queries(players: int, first: int) -> int:
        made = [person(first + k, f"Surname{first + k}", "Ann") for k in range(players)]
        club = Club.objects.create(code=f"C{first // 1000:03d}", name=f"Club {first}")
        for player in made:
            ClubMembership.objects.create(
                player=player, club=club, first_season=2012, last_season=2012
            )
        list_id = f"{2000 + first // 1000}-07"
        day = at(f"{2000 + first // 1000}-07-10")
        publish(list_id, "standard", "initial", day, dict.fromkeys(made, (100, "A")))
        with CaptureQueriesContext(connection) as captured:
            rows = grades.rating_rows(grades.lists_in_force())
        assert len(rows) == players
        return len(captured)

    assert queries(2, 110000) == queries(40, 120000)


def test_merged_records_count_for_their_survivor_in_the_list() -> None:
    # G28: a record merged into another after the list was published keeps its entry; the
    # list shows it under the surviving player, whose own entry wins when both have one.
    survivor, merged = person(100001, "Able", "Ann"), person(100002, "Able", "A")
    publish("2012-07", "standard", "initial", at("2012-07-10"), {merged: (140, "B")})
    merged.merged_into = survivor
    merged.save()
    rows = grades.rating_rows(grades.lists_in_force())
    assert [(row.code, row.standard.grade) for row in rows] == [(ref(survivor), 140)]


# Players ------------------------------------------------------------------------------------


def test_a_players_details_are_his_public_ones_with_clubs_not_lapsed_and_no_locations() -> None:
    yorkshire = County.objects.create(name="Yorkshire")
    leeds = Club.objects.create(code="1LEE", name="Leeds", county=yorkshire)
    york = Club.objects.create(code="1YOR", name="York", county=yorkshire)
    hall = Club.objects.create(name="Church Hall", is_location=True)
    old = Club.objects.create(code="1OLD", name="Old Town")
    ann = person(
        100001, "Able", "Ann", sex="F", fide_id=400123, membership_no="ME1234",
        date_of_birth=dt.date(1990, 5, 17),
    )  # fmt: skip
    for club, first, last in ((leeds, 2010, 2011), (york, 2012, 2012), (hall, 2012, 2012)):
        ClubMembership.objects.create(player=ann, club=club, first_season=first, last_season=last)
    ClubMembership.objects.create(player=ann, club=old, first_season=2005, last_season=2009)
    publish("2012-07", "standard", "initial", at("2012-07-10"), {ann: (150, "A")})
    forget_index()
    info = players.player_info(players.locate("100001"))
    # Season 2012 (2012-07): York (2012) before Leeds (2011); Old Town lapsed (C2, last
    # quoted 2009, three seasons before); the church hall is a location, not a club.
    assert info.clubs == (grades.Club("1YOR", "York"), grades.Club("1LEE", "Leeds"))
    assert (info.code, info.name, info.gender, info.fide_no, info.member_no) == (
        ref(ann), "Able, Ann", "F", 400123, "ME1234",
    )  # fmt: skip
    assert "1990" not in repr(info)  # no date of birth, in any field


def test_the_lists_first_club_is_the_first_club_the_lapse_rule_shows() -> None:
    # grades.first_clubs reads in one plain query what memberships.shown_clubs gives
    # (without locations): they must agree on every tie of the order.
    named = {
        name: Club.objects.create(code=f"9{name[:3].upper()}", name=name)
        for name in ("Alpha", "Beta", "Gamma")
    }
    hall = Club.objects.create(name="Hall", is_location=True)
    quoted = {  # player -> (club, first season, last season)
        100001: [("Beta", 2010, 2012), ("Alpha", 2011, 2012)],  # same last: later first
        100002: [("Gamma", 2012, 2012), ("Alpha", 2012, 2012)],  # a tie: by name
        100003: [("Alpha", 2011, 2011), ("Gamma", 2008, 2009)],  # Gamma lapsed
        100004: [("Beta", 2009, 2011)],
    }
    players = {}
    for code, memberships in quoted.items():
        players[code] = person(code, f"Player{code}")
        for name, first, last in memberships:
            ClubMembership.objects.create(
                player=players[code], club=named[name], first_season=first, last_season=last
            )
    ClubMembership.objects.create(player=players[100004], club=hall, first_season=2012,
                                  last_season=2012)  # fmt: skip
    ids = [p.id for p in players.values()]
    shown = shown_clubs(ids, 2012, limit=None)
    expected = {pk: grades.clubs_of(found)[0] for pk, found in shown.items()}
    assert grades.first_clubs(ids, 2012) == expected
    names = {code: expected[p.id].name for code, p in players.items()}
    assert names == {100001: "Alpha", 100002: "Alpha", 100003: "Alpha", 100004: "Beta"}


def test_a_player_is_found_by_his_membership_number_as_written_or_in_capitals() -> None:
    ann = person(100001, "Able", "Ann", membership_no="ME003511")
    person(100002, "Baker", "Bob")
    assert players.player_by_member_no("ME003511").code == ref(ann)
    assert players.player_by_member_no(" me003511 ").code == ref(ann)
    for unknown in ("ME999999", ""):
        with pytest.raises(NotFound):
            players.player_by_member_no(unknown)


def test_a_players_last_game_is_his_latest_graded_one_of_either_rate() -> None:
    ann, bob = person(100001, "Able", "Ann"), person(100002, "Baker", "Bob")
    record_game(ann, bob, "10", dt.date(2011, 3, 1), rate="rapid")
    record_game(bob, ann, "55", dt.date(2011, 5, 2))
    record_game(ann, bob, "1d", dt.date(2011, 6, 9), graded=False)  # a default: not graded
    assert players.player_info(players.locate(ref(ann))).date_last_game == dt.date(2011, 5, 2)


def test_each_found_players_last_game_counts_his_merged_records_games_on_either_side() -> None:
    """G28: a merged record's games are its survivor's; the latest graded game of each
    player a name search finds, whichever side he played, with none for one who has only
    an ungraded game."""
    ann, bob = person(100001, "Able", "Ann"), person(100002, "Able", "Bob")
    cal = person(100003, "Able", "Cal")
    old_ann = person(100004, "Able", "A", merged_into=ann)
    record_game(ann, bob, "10", dt.date(2011, 3, 1))
    record_game(bob, old_ann, "01", dt.date(2011, 8, 20))  # Ann's later game, as her old record
    record_game(cal, bob, "1d", dt.date(2011, 9, 9), graded=False)

    found = {p.code: p.date_last_game for p in players.players_named("able")}

    assert found == {
        ref(ann): dt.date(2011, 8, 20),
        ref(bob): dt.date(2011, 8, 20),
        ref(cal): None,
    }


def test_a_name_stem_finds_surnames_and_a_comma_finds_forenames_of_one_surname() -> None:
    smith_john, smith_jane = person(100001, "Smith", "John"), person(100002, "Smith", "Jane")
    smithers, smythe = person(100003, "Smithers", "Joe"), person(100004, "Smythe", "John")

    def found(stem: str) -> list[str]:
        return [p.code for p in players.players_named(stem)]

    assert found("smi") == [ref(smith_jane), ref(smith_john), ref(smithers)]
    assert found("smith, jo") == [ref(smith_john)]
    assert found("SMYTHE") == [ref(smythe)]
    with pytest.raises(ServiceError, match="expected the start of a surname"):
        found(", jo")


def test_names_that_sound_alike_are_found_in_either_order() -> None:
    smythe = person(100001, "Smythe", "John")
    smith = person(100002, "Smith", "Jon")
    jones = person(100003, "Jones", "John")
    person(100004, "Smith", "Mary")

    def found(words: str) -> set[str]:
        return {p.code for p in sound_alike.players_sounding(words)}

    # Smith and Smythe share Soundex S530; 'Jon' and 'John' share J500.
    assert found("john smith") == {ref(smythe), ref(smith)}
    assert found("smith+john") == {ref(smythe), ref(smith)}
    assert found("jones") == {ref(jones)}
    with pytest.raises(ServiceError, match="one or two words"):
        found("john paul smith")


@pytest.mark.parametrize(
    ("word", "code"),
    # Examples of American Soundex as commonly published (h and w do not separate two
    # letters of one code; a first letter's code is not repeated).
    [
        ("robert", "R163"),
        ("rupert", "R163"),
        ("rubin", "R150"),
        ("ashcraft", "A261"),
        ("tymczak", "T522"),
        ("pfister", "P236"),
        ("honeyman", "H555"),
        ("lee", "L000"),
    ],
)
def test_soundex_codes_as_published(word: str, code: str) -> None:
    assert sound_alike.soundex(word) == code


# Games --------------------------------------------------------------------------------------


def record_game(
    one: Player,
    two: Player,
    result: str,
    day: dt.date,
    *,
    rate: str = "standard",
    colour: str = "",
    graded: bool = True,
) -> Game:
    number = next(_numbers)
    event, _ = Event.objects.get_or_create(
        code=f"EV{day.year}{rate[0]}",
        defaults={
            "name": f"Event {day.year} {rate}",
            "rate": rate,
            "start_date": dt.date(day.year - 1, 6, 1),
            "end_date": dt.date(day.year, 12, 31),
        },
    )
    sent = Submission.objects.create(event=event, event_code=event.code, raw=b"", sha256="0")
    return Game.objects.create(
        event=event, submission=sent, player1=one, player2=two, result=result, game_date=day,
        colour=colour, rate=rate, graded=graded, not_graded_reason="" if graded else "default",
        line=number, sequence=number, part_name=f"Round {number}",
    )  # fmt: skip


def test_games_carry_the_grades_of_the_list_that_graded_them(history) -> None:
    # Standard 2011-07 grades season 2010-11. Ann starts at 150, Bob at 120, Cy at 200.
    ann, bob = history["ann"], history["bob"]
    cy = person(100003, "Cole", "Cy")
    won = record_game(ann, bob, "10", dt.date(2010, 10, 1), colour="W")
    drew = record_game(cy, ann, "55", dt.date(2010, 11, 1), colour="W")
    record_game(bob, ann, "10", dt.date(2011, 8, 1), colour="B")  # not graded yet
    grading_list = GradingList.objects.get(list_id="2011-07", rate="standard")
    version = ListVersion.objects.create(grading_list=grading_list, name="august")
    starts = {ann: 150.0, bob: 120.0, cy: 200.0}
    ListEntry.objects.bulk_create(
        ListEntry(version=version, player=p, grade=int(s), category="A", start_grade=s,
                  published=True)
        for p, s in starts.items()
    )  # fmt: skip
    # G12 by hand: a win over Bob (120, within 40 of 150) is worth 120 + 50 = 170; Cy at
    # 200 is more than 40 above Ann, so he counts as 150 + 40 = 190, and a draw is 190.
    StoredGamePoints.objects.bulk_create(
        StoredGamePoints(version=version, game=game, player=ann, date=game.game_date,
                         sequence=game.sequence, points=points)
        for game, points in ((won, 170.0), (drew, 190.0))
    )  # fmt: skip
    _published(version, at("2011-08-25"))
    lines = games.graded_games(players.locate(ref(ann)), Rate.STANDARD)
    got = [
        (g.date, g.colour, g.score, g.opponent_code, g.opponent_rating, g.player_rating,
         g.increment, g.event_code)
        for g in lines
    ]  # fmt: skip
    assert got == [
        (dt.date(2011, 8, 1), "W", 0.0, ref(bob), None, None, None, "EV2011s"),  # not yet graded
        (dt.date(2010, 11, 1), "B", 0.5, ref(cy), 200, 150, 40.0, "EV2010s"),
        (dt.date(2010, 10, 1), "W", 1.0, ref(bob), 120, 150, 20.0, "EV2010s"),
    ]
    assert [g.date for g in games.graded_games(players.locate(ref(ann)), Rate.STANDARD, 1)] == [
        dt.date(2011, 8, 1)
    ]
    assert games.graded_games(players.locate(ref(ann)), Rate.RAPID) == []


# Clubs --------------------------------------------------------------------------------------


def test_active_clubs_have_a_code_and_a_member_not_lapsed() -> None:
    kent = County.objects.create(name="Kent")
    live = Club.objects.create(code="3CAN", name="Canterbury", county=kent)
    lapsed = Club.objects.create(code="3DOV", name="Dover", county=kent)
    Club.objects.create(name="Village Hall", is_location=True)
    absorbed = Club.objects.create(code="3FOL", name="Folkestone", merged_into=live)
    ann, bob = person(100001, "Able", "Ann"), person(100002, "Baker", "Bob")
    ClubMembership.objects.create(player=ann, club=live, first_season=2012, last_season=2012)
    ClubMembership.objects.create(player=bob, club=lapsed, first_season=2008, last_season=2009)
    ClubMembership.objects.create(player=bob, club=absorbed, first_season=2012, last_season=2012)
    publish("2012-07", "standard", "initial", at("2012-07-10"), {ann: (150, "A")})
    forget_index()
    # The association code is the county's (Kent: its one word, four letters; docs/api.md).
    assert clubs.active_clubs() == [clubs.ClubEntry("3CAN", "Canterbury", "KENT", "Kent")]
    assert clubs.club_by_code("3dov") == clubs.ClubEntry("3DOV", "Dover", "KENT", "Kent")
    _club, members = clubs.club_player_ids("3CAN")
    assert members == sorted([ann.id, bob.id])  # Folkestone's members are Canterbury's
    with pytest.raises(NotFound):
        clubs.club_by_code("9XXX")
