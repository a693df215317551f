"""The club lookup's services (issue 9, page 4) on a small federation built by hand.

Season 2012 (2011-12) is the reference for lapsing (C2): the latest lists are standard July
2012 and rapid January 2012. Every expected member, grade and order below is read off the
rows each test builds, worked out by hand from the rules (C2: a membership stands when it
began by 2012 and was last quoted in 2010, 2011 or 2012; G27: a revised grade differs from
the August grade).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from datetime import timedelta
from itertools import count

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.engine import GradingCode
from ecfgrading.engine.periods import season_of
from ecfgrading.lookups import clubs as club_service
from ecfgrading.lookups.clubs import (
    ClubNotFound,
    club_index,
    club_key,
    club_members,
    county_keys,
    county_members,
    find_club,
    find_clubs,
    find_county,
    warm_clubs,
)
from ecfgrading.lookups.county_teams import county_team
from ecfgrading.lookups.freshness import one_token
from ecfgrading.lookups.lists import current_season
from ecfgrading.lookups.members import Sort, graded_in, warm_members
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
    Submission,
)

pytestmark = pytest.mark.django_db

Grade = tuple[int, str] | tuple[int, str, int]  # grade, category[, junior age]
_minutes = count(1)
_codes = count(200_001)
_sequence = count(1)


@pytest.fixture(autouse=True)
def _fresh_index() -> Iterator[None]:
    """The index is kept per data token; tests that reuse ids on SQLite start afresh."""
    club_service.forget_index()
    yield
    club_service.forget_index()


def person(surname: str, forenames: str = "") -> Player:
    return Player.objects.create(code=next(_codes), surname=surname, forenames=forenames)


def ref(player: Player) -> str:
    return str(GradingCode(player.code))


def member(player: Player, club: Club, first: int, last: int) -> None:
    ClubMembership.objects.create(player=player, club=club, first_season=first, last_season=last)


def publish(
    list_id: str,
    rate: str,
    name: str,
    grades: Mapping[Player, Grade],
    unpublished: tuple[Player, ...] = (),
) -> ListVersion:
    """A published version with these entries; ``unpublished`` players are computed but
    not on the list (G23: no category)."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    version = ListVersion.objects.create(grading_list=grading_list, name=name)
    entries = [
        ListEntry(
            version=version,
            player=player,
            grade=grade[0],
            category=grade[1],
            junior_age=grade[2] if len(grade) > 2 else None,
            published=True,
        )
        for player, grade in grades.items()
    ]
    entries += [
        ListEntry(version=version, player=p, grade=40, published=False) for p in unpublished
    ]
    ListEntry.objects.bulk_create(entries)
    version.status = ListVersion.Status.PUBLISHED
    version.published_at = timezone.now() + timedelta(minutes=next(_minutes))
    version.save()
    return version


@pytest.fixture
def kent() -> dict[str, object]:
    """Kent's clubs, a merged club, a location, a Sussex club, and their members."""
    k, s = County.objects.create(name="Kent"), County.objects.create(name="Sussex")
    can = Club.objects.create(code="3CAN", name="Canterbury", county=k)
    mai = Club.objects.create(code="3MAI", name="Maidstone", county=k)
    old = Club.objects.create(name="Old Canterbury", county=k, merged_into=can)
    dov = Club.objects.create(name="Dover", county=k, is_location=True)
    bri = Club.objects.create(code="5BRI", name="Brighton", county=s)
    bur = Club.objects.create(code="5BUR", name="Bürgess Hill", county=s)
    p = {
        name: person(*name.split(", "))
        for name in (
            "Ångström, Alice",
            "Baker, Bob",
            "carter, Carl",
            "Dodd, Dave",
            "Evans, Eve",
            "Fox, Fay",
            "Green, Gus",
            "Hill, Hal",
            "Ivy, Ian",
            "Jones, Jon",
        )
    }
    absorbed = person("Ivy", "I")  # a second record of Ian Ivy, merged into his own
    absorbed.merged_into = p["Ivy, Ian"]
    absorbed.save()
    member(p["Ångström, Alice"], can, 2011, 2012)
    member(p["Baker, Bob"], old, 2010, 2010)  # last quoted 2010: still stands in 2012
    member(p["carter, Carl"], can, 2008, 2009)  # last quoted 2009: lapsed (C2)
    member(p["Dodd, Dave"], can, 2011, 2012)
    member(p["Evans, Eve"], can, 2011, 2012)
    member(p["Fox, Fay"], mai, 2012, 2012)
    member(p["Green, Gus"], bri, 2012, 2012)
    member(p["Hill, Hal"], dov, 2011, 2011)
    member(absorbed, can, 2012, 2012)
    member(p["Jones, Jon"], can, 2013, 2013)  # first quoted after the reference season
    old_list = {p["Dodd, Dave"]: (120, "E"), p["Ångström, Alice"]: (145, "C")}
    publish("2011-07", "standard", "initial", old_list)
    publish("2011-07", "standard", "august", old_list)
    current = {
        p["Ångström, Alice"]: (150, "B"),
        p["Baker, Bob"]: (180, "A"),
        p["carter, Carl"]: (160, "C"),
        p["Green, Gus"]: (170, "B"),
        p["Ivy, Ian"]: (140, "D"),
    }
    publish("2012-07", "standard", "initial", {**current, p["Fox, Fay"]: (130, "E", 14)})
    publish("2012-07", "standard", "august", {**current, p["Fox, Fay"]: (128, "E", 14)},
            unpublished=(p["Evans, Eve"],))  # fmt: skip
    publish("2012-07", "standard", "rev1", {**current, p["Fox, Fay"]: (133, "E", 14)},
            unpublished=(p["Evans, Eve"],))  # fmt: skip
    publish(
        "2012-01", "rapid", "initial", {p["Ångström, Alice"]: (140, "C"), p["Hill, Hal"]: (99, "D")}
    )
    return {"players": p, "clubs": {"can": can, "mai": mai, "old": old, "dov": dov, "bri": bri,
            "bur": bur}, "counties": {"kent": k, "sussex": s}}  # fmt: skip


def codes(found: object) -> list[str]:
    return [row.code for row in found.page.items]  # type: ignore[attr-defined]


def refs(players: dict[str, Player], *names: str) -> list[str]:
    return [ref(players[name]) for name in names]


# The lookup ---------------------------------------------------------------------------------


def test_the_first_letters_find_clubs_and_counties_case_ignored(kent) -> None:
    found = find_clubs("MAI")
    assert [(m.kind, m.name) for m in found.page.items] == [("club", "Maidstone")]
    assert [(m.kind, m.name) for m in find_clubs("ken").page.items] == [("county", "Kent")]
    assert [m.name for m in find_clubs("sus").page.items] == ["Sussex"]


def test_accents_do_not_matter_and_a_later_word_matches_too(kent) -> None:
    assert [m.name for m in find_clubs("burg").page.items] == ["Bürgess Hill"]
    assert [m.name for m in find_clubs("Bürg").page.items] == ["Bürgess Hill"]
    assert [m.name for m in find_clubs("hill").page.items] == ["Bürgess Hill"]


def test_whole_names_come_before_a_later_word_of_a_name(kent) -> None:
    # 'can' starts Canterbury; it starts only the second word of Old Canterbury.
    Club.objects.create(code="3CAJ", name="Canterbury Juniors", county=kent["counties"]["kent"])
    club_service.forget_index()
    assert [m.name for m in find_clubs("can").page.items] == [
        "Canterbury",
        "Canterbury Juniors",
        "Old Canterbury",
    ]


def test_a_club_code_finds_its_club_first(kent) -> None:
    found = find_clubs("3mai")
    assert found.page.items[0].name == "Maidstone"
    assert found.page.items[0].club.code == "3MAI"


def test_a_merged_club_appears_under_both_names(kent) -> None:
    old = find_clubs("old").page.items
    assert [m.name for m in old] == ["Old Canterbury"]
    assert old[0].merged_into.code == "3CAN"
    survivor = find_clubs("canterbury").page.items[0]
    assert [c.name for c in survivor.absorbed] == ["Old Canterbury"]


def test_each_club_found_names_its_county_and_how_many_clubs_it_has(kent) -> None:
    found = find_clubs("maid").page.items[0]
    assert (found.county.name, found.county.key, found.county.clubs) == ("Kent", "kent", 4)
    county = find_clubs("kent").page.items[0]
    assert (county.kind, county.club, county.county.clubs) == ("county", None, 4)


def test_nothing_matches_and_a_blank_query_finds_nothing(kent) -> None:
    assert find_clubs("zzz").page.total == 0
    blank = find_clubs("   ")
    assert (blank.query, blank.page.total) == ("", 0)


def test_the_lookup_pages_long_results() -> None:
    county = County.objects.create(name="Yorkshire")
    Club.objects.bulk_create(
        Club(code=f"1A{n:02d}", name=f"Abbey {n:02d}", county=county) for n in range(7)
    )
    second = find_clubs("abbey", page=2, per_page=3)
    assert [m.name for m in second.page.items] == ["Abbey 03", "Abbey 04", "Abbey 05"]
    assert (second.page.total, second.page.pages) == (7, 3)
    assert find_clubs("abbey", page=9, per_page=3).page.number == 3  # past the end: the last


def test_the_lookup_is_read_from_the_index_without_a_query_per_club() -> None:
    county = County.objects.create(name="Yorkshire")
    Club.objects.bulk_create(
        Club(code=f"1B{n:02d}", name=f"Bradford {n:02d}", county=county) for n in range(40)
    )
    club_index()
    with CaptureQueriesContext(connection) as queries:
        found = find_clubs("brad")
    assert found.page.total == 40
    assert len(queries.captured_queries) == 1  # the data token only: the index is kept


# Addresses ----------------------------------------------------------------------------------


def test_a_club_is_addressed_by_its_code_or_else_by_its_id() -> None:
    assert club_key("3CAN", 7) == "3CAN"
    assert club_key(None, 7) == "club-7"
    assert club_key("3/AB", 7) == "club-7"  # a code that cannot stand in an address


def test_county_addresses_are_folded_names_and_a_clash_adds_the_id() -> None:
    assert county_keys([(1, "Isle of Wight"), (2, "Kent"), (3, "Åland")]) == {
        1: "isle-of-wight",
        2: "kent",
        3: "aland",
    }
    assert county_keys([(4, "St Albans"), (9, "St. Albans")]) == {4: "st-albans", 9: "st-albans-9"}


def test_a_club_known_by_name_that_tells_its_code_moves_to_the_code(kent) -> None:
    dover = kent["clubs"]["dov"]
    assert find_club(f"club-{dover.id}").key == f"club-{dover.id}"
    Club.objects.filter(id=dover.id).update(code="3DOV")
    club_service.forget_index()
    assert find_club(f"club-{dover.id}").key == "3DOV"
    assert find_club("3dov").key == "3DOV"


def test_unknown_addresses_are_not_found(kent) -> None:
    for missing in ("9ZZZ", "club-999999", "club-x"):
        with pytest.raises(ClubNotFound):
            find_club(missing)
    with pytest.raises(ClubNotFound):
        find_county("nowhere")
    with pytest.raises(ClubNotFound):
        club_members("9ZZZ")


# Members ------------------------------------------------------------------------------------


def test_c2_members_are_those_whose_membership_has_not_lapsed(kent) -> None:
    p = kent["players"]
    # Carl's Canterbury was last quoted in 2009, Jon's first in 2013: neither is a member.
    # Eve is computed but on no list; Dave was graded only in 2011: not active.
    found = club_members("3CAN")
    assert codes(found) == refs(p, "Ångström, Alice", "Baker, Bob", "Ivy, Ian")
    assert found.season == 2012 == current_season()


def test_a_merged_clubs_members_are_listed_under_both_names(kent) -> None:
    old = kent["clubs"]["old"]
    assert codes(club_members(f"club-{old.id}")) == codes(club_members("3CAN"))
    listing = club_members(f"club-{old.id}")
    assert (listing.name, listing.merged_into.code) == ("Old Canterbury", "3CAN")


def test_an_absorbed_player_record_counts_as_the_player_it_was_merged_into(kent) -> None:
    p = kent["players"]
    ivy = next(m for m in club_members("3CAN").page.items if m.code == ref(p["Ivy, Ian"]))
    assert (ivy.name, ivy.standard.grade) == ("Ivy, Ian", 140)


def test_inactive_adds_members_graded_at_any_time_with_their_lists(kent) -> None:
    p = kent["players"]
    found = club_members("3CAN", inactive=True)
    assert codes(found) == refs(p, "Ångström, Alice", "Baker, Bob", "Dodd, Dave", "Ivy, Ian")
    dave = found.page.items[2]
    assert (dave.standard.grade, dave.standard.category) == (120, "E")
    assert (dave.standard.list_id, dave.standard.current, dave.active) == ("2011-07", False, False)
    assert dave.rapid is None


def test_a_row_shows_the_current_grade_of_each_rate(kent) -> None:
    p = kent["players"]
    alice = club_members("3CAN").page.items[0]
    assert alice.name == "Ångström, Alice"
    assert (alice.standard.grade, alice.standard.category, alice.standard.list_id) == (
        150,
        "B",
        "2012-07",
    )
    assert (alice.rapid.grade, alice.rapid.category, alice.rapid.list_id) == (140, "C", "2012-01")
    assert alice.standard.current and alice.rapid.current
    assert alice.code == ref(p["Ångström, Alice"])


def test_sorted_by_name_case_and_accents_ignored(kent) -> None:
    p = kent["players"]
    names = ["Ångström, Alice", "Baker, Bob", "Fox, Fay", "Hill, Hal", "Ivy, Ian"]
    assert codes(county_members("kent")) == refs(p, *names)


def test_sorted_by_standard_grade_highest_first_the_ungraded_last(kent) -> None:
    p = kent["players"]
    found = county_members("kent", sort=Sort.STANDARD)
    # Bob 180, Alice 150, Ian 140, Fay 133 (rev1); Hal has no standard grade.
    assert codes(found) == refs(
        p, "Baker, Bob", "Ångström, Alice", "Ivy, Ian", "Fox, Fay", "Hill, Hal"
    )


def test_sorted_by_rapid_grade_then_by_name(kent) -> None:
    p = kent["players"]
    found = county_members("kent", sort=Sort.RAPID)
    # Alice 140, Hal 99; the rest have no rapid grade and follow by name.
    assert codes(found) == refs(
        p, "Ångström, Alice", "Hill, Hal", "Baker, Bob", "Fox, Fay", "Ivy, Ian"
    )


def test_inactive_members_by_grade_use_each_ones_latest_grade(kent) -> None:
    p = kent["players"]
    found = club_members("3CAN", inactive=True, sort=Sort.STANDARD)
    # Bob 180, Alice 150, Ian 140 (July 2012), Dave 120 (his July 2011 grade).
    assert codes(found) == refs(p, "Baker, Bob", "Ångström, Alice", "Ivy, Ian", "Dodd, Dave")
    second = club_members("3CAN", inactive=True, sort=Sort.STANDARD, page=2, per_page=3)
    assert (codes(second), second.page.total) == (refs(p, "Dodd, Dave"), 4)


def test_a_page_by_grade_continues_the_order_of_the_first(kent) -> None:
    p = kent["players"]
    first = county_members("kent", sort=Sort.STANDARD, per_page=2)
    second = county_members("kent", sort=Sort.STANDARD, page=2, per_page=2)
    last = county_members("kent", sort=Sort.STANDARD, page=3, per_page=2)
    assert codes(first) + codes(second) + codes(last) == refs(
        p, "Baker, Bob", "Ångström, Alice", "Ivy, Ian", "Fox, Fay", "Hill, Hal"
    )


def test_g27_a_grade_revised_after_august_is_marked_with_the_august_grade(kent) -> None:
    p = kent["players"]
    rows = {m.code: m for m in club_members("3MAI").page.items}
    fay = rows[ref(p["Fox, Fay"])]
    assert (fay.standard.grade, fay.standard.august_grade, fay.standard.revised) == (133, 128, True)
    assert (fay.revised, fay.junior_age) == (True, 14)
    alice = club_members("3CAN").page.items[0]
    assert (alice.standard.august_grade, alice.standard.revised) == (150, False)


def test_a_county_lists_the_members_of_all_its_clubs_with_their_clubs(kent) -> None:
    found = county_members("kent")
    by_name = {m.name: m.clubs for m in found.page.items}
    assert by_name == {
        "Ångström, Alice": ("Canterbury",),
        "Baker, Bob": ("Old Canterbury",),
        "Fox, Fay": ("Maidstone",),
        "Hill, Hal": ("Dover*",),
        "Ivy, Ian": ("Canterbury",),
    }
    assert [club.label for club in found.clubs] == [
        "Canterbury",
        "Dover*",
        "Maidstone",
        "Old Canterbury",
    ]


def test_member_lists_come_in_pages(kent) -> None:
    found = county_members("kent", page=2, per_page=2)
    assert [m.name for m in found.page.items] == ["Fox, Fay", "Hill, Hal"]
    assert (found.page.total, found.page.pages) == (5, 3)


def test_a_members_page_reads_the_same_few_queries_whatever_its_size(kent) -> None:
    can = kent["clubs"]["can"]

    def queries() -> int:
        club_service.forget_index()
        club_index()  # the index is built once per data token, not per page
        warm_members()  # ... as is who is graded now (web.warming)
        with CaptureQueriesContext(connection) as captured, one_token():  # as a request
            club_members("3CAN", sort=Sort.STANDARD)
        return len(captured.captured_queries)

    few = queries()
    more = [person(f"Member{n:02d}") for n in range(30)]
    for player in more:
        member(player, can, 2012, 2012)
    rev1 = ListEntry.objects.filter(version__name="rev1", published=True)
    kept: dict[Player, Grade] = {e.player: (e.grade, e.category) for e in rev1}
    publish("2012-07", "standard", "rev2", {**kept, **dict.fromkeys(more, (100, "E"))})
    assert club_members("3CAN").page.total == 3 + 30
    # The data token, the lists, the merged records (Ian Ivy has one) and those among the
    # members, the members in order, the page's entries: never one per member.
    assert queries() == few == 6


def test_a_countys_members_are_put_in_order_once_a_token_while_warming(kent) -> None:
    """Issue 25: a county's members in order (a national county's 6,000) are read once
    per data token, while warming, as its team is: its page then reads them from memory,
    a query fewer, the same page. New data is a new token: its members read again."""
    club_service.forget_index()
    club_index()  # built once per data token, as warming would
    warm_members()
    with CaptureQueriesContext(connection) as made_cold, one_token():
        cold = county_members("kent")
    club_service.forget_index()
    warm_clubs()
    with CaptureQueriesContext(connection) as made_warm, one_token():
        warm = county_members("kent")
    assert warm == cold
    assert len(made_warm) == len(made_cold) - 1
    by_grade = county_members("kent", sort=Sort.STANDARD)  # an order of its own, kept apart
    assert [m.name for m in by_grade.page.items][:2] == ["Baker, Bob", "Ångström, Alice"]
    # Gus, graded, of a Sussex club, joins Canterbury: no list published, the same
    # versions, only the token tells.
    member(kent["players"]["Green, Gus"], kent["clubs"]["can"], 2012, 2012)
    again = county_members("kent")
    assert again.page.total == cold.page.total + 1
    assert "Green, Gus" in [m.name for m in again.page.items]


def test_who_is_graded_is_read_as_a_set_without_an_order(kent) -> None:
    """Issue 25: who is graded in a list's versions is made a set of, and read without
    the entries' default order (by list, version and name: a national list's 45,000
    joined to their players and sorted, 120 ms of the 130 its statement took)."""
    versions = sorted(set(ListEntry.objects.order_by().values_list("version_id", flat=True)))
    with CaptureQueriesContext(connection) as captured:
        graded = graded_in(versions)
    (read,) = [q["sql"] for q in captured.captured_queries if "registry_listentry" in q["sql"]]
    assert "ORDER BY" not in read
    published = ListEntry.objects.filter(version_id__in=versions, published=True)
    assert graded == set(published.values_list("player_id", flat=True)) != set()


# County teams -------------------------------------------------------------------------------


def county_match(*games: tuple[str, Player, Player, dt.date], superseded: bool = False) -> None:
    """Games of a county match event: (the match's name, PIN1, PIN2, the day)."""
    code = f"CM{next(_sequence):06d}"
    days = [game[3] for game in games]
    event = Event.objects.create(
        code=code, name=f"County Matches {code}", kind=Event.Kind.COUNTY_MATCH, rate="standard",
        start_date=min(days), end_date=max(days), status=Event.Status.RECEIVED,
    )  # fmt: skip
    sent = Submission.objects.create(event=event, event_code=code, raw=b"", sha256="0")
    Game.objects.bulk_create(
        Game(
            event=event,
            submission=sent,
            player1=first,
            player2=second,
            result="10",
            game_date=day,
            board=board,
            part_kind=Game.Part.MATCH,
            part_name=name,
            rate="standard",
            graded=not superseded,
            not_graded_reason="superseded" if superseded else "",
            line=board,
            sequence=next(_sequence),
        )
        for board, (name, first, second, day) in enumerate(games, start=1)
    )


def team_ids(county: str) -> set[int]:
    """The county team as its page reads it: every county's worked out together, with
    the club index of the data token."""
    index = club_index()
    found = county_team(index.county_team(index.county_by_key[county]))
    return set(Player.objects.filter(found.players).values_list("id", flat=True))


def test_a_county_team_is_who_played_a_county_match_quoted_with_its_clubs(kent) -> None:
    p = kent["players"]
    day = dt.date(2011, 10, 1)  # season 2012: Alice's Canterbury and Gus's Brighton stand
    county_match(("Kent v Sussex (Open)", p["Ångström, Alice"], p["Green, Gus"], day))
    assert team_ids("kent") == {p["Ångström, Alice"].id}
    assert team_ids("sussex") == {p["Green, Gus"].id}


def test_a_county_team_needs_the_club_quoted_in_the_season_of_the_match(kent) -> None:
    p = kent["players"]
    # Hal's Dover was quoted in 2011 only; he played in season 2012 for 'Surrey'.
    county_match(("Surrey v Sussex (U160)", p["Hill, Hal"], p["Green, Gus"], dt.date(2012, 3, 1)))
    assert p["Hill, Hal"].id not in team_ids("kent")


def test_a_player_quoted_with_no_club_plays_for_the_side_the_match_name_gives(kent) -> None:
    kim, lou, mo, ned = (person(name) for name in ("Kim", "Lou", "Mo", "Ned"))
    day = dt.date(2012, 2, 4)
    county_match(("Kent v Sussex (Open)", kim, lou, day), ("Sussex v Kent", mo, ned, day))
    assert team_ids("kent") == {kim.id, ned.id}
    assert team_ids("sussex") == {lou.id, mo.id}


def test_a_county_team_club_quoted_for_the_player_puts_him_in_its_team(kent) -> None:
    team = Club.objects.create(name="Kent")  # a club named after the county, in no county
    pat, quinn = person("Pat"), person("Quinn")
    member(pat, team, 2012, 2012)
    county_match(("Sussex v Kent", pat, quinn, dt.date(2012, 1, 14)))
    assert pat.id in team_ids("kent")
    assert pat.id not in team_ids("sussex")  # his club says Kent, whatever the order says
    assert quinn.id in team_ids("kent")  # no club: the away side of 'Sussex v Kent'


def test_superseded_results_put_no_one_in_a_team(kent) -> None:
    p = kent["players"]
    # Bob's Old Canterbury stands for season 2010, when this replaced match was played.
    day = dt.date(2009, 10, 1)
    county_match(("Kent v Sussex", p["Baker, Bob"], p["Green, Gus"], day), superseded=True)
    assert team_ids("kent") == set()


def test_the_county_team_page_lists_the_graded_players_of_the_team(kent) -> None:
    p = kent["players"]
    day = dt.date(2011, 10, 1)
    county_match(
        ("Kent v Sussex", p["Ångström, Alice"], p["Green, Gus"], day),
        ("Kent v Sussex", p["Dodd, Dave"], person("Ungraded"), day),
    )
    team = county_members("kent", team=True)
    assert (team.kind, codes(team)) == ("county-team", refs(p, "Ångström, Alice"))
    everyone = county_members("kent", team=True, inactive=True)
    assert codes(everyone) == refs(p, "Ångström, Alice", "Dodd, Dave")


@pytest.mark.parametrize(
    ("day", "season"),
    [
        (dt.date(2011, 5, 31), 2011),  # 1 June 2010 .. 31 May 2011 is season 2011 (2010-11)
        (dt.date(2011, 6, 1), 2012),
        (dt.date(2011, 12, 31), 2012),
        (dt.date(2012, 1, 1), 2012),
        (dt.date(2012, 5, 31), 2012),
        (dt.date(2012, 6, 1), 2013),
    ],
)
def test_a_county_team_reckons_a_games_season_by_the_engines_season(
    day: dt.date, season: int
) -> None:
    """The season a membership must be quoted in is the game's (1 June .. 31 May): Pat,
    quoted with a Kent club in that season only, played for Kent; a day later or earlier
    across the boundary, Quinn, quoted in the season before only, did not."""
    kent = County.objects.create(name="Kent")
    club = Club.objects.create(code="3CAN", name="Canterbury", county=kent)
    pat, quinn = person("Pat"), person("Quinn")
    member(pat, club, season, season)
    member(quinn, club, season - 1, season - 1)
    county_match(("Surrey v Sussex", pat, quinn, day))  # the name places no one in Kent
    assert season_of(day) == season
    assert team_ids("kent") == {pat.id}
