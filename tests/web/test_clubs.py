"""/clubs/?q=, /clubs/<code>/ and /counties/<key>/ (issue 9, page 4) on the demo.

Expected clubs, members and orders come from plain queries of the registry's rows in each
test: memberships by the C2 rule written out here (a membership stands when it began by
the reference season S and was last quoted in S, S-1 or S-2), published entries of the
latest published versions, folded names; never from the pages' own services.
"""

from __future__ import annotations

import datetime as dt
import json
import unicodedata
from collections.abc import Iterator
from typing import Any
from xml.etree.ElementTree import Element

import html5lib
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.engine.periods import ListId, season_of
from ecfgrading.lookups import clubs as club_service
from ecfgrading.lookups.members import warm_members
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    County,
    Game,
    ListEntry,
    ListVersion,
    Player,
)
from ecfgrading.web.memory import MEMORY

pytestmark = pytest.mark.django_db

SITE = "ECF Grading Database"


@pytest.fixture(autouse=True)
def _fresh_index() -> Iterator[None]:
    """Tests that change clubs under one data token start from a fresh club index."""
    club_service.forget_index()
    yield
    club_service.forget_index()


# Expectations by plain queries ---------------------------------------------------------------


def plain(text: str) -> str:
    """'Bürgess Hill' -> 'burgess hill'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def current_versions() -> dict[str, ListVersion]:
    """Each rate's latest published version of its latest list."""
    found = {}
    for rate in ("standard", "rapid"):
        published = ListVersion.objects.filter(status="published", grading_list__rate=rate)
        latest = published.order_by("-grading_list__list_id").first()
        assert latest is not None
        found[rate] = published.filter(grading_list=latest.grading_list).latest("published_at")
    return found


def reference_season() -> int:
    """C2: the season of the latest current list (its latest 12 months end in it)."""
    return max(ListId.parse(v.grading_list.list_id).season() for v in current_versions().values())


def graded_ids(current_only: bool) -> set[int]:
    entries = ListEntry.objects.filter(published=True, version__status="published")
    if current_only:
        entries = entries.filter(version__in=current_versions().values())
    return set(entries.values_list("player_id", flat=True))


def ref(player_id: int) -> str:
    return str(GradingCode(Player.objects.get(id=player_id).code))


def member_ids(clubs: list[int]) -> set[int]:
    season = reference_season()
    standing = ClubMembership.objects.filter(
        club_id__in=clubs, first_season__lte=season, last_season__gte=season - 2
    )
    return set(standing.values_list("player_id", flat=True))


def expected_codes(ids: set[int], *, inactive: bool = False) -> set[str]:
    return {ref(pk) for pk in ids & graded_ids(current_only=not inactive)}


def county_key(name: str) -> str:
    return "-".join(plain(name).replace(".", "").split())


def busiest_club() -> Club:
    """The coded club with the most members on a current list."""
    active = graded_ids(current_only=True)
    clubs = Club.objects.filter(code__isnull=False, county__isnull=False)
    return max(clubs, key=lambda club: (len(member_ids([club.id]) & active), club.id))


# Reading pages -------------------------------------------------------------------------------


def parse(html: str) -> Element:
    """The page, parsed strictly: invalid HTML fails the test."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(html)


def text(element: Element | None) -> str:
    assert element is not None
    return " ".join("".join(element.itertext()).split())


def page(client: Any, path: str) -> Element:
    response = client.get(path)
    assert response.status_code == 200, response.content[:500]
    return parse(response.content.decode())


def member_rows(doc: Element) -> list[Element]:
    table = doc.find(".//table[@class='members sticky']")
    return [] if table is None else list(table.find("tbody"))  # type: ignore[arg-type]


def member_codes(doc: Element) -> list[str]:
    return [text(row.find("td[@class='code']")) for row in member_rows(doc)]


def column(doc: Element, index: int) -> list[int | None]:
    """The grades of a column (the first number in each cell, None for a dash)."""
    found = []
    for row in member_rows(doc):
        cell = text(row.findall("td")[index]).split()
        found.append(int(cell[0]) if cell and cell[0].isdigit() else None)
    return found


def cache_query(sql: str) -> bool:
    """The database cache's own statements (the shared page cache on SQLite)."""
    return "web_cache" in sql or sql.startswith(("SAVEPOINT", "RELEASE"))


def json_of(client: Any, path: str) -> Any:
    response = client.get(path, HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return json.loads(response.content)


# The lookup ----------------------------------------------------------------------------------


def test_a_blank_lookup_explains_the_four_lists(client, demo: DemoSummary) -> None:
    doc = page(client, "/clubs/")
    assert text(doc.find(".//title")) == f"Club lookup - {SITE}"
    assert doc.find(".//form[@role='search']//input[@name='q']") is not None
    words = text(doc)
    for column_name in ("Including inactive", "County team", "Clubs in county"):
        assert column_name in words
    assert doc.find(".//table") is None


def test_the_lookup_lists_clubs_and_counties_whose_names_start_so(
    client, demo: DemoSummary
) -> None:
    club = busiest_club()
    letters = plain(club.name)[:2]
    names = [c.name for c in Club.objects.all()] + [c.name for c in County.objects.all()]
    expected = {n for n in names if any(w.startswith(letters) for w in plain(n).split())}

    doc = page(client, f"/clubs/?q={letters.upper()}")

    rows = doc.findall(".//table[@class='clubs-found']/tbody/tr")
    shown = {text(row.find("th/a")).rstrip("*") for row in rows}
    assert shown == expected
    assert text(doc.find(".//title")) == f"Clubs matching '{letters.upper()}' - {SITE}"


def test_each_club_found_has_the_seeds_four_links(client, demo: DemoSummary) -> None:
    club = busiest_club()
    county = county_key(club.county.name)

    doc = page(client, f"/clubs/?q={club.code}")

    row = doc.findall(".//table[@class='clubs-found']/tbody/tr")[0]
    links = [a.get("href") for a in row.iter("a")]
    assert links == [
        f"/clubs/{club.code}/",
        f"/clubs/{club.code}/?inactive=1",
        f"/counties/{county}/?team=1",
        f"/counties/{county}/",
    ]


def test_a_county_found_leads_to_its_members_team_and_clubs(client, demo: DemoSummary) -> None:
    county = County.objects.order_by("name").first()
    assert county is not None
    key = county_key(county.name)

    doc = page(client, f"/clubs/?q={county.name.lower()}")

    rows = [
        r for r in doc.findall(".//table[@class='clubs-found']/tbody/tr") if "county" in text(r)
    ]
    links = [a.get("href") for a in rows[0].iter("a")]
    assert links == [
        f"/counties/{key}/",
        f"/counties/{key}/?inactive=1",
        f"/counties/{key}/?team=1",
        f"/counties/{key}/#clubs",
    ]


def test_a_lookup_that_finds_nothing_says_so(client, demo: DemoSummary) -> None:
    doc = page(client, "/clubs/?q=zzzz")
    assert "No club or county matches ‘zzzz’" in text(doc)
    assert doc.find(".//table") is None


def test_the_lookup_has_a_json_twin(client, demo: DemoSummary) -> None:
    club = busiest_club()
    data = json_of(client, f"/clubs/?q={club.code}")
    first = data["results"][0]
    assert (data["query"], first["kind"], first["club"]["code"]) == (club.code, "club", club.code)
    assert first["links"]["members"] == f"/clubs/{club.code}/"
    assert first["county"]["name"] == club.county.name
    assert data["page"]["total"] >= 1


# Members ------------------------------------------------------------------------------------


def test_a_club_lists_its_members_on_a_current_list(client, demo: DemoSummary) -> None:
    club = busiest_club()
    expected = expected_codes(member_ids([club.id]))
    assert expected

    doc = page(client, f"/clubs/{club.code}/")

    assert sorted(member_codes(doc)) == sorted(expected)
    assert text(doc.find(".//h1")) == f"{club.name} ({club.code}): members"
    assert text(doc.find(".//title")).startswith(f"{club.name} ({club.code}): members")
    canonical = doc.find(".//link[@rel='canonical']")
    assert (
        canonical is not None
        and canonical.get("href") == f"http://127.0.0.1:8000/clubs/{club.code}/"
    )
    first = member_rows(doc)[0].find("th/a")
    assert first is not None and first.get("href") == f"/players/{member_codes(doc)[0]}/"


def test_c2_a_lapsed_club_does_not_list_the_player(client, demo: DemoSummary) -> None:
    season = reference_season()
    graded = graded_ids(current_only=True)
    lapsed = ClubMembership.objects.filter(
        last_season__lte=season - 3, club__code__isnull=False, player_id__in=graded
    ).select_related("club")
    found = lapsed.first()
    assert found is not None  # the demo has memberships last quoted in 2009
    doc = page(client, f"/clubs/{found.club.code}/")
    assert ref(found.player_id) not in member_codes(doc)


def test_including_inactive_members_lists_those_graded_at_any_time(
    client, demo: DemoSummary
) -> None:
    club = busiest_club()
    ids = member_ids([club.id])
    expected = expected_codes(ids, inactive=True)

    doc = page(client, f"/clubs/{club.code}/?inactive=1")

    assert sorted(member_codes(doc)) == sorted(expected)
    assert expected >= expected_codes(ids)
    toggle = doc.find(".//nav[@class='views']//a")
    assert text(toggle) == "Active members only"
    assert toggle.get("href") == f"/clubs/{club.code}/"  # type: ignore[union-attr]


def test_members_sort_by_name_case_and_accents_ignored(client, demo: DemoSummary) -> None:
    doc = page(client, f"/clubs/{busiest_club().code}/?inactive=1")
    names = [text(row.find("th/a")) for row in member_rows(doc)]
    keys = [plain(name).replace(" ", "").replace("-", "") for name in names]
    assert keys == sorted(keys)
    header = doc.find(".//table/thead/tr/th[@aria-sort]")
    assert text(header).startswith("Name") and header.get("aria-sort") == "ascending"  # type: ignore[union-attr]


@pytest.mark.parametrize(("sort", "index"), [("standard", 1), ("rapid", 2)])
def test_members_sort_by_a_grade_highest_first_the_ungraded_last(
    client, demo: DemoSummary, sort: str, index: int
) -> None:
    club = busiest_club()
    doc = page(client, f"/clubs/{club.code}/?sort={sort}")
    grades = column(doc, index)
    graded = [g for g in grades if g is not None]
    assert graded == sorted(graded, reverse=True)
    assert grades == graded + [None] * (len(grades) - len(graded))
    header = doc.find(".//table/thead/tr/th[@aria-sort]")
    assert text(header).startswith(sort.capitalize()) and header.get("aria-sort") == "descending"  # type: ignore[union-attr]
    entries = ListEntry.objects.filter(version=current_versions()[sort], published=True)
    expected = {ref(e.player_id): e.grade for e in entries}
    assert grades == [expected.get(code) for code in member_codes(doc)]


def test_a_county_lists_the_members_of_all_its_clubs(client, demo: DemoSummary) -> None:
    county = busiest_club().county
    clubs = list(Club.objects.filter(county=county).values_list("id", flat=True))
    expected = expected_codes(member_ids(clubs))

    doc = page(client, f"/counties/{county_key(county.name)}/")

    assert sorted(member_codes(doc)) == sorted(expected)
    assert text(doc.find(".//h1")) == f"{county.name}: members of all clubs"
    listed = {text(a).rstrip("*") for a in doc.findall(".//details[@id='clubs']//li/a")}
    assert listed == {c.name for c in Club.objects.filter(county=county)}


def county_team_ids(county: County) -> set[int]:
    """Players of county-match games quoted in that game's season with one of the county's
    clubs, or quoted with no club and on the county's side of a match 'Home v Away'."""
    clubs = set(Club.objects.filter(county=county).values_list("id", flat=True))
    seasons: dict[int, list[tuple[int, int, int]]] = {}
    for pid, club, first, last in ClubMembership.objects.values_list(
        "player_id", "club_id", "first_season", "last_season"
    ):
        seasons.setdefault(pid, []).append((club, first, last))
    games = Game.objects.filter(event__kind="county-match").exclude(not_graded_reason="superseded")
    found = set()
    for one, two, day, name in games.values_list("player1", "player2", "game_date", "part_name"):
        home, _, away = name.partition(" v ")
        away = away.split(" (")[0]
        for pid, side in ((one, home), (two, away)):
            quoted = [c for c, f, last in seasons.get(pid, []) if f <= season_of(day) <= last]
            if pid is not None and (clubs & set(quoted) or (not quoted and side == county.name)):
                found.add(pid)
    return found


def test_a_county_team_is_everyone_who_played_for_the_county(client, demo: DemoSummary) -> None:
    for county in County.objects.all():
        expected = expected_codes(county_team_ids(county), inactive=True)
        doc = page(client, f"/counties/{county_key(county.name)}/?team=1&inactive=1")
        assert sorted(member_codes(doc)) == sorted(expected), county.name
        assert text(doc.find(".//h1")) == f"{county.name} county team"


def test_a_club_known_by_name_only_has_an_address_of_its_id(client, demo: DemoSummary) -> None:
    location = Club.objects.filter(code__isnull=True).order_by("id").first()
    assert location is not None
    doc = page(client, f"/clubs/club-{location.id}/")
    assert sorted(member_codes(doc)) == sorted(expected_codes(member_ids([location.id])))
    assert "known by name only" in text(doc.find(".//dl"))


def test_a_merged_club_appears_under_both_names_with_the_same_members(
    client, demo: DemoSummary
) -> None:
    survivor = busiest_club()
    absorbed = (
        Club.objects.filter(code__isnull=False, county=survivor.county)
        .exclude(id=survivor.id)
        .first()
    )
    assert absorbed is not None
    Club.objects.filter(id=absorbed.id).update(merged_into=survivor)
    club_service.forget_index()
    expected = expected_codes(member_ids([survivor.id, absorbed.id]))

    found = page(client, f"/clubs/?q={absorbed.name}")
    row = found.findall(".//table[@class='clubs-found']/tbody/tr")[0]
    assert "merged into" in text(row.find("th"))
    for code in (survivor.code, absorbed.code):
        assert sorted(member_codes(page(client, f"/clubs/{code}/"))) == sorted(expected)


def test_g27_a_revised_grade_is_highlighted_and_said_in_words(client, demo: DemoSummary) -> None:
    club = busiest_club()
    august = current_versions()["standard"]
    entries = list(ListEntry.objects.filter(version=august))
    codes = member_codes(page(client, f"/clubs/{club.code}/"))
    changed = next(e for e in entries if e.published and ref(e.player_id) in codes)
    august_grade = changed.grade
    rev1 = ListVersion.objects.create(grading_list=august.grading_list, name="rev1")
    for entry in entries:
        entry.pk, entry.version = None, rev1
        if entry.player_id == changed.player_id:
            entry.grade = august_grade + 7
    ListEntry.objects.bulk_create(entries)
    rev1.status, rev1.published_at = "published", timezone.now() + dt.timedelta(days=1)
    rev1.save()

    doc = page(client, f"/clubs/{club.code}/")

    revised = [row for row in member_rows(doc) if "revised" in (row.get("class") or "")]
    assert [text(row.find("td[@class='code']")) for row in revised] == [ref(changed.player_id)]
    assert f"revised since August (August {august_grade})" in text(revised[0])
    assert text(revised[0].findall("td")[1]).startswith(str(august_grade + 7))


def test_member_lists_have_json_twins(client, demo: DemoSummary) -> None:
    club = busiest_club()
    data = json_of(client, f"/clubs/{club.code}/?sort=standard")
    assert (data["kind"], data["club"]["code"], data["sort"]) == ("club", club.code, "standard")
    codes = [m["code"] for m in data["members"]]
    assert codes == member_codes(page(client, f"/clubs/{club.code}/?sort=standard"))
    assert set(data["members"][0]) == {"code", "name", "standard", "rapid", "junior_age", "clubs"}
    county = json_of(client, f"/counties/{county_key(club.county.name)}/?team=1")
    assert (county["kind"], county["county"]["name"]) == ("county-team", club.county.name)


def test_unknown_clubs_and_counties_are_404_pages_with_the_lookup(
    client, demo: DemoSummary
) -> None:
    for path in ("/clubs/ZZZZ/", "/clubs/club-999999/", "/counties/nowhere/"):
        response = client.get(path)
        assert response.status_code == 404
        doc = parse(response.content.decode())
        assert doc.find(".//input[@id='club-q']") is not None


def test_a_code_in_small_letters_moves_to_the_code(client, demo: DemoSummary) -> None:
    club = busiest_club()
    response = client.get(f"/clubs/{club.code.lower()}/?sort=rapid")
    assert response.status_code == 301
    assert response["Location"] == f"/clubs/{club.code}/?sort=rapid"


def test_a_members_page_reads_the_same_queries_whatever_its_length(
    client, demo: DemoSummary
) -> None:
    active = graded_ids(current_only=True)
    coded = Club.objects.filter(code__isnull=False, county__isnull=False)
    sizes = {club: len(member_ids([club.id]) & active) for club in coded}
    club = min((c for c in sizes if sizes[c]), key=lambda c: (sizes[c], c.id))
    county = county_key(busiest_club().county.name)

    def queries(path: str) -> int:
        from django.core.cache import cache

        cache.clear()
        MEMORY.clear()  # a page remembered by the worker would not build the index
        club_service.forget_index()
        client.get("/clubs/?q=a")  # the club index, kept per data token
        warm_members()  # who is graded now, likewise (web.warming, issue 25)
        cache.clear()
        MEMORY.clear()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path).status_code == 200
        return len([q for q in captured.captured_queries if not cache_query(q["sql"])])

    small, large = queries(f"/clubs/{club.code}/"), queries(f"/clubs/{busiest_club().code}/")
    assert len(member_codes(page(client, f"/clubs/{busiest_club().code}/"))) > 5 * len(
        member_codes(page(client, f"/clubs/{club.code}/"))
    )
    # The data token (read once for the page cache and the club index), the lists, the
    # merged records, the clubs of the records merged into others (the demo has one
    # merge), the page's players with their count, their entries.
    assert small == large == 6
    # A county names each member's clubs too, whether it has ten members or a thousand.
    assert queries(f"/counties/{county}/?inactive=1") == queries(f"/counties/{county}/") == 7
