"""The player lookup's service (issue 9, page 2) on small lists built by hand.

Each test builds the published versions it needs; the expected players, counts and
grades are read off those hand-made rows, never off the service's own output.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.engine import GradingCode
from ecfgrading.lookups.search import resolve_code, search_players
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PlayerAlias,
)

pytestmark = pytest.mark.django_db

Grade = tuple[int, str] | tuple[int, str, int]  # grade, category[, junior age]
_published = iter(range(1, 1000))


def person(code: int, surname: str, forenames: str = "", **fields: object) -> Player:
    return Player.objects.create(code=code, surname=surname, forenames=forenames, **fields)


def publish(
    list_id: str,
    rate: str,
    name: str,
    grades: Mapping[Player, Grade],
    *,
    unpublished: Mapping[Player, Grade] | None = None,
    draft: bool = False,
) -> ListVersion:
    """A version of a list with an entry per player: published entries for ``grades``, and
    entries without a category (G23: not on the list) for ``unpublished``."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    version = ListVersion.objects.create(grading_list=grading_list, name=name)
    rows = [(p, g, True) for p, g in grades.items()]
    rows += [(p, g, False) for p, g in (unpublished or {}).items()]
    ListEntry.objects.bulk_create(
        ListEntry(
            version=version,
            player=player,
            grade=grade[0],
            category=grade[1] if shown else "",
            junior_age=grade[2] if len(grade) > 2 else None,
            published=shown,
        )
        for player, grade, shown in rows
    )
    if not draft:
        version.status = ListVersion.Status.PUBLISHED
        version.published_at = timezone.now() + timedelta(minutes=next(_published))
        version.save()
    return version


def codes(found: object) -> list[str]:
    return [row.code for row in found.players]  # type: ignore[attr-defined]


def ref(player: Player) -> str:
    return str(GradingCode(player.code))


# Query forms -------------------------------------------------------------------------------


@pytest.fixture
def smiths() -> dict[str, Player]:
    """Three Smiths, a Smithers and a Müller, all on the current standard list."""
    players = {
        "john": person(100001, "Smith", "John"),
        "jane": person(100002, "Smith", "Jane"),
        "smithers": person(100003, "Smithers", "Adam"),
        "muller": person(100004, "Müller", "Hans"),
        "smythe": person(100005, "Smythe", "Sam"),
    }
    publish("2012-07", "standard", "initial", dict.fromkeys(players.values(), (150, "A")))
    return players


def test_a_prefix_finds_every_surname_that_starts_with_it(smiths) -> None:
    found = search_players("smi")
    # Key order is byte order: the comma after 'smith' sorts before any letter, so both
    # Smiths (Jane before John) come before Smithers; Smythe does not match.
    assert codes(found) == [ref(smiths["jane"]), ref(smiths["john"]), ref(smiths["smithers"])]
    assert found.page.total == 3


def test_surname_comma_initial_finds_only_that_surname(smiths) -> None:
    assert codes(search_players("smith, j")) == [ref(smiths["jane"]), ref(smiths["john"])]
    assert codes(search_players("Smith,John")) == [ref(smiths["john"])]
    assert codes(search_players("SMITH ,  JO")) == [ref(smiths["john"])]


def test_accents_and_case_do_not_matter_either_way(smiths) -> None:
    # A 'Smith' found by 'smíth'; a 'Müller' found by 'muller', 'MULLER' and 'Müll'.
    assert codes(search_players("smíth, john")) == [ref(smiths["john"])]
    for query in ("muller", "MULLER", "Müll", "mull"):
        assert codes(search_players(query)) == [ref(smiths["muller"])], query


def test_a_hyphen_or_space_in_a_surname_does_not_matter() -> None:
    player = person(100001, "Smith-Jones", "Mary")
    publish("2012-07", "standard", "initial", {player: (120, "C")})
    for query in ("smith jones", "Smith-Jones, M", "smithjones"):
        assert codes(search_players(query)) == [ref(player)], query


def test_a_blank_query_finds_nothing_and_asks_nothing(smiths) -> None:
    with CaptureQueriesContext(connection) as queries:
        found = search_players("   ")
    assert found.blank and found.page.total == 0 and not found.problem
    assert len(queries) == 0


def test_a_query_without_a_surname_letter_is_refused_with_a_reason(smiths) -> None:
    found = search_players(", john")
    assert found.page.total == 0
    assert "first letter of the surname" in found.problem


def test_a_search_that_finds_nothing_offers_a_shorter_query(smiths) -> None:
    assert search_players("smithson").shorter == "smi"
    assert search_players("Smithson, J").shorter == "Smithson"
    assert search_players("smith").shorter == ""  # it found players


# Codes -------------------------------------------------------------------------------------


def test_a_code_with_or_without_its_check_letter_names_its_player(smiths) -> None:
    john = smiths["john"]
    full = ref(john)
    for query in (full, full.lower(), str(john.code), f" {john.code} {full[-1]} "):
        assert resolve_code(query) == full, query
        assert search_players(query).code == full, query
    assert codes(search_players(str(john.code))) == [full]  # the JSON twin's one player


def test_a_wrong_check_letter_is_not_that_players_code(smiths) -> None:
    john = smiths["john"]
    right = GradingCode(john.code).letter
    wrong = next(letter for letter in "ABCDEFGHJKL" if letter != right)
    query = f"{john.code}{wrong}"

    found = search_players(query)

    assert resolve_code(query) is None
    assert found.code is None and found.page.total == 0
    assert "check letter is wrong" in found.problem and f"take {right}" in found.problem


def test_a_code_no_one_holds_says_so() -> None:
    found = search_players("233310H")  # valid (G28), held by no one
    assert resolve_code("233310H") is None
    assert found.problem == "No player on record has the code 233310H."


def test_digits_that_are_not_a_code_say_what_a_code_is() -> None:
    for query in ("12345", "1234567", "12345A"):
        found = search_players(query)
        assert found.code is None and "six digits" in found.problem, query


def test_a_merged_code_resolves_to_the_surviving_player() -> None:
    survivor = person(100001, "Jones", "Ann")
    middle = person(100002, "Jones", "A", merged_into=survivor)
    first = person(100003, "Jones", "Anne", merged_into=middle)  # a chain of two merges
    PlayerAlias.objects.create(code=100004, player=survivor)  # a code without a record

    for code in (middle.code, first.code, 100004):
        assert resolve_code(str(GradingCode(code))) == ref(survivor), code
        assert resolve_code(str(code)) == ref(survivor), code


# Active and inactive players ---------------------------------------------------------------


@pytest.fixture
def federation() -> dict[str, Player]:
    """Current lists: standard 2012-07 (initial, august), rapid 2012-01. Earlier: standard
    2011-07 (initial, august) and rapid 2011-07."""
    p = {
        "both": person(100001, "Able", "Both"),
        "rapid": person(100002, "Able", "Rapid"),
        "lapsed": person(100003, "Able", "Lapsed"),
        "unlisted": person(100004, "Able", "Unlisted"),
        "draft": person(100005, "Able", "Draft"),
        "never": person(100006, "Able", "Never"),
    }
    p["merged"] = person(100007, "Able", "Merged", merged_into=p["both"])
    publish("2011-07", "standard", "initial", {p["lapsed"]: (101, "D")})
    publish("2011-07", "standard", "august", {p["lapsed"]: (104, "D", 16)})
    publish("2011-07", "rapid", "initial", {p["lapsed"]: (99, "E"), p["both"]: (140, "C")})
    publish("2012-01", "rapid", "initial", {p["both"]: (145, "B"), p["rapid"]: (90, "E", 12)})
    standard = {p["both"]: (150, "A"), p["merged"]: (130, "B")}
    publish("2012-07", "standard", "initial", standard, unpublished={p["unlisted"]: (80, "")})
    publish("2012-07", "standard", "august", standard, unpublished={p["unlisted"]: (82, "")})
    publish("2013-07", "standard", "initial", {p["draft"]: (110, "E")}, draft=True)
    return p


def test_by_default_only_players_on_a_current_list_are_found(federation) -> None:
    found = search_players("able")
    # Both (standard and rapid), Rapid (rapid only); not Lapsed (earlier lists only), not
    # Unlisted (an entry without a category), not Draft (a draft version), not Never, not
    # Merged (merged into Both). Key order: 'able,both' < 'able,rapid'.
    assert codes(found) == [ref(federation["both"]), ref(federation["rapid"])]
    both, rapid = found.players
    assert (both.standard.grade, both.standard.category) == (150, "A")
    assert (both.rapid.grade, both.rapid.category, both.rapid.list) == (145, "B", "2012-01")
    assert rapid.standard is None and rapid.junior_age == 12


def test_inactive_players_are_everyone_graded_in_any_published_version(federation) -> None:
    found = search_players("able", inactive=True)
    assert codes(found) == [ref(federation[k]) for k in ("both", "lapsed", "rapid")]


def test_an_inactive_players_latest_grades_come_with_their_lists(federation) -> None:
    lapsed = search_players("able, lapsed", inactive=True).players[0]
    # Standard: 2011-07 august (104) is later than 2011-07 initial (101); rapid: 2011-07.
    assert (lapsed.standard.grade, lapsed.standard.list, lapsed.standard.version) == (
        104,
        "2011-07",
        "august",
    )
    assert not lapsed.standard.current and lapsed.standard.list_label == "July 2011"
    assert (lapsed.rapid.grade, lapsed.rapid.list, lapsed.rapid.current) == (99, "2011-07", False)
    assert (lapsed.junior_age, lapsed.junior_age_from) == (16, "2011-07")


def test_an_active_players_current_grades_are_marked_current(federation) -> None:
    both = search_players("able, both", inactive=True).players[0]
    assert both.standard.current and both.rapid.current
    assert both.junior_age is None and both.junior_age_from is None


def test_the_current_versions_are_named(federation) -> None:
    found = search_players("able")
    assert [(v.rate.value, v.list_id, v.name) for v in found.current] == [
        ("standard", "2012-07", "august"),
        ("rapid", "2012-01", "initial"),
    ]


# G27: revised since August ------------------------------------------------------------------


@pytest.fixture
def revised() -> dict[str, Player]:
    p = {
        "up": person(100001, "Baker", "Up"),
        "same": person(100002, "Baker", "Same"),
        "late": person(100003, "Baker", "Late"),  # on the list only after August
    }
    july = {p["up"]: (140, "B"), p["same"]: (120, "C")}
    publish("2012-07", "standard", "initial", july)
    publish("2012-07", "standard", "august", july)
    publish(
        "2012-07",
        "standard",
        "rev1",
        {p["up"]: (143, "B"), p["same"]: (120, "C"), p["late"]: (100, "E")},
    )
    publish("2012-07", "rapid", "initial", {p["up"]: (130, "D")})
    return p


def test_g27_a_grade_revised_after_august_is_marked_with_its_august_grade(revised) -> None:
    rows = {row.name: row for row in search_players("baker").players}
    up, same, late = rows["Baker, Up"], rows["Baker, Same"], rows["Baker, Late"]
    assert (up.standard.grade, up.standard.august_grade, up.standard.revised) == (143, 140, True)
    assert (same.standard.august_grade, same.standard.revised) == (120, False)
    assert (late.standard.august_grade, late.standard.revised) == (None, True)
    assert up.revised and not same.revised
    # The rapid July list has no August version yet: nothing to differ from.
    assert (up.rapid.august_grade, up.rapid.revised) == (None, False)


def test_g27_the_august_version_itself_is_never_revised() -> None:
    player = person(100001, "Baker", "Up")
    publish("2012-07", "standard", "initial", {player: (138, "B")})
    publish("2012-07", "standard", "august", {player: (140, "B")})  # changed in August: fine

    (row,) = search_players("baker").players

    assert (row.standard.grade, row.standard.august_grade, row.standard.revised) == (
        140,
        140,
        False,
    )


def test_g27_a_page_with_a_revised_row_says_so(revised) -> None:
    assert search_players("baker").revised
    assert not search_players("baker, same").revised


# Clubs --------------------------------------------------------------------------------------


def test_a_row_shows_the_clubs_not_lapsed_most_recent_first(smiths) -> None:
    john = smiths["john"]
    # The current list is July 2012: season 2011-12, called 2012. C2: a club last quoted in
    # 2009 (three seasons before) has lapsed; one quoted in 2010 has not.
    clubs = {}
    for name, code, location, last in (
        ("Anytown", "1ANY", False, 2012),
        ("Hall", None, True, 2010),
        ("Old", "1OLD", False, 2009),
    ):
        clubs[name] = Club.objects.create(name=name, code=code, is_location=location)
        ClubMembership.objects.create(
            player=john, club=clubs[name], first_season=2008, last_season=last
        )

    (row,) = search_players("smith, john").players

    assert [club.label for club in row.clubs] == ["Anytown", "Hall*"]
    # Each links to its page: by code, or by id for a club known by name only.
    assert [club.key for club in row.clubs] == ["1ANY", f"club-{clubs['Hall'].id}"]


# Pages ---------------------------------------------------------------------------------------


@pytest.fixture
def many() -> list[Player]:
    """120 active players named Abbott, and one Abbey who is not active."""
    players = [person(200000 + n, "Abbott", f"P{n:03d}") for n in range(1, 121)]
    publish("2012-07", "standard", "initial", {p: (100 + p.code % 50, "E") for p in players})
    person(300001, "Abbey", "Inactive")
    return players


def test_a_long_result_comes_fifty_to_a_page(many) -> None:
    first, third = search_players("abb"), search_players("abb", page=3)
    assert (first.page.total, len(first.players), first.page.pages) == (120, 50, 3)
    assert (first.page.first_index, first.page.last_index) == (1, 50)
    assert codes(first) == [ref(p) for p in many[:50]]  # P001..P050: forename order
    assert codes(third) == [ref(p) for p in many[100:]]
    assert (third.page.first_index, third.page.last_index) == (101, 120)


def test_a_page_past_the_end_shows_the_last_page(many) -> None:
    found = search_players("abb", page=9)
    assert (found.page.number, found.page.total) == (3, 120)
    assert codes(found) == [ref(p) for p in many[100:]]


def test_the_query_count_does_not_grow_with_the_page(many) -> None:
    counts = []
    for per_page in (5, 50):
        for inactive in (False, True):
            with CaptureQueriesContext(connection) as queries:
                found = search_players("abb", inactive=inactive, per_page=per_page)
            assert len(found.players) == per_page
            counts.append(len(queries))
    # Versions, the page with its total, the page's entries, their clubs.
    assert counts == [4, 4, 4, 4]


def test_the_lookup_reads_an_index_range_not_a_pattern(many) -> None:
    with CaptureQueriesContext(connection) as queries:
        search_players("abb")
    sql = " ".join(q["sql"] for q in queries).upper()
    assert "LIKE" not in sql and "GLOB" not in sql
    assert '"NAME_KEY" >= ' in sql and '"NAME_KEY" < ' in sql
