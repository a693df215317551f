"""/api/v1 on the tiny demo: every endpoint, its errors, its caching, and privacy.

Expected values come from plain queries of the registry's rows in each test (entries of
the latest published versions, stored points, memberships), from the rules by hand (G12's
40-point rule, G29's conversions) or, for a list's entries, from the list's JSON export
(another program writing the same fields); never from the API's own services.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.lookups.exports import export_list
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    County,
    Event,
    Game,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
)
from ecfgrading.services.merge import merge_players
from tests.web.captured import page_statements

pytestmark = pytest.mark.django_db

API = "/api/v1"
SEASON = 2015  # the demo's current lists are July 2015's: season 2014-15


# Expectations by plain queries ---------------------------------------------------------------


def current_versions() -> dict[str, ListVersion]:
    """Each rate's latest published version of its latest list with one (G26)."""
    found = {}
    for rate in ("standard", "rapid"):
        published = ListVersion.objects.filter(status="published", grading_list__rate=rate)
        latest = published.order_by("-grading_list__list_id").first()
        assert latest is not None
        found[rate] = published.filter(grading_list=latest.grading_list).latest("published_at")
    return found


def version_of(list_id: str, rate: str, name: str) -> ListVersion:
    return ListVersion.objects.get(
        grading_list__list_id=list_id, grading_list__rate=rate, name=name, status="published"
    )


def code_of(player_id: int) -> str:
    return str(GradingCode(Player.objects.get(pk=player_id).code))


def graded_in(version: ListVersion) -> dict[int, ListEntry]:
    return {e.player_id: e for e in ListEntry.objects.filter(version=version, published=True)}


def a_player_graded_in_both() -> Player:
    """A player with a published grade in both current versions, with games of his own."""
    current = current_versions()
    both = set(graded_in(current["standard"])) & set(graded_in(current["rapid"]))
    with_games = ListEntry.objects.filter(
        version=current["standard"], player_id__in=both, games_latest__gt=0
    ).exclude(start_source="")
    return with_games.order_by("player__code").first().player  # type: ignore[union-attr]


def get(client: Client, path: str, **headers: str) -> Any:
    response = client.get(f"{API}{path}", **headers)
    assert response["Content-Type"].startswith("application/json"), path
    return response


# Players -------------------------------------------------------------------------------------


def test_a_name_prefix_finds_the_players_graded_now(client: Client, demo: DemoSummary) -> None:
    current = current_versions()
    graded = set(graded_in(current["standard"])) | set(graded_in(current["rapid"]))
    expected = {
        str(GradingCode(p.code))
        for p in Player.objects.filter(id__in=graded, name_key__startswith="a")
    }
    found = get(client, "/players?q=A&per_page=200").json()
    assert {row["code"] for row in found["players"]} == expected
    assert found["page"]["total"] == len(expected)
    assert {(v["list"], v["rate"], v["version"]) for v in found["lists"]} == {
        (v.grading_list.list_id, rate, v.name) for rate, v in current.items()
    }


def test_a_lookup_pages_through_the_players(client: Client, demo: DemoSummary) -> None:
    whole = get(client, "/players?q=b&per_page=200").json()["players"]
    first = get(client, "/players?q=b&per_page=3").json()
    second = get(client, "/players?q=b&per_page=3&page=2").json()
    assert first["page"] == {
        "page": 1,
        "per_page": 3,
        "total": len(whole),
        "pages": -(-len(whole) // 3),
    }
    assert [r["code"] for r in first["players"] + second["players"]] == [
        r["code"] for r in whole[:6]
    ]


def test_a_code_with_or_without_its_letter_finds_its_player(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player_graded_in_both()
    code = str(GradingCode(player.code))
    for asked in (code, code[:6], code.lower()):
        found = get(client, f"/players?q={asked}").json()
        assert found["code"] == code
        assert [row["code"] for row in found["players"]] == [code]
        assert found["players"][0]["name"] == f"{player.surname}, {player.forenames}"


def test_a_lookup_without_a_query_is_malformed(client: Client, demo: DemoSummary) -> None:
    for path in ("/players", "/players?q=", "/players?q=smith&per_page=0", "/players?q=a&page=x"):
        response = get(client, path)
        assert response.status_code == 422, path
        body = response.json()
        assert body["status"] == 422 and body["message"].startswith("malformed request")
        assert body["detail"], path


def test_a_player_has_his_current_grades_and_their_conversions(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player_graded_in_both()
    current = current_versions()
    response = get(client, f"/players/{GradingCode(player.code)}")
    assert response.status_code == 200
    found = response.json()
    assert found["code"] == str(GradingCode(player.code))
    assert found["name"] == f"{player.surname}, {player.forenames}"
    assert found["fide_id"] == player.fide_id
    assert found["nation"] == player.nation
    assert found["merged"] is False
    for rate, version in current.items():
        entry = ListEntry.objects.get(version=version, player=player)
        card = found[rate]
        assert (card["list"], card["version"]) == (version.grading_list.list_id, version.name)
        assert card["grade"] == entry.grade
        assert card["category"] == entry.category
        assert (card["games_latest"], card["games_counted"]) == (
            entry.games_latest,
            entry.games_counted,
        )
        assert card["fide"] == entry.grade * 8 + 650  # G29
        assert card["national_elo"] == entry.grade * 8 + 600
        assert card["below_fide_minimum"] is (entry.grade * 8 + 650 < 1200)
        august = ListEntry.objects.filter(
            version=version_of(version.grading_list.list_id, rate, "august"), player=player
        ).first()
        assert card["august_grade"] == (august.grade if august and august.published else None)


def test_his_clubs_are_those_quoted_in_the_latest_three_seasons(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player_graded_in_both()
    quoted = ClubMembership.objects.filter(
        player=player, first_season__lte=SEASON, last_season__gt=SEASON - 3
    )
    expected = {m.club.name for m in quoted}
    found = get(client, f"/players/{GradingCode(player.code)}").json()
    assert {club["name"] for club in found["clubs"]} == expected
    for club in found["clubs"]:
        assert get(client, f"/clubs/{club['key']}").status_code == 200


def test_a_junior_has_his_age_and_an_adult_none(client: Client, demo: DemoSummary) -> None:
    version = current_versions()["standard"]
    junior = ListEntry.objects.filter(version=version, junior_age__isnull=False).first()
    adult = ListEntry.objects.filter(version=version, junior_age__isnull=True).first()
    assert junior is not None and adult is not None
    found = get(client, f"/players/{GradingCode(junior.player.code)}").json()
    assert found["junior_age"] == junior.junior_age
    assert found["age_date"] == "2015-08-31"  # G25: 31 August of the list's year
    assert get(client, f"/players/{GradingCode(adult.player.code)}").json()["junior_age"] is None


def test_a_code_without_its_letter_answers_for_its_player(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player_graded_in_both()
    code = str(GradingCode(player.code))
    assert get(client, f"/players/{code[:6]}").json()["code"] == code
    assert get(client, f"/players/{code.lower()}").json()["code"] == code


def test_unknown_and_malformed_codes_are_json_errors(client: Client, demo: DemoSummary) -> None:
    taken = set(Player.objects.values_list("code", flat=True))
    free = next(n for n in range(100_000, 999_999) if n not in taken)
    wrong_letter = f"{free:06d}{'A' if GradingCode(free).letter != 'A' else 'B'}"
    for path in (f"/players/{free:06d}", f"/players/{wrong_letter}"):
        response = get(client, path)
        assert response.status_code == 404, path
        assert response.json()["status"] == 404
        assert response.json()["message"]
    for path in ("/players/12345", "/players/abcdefg", "/players/1234567"):
        assert get(client, path).status_code == 422, path


def test_a_merged_code_answers_for_the_player_it_counts_for(
    client: Client, demo: DemoSummary
) -> None:
    """G28: the absorbed code's grades count for the survivor."""
    survivor = a_player_graded_in_both()
    other = Player.objects.exclude(pk=survivor.pk).order_by("-code").first()
    assert other is not None
    merge_players(str(GradingCode(other.code)), str(GradingCode(survivor.code)))
    found = get(client, f"/players/{GradingCode(other.code)}").json()
    assert found["code"] == str(GradingCode(survivor.code))
    assert found["merged"] is True
    history = get(client, f"/players/{GradingCode(other.code)}/history").json()
    assert history["code"] == str(GradingCode(survivor.code))


def test_his_history_has_every_list_he_is_in(client: Client, demo: DemoSummary) -> None:
    player = a_player_graded_in_both()
    entries = ListEntry.objects.filter(player=player, version__status="published")
    latest: dict[tuple[str, str], ListEntry] = {}
    for entry in entries.select_related("version__grading_list").order_by("version__published_at"):
        latest[(entry.version.grading_list.list_id, entry.version.grading_list.rate)] = entry
    found = get(client, f"/players/{GradingCode(player.code)}/history").json()
    lists = found["lists"]
    assert [row["list"] for row in lists] == sorted({key[0] for key in latest}, reverse=True)
    for row in lists:
        for rate in ("standard", "rapid"):
            entry = latest.get((row["list"], rate))
            if entry is None:
                assert row[rate] is None
                continue
            point = row[rate]
            assert point["version"] == entry.version.name
            assert point["grade"] == (entry.grade if entry.published else None)
            assert point["games_counted"] == entry.games_counted


def g12(own_start: float, opponent_start: float, score: float) -> tuple[float, float]:
    """G12 by hand: the opponent's value after the 40-point rule, and the points."""
    value = min(max(opponent_start, own_start - 40), own_start + 40)
    return value, value + {1.0: 50, 0.5: 0, 0.0: -50}[score]


def test_his_games_carry_the_40_point_rule_and_the_points(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player_graded_in_both()
    version = current_versions()["standard"]
    entry = ListEntry.objects.get(version=version, player=player)
    starts = dict(ListEntry.objects.filter(version=version).values_list("player_id", "start_grade"))
    stored = StoredGamePoints.objects.filter(version=version, player=player, period=0)
    found = get(client, f"/players/{GradingCode(player.code)}/games").json()
    assert (found["rate"], found["list"], found["version"]) == (
        "standard",
        version.grading_list.list_id,
        version.name,
    )
    assert found["grade"] == entry.grade and found["from_file"] is False
    assert found["start_grade"] == entry.start_grade
    assert len(found["games"]) == stored.count() == entry.games_latest
    games = {g.id: g for g in Game.objects.filter(id__in=stored.values("game_id"))}
    by_date = sorted(stored, key=lambda s: (games[s.game_id].game_date, s.game_id))
    for row, points in zip(found["games"], by_date, strict=True):
        game = games[points.game_id]
        opponent = game.player2_id if game.player1_id == player.id else game.player1_id
        assert row["date"] == game.game_date.isoformat()
        assert row["opponent"]["code"] == code_of(opponent)
        assert row["opponent_start"] == starts[opponent]
        value, scored = g12(entry.start_grade, starts[opponent], row["score"])
        assert row["counted_as"] == pytest.approx(value)
        assert row["points"] == pytest.approx(scored) == pytest.approx(points.points)


def test_games_of_a_list_loaded_from_a_file_are_not_on_record(
    client: Client, demo: DemoSummary
) -> None:
    entry = ListEntry.objects.filter(
        version=version_of("2009-07", "standard", "initial"), published=True
    ).first()
    assert entry is not None and not entry.start_source
    found = get(client, f"/players/{GradingCode(entry.player.code)}/games?list=2009-07").json()
    assert found["from_file"] is True and found["games"] == []
    assert found["grade"] == entry.grade


def test_games_of_a_list_he_is_not_in_are_a_404(client: Client, demo: DemoSummary) -> None:
    current = current_versions()
    graded = set(graded_in(current["standard"]))
    absent = (
        Player.objects.exclude(
            id__in=ListEntry.objects.filter(version=current["rapid"]).values("player_id")
        )
        .filter(id__in=graded)
        .first()
    )
    assert absent is not None
    code = GradingCode(absent.code)
    assert get(client, f"/players/{code}/games?rate=rapid").status_code == 404
    assert get(client, f"/players/{code}/games?list=2016-07").status_code == 404
    assert get(client, f"/players/{code}/games?list=2012-05").status_code == 422
    assert get(client, f"/players/{code}/games?rate=blitz").status_code == 422


# Clubs and counties --------------------------------------------------------------------------


def members_now(club_ids: list[int]) -> set[str]:
    """C2 and G26 by plain queries: memberships quoted in the latest three seasons, of
    players with a published grade in a current version."""
    current = current_versions()
    graded = set(graded_in(current["standard"])) | set(graded_in(current["rapid"]))
    quoted = ClubMembership.objects.filter(
        club_id__in=club_ids, first_season__lte=SEASON, last_season__gt=SEASON - 3
    ).values_list("player_id", flat=True)
    return {code_of(pk) for pk in set(quoted) & graded}


def a_club() -> Club:
    club = Club.objects.filter(is_location=False, county__isnull=False).order_by("code").first()
    assert club is not None and club.code
    return club


def test_a_club_lookup_finds_it_by_name_and_by_code(client: Client, demo: DemoSummary) -> None:
    club = a_club()
    by_name = get(client, f"/clubs?q={club.name[:3]}").json()
    assert club.code in {r["club"]["code"] for r in by_name["results"] if r["kind"] == "club"}
    by_code = get(client, f"/clubs?q={club.code}").json()
    assert by_code["results"][0]["club"]["code"] == club.code
    assert get(client, "/clubs").status_code == 422


def test_a_club_has_its_county_and_its_members(client: Client, demo: DemoSummary) -> None:
    club = a_club()
    found = get(client, f"/clubs/{club.code.lower()}").json()
    assert (found["key"], found["name"]) == (club.code, club.name)
    assert found["county"]["name"] == club.county.name  # type: ignore[union-attr]
    expected = members_now([club.id])
    assert found["members"] == len(expected)
    members = get(client, f"/clubs/{club.code}/members").json()
    assert {m["code"] for m in members["members"]} == expected
    assert all(m["active"] for m in members["members"])


def test_club_members_sort_by_grade(client: Client, demo: DemoSummary) -> None:
    club = a_club()
    found = get(client, f"/clubs/{club.code}/members?sort=standard").json()
    grades = [m["standard"]["grade"] for m in found["members"] if m["standard"]]
    assert grades == sorted(grades, reverse=True)
    assert found["sort"] == "standard"
    assert get(client, f"/clubs/{club.code}/members?sort=age").status_code == 422


def test_inactive_members_include_those_graded_before(client: Client, demo: DemoSummary) -> None:
    club = a_club()
    now = {m["code"] for m in get(client, f"/clubs/{club.code}/members").json()["members"]}
    ever = get(client, f"/clubs/{club.code}/members?inactive=1").json()["members"]
    assert now <= {m["code"] for m in ever}


def test_unknown_clubs_and_counties_are_404s(client: Client, demo: DemoSummary) -> None:
    for path in ("/clubs/QQQQ", "/clubs/club-999999", "/counties/atlantis", "/clubs/QQQQ/members"):
        response = get(client, path)
        assert response.status_code == 404, path
        assert response.json()["message"]
    assert get(client, "/clubs/a%20b").status_code == 422


def test_a_county_has_its_clubs_and_their_members(client: Client, demo: DemoSummary) -> None:
    club = a_club()
    county: County = club.county  # type: ignore[assignment]
    key = "-".join(county.name.lower().split())
    found = get(client, f"/counties/{key}").json()
    clubs = Club.objects.filter(county=county)
    assert {c["name"] for c in found["clubs"]} == {c.name for c in clubs}
    expected = members_now([c.id for c in clubs])
    assert found["members"] == len(expected)
    members = get(client, f"/counties/{key}/members").json()
    assert {m["code"] for m in members["members"]} == expected
    assert members["kind"] == "county"
    team = get(client, f"/counties/{key}/members?team=1").json()
    assert team["kind"] == "county-team"


# Events --------------------------------------------------------------------------------------


def test_events_of_a_season_are_those_received_in_it(client: Client, demo: DemoSummary) -> None:
    received = Event.objects.filter(
        status__in=("received", "graded"), end_date__range=("2010-06-01", "2011-05-31")
    )
    found = get(client, "/events?season=2010-11").json()
    assert found["season"] == "2010-11"
    assert {e["code"] for e in found["events"]} == set(received.values_list("code", flat=True))
    assert found["page"]["total"] == received.count()


def test_an_event_has_its_results(client: Client, demo: DemoSummary) -> None:
    event = Event.objects.filter(status__in=("received", "graded")).order_by("code").first()
    assert event is not None
    games = Game.objects.filter(event=event).exclude(not_graded_reason="superseded")
    found = get(client, f"/events/{event.code.lower()}").json()
    assert found["code"] == event.code
    shown = [g for part in found["parts"] for r in part["rounds"] for g in r["games"]]
    assert len(shown) == games.count()
    assert found["games_graded"] == games.filter(graded=True).count()


def test_unknown_events_and_malformed_seasons(client: Client, demo: DemoSummary) -> None:
    assert get(client, "/events/NOSUCH99").status_code == 404
    for season in ("2010-12", "2010", "10-11"):
        assert get(client, f"/events?season={season}").status_code == 422, season


# Lists ---------------------------------------------------------------------------------------


def test_the_lists_index_has_every_published_version(client: Client, demo: DemoSummary) -> None:
    published = ListVersion.objects.filter(status="published").select_related("grading_list")
    expected = {(v.grading_list.list_id, v.grading_list.rate, v.name) for v in published}
    found = get(client, "/lists").json()
    shown = {
        (item["list"], v["rate"], v["version"]) for item in found["lists"] for v in item["versions"]
    }
    assert shown == expected
    current = current_versions()
    assert {(c["rate"], c["list"], c["version"]) for c in found["current"]} == {
        (rate, v.grading_list.list_id, v.name) for rate, v in current.items()
    }
    entries = found["lists"][0]["versions"][0]["entries"]
    assert get(client, entries.removeprefix(API)).status_code == 200


@pytest.mark.parametrize(("list_id", "rate", "version"), [
    ("2012-07", "standard", "initial"), ("2012-07", "rapid", "august"),
    ("2011-07", "standard", "august"), ("2012-01", "rapid", "initial"),
])  # fmt: skip
def test_list_entries_are_the_json_exports_a_page_at_a_time(
    client: Client, demo: DemoSummary, list_id: str, rate: str, version: str
) -> None:
    exported = json.loads(export_list(list_id, rates=[rate], version=version, fmt="json"))
    pages, number = [], 1
    while True:
        found = get(client, f"/lists/{list_id}/{rate}?version={version}&per_page=40&page={number}")
        body = found.json()
        pages.extend(body["entries"])
        if number >= body["page"]["pages"]:
            break
        number += 1
    assert body["page"]["total"] == len(exported) == len(pages)
    assert {e["code"]: e for e in pages} == {e["code"]: e for e in exported}


def test_list_entries_default_to_the_current_version(client: Client, demo: DemoSummary) -> None:
    version = current_versions()["standard"]
    found = get(client, f"/lists/{version.grading_list.list_id}/standard?per_page=5").json()
    assert found["version"] == version.name and found["current"] is True
    assert found["versions"] == ["initial", "august"]
    assert (
        found["page"]["total"] == ListEntry.objects.filter(version=version, published=True).count()
    )
    keys = [
        Player.objects.get(code=GradingCode.parse(e["code"]).number).name_key
        for e in found["entries"]
    ]
    assert keys == sorted(keys)


def test_unknown_and_malformed_lists(client: Client, demo: DemoSummary) -> None:
    for path in (
        "/lists/2016-07/standard",
        "/lists/2016-01/standard",
        "/lists/2012-07/rapid?version=rev4",
    ):
        assert get(client, path).status_code == 404, path
    for path in (
        "/lists/2012-05/standard",
        "/lists/2012-07/blitz",
        "/lists/2012-07/rapid?version=latest",
    ):
        assert get(client, path).status_code == 422, path


def test_conversions_follow_g29(client: Client, demo: DemoSummary) -> None:
    def row(query: str) -> dict[str, Any]:
        rows = get(client, f"/conversions?{query}").json()["rows"]
        assert len(rows) == 1
        return rows[0]

    assert row("ecf=150") == {
        "given": "ecf", "ecf": 150, "fide": 1850, "national_elo": 1800,
        "below_fide_minimum": False,
    }  # fmt: skip
    assert row("fide=1900")["ecf"] == 156.25  # (1900 - 650) / 8
    assert row("elo=1800")["ecf"] == 150  # (1800 - 600) / 8
    assert row("ecf=60")["below_fide_minimum"] is True  # 60 x 8 + 650 = 1130 < 1200
    table = get(client, "/conversions").json()
    assert [r["ecf"] for r in table["rows"]] == list(range(60, 271, 10))
    both = get(client, "/conversions?ecf=150&fide=1850").json()["rows"]
    assert [r["given"] for r in both] == ["ecf", "fide"]
    assert get(client, "/conversions?ecf=lots").status_code == 422


# The API's frame -----------------------------------------------------------------------------


def test_answers_carry_an_etag_and_a_304_follows(client: Client, demo: DemoSummary) -> None:
    player = a_player_graded_in_both()
    for path in (f"/players/{GradingCode(player.code)}", "/lists/2012-07/rapid", "/players/999999"):
        first = get(client, path)
        assert first["ETag"] and "max-age" in first["Cache-Control"], path
        again = client.get(f"{API}{path}", HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, path
        assert get(client, path).content == first.content


def test_paths_naming_no_endpoint_answer_json(client: Client, demo: DemoSummary) -> None:
    for path in ("/nothing", "/players/", "/lists/2012-07"):
        response = get(client, path)
        assert response.status_code == 404, path
        assert "docs" in response.json()["message"]
    root = get(client, "/")
    assert root.json()["openapi"] == f"{API}/openapi.json"


def test_head_answers_like_get_and_other_methods_are_refused_in_json(
    client: Client, demo: DemoSummary
) -> None:
    got = get(client, "/lists")
    head = client.head(f"{API}/lists")
    assert head.status_code == 200 and head["ETag"] == got["ETag"]
    assert head["Content-Length"] == str(len(got.content))
    for method in (client.post, client.put, client.delete):
        refused = method(f"{API}/lists")
        assert refused.status_code == 405
        assert refused.json()["status"] == 405 and refused["Allow"] == "GET, HEAD"
    assert client.post(f"{API}/nothing").json()["status"] == 404


def test_the_schema_documents_every_endpoint(client: Client, demo: DemoSummary) -> None:
    paths = get(client, "/openapi.json").json()["paths"]
    expected = {
        "/players", "/players/{code}", "/players/{code}/history", "/players/{code}/games",
        "/clubs", "/clubs/{code}", "/clubs/{code}/members", "/counties/{code}",
        "/counties/{code}/members", "/events", "/events/{code}", "/lists",
        "/lists/{list_id}/{rate}", "/conversions",
    }  # fmt: skip
    assert set(paths) == {f"{API}{p}" for p in expected}
    assert all(set(ops) == {"get"} for ops in paths.values())


def test_the_docs_page_loads_nothing_from_elsewhere(client: Client, demo: DemoSummary) -> None:
    response = client.get(f"{API}/docs")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources)
    for source in sources:
        if source.startswith("/static/"):
            assert finders.find(source.removeprefix("/static/")), source
    assert "<style" not in html and "style=" not in html
    assert all(tag == "<script src=" for tag in re.findall(r"<script[^>]*?(?: src=|>)", html))


# Privacy and cost ----------------------------------------------------------------------------


def every_answer(client: Client) -> list[tuple[str, bytes]]:
    """An answer of every endpoint, for players of every kind (juniors too)."""
    current = current_versions()["standard"]
    codes = [
        str(GradingCode(e.player.code))
        for e in ListEntry.objects.filter(version=current).select_related("player")[:40]
    ]
    club, event = a_club(), Event.objects.order_by("code").first()
    county = "-".join(club.county.name.lower().split())  # type: ignore[union-attr]
    paths = ["/players?q=a&inactive=1&per_page=200", "/lists", "/conversions", "/events"]
    for code in codes:
        paths += [f"/players/{code}", f"/players/{code}/history", f"/players/{code}/games"]
    paths += [
        f"/clubs?q={club.name[:2]}",
        f"/clubs/{club.code}",
        f"/clubs/{club.code}/members?inactive=1",
    ]
    paths += [f"/counties/{county}", f"/counties/{county}/members?inactive=1&team=1"]
    paths += [f"/events/{event.code}"]  # type: ignore[union-attr]
    for v in ListVersion.objects.filter(status="published").select_related("grading_list"):
        paths.append(
            f"/lists/{v.grading_list.list_id}/{v.grading_list.rate}?version={v.name}&per_page=200"
        )
    return [(path, get(client, path).content) for path in paths]


def test_no_answer_has_a_date_of_birth(client: Client, demo: DemoSummary) -> None:
    """Privacy (data rules, G25): juniors' ages are public, dates of birth never are."""
    births = {d for d in Player.objects.values_list("date_of_birth", flat=True) if d}
    assert births
    spellings = {d.isoformat() for d in births} | {d.strftime("%d/%m/%Y") for d in births}
    for path, body in every_answer(client):
        text = body.decode()
        assert "birth" not in text.lower(), path
        leaked = [s for s in spellings if s in text]
        assert not leaked, (path, leaked)


def test_a_page_of_a_list_costs_the_same_queries_whatever_its_size(
    client: Client, demo: DemoSummary
) -> None:
    # Once per process and version: its order and what was frozen with it (issue 24).
    assert get(client, "/lists/2012-07/standard?per_page=1").status_code == 200
    counts = []
    for per_page in (5, 200):
        with CaptureQueriesContext(connection) as queries:
            assert get(client, f"/lists/2012-07/standard?per_page={per_page}").status_code == 200
        counts.append(len(page_statements(queries)))
    assert counts[0] == counts[1]


def test_a_player_costs_the_same_queries_whatever_his_games(
    client: Client, demo: DemoSummary
) -> None:
    """None per game or per list: the player with most games and the one with fewest."""
    entries = ListEntry.objects.filter(
        version=current_versions()["standard"], games_latest__gt=0
    ).exclude(start_source="")
    most, fewest = (
        entries.order_by("-games_latest").first(),
        entries.order_by("games_latest").first(),
    )
    assert most is not None and fewest is not None
    assert most.games_latest > fewest.games_latest
    for suffix in ("", "/history", "/games"):
        counts = []
        for entry in (most, fewest):
            with CaptureQueriesContext(connection) as queries:
                path = f"/players/{GradingCode(entry.player.code)}{suffix}"
                assert get(client, path).status_code == 200
            counts.append(len(page_statements(queries)))
        assert counts[0] == counts[1], suffix
